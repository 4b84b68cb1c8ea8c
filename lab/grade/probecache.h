/*
 * probecache.h - the device probe's answer, kept for as long as nothing it depends on changes.
 *
 * Probing the GPU costs a driver process that opens a CUDA context (~0.3 s on an H100), and
 * every grading used to pay it before its compile.  What the probe finds depends on the machine
 * since its boot, the CUDA driver (its kernel module and libcuda), the devices the process may
 * see, and the lab's driver programs.  The key is all of these:
 *   - the boot's id (/proc/sys/kernel/random/boot_id) and the kernel module's version line
 *     (/proc/driver/nvidia/version, where there is one);
 *   - CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER and LD_LIBRARY_PATH;
 *   - the libexec folder's path and each of its files' name, inode, size and modification time
 *     (a new install, or a test's pretend driver, is a new key);
 *   - the libcuda the probe loaded: its inode, size and modification time (or that it is gone).
 * Only a GPU that was found is kept: "no GPU" is cheap to find again and may end at any time.
 * A grading whose driver then finds no GPU forgets the answer and probes again
 * (lab_device_forget), so a GPU that went away costs one grading's retry, never a wrong verdict.
 *
 * The file (CACHEDIR/device-probe.json; with CUDA_VISIBLE_DEVICES set, one per value of it,
 * device-probe-<its hash>.json, as a batch's graders are each pinned to one GPU) is written
 * whole, by rename; one that cannot be read or written is no answer, never an error: the lab
 * then probes as it always did.
 */
#ifndef LAB_GRADE_PROBECACHE_H
#define LAB_GRADE_PROBECACHE_H

#include <stdbool.h>

#include "lab/grade/lab.h"
#include "lab/util/buf.h"

/* The key of this process's view of the GPU (see above), without the libcuda part, which
 * lab_probecache_load and _store add from the device's driver_library.  LAB_ENOMEM only. */
int lab_probecache_key(const char *libexecdir, lab_buf *key);
/* The kept answer for key from cachedir, into *out: true when there is one that holds. */
bool lab_probecache_load(const char *cachedir, const char *key, lab_device *out);
/* Keeps dev (a GPU that was found) for key, or forgets the kept answer when dev is no GPU; a
 * failure to write is ignored. */
void lab_probecache_store(const char *cachedir, const char *key, const lab_device *dev);
/* Removes the kept answer, if any. */
void lab_probecache_forget(const char *cachedir);

#endif
