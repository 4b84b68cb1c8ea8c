/*
 * batch.h - grading a class's submissions into a gradebook (`cudalab batch`).
 *
 * A submission is a .cu file (the student id is its name without .cu) or a
 * directory (the id is the directory's name; the file is <exercise name>.cu
 * in it, or its only .cu).  Each is copied to a private folder
 * <out>/.work/<id>/ and graded by a child `cudalab grade ... --json` (the
 * program in opts.self), so a submission that crashes, hangs or floods harms
 * only its own child.  Up to opts.jobs children run at once: their compiles
 * run in parallel, their GPU runs one at a time per GPU through the device
 * lock every grading takes (lab/platform/devlock.h).  The batch uses every GPU
 * the drivers see, or those opts.gpus names (lab/batch/gpus.h): it checks each
 * as a grader pinned to it sees it, then pins each child to the GPU with the
 * fewest children at work (CUDA_VISIBLE_DEVICES=<its UUID>), so that the GPUs
 * time in parallel and two timings never share one.  Under opts.sandbox the
 * children grade under bubblewrap (CUDALAB_SANDBOX=on).
 *
 * Crash safety: each graded submission is written at once to
 * <out>/results/<id>.json (atomically); the gradebook is rebuilt from the
 * results, every few submissions and at the end, also atomically.  Killing a
 * batch loses at most the submissions under way; running it again skips every
 * submission whose result has the same content hash (unless opts.force);
 * a submission that could not be read is looked at again every time.
 *
 * Each result names the GPU that timed it ("gpu": index, name, uuid, pci_bus_id:
 * the one its grader was pinned to, as its driver's report confirms; a report
 * from another GPU is an ERROR) and the thresholds it was judged by
 * ("thresholds", as the grading gives them).
 *
 * Gradebook (lab_gradebook_write, also `cudalab gradebook merge`):
 *   gradebook.csv   student, exercise, verdict, points, max_points, median_us,
 *                   speedup, fraction_of_reference, flags, content_hash, gpu,
 *                   gpu_uuid
 *                   (RFC 4180: a header row, CRLF, quotes where needed, UTF-8;
 *                   numbers plain, empty where there is none; a text a
 *                   spreadsheet would read as a formula, number, date or
 *                   boolean -- "=x", "007" -- written as ="..." so it opens as
 *                   the text)
 *   gradebook.json  {"version":1, "exercise", "submissions":[every result, with
 *                   the grader's whole report, compiler log and flags]}
 *   gradescope/<id>/results.json   with opts.gradescope
 * Flags (a reason each; they never change a verdict, a person reads them):
 *   identical        the same code (comments and blanks aside) as other students
 *   ignores-input    the kernel never loads from global memory
 *   reads-clock      the kernel reads %globaltimer or %clock
 *   reads-gpu-ids    the kernel reads %smid, %nsmid, %warpid, %nwarpid or %gridid
 *   device-launch    the kernel launches kernels or calls outside functions
 *   below-copy-floor faster than a device-to-device copy of its input measured in the same run
 *   beyond-reference speedup more than 1.5x the reference's
 */
#ifndef LAB_BATCH_BATCH_H
#define LAB_BATCH_BATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

#include "lab/batch/gpus.h"
#include "lab/grade/grade.h"
#include "lab/util/buf.h"

typedef struct lab_batch_progress {
    size_t done; /* graded or skipped so far */
    size_t total;
    size_t skipped;      /* already graded with the same content */
    size_t graded;       /* graded by this run */
    const char *student; /* the one just finished */
    const char *verdict;
    const lab_batch_gpu *timed_on; /* the GPU that timed it, or NULL */
    double elapsed_s;              /* since the batch started */
    double eta_s;                  /* estimated seconds left; < 0 when unknown */
    const lab_batch_gpus *gpus;    /* the batch's GPUs (none: graded on the simulator) */
    const size_t *working;         /* per GPU: graders pinned to it now */
    const size_t *timed;           /* per GPU: submissions it timed so far */
} lab_batch_progress;

typedef struct lab_batch_opts {
    const char *exercise;
    const char *const *subs; /* submission paths */
    size_t nsubs;
    const char *out;  /* output folder, created */
    const char *self; /* the cudalab program graders run */
    int jobs;         /* children at once, >= 1 */
    bool force;       /* grade again what was graded */
    bool sandbox;     /* children grade under bubblewrap */
    bool gradescope;  /* also gradescope/<id>/results.json */
    bool keep_work;   /* keep out/.work, the private copies of every submission */
    const char *gpus; /* the GPUs to spread over ("0,1", UUIDs; lab/batch/gpus.h), NULL: all */
    void (*on_progress)(const lab_batch_progress *p, void *arg); /* serialized; may be NULL */
    void *arg;
    const volatile sig_atomic_t *cancel;
} lab_batch_opts;

#define LAB_BATCH_MAX_VERDICTS 32

/* How many submissions got one verdict. */
typedef struct lab_batch_tally {
    char verdict[32];
    size_t n;
} lab_batch_tally;

typedef struct lab_batch_summary {
    size_t graded;
    size_t skipped;
    size_t passed;
    size_t flagged;
    double elapsed_s;
    /* every submission's verdict, those graded before and skipped now included: the most
     * frequent first, ties by name */
    lab_batch_tally verdicts[LAB_BATCH_MAX_VERDICTS];
    size_t nverdicts;
    lab_batch_gpus gpus;              /* the GPUs used */
    size_t timed[LAB_BATCH_MAX_GPUS]; /* submissions each timed in this run */
} lab_batch_summary;

int lab_batch_run(lab *l, const lab_batch_opts *opts, lab_batch_summary *out, lab_err *err);
/* Rebuild out/gradebook.{csv,json} from the results/ of every dir (the batch's own out, or the
 * parts of a Slurm array); flags that compare students are computed here. */
int lab_gradebook_write(const char *out, const char *const *dirs, size_t ndirs, bool gradescope,
                        size_t *flagged, lab_err *err);
/* The gradebook of n results, in memory: gradebook.csv's text into csv and gradebook.json's into
 * json, both valid UTF-8 (an invalid byte of a name or a log as U+FFFD).  Sorts results by
 * student and adds the flags that compare students to them; the results stay the caller's.
 * 0 or LAB_ENOMEM. */
int lab_gradebook_build(cJSON **results, size_t n, lab_buf *csv, lab_buf *json, size_t *flagged);

/* The longest id a submission gets: results/<id>.json.tmp.<pid> (17 bytes more), and a "-N"
 * that tells two equal ids apart, stay well inside NAME_MAX (255 bytes). */
#define LAB_BATCH_ID_MAX 128
/* Appends the id of a student (the submission's name) as the batch's files name it: ASCII
 * letters, digits, '.', '-' and '_' (any other byte as '_'), '_' first where it would start
 * with '.' or be empty (a hidden file is listed by nothing), and one longer than
 * LAB_BATCH_ID_MAX cut to its start, '-' and 16 hex digits of the whole name's hash.  0 or
 * LAB_ENOMEM. */
int lab_batch_id(const char *student, lab_buf *out);

#endif
