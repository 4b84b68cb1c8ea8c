/*
 * buildcache.h - the build cache's bound: what nvcc built stays in the cache folder
 * ($XDG_CACHE_HOME/cudalab/build: <hash>.ptx, .cubin, .so and the lab's own small files) for
 * the next grading of the same file, and the folder is kept under a size
 * ($CUDALAB_CACHE_MAX_MB, default LAB_BUILDCACHE_DEFAULT_MB) by evicting the builds used
 * longest ago (# 34: a 100 MiB __device__ array per submission stayed for good).
 *
 * A build in use is never evicted: the grading that uses it holds a shared lock on its main
 * file (the .ptx, or the .so of host code) from the build to its release, and the eviction
 * removes a build only under an exclusive lock of that file.  A build found in the cache is
 * touched, so its time says when it was last used.
 *
 * Call order: lab_buildcache_hold on the build's main file (then lab_buildcache_trim after a
 * build that added to the cache); close the held descriptor when the build is released.
 */
#ifndef LAB_BUILD_BUILDCACHE_H
#define LAB_BUILD_BUILDCACHE_H

#define LAB_BUILDCACHE_DEFAULT_MB 2048

/* The bound in bytes: $CUDALAB_CACHE_MAX_MB (a whole number of MiB, at least 1), else the
 * default. */
unsigned long long lab_buildcache_max(void);
/* Opens path, takes a shared lock on it (waiting for an eviction under way to finish) and marks
 * it used now: the descriptor, which holds the lock until closed, or -1 when the file is not
 * there (never built, or evicted). */
int lab_buildcache_hold(const char *path);
/* Evicts the builds of dir used longest ago, and not held, until dir's files take at most 3/4
 * of max bytes (so that not every build evicts); the rest of the files are left as they are. */
void lab_buildcache_trim(const char *dir, unsigned long long max);

#endif
