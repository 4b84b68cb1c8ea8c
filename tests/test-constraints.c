/*
 * test-constraints.c - the constraint classes (lab/build/rules.c) on real PTX: every form a
 * student can write, in tests/rules/forms.cu, built by nvcc with the lab's flags
 * ($CUDALAB_TEST_RULES_PTX), must be found by its class with the CUDA the student wrote and
 * the line they wrote it on; the old spellings mean their classes; raw spellings still work.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/build/constraints.h"
#include "lab/build/rules.h"
#include "lab/util/buf.h"

static char *
read_file(const char *path)
{
    lab_buf b = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_buf_read_file(&b, path, &err), 0, "%s", err.msg);
    return lab_buf_detach(&b);
}

static char *
forms_ptx(void)
{
    const char *path = getenv("CUDALAB_TEST_RULES_PTX");

    cr_assert(path, "CUDALAB_TEST_RULES_PTX is not set (make test sets it)");
    return read_file(path);
}

static char *
fixture_ptx(const char *name)
{
    char path[256];

    snprintf(path, sizeof(path), "tests/fixtures/ptx/%s.ptx", name);
    return read_file(path);
}

/* Every "// rule: CLASS: WORDS" of forms.cu: "forbid CLASS" reports WORDS at that line; every
 * "// rule: CLASS!: ..." : it reports nothing at that line. */
Test(constraints, every_form_in_the_students_words)
{
    char *ptx = forms_ptx(), *src = read_file("tests/rules/forms.cu");
    unsigned lineno = 0, checked = 0;

    for (char *line = src, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (!strncmp(line, "//", 2))
            continue; /* the file's own comments */
        for (char *m = strstr(line, "// rule: "); m; m = strstr(m + 1, "// rule: ")) {
            char cls[32], words[160], rule[64], at[64];
            bool negative;
            lab_buf why = LAB_BUF_INIT;
            lab_err err = LAB_ERR_INIT;
            size_t n = strcspn(m + 9, ":");
            const char *w = m + 9 + n + 1 + strspn(m + 9 + n + 1, " ");
            size_t wn = strstr(w, " // rule: ") ? (size_t)(strstr(w, " // rule: ") - w) : strlen(w);
            cr_assert(n < sizeof(cls) && wn < sizeof(words), "forms.cu:%u: a bad marker", lineno);
            memcpy(cls, m + 9, n);
            cls[n] = '\0';
            memcpy(words, w, wn);
            words[wn] = '\0';
            negative = n && cls[n - 1] == '!';
            if (negative)
                cls[n - 1] = '\0';
            snprintf(rule, sizeof(rule), "forbid %s", cls);
            snprintf(at, sizeof(at), "at forms.cu:%u is", lineno);
            cr_assert_geq(lab_constraints_list(ptx, "k", rule, &why, &err), 0, "%s", err.msg);
            if (negative) {
                cr_expect_null(strstr(why.buf ? why.buf : "", at),
                               "forms.cu:%u: '%s' reports what it must not:\n%s", lineno, rule,
                               why.buf);
            } else {
                bool found = false;
                for (char *s = why.buf; s && *s && !found;) {
                    char *e = strchr(s, '\n');
                    size_t len = e ? (size_t)(e - s) : strlen(s);
                    char one[1024];
                    snprintf(one, sizeof(one), "%.*s", (int)len, s);
                    found = strstr(one, at) && !strncmp(one, words, strlen(words));
                    s = e ? e + 1 : s + len;
                }
                cr_expect(found, "forms.cu:%u: '%s' does not say \"%s ... %s\":\n%s", lineno, rule,
                          words, at, why.buf);
            }
            checked++;
            lab_buf_release(&why);
        }
    }
    cr_expect_geq(checked, 40, "only %u markers checked", checked);
    free(src);
    free(ptx);
}

/* The first violation, as a grading says it: the CUDA, the line, the class, the reason */
Test(constraints, a_violation_is_one_sentence)
{
    char *ptx = forms_ptx();
    const char *rules[] = { "forbid timers", "forbid warp-collectives" };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_constraints_check(ptx, "k", rules + 1, 1, &why, &err), 1);
    cr_expect_str_eq(why.buf, "__shfl_sync at forms.cu:43 is a warp collective (a shuffle, "
                              "reduce, vote or match), which this exercise forbids: this step "
                              "passes values between threads through memory; a warp collective "
                              "passes them between lanes in hardware, which is a later step");
    lab_buf_release(&why);
    cr_assert_eq(lab_constraints_check(ptx, "k", rules, 2, &why, &err), 1);
    cr_expect(!strncmp(why.buf, "clock64() or clock() at forms.cu:", 33), "%s", why.buf);
    cr_expect_null(strchr(why.buf, '\n'), "one violation: %s", why.buf);
    lab_buf_release(&why);
    free(ptx);
}

typedef struct constraint_case {
    char ptx[32];
    char rule[64];
    int expect;
    char why[192];
} constraint_case;

/* PTX without -lineinfo (tests/fixtures/ptx): no source line, the PTX's line instead; the old
 * spellings mean their whole class; raw spellings are matched as written. */
ParameterizedTestParameters(constraints, spellings)
{
    static constraint_case cases[] = {
        { "neighbored-less", "forbid atomics", 0, "" },
        { "atomic", "forbid atomics", 1, "'atom.global.add.u32 %r5, [%rd3], %r4' (from atomicAdd" },
        { "atomic", "forbid atom", 1, "at PTX line" },
        { "atomic", "forbid red", 1, "is an atomic operation" },
        { "atomic", "forbid shared-atomics", 0, "" },
        { "atomic", "forbid bar.sync", 1, "'bar.sync 0' at PTX line" },
        { "neighbored-less", "require warp-collectives", 1,
          "k does not use a warp collective (a shuffle, reduce, vote or match), which this "
          "exercise requires: " },
        { "neighbored-less", "require shfl.sync", 1, "k does not use a warp collective" },
        { "shfl", "require warp-collectives", 0, "" },
        { "shfl", "require warp-sync", 0, "" },
        { "shfl", "forbid shfl", 1, "is a warp collective" },
        { "shfl", "forbid redux", 1, "is a warp collective" },
        { "neighbored-less", "forbid ld", 1, "is ld, which this exercise forbids" },
        { "neighbored-less", "forbid ld.shared", 0, "" },
        /* a backward branch is a loop; shfl.cu's loop is unrolled by nvcc */
        { "neighbored-less", "forbid loops", 1, "a branch back" },
        { "neighbored-less", "forbid loop", 1, "is a loop, which this exercise forbids" },
        { "shfl", "forbid loops", 0, "" },
        /* special registers: blockDim.x is %ntid.x; %tid is not %ntid */
        { "neighbored-less", "forbid %ntid", 1, "reads %ntid, which this exercise forbids" },
        { "shfl", "forbid %ntid", 0, "" },
        { "shfl", "require %tid", 0, "" },
        { "neighbored-less", "forbid timers", 0, "" },
        /* alternatives */
        { "shfl", "require bar.warp.sync|shfl.sync", 0, "" },
        { "neighbored-less", "require bar.warp.sync|ld.global.v4", 1,
          "k does not use warp-level synchronisation (__syncwarp() or a warp collective) or "
          "ld.global.v4, which this exercise requires" },
        { "atomic", "forbid warp-collectives|atomics", 1, "is an atomic operation" },
    };
    return cr_make_param_array(constraint_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(constraint_case *c, constraints, spellings)
{
    char *ptx = fixture_ptx(c->ptx);
    const char *rules[] = { c->rule };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_constraints_check(ptx, "k", rules, 1, &why, &err), c->expect, "%s / %s: %s",
                 c->ptx, c->rule, why.buf);
    cr_expect(strstr(why.buf ? why.buf : "", c->why), "'%s' lacks '%s'", why.buf, c->why);
    lab_buf_release(&why);
    free(ptx);
}

Test(constraints, malformed)
{
    const char *rules[] = { "avoid atom" }, *empty[] = { "forbid a||b" };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(lab_constraints_check(".entry x()\n", "k", rules, 1, &why, &err), LAB_EINVAL);
    cr_expect(strstr(err.msg, "avoid atom"), "%s", err.msg);
    cr_expect_eq(lab_constraints_check(".entry x()\n", "k", empty, 1, &why, &err), LAB_EINVAL);
    lab_buf_release(&why);
}

/* A recursive function is named as the student wrote it, even when its name has an unbalanced
 * '<' (operator<): the name's copy stops at its end (it ran one past it before) */
Test(constraints, recursion_names_an_operator)
{
    const char *ptx = ".visible .func (.param .b32 r) _ZltRK1AS1_(.param .b64 a, .param .b64 b)\n"
                      "{\n"
                      "\tcall.uni (r), _ZltRK1AS1_, (a, b);\n"
                      "\tret;\n"
                      "}\n"
                      ".visible .entry k()\n"
                      "{\n"
                      "\tcall.uni (r), _ZltRK1AS1_, (a, b);\n"
                      "\tret;\n"
                      "}\n";
    const char *rules[] = { "forbid loops" };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_constraints_check(ptx, "k", rules, 1, &why, &err), 1, "%s", err.msg);
    cr_expect(strstr(why.buf, "the call of operator< (it calls itself again)"), "%s", why.buf);
    lab_buf_release(&why);
}

/* check-exercise's note: an old spelling and what to write instead */
Test(constraints, old_spellings_name_their_class)
{
    static const char *const cases[][2] = {
        { "forbid atom", "forbid atomics" },
        { "forbid atom.shared", "forbid shared-atomics" },
        { "require bar.warp.sync|shfl.sync", "require warp-sync|warp-collectives" },
        { "forbid %globaltimer|%clock|%clock64", "forbid timers" },
        { "forbid loop", "forbid loops" },
        { "forbid shfl|ld.shared", "forbid warp-collectives|ld.shared" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        lab_buf out = LAB_BUF_INIT;
        cr_expect(lab_constraints_spelling(cases[i][0], &out), "%s", cases[i][0]);
        cr_expect_str_eq(out.buf, cases[i][1]);
        lab_buf_release(&out);
    }
    lab_buf none = LAB_BUF_INIT;
    cr_expect_not(lab_constraints_spelling("forbid atomics", &none));
    cr_expect_not(lab_constraints_spelling("require ld.shared", &none));
    cr_expect_eq(none.len, 0);
}

/* One table: every class has a name, words, reasons and forms; names and spellings are found */
Test(constraints, the_table_is_whole)
{
    for (unsigned c = 0; c < LAB_RULE_COUNT; c++) {
        const lab_rule *r = lab_rule_get((lab_rule_class)c);
        lab_rule_class back;
        cr_assert(r && r->name && r->what && r->forbid && r->require, "class %u", c);
        cr_expect_neq(r->forms[0].kind, LAB_FORM_NONE, "%s has no form", r->name);
        cr_expect(lab_rule_find(r->name, strlen(r->name), &back) && back == c, "%s", r->name);
        for (const char *const *a = r->aliases; *a; a++)
            cr_expect(lab_rule_find(*a, strlen(*a), &back) && back == c, "%s", *a);
    }
}
