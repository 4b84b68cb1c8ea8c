/*
 * ptxmap.c - a module's functions, instructions, source lines and calls, read
 * off its PTX text (see ptxmap.h).
 *
 * Two passes over the lines: the first finds the student's files (the file of
 * each kernel's first .loc), the .file table and the names .debug_str holds
 * for function_name; the second reads the functions and their statements,
 * keeping the chain of .loc lines that inlined the code in front of each.
 */
#include "lab/build/ptxmap.h"

#include "lab/util/i18n.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From libstdc++ (the Itanium C++ ABI). */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

#define MAX_FILES 64
#define MAX_CHAIN 32

typedef struct debug_name {
    const char *label; /* $L__info_string3 */
    size_t len;
    const char *name; /* plain: "cooperative_groups::reduce" */
} debug_name;

/* One .loc: code at file:line, inside function fn inlined at inl_file:inl_line */
typedef struct loc {
    unsigned file, line;
    const char *fn; /* the function_name label, or NULL */
    size_t fnlen;
    unsigned inl_file, inl_line; /* inl_file 0: not inlined */
} loc;

typedef struct scan {
    lab_ptxmap *m;
    bool student[MAX_FILES];
    debug_name *names;
    size_t nnames, namecap;
    size_t insncap, funccap, labelcap;
    loc chain[MAX_CHAIN];
    unsigned nchain;
    bool in_asm;
    long fn;             /* the function whose body we are in, or -1 */
    const char *skip_to; /* the end of a statement that went on past its line */
} scan;

void
lab_ptxmap_init(lab_ptxmap *m)
{
    memset(m, 0, sizeof(*m));
    lab_arena_init(&m->arena);
}

void
lab_ptxmap_release(lab_ptxmap *m)
{
    free(m->insns);
    free(m->funcs);
    free(m->labels);
    lab_arena_release(&m->arena);
    lab_ptxmap_init(m);
}

/* Room for one more element of size in *p (used of *cap) */
static bool
grow(void **p, size_t used, size_t *cap, size_t size)
{
    void *q;
    size_t n;

    if (used < *cap)
        return true;
    n = *cap ? *cap * 2 : 64;
    if (!(q = realloc(*p, n * size)))
        return false;
    *p = q;
    *cap = n;
    return true;
}

static const char *
skip_blanks(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

static bool
ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '%';
}

/* A decimal number at *p, moving past it and the blanks and commas after it. */
static unsigned
number(const char **p, const char *end)
{
    unsigned long v = 0;

    *p = skip_blanks(*p, end);
    while (*p < end && isdigit((unsigned char)**p))
        v = v * 10 + (unsigned long)(*(*p)++ - '0');
    while (*p < end && (isspace((unsigned char)**p) || **p == ','))
        (*p)++;
    return v > 0xffffffffu ? 0 : (unsigned)v;
}

/* ".loc 2 1409 9, function_name $L__info_string0, inlined_at 1 18 9" (p after ".loc") */
static loc
parse_loc(const char *p, const char *end)
{
    loc l = { 0 };
    const char *fn, *inl;

    l.file = number(&p, end);
    l.line = number(&p, end);
    (void)number(&p, end); /* the column */
    fn = memmem(p, (size_t)(end - p), "function_name", 13);
    inl = memmem(p, (size_t)(end - p), "inlined_at", 10);
    if (fn) {
        fn = skip_blanks(fn + 13, end);
        l.fn = fn;
        while (fn < end && ident_char(*fn))
            fn++;
        l.fnlen = (size_t)(fn - l.fn);
    }
    if (inl) {
        inl += 10;
        l.inl_file = number(&inl, end);
        l.inl_line = number(&inl, end);
    }
    return l;
}

/* The length of an operator's name at s + i ("operator<", "operator()"), whose symbol is not
 * a template's brackets; 0 if the part is not an operator */
static size_t
operator_len(const char *s, size_t i, size_t end)
{
    size_t n = 8;

    if (end - i <= n || strncmp(s + i, "operator", n) || !strchr("<>=!+-*/%^&|~[]()", s[i + n]))
        return 0;
    while (i + n < end && s[i + n] && strchr("<>=!+-*/%^&|~[]()", s[i + n]))
        n++;
    return n;
}

/* The function's name a demangled name gives, without its return type, template arguments,
 * parameters or inline namespaces:
 *   "decltype (...) cooperative_groups::__v1::reduce<...>(cooperative_groups::...)" ->
 *   "cooperative_groups::reduce".  NULL when out of memory. */
static const char *
plain_name(lab_arena *a, const char *mangled)
{
    int status = -1;
    char *d = __cxa_demangle(mangled, NULL, NULL, &status), *out;
    const char *s = status == 0 && d ? d : mangled;
    size_t n = strlen(s), end = n, start, o = 0;
    int depth;

    /* the parameter list: the last balanced (...) at the end, past " const" and the like */
    while (end > 0 && s[end - 1] != ')' &&
           (isalpha((unsigned char)s[end - 1]) || s[end - 1] == ' ' || s[end - 1] == '&'))
        end--;
    if (end > 0 && s[end - 1] == ')') {
        for (depth = 0; end > 0; end--) {
            depth += s[end - 1] == ')' ? 1 : s[end - 1] == '(' ? -1 : 0;
            if (depth == 0)
                break;
        }
        end = end > 0 ? end - 1 : 0;
    } else {
        end = n; /* not a function's signature: a C name */
    }
    /* back to the space before the qualified name (after a return type), outside <> and () */
    for (start = end, depth = 0; start > 0; start--) {
        char c = s[start - 1];
        depth += (c == '>' || c == ')') ? 1 : (c == '<' || c == '(') ? -1 : 0;
        if (depth == 0 && c == ' ')
            break;
    }
    if (!(out = lab_arena_alloc(a, end - start + 1))) {
        free(d);
        return NULL;
    }
    /* copy, leaving out template arguments and inline namespaces (__v1, __4) */
    for (size_t i = start; i < end;) {
        size_t seg = i, segend, opl = operator_len(s, i, end);
        i += opl;
        while (i < end && !(s[i] == ':' && i + 1 < end && s[i + 1] == ':')) {
            if (s[i] == '<') {
                for (depth = 0; i < end; i++) {
                    depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
                    if (depth == 0)
                        break;
                }
            }
            if (i < end) /* an unbalanced '<' (operator<) ends the name */
                i++;
        }
        segend = i;
        if (i < end)
            i += 2; /* the "::" */
        if (segend - seg >= 3 && s[seg] == '_' && s[seg + 1] == '_' &&
            strspn(s + seg + 2 + (s[seg + 2] == 'v'), "0123456789") ==
                segend - seg - 2 - (s[seg + 2] == 'v'))
            continue; /* __v1, __4: an inline namespace */
        if ((segend - seg >= 10 && !strncmp(s + seg, "_INTERNAL_", 10)) ||
            (segend - seg >= 21 && !strncmp(s + seg, "(anonymous namespace)", 21)))
            continue; /* what nvcc calls a file's static functions' namespace */
        if (i < end && s[seg] == '_' && s[seg + 1] == '_')
            continue; /* a library's own class: tile.shfl_down is cooperative_groups::
                         __static_size_thread_block_tile_base<16>::shfl_down */
        if (o)
            out[o++] = ':', out[o++] = ':';
        memcpy(out + o, s + seg, opl); /* operator<: its symbol as it is */
        o += opl;
        for (size_t k = seg + opl; k < segend; k++) {
            if (s[k] == '<') { /* template arguments of this part */
                for (depth = 0; k < segend; k++) {
                    depth += s[k] == '<' ? 1 : s[k] == '>' ? -1 : 0;
                    if (depth == 0)
                        break;
                }
                continue;
            }
            out[o++] = s[k];
        }
    }
    out[o] = '\0';
    free(d);
    return out;
}

static const char *
debug_name_of(const scan *sc, const char *label, size_t len)
{
    for (size_t i = 0; i < sc->nnames; i++)
        if (sc->names[i].len == len && !strncmp(sc->names[i].label, label, len))
            return sc->names[i].name;
    return NULL;
}

/* The first pass: .file lines, the .debug_str names, the student's files. */
static int
first_pass(scan *sc, const char *ptx, lab_err *err)
{
    lab_ptxmap *m = sc->m;
    bool in_str = false, entry_loc = false;
    char *bytes = NULL;
    size_t nbytes = 0, bytecap = 0;
    const char *label = NULL;
    size_t labellen = 0;
    int rc = 0;

    for (const char *line = ptx; *line;) {
        const char *end = line + strcspn(line, "\n"), *p = skip_blanks(line, end);
        size_t len = (size_t)(end - p);

        if (len > 6 && !strncmp(p, ".file", 5) && isspace((unsigned char)p[5])) {
            const char *q = p + 5, *quote;
            unsigned n = number(&q, end);
            if (n < MAX_FILES && (quote = memchr(q, '"', (size_t)(end - q)))) {
                const char *close = memchr(quote + 1, '"', (size_t)(end - quote - 1));
                if (close && !(m->files[n] = lab_arena_strndup(&m->arena, quote + 1,
                                                               (size_t)(close - quote - 1)))) {
                    rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
                    goto out;
                }
            }
        } else if (len >= 19 && !strncmp(p, ".section", 8) && memmem(p, len, ".debug_str", 10)) {
            in_str = true;
        } else if (in_str && *p == '}') {
            in_str = false;
        } else if (in_str && *p == '$' && end[-1] == ':') {
            label = p;
            labellen = (size_t)(end - 1 - p);
            nbytes = 0;
        } else if (in_str && label && !strncmp(p, ".b8", 3)) {
            for (const char *q = p + 3; q < end;) {
                unsigned v = number(&q, end);
                if (!grow((void **)&bytes, nbytes + 1, &bytecap, 1)) {
                    rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
                    goto out;
                }
                bytes[nbytes++] = (char)v;
                if (v == 0) { /* the string is whole */
                    debug_name *d;
                    if (!grow((void **)&sc->names, sc->nnames, &sc->namecap, sizeof(*d))) {
                        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
                        goto out;
                    }
                    d = &sc->names[sc->nnames++];
                    d->label = label;
                    d->len = labellen;
                    if (!(d->name = plain_name(&m->arena, bytes))) {
                        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
                        goto out;
                    }
                    label = NULL;
                    break;
                }
            }
        } else if (len > 6 && (memmem(p, len, ".entry ", 7) || memmem(p, len, ".entry\t", 7)) &&
                   *p == '.') {
            entry_loc = true;
        } else if (entry_loc && !strncmp(p, ".loc", 4) && isspace((unsigned char)p[4])) {
            const char *q = p + 4;
            unsigned f = number(&q, end);
            if (f < MAX_FILES)
                sc->student[f] = true;
            entry_loc = false;
        }
        line = *end ? end + 1 : end;
    }
out:
    free(bytes);
    return rc;
}

/* A function header: ".visible .entry NAME(", ".func (.param .b32 r) NAME(", ".extern .func
 * ..." (a declaration).  Its name goes in *name; false when the line is none. */
static bool
function_header(const char *p, const char *end, const char **name, size_t *len, bool *entry,
                bool *declared_only)
{
    static const char *const lead[] = { ".visible", ".weak", ".extern" };
    const char *q = p;
    int depth = 0;

    *declared_only = false;
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < ARRAY_SIZE(lead); i++) {
            size_t n = strlen(lead[i]);
            if ((size_t)(end - q) > n && !strncmp(q, lead[i], n) && isspace((unsigned char)q[n])) {
                *declared_only |= i == 2;
                q = skip_blanks(q + n, end);
                again = true;
            }
        }
    }
    if ((size_t)(end - q) > 6 && !strncmp(q, ".entry", 6) && isspace((unsigned char)q[6]))
        *entry = true;
    else if ((size_t)(end - q) > 5 && !strncmp(q, ".func", 5) &&
             (isspace((unsigned char)q[5]) || q[5] == '('))
        *entry = false;
    else
        return false;
    q = skip_blanks(q + (*entry ? 6 : 5), end);
    if (q < end && *q == '(') /* the return value's .param */
        for (; q < end; q++) {
            depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
            if (depth == 0) {
                q++;
                break;
            }
        }
    q = skip_blanks(q, end);
    *name = q;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
        q++;
    *len = (size_t)(q - *name);
    return *len > 0;
}

/* The .loc l joins the chain: a first .loc starts it anew; one inlined at a place the chain
 * holds replaces what came after that place. */
static void
chain_add(scan *sc, loc l)
{
    if (!l.inl_file) {
        sc->nchain = 0;
    } else {
        for (unsigned i = sc->nchain; i > 0; i--)
            if (sc->chain[i - 1].file == l.inl_file && sc->chain[i - 1].line == l.inl_line) {
                sc->nchain = i;
                break;
            }
    }
    if (sc->nchain < MAX_CHAIN)
        sc->chain[sc->nchain++] = l;
}

/* The student's line of the chain, and the function of another file it called */
static void
source_of(const scan *sc, lab_ptxmap_insn *in)
{
    in->file = in->line = 0;
    in->callee = NULL;
    for (unsigned i = sc->nchain; i > 0; i--) {
        const loc *l = &sc->chain[i - 1];
        if (l->inl_file && l->inl_file < MAX_FILES && sc->student[l->inl_file] &&
            !(l->file < MAX_FILES && sc->student[l->file]) && l->fn) {
            in->file = l->inl_file; /* the student's line called a function of a header */
            in->line = l->inl_line;
            in->callee = debug_name_of(sc, l->fn, l->fnlen);
            return;
        }
        if (l->file < MAX_FILES && sc->student[l->file]) {
            in->file = l->file;
            in->line = l->line;
            return;
        }
    }
}

static int
add_label(scan *sc, const char *name, size_t len, lab_err *err)
{
    lab_ptxmap *m = sc->m;

    if (sc->fn < 0)
        return 0;
    if (!grow((void **)&m->labels, m->nlabels, &sc->labelcap, sizeof(*m->labels)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    m->labels[m->nlabels++] =
        (lab_ptxmap_label){ name, len, (unsigned)sc->fn, (unsigned)m->ninsns };
    return 0;
}

/* The operand that a bra or call names: bra's label, call's function (skipping its
 * "(retval)"); NULL for a call through a register */
static void
target_of(lab_ptxmap_insn *in)
{
    const char *p = in->args, *end = in->args + in->argslen;
    bool call = lab_ptxmap_opcode_is_call(in->op, in->oplen);

    in->target = NULL;
    in->targetlen = 0;
    p = skip_blanks(p, end);
    if (call && p < end && *p == '(') { /* (retval0), */
        while (p < end && *p != ')')
            p++;
        p = skip_blanks(p + (p < end), end);
        if (p < end && *p == ',')
            p = skip_blanks(p + 1, end);
    }
    if (p < end && *p == '%')
        return; /* through a register */
    in->target = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
        p++;
    in->targetlen = (size_t)(p - in->target);
    if (!in->targetlen)
        in->target = NULL;
}

/* One statement of a function's body (no ';'): a label, a directive, or an instruction */
static int
statement(scan *sc, const char *p, const char *end, unsigned lineno, lab_err *err)
{
    lab_ptxmap *m = sc->m;
    lab_ptxmap_insn *in;
    const char *op;
    int rc;

    for (;;) {
        p = skip_blanks(p, end);
        while (p < end && (*p == '{' || *p == '}'))
            p = skip_blanks(p + 1, end);
        if (p >= end)
            return 0;
        /* a label: NAME: (an instruction may follow on the line) */
        const char *q = p;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
            q++;
        if (q > p && q < end && *q == ':') {
            if ((rc = add_label(sc, p, (size_t)(q - p), err)) < 0)
                return rc;
            p = q + 1;
            continue;
        }
        break;
    }
    if (*p == '.' || sc->fn < 0)
        return 0;    /* .reg, .local, .pragma ... */
    if (*p == '@') { /* a guard */
        while (p < end && !isspace((unsigned char)*p))
            p++;
        p = skip_blanks(p, end);
    }
    if (p >= end || !isalpha((unsigned char)*p))
        return 0;
    op = p;
    while (p < end && !isspace((unsigned char)*p))
        p++;
    if (!grow((void **)&m->insns, m->ninsns, &sc->insncap, sizeof(*m->insns)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    in = &m->insns[m->ninsns++];
    memset(in, 0, sizeof(*in));
    in->op = op;
    in->oplen = (size_t)(p - op);
    in->args = skip_blanks(p, end);
    if (!*end || *end == '\n') { /* "call.uni (retval0),\n _Z3fooi,\n (param0);": to the ';' */
        const char *semi = strchr(end, ';');
        if (semi) {
            sc->skip_to = semi + 1;
            end = semi;
        }
    }
    in->argslen = (size_t)(end - in->args);
    while (in->argslen && isspace((unsigned char)in->args[in->argslen - 1]))
        in->argslen--;
    in->ptx_line = lineno;
    in->func = (unsigned)sc->fn;
    in->inline_asm = sc->in_asm;
    source_of(sc, in);
    if (lab_ptxmap_opcode_is_call(in->op, in->oplen) ||
        (in->oplen >= 3 && !strncmp(in->op, "bra", 3) && (in->oplen == 3 || in->op[3] == '.')))
        target_of(in);
    m->funcs[sc->fn].count++;
    return 0;
}

/* The second pass: functions, statements, labels, the .loc chain. */
static int
second_pass(scan *sc, const char *ptx, lab_err *err)
{
    lab_ptxmap *m = sc->m;
    unsigned lineno = 0;
    int depth = 0, rc;
    long pending = -1;
    bool in_section = false;

    sc->fn = -1;
    for (const char *line = ptx; *line;) {
        const char *end = line + strcspn(line, "\n"), *p = skip_blanks(line, end), *stop;
        const char *comment = NULL, *name;
        size_t len;
        bool entry, declared_only;

        lineno++;
        for (const char *c = p; c + 1 < end; c++)
            if (c[0] == '/' && c[1] == '/') {
                comment = c;
                break;
            }
        if (comment && memmem(comment, (size_t)(end - comment), "begin inline asm", 16))
            sc->in_asm = true;
        else if (comment && memmem(comment, (size_t)(end - comment), "end inline asm", 14))
            sc->in_asm = false;
        stop = comment ? comment : end;
        if (depth == 0 && !strncmp(p, ".section", 8))
            in_section = true;
        if (depth == 0 && function_header(p, stop, &name, &len, &entry, &declared_only)) {
            lab_ptxmap_func *f;
            long known = lab_ptxmap_func_find(m, name, len);
            if (known < 0) {
                if (!grow((void **)&m->funcs, m->nfuncs, &sc->funccap, sizeof(*m->funcs)))
                    return lab_err_set(err, LAB_ENOMEM, "out of memory");
                f = &m->funcs[m->nfuncs];
                memset(f, 0, sizeof(*f));
                if (!(f->name = lab_arena_strndup(&m->arena, name, len)) ||
                    !(f->plain = plain_name(&m->arena, f->name)))
                    return lab_err_set(err, LAB_ENOMEM, "out of memory");
                known = (long)m->nfuncs++;
            }
            m->funcs[known].entry |= entry;
            pending = known;
        } else if (depth == 0 && *p == '{') {
            if (pending >= 0 && !in_section) {
                sc->fn = pending;
                m->funcs[pending].defined = true;
                m->funcs[pending].first = (unsigned)m->ninsns;
                m->funcs[pending].count = 0;
                sc->nchain = 0;
            }
            pending = -1;
        } else if (depth == 0 && (*p == ';' || (p < stop && stop[-1] == ';'))) {
            pending = -1; /* a declaration ends */
        } else if (sc->fn >= 0 && !strncmp(p, ".loc", 4) && isspace((unsigned char)p[4])) {
            chain_add(sc, parse_loc(p + 4, stop));
        } else if (sc->fn >= 0) {
            const char *s = sc->skip_to && sc->skip_to > p ? sc->skip_to : p;
            for (; s < stop;) { /* statements, one per ';' */
                const char *semi = memchr(s, ';', (size_t)(stop - s));
                const char *send = semi ? semi : comment ? stop : end;
                if ((rc = statement(sc, s, send, lineno, err)) < 0)
                    return rc;
                s = semi ? semi + 1 : stop;
            }
        }
        for (const char *c = p; c < stop; c++) {
            if (*c == '{')
                depth++;
            else if (*c == '}' && depth > 0 && --depth == 0) {
                sc->fn = -1;
                in_section = false;
            }
        }
        line = *end ? end + 1 : end;
    }
    return 0;
}

/* Functions whose address an instruction takes (mov.u64 %rd1, _Z3fooi; a launch's): a call
 * through a register may reach them */
static void
mark_address_taken(lab_ptxmap *m)
{
    for (size_t i = 0; i < m->ninsns; i++) {
        const lab_ptxmap_insn *in = &m->insns[i];
        const char *p = in->args, *end = in->args + in->argslen;
        if (lab_ptxmap_opcode_is_call(in->op, in->oplen))
            continue;
        while (p < end) {
            const char *w = p;
            long f;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
                p++;
            if (p > w && (f = lab_ptxmap_func_find(m, w, (size_t)(p - w))) >= 0)
                m->funcs[f].address_taken = true;
            if (p == w)
                p++;
        }
    }
}

int
lab_ptxmap_build(lab_ptxmap *m, const char *ptx, lab_err *err)
{
    scan sc = { .m = m, .fn = -1 };
    int rc;

    if ((rc = first_pass(&sc, ptx, err)) == 0 && (rc = second_pass(&sc, ptx, err)) == 0)
        mark_address_taken(m);
    free(sc.names);
    return rc;
}

bool
lab_ptxmap_opcode_is_call(const char *op, size_t oplen)
{
    return oplen >= 4 && !strncmp(op, "call", 4) && (oplen == 4 || op[4] == '.');
}

long
lab_ptxmap_func_find(const lab_ptxmap *m, const char *name, size_t len)
{
    for (size_t i = 0; i < m->nfuncs; i++)
        if (strlen(m->funcs[i].name) == len && !strncmp(m->funcs[i].name, name, len))
            return (long)i;
    return -1;
}

const lab_ptxmap_label *
lab_ptxmap_label_find(const lab_ptxmap *m, unsigned func, const char *name, size_t len)
{
    for (size_t i = 0; i < m->nlabels; i++)
        if (m->labels[i].func == func && m->labels[i].len == len &&
            !strncmp(m->labels[i].name, name, len))
            return &m->labels[i];
    return NULL;
}

void
lab_ptxmap_where(const lab_ptxmap *m, const lab_ptxmap_insn *in, char *buf, size_t len)
{
    const char *file = in->file && in->file < MAX_FILES ? m->files[in->file] : NULL;
    const char *base;

    if (file && in->line) {
        base = strrchr(file, '/');
        snprintf(buf, len, "%s:%u", base ? base + 1 : file, in->line);
    } else {
        snprintf(buf, len, _("PTX line %u"), in->ptx_line);
    }
}
