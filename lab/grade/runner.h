/*
 * runner.h - running the driver program (common, libexec/cudalab): the
 * one way the lab's code reaches a GPU or the simulator.
 *
 * The driver is a child in its own process group with a report pipe on fd
 * LAB_RUNNER_REPORT_FD (docs/design/runner-protocol.md); untrusted runs (a
 * student's module) go under the sandbox when the lab has one on, which then shows the driver
 * program the libraries it loads from outside the system's folders (lab/platform/libs.h), or
 * the run stops with LAB_ENOENT naming the one the loader cannot find.  Nothing the driver
 * prints reaches a verdict: only its report does.
 *
 * Call order: lab_proc p; lab_runner_run(l, program, args, ..., &p, err); read
 * p.report and p's outcome; lab_proc_release(&p) (also after a failure).
 */
#ifndef LAB_GRADE_RUNNER_H
#define LAB_GRADE_RUNNER_H

#include <signal.h>
#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/grade/lab.h"
#include "lab/platform/devlock.h"
#include "lab/platform/proc.h"
#include "lab/util/buf.h"
#include "lab/util/strvec.h"

#define LAB_RUNNER_REPORT_FD 3
/* What an untrusted run may print (the student's device printf, flushed to the driver's stdout
 * at each synchronisation) before the lab stops it: a printf in every thread of a 2^24 grid
 * prints hundreds of MiB and ran past the run timeout on the H200 (review of 2026-11-28); a
 * debugging printf of a small case stays far below it.  The simulator stops a launch at the
 * same volume (LAB_SIM_PRINTF_FLOOD). */
#define LAB_RUNNER_OUTPUT_LIMIT (1u << 20)
/* The driver program in libexecdir; its first argument names what it runs. */
#define LAB_RUNNER_PROGRAM "cudalab-driver"

/* Runs `cudalab-driver PROGRAM --report-fd=3 ARGS...` (PROGRAM: a family, a chapter's demo,
 * device-probe); untrusted runs are sandboxed when the lab is.  *p is the caller's to release
 * with lab_proc_release, also after a failure. */
int lab_runner_run(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                   const volatile sig_atomic_t *cancel, bool untrusted, lab_proc *p, lab_err *err);
/* lab_runner_run on a GPU, which times kernels, one grading at a time: the driver starts, opens
 * the device and loads its modules (--wait-go) while the lab waits for the device's lock (lock,
 * lab/platform/devlock.h, keyed by dev's UUID), and touches the GPU only once the
 * lab holds it and lets it go on (a byte on its stdin); the lock goes back as soon as the
 * driver's report is complete, before its CUDA teardown, and in any case before this returns.
 * The timeout counts from the go.  Cancelled while waiting: the driver is killed, LAB_ECANCEL. */
int lab_runner_run_locked(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                          const volatile sig_atomic_t *cancel, const lab_device *dev,
                          lab_devlock *lock, lab_proc *p, lab_err *err);
/* The GPU's driver started before its build is done (unsandboxed runs only: a sandbox shows the
 * modules by path, which must exist when it starts): it opens the device and makes its context
 * while nvcc compiles, then waits for its arguments (--wait-args, docs/design/runner-protocol.md).
 * *p is the caller's to release (which kills a driver never given its arguments). */
int lab_runner_prestart(lab *l, const char *program, double timeout_s,
                        const volatile sig_atomic_t *cancel, lab_proc *p, lab_err *err);
/* lab_runner_run_locked for the driver lab_runner_prestart started: args (none naming a module
 * passed open) go to it on its stdin, then the lock, the go and the run as there. */
int lab_runner_run_prestarted(lab *l, const char *program, const lab_strvec *args,
                              const volatile sig_atomic_t *cancel, const lab_device *dev,
                              lab_devlock *lock, lab_proc *p, lab_err *err);
/* lab_runner_start with CUDA_VISIBLE_DEVICES=visible: the driver sees that GPU alone, as a batch's
 * graders pinned to it do (lab/batch/gpus.h checks each GPU so before a batch). */
int lab_runner_start_pinned(lab *l, const char *program, const lab_strvec *args,
                            const char *visible, double timeout_s, bool untrusted, lab_proc *p,
                            lab_err *err);
/* The status with which the dynamic loader ends a program that cannot start (a library it needs
 * is missing); the driver's own main never exits so. */
#define LAB_RUNNER_EXIT_NOT_STARTED 127
/* A finished driver that ended without a report because it never started (exit status 127, so
 * no submitted code ran): the lab's failure, LAB_ECHILD with the loader's words ("error while
 * loading shared libraries: libcjson.so.1: ..."), never the student's RUNTIME_ERROR.  0 for any
 * other end. */
int lab_runner_not_started(const char *program, const lab_proc *p, lab_err *err);
/* lab_runner_run without the wait: the driver runs beside the caller until lab_runner_finish. */
int lab_runner_start(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                     const volatile sig_atomic_t *cancel, bool untrusted, lab_proc *p,
                     lab_err *err);
/* lab_proc_finish of a driver lab_runner_start started: a sandbox that could not run it is the
 * lab's error (LAB_ESANDBOX: bubblewrap could not fork, another job's fork bomb), never the
 * submission's verdict. */
int lab_runner_finish(lab_proc *p, const char *program, lab_err *err);
/* Probes one backend ("cuda", "sim") afresh: out->present when the drivers can run kernels
 * on it, else out->reason. */
int lab_runner_probe(lab *l, const char *backend, lab_device *out, lab_err *err);
/* Appends the arguments that name the roles' modules (student, reference, and the
 * baseline: base_ex's module, or "cpu" when base_ex is NULL), their kernels and launch
 * shapes.  Out of memory shows as a missing argument, which the driver refuses. */
void lab_runner_roles_args(const lab *l, lab_strvec *args, const lab_exercise *ex,
                           const lab_exercise *base_ex, const char *student, const char *reference,
                           const char *baseline);
/* The entry (mangled name) of ex's kernel: the manifest's `entry`, else _Z<len><kernel> and the
 * family's parameters (lab/catalog/families.def). */
int lab_runner_entry(const lab_exercise *ex, lab_buf *out, lab_err *err);
/* --NAME=v0,v1,... */
int lab_runner_sizes_arg(lab_strvec *args, const char *name, const unsigned long *v, size_t n);

#endif
