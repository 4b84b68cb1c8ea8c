/*
 * demo-occupancy.c - the occupancy chapter's demo: a device query that works
 * on CUDA 13 (attributes, not the removed cudaDeviceProp clock fields), the
 * measured copy bandwidth beside the theoretical one, and the notes' Little's
 * law tables for Fermi and Kepler with the same arithmetic done for this GPU.
 *
 * On the simulator the device is the H100 the simulator stands for (its limits; the peak
 * bandwidth, SM clock and L2 of the GPU modelled), and the copy bandwidth is the performance
 * model's (demomodel.h), labelled so; Little's law then uses the model's load latency.
 */
#include "lab/harness/demodrv.h"

#include <stdio.h>

#define MEM_LATENCY_CYCLES 800.0 /* the notes' global-memory latency; assumed here too */
#define KIB 1024.0

static void
query_section(lab_demodrv *d)
{
    const lab_dev_info *i = &d->info;
    char cc[16];
    const bool sim = lab_demodrv_is_sim(d);
    cJSON *rows = lab_demodrv_section(
        d, "Device query",
        sim ? "On the simulator: the limits of the H100 it stands for (as a kernel reads them), "
              "and the datasheet figures of the GPU modelled. CUDA 13 removed cudaDeviceProp's "
              "clock fields, so on a GPU the lab reads them with cuDeviceGetAttribute. The copy "
              "bandwidth is modelled, not measured: the model's rate for a device-to-device "
              "copy (peak x its DRAM efficiency)."
            : "Read with cuDeviceGetAttribute, the driver API twin of cudaDeviceGetAttribute: "
              "CUDA 13 removed cudaDeviceProp's clock fields, so the notes' property-struct code "
              "no longer compiles for clocks. The copy bandwidth is measured: a device-to-device "
              "copy, bytes read plus bytes written per second.",
        "property", "", "value", "", "unit", "", NULL);

    snprintf(cc, sizeof(cc), "%d.%d", i->cc_major, i->cc_minor);
    lab_demodrv_row(rows, "sss", "device", i->name, "");
    lab_demodrv_row(rows, "sss", "compute capability", cc, "");
    lab_demodrv_row(rows, "sns", "multiprocessors (SMs)", (double)i->sm_count, "");
    lab_demodrv_row(rows, "sns", "warp size", (double)i->warp_size, "threads");
    lab_demodrv_row(rows, "sns", "max threads per block", (double)i->max_threads_per_block,
                    "threads");
    lab_demodrv_row(rows, "sns", "max threads per SM", (double)i->max_threads_per_sm, "threads");
    lab_demodrv_row(rows, "sns", "max warps per SM",
                    (double)(i->warp_size ? i->max_threads_per_sm / i->warp_size : 0), "warps");
    lab_demodrv_row(rows, "sns", "max blocks per SM", (double)i->max_blocks_per_sm, "blocks");
    lab_demodrv_row(rows, "sns", "registers per SM", (double)i->regs_per_sm, "32-bit");
    lab_demodrv_row(rows, "sns", "registers per block", (double)i->regs_per_block, "32-bit");
    lab_demodrv_row(rows, "sns", "shared memory per SM", i->smem_per_sm / KIB, "KiB");
    lab_demodrv_row(rows, "sns", "shared memory per block", i->smem_per_block / KIB, "KiB");
    lab_demodrv_row(rows, "sns", "shared memory per block, opt-in", i->smem_per_block_optin / KIB,
                    "KiB");
    lab_demodrv_row(rows, "sns", "constant memory", i->const_mem / KIB, "KiB");
    lab_demodrv_row(rows, "sns", "L2 cache", i->l2_bytes / (KIB * KIB), "MiB");
    if (!sim) { /* the simulator has no memory clock or bus */
        lab_demodrv_row(rows, "sns", "memory bus width", (double)i->bus_width_bits, "bit");
        lab_demodrv_row(rows, "sns", "memory clock", i->mem_clock_khz / 1e3, "MHz");
    }
    lab_demodrv_row(rows, "sns", "SM clock", i->sm_clock_khz / 1e3, "MHz");
    lab_demodrv_row(rows, "sns", "theoretical bandwidth (2 x clock x bus)", i->peak_gbps, "GB/s");
    lab_demodrv_row(rows, "sns", sim ? "modelled copy bandwidth" : "measured copy bandwidth",
                    d->copy_gbps, "GB/s");
    lab_demodrv_row(rows, "sns", "copy / theoretical",
                    i->peak_gbps > 0 ? 100.0 * d->copy_gbps / i->peak_gbps : 0, "%");
}

static void
littles_law_memory(lab_demodrv *d)
{
    const lab_dev_info *i = &d->info;
    const bool sim = lab_demodrv_is_sim(d);
    double ghz = i->mem_clock_khz / 1e6;
    double bpc = ghz > 0 ? d->copy_gbps / ghz : 0; /* bytes per memory cycle */
    /* the simulator has no memory clock: the model's load latency in ns (GB/s = bytes/ns) */
    double bytes =
        sim ? d->copy_gbps * d->model_gpu.p[LAB_MODEL_P_LATENCY_NS] : bpc * MEM_LATENCY_CYCLES;
    double warps = bytes / 4 / 32;
    cJSON *rows = lab_demodrv_section(
        d, "Little's law for memory: bytes in flight to hide latency",
        sim ? "Required parallelism = latency x throughput. With one 4-byte load per thread, "
              "this many warps must be waiting on memory at once to keep it busy. The notes' "
              "rows assume 800-cycle loads; the modelled GPU's row uses the model's copy rate and "
              "its fitted load latency (in ns: the simulator has no memory clock)."
            : "Required parallelism = latency x throughput. With 800-cycle loads (the notes' "
              "figure, assumed here too) and one 4-byte load per thread, this many warps must "
              "be waiting on memory at once to keep it busy. This GPU's row uses the measured "
              "copy rate and its memory clock.",
        "GPU", "", "bandwidth", "GB/s", "memory clock", "GHz", "bytes/cycle", "B", "in flight",
        "KiB", "threads", "", "warps", "", "SMs", "", "warps per SM", "", "max warps per SM", "",
        NULL);

    /* the notes divided by 16, a full Fermi chip's SMs; their C2070 has 14 (docs/occupancy.md) */
    lab_demodrv_row(rows, "snnnnnnnnn", "Fermi C2070 (notes)", 144.0, 1.566, 92.0, 74.0, 18500.0,
                    579.0, 14.0, 41.0, 48.0);
    lab_demodrv_row(rows, "snnnnnnnnn", "Kepler (notes)", 250.0, 1.6, 96.0, 77.0, 19250.0, 602.0,
                    13.0, 46.0, 64.0);
    if (sim)
        lab_demodrv_row(rows, "sn--nnnnnn", d->model_gpu.name, d->copy_gbps, bytes / KIB, bytes / 4,
                        warps, (double)i->sm_count, i->sm_count ? warps / i->sm_count : 0,
                        (double)(i->warp_size ? i->max_threads_per_sm / i->warp_size : 0));
    else
        lab_demodrv_row(rows, "snnnnnnnnn", i->name, d->copy_gbps, ghz, bpc, bytes / KIB, bytes / 4,
                        warps, (double)i->sm_count, i->sm_count ? warps / i->sm_count : 0,
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
        d, "Little's law for arithmetic: operations in flight per SM",
        "A 32-bit fused multiply-add: the notes' Fermi and Kepler figures, and this GPU's from "
        "its FP32 lanes per SM (Programming Guide) and a 4-cycle dependent-FMA latency (an "
        "assumption for Volta and later, not measured here).",
        "GPU", "", "latency", "cycles", "throughput", "ops/cycle/SM", "parallelism", "ops",
        "warps per SM", "", NULL);

    lab_demodrv_row(rows, "snnnn", "Fermi (notes)", 20.0, 32.0, 640.0, 20.0);
    lab_demodrv_row(rows, "snnnn", "Kepler (notes)", 20.0, 192.0, 3840.0, 120.0);
    if (lanes)
        lab_demodrv_row(rows, "snnnn", i->name, latency, (double)lanes, latency * lanes,
                        latency * lanes / 32);
    else
        lab_demodrv_row(rows, "s----", i->name);
}

static int
run(lab_demodrv *d, lab_err *err)
{
    (void)err;
    query_section(d);
    littles_law_memory(d);
    littles_law_arith(d);
    lab_demodrv_note(d, "the notes read clocks from cudaDeviceProp::memoryClockRate; CUDA 13 "
                        "removed it (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, "
                        "0) works)");
    return 0;
}

const lab_demo_driver lab_demo_occupancy = {
    .chapter = "occupancy",
    .run = run,
};
