/*
 * test-demo.c - lab_demo_parse: the demo report of tests/fixtures/demo (every
 * field, cells of each kind, both chart kinds), the no_gpu and error forms,
 * and one malformed report per case, each refused with its own message.
 */
#include "lab/util/buf.h"
#include "lab/instruments/demo.h"
#include "lab/util/err.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <string.h>

static void
read_fixture(const char *name, lab_buf *out)
{
    lab_err err = LAB_ERR_INIT;
    char path[512];
    const char *src = getenv("CUDALAB_DATADIR_TEST");

    snprintf(path, sizeof(path), "%s/tests/fixtures/demo/%s", src && *src ? src : ".", name);
    cr_assert_eq(lab_buf_read_file(out, path, &err), 0, "%s", err.msg);
}

Test(demo, parse_fixture)
{
    lab_buf text = LAB_BUF_INIT;
    lab_demo_report r;
    lab_err err = LAB_ERR_INIT;
    const lab_demo_section *s;
    const lab_demo_cell *c;

    read_fixture("blockshape.json", &text);
    cr_assert_eq(lab_demo_parse(text.buf, text.len, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(r.version, 1);
    cr_assert_str_eq(r.chapter, "blockshape");
    cr_assert_str_eq(r.backend, "cuda");
    cr_assert_str_eq(r.status, "ok");
    cr_assert_str_eq(r.reason, "");
    cr_assert_str_eq(r.device, "NVIDIA H100 80GB HBM3");
    cr_assert_eq(r.nsections, 2);
    s = &r.sections[0];
    cr_assert_str_eq(s->title, "sumMatrixOnGPU2D, 16384 x 16384 floats");
    cr_assert_not_null(s->text);
    cr_assert_eq(s->ncolumns, 10);
    cr_assert_str_eq(s->columns[3].name, "time");
    cr_assert_str_eq(s->columns[3].unit, "us");
    cr_assert_str_eq(s->columns[0].unit, "");
    cr_assert_eq(s->nrows, 15);
    c = lab_demo_cell_at(s, 8, 3); /* (128,2) */
    cr_assert_eq(c->kind, LAB_DEMO_CELL_NUMBER);
    cr_assert_float_eq(c->num, 1175, 1e-9);
    c = lab_demo_cell_at(s, 14, 9); /* (256,8) */
    cr_assert_eq(c->kind, LAB_DEMO_CELL_STRING);
    cr_assert(strstr(c->str, "invalid argument"));
    cr_assert_eq(lab_demo_cell_at(s, 14, 3)->kind, LAB_DEMO_CELL_NULL);
    cr_assert_null(lab_demo_cell_at(s, 15, 0), "past the last row");
    cr_assert_null(lab_demo_cell_at(s, 0, 10), "past the last column");
    cr_assert_eq(s->chart.kind, LAB_DEMO_CHART_HEATMAP);
    cr_assert_eq(s->chart.x, 0);
    cr_assert_eq(s->chart.y, 1);
    cr_assert_eq(s->chart.value, 3);
    s = &r.sections[1];
    cr_assert_null(s->text);
    cr_assert_eq(s->chart.kind, LAB_DEMO_CHART_BARS);
    cr_assert_eq(s->chart.label, 0);
    cr_assert_eq(s->chart.value, 2);
    cr_assert_eq(r.nnotes, 1);
    cr_assert(strstr(r.notes[0], "invalid argument"));
    lab_demo_report_release(&r);
    lab_buf_release(&text);
}

Test(demo, no_gpu_and_error)
{
    static const char no_gpu[] =
        "{\"version\":1,\"kind\":\"demo\",\"chapter\":\"occupancy\",\"backend\":\"cuda\","
        "\"status\":\"no_gpu\",\"sections\":[],\"notes\":[],\"reason\":\"no NVIDIA driver\"}";
    static const char error[] = "{\"version\":1,\"kind\":\"demo\",\"chapter\":\"x\",\"backend\":"
                                "\"cuda\",\"status\":\"error\",\"reason\":\"setup: boom\"}";
    lab_demo_report r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_demo_parse(no_gpu, strlen(no_gpu), &r, &err), 0, "%s", err.msg);
    cr_assert_str_eq(r.status, "no_gpu");
    cr_assert_str_eq(r.reason, "no NVIDIA driver");
    cr_assert_str_eq(r.device, "", "no device object");
    cr_assert_eq(r.nsections, 0);
    cr_assert_eq(r.nnotes, 0);
    lab_demo_report_release(&r);
    cr_assert_eq(lab_demo_parse(error, strlen(error), &r, &err), 0, "%s", err.msg);
    cr_assert_str_eq(r.status, "error");
    cr_assert_str_eq(r.reason, "setup: boom");
    cr_assert_eq(r.nsections, 0, "no sections key");
    lab_demo_report_release(&r);
}

struct bad {
    char json[400];
    char msg[120];
};

#define HEAD                                                                                       \
    "{\"version\":1,\"kind\":\"demo\",\"chapter\":\"c\",\"backend\":\"cuda\",\"status\":\"ok\","
#define COLS "\"columns\":[{\"name\":\"a\",\"unit\":\"\"},{\"name\":\"b\",\"unit\":\"us\"}]"

ParameterizedTestParameters(demo, malformed)
{
    static struct bad cases[] = {
        { "[1,2]", "demo report: not a JSON object" },
        { "{\"version\":1,", "demo report: not a JSON object" },
        { "{\"kind\":\"demo\"}", "demo report: no version" },
        { "{\"version\":2,\"kind\":\"demo\"}",
          "demo report: version 2 is newer than this lab's 1" },
        { "{\"version\":1,\"kind\":\"grade\"}", "demo report: kind is not \"demo\"" },
        { "{\"version\":1,\"kind\":\"demo\",\"status\":\"fine\"}",
          "demo report: unknown status 'fine'" },
        { HEAD "\"sections\":{}}", "demo report: sections is not an array" },
        { HEAD "\"sections\":[{\"title\":\"t\"}]}",
          "demo report: section 0 lacks columns or rows" },
        { HEAD "\"sections\":[{\"title\":\"t\",\"columns\":[{\"unit\":\"x\"}],\"rows\":[]}]}",
          "demo report: section 0: a column has no name" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS ",\"rows\":[[1,2],[3]]}]}",
          "demo report: section 0: row 1 does not have 2 cells" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS ",\"rows\":[[1,true]]}]}",
          "demo report: section 0: a cell is not a string, number or null" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS
               ",\"rows\":[],\"chart\":{\"type\":\"pie\"}}]}",
          "demo report: section 0: unknown chart type 'pie'" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS ",\"rows\":[],\"chart\":{}}]}",
          "demo report: section 0: chart has no type" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS
               ",\"rows\":[],\"chart\":{\"type\":\"bars\",\"label\":0,\"value\":2}}]}",
          "demo report: section 0: chart's 'value' is not a column index" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS
               ",\"rows\":[],\"chart\":{\"type\":\"heatmap\",\"x\":0,\"y\":-1,\"value\":1}}]}",
          "demo report: section 0: chart's 'y' is not a column index" },
        { HEAD "\"sections\":[{\"title\":\"t\"," COLS
               ",\"rows\":[],\"chart\":{\"type\":\"heatmap\",\"x\":0.5,\"y\":1,\"value\":1}}]}",
          "demo report: section 0: chart's 'x' is not a column index" },
        { HEAD "\"notes\":[\"a\",3]}", "demo report: a note is not a string" },
    };

    return cr_make_param_array(struct bad, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct bad *c, demo, malformed)
{
    lab_demo_report r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_demo_parse(c->json, strlen(c->json), &r, &err), LAB_EPARSE, "%s", c->json);
    cr_assert_str_eq(err.msg, c->msg);
    lab_demo_report_release(&r);
}
