/*
 * dynpar.c - dynamic parallelism: the device runtime's launch functions, run
 * by the simulator itself (devlib.c's lab_sim__call runs them for a `call`
 * whose callee parse.c recognised).
 *
 * nvcc -rdc=true turns `kernel<<<grid, block, shmem, stream>>>(args)` in
 * device code into two calls (CUDA 12, CDP2):
 *
 *     buf = __cudaCDP2GetParameterBufferV2(&kernel, grid, block, shmem);
 *     if (buf) { st [buf + offset], arg ...;  __cudaCDP2LaunchDeviceV2(buf, stream); }
 *
 * Each lane's call is its own launch.  The parameter buffer is a slot of the
 * block's table with a tagged address (SIM_PBUF_TAG), so the stores into it
 * go through the ordinary generic-store path and are bounds-checked against
 * the kernel's parameter size.  The launch moves the buffer into a sim_child
 * queued on the worker; launch.c runs the children once the parent grid has
 * run to its end.  A call's arguments and return value are the call
 * sequence's .param variables, which parse.c placed in the thread's local
 * memory.  What the simulator does not run (a kernel of another module, a
 * stream created on the device, nesting past the GPU's 24 levels) stops the
 * launch with an error naming the instruction and its source line.
 */
#include "lab/sim/exec.h"
#include "lab/util/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOR_LANES(m)                                                                               \
    for (int l = 0; l < 32; l++)                                                                   \
        if ((m) >> l & 1u)

#define PBUF_BYTES 0x10000u /* the offset field of a parameter buffer's address */
#define MAX_PBUFS (1u << 24)

int
lab_sim__launch_error(sim_worker *wk, const sim_insn *in, const char *fmt, ...)
{
    char what[320], where[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    lab_sim__where(wk->L->m, in, where, sizeof(where));
    if (wk->rc == 0)
        wk->rc = lab_err_set(&wk->err, LAB_EINVAL, "%s: '%s' at %s", what, in->text, where);
    atomic_store(&wk->L->root->abort, 1);
    return -1;
}

void
lab_sim__pbufs_reset(sim_worker *wk)
{
    for (size_t i = 0; i < wk->npbufs; i++)
        free(wk->pbufs[i].bytes);
    wk->npbufs = 0;
}

uint8_t *
lab_sim__pbuf(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t addr,
              uint32_t bytes, bool write)
{
    uint64_t idx = (addr & ~SIM_TAG_MASK) / PBUF_BYTES, off = addr % PBUF_BYTES;
    const sim_pbuf *pb = idx < wk->npbufs ? &wk->pbufs[idx] : NULL;

    if (pb && pb->bytes && off + bytes <= pb->f->param_bytes)
        return pb->bytes + off;
    if (pb && pb->bytes)
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                         write ? N_("out-of-bounds global store of %u bytes at byte %llu of "
                                    "the %u-byte parameter buffer of a launch of '%s'")
                               : N_("out-of-bounds global load of %u bytes at byte %llu of the "
                                    "%u-byte parameter buffer of a launch of '%s'"),
                         bytes, (unsigned long long)off, pb->f->param_bytes, pb->f->name);
    else
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                         pb ? (write ? N_("global store of %u bytes at 0x%llx: a launch's "
                                          "parameter buffer that was launched already")
                                     : N_("global load of %u bytes at 0x%llx: a launch's "
                                          "parameter buffer that was launched already"))
                            : (write ? N_("global store of %u bytes at 0x%llx: a launch's "
                                          "parameter buffer that this block never got")
                                     : N_("global load of %u bytes at 0x%llx: a launch's "
                                          "parameter buffer that this block never got")),
                         bytes, (unsigned long long)addr);
    return NULL;
}

int
lab_sim__param_buffer(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *out)
{
    const lab_sim_module *m = wk->L->m;
    uint64_t func = lab_sim__arg64(wk, w, l, &in->o[1]), id = func & ~SIM_TAG_MASK;
    sim_pbuf pb = { 0 };
    const char *name;

    if ((func & SIM_TAG_MASK) != SIM_FUNC_TAG || id >= m->nfnames)
        return lab_sim__launch_error(wk, in, "device-side launch of 0x%llx, which is no kernel",
                                     (unsigned long long)func);
    name = m->fnames[id];
    if (!(pb.f = lab_sim__entry(m, name)))
        return lab_sim__launch_error(wk, in,
                                     "device-side launch of '%s', which has no body in this "
                                     "module (the simulator launches kernels of the same file)",
                                     name);
    for (unsigned k = 0; k < 3; k++) {
        pb.grid[k] = lab_sim__arg32(wk, w, l, &in->o[2], k);
        pb.block[k] = lab_sim__arg32(wk, w, l, &in->o[3], k);
    }
    pb.shared_dyn = lab_sim__arg32(wk, w, l, &in->o[4], 0);
    if (!pb.grid[0] || !pb.grid[1] || !pb.grid[2] || !pb.block[0] || !pb.block[1] || !pb.block[2] ||
        (uint64_t)pb.block[0] * pb.block[1] * pb.block[2] > 1024 || pb.block[2] > 64 ||
        pb.grid[1] > 65535 || pb.grid[2] > 65535)
        return lab_sim__launch_error(wk, in,
                                     "device-side launch of '%s' with grid (%u,%u,%u) and block "
                                     "(%u,%u,%u): an invalid shape (on the GPU the child never "
                                     "runs and the launch reports cudaErrorInvalidConfiguration)",
                                     name, pb.grid[0], pb.grid[1], pb.grid[2], pb.block[0],
                                     pb.block[1], pb.block[2]);
    if (pb.f->param_bytes > PBUF_BYTES - 8)
        return lab_sim__launch_error(wk, in,
                                     "device-side launch of '%s' with %u bytes of "
                                     "parameters",
                                     name, pb.f->param_bytes);
    if (wk->npbufs == MAX_PBUFS)
        return lab_sim__launch_error(wk, in, "more than %u device-side launches from one block",
                                     MAX_PBUFS);
    if (!lab_sim__reserve((void **)&wk->pbufs, wk->npbufs, 1, &wk->pbufcap, sizeof(*wk->pbufs)) ||
        !(pb.bytes = calloc(pb.f->param_bytes + 8, 1)))
        return lab_sim__launch_error(wk, in, "out of memory");
    *out = SIM_PBUF_TAG | (uint64_t)wk->npbufs * PBUF_BYTES;
    wk->pbufs[wk->npbufs++] = pb;
    return 0;
}

/* __cudaCDP2LaunchDeviceV2(buffer, stream): queues lane l's child grid */
int
lab_sim__launch_device(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *out)
{
    static const sim_stream streams[] = {
        [0] = SIM_STREAM_NULL, [3] = SIM_STREAM_TAIL, [4] = SIM_STREAM_FNF
    };
    uint64_t buf = lab_sim__arg64(wk, w, l, &in->o[1]),
             stream = lab_sim__arg64(wk, w, l, &in->o[2]);
    uint64_t idx = (buf & ~SIM_TAG_MASK) / PBUF_BYTES;
    sim_launch *L = wk->L;
    sim_pbuf *pb;
    sim_child *c;

    *out = 0; /* cudaSuccess: a launch that fails here stops the simulator instead */
    if ((buf & SIM_TAG_MASK) != SIM_PBUF_TAG || buf % PBUF_BYTES || idx >= wk->npbufs ||
        !wk->pbufs[idx].bytes)
        return lab_sim__launch_error(wk, in,
                                     "__cudaCDP2LaunchDeviceV2 of 0x%llx, which is no parameter "
                                     "buffer of this block waiting for its launch",
                                     (unsigned long long)buf);
    if (stream != 0 && stream != 3 && stream != 4)
        return lab_sim__launch_error(wk, in,
                                     "device-side launch into stream 0x%llx: the simulator runs "
                                     "the NULL stream, cudaStreamTailLaunch and "
                                     "cudaStreamFireAndForget",
                                     (unsigned long long)stream);
    pb = &wk->pbufs[idx];
    if (L->depth + 1 > SIM_MAX_DEPTH)
        return lab_sim__launch_error(wk, in,
                                     "device-side launch of '%s' nested %u levels deep, past the "
                                     "GPU's %d (there the launch fails with "
                                     "cudaErrorLaunchMaxDepthExceeded): does the recursion stop?",
                                     pb->f->name, L->depth + 1, SIM_MAX_DEPTH);
    if (atomic_fetch_add(&L->root->launches, 1) >= L->sim->max_launches)
        return lab_sim__launch_error(wk, in,
                                     "more than %llu device-side launches from one host launch "
                                     "(a runaway recursion?)",
                                     (unsigned long long)L->sim->max_launches);
    if (!lab_sim__reserve((void **)&wk->children, wk->nchildren, 1, &wk->childcap,
                          sizeof(*wk->children)))
        return lab_sim__launch_error(wk, in, "out of memory");
    c = &wk->children[wk->nchildren];
    *c = (sim_child){ .f = pb->f,
                      .shared_dyn = pb->shared_dyn,
                      .params = pb->bytes,
                      .stream = streams[stream],
                      .block_linear = wk->block_linear,
                      .seq = wk->nchildren,
                      .epoch = wk->epoch,
                      .launcher = w->index * 32 + (uint32_t)l + 1 };
    memcpy(c->grid, pb->grid, sizeof(c->grid));
    memcpy(c->block, pb->block, sizeof(c->block));
    wk->nchildren++;
    pb->bytes = NULL;
    return 0;
}
