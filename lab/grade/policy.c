/*
 * policy.c - the one judge (see policy.h): the run's report, speed on a GPU at its own line,
 * speed on the simulator from the model with its error band, the simulator's check beside a GPU
 * run, and the notes, in that order.
 */
#include "lab/grade/policy.h"
#include "lab/util/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --- the run's report ------------------------------------------------------------------ */

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
    out->advice = lab_grade_finding_advice(NULL, r->reason);
    if (!out->advice && !strcmp(r->error.stage, "launch"))
        out->advice = lab_grade_launch_advice;
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
    out->points = lab_grade_points(ex, out->verdict);
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

/* The verdict of a correct kernel held to a line, its points with it (the message is the
 * caller's). */
static void
set_verdict(lab_grade_result *out, const lab_exercise *ex, lab_verdict v)
{
    out->verdict = v;
    out->points = lab_grade_points(ex, v);
}

/* The exercise's title in the language of the messages, naming the step's lesson. */
static const char *
lesson(const lab_exercise *ex)
{
    return !lab_i18n_in_english() && ex->local_title ? ex->local_title : ex->title;
}

/* What to do next where the step's lesson does not show on this GPU and the kernel is slower
 * than the reference. */
static const char match_advice[] =
    N_("on this GPU the step's lesson does not show in time: match the reference's time; the "
       "task's hints say what it does (cudalab show)");
/* ... and where the kernel is the code the step starts from. */
static const char unchanged_advice[] =
    N_("make the change the task asks for: on this GPU its time cannot show it, so the lab looks "
       "at the code");

/* The figures of a speed held to a line: speed-up (with its line) and fraction of the
 * reference's.  The caller's format. */
#define SPEED_FIGURES                                                                              \
    N_("%.2fx over %s (needs %.2fx); %.0f%% of the reference's %.2fx (needs %.0f%%)")
/* ... where the lesson does not show: the fraction alone, and why. */
#define MATCH_FIGURES                                                                              \
    N_("%.2fx over %s; %.0f%% of the reference's %.2fx (needs %.0f%%): the step's lesson (%s) "    \
       "does not show on this GPU, as the reference's own gain stays under %.2fx, within the "     \
       "noise, so matching the reference is what counts here")

/* Why the line is lower than the manifest's, appended to the figures. */
static void
add_line_note(lab_grade_result *out)
{
    const lab_speed_line *l = &out->line;

    if (l->source != LAB_LINE_THIS_GPU)
        return;
    if (l->manifest_speedup > 1)
        lab_grade_append(out,
                         _("; the line follows the GPU: half-way from 1x to its reference's "
                           "%.2fx, under the %.2fx set on an H100"),
                         l->reference_speedup, l->manifest_speedup);
    else
        lab_grade_append(out,
                         _("; the line follows the GPU: just under its reference's %.2fx, under "
                           "the %.2fx set on an H100"),
                         l->reference_speedup, l->manifest_speedup);
}

/* The code the step starts from, where its time cannot tell it from the reference: SLOW, saying
 * why; 1 when it judged. */
static int
judge_unchanged(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out)
{
    const char *which = ev->unchanged ? ev->unchanged(ev->unchanged_arg) : NULL;

    if (!which)
        return 0;
    set_verdict(out, ex, LAB_VERDICT_SLOW);
    snprintf(out->message, sizeof(out->message),
             _("%s is %s, unchanged: the step's lesson (%s) does not show on this GPU, where the "
               "reference runs %.2fx over %s, so its time cannot tell the step was made; the lab "
               "looks at the code"),
             ex->kernel, _(which), lesson(ex), out->line.reference_speedup, ev->baseline_name);
    out->advice = unchanged_advice;
    return 1;
}

/* What a speed says against its line: a measured one (band 0) against the line itself, a
 * modelled one with the model's error band either side of it. */
typedef enum line_call {
    CALL_PASS,  /* at or over the line (a modelled speed: by more than the band) */
    CALL_CLOSE, /* within the band of it: too close to call */
    CALL_SLOW,  /* under the line (a modelled speed: by more than the band) */
} line_call;

static line_call
call_against(double value, double line, double band)
{
    if (line <= 0 || value >= line * (1 + band))
        return CALL_PASS;
    return value < line / (1 + band) ? CALL_SLOW : CALL_CLOSE;
}

/* The speeds in out against their line (out->line), the speed-up and the fraction of the
 * reference's both: SLOW past either, PASS inside both. */
static line_call
call_line(const lab_grade_result *out, double band)
{
    line_call a = call_against(out->speedup, out->line.min_speedup, band),
              b = call_against(out->fraction, out->line.min_fraction, band);

    return a > b ? a : b;
}

/* The figures of the speeds in out held to their line (SPEED_FIGURES, or MATCH_FIGURES where the
 * lesson does not show), into buf. */
static void
line_figures(const lab_exercise *ex, const char *baseline_name, const lab_grade_result *out,
             char *buf, size_t size)
{
    const lab_speed_line *l = &out->line;

    if (l->source == LAB_LINE_MATCH_REFERENCE)
        snprintf(buf, size, _(MATCH_FIGURES), out->speedup, baseline_name, 100 * out->fraction,
                 out->reference_speedup, 100 * l->min_fraction, lesson(ex), 1 + 2 * l->noise);
    else
        snprintf(buf, size, _(SPEED_FIGURES), out->speedup, baseline_name, l->min_speedup,
                 100 * out->fraction, out->reference_speedup, 100 * l->min_fraction);
}

/* Speed on a GPU, at this GPU's line (out holds the speeds and the line). */
static void
judge_speed(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out)
{
    const bool pass = call_line(out, 0) == CALL_PASS,
               match = out->line.source == LAB_LINE_MATCH_REFERENCE;

    if (pass && match && judge_unchanged(ex, ev, out))
        return;
    set_verdict(out, ex, pass ? LAB_VERDICT_PASS : LAB_VERDICT_SLOW);
    line_figures(ex, ev->baseline_name, out, out->message, sizeof(out->message));
    if (!pass && match)
        out->advice = match_advice;
    add_line_note(out);
}

/* The run's report: a failure, a wrong case, a wrong timed run, an impossible time; else, on a
 * GPU, speed.  On the simulator a correct kernel is PASS here, "speed needs a GPU": the model,
 * where it ran, judges its speed next. */
static int
judge_report(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out, lab_err *err)
{
    const lab_runreport *r = ev->report;
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
    lab_speed_line_for(ex->min_speedup, ex->min_fraction_of_reference, out->reference_speedup,
                       lab_speed_line_noise(bt->ci_rel, rt->ci_rel), &out->line);
    judge_speed(ex, ev, out);
    return 0;
}

/* --- speed on the simulator: the performance model's times, with its error band ---------- */

/* What to do next when the model cannot call a kernel this close to the line. */
static const char close_advice[] =
    N_("the model cannot call a kernel this close to the line: grade it on a machine with an "
       "NVIDIA GPU; meanwhile it counts as correct, with the points of a correct kernel");

/* How sure the modelled figures are, for the message: exact where the student's counts are a
 * role's (the same times, whatever the model's error), else the band's origin. */
static void
model_certainty(const lab_modelled *m, const char *baseline_name, double *band, char *buf,
                size_t size)
{
    if (lab_modelled_same_counts(m, LAB_MODELLED_REFERENCE)) {
        *band = 0;
        snprintf(buf, size, "%s",
                 _("the same counts as the reference's: no model error between them"));
    } else if (lab_modelled_same_counts(m, LAB_MODELLED_BASELINE)) {
        *band = 0;
        snprintf(buf, size, _("the same counts as %s's: no model error between them"),
                 baseline_name);
    } else if (m->gpu.nheldout > 0 && m->gpu.speedup_error_p90 > 0) {
        *band = m->gpu.speedup_error_p90;
        snprintf(buf, size,
                 ngettext("a modelled speed-up within %.0f%% of the measured one for 9 in 10 of "
                          "the %d kernel it was not fitted on",
                          "a modelled speed-up within %.0f%% of the measured one for 9 in 10 of "
                          "the %d kernels it was not fitted on",
                          (unsigned long)m->gpu.nheldout),
                 100 * *band, m->gpu.nheldout);
    } else {
        *band = LAB_MODEL_BAND_UNMEASURED;
        snprintf(buf, size,
                 _("its error on kernels it was not fitted on not yet measured: %.0f%% assumed"),
                 100 * *band);
    }
}

/* A kernel correct on the simulator, its speed from the modelled times: PASS, SLOW, or too
 * close to call (NO_GPU, with a correct kernel's points) within the model's error band. */
static void
judge_modelled(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out)
{
    const lab_modelled *m = ev->model;
    const double st = m->ns[LAB_MODELLED_STUDENT], rt = m->ns[LAB_MODELLED_REFERENCE];
    const bool over_cpu = !m->has[LAB_MODELLED_BASELINE]; /* the CPU is not modelled */
    const lab_speed_line *l = &out->line;
    char certainty[192], figures[400];
    double band;
    line_call call;

    model_certainty(m, ev->baseline_name, &band, certainty, sizeof(certainty));
    memset(out, 0, sizeof(*out));
    out->median_ns = st;
    out->fraction = rt / st;
    if (!over_cpu) {
        out->speedup = m->ns[LAB_MODELLED_BASELINE] / st;
        out->reference_speedup = m->ns[LAB_MODELLED_BASELINE] / rt;
    }
    out->model_band = band;
    /* the modelled GPU's line from its modelled reference; no run noise, its floor */
    lab_speed_line_for(ex->min_speedup, ex->min_fraction_of_reference, out->reference_speedup,
                       LAB_SPEED_LINE_NOISE_FLOOR, &out->line);
    call = call_line(out, band);
    if (over_cpu)
        snprintf(figures, sizeof(figures),
                 _("%.1f us, %.0f%% of the reference's speed (needs %.0f%%); %s is not modelled"),
                 st / 1e3, 100 * out->fraction, 100 * l->min_fraction, ev->baseline_name);
    else
        line_figures(ex, ev->baseline_name, out, figures, sizeof(figures));
    if (call == CALL_CLOSE) {
        set_verdict(out, ex, LAB_VERDICT_NO_GPU);
        out->points = lab_grade_points_correct(ex);
        snprintf(out->message, sizeof(out->message),
                 _("correct on the simulator; too close to call without a GPU: modelled for an "
                   "%s, not measured (%s): %s"),
                 m->gpu.name, certainty, figures);
        out->advice = close_advice;
        return;
    }
    if (call == CALL_PASS && l->source == LAB_LINE_MATCH_REFERENCE && judge_unchanged(ex, ev, out))
        return;
    set_verdict(out, ex, call == CALL_PASS ? LAB_VERDICT_PASS : LAB_VERDICT_SLOW);
    snprintf(out->message, sizeof(out->message), _("modelled for an %s, not measured (%s): %s"),
             m->gpu.name, certainty, figures);
    add_line_note(out);
}

/* What to do next when the model cannot rank the choice against the fastest. */
static const char too_close_advice[] =
    N_("the model cannot rank shapes this close: grade it on a machine with an NVIDIA GPU, whose "
       "sweep measures every shape");

/* A choice exercise on its modelled sweep: PASS only for the modelled fastest shape, SLOW past
 * LAB_MODELLED_CHOICE_SLOW over it, too close to call between. */
static void
judge_modelled_choice(const lab_exercise *ex, const lab_modelled *m, lab_grade_result *out)
{
    const lab_modelled_shape *mine = &m->shapes[m->chosen], *best = mine;
    double over;

    for (size_t i = 0; i < m->nshapes; i++)
        if (m->shapes[i].ns < best->ns)
            best = &m->shapes[i];
    over = mine->ns / best->ns - 1;
    if (mine == best) {
        lab_grade_set(out, ex, LAB_VERDICT_PASS,
                      _("modelled for an %s, not measured: block %s is the fastest of the %zu "
                        "shapes modelled (%.1f us)"),
                      m->gpu.name, mine->block, m->nshapes, mine->ns / 1e3);
    } else if (over > LAB_MODELLED_CHOICE_SLOW) {
        lab_grade_set(out, ex, LAB_VERDICT_SLOW,
                      _("modelled for an %s, not measured: block %s takes %.1f us, %.1f%% over "
                        "the fastest modelled, %s (%.1f us); past %.0f%% the model calls it "
                        "slow: pick again"),
                      m->gpu.name, mine->block, mine->ns / 1e3, 100 * over, best->block,
                      best->ns / 1e3, 100 * LAB_MODELLED_CHOICE_SLOW);
    } else {
        lab_grade_set(out, ex, LAB_VERDICT_NO_GPU,
                      _("correct on the simulator; modelled for an %s, block %s takes %.1f us, "
                        "%.1f%% over the fastest modelled, %s (%.1f us): closer than the model "
                        "can rank shapes (it passes only the fastest and calls slow past %.0f%%)"),
                      m->gpu.name, mine->block, mine->ns / 1e3, 100 * over, best->block,
                      best->ns / 1e3, 100 * LAB_MODELLED_CHOICE_SLOW);
        out->points = lab_grade_points_correct(ex);
        out->advice = too_close_advice;
    }
    out->median_ns = mine->ns;
    out->speedup = best->ns / mine->ns;
    out->reference_speedup = 1;
    out->fraction = out->speedup;
}

/* What to do next when the speed could not be modelled: NO_GPU's own advice ("grade --sim
 * checks it on the simulator") would send the student where they are. */
static const char not_modelled_advice[] =
    N_("your kernel is correct; its speed step needs a GPU here: grade it on a machine with an "
       "NVIDIA GPU");
/* What to do next when the simulator's cap refused the model its sizes. */
static const char model_needs_advice[] =
    N_("the lab's cap, not your kernel: unset CUDALAB_SIM_MAX_SIZE (or raise it) to have its "
       "speed modelled, or grade it on a machine with an NVIDIA GPU");

/* Speed on the simulator, for a kernel found correct there: the model's verdict, or why there is
 * none (NO_GPU: no speed passes without evidence, and what the lab could not do costs the
 * student no more than a slow kernel would). */
static void
judge_modelled_speed(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out)
{
    if (ev->model && ex->choose_block) {
        judge_modelled_choice(ex, ev->model, out);
        return;
    }
    if (ev->model) {
        judge_modelled(ex, ev, out);
        return;
    }
    if (ev->model_needs) {
        lab_grade_set(out, ex, LAB_VERDICT_NO_GPU,
                      _("correct on the simulator; no speed verdict: the performance model "
                        "counts at n = %lu, and CUDALAB_SIM_MAX_SIZE=%lu keeps the simulator "
                        "below it, where modelled times would mislead"),
                      ev->model_needs, ev->sim_max_size);
        out->advice = model_needs_advice;
    } else {
        lab_grade_set(out, ex, LAB_VERDICT_NO_GPU,
                      _("correct on the simulator; its speed could not be modelled (%s): grade "
                        "it on a GPU for the speed step"),
                      ev->model_skipped ? ev->model_skipped : "");
        out->advice = not_modelled_advice;
    }
    out->points = lab_grade_points_correct(ex);
}

/* --- the simulator's check beside a GPU run, and the notes ---------------------------------- */

/* What the simulator's check found, against a GPU verdict: a hazard makes a right result WRONG;
 * another result where the GPU's was right is said, and not counted. */
static void
judge_sim_check(const lab_exercise *ex, const lab_runreport *r, lab_grade_result *out)
{
    const lab_case *hazard = NULL, *differs = NULL;
    char detail[512];

    for (size_t i = 0; i < r->ncases; i++) {
        const lab_case *c = &r->cases[i];
        if (!c->correct && c->check[0] && !hazard)
            hazard = c;
        else if (!c->correct && !differs)
            differs = c;
    }
    if (hazard && (out->verdict == LAB_VERDICT_PASS || out->verdict == LAB_VERDICT_SLOW)) {
        lab_grade_set(out, ex, LAB_VERDICT_WRONG,
                      _("right on this GPU by luck: at n = %lu the simulator found a %s: %s; that "
                        "is undefined behaviour, which another GPU, another run or another "
                        "compiler can turn into a wrong result"),
                      hazard->size, hazard->check, lab_case_detail(hazard, detail, sizeof(detail)));
        out->advice = lab_grade_wrong_advice(LAB_WRONG_BY_LUCK, hazard->check, hazard->detail);
    } else if (differs && out->verdict == LAB_VERDICT_PASS) {
        lab_grade_append(out,
                         _(" (the simulator computed another result at n = %lu: %s; not "
                           "counted)"),
                         differs->size, lab_case_detail(differs, detail, sizeof(detail)));
    }
}

/* The remarks a verdict carries about how it was reached. */
static void
add_notes(const lab_evidence *ev, bool on_sim, lab_grade_result *out)
{
    if (on_sim && ev->capped_at && out->verdict == LAB_VERDICT_PASS)
        lab_grade_append(out,
                         ev->capped_sides ? _(" (matrix sides capped at %lu on the simulator)")
                                          : _(" (sizes capped at %lu on the simulator)"),
                         ev->capped_at);
    if (ev->gpu_ids)
        lab_grade_append(out,
                         on_sim ? _(" (the kernel reads %s: the simulator shows an H100's)")
                                : _(" (the kernel reads %s, which graders see flagged)"),
                         ev->gpu_ids);
    if (ev->tables && *ev->tables)
        lab_grade_append(out, ev->from_tables ? _(" (no GPU: checked against %s)") : " (%s)",
                         ev->tables);
}

int
lab_judge(const lab_exercise *ex, const lab_evidence *ev, lab_grade_result *out, lab_err *err)
{
    const bool on_sim = !strcmp(ev->report->backend, "sim");
    int rc;

    if ((rc = judge_report(ex, ev, out, err)) < 0)
        return rc;
    if (ev->model_asked && on_sim && ex->ntiming_sizes && out->verdict == LAB_VERDICT_PASS)
        judge_modelled_speed(ex, ev, out);
    add_notes(ev, on_sim, out);
    if (ev->sim_check)
        judge_sim_check(ex, ev->sim_check, out);
    return 0;
}

int
lab_grade_judge(const lab_exercise *ex, const char *baseline_name, const lab_runreport *r,
                lab_grade_result *out, lab_err *err)
{
    lab_evidence ev = { .baseline_name = baseline_name, .report = r };

    return lab_judge(ex, &ev, out, err);
}
