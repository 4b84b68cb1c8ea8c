/*
 * report.h - the driver's side of the runner protocol: one JSON object,
 * written once to the report fd the lab opened (never stdout).
 *
 * Protocol version 1.  Top-level fields (never renumbered or reused):
 *   version   1
 *   family    "reduce-int"
 *   backend   "cuda" | "sim"
 *   status    "ok" | "no_gpu" | "error"
 *   reason    one line, for no_gpu and error
 *   error     {role, stage, size, code, name, message} for status "error"
 *   seed      the inputs' seed
 *   device    {name, uuid, pci_bus_id, cc, sm_count, mem_clock_khz, bus_width_bits, peak_gbps,
 * l2_bytes, driver_version} (uuid and pci_bus_id where the backend tells them)
 *   devices   the device probe only: every device the backend sees, [{index, name, uuid,
 * pci_bus_id}], index being the backend's number for it (the one opened is index 0)
 * block, unroll cases     [{size, role, grid, correct, expected, got, bad,
 * first_bad, detail}] timings   [{size, bytes, copy_gbps, capped, kernels: [{role, median_ns,
 * mad_ns, min_ns, max_ns, ci_rel, samples, gbps, pct_peak, pct_copy}]}]
 *
 *   sweep     choice exercises only (common/choose.h): {size, bytes, choice, capped, rows:
 * [{block, threads, launched, error, median_ns, ci_rel, samples, gbps, occupancy}]} timing
 * "skipped: ..." on the simulator (no clock; "timings" stays empty) sim_metrics  (backend "sim"
 * only; optional) one object per case, in the order of cases: {role, size, level: "PTX", warps,
 * warp_insts, insts_per_warp, simt_efficiency, branches, divergent_branches, branch_efficiency,
 * gld_requests, gld_sectors, gld_sectors_per_request, gld_efficiency, gst_requests, gst_sectors,
 *              gst_sectors_per_request, gst_efficiency, shared_requests, shared_wavefronts,
 *              shared_bank_conflicts, gatom_requests, gatom_sectors, shared_atom_requests,
 *              shared_atom_serial, child_grids, findings, gld_block_sectors, gld_rounds,
 *              barrier_waits, int_divs}  (lab/sim/sim.h defines each)
 *   cases[].check  (simulator) the check that made the case wrong ("shared-memory race", ...)
 *   cases[].detail_format, cases[].detail_args  (optional) detail's printf format, a message of
 *              the catalog, and its arguments, each {"i": n}, {"u": n}, {"f": x} or {"s": text}
 *              in the format's order: the lab shows the detail in the learner's language from
 *              them (lab/util/fmtargs.h); detail itself stays the English text
 *   cases[].finding  (simulator, with check) the finding of detail in parts, for the lab to show
 *              it translated: {format, args, thread: [x,y,z], block: [x,y,z], where}, format
 *              and args what happened (as detail_format, detail_args), thread and block who,
 *              where the source line
 *   reason_format, reason_args  (optional) reason as a message of the catalog and its arguments
 *
 * Call order: lab_report_new, fill with cJSON calls and the helpers below,
 * lab_report_emit (once), cJSON_Delete.
 */
#ifndef LAB_HARNESS_REPORT_H
#define LAB_HARNESS_REPORT_H

#include <cJSON.h>

#include "common/dev.h"
#include "common/stats.h"
#include "lab/util/fmtargs.h"

#define LAB_REPORT_VERSION 1

cJSON *lab_report_new(const char *family, const char *backend);
void lab_report_set_device(cJSON *report, const lab_dev_info *info);
/* The probe's "devices": n of them. */
void lab_report_set_devices(cJSON *report, const lab_dev_ident *ids, int n);
/* status "no_gpu" or "error" with a one-line reason. */
void lab_report_set_status(cJSON *report, const char *status, const char *reason);
/* status "no_gpu" with err's message as the reason, and its format and arguments where
 * lab_err_set_msg kept them (err->args given before the failing call). */
void lab_report_set_no_gpu(cJSON *report, const lab_err *err);
/* Appends {role, median_ns, ...} to kernels; bytes moved per launch give GB/s. */
void lab_report_add_timing(cJSON *kernels, const char *role, const lab_stats *ns, double bytes,
                           double peak_gbps, double copy_gbps);
/* args as a JSON array, each {"i": n}, {"u": n}, {"f": x} or {"s": text}; NULL without memory. */
cJSON *lab_report_fmtargs(const lab_fmtargs *args);
/* A message of the catalog and its arguments in obj, under format_key and args_key (a case's
 * detail_format and detail_args, above; the report's reason_format and reason_args). */
void lab_report_add_format(cJSON *obj, const char *format_key, const char *args_key,
                           const char *fmt, const lab_fmtargs *args);
/* Writes the whole object to fd and closes nothing. */
int lab_report_emit(cJSON *report, int fd, lab_err *err);

#endif
