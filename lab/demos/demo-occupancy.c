/*
 * demo-occupancy.c - the occupancy chapter's demo: a device query that works
 * on CUDA 13 (attributes, not the removed cudaDeviceProp clock fields), the
 * measured copy bandwidth beside the theoretical one, and the notes' Little's
 * law tables for Fermi and Kepler with the same arithmetic done for this GPU.
 *
 * Then the occupancy sweep: the block-size exercise's reference (mapThroughTable, table-map's
 * contract: a 40 KiB table in each block's shared memory, a grid-stride loop over one wave of
 * resident blocks) at every block size of the exercise on 2^24 ints, its theoretical occupancy
 * beside its time.
 *
 * On the simulator the device is the H100 the simulator stands for (its limits; the peak
 * bandwidth, SM clock and L2 of the GPU modelled), and the copy bandwidth is the performance
 * model's (demomodel.h), labelled so; Little's law then uses the model's load latency.  The
 * sweep's outputs are checked on 2^18 ints and its times modelled: each size counted on 2^16
 * and 2^18 ints over the same wave of blocks (a fixed grid) and scaled to 2^24; the blocks per
 * SM come from the chapter's rule (threads, blocks, shared memory) where a GPU has the CUDA
 * occupancy API.
 */
#include "common/demodrv.h"
#include "lab/util/i18n.h"
#include "common/demomodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_LATENCY_CYCLES 800.0 /* the notes' global-memory latency; assumed here too */
#define KIB 1024.0

static void
query_section(lab_demodrv *d)
{
    const lab_dev_info *i = &d->info;
    char cc[16];
    const bool sim = lab_demodrv_is_sim(d);
    cJSON *rows = lab_demodrv_section(
        d, N_("Device query"),
        sim ? N_("On the simulator: the limits of the H100 it stands for (as a kernel reads "
                 "them), and the datasheet figures of the GPU modelled. CUDA 13 removed "
                 "cudaDeviceProp's clock fields, so on a GPU the lab reads them with "
                 "cuDeviceGetAttribute. The copy bandwidth is modelled, not measured: the "
                 "model's rate for a device-to-device copy (peak x its DRAM efficiency).")
            : N_("Read with cuDeviceGetAttribute, the driver API twin of cudaDeviceGetAttribute: "
                 "CUDA 13 removed cudaDeviceProp's clock fields, so the notes' property-struct "
                 "code no longer compiles for clocks. The copy bandwidth is measured: a "
                 "device-to-device copy, bytes read plus bytes written per second."),
        N_("property"), "", N_("value"), "", N_("unit"), "", NULL);

    snprintf(cc, sizeof(cc), "%d.%d", i->cc_major, i->cc_minor);
    lab_demodrv_row(rows, "sss", N_("device"), i->name, "");
    lab_demodrv_row(rows, "sss", N_("compute capability"), cc, "");
    lab_demodrv_row(rows, "sns", N_("multiprocessors (SMs)"), (double)i->sm_count, "");
    lab_demodrv_row(rows, "sns", N_("warp size"), (double)i->warp_size, N_("threads"));
    lab_demodrv_row(rows, "sns", N_("max threads per block"), (double)i->max_threads_per_block,
                    N_("threads"));
    lab_demodrv_row(rows, "sns", N_("max threads per SM"), (double)i->max_threads_per_sm,
                    N_("threads"));
    lab_demodrv_row(rows, "sns", N_("max warps per SM"),
                    (double)(i->warp_size ? i->max_threads_per_sm / i->warp_size : 0), "warps");
    lab_demodrv_row(rows, "sns", N_("max blocks per SM"), (double)i->max_blocks_per_sm,
                    N_("blocks"));
    lab_demodrv_row(rows, "sns", N_("registers per SM"), (double)i->regs_per_sm, "32-bit");
    lab_demodrv_row(rows, "sns", N_("registers per block"), (double)i->regs_per_block, "32-bit");
    lab_demodrv_row(rows, "sns", N_("shared memory per SM"), i->smem_per_sm / KIB, "KiB");
    lab_demodrv_row(rows, "sns", N_("shared memory per block"), i->smem_per_block / KIB, "KiB");
    lab_demodrv_row(rows, "sns", N_("shared memory per block, opt-in"),
                    i->smem_per_block_optin / KIB, "KiB");
    lab_demodrv_row(rows, "sns", N_("constant memory"), i->const_mem / KIB, "KiB");
    lab_demodrv_row(rows, "sns", N_("L2 cache"), i->l2_bytes / (KIB * KIB), "MiB");
    if (!sim) { /* the simulator has no memory clock or bus */
        lab_demodrv_row(rows, "sns", N_("memory bus width"), (double)i->bus_width_bits, "bit");
        lab_demodrv_row(rows, "sns", N_("memory clock"), i->mem_clock_khz / 1e3, "MHz");
    }
    lab_demodrv_row(rows, "sns", N_("SM clock"), i->sm_clock_khz / 1e3, "MHz");
    lab_demodrv_row(rows, "sns", N_("theoretical bandwidth (2 x clock x bus)"), i->peak_gbps,
                    "GB/s");
    lab_demodrv_row(rows, "sns",
                    sim ? N_("modelled copy bandwidth") : N_("measured copy bandwidth"),
                    d->copy_gbps, "GB/s");
    lab_demodrv_row(rows, "sns", N_("copy / theoretical"),
                    i->peak_gbps > 0 ? 100.0 * d->copy_gbps / i->peak_gbps : 0, "%");
}

/* One row of Little's law: bandwidth (GB/s) over a clock (GHz) is bytes per cycle, times the
 * latency in those cycles is the bytes in flight, in 4-byte loads of one thread each. */
static void
littles_row(cJSON *rows, const char *gpu, double gbps, double ghz, double sms, double max_warps)
{
    double bpc = ghz > 0 ? gbps / ghz : NAN;
    double bytes = bpc * MEM_LATENCY_CYCLES, warps = bytes / 4 / 32;

    lab_demodrv_row(rows, "snnnnnnnnn", gpu, gbps, ghz, bpc, bytes / KIB, bytes / 4, warps, sms,
                    sms > 0 ? warps / sms : NAN, max_warps);
}

static void
littles_law_memory(lab_demodrv *d)
{
    const lab_dev_info *i = &d->info;
    const bool sim = lab_demodrv_is_sim(d);
    /* a latency in cycles counts the SM's cycles (the notes counted the memory's: their rows) */
    double ghz = i->sm_clock_khz / 1e6;
    /* the simulator has no memory clock: the model's load latency in ns (GB/s = bytes/ns) */
    double bytes = d->copy_gbps * d->model_gpu.p[LAB_MODEL_P_LATENCY_NS];
    double warps = bytes / 4 / 32;
    cJSON *rows = lab_demodrv_section(
        d, N_("Little's law for memory: bytes in flight to hide latency"),
        sim ? N_("Required parallelism = latency x throughput. With one 4-byte load per thread, "
                 "this many warps must be waiting on memory at once to keep it busy. The notes' "
                 "rows assume 800-cycle loads counted at their memory clock, from the notes' own "
                 "bandwidths and clocks; the modelled GPU's row uses the model's copy rate and its "
                 "fitted load latency (in ns: the simulator has no clock of its memory).")
            : N_("Required parallelism = latency x throughput. With 800-cycle loads (the notes' "
                 "figure, assumed here too) and one 4-byte load per thread, this many warps must "
                 "be waiting on memory at once to keep it busy. The notes' rows count the cycles "
                 "at "
                 "their memory clock, as the notes did; this GPU's row uses the measured copy rate "
                 "and counts them at the SM clock, the clock a latency is counted in."),
        N_("GPU"), "", N_("bandwidth"), "GB/s", N_("clock"), "GHz", N_("bytes/cycle"), "B",
        N_("in flight"), "KiB", N_("threads"), "", N_("warps"), "", N_("SMs"), "",
        N_("warps per SM"), "", N_("max warps per SM"), "", NULL);

    /* from the notes' inputs (docs/numbers.ini), computed alike: their Kepler row's 96 B/cycle
     * is not 250 GB/s / 1.6 GHz, and they divided Fermi's warps by 16 SMs where the C2070 has 14 */
    littles_row(rows, N_("Fermi C2070 (notes)"), lab_demodrv_figure(d, "notes.003.fermi.gbps"),
                lab_demodrv_figure(d, "notes.003.fermi.mem_clock.ghz"),
                lab_demodrv_figure(d, "notes.003.m2070.sms"),
                lab_demodrv_figure(d, "notes.003.m2070.max_warps_per_sm"));
    littles_row(rows, N_("Kepler K20 (notes)"), lab_demodrv_figure(d, "notes.003.kepler.gbps"),
                lab_demodrv_figure(d, "notes.003.kepler.mem_clock.ghz"),
                lab_demodrv_figure(d, "notes.003.k20.sms"),
                lab_demodrv_figure(d, "notes.003.kepler.max_warps"));
    if (sim)
        lab_demodrv_row(rows, "sn--nnnnnn", d->model_gpu.name, d->copy_gbps, bytes / KIB, bytes / 4,
                        warps, (double)i->sm_count, i->sm_count ? warps / i->sm_count : 0,
                        (double)(i->warp_size ? i->max_threads_per_sm / i->warp_size : 0));
    else
        littles_row(rows, i->name, d->copy_gbps, ghz, (double)i->sm_count,
                    (double)(i->warp_size ? i->max_threads_per_sm / i->warp_size : 0));
    lab_demodrv_bars(d, 0, 8);
}

/* FP32 lanes per SM by compute capability (CUDA Programming Guide's throughput table). */
static int
fp32_per_sm(int major, int minor)
{
    static const struct {
        int major, minor, lanes;
    } t[] = { { 7, 0, 64 },  { 7, 2, 64 },  { 7, 5, 64 },  { 8, 0, 64 },   { 8, 6, 128 },
              { 8, 7, 128 }, { 8, 9, 128 }, { 9, 0, 128 }, { 10, 0, 128 }, { 12, 0, 128 } };

    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
        if (t[k].major == major && t[k].minor == minor)
            return t[k].lanes;
    return 0;
}

static void
littles_law_arith(lab_demodrv *d)
{
    const lab_dev_info *i = &d->info;
    int lanes = fp32_per_sm(i->cc_major, i->cc_minor);
    const double latency = 4; /* cycles of a dependent FP32 FMA since Volta (inferred) */
    cJSON *rows = lab_demodrv_section(
        d, N_("Little's law for arithmetic: operations in flight per SM"),
        N_("A 32-bit fused multiply-add: the notes' Fermi and Kepler figures, and this GPU's "
           "from its FP32 lanes per SM (Programming Guide) and a 4-cycle dependent-FMA latency "
           "(an assumption for Volta and later, not measured here)."),
        N_("GPU"), "", N_("latency"), "cycles", N_("throughput"), "ops/cycle/SM", N_("parallelism"),
        "ops", N_("warps per SM"), "", NULL);

    lab_demodrv_row(rows, "snnnn", N_("Fermi (notes)"),
                    lab_demodrv_figure(d, "notes.003.fma.latency.cycles"),
                    lab_demodrv_figure(d, "notes.003.fermi.fma_per_cycle"),
                    lab_demodrv_figure(d, "notes.003.fermi.fma_parallelism"),
                    lab_demodrv_figure(d, "notes.003.fermi.fma_warps"));
    lab_demodrv_row(rows, "snnnn", N_("Kepler (notes)"),
                    lab_demodrv_figure(d, "notes.003.fma.latency.cycles"),
                    lab_demodrv_figure(d, "notes.003.kepler.fma_per_cycle"),
                    lab_demodrv_figure(d, "notes.003.kepler.fma_parallelism"),
                    lab_demodrv_figure(d, "notes.003.kepler.fma_warps"));
    if (lanes)
        lab_demodrv_row(rows, "snnnn", i->name, latency, (double)lanes, latency * lanes,
                        latency * lanes / 32);
    else
        lab_demodrv_row(rows, "s----", i->name);
}

#define SWEEP_N (1u << 24)
#define SWEEP_SIM_N (1u << 14) /* on the simulator: the size the outputs are checked at ... */
#define SWEEP_SIM_SMS 2        /* ... by the blocks of this many SMs */
#define TABLE_INTS 10240       /* table-map's table: 40 KiB of shared memory per block */

/* occupancy/block-size's block sizes; on the simulator, whose every count copies the table
 * into each of a wave's blocks, every other one */
static const unsigned sweep_blocks[] = { 32,  64,  96,  128, 192, 256, 320, 384,
                                         448, 512, 576, 640, 768, 896, 1024 };
static const unsigned sim_sweep_blocks[] = { 32, 64, 128, 256, 384, 512, 640, 768, 1024 };

typedef struct sweep {
    lab_module *m;
    const char *entry;
    lab_dptr in, table, out;
    unsigned n;
    void *args[4];
} sweep;

/* Blocks of `block` threads resident on one SM: the CUDA occupancy API, or on the simulator
 * the performance model's rule for the GPU modelled (registers are not this kernel's limit). */
static int
blocks_per_sm(lab_demodrv *d, const sweep *s, unsigned block, unsigned *out, lab_err *err)
{
    lab_occupancy o;
    int rc;

    if (!d->ops->occupancy) {
        *out = (unsigned)lab_model_blocks_per_sm(d->model_gpu.p, block, TABLE_INTS * 4, 0);
        return 0;
    }
    if ((rc = d->ops->occupancy(s->m, s->entry, block, 0, &o, err)) < 0)
        return rc;
    *out = o.blocks_per_sm > 0 ? (unsigned)o.blocks_per_sm : 0;
    return 0;
}

/* The model's resize (demodrv.h): the same wave of blocks over work ints. */
static double
resize_sweep(lab_demodrv_launch *l, double work)
{
    sweep *s = l->ctx;

    s->n = (unsigned)work;
    return work;
}

/* Inputs in[i] = i * 7919 (a scattered lookup), table[k] = 3k + 1, on n ints. */
static int
sweep_inputs(lab_demodrv *d, sweep *s, unsigned n, lab_err *err)
{
    int32_t *host = malloc((size_t)n * 4);
    int rc;

    if (!host)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (unsigned k = 0; k < TABLE_INTS; k++)
        host[k] = (int32_t)(3 * k + 1);
    if ((rc = d->ops->alloc(d->dev, (size_t)n * 4, &s->in, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, (size_t)n * 4, &s->out, err)) < 0 ||
        (rc = d->ops->alloc(d->dev, TABLE_INTS * 4, &s->table, err)) < 0 ||
        (rc = d->ops->copy_in(d->dev, s->table, host, TABLE_INTS * 4, err)) < 0)
        goto out;
    for (unsigned k = 0; k < n; k++)
        host[k] = (int32_t)((k * 7919u) & 0x7fffffff);
    rc = d->ops->copy_in(d->dev, s->in, host, (size_t)n * 4, err);
out:
    free(host);
    return rc;
}

/* Runs the launch on n ints (on the simulator, by the blocks of SWEEP_SIM_SMS SMs) and counts
 * the outputs that are not table[in % TABLE]. */
static int
sweep_check(lab_demodrv *d, sweep *s, lab_demodrv_launch *l, unsigned n, unsigned *wrong,
            lab_err *err)
{
    int32_t *got = malloc((size_t)n * 4);
    lab_dim3 grid = l->grid;
    int rc;

    if (!got)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (lab_demodrv_is_sim(d))
        grid.x = grid.x / (unsigned)d->info.sm_count * SWEEP_SIM_SMS;
    s->n = n;
    *wrong = 0;
    if ((rc = d->ops->launch(s->m, s->entry, grid, l->block, 0, s->args, err)) == 0 &&
        (rc = d->ops->sync(d->dev, err)) == 0 &&
        (rc = d->ops->copy_out(d->dev, got, s->out, (size_t)n * 4, err)) == 0)
        for (unsigned k = 0; k < n; k++)
            *wrong += got[k] != (int32_t)(3 * (((k * 7919u) & 0x7fffffff) % TABLE_INTS) + 1);
    s->n = SWEEP_N;
    free(got);
    return rc;
}

static int
occupancy_sweep(lab_demodrv *d, const lab_demodrv_step *step, lab_err *err)
{
    const bool sim = lab_demodrv_is_sim(d);
    const unsigned checked = sim ? SWEEP_SIM_N : SWEEP_N;
    const unsigned *blocks = sim ? sim_sweep_blocks : sweep_blocks;
    const size_t nb = sim ? ARRAY_SIZE(sim_sweep_blocks) : ARRAY_SIZE(sweep_blocks);
    lab_demodrv_launch l[ARRAY_SIZE(sweep_blocks)];
    unsigned per_sm[ARRAY_SIZE(sweep_blocks)], wrong[ARRAY_SIZE(sweep_blocks)];
    double us[ARRAY_SIZE(sweep_blocks)];
    sweep s = { .entry = step->entry, .n = SWEEP_N };
    cJSON *rows;
    int rc;

    s.args[0] = &s.in;
    s.args[1] = &s.table;
    s.args[2] = &s.out;
    s.args[3] = &s.n;
    if ((rc = lab_demodrv_load_path(d, step->module, &s.m, err)) < 0 ||
        (rc = sweep_inputs(d, &s, sim ? LAB_DEMOMODEL_WORK : SWEEP_N, err)) < 0)
        return rc;
    for (size_t b = 0; b < nb; b++) {
        if ((rc = blocks_per_sm(d, &s, blocks[b], &per_sm[b], err)) < 0)
            return rc;
        l[b] = (lab_demodrv_launch){ .d = d,
                                     .m = s.m,
                                     .kernel = s.entry,
                                     .grid = { per_sm[b] * (unsigned)d->info.sm_count, 1, 1 },
                                     .block = { blocks[b], 1, 1 },
                                     .args = s.args,
                                     .work = SWEEP_N,
                                     .in_bytes = 4.0 * SWEEP_N + TABLE_INTS * 4,
                                     .out_bytes = 4.0 * SWEEP_N,
                                     .resize = resize_sweep,
                                     .ctx = &s };
        if (per_sm[b] == 0)
            return lab_err_set(err, LAB_EINVAL, "a block of %u threads does not fit on an SM",
                               blocks[b]);
        if ((rc = sweep_check(d, &s, &l[b], checked, &wrong[b], err)) < 0)
            return rc;
    }
    if ((rc = lab_demodrv_time(d, l, nb, us, err)) < 0)
        return rc;
    rows = lab_demodrv_section(
        d, N_("The occupancy sweep: a 40 KiB table per block, 2^24 ints"),
        N_("The block-size exercise's reference (mapThroughTable) at each block size, on one "
           "wave of resident blocks. Every block first copies the table into its shared memory, "
           "so shared memory, not threads, limits the blocks per SM; each thread keeps one load "
           "in flight, so only resident warps hide the memory's latency, and the times follow "
           "the occupancy column until it is full."),
        N_("block"), N_("threads"), N_("blocks per SM"), "", N_("warps per SM"), "",
        N_("occupancy"), "%", N_("time"), "us", N_("wrong"), "", NULL);
    for (size_t b = 0; b < nb; b++) {
        const unsigned warps = per_sm[b] * ((blocks[b] + 31) / 32);
        lab_demodrv_row(rows, "nnnnnn", (double)blocks[b], (double)per_sm[b], (double)warps,
                        100.0 * warps / (d->info.max_threads_per_sm / 32), us[b], (double)wrong[b]);
    }
    lab_demodrv_bars(d, 0, 4);
    if (lab_demodrv_is_sim(d))
        lab_demodrv_note(d,
                         "on the simulator the sweep takes every other block size; its outputs "
                         "were checked on 2^14 ints, its blocks per SM follow the chapter's rule "
                         "(threads, blocks, shared memory), and the times at 2^24 are modelled "
                         "from its counts at 2^16 and 2^18");
    return 0;
}

static int
run(lab_demodrv *d, lab_err *err)
{
    query_section(d);
    littles_law_memory(d);
    littles_law_arith(d);
    /* the sweep is the last table: one that cannot run (a driver without the occupancy API)
     * leaves the others standing, and says why */
    for (size_t i = 0; i < d->nsteps; i++)
        if (!strcmp(d->steps[i].family, "table-map") && occupancy_sweep(d, &d->steps[i], err) < 0)
            lab_demodrv_note(d, "the occupancy sweep did not run: %s", err->msg);
    lab_demodrv_note(d, "the notes read clocks from cudaDeviceProp::memoryClockRate; CUDA 13 "
                        "removed it (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, "
                        "0) works)");
    return 0;
}

const lab_demo_driver lab_demo_occupancy = {
    .chapter = "occupancy",
    .run = run,
};
