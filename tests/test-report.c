/*
 * test-report.c - the reports laid out once as styled lines (lab/report/):
 * the grading of driver reports recorded on an H100 (tests/fixtures/reports),
 * every verdict in its style from the verdict table, the inspection of
 * recorded nvdisasm and nvcc output (tests/fixtures/sass, ptx) with its marked
 * instructions and source lines, the profile table of the recorded ncu CSV
 * (tests/fixtures/ncu) and the simulator's recorded figures, the demo of the
 * recorded blockshape report (tests/fixtures/demo), and the line list itself.
 *
 * What is checked is what the front ends rely on: the text the CLI prints,
 * and the style or kind of each run, so that no front end reads the text to
 * colour it.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "lab/build/occupancy.h"
#include "lab/build/sass.h"
#include "lab/grade/policy.h"
#include "lab/grade/runreport.h"
#include "lab/report/demo.h"
#include "lab/report/grading.h"
#include "lab/report/inspection.h"
#include "lab/report/lines.h"
#include "lab/report/profiling.h"
#include "lab/util/textwidth.h"

/* --- helpers ------------------------------------------------------------------------------- */

static const unsigned long sizes[] = { 1, 1000, 1048579, 16777216 };
static const unsigned long timing_sizes[] = { 16777216 };

/* reduction/neighbored-less as its exercise.ini has it, for the recorded reports */
static lab_exercise
exercise(void)
{
    lab_exercise ex = { 0 };

    ex.id = "reduction/neighbored-less";
    ex.kernel = "reduceNeighboredLess";
    ex.sizes = sizes;
    ex.nsizes = 4;
    ex.timing_sizes = timing_sizes;
    ex.ntiming_sizes = 1;
    ex.block = 512;
    ex.min_speedup = 1.10;
    ex.min_fraction_of_reference = 0.75;
    ex.points = 10;
    return ex;
}

static void
read_fixture(const char *path, lab_buf *out)
{
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_buf_read_file(out, path, &err), 0, "%s", err.msg);
}

/* A grading as lab_grade leaves it after the recorded report NAME ran on the H100. */
static void
graded(const char *name, const lab_exercise *ex, lab_grading *g)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    lab_grading_init(g);
    lab_buf_printf(&path, "tests/fixtures/reports/%s.json", name);
    read_fixture(path.buf, &g->report_json);
    cr_assert_eq(lab_runreport_parse(g->report_json.buf, g->report_json.len, &g->report, &err), 0,
                 "%s", err.msg);
    g->has_report = true;
    cr_assert_eq(lab_grade_judge(ex, "reduceNeighbored", &g->report, &g->result, &err), 0, "%s",
                 err.msg);
    g->device.present = true;
    snprintf(g->device.name, sizeof(g->device.name), "%s", g->report.device);
    snprintf(g->arch, sizeof(g->arch), "sm_90");
    snprintf(g->backend, sizeof(g->backend), "cuda");
    g->seed = 42;
    lab_buf_release(&path);
}

/* The first kept line whose text starts with prefix, or NULL. */
static const lab_line *
find_line(const lab_lines *l, const char *prefix)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strncmp(l->v[i].text, prefix, strlen(prefix)))
            return &l->v[i];
    return NULL;
}

/* The style of the first byte of needle in line (which must hold it). */
static int
style_at(const lab_line *line, const char *needle)
{
    const char *p = strstr(line->text, needle);

    cr_assert_not_null(p, "'%s' lacks '%s'", line->text, needle);
    return line->styles[p - line->text];
}

/* Whether every byte of needle in line has style. */
static bool
styled(const lab_line *line, const char *needle, lab_text_style style)
{
    const char *p = strstr(line->text, needle);

    if (!p)
        return false;
    for (size_t i = 0; i < strlen(needle); i++)
        if (line->styles[p - line->text + i] != style)
            return false;
    return true;
}

/* --- grading ------------------------------------------------------------------------------- */

Test(report, grading_pass_verdict_in_its_style_and_the_timing_table)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *v, *row;
    lab_grading g;

    graded("less-ref", &ex, &g);
    cr_assert_eq(
        lab_grading_layout(&g, &ex, "work/reduction/neighbored-less.cu", 0, lab_lines_collect, &l),
        0);
    cr_expect_str_eq(l.v[0].text, "reduction/neighbored-less  work/reduction/neighbored-less.cu");
    cr_expect(styled(&l.v[0], "reduction/neighbored-less", LAB_TEXT_BOLD));
    cr_expect_str_eq(l.v[1].text, "GPU NVIDIA H100 80GB HBM3 (sm_90), seed 42, block 512");
    cr_assert_not_null(find_line(&l, "  kernel           median     CI95  samples     GB/s"));
    cr_assert_not_null(row = find_line(&l, "  student  "));
    cr_expect(strstr(row->text, " us ") && strstr(row->text, "1.82x"), "%s", row->text);
    /* the verdict paragraph is the last: the exercise view shows it alone */
    cr_assert_eq(lab_lines_last_paragraph(&l), l.n - 1, "PASS has no advice line");
    v = &l.v[l.n - 1];
    cr_expect(!strncmp(v->text, "PASS  1.82x over reduceNeighbored", 33), "%s", v->text);
    cr_expect(strstr(v->text, "   10/10 points"), "%s", v->text);
    cr_expect(styled(v, "PASS", LAB_TEXT_VERDICT + LAB_TONE_PASS));
    cr_expect_eq(v->styles[4], LAB_TEXT_PLAIN, "only the verdict's name is in its style");
    lab_lines_release(&l);
    lab_grading_release(&g);
}

/* At a width the verdict paragraph wraps under the cause, no line past the width, and the points
 * stay whole at its end (the menu at 100 columns cut "(and at o..." and the points with it; the
 * shell split "10/10\n points"). */
Test(report, grading_verdict_wraps_at_the_width)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    size_t last, next;
    lab_grading g;

    lab_grading_init(&g);
    lab_grade_set(&g.result, &ex, LAB_VERDICT_WRONG,
                  "wrong on the simulator at n = 1000: block 1 (elements 512..999) sums to 1234, "
                  "expected 4321 (and at other sizes)");
    cr_assert_eq(lab_grading_layout(&g, &ex, "f.cu", 60, lab_lines_collect, &l), 0);
    last = lab_lines_last_paragraph(&l);
    for (size_t i = last; i < l.n; i++)
        cr_expect_leq(l.v[i].len, 60, "line %zu is %zu long: %s", i, l.v[i].len, l.v[i].text);
    cr_expect(!strncmp(l.v[last].text, "WRONG  wrong on the simulator at n = 1000:", 42), "%s",
              l.v[last].text);
    cr_expect(!strncmp(l.v[last + 1].text, "       ", 7), "under the cause: %s",
              l.v[last + 1].text);
    for (next = last; next < l.n && strncmp(l.v[next].text, "next: ", 6); next++)
        ;
    cr_assert_lt(next, l.n, "a next: line");
    cr_expect(strstr(l.v[next - 1].text, " 0/10 points"), "the points whole, last: %s",
              l.v[next - 1].text);
    cr_expect(!strncmp(l.v[l.n - 1].text, "      ", 6), "next: wraps under its text: %s",
              l.v[l.n - 1].text);
    lab_lines_release(&l);
    lab_grading_release(&g);
}

Test(report, grading_slow_gives_the_next_step)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    lab_grading g;
    size_t last;

    graded("less-starter", &ex, &g);
    cr_assert_eq(lab_grading_layout(&g, &ex, "f.cu", 0, lab_lines_collect, &l), 0);
    last = lab_lines_last_paragraph(&l);
    cr_assert_eq(l.n - last, 2, "the verdict and what to do next");
    cr_expect(styled(&l.v[last], "SLOW", LAB_TEXT_VERDICT + LAB_TONE_SLOW), "%s", l.v[last].text);
    cr_expect_str_eq(l.v[last + 1].text,
                     "next: correct; now make it faster: read the task's hints (cudalab show)");
    cr_expect(styled(&l.v[last + 1], "next:", LAB_TEXT_BOLD));
    lab_lines_release(&l);
    lab_grading_release(&g);
}

Test(report, grading_wrong_cases_in_their_styles)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *ok, *wrong;
    lab_grading g;

    graded("wrong", &ex, &g);
    cr_assert_eq(lab_grading_layout(&g, &ex, "f.cu", 0, lab_lines_collect, &l), 0);
    cr_assert_not_null(find_line(&l, "  n          student    "));
    cr_assert_not_null(ok = find_line(&l, "  1          ok"));
    cr_assert_not_null(wrong = find_line(&l, "  1000       wrong      block 0 (elements 0..511)"));
    cr_expect(styled(ok, "ok", LAB_TEXT_GOOD));
    cr_expect(styled(wrong, "wrong", LAB_TEXT_BAD));
    cr_expect_eq(style_at(wrong, "block 0"), LAB_TEXT_PLAIN, "the detail is plain");
    cr_expect(
        styled(&l.v[lab_lines_last_paragraph(&l)], "WRONG", LAB_TEXT_VERDICT + LAB_TONE_FAIL));
    lab_lines_release(&l);
    lab_grading_release(&g);
}

/* The simulator's finding in parts (recorded from the real driver): in English the line the lab
 * builds from them is the driver's detail word for word, and a finding whose parts are not
 * whole shows the driver's detail. */
Test(report, grading_case_detail_from_the_simulators_finding)
{
    lab_buf json = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_runreport r;
    const lab_case *c;
    char buf[512];

    read_fixture("tests/fixtures/reports/sim-finding.json", &json);
    cr_assert_eq(lab_runreport_parse(json.buf, json.len, &r, &err), 0, "%s", err.msg);
    c = &r.cases[0];
    cr_assert_str_eq(c->check, "duplicate index");
    cr_assert_str_eq(c->finding_where, "thread-ids.cu:10");
    cr_assert_eq(c->finding_thread[2], 1);
    cr_assert_eq(lab_case_detail(c, buf, sizeof(buf)), buf, "built from the parts");
    cr_assert_str_eq(buf, c->detail, "in English, the same words as the driver's");
    lab_runreport_release(&r);

    lab_buf_reset(&json); /* a block of two numbers: not whole, the English detail */
    lab_buf_adds(&json, "{\"version\":1,\"family\":\"warp-ids\",\"backend\":\"sim\","
                        "\"status\":\"ok\",\"cases\":[{\"size\":1,\"role\":\"student\","
                        "\"correct\":false,\"detail\":\"english\",\"check\":\"deadlock\","
                        "\"finding\":{\"format\":\"x %u\",\"args\":[{\"u\":1}],"
                        "\"thread\":[0,0,0],\"block\":[0,0],\"where\":\"a.cu:1\"}}],"
                        "\"timings\":[]}");
    cr_assert_eq(lab_runreport_parse(json.buf, json.len, &r, &err), 0, "%s", err.msg);
    cr_assert_str_eq(lab_case_detail(&r.cases[0], buf, sizeof(buf)), "english");
    lab_runreport_release(&r);
    lab_buf_release(&json);
}

/* A case's detail as the learner reads it comes from its format and arguments (recorded from
 * the real driver on the simulator); a format the arguments do not fit shows the English. */
Test(report, grading_case_detail_from_its_format)
{
    lab_buf json = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_runreport r;
    const lab_case *c;
    char buf[256];

    read_fixture("tests/fixtures/reports/sim-wrong-detail.json", &json);
    cr_assert_eq(lab_runreport_parse(json.buf, json.len, &r, &err), 0, "%s", err.msg);
    c = &r.cases[0];
    cr_assert_str_eq(c->detail_format, "block %zu (elements %zu..%zu): expected %d, got %d");
    cr_assert_eq(c->detail_args.n, 5);
    cr_assert_eq(lab_case_detail(c, buf, sizeof(buf)), buf, "filled from the format");
    cr_assert_str_eq(buf, c->detail, "in English, the same words as the driver's");
    lab_runreport_release(&r);

    lab_buf_reset(&json); /* an argument of another kind than the format's */
    lab_buf_adds(&json, "{\"version\":1,\"family\":\"reduce-float\",\"backend\":\"sim\","
                        "\"status\":\"ok\",\"cases\":[{\"size\":1,\"role\":\"student\","
                        "\"correct\":false,\"detail\":\"the sum is nan\",\"detail_format\":"
                        "\"the sum is %.9g, then %d\",\"detail_args\":[{\"f\":\"nan\"},"
                        "{\"s\":\"x\"}]}],\"timings\":[]}");
    cr_assert_eq(lab_runreport_parse(json.buf, json.len, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(r.cases[0].detail_args.n, 2, "nan travels as a string");
    cr_assert_str_eq(lab_case_detail(&r.cases[0], buf, sizeof(buf)), "the sum is nan",
                     "a %d given a string: the English detail");
    lab_runreport_release(&r);
    lab_buf_release(&json);
}

/* A compiler's log is laid out as it came: its words colour nothing (the menu once searched the
 * text for "error" to colour it). */
Test(report, grading_compiler_log_is_plain_lines)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *line;
    lab_grading g;

    lab_grading_init(&g);
    lab_buf_adds(&g.compiler_log, "bad.cu:1: error: identifier \"nope\" is undefined\n\n"
                                  "1 error detected in the compilation of \"bad.cu\".\n");
    lab_grade_set(&g.result, &ex, LAB_VERDICT_COMPILE_ERROR, "bad.cu does not compile");
    cr_assert_eq(lab_grading_layout(&g, &ex, "bad.cu", 0, lab_lines_collect, &l), 0);
    cr_assert_eq(l.n, 8, "header, blank, 3 log lines, blank, verdict, next");
    cr_assert_not_null(line = find_line(&l, "bad.cu:1: error"));
    cr_expect(styled(line, "bad.cu:1: error: identifier \"nope\" is undefined", LAB_TEXT_PLAIN));
    cr_expect_eq(l.v[3].len, 0, "the log's empty line stays");
    cr_expect(styled(&l.v[6], "COMPILE_ERROR", LAB_TEXT_VERDICT + LAB_TONE_FAIL));
    lab_lines_release(&l);
    lab_grading_release(&g);
}

ParameterizedTestParameters(report, every_verdict_in_the_tables_style)
{
    static lab_verdict v[LAB_VERDICT_COUNT];

    for (int i = 0; i < LAB_VERDICT_COUNT; i++)
        v[i] = (lab_verdict)i;
    return cr_make_param_array(lab_verdict, v, LAB_VERDICT_COUNT);
}

ParameterizedTest(lab_verdict *v, report, every_verdict_in_the_tables_style)
{
    const lab_verdict_info *vi = lab_verdict_describe(*v);
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *line;
    lab_grading g;

    lab_grading_init(&g);
    lab_grade_set(&g.result, &ex, *v, "the cause");
    cr_assert_eq(lab_grading_layout(&g, &ex, "f.cu", 0, lab_lines_collect, &l), 0);
    line = &l.v[lab_lines_last_paragraph(&l)];
    cr_expect(vi->tone < LAB_TONE_COUNT, "%s: a verdict's tone", vi->name);
    cr_expect(styled(line, vi->name, lab_text_verdict_style(*v)), "%s", line->text);
    cr_expect(strstr(line->text, "  the cause   "), "%s", line->text);
    lab_lines_release(&l);
    lab_grading_release(&g);
}

/* --- inspection ---------------------------------------------------------------------------- */

/* The inspection of tests/fixtures/sass/vector.cu's lastWarp as lab_inspect fills it: the
 * recorded nvdisasm listing; the resources are the test's own (ptxas's are tested elsewhere). */
static lab_funcres last_warp = {
    .name = "_Z8lastWarpPiS_", .arch = "sm_90", .entry = true, .regs = 12, .barriers = 0
};
static lab_exercise vector_ex = { .id = "test/vector", .kernel = "lastWarp" };

static void
inspected(const char *sass, lab_inspection *in)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_occ_input oi = { 256, 12, 0, 0, 0 };

    lab_inspection_init(in);
    in->ex = &vector_ex;
    snprintf(in->arch, sizeof(in->arch), "sm_90");
    snprintf(in->file, sizeof(in->file), "tests/fixtures/sass/vector.cu");
    in->build.ok = true;
    in->kernel = &last_warp;
    in->limits = lab_occupancy_arch("sm_90");
    in->block = 256;
    cr_assert_eq(lab_occupancy_compute(in->limits, &oi, &in->occ, &err), 0, "%s", err.msg);
    in->has_occ = true;
    read_fixture(sass, &text);
    cr_assert_eq(lab_sass_parse(text.buf, &in->sass, &err), 0, "%s", err.msg);
    in->has_sass = true;
    lab_listing_mix(&in->sass, last_warp.name, &in->sass_mix);
    lab_buf_release(&text);
}

Test(report, inspection_marks_the_recorded_sass)
{
    lab_inspection_layout_opts opts = { LAB_INSPECTION_SASS, false };
    lab_lines l = LAB_LINES_INIT;
    lab_inspection in;
    const lab_line *line;
    size_t insns = 0, marked = 0, diverge = 0;

    inspected("tests/fixtures/sass/vector.sm90.sass", &in);
    cr_assert_eq(lab_inspection_layout(&in, &opts, lab_lines_collect, &l), 0);
    cr_expect_str_eq(l.v[0].text, "test/vector  tests/fixtures/sass/vector.cu  on sm_90");
    cr_expect_str_eq(l.v[1].text, "Kernel lastWarp, _Z8lastWarpPiS_");
    cr_expect_not_null(find_line(&l, "  registers 12   barriers 0   static shared 0 B"));
    cr_expect_not_null(find_line(&l, "  occupancy at block 256 (8 warps) on sm_90 (H100"));
    cr_assert_not_null(line = find_line(&l, "  SASS: "));
    cr_assert_not_null(line = find_line(&l, "SASS (nvdisasm -g), source lines interleaved"));
    cr_expect(styled(line, "SASS (nvdisasm -g)", LAB_TEXT_TITLE));
    for (size_t i = 0; i < l.n; i++) {
        const lab_line *x = &l.v[i];
        if (x->kind == LAB_LINE_SOURCE) {
            char want[16];
            snprintf(want, sizeof(want), "%5d | ", x->source_line);
            cr_expect(!strncmp(x->text, want, strlen(want)), "'%s' is line %d", x->text,
                      x->source_line);
            cr_expect(styled(x, x->text, LAB_TEXT_SOURCE));
            continue;
        }
        if (x->kind != LAB_LINE_INSN)
            continue;
        insns++;
        cr_expect(!strncmp(x->text, "        0", 9), "'%s': offset first", x->text);
        cr_expect(x->source_line == 0 || (x->source_line >= 6 && x->source_line <= 16),
                  "%s: line %d of lastWarp, or of another file", x->text, x->source_line);
        cr_expect_eq(x->marked, strstr(x->text, " <- ") != NULL, "%s", x->text);
        if (!x->marked) {
            cr_expect(styled(x, x->text, LAB_TEXT_PLAIN), "%s", x->text);
            continue;
        }
        marked++;
        if (strstr(x->text, "@P0 BRA")) {
            diverge++;
            cr_expect(strstr(x->text, "<- branch: the warp may diverge here"), "%s", x->text);
            cr_expect_eq(style_at(x, "@P0 BRA"), LAB_TEXT_MARK_DIVERGE);
        } else {
            cr_expect_eq(style_at(x, " <- "), LAB_TEXT_MARK, "%s", x->text);
        }
    }
    cr_expect_eq(insns, in.sass_mix.total, "every instruction of lastWarp, copy4's left out");
    cr_expect_gt(marked, 3, "volatile loads, the shuffle, the atomic");
    cr_expect_eq(diverge, 1);
    lab_lines_release(&l);
    lab_inspection_release(&in);
}

Test(report, inspection_with_the_source_for_the_menu)
{
    lab_inspection_layout_opts opts = { LAB_INSPECTION_SUMMARY, true };
    lab_lines l = LAB_LINES_INIT;
    lab_inspection in;
    int n = 0;

    inspected("tests/fixtures/sass/vector.sm90.sass", &in);
    cr_assert_eq(lab_inspection_layout(&in, &opts, lab_lines_collect, &l), 0);
    cr_expect_not_null(find_line(&l, "Source tests/fixtures/sass/vector.cu"));
    cr_expect_null(find_line(&l, "SASS (nvdisasm"), "a summary has no listing");
    for (size_t i = 0; i < l.n; i++)
        if (l.v[i].kind == LAB_LINE_SOURCE)
            cr_expect_eq(l.v[i].source_line, ++n, "every line in order");
    cr_expect_eq(n, 16, "vector.cu has 16 lines");
    lab_lines_release(&l);
    lab_inspection_release(&in);
}

Test(report, inspection_select_is_not_a_branch)
{
    lab_inspection_layout_opts opts = { LAB_INSPECTION_SASS, false };
    lab_lines l = LAB_LINES_INIT;
    lab_inspection in;
    bool fsel = false;

    inspected("tests/fixtures/sass/math-kernel1.sm90.sass", &in);
    in.kernel = NULL; /* every function of the listing */
    cr_assert_eq(lab_inspection_layout(&in, &opts, lab_lines_collect, &l), 0);
    cr_expect_not_null(find_line(&l, "  ptxas reported no kernel lastWarp"));
    for (size_t i = 0; i < l.n; i++) {
        cr_expect_null(strstr(l.v[i].text, "may diverge"), "%s", l.v[i].text);
        if (l.v[i].kind == LAB_LINE_INSN && strstr(l.v[i].text, "FSEL")) {
            fsel = true;
            cr_expect_eq(style_at(&l.v[i], "FSEL"), LAB_TEXT_MARK_SELECT);
            cr_expect(strstr(l.v[i].text, "<- select: both sides computed, no branch"));
        }
    }
    cr_expect(fsel);
    lab_lines_release(&l);
    lab_inspection_release(&in);
}

Test(report, inspection_ptx_listing_and_the_missing_sass)
{
    lab_inspection_layout_opts opts = { LAB_INSPECTION_PTX, false };
    lab_lines l = LAB_LINES_INIT;
    lab_buf ptx = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_inspection in;
    const lab_line *line;

    inspected("tests/fixtures/sass/vector.sm90.sass", &in);
    lab_listing_release(&in.sass);
    in.has_sass = false;
    snprintf(in.sass_why, sizeof(in.sass_why), "nvdisasm not found");
    in.kernel = NULL;
    read_fixture("tests/fixtures/ptx/atomic.ptx", &ptx);
    cr_assert_eq(lab_ptx_listing_parse(ptx.buf, &in.ptx, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_inspection_layout(&in, &opts, lab_lines_collect, &l), 0);
    cr_assert_not_null(line = find_line(&l, "  SASS: not available: nvdisasm not found"));
    cr_expect(styled(line, line->text, LAB_TEXT_WARN));
    cr_expect_not_null(find_line(&l, "PTX (nvcc -ptx -lineinfo), source lines interleaved"));
    cr_assert_not_null(line = find_line(&l, "        atom.global.add.u32"));
    cr_expect_eq(line->kind, LAB_LINE_INSN);
    cr_expect(line->marked);
    cr_expect_eq(line->source_line, 0, "built without -lineinfo: no line of the file");
    cr_expect_eq(style_at(line, "atom."), LAB_TEXT_MARK);
    lab_buf_release(&ptx);
    lab_lines_release(&l);
    lab_inspection_release(&in);
}

Test(report, inspection_diff_of_two_listings)
{
    lab_lines l = LAB_LINES_INIT;
    lab_inspection a, b;
    const lab_line *row;
    char want[128];

    inspected("tests/fixtures/sass/vector.sm90.sass", &a);
    inspected("tests/fixtures/sass/vector.sm90.sass", &b);
    b.sass_mix.marks[LAB_MARK_ATOMIC]++;
    cr_assert_eq(lab_inspection_diff_layout(&a, &b, lab_lines_collect, &l), 0);
    cr_expect_str_eq(l.v[0].text, "Diff on sm_90: A = tests/fixtures/sass/vector.cu (lastWarp)");
    cr_assert_not_null(row = find_line(&l, "  registers "));
    snprintf(want, sizeof(want), "  %-22s %12s %12s  ", "registers", "12", "12");
    cr_expect_str_eq(row->text, want);
    cr_expect_not_null(find_line(&l, "  instruction mix (SASS)"));
    cr_assert_not_null(row = find_line(&l, "  atomic "));
    cr_expect(!strcmp(row->text + row->len - 2, "up"), "%s", row->text);
    lab_lines_release(&l);
    lab_inspection_release(&a);
    lab_inspection_release(&b);
}

/* --- profile ------------------------------------------------------------------------------- */

static void
profiled(lab_profiling *p)
{
    lab_buf csv = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    lab_profiling_init(p);
    cr_assert_eq(lab_metrics_for_chapter(".", "reduction", &p->set, &err), 0, "%s", err.msg);
    snprintf(p->kernel[LAB_PROF_STUDENT], sizeof(p->kernel[0]), "reduceNeighboredLess");
    snprintf(p->kernel[LAB_PROF_BASELINE], sizeof(p->kernel[0]), "reduceNeighbored");
    snprintf(p->kernel[LAB_PROF_REFERENCE], sizeof(p->kernel[0]), "reduceNeighboredLess");
    read_fixture("tests/fixtures/ncu/reduction-h100.csv", &csv);
    cr_assert_eq(lab_profile_read_csv(p, csv.buf, &err), 0, "%s", err.msg);
    snprintf(p->device, sizeof(p->device), "NVIDIA H100 80GB HBM3");
    lab_buf_release(&csv);
}

static void
simulated(lab_profiling *p)
{
    lab_buf json = LAB_BUF_INIT;

    read_fixture("tests/fixtures/reports/sim-metrics-issue6.json", &json);
    lab_profile_read_report(p, json.buf, json.len);
    p->sim_size = 1000;
    lab_buf_release(&json);
}

Test(report, profile_table_per_kernel)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *line;
    lab_profiling p;

    profiled(&p);
    simulated(&p);
    cr_assert_eq(lab_profiling_layout(&p, &ex, 0, lab_lines_collect, &l), 0);
    cr_expect_str_eq(l.v[0].text, "reduction/neighbored-less on NVIDIA H100 80GB HBM3 (ncu "
                                  "--clock-control none; ncu's times never grade)");
    cr_assert_not_null(line = find_line(&l, "reduceNeighboredLess (your kernel)"));
    cr_expect(styled(line, "reduceNeighboredLess", LAB_TEXT_BOLD));
    cr_expect_eq(style_at(line, "(your"), LAB_TEXT_PLAIN);
    cr_expect_not_null(find_line(&l, "reduceNeighbored (the previous step)"));
    cr_expect_not_null(find_line(&l, "reduceNeighboredLess (the reference solution)"));
    cr_assert_not_null(line = find_line(&l, "  inst_per_warp   "));
    cr_expect(strstr(line->text, "smsp__average_inst_executed_per_warp.ratio"), "%s", line->text);
    cr_expect(strstr(line->text, "  109.38 "), "the simulator's figure: %s", line->text);
    cr_expect(!strncmp(l.v[l.n - 1].text,
                       "simulator: the same kernels on the PTX simulator at n = 1000", 60),
              "%s", l.v[l.n - 1].text);
    lab_lines_release(&l);
    lab_profiling_release(&p);
}

/* The menu's view is narrower than the one-row table: each metric on two lines that fit. */
Test(report, profile_table_narrow_fits_the_width)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    const lab_line *line;
    lab_profiling p;

    profiled(&p);
    simulated(&p);
    cr_assert_eq(lab_profiling_layout(&p, &ex, 80, lab_lines_collect, &l), 0);
    cr_expect_str_eq(l.v[0].text, "reduction/neighbored-less");
    cr_expect_str_eq(
        l.v[1].text,
        "on NVIDIA H100 80GB HBM3 (ncu --clock-control none; ncu's times never grade)");
    cr_assert_not_null(line = find_line(&l, "  inst_per_warp   "));
    cr_expect(strstr(line->text, "  109.38"), "value and simulator on one line: %s", line->text);
    cr_expect_null(strstr(line->text, "smsp__"), "%s", line->text);
    cr_assert_not_null(line = find_line(&l, "      instructions"));
    cr_expect(strstr(line->text, "(smsp__average_inst_executed_per_warp.ratio)"), "%s", line->text);
    cr_expect_eq(line->styles[0], LAB_TEXT_DIM);
    for (size_t i = 0; i < l.n; i++) /* the table's lines: the values fit; the asides may wrap */
        if (strstr(l.v[i].text, "  ") == l.v[i].text && l.v[i].len &&
            l.v[i].styles[0] != LAB_TEXT_DIM)
            cr_expect_leq(strlen(l.v[i].text), 80, "%s", l.v[i].text);
    lab_lines_release(&l);
    lab_profiling_release(&p);
}

Test(report, profile_without_ncu_the_simulators_figures)
{
    lab_exercise ex = exercise();
    lab_lines l = LAB_LINES_INIT;
    lab_profiling p;

    lab_profiling_init(&p);
    cr_assert_eq(lab_metrics_for_chapter(".", "reduction", &p.set, &(lab_err)LAB_ERR_INIT), 0);
    snprintf(p.kernel[LAB_PROF_STUDENT], sizeof(p.kernel[0]), "reduceNeighboredLess");
    snprintf(p.kernel[LAB_PROF_BASELINE], sizeof(p.kernel[0]), "reduceNeighbored");
    p.status = LAB_PROF_NO_GPU;
    simulated(&p);
    cr_assert_eq(lab_profiling_layout(&p, &ex, 0, lab_lines_collect, &l), 0);
    cr_expect_str_eq(l.v[0].text, "reduceNeighboredLess (your kernel): the simulator's PTX-level "
                                  "figures at n = 1000");
    cr_expect_not_null(find_line(&l, "reduceNeighbored (the previous step): the simulator's"));
    cr_expect_null(find_line(&l, "simulator: "), "why there is no table is the front end's");
    lab_lines_release(&l);
    lab_profiling_release(&p);
}

/* --- demo ---------------------------------------------------------------------------------- */

Test(report, demo_heat_map_and_bars_in_their_styles)
{
    const lab_demo_layout_opts opts = { .shade_chars = false };
    lab_lines l = LAB_LINES_INIT;
    lab_buf json = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_demo_report r;
    const lab_line *line;
    size_t heat[LAB_TEXT_SHADES] = { 0 };

    read_fixture("tests/fixtures/demo/blockshape.json", &json);
    cr_assert_eq(lab_demo_parse(json.buf, json.len, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_demo_layout(&r, &opts, lab_lines_collect, &l), 0);
    cr_expect(styled(&l.v[0], "demo blockshape", LAB_TEXT_BOLD));
    cr_assert_not_null(line = find_line(&l, "  (128,2) |"));
    cr_expect(styled(line, "########################################", LAB_TEXT_BAR));
    cr_expect_eq(style_at(line, " 76.6 %"), LAB_TEXT_PLAIN);
    for (size_t i = 0; i < l.n; i++)
        for (size_t b = 0; b < l.v[i].len; b++)
            if (l.v[i].styles[b] >= LAB_TEXT_HEAT)
                heat[l.v[i].styles[b] - LAB_TEXT_HEAT]++;
    cr_expect_gt(heat[0], 0, "the fastest shape is the coolest");
    cr_expect_gt(heat[LAB_TEXT_SHADES - 1], 0, "the slowest the hottest");
    lab_lines_release(&l);
    lab_demo_report_release(&r);
    lab_buf_release(&json);
}

/* --- the lines ----------------------------------------------------------------------------- */

typedef struct stopper {
    int calls;
} stopper;

static int
stop_at_third(void *arg, const lab_line *line)
{
    stopper *s = arg;

    (void)line;
    return ++s->calls == 3 ? LAB_ENOMEM : 0;
}

/* A front end that runs out of memory stops the layout, which says so and calls it no more. */
Test(report, a_failing_line_function_ends_the_layout)
{
    lab_exercise ex = exercise();
    stopper s = { 0 };
    lab_grading g;

    graded("less-ref", &ex, &g);
    cr_expect_eq(lab_grading_layout(&g, &ex, "f.cu", 0, stop_at_third, &s), LAB_ENOMEM);
    cr_expect_eq(s.calls, 3);
    lab_grading_release(&g);
}

Test(report, lines_kept_and_replayed)
{
    lab_exercise ex = exercise();
    lab_lines a = LAB_LINES_INIT, b = LAB_LINES_INIT;
    lab_grading g;

    graded("less-starter", &ex, &g);
    cr_assert_eq(lab_grading_layout(&g, &ex, "f.cu", 0, lab_lines_collect, &a), 0);
    cr_assert_eq(lab_lines_replay(&a, lab_lines_last_paragraph(&a), lab_lines_collect, &b), 0);
    cr_assert_eq(b.n, 2);
    cr_expect_str_eq(b.v[0].text, a.v[a.n - 2].text);
    cr_expect_neq(b.v[0].text, a.v[a.n - 2].text, "a copy");
    cr_expect_eq(memcmp(b.v[0].styles, a.v[a.n - 2].styles, b.v[0].len), 0);
    lab_lines_release(&a);
    lab_lines_release(&b);
    lab_grading_release(&g);
}

/* --- display width: Korean and Chinese take two columns a character ----------------------- */

Test(report, flow_wraps_korean_and_chinese_by_display_width)
{
    const char *texts[] = {
        "빠른 kernel이 결과를 틀리게 냈습니다: 마지막 블록의 thread가 n 너머를 읽습니다. "
        "경계 검사를 넣으세요.",
        "最后一个块中的 thread 读到了 n 之外的元素，结果因此出错。请在读取之前检查下标是否小于 n。",
    };

    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
        lab_lines l = LAB_LINES_INIT;
        lab_lineout o;
        lab_lineout_init(&o, lab_lines_collect, &l);
        lab_lineout_put(&o, LAB_TEXT_BAD, "WRONG  ");
        lab_lineout_flow(&o, LAB_TEXT_PLAIN, texts[t], 40, 7);
        lab_lineout_end(&o);
        lab_lineout_release(&o);
        cr_expect_gt(l.n, 1, "text %zu wraps", t);
        for (size_t i = 0; i < l.n; i++)
            cr_expect_leq(lab_text_widths(l.v[i].text), 40, "text %zu line %zu: %zu columns: '%s'",
                          t, i, lab_text_widths(l.v[i].text), l.v[i].text);
        lab_lines_release(&l);
    }
}

/* Chinese breaks between its characters: cut only at the spaces around its Latin words, the
 * demo's paragraph left lines of 26 columns out of 80 (a space-less run did not fit after them) */
Test(report, flow_fills_chinese_lines_between_characters)
{
    const char *text = "笔记中的 kernel，按 cudalab 的方式（优化）构建。每个分支只是挑一个常量，"
                       "所以编译器把它换成 select：没有 warp 走两条路径，无论条件如何，所有 "
                       "kernel 用时相同。";
    lab_lines l = LAB_LINES_INIT;
    lab_lineout o;

    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    lab_lineout_init(&o, lab_lines_collect, &l);
    lab_lineout_wrap(&o, LAB_TEXT_PLAIN, text, 40);
    lab_lineout_release(&o);
    cr_assert_gt(l.n, 2);
    for (size_t i = 0; i < l.n; i++) {
        size_t cols = lab_text_widths(l.v[i].text);
        cr_expect_leq(cols, 40, "line %zu: '%s'", i, l.v[i].text);
        /* a line ends short of 40 only by a word of Latin letters or a punctuation mark */
        if (i + 1 < l.n)
            cr_expect_geq(cols, 32, "line %zu: %zu columns: '%s'", i, cols, l.v[i].text);
        cr_expect_neq(l.v[i].text[strlen(l.v[i].text) - 1], ' ', "line %zu ends in a space", i);
    }
    lab_lines_release(&l);
}

Test(report, pad_lines_up_translated_headings)
{
    const char *names[] = { "student", "학생", "学生" };

    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        lab_lines l = LAB_LINES_INIT;
        lab_lineout o;
        lab_lineout_init(&o, lab_lines_collect, &l);
        lab_lineout_pad(&o, LAB_TEXT_PLAIN, names[i], 10);
        lab_lineout_pad_left(&o, LAB_TEXT_PLAIN, "1.82x", 8);
        lab_lineout_end(&o);
        lab_lineout_release(&o);
        cr_assert_eq(l.n, 1);
        cr_expect_eq(lab_text_widths(l.v[0].text), 18, "'%s'", l.v[0].text);
        lab_lines_release(&l);
    }
}
