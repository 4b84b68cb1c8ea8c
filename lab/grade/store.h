/*
 * store.h - the learner's progress: attempts and best results in SQLite.
 *
 * The database lives at $CUDALAB_DB, else $XDG_DATA_HOME/cudalab/progress.db,
 * else ~/.local/share/cudalab/progress.db (lab_store_default_path).  It is
 * opened in WAL mode with a busy timeout, so two lab windows and a batch run
 * can write at once; every attempt is one transaction.
 *
 * Call order: lab_store_open, then any number of add/progress/history calls,
 * then lab_store_close.  Strings returned inside lab_progress/lab_attempt
 * records passed to callbacks are borrowed for the duration of the callback.
 */
#ifndef LAB_GRADE_STORE_H
#define LAB_GRADE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "lab/util/buf.h"
#include "lab/util/i18n.h"
#include "lab/util/err.h"

typedef struct lab_store lab_store;

typedef struct lab_attempt {
    const char *exercise;   /* "reduction/neighbored" */
    const char *file;       /* path graded */
    const char *file_hash;  /* content hash, hex */
    int64_t time;           /* unix seconds */
    const char *backend;    /* "cuda", "sim", "none" */
    const char *device;     /* "NVIDIA H100 80GB HBM3" or "" */
    const char *verdict;    /* "PASS", ... */
    const char *message;    /* the verdict's one-line cause */
    const char *cases_json; /* per-size results, JSON text */
    double median_ns;       /* student's median at the largest timed size; 0 if none */
    double speedup;         /* over the baseline; 0 if none */
    double fraction;        /* of the reference's speedup; 0 if none */
    int points;
} lab_attempt;

typedef struct lab_progress {
    int attempts;          /* 0 = not started */
    bool passed;           /* any PASS */
    char last_verdict[32]; /* verdict of the newest attempt, "" if none */
    double best_speedup;   /* max over correct attempts (PASS or SLOW); 0 if none */
    double best_fraction;
    double best_median_ns; /* min over correct attempts; 0 if none */
    int best_points;
} lab_progress;

/* Default path into out (see above); creates no directory. */
int lab_store_default_path(lab_buf *out, lab_err *err);
/* Opens (creating the file, its directory and the schema when missing). */
int lab_store_open(const char *path, lab_store **out, lab_err *err);
/* What to do when the store cannot be opened or written, for the front ends to print. */
#define LAB_STORE_FIX                                                                              \
    N_("make the store's folder writable, move a damaged store aside (the lab starts a new one; "  \
       "sqlite3 FILE .recover can save its attempts), or set CUDALAB_DB to another file")
void lab_store_close(lab_store *st);

int lab_store_add_attempt(lab_store *st, const lab_attempt *a, int64_t *id_out, lab_err *err);
int lab_store_progress(lab_store *st, const char *exercise, lab_progress *out, lab_err *err);
/* Calls fn for each attempt of exercise, oldest first; a nonzero return from fn stops (and is
 * returned). */
int lab_store_history(lab_store *st, const char *exercise,
                      int (*fn)(const lab_attempt *a, void *arg), void *arg, lab_err *err);
/* SQLite's quick_check: 0 healthy, 1 damaged (problems says how), <0 when it cannot run. */
int lab_store_check(lab_store *st, lab_buf *problems, lab_err *err);
const char *lab_store_path(const lab_store *st);

/* A learner's answer to a chapter's "predict before you run" question
 * (lab/catalog/questions.h). */
typedef struct lab_prediction {
    const char *chapter;  /* "divergence" */
    const char *question; /* the question's id */
    const char *answer;   /* as given: a choice or a number */
    int64_t time;         /* unix seconds */
    int held;             /* 1 held, 0 did not, -1 no run has decided it yet */
    const char *measured; /* what the run found ("mathKernel4 fastest, spread 6 %"), or NULL */
    char answer_buf[256]; /* lab_store_prediction's copies */
    char measured_buf[256];
} lab_prediction;

int lab_store_add_prediction(lab_store *st, const lab_prediction *p, lab_err *err);
/* Sets held and measured on the newest answer p->answer to p's question. */
int lab_store_judge_prediction(lab_store *st, const lab_prediction *p, lab_err *err);
/* The newest answer to a question: 1 with *out filled (its strings in out's buffers, chapter and
 * question borrowed from the arguments), 0 when not answered yet, <0 on error. */
int lab_store_prediction(lab_store *st, const char *chapter, const char *question,
                         lab_prediction *out, lab_err *err);
/* Of a chapter's questions answered and decided (newest answer each): how many held. */
int lab_store_prediction_score(lab_store *st, const char *chapter, int *right, int *judged,
                               lab_err *err);

/* The learner's settings, by name ("lang"): 1 with the value in out, 0 when it is not set,
 * <0 on error. */
int lab_store_setting(lab_store *st, const char *name, lab_buf *out, lab_err *err);
/* Sets a setting; an empty value removes it. */
int lab_store_set_setting(lab_store *st, const char *name, const char *value, lab_err *err);
/* How many of an exercise's hints the learner has seen (0: none), kept as the setting
 * "hints:EXERCISE", so that the CLI, the shell and the menu each reveal the next one. */
int lab_store_hints_seen(lab_store *st, const char *exercise, size_t *out, lab_err *err);
int lab_store_set_hints_seen(lab_store *st, const char *exercise, size_t n, lab_err *err);

#endif
