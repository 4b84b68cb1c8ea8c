/*
 * toolchain.h - nvcc: finding it, and compiling a kernel file to PTX and a
 * cubin, cached by content hash.
 *
 * nvcc is looked for in $CUDALAB_NVCC, on PATH, in $CUDA_HOME/bin and in
 * /usr/local/cuda/bin.  A build runs nvcc as a child process (lab/platform/proc)
 * with the exercise's build timeout:
 *   nvcc -ptx -arch=ARCH -O3 -lineinfo SRC        -> HASH.ptx   (device code only)
 *   nvcc -cubin -arch=ARCH HASH.ptx               -> HASH.cubin
 * With req->rdc (dynamic parallelism: kernels that launch kernels) the PTX
 * is relocatable and the cubin is linked with the CUDA device runtime into
 * one executable cubin that cuModuleLoadData accepts as it is:
 *   nvcc -ptx -rdc=true -arch=ARCH -O3 -lineinfo SRC       -> HASH.ptx
 *   nvcc -cubin -rdc=true -arch=ARCH HASH.ptx               -> HASH.o.cubin (relocatable)
 *   nvcc -dlink -cubin -arch=ARCH HASH.o.cubin -lcudadevrt  -> HASH.cubin (linked)
 * The student's host code is never compiled into anything that runs, except
 * for host-code exercises (req->host): then
 *   nvcc -shared -Xcompiler -fPIC -O2 -arch=ARCH SRC  -> HASH.so
 * which a driver loads in a child process of its own (lab/harness/host.h).
 * With req->ptx_only (a run on the simulator, which reads PTX alone) only the
 * first step runs and only HASH.ptx is stored; a later build of the same
 * request without it finds that PTX and makes the cubin from it (the cubin
 * steps above, on the cached PTX), so either order leaves the same files.
 * The cache key covers the source bytes, the instantiation line, the arch, the
 * flags, nvcc's version and the file's name (the PTX's line information names
 * the file); failed builds are not cached.  nvcc's messages
 * are rewritten from "file.cu(12): error" to "file.cu:12: error".
 *
 * nvcc runs its own steps through a shell, so it never sees a name from
 * outside: the source (a regular file of at most LAB_SOURCE_CAP bytes) is
 * copied into a private folder, <cache_dir>/.tmp/<host>.<pid>.XXXXXX, and nvcc
 * runs there on fixed relative names, with $TMPDIR inside that folder; its
 * messages name req->source again.  The folder is removed when the build
 * ends, however it ends; one left by a lab that was killed is removed by the
 * next build on the same host.
 *
 * Call order: lab_toolchain_find once; lab_build_init, lab_toolchain_build,
 * read the lab_build, lab_build_release; lab_toolchain_free.
 */
#ifndef LAB_BUILD_TOOLCHAIN_H
#define LAB_BUILD_TOOLCHAIN_H

#include <signal.h>
#include <stdbool.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"
#include "lab/util/hash.h"
#include "lab/platform/proc.h"
#include "lab/platform/sandbox.h"

#define LAB_DEFAULT_ARCH "sm_90"
#define LAB_SOURCE_CAP (1024 * 1024) /* the largest kernel file the lab compiles */

typedef struct lab_toolchain lab_toolchain;

int lab_toolchain_find(lab_toolchain **out, lab_err *err);
void lab_toolchain_free(lab_toolchain *tc);
const char *lab_toolchain_nvcc(const lab_toolchain *tc);    /* path */
const char *lab_toolchain_version(const lab_toolchain *tc); /* "13.0.88" */

/* Another CUDA tool (cuobjdump, nvdisasm, ncu): $ENV_VAR, then PATH, then
 * $CUDA_HOME/bin, /usr/local/cuda/bin, nvcc's own directory when tc is not
 * NULL, then extra_dir (may be NULL: where `make deps` put the PyPI copies).
 * A malloc'ed path in *out, or LAB_ETOOL naming the places looked in. */
int lab_toolchain_find_tool(const lab_toolchain *tc, const char *name, const char *env_var,
                            const char *extra_dir, char **out, lab_err *err);

typedef struct lab_build_request {
    const char *source;      /* the .cu file, as its messages name it */
    const char *instantiate; /* appended C++ line (templates), or NULL */
    const char *arch;        /* "sm_90" */
    const char *arch_origin; /* the variable arch came from ("CUDALAB_ARCH"), or NULL */
    const char *cache_dir;   /* created if missing */
    double timeout_s;
    const volatile sig_atomic_t *cancel;
    bool host;                       /* a shared object of host code instead of PTX and cubin */
    const lab_sandbox_plan *sandbox; /* nvcc runs in it (its job's limits), or NULL; its
                                        writable is the job's private folder, handed to the
                                        sandbox's user */
    bool rdc;      /* relocatable device code linked with the device runtime (libcudadevrt) */
    bool ptx_only; /* the PTX alone: no cubin is built (a run on the simulator) */
} lab_build_request;

typedef struct lab_build {
    bool ok;        /* PTX and cubin exist (ptx_only: the PTX; host: the shared object) */
    bool cached;    /* found in the cache, nvcc not run */
    bool has_cubin; /* cubin_path exists (false after a ptx_only build that found none) */
    bool timed_out; /* nvcc ran past the timeout */
    bool cancelled;
    char hash[LAB_HASH_HEX];
    lab_buf ptx_path;
    lab_buf cubin_path;
    lab_buf so_path; /* host builds */
    lab_buf ptx;     /* the PTX text when ok (device builds) */
    lab_buf log;     /* nvcc's messages, file:line form */
    int hold;        /* holds the build in the cache until released (buildcache.h), or -1 */
} lab_build;

void lab_build_init(lab_build *b);
void lab_build_release(lab_build *b);
/* 0 when nvcc ran (check b->ok: a compile error is not a failure of the call);
 * <0 when nvcc could not be run, refused the target architecture (LAB_EINVAL), or the
 * source is no regular file or too large (LAB_EINVAL), or the cache is unusable. */
int lab_toolchain_build(const lab_toolchain *tc, const lab_build_request *req, lab_build *b,
                        lab_err *err);
/* sm_ and a number, optionally a or f: sm_90, sm_90a, sm_100f. */
bool lab_toolchain_arch_valid(const char *arch);
/* nvcc's "f.cu(12): error: x" lines rewritten as "f.cu:12: error: x" (appended to out). */
int lab_toolchain_format_log(const char *log, lab_buf *out);

#endif
