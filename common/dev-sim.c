/*
 * dev-sim.c - the simulator backend of the device interface: lab/sim behind
 * lab_dev_ops.
 *
 * load takes the module's PTX (the lab passes PTX paths to drivers that run
 * on the simulator); launches run synchronously, so sync only reports what
 * the last launch found.  There are no timers: elapsed fails with LAB_ENOSYS,
 * and drivers skip timing on this backend.  Device-side launches (dynamic
 * parallelism) run inside the launch that made them.  The metrics and the first check
 * finding of the launches since the last look are read with lab_dev_sim_take (dev.h).
 */
#include "common/dev.h"
#include "lab/sim/sim.h"
#include "lab/util/buf.h"

#include <cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lab_dev {
    lab_sim *sim;
    lab_dev_error last;
    lab_sim_result result;   /* of the launches since the last lab_dev_sim_take */
    lab_buf printf_text;     /* what their printf wrote, at most LAB_SIM_PRINTF_MAX bytes */
    uint64_t printf_dropped; /* and the bytes past it */
    bool launched;
    struct lab_module *modules; /* freed at close, like CUmodules */
};

struct lab_module {
    lab_dev *dev;
    lab_sim_module *m;
    struct lab_module *next;
};

static int
sim_open(int ordinal, lab_dev **out, lab_err *err)
{
    lab_dev *d;
    int rc;

    *out = NULL;
    if (ordinal != 0)
        return lab_err_set(err, LAB_ENODEV, "the simulator has one device (0), not %d", ordinal);
    if (!(d = calloc(1, sizeof(*d))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    lab_buf_init(&d->printf_text);
    if ((rc = lab_sim_new(&d->sim, err)) < 0) {
        free(d);
        return rc;
    }
    *out = d;
    return 0;
}

/* The GPU the simulator stands for, as its special registers show it (%nsmid: LAB_SIM_GPU_H100):
 * an H100 SXM's limits, so that what a kernel reads and what the lab says agree */
static int
sim_info(lab_dev *dev, lab_dev_info *out, lab_err *err)
{
    lab_sim_gpu gpu = LAB_SIM_GPU_H100;

    (void)dev;
    (void)err;
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "cudalab PTX simulator");
    out->cc_major = 9;
    out->cc_minor = 0;
    out->sm_count = (int)gpu.sms;
    out->max_threads_per_block = 1024;
    out->max_threads_per_sm = (int)gpu.warps_per_sm * 32;
    out->warp_size = 32;
    out->regs_per_sm = 65536;
    out->regs_per_block = 65536;
    out->max_blocks_per_sm = 32;
    out->smem_per_block = 48 * 1024;
    out->smem_per_block_optin = 227 * 1024;
    out->smem_reserved_per_block = 1024;
    out->smem_per_sm = 228 * 1024;
    out->const_mem = 64 * 1024;
    out->max_block_dim[0] = out->max_block_dim[1] = 1024;
    out->max_block_dim[2] = 64;
    out->max_grid_dim[0] = 2147483647;
    out->max_grid_dim[1] = out->max_grid_dim[2] = 65535;
    out->total_mem = (size_t)1 << 32;
    return 0;
}

static int
sim_alloc(lab_dev *dev, size_t bytes, lab_dptr *out, lab_err *err)
{
    return lab_sim_alloc(dev->sim, bytes, out, err);
}

static int
sim_copy_in(lab_dev *dev, lab_dptr dst, const void *src, size_t bytes, lab_err *err)
{
    return lab_sim_copy_in(dev->sim, dst, src, bytes, err);
}

static int
sim_copy_out(lab_dev *dev, void *dst, lab_dptr src, size_t bytes, lab_err *err)
{
    return lab_sim_copy_out(dev->sim, dst, src, bytes, err);
}

static int
sim_copy_dtod(lab_dev *dev, lab_dptr dst, lab_dptr src, size_t bytes, lab_err *err)
{
    return lab_sim_copy_dtod(dev->sim, dst, src, bytes, err);
}

static int
sim_fill32(lab_dev *dev, lab_dptr dst, uint32_t value, size_t count, lab_err *err)
{
    return lab_sim_fill32(dev->sim, dst, value, count, err);
}

static int
sim_load(lab_dev *dev, const lab_image *img, lab_module **out, lab_err *err)
{
    lab_module *m = calloc(1, sizeof(*m));
    int rc;

    *out = NULL;
    if (!m)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = lab_sim_load(dev->sim, img->data, img->size, img->path, &m->m, err)) < 0) {
        free(m);
        return rc;
    }
    m->dev = dev;
    m->next = dev->modules;
    dev->modules = m;
    *out = m;
    return 0;
}

static bool
sim_has_kernel(lab_module *m, const char *kernel)
{
    return lab_sim_has_kernel(m->m, kernel);
}

static int
sim_symbol(lab_module *m, const char *name, lab_dptr *out, size_t *bytes, lab_err *err)
{
    return lab_sim_symbol(m->m, name, out, bytes, err);
}

static int
sim_launch(lab_module *m, const char *kernel, lab_dim3 grid, lab_dim3 block, unsigned shared_bytes,
           void **args, lab_err *err)
{
    unsigned g[3] = { grid.x, grid.y, grid.z }, b[3] = { block.x, block.y, block.z };
    lab_sim_result r, *acc = &m->dev->result;
    int rc;

    rc = lab_sim_launch(m->m, kernel, g, b, shared_bytes, args, &r, err);
    if (!m->dev->launched) {
        *acc = r;
    } else { /* several launches make one case (two-level reductions): sum, keep the first */
        uint64_t *to = (uint64_t *)&acc->metrics;
        const uint64_t *from = (const uint64_t *)&r.metrics;
        for (size_t i = 0; i < sizeof(r.metrics) / sizeof(uint64_t); i++)
            to[i] += from[i];
        if (acc->first.kind == LAB_SIM_CHECK_NONE)
            acc->first = r.first;
        acc->fatal |= r.fatal;
        acc->printf_cut |= r.printf_cut;
        acc->printf_bytes += r.printf_bytes;
        acc->nfindings += r.nfindings;
    }
    m->dev->launched = true;
    { /* the launches of one case, one after the other, in whole lines within the cap */
        uint64_t dropped;
        const char *text = lab_sim_printf_text(m->dev->sim, &dropped), *nl;
        size_t all = strlen(text), len = all, used = m->dev->printf_text.len;
        size_t room = used < LAB_SIM_PRINTF_MAX ? LAB_SIM_PRINTF_MAX - used : 0;
        if (len > room)
            len = (nl = memrchr(text, '\n', room)) ? (size_t)(nl + 1 - text) : 0;
        if (len && lab_buf_add(&m->dev->printf_text, text, len) < 0 && rc == 0)
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        m->dev->printf_dropped += dropped + (all - len);
    }
    if (rc < 0) {
        m->dev->last.code = rc;
        snprintf(m->dev->last.name, sizeof(m->dev->last.name), "SIM_UNSUPPORTED");
    }
    return rc;
}

static int
sim_sync(lab_dev *dev, lab_err *err)
{
    (void)dev;
    (void)err;
    return 0;
}

static int
sim_timer_new(lab_dev *dev, lab_timer **out, lab_err *err)
{
    (void)dev;
    *out = NULL;
    return lab_err_set(err, LAB_ENOSYS, "the simulator has no timers: speed needs a GPU");
}

/* The GPU's device runtime keeps at most this many launches pending; the simulator holds a
 * grid's children until it completes, so it only makes sure the count is not below its
 * own runaway guard. */
static int
sim_set_pending_launches(lab_dev *dev, size_t count, lab_err *err)
{
    (void)err;
    if (count > (1u << 20))
        lab_sim_set_max_launches(dev->sim, count);
    return 0;
}

static const lab_dev_error *
sim_last_error(lab_dev *dev)
{
    return &dev->last;
}

static void
sim_close(lab_dev *dev)
{
    if (!dev)
        return;
    while (dev->modules) {
        lab_module *next = dev->modules->next;
        lab_sim_module_free(dev->modules->m);
        free(dev->modules);
        dev->modules = next;
    }
    lab_sim_free(dev->sim);
    lab_buf_release(&dev->printf_text);
    free(dev);
}

bool
lab_dev_sim_take(lab_dev *dev, lab_sim_result *out, lab_buf *printf_out)
{
    if (!dev || !dev->launched)
        return false;
    *out = dev->result;
    if (printf_out) {
        lab_buf_add(printf_out, dev->printf_text.buf, dev->printf_text.len);
        if (dev->printf_dropped)
            lab_buf_printf(printf_out, "(%llu more bytes of printf output not kept)\n",
                           (unsigned long long)dev->printf_dropped);
    }
    lab_buf_reset(&dev->printf_text);
    dev->printf_dropped = 0;
    memset(&dev->result, 0, sizeof(dev->result));
    dev->launched = false;
    return true;
}

const lab_dev_ops lab_dev_sim = {
    .name = "sim",
    .open = sim_open,
    .info = sim_info,
    .alloc = sim_alloc,
    .copy_in = sim_copy_in,
    .copy_out = sim_copy_out,
    .copy_dtod = sim_copy_dtod,
    .fill32 = sim_fill32,
    .load = sim_load,
    .has_kernel = sim_has_kernel,
    .symbol = sim_symbol,
    .launch = sim_launch,
    .sync = sim_sync,
    .timer_new = sim_timer_new,
    .last_error = sim_last_error,
    .set_pending_launches = sim_set_pending_launches,
    .close = sim_close,
};

void
lab_dev_sim_count_branches(lab_dev *dev)
{
    lab_sim_set_branch_counts(dev->sim, true);
}

void
lab_dev_sim_checks_off(lab_dev *dev)
{
    lab_sim_set_checks(dev->sim, false);
}

static int
add_branch(const lab_sim_branch *b, void *arg)
{
    cJSON *o = cJSON_CreateObject();

    if (!o)
        return 0;
    cJSON_AddStringToObject(o, "where", b->where);
    cJSON_AddNumberToObject(o, "ptx_line", b->ptx_line);
    cJSON_AddNumberToObject(o, "warps", (double)b->warps);
    cJSON_AddNumberToObject(o, "divergent", (double)b->divergent);
    cJSON_AddItemToArray(arg, o);
    return 0;
}

void
lab_dev_sim_report_branches(lab_module *m, struct cJSON *out)
{
    if (m && out)
        lab_sim_branches(m->m, add_branch, out);
}
