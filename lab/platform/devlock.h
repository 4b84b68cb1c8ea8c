/*
 * devlock.h - one grading times a GPU at a time: an advisory lock per device.
 *
 * The lock is flock(2) on <cachedir>/locks/gpu-<key>.lock, where the key names
 * one GPU of the machine (its UUID, which is the same whatever number
 * CUDA_VISIBLE_DEVICES gives it: lab/grade/runner.c chooses the key), made safe
 * for a file name.  Every grading that runs a driver on a GPU holds it while
 * the driver works on the GPU (lab_runner_run_locked), so two lab windows, a
 * batch's graders and a student's lab on one machine never time kernels on the
 * same GPU at once, and graders on different GPUs never wait for each other.  The kernel drops the
 * lock when its holder dies, so a killed grading never leaves it taken.
 *
 * Call order: lab_devlock_init; lab_devlock_acquire (waits, polling *cancel);
 * run; lab_devlock_release (also fine on a lock never acquired).
 */
#ifndef LAB_PLATFORM_DEVLOCK_H
#define LAB_PLATFORM_DEVLOCK_H

#include <signal.h>
#include <stdbool.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

typedef struct lab_devlock {
    int fd;       /* the open lock file, -1 when not held */
    lab_buf path; /* its path */
    double waited_s;
} lab_devlock;

void lab_devlock_init(lab_devlock *lk);
/* The lock file of the GPU key names: "<cachedir>/locks/gpu-<key, made safe>.lock". */
int lab_devlock_path(const char *cachedir, const char *key, lab_buf *out);
/* Wait for the device's lock; LAB_ECANCEL when *cancel becomes nonzero, LAB_ETIMEOUT after
 * timeout_s (0: wait forever), LAB_EIO when the lock file cannot be opened; 1, not holding it,
 * when no_longer_needed(ctx) turns true while it waits (NULL: never). */
int lab_devlock_acquire(lab_devlock *lk, const char *cachedir, const char *key, double timeout_s,
                        const volatile sig_atomic_t *cancel,
                        bool (*no_longer_needed)(const void *ctx), const void *ctx, lab_err *err);
/* true when another process holds the lock at path now (tests, `cudalab batch` status). */
bool lab_devlock_busy(const char *path);
void lab_devlock_release(lab_devlock *lk);

#endif
