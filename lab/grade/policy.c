/*
 * policy.c - verdicts and the grading policy (see policy.h).
 */
#include "lab/grade/policy.h"
#include "lab/util/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const lab_verdict_info verdicts[] = {
    [LAB_VERDICT_PASS] = { "PASS", 0, LAB_TONE_PASS, N_("on to the next step") },
    [LAB_VERDICT_WRONG] = { "WRONG", 1, LAB_TONE_FAIL,
                            N_("check the first wrong block: its range, the tail past n, the "
                               "barriers") },
    [LAB_VERDICT_SLOW] = { "SLOW", 1, LAB_TONE_SLOW,
                           N_("correct; now make it faster: read the task's hints (cudalab "
                              "show)") },
    [LAB_VERDICT_COMPILE_ERROR] = { "COMPILE_ERROR", 1, LAB_TONE_FAIL,
                                    N_("fix the first error: file and line are shown") },
    [LAB_VERDICT_RUNTIME_ERROR] = { "RUNTIME_ERROR", 1, LAB_TONE_FAIL,
                                    N_("an index past the end of an array is the usual cause") },
    [LAB_VERDICT_TIMEOUT] = { "TIMEOUT", 1, LAB_TONE_LIMIT,
                              N_("look for a loop whose condition never changes, or a barrier "
                                 "that running threads skip") },
    [LAB_VERDICT_CONSTRAINT] = { "CONSTRAINT", 1, LAB_TONE_LIMIT,
                                 N_("the task forbids or requires an instruction: read it again") },
    [LAB_VERDICT_NO_GPU] = { "NO_GPU", 1, LAB_TONE_NO_GPU,
                             N_("it compiles, but the GPU asked for is not there: grade --sim "
                                "checks it on the simulator") },
    [LAB_VERDICT_SIM_UNSUPPORTED] = { "SIM_UNSUPPORTED", 1, LAB_TONE_NO_GPU,
                                      N_("the simulator cannot run what your kernel uses; grade it "
                                         "on a machine with an NVIDIA GPU") },
};
_Static_assert(ARRAY_SIZE(verdicts) == LAB_VERDICT_COUNT, "one row per verdict");

const lab_verdict_info *
lab_verdict_describe(lab_verdict v)
{
    return (unsigned)v < LAB_VERDICT_COUNT ? &verdicts[v] : NULL;
}

int
lab_verdict_parse(const char *name, lab_verdict *out)
{
    for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++)
        if (!strcmp(verdicts[i].name, name)) {
            *out = (lab_verdict)i;
            return 0;
        }
    return LAB_EINVAL;
}

static int
points_for(const lab_exercise *ex, lab_verdict v)
{
    if (v == LAB_VERDICT_PASS)
        return ex->points;
    if (v == LAB_VERDICT_SLOW)
        return ex->points / 2;
    return 0;
}

void
lab_grade_set(lab_grade_result *out, const lab_exercise *ex, lab_verdict v, const char *fmt, ...)
{
    va_list ap;

    memset(out, 0, sizeof(*out));
    out->verdict = v;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof(out->message), fmt, ap);
    va_end(ap);
    out->points = points_for(ex, v);
}

void
lab_grade_append(lab_grade_result *r, const char *fmt, ...)
{
    size_t len = strlen(r->message);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(r->message + len, sizeof(r->message) - len, fmt, ap);
    va_end(ap);
}

static const char flood_advice[] =
    N_("print from one thread (if (blockIdx.x == 0 && threadIdx.x == 0)) or at a small n, and take "
       "the printf out before grading: a GPU keeps 1 MiB of printf output a launch, and every "
       "line costs time");

void
lab_grade_printf_flood(lab_grade_result *out, const lab_exercise *ex, double bytes,
                       unsigned long size, bool sim)
{
    if (sim)
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR,
                      _("your kernel printed %.1f MiB at n = %lu on the simulator, and the lab "
                        "stopped it: printf from every thread floods the output (a GPU run "
                        "would not end in time)"),
                      bytes / (1 << 20), size);
    else
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR,
                      _("your kernel printed %.1f MiB, and the lab stopped it long before its "
                        "%.0f s limit: printf from every thread floods the output (2^24 threads "
                        "print 2^24 lines)"),
                      bytes / (1 << 20), ex->run_timeout_s);
    out->advice = flood_advice;
}

/* What to do next about a launch the device refused. */
static const char launch_advice[] = N_("a launch with a grid or block the GPU refuses: at most "
                                       "1024 threads a block, and no zero dimension");

/* What to do next about a WRONG or a RUNTIME_ERROR, by what was found, where the verdict's one
 * line would send the student the wrong way: the simulator's check that fired (a case's "check"),
 * else words of the case's detail or of the error (the drivers' "was never written", the
 * simulator's "does not support" and "invalid shape": their reports carry no kind for these). */
static const struct finding_advice {
    const char *finding;
    const char *advice;
} findings[] = {
    { "shared-memory race",
      N_("two threads use one shared word with no __syncthreads() between the "
         "write and the read: put a barrier there, reached by every thread") },
    { "global-memory race",
      N_("two threads use one global word with nothing ordering them: give each "
         "word one writer, or a barrier between writer and reader") },
    { "duplicate index",
      N_("two threads computed the same index and stored to one word: work the index by hand "
         "for the two threads named (a dimension left out, a stride that overlaps); each thread "
         "stores to a word of its own, and no barrier makes this right") },
    { "warp-synchronous hazard", N_("lanes of one warp read what other lanes write with no "
                                    "barrier between: a __syncthreads() between the rounds (or "
                                    "__syncwarp() where one warp works alone, or shuffles)") },
    { "barrier in divergent code",
      N_("a __syncthreads() that threads still running skip: move it out "
         "of the if (a thread that has returned is not waited for)") },
    { "bad warp-sync mask",
      N_("the mask of a __syncwarp or __shfl_*_sync names lanes that do not "
         "all get there: use the lanes that do (or the full mask, reached by all)") },
    { "deadlock", N_("threads wait at a barrier that others never reach: every thread that has not "
                     "returned must reach every __syncthreads()") },
    { "out-of-bounds", N_("an index past the end of an array: bound it by n (the last block may be "
                          "partial) and by the array's size") },
    { "misaligned access", N_("a vector or wide access at an address not a multiple of its size: "
                              "check the casts and the offsets") },
    { ", past n = ", N_("an element past n was written: a thread whose index is n or more must "
                        "not store (the last block is only partly inside n)") },
    { "was never written", N_("a result never stored: look for an early return or a condition that "
                              "skips the store of some blocks or threads") },
    { "does not support", N_("a limit of the simulator, not an error of yours: grade on a GPU, or "
                             "write it with the instructions the simulator runs") },
    { "invalid shape", launch_advice },
};

/* The advice for a finding: its check's, else the first whose words its text holds; NULL: none
 * of the table's. */
static const char *
advice_for(const char *check, const char *text)
{
    for (size_t i = 0; i < ARRAY_SIZE(findings); i++)
        if ((check && *check && strstr(check, findings[i].finding)) ||
            strstr(text, findings[i].finding))
            return findings[i].advice;
    return NULL;
}

/* What to do next about each kind of WRONG, and whether the finding's own advice comes first. */
static const struct wrong_kind_advice {
    bool finding_first; /* the finding's words name the fault (not so for a replay) */
    const char *advice;
} wrong_kinds[] = {
    [LAB_WRONG_VALUE] = { true, N_("a value came out wrong: work the first wrong block by hand "
                                   "at that n: which elements it owns, the partial last block, "
                                   "each step of its loop") },
    [LAB_WRONG_HOST_VALUE] = { true, N_("an answer came out wrong: work the case the message "
                                        "gives by hand, one rule of the task at a time") },
    [LAB_WRONG_REPLAYED] = { false, N_("compute every result from this run's input: nothing may "
                                       "carry over from an earlier run (__device__ variables, "
                                       "what the output buffer held)") },
    [LAB_WRONG_TOO_FAST] = { false, N_("no kernel that reads its input runs that fast: read all "
                                       "of it on every run, and keep no result between runs") },
    [LAB_WRONG_BY_LUCK] = { true, N_("the simulator found undefined behaviour that gave the "
                                     "right result here by chance: fix what the message names") },
};
_Static_assert(ARRAY_SIZE(wrong_kinds) == LAB_WRONG_COUNT, "one row per kind of WRONG");

const char *
lab_grade_wrong_advice(lab_wrong_kind kind, const char *check, const char *detail)
{
    const char *found = wrong_kinds[kind].finding_first ? advice_for(check, detail) : NULL;

    return found ? found : wrong_kinds[kind].advice;
}

static int
judge_error(const lab_exercise *ex, const lab_runreport *r, lab_grade_result *out, lab_err *err)
{
    if (strcmp(r->error.role, "student"))
        return lab_err_set(err, LAB_EDEVICE, _("the %s kernel failed (%s): %s"), r->error.role,
                           r->error.stage, r->reason);
    if (!strcmp(r->error.name, "SIM_UNSUPPORTED")) { /* the simulator's limit, not the code's */
        lab_grade_set(out, ex, LAB_VERDICT_SIM_UNSUPPORTED, "%s", r->reason);
        return 0;
    }
    if (!strcmp(r->error.stage, "load") && r->error.code == 0) {
        lab_grade_set(out, ex, LAB_VERDICT_COMPILE_ERROR, "%s", r->reason);
        return 0;
    }
    if (!strcmp(r->error.stage, "timeout"))
        lab_grade_set(out, ex, LAB_VERDICT_TIMEOUT, _("at n = %lu: %s"), r->error.size, r->reason);
    else if (!strcmp(r->error.stage, "launch"))
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR,
                      _("%s could not be launched at n = %lu: %s"), ex->kernel, r->error.size,
                      r->reason);
    else if (r->error.code == 0) /* not the device's: a host function that crashed */
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR, _("failed at n = %lu: %s"), r->error.size,
                      r->reason);
    else
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR, _("%s failed at n = %lu: %s (%d)"),
                      ex->kernel, r->error.size, r->error.name[0] ? r->error.name : _("error"),
                      r->error.code);
    out->advice = advice_for(NULL, r->reason);
    if (!out->advice && !strcmp(r->error.stage, "launch"))
        out->advice = launch_advice;
    return 0;
}

double
lab_grade_choice_noise(const lab_sweep_row *choice, const lab_sweep_row *best)
{
    double ci = 2 * (choice->ci_rel + best->ci_rel);

    return ci > LAB_GRADE_CHOICE_FLOOR ? ci : LAB_GRADE_CHOICE_FLOOR;
}

const lab_sweep_row *
lab_grade_sweep_best(const lab_sweep *s)
{
    const lab_sweep_row *best = NULL;

    for (size_t i = 0; i < s->nrows; i++)
        if (s->rows[i].launched && s->rows[i].median_ns > 0 &&
            (!best || s->rows[i].median_ns < best->median_ns))
            best = &s->rows[i];
    return best;
}

/* Why a state kept between runs is the likely cause, said once for every message. */
#define KEEPS_STATE                                                                                \
    "a kernel must compute every run from its input; one that keeps results between runs (in "     \
    "__device__ variables, or in its buffers) and replays them is the likely cause"

/* A timed run of the student's that was wrong: WRONG, saying which; 1 when it judged. */
static int
judge_timed(const lab_exercise *ex, const lab_timed_check *c, unsigned long n, const char *what,
            lab_grade_result *out)
{
    if (!c->wrong)
        return 0;
    lab_grade_set(out, ex, LAB_VERDICT_WRONG,
                  _("right when checked, wrong when timed%s (run %lu at n = %lu): %s; %s"), what,
                  c->wrong_launch, n, c->wrong_detail, _(KEEPS_STATE));
    out->advice = lab_grade_wrong_advice(LAB_WRONG_REPLAYED, NULL, c->wrong_detail);
    return 1;
}

/* A time no correct kernel can reach: more bytes per second than the memory delivers. */
static int
judge_bound(const lab_exercise *ex, const lab_runreport *r, double bytes, double median_ns,
            lab_grade_result *out)
{
    double gbps = median_ns > 0 ? bytes / median_ns : 0; /* bytes per ns = GB/s */

    if (r->peak_gbps <= 0 || gbps <= LAB_GRADE_PEAK_MARGIN * r->peak_gbps)
        return 0;
    lab_grade_set(out, ex, LAB_VERDICT_WRONG,
                  _("%.2f us for the %.1f MB a correct kernel must move is %.0f GB/s, %.0f%% of "
                    "this GPU's peak memory bandwidth (%.0f GB/s): impossible for a kernel that "
                    "reads its input; %s"),
                  median_ns / 1e3, bytes / 1e6, gbps, 100 * gbps / r->peak_gbps, r->peak_gbps,
                  _(KEEPS_STATE));
    out->advice = lab_grade_wrong_advice(LAB_WRONG_TOO_FAST, NULL, out->message);
    return 1;
}

static int
judge_sweep(const lab_exercise *ex, const lab_runreport *r, lab_grade_result *out, lab_err *err)
{
    const lab_sweep_row *best = lab_grade_sweep_best(&r->sweep), *mine = NULL;
    double noise, over;

    for (size_t i = 0; i < r->sweep.nrows; i++)
        if (!strcmp(r->sweep.rows[i].block, r->sweep.choice))
            mine = &r->sweep.rows[i];
    if (!r->sweep.present || !best || !mine || !mine->launched || mine->median_ns <= 0)
        return lab_err_set(err, LAB_EPARSE,
                           _("the driver's report lacks the sweep to grade the "
                             "choice"));
    for (size_t i = 0; i < r->sweep.nrows; i++) {
        char what[48];
        snprintf(what, sizeof(what), _(" at block %s"), r->sweep.rows[i].block);
        if (judge_timed(ex, &r->sweep.rows[i].checked, r->sweep.size, what, out) ||
            (r->sweep.rows[i].launched &&
             judge_bound(ex, r, r->sweep.bytes, r->sweep.rows[i].median_ns, out)))
            return 0;
    }
    noise = lab_grade_choice_noise(mine, best);
    over = mine->median_ns / best->median_ns - 1;
    out->median_ns = mine->median_ns;
    out->speedup = best->median_ns / mine->median_ns;
    out->reference_speedup = 1;
    out->fraction = out->speedup;
    out->verdict = over <= noise ? LAB_VERDICT_PASS : LAB_VERDICT_SLOW;
    out->points = points_for(ex, out->verdict);
    if (mine == best)
        snprintf(out->message, sizeof(out->message),
                 _("block %s is the fastest of the %zu shapes swept (%.2f us)"), mine->block,
                 r->sweep.nrows, mine->median_ns / 1e3);
    else
        snprintf(out->message, sizeof(out->message),
                 _("block %s takes %.2f us, %.1f%% over the fastest, %s (%.2f us); a tie is "
                   "within %.1f%%%s"),
                 mine->block, mine->median_ns / 1e3, 100 * over, best->block, best->median_ns / 1e3,
                 100 * noise,
                 out->verdict == LAB_VERDICT_PASS ? "" : _(": pick again from the table"));
    return 0;
}

int
lab_grade_judge(const lab_exercise *ex, const char *baseline_name, const lab_runreport *r,
                lab_grade_result *out, lab_err *err)
{
    const lab_case *first_wrong = NULL;
    const lab_kernel_time *st, *bt, *rt;
    size_t wrong_sizes = 0;
    char detail[512];
    const char *shown = "";

    memset(out, 0, sizeof(*out));
    if (!strcmp(r->status, "no_gpu")) {
        lab_grade_set(out, ex, LAB_VERDICT_NO_GPU, _("compiled; no GPU to run it on: %s"),
                      lab_runreport_reason(r, detail, sizeof(detail)));
        return 0;
    }
    if (!strcmp(r->status, "error"))
        return judge_error(ex, r, out, err);
    for (size_t i = 0; i < r->ncases; i++) /* stopped for a printf flood: not a wrong result */
        if (r->cases[i].printf_cut && !strcmp(r->cases[i].role, "student")) {
            lab_grade_printf_flood(out, ex, r->cases[i].printf_bytes, r->cases[i].size,
                                   !strcmp(r->backend, "sim"));
            return 0;
        }
    for (size_t i = 0; i < r->ncases; i++) {
        const lab_case *c = &r->cases[i];
        if (c->correct)
            continue;
        if (strcmp(c->role, "student"))
            return lab_err_set(err, LAB_EDEVICE, _("the %s solution is wrong at n = %lu: %s"),
                               c->role, c->size, c->detail);
        if (!first_wrong)
            first_wrong = c;
        wrong_sizes++;
    }
    if (first_wrong)
        shown = lab_case_detail(first_wrong, detail, sizeof(detail));
    if (first_wrong && first_wrong->round > 1) {
        lab_grade_set(out, ex, LAB_VERDICT_WRONG,
                      strcmp(r->backend, "sim")
                          ? _("right on the first run, then wrong at n = %lu on new inputs in "
                              "the same buffers: %s; %s")
                          : _("right on the first run, then wrong on the simulator at n = %lu on "
                              "new inputs in the same buffers: %s; %s"),
                      first_wrong->size, shown, _(KEEPS_STATE));
        out->advice =
            lab_grade_wrong_advice(LAB_WRONG_REPLAYED, first_wrong->check, first_wrong->detail);
        return 0;
    }
    if (first_wrong) {
        lab_grade_set(out, ex, LAB_VERDICT_WRONG,
                      strcmp(r->backend, "sim") ? _("wrong at n = %lu: %s%s")
                                                : _("wrong on the simulator at n = %lu: %s%s"),
                      first_wrong->size, shown, wrong_sizes > 1 ? _(" (and at other sizes)") : "");
        out->advice = lab_grade_wrong_advice(ex->kind == LAB_KIND_HOST ? LAB_WRONG_HOST_VALUE
                                                                       : LAB_WRONG_VALUE,
                                             first_wrong->check, first_wrong->detail);
        return 0;
    }
    if (!strcmp(r->backend, "sim") && ex->ntiming_sizes == 0 && !ex->choose_block) {
        /* a step that grades no speed misses nothing without a GPU (review D3) */
        lab_grade_set(out, ex, LAB_VERDICT_PASS,
                      _("correct on the simulator at every size (this step grades no speed)"));
        return 0;
    }
    if (!strcmp(r->backend, "sim")) {
        lab_grade_set(out, ex, LAB_VERDICT_PASS, _("correct on the simulator; speed needs a GPU%s"),
                      ex->choose_block ? _(" (the sweep that shows the fastest block)") : "");
        return 0;
    }
    if (ex->choose_block && ex->ntiming_sizes)
        return judge_sweep(ex, r, out, err);
    if (ex->ntiming_sizes == 0) {
        lab_grade_set(out, ex, LAB_VERDICT_PASS, _("correct at every size"));
        return 0;
    }
    st = lab_runreport_time(r, "student");
    bt = lab_runreport_time(r, "baseline");
    rt = lab_runreport_time(r, "reference");
    /* no speed verdict without the baseline's time: a "cpu" one comes from a run of its own */
    if (!st || !bt || !rt || st->median_ns <= 0 || bt->median_ns <= 0 || rt->median_ns <= 0)
        return lab_err_set(err, LAB_EPARSE,
                           _("the driver's report lacks the timings to grade speed"));
    if (bt->checked.wrong || rt->checked.wrong) /* the lab's own kernels */
        return lab_err_set(err, LAB_EDEVICE, _("the %s solution was wrong when timed: %s"),
                           bt->checked.wrong ? "baseline" : "reference",
                           (bt->checked.wrong ? bt : rt)->checked.wrong_detail);
    if (judge_timed(ex, &st->checked, lab_runreport_last_timing(r)->size, "", out) ||
        judge_bound(ex, r, lab_runreport_last_timing(r)->bytes, st->median_ns, out))
        return 0;
    out->median_ns = st->median_ns;
    out->speedup = bt->median_ns / st->median_ns;
    out->reference_speedup = bt->median_ns / rt->median_ns;
    out->fraction = out->speedup / out->reference_speedup;
    out->verdict = out->speedup >= ex->min_speedup && out->fraction >= ex->min_fraction_of_reference
                       ? LAB_VERDICT_PASS
                       : LAB_VERDICT_SLOW;
    out->points = points_for(ex, out->verdict);
    snprintf(out->message, sizeof(out->message),
             _("%.2fx over %s (needs %.2fx); %.0f%% of the reference's %.2fx (needs %.0f%%)"),
             out->speedup, baseline_name, ex->min_speedup, 100 * out->fraction,
             out->reference_speedup, 100 * ex->min_fraction_of_reference);
    return 0;
}
