/*
 * sandbox.h - running untrusted work (a submission's compile, a driver that
 * loads a submission's code, a host-code exercise) under bubblewrap.
 *
 * lab_sandbox_wrap turns a plan into the argv prefix "bwrap ... --" that goes
 * before the program's own argv:
 *   - only the system read-only (/usr, /etc, /bin, /lib*, /opt, /sys: the CUDA
 *     toolkit, compilers and libraries), nothing else of the filesystem: no
 *     home, checkout, submission, cache or store is there unless shown;
 *   - a fresh /dev with only the GPU nodes (/dev/nvidia*) when plan.gpu, a
 *     fresh /proc, an empty private /tmp;
 *   - hidden (an empty tmpfs over them): $HOME, the store's directory, the
 *     data dir's solutions/, each exercise's examples/, and plan.hide;
 *   - shown again read-only: plan.show (what the job reads: cubins, drivers);
 *     read-write: plan.writable (its output directory);
 *   - every namespace unshared (no network, own pids: killing bwrap kills
 *     everything inside) and --die-with-parent;
 *   - uid 65534: inside its own user namespace when the lab is not root; when
 *     the lab is root (a user namespace would map 65534 back to root outside,
 *     and root's files would be readable) there is none, and setpriv drops to
 *     the real nobody/nogroup with no supplementary groups or capabilities
 *     before the program runs; RLIMIT_NPROC holds either way (the kernel
 *     exempts only real root).  What the sandbox writes is handed to that
 *     user first (lab_sandbox_hand_over).
 * The rlimits go on the lab_proc (proc.h); lab_sandbox_limits gives the
 * lab's defaults for a job kind.
 *
 * lab_sandbox_probe tells whether bubblewrap can run here (it cannot inside
 * many containers: no user namespaces) and, if not, why, in one line.
 */
#ifndef LAB_PLATFORM_SANDBOX_H
#define LAB_PLATFORM_SANDBOX_H

#include <stdbool.h>

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
    LAB_SANDBOX_COMPILE, /* nvcc on a submission */
    LAB_SANDBOX_DRIVER,  /* a driver loading a submission's device code (GPU) */
    LAB_SANDBOX_HOST,    /* a submission's host code */
    LAB_SANDBOX_JOB_COUNT
} lab_sandbox_job;

typedef struct lab_sandbox_plan {
    lab_sandbox_job job;
    const char *datadir;     /* its solutions/ and examples/ are hidden */
    const char *const *hide; /* more paths to hide, NULL-terminated, may be NULL */
    const char *const *show; /* read-only again after hiding, NULL-terminated, may be NULL */
    const char *writable;    /* read-write, or NULL */
    const char *bwrap;       /* program, NULL: "bwrap" on PATH */
} lab_sandbox_plan;

/* The rlimits the lab sets for a job kind. */
void lab_sandbox_limits(lab_sandbox_job job, lab_proc_limits *out);
/* Appends "bwrap <options> --" to out. */
int lab_sandbox_wrap(const lab_sandbox_plan *plan, lab_strvec *out, lab_err *err);
/* true when path lies in a folder every sandbox shows read-only (the system's, above): a
 * library there needs no showing of its own. */
bool lab_sandbox_in_system(const char *path);
/* Makes path the sandbox's user's when the lab is root (who else could write into it then);
 * does nothing otherwise. */
int lab_sandbox_hand_over(const char *path, lab_err *err);
/* true when bubblewrap runs here; else false with the reason in why. */
bool lab_sandbox_probe(const char *bwrap, lab_buf *why);

#endif
