/*
 * runreport.h - the lab's side of the runner protocol: a driver's JSON
 * report (common/report.h describes the fields) parsed with cJSON into plain
 * structs.  Unknown fields are ignored; a report whose "version" is newer
 * than LAB_RUNREPORT_VERSION is refused.
 *
 * lab_runreport_parse fills *out (release it with lab_runreport_release,
 * also after a failed parse).
 */
#ifndef LAB_GRADE_RUNREPORT_H
#define LAB_GRADE_RUNREPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

#include "lab/util/buf.h"
#include "lab/util/fmtargs.h"
#include "lab/util/err.h"

#define LAB_RUNREPORT_VERSION 1
#define LAB_RUNREPORT_MAX_KERNELS 3

/* A message of the lab's catalog and its arguments, as a driver's report carries it beside its
 * English text (a case's detail, the simulator's finding, the reason, a demo's note): the lab
 * shows it in the learner's language (lab_fmtmsg_show). */
typedef struct lab_fmtmsg {
    char format[256]; /* "" when the report gave none, or its arguments were not whole */
    lab_fmtargs args;
} lab_fmtmsg;

/* obj's format_key and args_key (common/report.h) into out; false (out empty) where there are
 * none or they are not whole. */
bool lab_fmtmsg_read(lab_fmtmsg *out, const cJSON *obj, const char *format_key,
                     const char *args_key);
/* m's format translated and filled with its arguments, into buf; english where m is empty or the
 * translation does not fit the arguments. */
const char *lab_fmtmsg_show(const lab_fmtmsg *m, const char *english, char *buf, size_t size);

typedef struct lab_case {
    unsigned long size;
    char role[16];
    unsigned long grid;
    bool correct;
    double expected, got;
    long bad;
    long first_bad;
    char detail[512]; /* a simulator finding with its thread, block and line fits */
    unsigned round;   /* 1, or 2: new inputs in the same buffers */
    char check[48];   /* the simulator's check that made it wrong ("shared-memory race"), or "" */
    char block[32];   /* its block shape ("40x2") where the exercise runs several, else "" */
    /* detail's format and arguments (lab/util/fmtargs.h), for lab_case_detail; "" and none when
     * the driver gave none */
    char detail_format[256];
    lab_fmtargs detail_args;
    double printf_bytes; /* simulator: what the case's printf wrote, kept or not */
    bool printf_cut;     /* simulator: its launch was stopped for a printf flood */
    /* the simulator's finding in parts (a case with check): what happened, who, where */
    lab_fmtmsg finding;
    unsigned finding_thread[3], finding_block[3];
    char finding_where[256];
} lab_case;

/* What checking a kernel's timed runs found (common/timing.h). */
typedef struct lab_timed_check {
    unsigned long verified; /* timed runs whose output was checked */
    bool wrong;
    unsigned long wrong_launch; /* which run (0: the warm-up) */
    char wrong_detail[256];
} lab_timed_check;

typedef struct lab_kernel_time {
    char role[16];
    bool cpu; /* a host baseline */
    double median_ns, mad_ns, min_ns, max_ns, ci_rel;
    double gbps, pct_peak, pct_copy;
    unsigned long samples;
    lab_timed_check checked;
} lab_kernel_time;

typedef struct lab_size_timing {
    unsigned long size;
    double bytes;
    double copy_gbps;
    bool capped;
    lab_kernel_time kernels[LAB_RUNREPORT_MAX_KERNELS];
    size_t nkernels;
} lab_size_timing;

/* A choice exercise's sweep (common/choose.h): the student's kernel timed at every shape. */
#define LAB_RUNREPORT_MAX_SWEEP 16

typedef struct lab_sweep_row {
    char block[32]; /* "128x2" */
    unsigned long threads;
    bool launched;
    char error[200]; /* why it could not be launched */
    double median_ns, ci_rel, gbps;
    double occupancy; /* theoretical, 0..1; <0 unknown */
    unsigned long samples;
    lab_timed_check checked;
} lab_sweep_row;

typedef struct lab_sweep {
    bool present;
    unsigned long size;
    double bytes;
    char choice[32]; /* the student's shape, as a row's block */
    bool capped;
    lab_sweep_row rows[LAB_RUNREPORT_MAX_SWEEP];
    size_t nrows;
} lab_sweep;

typedef struct lab_runreport {
    int version;
    char family[32];
    char backend[16];
    char status[16]; /* "ok", "no_gpu", "error" */
    char reason[512];
    lab_fmtmsg reason_msg; /* reason as a message of the catalog, where the driver gave it */
    bool has_error;
    struct {
        char role[16];
        char stage[16];
        unsigned long size;
        int code;
        char name[64];
        char message[512];
    } error;
    char device[256];     /* "" when none */
    char device_uuid[48]; /* which GPU of the node: "GPU-...", "" when not told */
    bool driver_found;    /* the probe's "driver" (else implied by "device"): libcuda.so.1 loaded */
    int driver_version;
    char driver_library[256]; /* its path, or the loader's error */
    char cc[16];
    double peak_gbps;
    double sm_clock_khz; /* 0 when not reported */
    double mem_clock_khz;
    double copy_gbps;
    double seed;
    unsigned long block, unroll;
    lab_case *cases;
    size_t ncases;
    lab_size_timing *timings;
    size_t ntimings;
    lab_sweep sweep;
} lab_runreport;

/* json[0..len) must be exactly one JSON object (white space around it allowed). */
int lab_runreport_parse(const char *json, size_t len, lab_runreport *out, lab_err *err);
void lab_runreport_release(lab_runreport *r);
/* The timing of role at the largest timed size, or NULL. */
/* The case's detail as the learner reads it: its format translated (a message of the catalog)
 * and filled with its arguments, into buf; a finding of the simulator's with its check's name,
 * who and where, translated alike; where there is no format, or its translation does not fit
 * the arguments, the driver's English detail.  Programs and the advice read c->detail. */
const char *lab_case_detail(const lab_case *c, char *buf, size_t size);
/* The report's reason as the learner reads it (as lab_case_detail). */
const char *lab_runreport_reason(const lab_runreport *r, char *buf, size_t size);
const lab_kernel_time *lab_runreport_time(const lab_runreport *r, const char *role);
const lab_size_timing *lab_runreport_last_timing(const lab_runreport *r);

/* A "cpu" baseline is timed in a driver run of its own (--cpu-baseline-only, beside the GPU's
 * run and outside the GPU's lock), and the GPU's run (--no-cpu-baseline) leaves its row out of
 * the timings.  Whether json, a GPU run's report, has a timing size without a "baseline" row:
 * one that lab_runreport_add_cpu_baseline must fill.  false for a report that is not JSON (its
 * parse says why), is not "ok", or timed nothing. */
bool lab_runreport_lacks_baseline(const char *json, size_t len);
/* json with the "baseline" row ("where": "cpu") of cpu, a --cpu-baseline-only run's report,
 * added to each timing size that lacks one; its gbps, pct_peak and pct_copy computed from json's
 * bytes, peak and copy bandwidth as the driver computes them: the report the GPU's driver would
 * have written had it timed the CPU itself, into out (emptied first).  <0 when cpu is not such a
 * report, failed, or has no positive time at one of those sizes (err says why). */
int lab_runreport_add_cpu_baseline(const char *json, size_t len, const char *cpu, size_t cpu_len,
                                   lab_buf *out, lab_err *err);

#endif
