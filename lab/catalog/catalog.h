/*
 * catalog.h - the chapters and exercises found under <datadir>/exercises.
 *
 * Layout read by lab_catalog_load:
 *   exercises/<chapter>/chapter.ini             [chapter] title, order, text (docs/<chapter>.md)
 *   exercises/<chapter>/<exercise>/exercise.ini  the manifest (keys below)
 *   docs/numbers.ini                            the figures the texts quote by name (figures.c)
 * Manifests are read with libinih.  A broken manifest or chapter file is not a
 * failure of the load: it becomes a problem "file:line: message" (line 0 when
 * the problem is not on one line) and the rest of the catalog still loads.
 * lab_catalog_load fails only when the exercises directory cannot be read or
 * memory runs out.  An exercise whose manifest has a problem is kept as broken, with its
 * first problem as the reason (lab_catalog_why_broken).  Files the manifests name must stay
 * inside the data folder, and an exercise's family must be in the registry (family.h).
 *
 * Ownership: the catalog owns every chapter, exercise and string it hands out
 * (one arena, freed by lab_catalog_free); pointers stay valid until then.
 *
 * Manifest keys (section [exercise]):
 *   format      the manifest's format version: 1 (check-exercise wants it)  default 0
 *   id          chapter/name; must match the directory            required
 *   chapter     the chapter directory's name                        required
 *   order       integer, position within the chapter               default 0
 *   title       one line                                            required
 *   kernel      the kernel's name, e.g. reduceNeighboredLess        required
 *   family      signature family = driver program, e.g. reduce-int  required
 *   starter     file, relative to the exercise dir                  default starter.cu
 *   solution    file, relative to the data dir                      required
 *   baseline    "cpu", or the id of the exercise whose solution is the step before   required
 *   sizes       comma-separated input sizes; "1<<24" allowed        required
 *   timing_sizes  subset of sizes timed for speed, or "none" (graded on
 *               correctness alone)                                  default the largest size
 *   block       threads per block, or a list of block shapes the kernel is graded on,
 *               each "X", "XxY" or "XxYxZ" (at most 1024 threads, 16 shapes), e.g.
 *               "40x2, 8x4x2, 128"; timing uses the first                default 256
 *   unroll      elements per thread folded before the tree          default 1
 *   build_timeout, run_timeout   seconds                            default 120, 60
 *   min_speedup                 over the baseline, e.g. 1.10        default 1.10
 *   min_fraction_of_reference   e.g. 0.85                           default 0
 *   points      integer                                            default 10
 *   constraints comma-separated checks on the PTX by meaning, e.g. "forbid atomics, require
 *               warp-sync" (lab/build/constraints.h)
 *   hints       file, relative to the exercise dir; hints are its "## " sections  default hints.md
 *   instantiate a C++ line appended after the student's file (templates)  if present
 *   entry       the kernel's exact (mangled) entry name, for templates    default from
 * kernel+family task        file, relative to the exercise dir                     default task.md
 *   kind        "device": a kernel; "host": a host function the driver calls in a child process
 *                                                                       default device
 *   output      "partials": one sum per block in g_odata; "total": the kernel adds the whole sum
 *               into g_odata[0] (zeroed before each run)                default partials
 *   grid_per_sm blocks per SM for kernels with a grid-stride loop; 0: the grid covers n
 *                                                                       default 0
 *   timing_sizes = none: graded on correctness alone
 *   choose_block "true": the student's file picks the block shape (a __device__ variable
 *               chosenBlock, common/choose.h); `block` lists the shapes the driver sweeps,
 *               and the grade is whether the choice is within noise of the fastest  default false
 *   sim_check   "false": a GPU grading does not also run the kernel on the simulator with its
 *               hazard checks (races, barriers, masks, bounds)                 default true
 *   rdc         "true": relocatable device code linked with the CUDA device runtime, for
 *               kernels that launch kernels (dynamic parallelism)   default false
 *
 * Chapter keys (exercises/<chapter>/chapter.ini, section [chapter]):
 *   title, order, text (docs/<chapter>.md)
 *   demo        the chapter's demo driver program (`cudalab demo CHAPTER`)   default none
 *   demo_sim    "true": the demo measures nothing a clock is needed for: with no GPU it runs
 *               on the PTX simulator as it is (the other demos run there too, their times
 *               modelled for a GPU: lab/instruments/demo.h)                  default false
 */
#ifndef LAB_CATALOG_CATALOG_H
#define LAB_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/numbers.h"

typedef enum lab_kind { LAB_KIND_DEVICE, LAB_KIND_HOST, LAB_KIND_COUNT } lab_kind;
typedef enum lab_output { LAB_OUTPUT_PARTIALS, LAB_OUTPUT_TOTAL, LAB_OUTPUT_COUNT } lab_output;

#define LAB_MAX_BLOCK_SHAPES 16

typedef struct lab_block_shape {
    unsigned x, y, z;
} lab_block_shape;

typedef struct lab_exercise {
    int format;          /* manifest format version (1), 0 when the manifest does not say */
    const char *id;      /* "reduction/neighbored-less" */
    const char *chapter; /* "reduction" */
    const char *name;    /* "neighbored-less" */
    int order;
    const char *title;
    const char *kernel;   /* "reduceNeighboredLess" */
    const char *family;   /* "reduce-int" */
    const char *dir;      /* the exercise directory */
    const char *manifest; /* path of exercise.ini */
    const char *starter;  /* absolute or datadir-based path */
    const char *solution;
    const char *task;     /* task.md path */
    const char *baseline; /* "cpu" or an exercise id */
    const unsigned long *sizes;
    size_t nsizes;
    const unsigned long *timing_sizes;
    size_t ntiming_sizes;
    unsigned block;                /* threads of the first shape */
    const lab_block_shape *blocks; /* the block shapes, at least one */
    size_t nblocks;
    unsigned unroll;
    double build_timeout_s;
    double run_timeout_s;
    double min_speedup;
    double min_fraction_of_reference;
    int points;
    const char *const *constraints; /* each "forbid X" or "require X" */
    size_t nconstraints;
    const char *const *hints; /* hint texts (Markdown) */
    size_t nhints;
    const char *instantiate; /* NULL when none */
    const char *entry;       /* NULL: mangled from kernel and the family */
    lab_kind kind;
    lab_output output;
    unsigned grid_per_sm;   /* 0: grid = ceil(n / (block * unroll)) */
    bool rdc;               /* build with -rdc=true and link libcudadevrt */
    bool choose_block;      /* graded on the block shape chosenBlock names (common/choose.h) */
    bool sim_check;         /* a GPU grading runs the simulator's checks too */
    const char *hints_file; /* the hints file's path, NULL when there is none */
    /* What the learner reads, in the catalog's language (English where a file has no current
     * translation; the fields above stay English for --json and the store): */
    const char *local_title;
    const char *local_task;         /* path of the task text to show */
    const char *const *local_hints; /* nhints of them */
    const char *translation_note;   /* one line: the stale translations shown in
                                       English; NULL when none */
} lab_exercise;

typedef struct lab_chapter {
    const char *id; /* directory name, "reduction" */
    const char *title;
    int order;
    const char *text;                     /* chapter text path (docs/<id>.md), NULL if absent */
    const char *demo;                     /* demo driver name, NULL if none */
    bool demo_sim;                        /* the demo runs on the simulator when there is no GPU */
    const lab_exercise *const *exercises; /* sorted by order, then id */
    size_t nexercises;
    const char *local_title;      /* in the catalog's language, as lab_exercise's */
    const char *local_text;       /* path of the chapter text to show, NULL if absent */
    const char *translation_note; /* as lab_exercise's */
} lab_chapter;

/* The largest text file of the catalog the lab reads: a task, hints, a chapter text. */
#define LAB_CATALOG_TEXT_CAP (1024 * 1024)

typedef struct lab_catalog lab_catalog;

int lab_catalog_load(const char *datadir, lab_catalog **out, lab_err *err);
/*
 * The same, with the local_* fields in the first of lang's languages each file has a current
 * translation in (lab/catalog/translation.h); lang NULL or empty: English.  A stale or
 * broken translation is not shown: English is, and the item's translation_note says so.
 */
struct lab_lang;
int lab_catalog_load_lang(const char *datadir, const struct lab_lang *lang, lab_catalog **out,
                          lab_err *err);
/* The language the catalog was loaded in ("ko"), NULL for English. */
const char *lab_catalog_language(const lab_catalog *cat);
void lab_catalog_free(lab_catalog *cat);

size_t lab_catalog_chapter_count(const lab_catalog *cat);
const lab_chapter *lab_catalog_chapter(const lab_catalog *cat, size_t i); /* sorted by order */
size_t lab_catalog_exercise_count(const lab_catalog *cat);
const lab_exercise *lab_catalog_exercise(const lab_catalog *cat, size_t i); /* chapter, order */
const lab_exercise *lab_catalog_find(const lab_catalog *cat, const char *id);

/*
 * The course's figures (docs/design/numbers.md): a text names a figure {{name}}, and these
 * put the value there: from the table docs/numbers.ini (lab/util/numbers.h), or a manifest's
 * threshold, "EXERCISE.min_speedup" ("1.10") or "EXERCISE.min_fraction_pct" ("75").  A name
 * neither knows is LAB_EPARSE, "what:line: unknown figure 'name' ...".  lab_catalog_read_text
 * reads the file at path (a task, a chapter text) whole and fills it in; the hints come filled
 * in already.  The table is NULL when the data folder has none.
 */
const lab_numbers *lab_catalog_numbers(const lab_catalog *cat);
int lab_catalog_expand(const lab_catalog *cat, const char *text, size_t len, const char *what,
                       lab_buf *out, lab_err *err);
int lab_catalog_read_text(const lab_catalog *cat, const char *path, lab_buf *out, lab_err *err);

/* "40x2", "8x4x2", "512": the shape as a manifest writes it, into buf. */
void lab_block_shape_format(const lab_block_shape *s, char *buf, size_t size);

/*
 * An exercise whose manifest has problems (or names a baseline that is no exercise) is left
 * out of the exercises above but kept here, so that it is listed as broken and asking for it
 * says why.  An exercise whose baseline is broken still loads; grading it needs the baseline.
 */
typedef struct lab_broken_exercise {
    const char *id;      /* "reduction/interleaved" */
    const char *chapter; /* "reduction" */
    const char *reason;  /* its first problem: "file:line: message" */
} lab_broken_exercise;

size_t lab_catalog_broken_count(const lab_catalog *cat);
const lab_broken_exercise *lab_catalog_broken(const lab_catalog *cat, size_t i); /* by id */
/* Why exercise id is broken: its first problem; NULL when it is not a broken exercise. */
const char *lab_catalog_why_broken(const lab_catalog *cat, const char *id);

size_t lab_catalog_problem_count(const lab_catalog *cat);
const char *lab_catalog_problem(const lab_catalog *cat, size_t i); /* "file:line: message" */

#endif
