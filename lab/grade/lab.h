/*
 * lab.h - the lab context every front end opens: where the lab's files are,
 * the catalog, the toolchain, the store, the sandbox setting and the GPU the
 * drivers see (docs/design/architecture.md).
 *
 * Paths (each overridable by an environment variable, for tests and installs):
 *   datadir     exercises/, solutions/, docs/     $CUDALAB_DATADIR; else <prefix>/share/cudalab
 *               of an installed copy (prefix = the binary's ../, symlinks resolved), else the
 *               source tree the binary was built in (bin/..)
 *   libexecdir  the driver program, the lab's PTX  $CUDALAB_LIBEXECDIR; else
 *               <prefix>/libexec/cudalab, else build/libexec/cudalab of the source tree
 *   cachedir    compiled kernels                  $CUDALAB_CACHE_DIR; else
 *               $XDG_CACHE_HOME/cudalab, else ~/.cache/cudalab
 *   store       progress.db (lab/grade/store.h)
 *
 * Call order: lab_open; lab_catalog_of / lab_device_probe / lab_grade (grade.h)
 * any number of times; lab_close.  The lab never loads the CUDA driver itself:
 * the device probe and every run happen in driver processes (runner.h).
 */
#ifndef LAB_GRADE_LAB_H
#define LAB_GRADE_LAB_H

#include <stdbool.h>

#include "lab/build/toolchain.h"
#include "lab/catalog/catalog.h"
#include "lab/grade/runreport.h"
#include "lab/grade/store.h"
#include "lab/platform/sandbox.h"
#include "lab/util/err.h"

typedef struct lab lab;

/* The GPU the drivers see, or why there is none. */
typedef struct lab_device {
    bool present;
    char name[256];
    char uuid[48]; /* "GPU-...": which GPU of the node the drivers open (the GPU lock's key);
                      "" when the driver does not tell */
    char cc[16];
    char arch[16];         /* "sm_90"; the build target */
    char reason[512];      /* why there is none, in English (--json, and the doctor matches it) */
    lab_fmtmsg reason_msg; /* the same as a message of the catalog, where the probe gave it */
    double peak_gbps;
    int sm_count;
    bool driver_found;        /* libcuda.so.1 could be loaded by the probe */
    int driver_version;       /* cuDriverGetVersion: 13000 = CUDA 13.0; 0 unknown */
    char driver_library[256]; /* where it was loaded from, or why not */
    bool from_cache;          /* kept from an earlier probe (lab/grade/probecache.h) */
} lab_device;

/* Why there is no GPU, as the learner reads it: the reason in their language where the probe
 * gave its format, else the English one; in buf, or dev->reason itself. */
const char *lab_device_reason(const lab_device *dev, char *buf, size_t size);

int lab_open(lab **out, lab_err *err);
void lab_close(lab *l);
const lab_catalog *lab_catalog_of(const lab *l);
const char *lab_datadir(const lab *l);
/* Where the compiled messages are (docs/design/i18n.md): $CUDALAB_LOCALEDIR, else
 * PREFIX/share/locale in an installed copy, else build/locale in a checkout.  Needs no lab, for
 * the messages come before it opens; the caller frees it; NULL when out of memory. */
char *lab_localedir_find(void);

/* The languages the learner reads the course in (lab/util/lang.h): none (English) in a
 * locale that is not UTF-8. */
const struct lab_lang *lab_language(const lab *l);
const char *lab_libexecdir(const lab *l);
/* Compiled kernels' cache folder. */
const char *lab_builddir(const lab *l);
/* Where `make deps` puts CUDA tools the toolkit lacks (cuobjdump, nvdisasm from
 * PyPI): $CUDALAB_TOOLS_DIR, else <datadir>/tools/cuda/bin. */
const char *lab_toolsdir(const lab *l);
const char *lab_cachedir(const lab *l);
/* nvcc, found on first use; owned by the lab. */
int lab_toolchain_of(lab *l, const lab_toolchain **out, lab_err *err);
/* Run the student's compiles and the drivers that load the student's code under bubblewrap
 * (lab/platform/sandbox.h).  OFF by default ($CUDALAB_SANDBOX=off|auto|on at lab_open); ON fails
 * with LAB_ENOSYS and the reason when bubblewrap cannot run here, AUTO then runs unsandboxed. */
int lab_set_sandbox(lab *l, lab_sandbox_mode mode, lab_err *err);
bool lab_sandboxed(const lab *l);
/* The store, opened on first use. */
int lab_store_of(lab *l, lab_store **out, lab_err *err);
/* What GPU the drivers see (probed once per lab, in a child process: lab_runner_probe). */
int lab_device_probe(lab *l, const lab_device **out, lab_err *err);
/* Forgets what the probe found, here and in the kept answer: the next lab_device_probe probes
 * again (a grading whose driver found no GPU where the kept answer had one; `cudalab device`). */
void lab_device_forget(lab *l);
/* The build target: $CUDALAB_ARCH, else the probed GPU's, else LAB_DEFAULT_ARCH. */
const char *lab_target_arch(const lab_device *dev);

#endif
