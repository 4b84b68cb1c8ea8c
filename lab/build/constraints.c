/*
 * constraints.c - an exercise's constraints checked on the student's PTX by
 * meaning (see constraints.h): lab/build/rules.c says what each class is,
 * lab/build/ptxmap.c where each instruction comes from; here the
 * instructions are matched against the alternatives, the call graph is
 * searched for recursion, and the first violation is said in the student's
 * terms.
 */
#include "lab/build/constraints.h"

#include "lab/build/ptxmap.h"
#include "lab/build/rules.h"
#include "lab/util/i18n.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One alternative of a constraint's target: a class, or a raw spelling */
typedef struct alternative {
    const char *text;
    size_t len;
    bool is_class;
    lab_rule_class cls;
} alternative;

#define MAX_ALTERNATIVES 8

/* Who leads to whom: reach[f * n + g] when function f calls function g, directly, through a
 * pointer or through functions between, or launches it from the device */
typedef struct graph {
    size_t n;
    bool *reach;
} graph;

static bool
is_bra(const lab_ptxmap_insn *in)
{
    return lab_rule_opcode_is(in->op, in->oplen, "bra");
}

/* Functions an instruction of function f can start: a call's (through a register: any function
 * whose address is taken), a device-side launch's (an entry whose address it takes) */
static void
edges(const lab_ptxmap *m, const lab_ptxmap_insn *in, bool *to)
{
    if (lab_ptxmap_opcode_is_call(in->op, in->oplen)) {
        long g;
        if (in->target && (g = lab_ptxmap_func_find(m, in->target, in->targetlen)) >= 0)
            to[g] = true;
        else if (!in->target)
            for (size_t g2 = 0; g2 < m->nfuncs; g2++)
                if (m->funcs[g2].address_taken && !m->funcs[g2].entry)
                    to[g2] = true;
        return;
    }
    for (const char *p = in->args, *end = in->args + in->argslen; p < end;) {
        const char *w = p;
        long g;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
            p++;
        if (p > w && (g = lab_ptxmap_func_find(m, w, (size_t)(p - w))) >= 0 && m->funcs[g].entry)
            to[g] = true;
        if (p == w)
            p++;
    }
}

static int
graph_build(const lab_ptxmap *m, graph *g, lab_err *err)
{
    size_t n = m->nfuncs;
    bool changed = true;

    g->n = n;
    if (!(g->reach = calloc(n * n + 1, sizeof(bool))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->ninsns; i++)
        edges(m, &m->insns[i], g->reach + (size_t)m->insns[i].func * n);
    while (changed) { /* the transitive closure: a module has a few functions */
        changed = false;
        for (size_t f = 0; f < n; f++)
            for (size_t h = 0; h < n; h++)
                if (g->reach[f * n + h])
                    for (size_t k = 0; k < n; k++)
                        if (g->reach[h * n + k] && !g->reach[f * n + k])
                            changed = g->reach[f * n + k] = true;
    }
    return 0;
}

/* The function an instruction calls or launches back into its own: the callee that leads back
 * to the caller, or -1 */
static long
recursion_of(const lab_ptxmap *m, const graph *g, const lab_ptxmap_insn *in)
{
    bool *to = calloc(m->nfuncs + 1, sizeof(bool));
    long found = -1;

    if (!to)
        return -1;
    edges(m, in, to);
    for (size_t h = 0; h < m->nfuncs && found < 0; h++)
        if (to[h] && (h == in->func || g->reach[h * g->n + in->func]))
            found = (long)h;
    free(to);
    return found;
}

/* Does the instruction (at index i) match the alternative?  Its form goes in *form (NULL for a
 * raw spelling), the function a recursion comes back through in *callee. */
static bool
matches(const lab_ptxmap *m, const graph *g, size_t i, const alternative *a,
        const lab_rule_form **form, long *callee)
{
    const lab_ptxmap_insn *in = &m->insns[i];
    const lab_ptxmap_label *label;
    char reg[64];

    *form = NULL;
    if (!a->is_class) {
        if (a->text[0] != '%') /* an opcode prefix ending at a dot */
            return in->oplen >= a->len && !strncmp(in->op, a->text, a->len) &&
                   (in->oplen == a->len || in->op[a->len] == '.');
        if (a->len >= sizeof(reg))
            return false;
        memcpy(reg, a->text, a->len);
        reg[a->len] = '\0';
        return lab_rule_reads_register(in->args, in->argslen, reg);
    }
    if ((*form = lab_rule_match(a->cls, in->op, in->oplen, in->args, in->argslen)))
        return true;
    if (is_bra(in) && in->target && (*form = lab_rule_form_of(a->cls, LAB_FORM_BACK_BRANCH)) &&
        (label = lab_ptxmap_label_find(m, in->func, in->target, in->targetlen)) && label->insn <= i)
        return true;
    if (g && (*form = lab_rule_form_of(a->cls, LAB_FORM_RECURSION)) &&
        (*callee = recursion_of(m, g, in)) >= 0)
        return true;
    *form = NULL;
    return false;
}

/* The instruction's text, its blanks runs made one space: "red.shared.add.s32 [%r3], %r4" */
static void
add_instruction(lab_buf *out, const lab_ptxmap_insn *in)
{
    const char *end = in->args + in->argslen;

    lab_buf_add(out, in->op, in->oplen);
    if (in->argslen)
        lab_buf_addch(out, ' ');
    for (const char *p = in->args; p < end; p++)
        if (!isspace((unsigned char)*p))
            lab_buf_addch(out, *p);
        else if (p + 1 < end && !isspace((unsigned char)p[1]))
            lab_buf_addch(out, ' ');
}

/* What the student wrote that made the instruction: the header's function their line called,
 * inline PTX by its text, a recursive call, else the form's words */
static void
add_words(lab_buf *out, const lab_ptxmap *m, const lab_ptxmap_insn *in, const lab_rule_form *form,
          long callee)
{
    lab_buf text = LAB_BUF_INIT;

    if (form->kind == LAB_FORM_RECURSION) {
        lab_buf_printf(out, _("the call of %s (it calls itself again)"), m->funcs[callee].plain);
    } else if (form->kind == LAB_FORM_BACK_BRANCH || form->kind == LAB_FORM_REGISTER) {
        lab_buf_adds(out, _(form->words));
    } else if (in->callee) {
        lab_buf_adds(out, in->callee);
    } else {
        add_instruction(&text, in);
        if (in->inline_asm)
            lab_buf_printf(out, _("inline PTX '%s'"), text.buf);
        else
            lab_buf_printf(out, _("the instruction '%s' (from %s)"), text.buf, _(form->words));
    }
    lab_buf_release(&text);
}

static void
describe_forbidden(lab_buf *why, const lab_ptxmap *m, const lab_ptxmap_insn *in,
                   const alternative *a, const lab_rule_form *form, long callee)
{
    lab_buf words = LAB_BUF_INIT, text = LAB_BUF_INIT;
    char where[256];

    lab_ptxmap_where(m, in, where, sizeof(where));
    if (a->is_class) {
        const lab_rule *r = lab_rule_get(a->cls);
        add_words(&words, m, in, form, callee);
        /* TRANSLATORS: "__reduce_add_sync at redux.cu:6 is a warp collective (...), which
           this exercise forbids: why" */
        lab_buf_printf(why, _("%s at %s is %s, which this exercise forbids: %s"), words.buf, where,
                       _(r->what), _(r->forbid));
    } else {
        add_instruction(&text, in);
        if (in->callee)
            lab_buf_printf(&words, "%s ('%s')", in->callee, text.buf);
        else
            lab_buf_printf(&words, "'%s'", text.buf);
        if (a->text[0] == '%')
            lab_buf_printf(why, _("%s at %s reads %.*s, which this exercise forbids"), words.buf,
                           where, (int)a->len, a->text);
        else
            lab_buf_printf(why, _("%s at %s is %.*s, which this exercise forbids"), words.buf,
                           where, (int)a->len, a->text);
    }
    lab_buf_release(&words);
    lab_buf_release(&text);
}

static void
describe_missing(lab_buf *why, const char *kernel, const alternative *alts, size_t nalts)
{
    lab_buf what = LAB_BUF_INIT;

    for (size_t k = 0; k < nalts; k++) {
        if (k)
            lab_buf_adds(&what, _(" or "));
        if (alts[k].is_class)
            lab_buf_adds(&what, _(lab_rule_get(alts[k].cls)->what));
        else
            lab_buf_add(&what, alts[k].text, alts[k].len);
    }
    if (nalts == 1 && alts[0].is_class)
        lab_buf_printf(why, _("%s does not use %s, which this exercise requires: %s"), kernel,
                       what.buf, _(lab_rule_get(alts[0].cls)->require));
    else
        lab_buf_printf(why, _("%s does not use %s, which this exercise requires"), kernel,
                       what.buf);
    lab_buf_release(&what);
}

/* "forbid atomics|red": the verb, and the alternatives; false when malformed */
static bool
parse_rule(const char *rule, bool *forbid, alternative *alts, size_t *nalts)
{
    const char *t;

    *forbid = !strncmp(rule, "forbid ", 7);
    if (!*forbid && strncmp(rule, "require ", 8))
        return false;
    t = rule + (*forbid ? 7 : 8);
    for (*nalts = 0; *t;) {
        size_t n = strcspn(t, "|");
        if (!n || *nalts == MAX_ALTERNATIVES)
            return false;
        alts[*nalts] = (alternative){ t, n, false, LAB_RULE_COUNT };
        alts[*nalts].is_class = lab_rule_find(t, n, &alts[*nalts].cls);
        (*nalts)++;
        t += n + (t[n] == '|');
    }
    return *nalts > 0;
}

static bool
needs_graph(const alternative *alts, size_t nalts)
{
    for (size_t k = 0; k < nalts; k++)
        if (alts[k].is_class && lab_rule_form_of(alts[k].cls, LAB_FORM_RECURSION))
            return true;
    return false;
}

/* Checks one constraint on the map; each violation (a forbidden instruction, at most max of
 * them; or the required class missing) appends its sentence to why (one line each, separated
 * by '\n').  The violations, or <0. */
static int
check_one(const lab_ptxmap *m, graph *g, const char *kernel, const char *rule, size_t max,
          lab_buf *why, lab_err *err)
{
    alternative alts[MAX_ALTERNATIVES];
    size_t nalts;
    bool forbid, found = false;
    int count = 0, rc;

    if (!parse_rule(rule, &forbid, alts, &nalts))
        return lab_err_set(err, LAB_EINVAL, "constraint '%s' is not 'forbid X' or 'require X'",
                           rule);
    if (needs_graph(alts, nalts) && !g->reach && (rc = graph_build(m, g, err)) < 0)
        return rc;
    for (size_t i = 0; i < m->ninsns && (size_t)count < max && !(found && !forbid); i++)
        for (size_t k = 0; k < nalts; k++) {
            const lab_rule_form *form;
            long callee = -1;
            if (!matches(m, g->reach ? g : NULL, i, &alts[k], &form, &callee))
                continue;
            found = true;
            if (forbid) {
                if (why->len)
                    lab_buf_addch(why, '\n');
                describe_forbidden(why, m, &m->insns[i], &alts[k], form, callee);
                count++;
            }
            break;
        }
    if (!forbid && !found) {
        describe_missing(why, kernel, alts, nalts);
        count++;
    }
    return count;
}

int
lab_constraints_check(const char *ptx, const char *kernel, const char *const *constraints, size_t n,
                      lab_buf *why, lab_err *err)
{
    lab_ptxmap m = LAB_PTXMAP_INIT;
    graph g = { 0 };
    int rc;

    if ((rc = lab_ptxmap_build(&m, ptx, err)) < 0)
        goto out;
    for (size_t c = 0; c < n && rc == 0; c++)
        rc = check_one(&m, &g, kernel, constraints[c], 1, why, err);
    rc = rc > 0 ? 1 : rc;
out:
    free(g.reach);
    lab_ptxmap_release(&m);
    return rc;
}

int
lab_constraints_list(const char *ptx, const char *kernel, const char *constraint, lab_buf *why,
                     lab_err *err)
{
    lab_ptxmap m = LAB_PTXMAP_INIT;
    graph g = { 0 };
    int rc;

    if ((rc = lab_ptxmap_build(&m, ptx, err)) == 0)
        rc = check_one(&m, &g, kernel, constraint, (size_t)-1, why, err);
    free(g.reach);
    lab_ptxmap_release(&m);
    return rc;
}

bool
lab_constraints_spelling(const char *constraint, lab_buf *out)
{
    alternative alts[MAX_ALTERNATIVES];
    size_t nalts;
    bool forbid, old = false;

    if (!parse_rule(constraint, &forbid, alts, &nalts))
        return false;
    for (size_t k = 0; k < nalts; k++)
        old |= alts[k].is_class &&
               !(strlen(lab_rule_get(alts[k].cls)->name) == alts[k].len &&
                 !strncmp(lab_rule_get(alts[k].cls)->name, alts[k].text, alts[k].len));
    if (!old)
        return false;
    lab_buf_adds(out, forbid ? "forbid " : "require ");
    for (size_t k = 0; k < nalts; k++) {
        const char *name = alts[k].is_class ? lab_rule_get(alts[k].cls)->name : NULL;
        bool dup = false;
        for (size_t j = 0; j < k && name; j++)
            dup |= alts[j].is_class && alts[j].cls == alts[k].cls;
        if (dup)
            continue;
        if (out->len && out->buf[out->len - 1] != ' ')
            lab_buf_addch(out, '|');
        if (name)
            lab_buf_adds(out, name);
        else
            lab_buf_add(out, alts[k].text, alts[k].len);
    }
    return true;
}
