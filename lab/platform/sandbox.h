/*
 * sandbox.h - running untrusted work (a submission's compile, a driver that
 * loads a submission's code, a host-code exercise) under bubblewrap.
 *
 * lab_sandbox_confine puts a filled lab_proc under a plan: its argv gets
 * "bwrap ... --" before the program's own, and:
 *   - only the system read-only (/usr, /etc, /bin, /lib*, /opt, /sys: the CUDA
 *     toolkit, compilers and libraries), nothing else of the filesystem: no
 *     home, checkout, submission, cache or store is there unless shown;
 *   - a fresh /dev with only the GPU nodes (/dev/nvidia*) when the job sees the
 *     GPU, a fresh /proc, a private /tmp and /dev/shm of the job's size
 *     (limits.def: tmpfs is memory that no rlimit counts);
 *   - hidden (an empty, read-only tmpfs over them): $HOME, the store's
 *     directory, the data dir's solutions/, each exercise's examples/, and
 *     plan.hide;
 *   - shown again read-only: plan.show (what the job reads: cubins, drivers);
 *     read-write: plan.writable (its output directory);
 *   - every namespace unshared (no network, own pids: killing bwrap kills
 *     everything inside) and --die-with-parent;
 *   - an environment of the allow-list's variables only (PATH, the locale,
 *     CUDA_VISIBLE_DEVICES, ...: sandbox.c), those the grader names in
 *     $CUDALAB_SANDBOX_KEEP_ENV (NAME or PREFIX*, comma-separated) and the proc's
 *     own env entries: nothing else of the lab's (an API token of the grader's)
 *     reaches it;
 *   - the job's rlimits (limits.def), the process limit inside the sandbox;
 *   - a user of the job's own, so that one job's processes count against no
 *     other's limit: when the lab is not root, uid 65534 in a user namespace of
 *     the job's own (the kernel counts a user namespace's processes against the
 *     limit set inside it); when the lab is root (a user namespace would map
 *     its user back to root outside, and root's files would be readable) none,
 *     and setpriv drops to a uid of the job's own, LAB_SANDBOX_UID_BASE + the
 *     grading thread's id (no user's: a range systemd leaves unused), with no
 *     supplementary groups or capabilities, before the program runs.  What the
 *     sandbox writes is handed to that user first (lab_sandbox_hand_over).
 *
 * A sandbox that fails (bubblewrap cannot fork, mount or exec: it never reports
 * the program's exit on its status pipe) is the lab's failure, not the
 * submission's: lab_sandbox_failed says so after lab_proc_finish, and the
 * callers make it an error (LAB_ESANDBOX), never a verdict.
 *
 * lab_sandbox_probe tells whether bubblewrap can run here (it cannot inside
 * many containers: no user namespaces) and, if not, why, in one line.
 */
#ifndef LAB_PLATFORM_SANDBOX_H
#define LAB_PLATFORM_SANDBOX_H

#include <stdbool.h>
#include <sys/types.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/platform/proc.h"
#include "lab/util/strvec.h"

typedef enum lab_sandbox_mode {
    LAB_SANDBOX_OFF,  /* run as is */
    LAB_SANDBOX_AUTO, /* bubblewrap when usable, else as is */
    LAB_SANDBOX_ON,   /* bubblewrap or fail */
} lab_sandbox_mode;

typedef enum lab_sandbox_job {
#define LAB_SANDBOX_JOB(KIND, ...) LAB_SANDBOX_##KIND,
#include "lab/platform/limits.def"
#undef LAB_SANDBOX_JOB
    LAB_SANDBOX_JOB_COUNT
} lab_sandbox_job;

/* A row of limits.def. */
typedef struct lab_sandbox_limits {
    const char *label;        /* "compile (nvcc)": as docs/design/batch-and-slurm.md names it */
    lab_proc_limits rlimits;  /* nproc included */
    unsigned long long tmpfs; /* bytes of /tmp and of /dev/shm each; 0: its sandbox's */
    bool gpu;
} lab_sandbox_limits;

/* The first uid of the jobs' own users when the lab is root: 0x70000000, in the range that
 * systemd's UID/GID documentation leaves unused (1879048192..2147483647). */
#define LAB_SANDBOX_UID_BASE 1879048192u

typedef struct lab_sandbox_plan {
    lab_sandbox_job job;
    const char *datadir;     /* its solutions/ and examples/ are hidden */
    const char *const *hide; /* more paths to hide, NULL-terminated, may be NULL */
    const char *const *show; /* read-only again after hiding, NULL-terminated, may be NULL */
    const char *writable;    /* read-write, or NULL */
    const char *bwrap;       /* program, NULL: "bwrap" on PATH */
} lab_sandbox_plan;

/* limits.def's row of a job kind. */
const lab_sandbox_limits *lab_sandbox_limits_of(lab_sandbox_job job);
/* Puts p, filled (argv, env, dir, report_fd, pass_fd), under the plan (above): prepends the
 * sandbox to its argv, makes its environment the allow-list's and its own entries, sets its
 * limits and its status pipe.  Call it last, before lab_proc_start. */
int lab_sandbox_confine(const lab_sandbox_plan *plan, lab_proc *p, lab_err *err);
/* After lab_proc_finish of a confined p: true when the sandbox failed to run the program (and the
 * lab did not stop it: a timeout, a cancel or a printf flood is the run's), with bubblewrap's words
 * in why. */
bool lab_sandbox_failed(const lab_proc *p, lab_buf *why);
/* The uid a sandbox made by this process runs its program as, seen from outside. */
uid_t lab_sandbox_uid(void);
/* true when path lies in a folder every sandbox shows read-only (the system's, above): a
 * library there needs no showing of its own. */
bool lab_sandbox_in_system(const char *path);
/* Makes path the sandbox's user's when the lab is root (who else could write into it then);
 * does nothing otherwise. */
int lab_sandbox_hand_over(const char *path, lab_err *err);
/* true when bubblewrap runs here; else false with the reason in why. */
bool lab_sandbox_probe(const char *bwrap, lab_buf *why);

#endif
