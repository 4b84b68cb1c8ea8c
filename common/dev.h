/*
 * dev.h - the device interface every exercise driver is written against.
 *
 * One table of operations, two implementations: lab_dev_cuda (the CUDA driver
 * API, loaded with dlopen at run time, so a machine without the NVIDIA driver
 * still runs the lab) and lab_dev_sim (the PTX simulator of lab/sim).  Every
 * call returns 0 or a negative LAB_E* code and fills lab_err; device errors
 * also record the backend's own code in lab_dev_error (for the report).
 *
 * Call order:
 *   ops->open(0, &dev, &err)       fails with LAB_ENODEV and a precise reason
 *   ops->info, alloc, copy_in, load, launch, timer_*, sync, copy_out, ...
 *   ops->close(dev)                frees every allocation, module and timer
 * After a kernel fault the CUDA context is dead ("sticky"): every later call
 * fails with the same code, and only a new process recovers.
 */
#ifndef LAB_HARNESS_DEV_H
#define LAB_HARNESS_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/util/err.h"

typedef struct lab_dev lab_dev;
typedef struct lab_module lab_module;
typedef struct lab_timer lab_timer;
typedef uint64_t lab_dptr;

typedef struct lab_dim3 {
    unsigned x, y, z;
} lab_dim3;

typedef struct lab_image {
    const void *data; /* PTX text (NUL-terminated) or a cubin */
    size_t size;
    const char *path; /* for messages */
} lab_image;

typedef struct lab_dev_info {
    char name[256];
    char uuid[48];       /* "GPU-8932f937-...", as nvidia-smi and CUDA_VISIBLE_DEVICES write it;
                            "" where the backend has none */
    char pci_bus_id[32]; /* "00000000:18:00.0"; "" where none */
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_block;
    int max_threads_per_sm;
    int warp_size;
    int regs_per_sm;
    int regs_per_block;
    int max_blocks_per_sm;
    int smem_per_block; /* bytes, default limit */
    int smem_per_block_optin;
    int smem_reserved_per_block; /* what the system keeps of each block's share */
    int smem_per_sm;
    int const_mem;
    int max_block_dim[3];
    int max_grid_dim[3];
    int l2_bytes;
    int mem_clock_khz;
    int bus_width_bits;
    int sm_clock_khz;
    size_t total_mem;
    int driver_version; /* e.g. 13000 */
    double peak_gbps;   /* 2 x memory clock x bus width */
} lab_dev_info;

/* One device of those the backend sees, as `cudalab batch` tells them apart (lab/batch/gpus.h). */
typedef struct lab_dev_ident {
    int ordinal; /* the backend's number for it: ops->open's */
    char name[256];
    char uuid[48];
    char pci_bus_id[32];
} lab_dev_ident;
#define LAB_DEV_MAX_DEVICES 16 /* more than a node of 8 GPUs has */

/* The backend's own error code of the last failing call (e.g. 700 and
 * "CUDA_ERROR_ILLEGAL_ADDRESS"); code 0 when the failure was not the device's. */
typedef struct lab_dev_error {
    int code;
    char name[64];
} lab_dev_error;

/* A kernel's resources and how many of its blocks fit on one SM (the CUDA occupancy API). */
typedef struct lab_occupancy {
    int blocks_per_sm; /* cuOccupancyMaxActiveBlocksPerMultiprocessor */
    int regs;          /* registers per thread */
    int static_smem;   /* bytes of static shared memory per block */
} lab_occupancy;

typedef struct lab_dev_ops {
    const char *name; /* "cuda", "sim" */
    int (*open)(int ordinal, lab_dev **out, lab_err *err);
    int (*info)(lab_dev *dev, lab_dev_info *out, lab_err *err);
    int (*alloc)(lab_dev *dev, size_t bytes, lab_dptr *out, lab_err *err);
    int (*copy_in)(lab_dev *dev, lab_dptr dst, const void *src, size_t bytes, lab_err *err);
    int (*copy_out)(lab_dev *dev, void *dst, lab_dptr src, size_t bytes, lab_err *err);
    /* Asynchronous (stream-ordered) device-to-device copy. */
    int (*copy_dtod)(lab_dev *dev, lab_dptr dst, lab_dptr src, size_t bytes, lab_err *err);
    /* Optional: count 32-bit words at dst set to value, stream-ordered; LAB_ENOSYS (err
     * untouched) where the backend cannot (a CUDA driver without cuMemsetD32Async, such as
     * the test stub).  Call lab_dev_fill32, which falls back to copies. */
    int (*fill32)(lab_dev *dev, lab_dptr dst, uint32_t value, size_t count, lab_err *err);
    int (*load)(lab_dev *dev, const lab_image *img, lab_module **out, lab_err *err);
    /* Is there an entry point with this (mangled) name? */
    bool (*has_kernel)(lab_module *m, const char *kernel);
    int (*symbol)(lab_module *m, const char *name, lab_dptr *out, size_t *bytes, lab_err *err);
    /* Asynchronous launch; a fault shows at the next sync. */
    int (*launch)(lab_module *m, const char *kernel, lab_dim3 grid, lab_dim3 block,
                  unsigned shared_bytes, void **args, lab_err *err);
    int (*sync)(lab_dev *dev, lab_err *err);
    int (*timer_new)(lab_dev *dev, lab_timer **out, lab_err *err);
    int (*timer_start)(lab_timer *t, lab_err *err); /* stream-ordered marks */
    int (*timer_stop)(lab_timer *t, lab_err *err);
    /* Milliseconds between start and stop; call after sync. The simulator has none: LAB_ENOSYS. */
    int (*elapsed)(lab_timer *t, double *ms, lab_err *err);
    const lab_dev_error *(*last_error)(lab_dev *dev);
    /* Optional, NULL where the backend has no device runtime: how many device-side kernel
     * launches (dynamic parallelism) may be pending at once.  Call before the first launch. */
    int (*set_pending_launches)(lab_dev *dev, size_t count, lab_err *err);
    /* Blocks of `block` threads with dyn_smem bytes of dynamic shared memory per SM. */
    int (*occupancy)(lab_module *m, const char *kernel, unsigned block, size_t dyn_smem,
                     lab_occupancy *out, lab_err *err);
    /* Optional, NULL where the backend has one device (the simulator): every device it sees, in
     * its own order (ops->open's ordinals), at most max into out, their number in *n. */
    int (*devices)(lab_dev *dev, lab_dev_ident *out, int max, int *n, lab_err *err);
    void (*close)(lab_dev *dev);
} lab_dev_ops;

extern const lab_dev_ops lab_dev_cuda;
extern const lab_dev_ops lab_dev_sim;

/* The simulator's metrics (summed) and first check finding of the launches on dev (a "sim"
 * device) since the last call, and what their printf wrote appended to printf_out (unless
 * NULL; lab_sim_printf_text's lines, the launches' one after the other, at most
 * LAB_SIM_PRINTF_MAX bytes, then a line saying how many more bytes were not kept); false when
 * there was no launch. */
struct lab_sim_result;
struct lab_buf;
bool lab_dev_sim_take(lab_dev *dev, struct lab_sim_result *out, struct lab_buf *printf_out);
/* Modules dev (a "sim" device) loads from now on count their conditional branches; a module's
 * counts, summed over its launches, as {"where", "ptx_line", "warps", "divergent"} objects
 * appended to the cJSON array out (lab_sim_branches). */
struct cJSON;
void lab_dev_sim_count_branches(lab_dev *dev);
/* dev (a "sim" device) runs without the simulator's checks (races, hazards, barriers, masks;
 * bounds stay): the counts are the same, the findings are not looked for. */
void lab_dev_sim_checks_off(lab_dev *dev);
void lab_dev_sim_report_branches(lab_module *m, struct cJSON *out);

/* A shape as "128x2" (sep "x") or "(128,2)" (open "(", sep ",", close ")"), its trailing
 * dimensions of 1 left out. */
void lab_dim3_format(lab_dim3 s, const char *open, const char *sep, const char *close, char *buf,
                     size_t size);

/* count 32-bit words at dst set to value (ops->fill32, or copies of a host buffer of them). */
int lab_dev_fill32(const lab_dev_ops *ops, lab_dev *dev, lab_dptr dst, uint32_t value, size_t count,
                   lab_err *err);

/* The backend named "cuda" or "sim", or NULL. */
const lab_dev_ops *lab_dev_backend(const char *name);
/* Loads the module in the file at path (PTX, a cubin) on dev. */
int lab_dev_load_file(const lab_dev_ops *ops, lab_dev *dev, const char *path, lab_module **out,
                      lab_err *err);
/* Loads NAME ("occupancy.ptx") from the folder of beside (the path of lab-kernels.ptx). */
int lab_dev_load_beside(const lab_dev_ops *ops, lab_dev *dev, const char *beside, const char *name,
                        lab_module **out, lab_err *err);

#endif
