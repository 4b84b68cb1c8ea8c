/*
 * sass.c - SASS and PTX listings and their marks (see sass.h).
 *
 * One table says which opcodes carry which mark, for SASS (upper case) and
 * PTX (lower case) alike; the first row that matches wins, so atomics and
 * local accesses are named before the strong-scope rule sees them.
 */
#include "lab/build/sass.h"
#include "lab/util/buf.h"
#include "lab/platform/proc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const lab_mark_info lab_marks[LAB_MARK_COUNT] = {
    [LAB_MARK_NONE] = { "none", "" },
    [LAB_MARK_BRANCH] = { "branch", "jump" },
    [LAB_MARK_COND_BRANCH] = { "cond-branch", "branch: the warp may diverge here" },
    [LAB_MARK_SELECT] = { "select", "select: both sides computed, no branch" },
    [LAB_MARK_BARRIER] = { "barrier", "barrier (__syncthreads)" },
    [LAB_MARK_WARPSYNC] = { "warpsync", "warp barrier (__syncwarp)" },
    [LAB_MARK_VECTOR] = { "vector", "vector access: 128 bits in one instruction" },
    [LAB_MARK_STRONG_SYS] = { "strong-sys", "strong system-scope access (volatile): skips L1" },
    [LAB_MARK_LOCAL] = { "local", "local memory (spill or per-thread array)" },
    [LAB_MARK_ATOMIC] = { "atomic", "atomic" },
    [LAB_MARK_SHUFFLE] = { "shuffle", "warp shuffle" },
};

typedef enum match { WORD, CONTAINS } match;

static const struct rule {
    const char *s;
    match how; /* WORD: the opcode is s or starts with "s." */
    lab_mark mark;
} rules[] = {
    { "ATOM", WORD, LAB_MARK_ATOMIC },
    { "ATOMG", WORD, LAB_MARK_ATOMIC },
    { "ATOMS", WORD, LAB_MARK_ATOMIC },
    { "RED", WORD, LAB_MARK_ATOMIC },
    { "REDG", WORD, LAB_MARK_ATOMIC },
    { "atom", WORD, LAB_MARK_ATOMIC },
    { "red", WORD, LAB_MARK_ATOMIC },
    { "LDL", WORD, LAB_MARK_LOCAL },
    { "STL", WORD, LAB_MARK_LOCAL },
    { "ld.local", WORD, LAB_MARK_LOCAL },
    { "st.local", WORD, LAB_MARK_LOCAL },
    { ".STRONG.SYS", CONTAINS, LAB_MARK_STRONG_SYS },
    { "ld.volatile", WORD, LAB_MARK_STRONG_SYS },
    { "st.volatile", WORD, LAB_MARK_STRONG_SYS },
    { "SHFL", WORD, LAB_MARK_SHUFFLE },
    { "shfl", WORD, LAB_MARK_SHUFFLE },
    { "WARPSYNC", WORD, LAB_MARK_WARPSYNC },
    { "bar.warp", WORD, LAB_MARK_WARPSYNC },
    { "BAR", WORD, LAB_MARK_BARRIER },
    { "bar", WORD, LAB_MARK_BARRIER },
    { "barrier", WORD, LAB_MARK_BARRIER },
    { ".128", CONTAINS, LAB_MARK_VECTOR },
    { ".v4", CONTAINS, LAB_MARK_VECTOR },
    { ".v2", CONTAINS, LAB_MARK_VECTOR },
    { "BRA", WORD, LAB_MARK_BRANCH },
    { "BRX", WORD, LAB_MARK_BRANCH },
    { "JMP", WORD, LAB_MARK_BRANCH },
    { "JMX", WORD, LAB_MARK_BRANCH },
    { "bra", WORD, LAB_MARK_BRANCH },
    { "brx", WORD, LAB_MARK_BRANCH },
    { "SEL", WORD, LAB_MARK_SELECT },
    { "FSEL", WORD, LAB_MARK_SELECT },
    { "USEL", WORD, LAB_MARK_SELECT },
    { "selp", WORD, LAB_MARK_SELECT },
};

static lab_mark
classify(const char *op, bool predicated)
{
    for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
        const struct rule *r = &rules[i];
        size_t n = strlen(r->s);
        bool hit = r->how == CONTAINS ? strstr(op, r->s) != NULL
                                      : !strncmp(op, r->s, n) && (!op[n] || op[n] == '.');
        if (hit) {
            /* vector marks only loads and stores */
            if (r->mark == LAB_MARK_VECTOR && !strchr("LSls", op[0]))
                continue;
            if (r->mark == LAB_MARK_BRANCH && predicated)
                return LAB_MARK_COND_BRANCH;
            return r->mark;
        }
    }
    return LAB_MARK_NONE;
}

static const char *
intern_file(lab_listing *l, const char *path, size_t len, lab_err *err)
{
    char **v;

    for (size_t i = 0; i < l->nfiles; i++)
        if (strlen(l->files[i]) == len && !strncmp(l->files[i], path, len))
            return l->files[i];
    if (!(v = realloc(l->files, (l->nfiles + 1) * sizeof(*v))) ||
        !((l->files = v)[l->nfiles] = strndup(path, len))) {
        lab_err_set(err, LAB_ENOMEM, "out of memory");
        return NULL;
    }
    return l->files[l->nfiles++];
}

/* Appends one instruction: text is "[@P] OPCODE operands", without ';'. */
static int
add_insn(lab_listing *l, const char *function, const char *text, size_t len, long offset,
         const char *file, int line, lab_err *err)
{
    lab_insn *v, *in;
    const char *op = text;

    if (!(v = realloc(l->v, (l->n + 1) * sizeof(*v))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    l->v = v;
    in = memset(&l->v[l->n], 0, sizeof(*in));
    in->offset = offset;
    in->file = file;
    in->line = line;
    in->predicated = *text == '@';
    if (in->predicated)
        op += strcspn(op, " \t"), op += strspn(op, " \t");
    in->function = strdup(function ? function : "");
    in->text = strndup(text, len);
    in->opcode = strndup(op, strcspn(op, " \t;"));
    if (!in->function || !in->text || !in->opcode) {
        free(in->function);
        free(in->text);
        free(in->opcode);
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    in->mark = classify(in->opcode, in->predicated);
    l->n++;
    return 0;
}

/* The next line of *text copied into cur (NUL-terminated: strstr stays inside it); false at the
 * end. */
static bool
next_line(const char **text, lab_buf *cur)
{
    const char *t = *text, *end;
    size_t len;

    if (!t || !*t)
        return false;
    end = strchr(t, '\n');
    len = end ? (size_t)(end - t) : strlen(t);
    lab_buf_reset(cur);
    lab_buf_add(cur, t, len);
    *text = end ? end + 1 : NULL;
    return true;
}

static size_t
trim_len(const char *s, size_t len)
{
    while (len && (isspace((unsigned char)s[len - 1]) || s[len - 1] == ';'))
        len--;
    return len;
}

int
lab_sass_parse(const char *text, lab_listing *out, lab_err *err)
{
    lab_buf fn = LAB_BUF_INIT, label = LAB_BUF_INIT, cur = LAB_BUF_INIT;
    const char *line = text, *file = NULL;
    int lineno = 0, rc = 0;

    memset(out, 0, sizeof(*out));
    while (rc == 0 && next_line(&line, &cur)) {
        const char *p, *s = cur.buf;

        s += strspn(s, " \t");
        if (!strncmp(s, "//----", 6) && (p = strstr(s, ".text."))) {
            lab_buf_reset(&fn);
            lab_buf_add(&fn, p + 6, strcspn(p + 6, " \n"));
            file = NULL;
            lineno = 0;
        } else if (!strncmp(s, "//## File \"", 11)) {
            size_t flen = strcspn(s + 11, "\"");
            const char *ln = strstr(s + 11 + flen, ", line ");
            if (!(file = intern_file(out, s + 11, flen, err)))
                rc = err->code;
            lineno = ln ? atoi(ln + 7) : 0;
        } else if (s[0] == '.' && (p = strchr(s, ':')) && p[1] != ':') {
            lab_buf_reset(&label);
            lab_buf_add(&label, s, (size_t)(p - s));
        } else if (!strncmp(s, "/*", 2) && isxdigit((unsigned char)s[2]) && (p = strstr(s, "*/"))) {
            long off = strtol(s + 2, NULL, 16);
            const char *ins = p + 2;
            size_t ilen;
            ins += strspn(ins, " \t");
            ilen = trim_len(ins, strcspn(ins, ";"));
            if (!strncmp(ins, "NOP", 3) && ilen == 3)
                continue;
            /* the endless "L: BRA L" that pads every function's end */
            if (label.len && !strncmp(ins, "BRA", 3) && strstr(ins, label.buf)) {
                lab_buf_reset(&label);
                continue;
            }
            lab_buf_reset(&label);
            rc = add_insn(out, fn.buf, ins, ilen, off, file, lineno, err);
        }
    }
    lab_buf_release(&fn);
    lab_buf_release(&label);
    lab_buf_release(&cur);
    if (rc < 0)
        lab_listing_release(out);
    return rc;
}

/* The ".file N \"path\"" table; nvcc puts it at the end of the PTX. */
static int
ptx_files(const char *ptx, lab_listing *out, const char **files, size_t nfiles, lab_err *err)
{
    lab_buf cur = LAB_BUF_INIT;
    int rc = 0;

    while (rc == 0 && next_line(&ptx, &cur)) {
        const char *s = cur.buf + strspn(cur.buf, " \t");
        int idx, n = 0;

        if (sscanf(s, ".file %d \"%n", &idx, &n) == 1 && n && idx >= 0 && (size_t)idx < nfiles &&
            !(files[idx] = intern_file(out, s + n, strcspn(s + n, "\""), err)))
            rc = err->code;
    }
    lab_buf_release(&cur);
    return rc;
}

int
lab_ptx_listing_parse(const char *ptx, lab_listing *out, lab_err *err)
{
    lab_buf fn = LAB_BUF_INIT, cur = LAB_BUF_INIT;
    const char *line = ptx, *files[64] = { 0 }, *file = NULL;
    int lineno = 0, rc;

    memset(out, 0, sizeof(*out));
    rc = ptx_files(ptx, out, files, ARRAY_SIZE(files), err);
    while (rc == 0 && next_line(&line, &cur)) {
        const char *s = cur.buf + strspn(cur.buf, " \t"), *p;
        size_t len = trim_len(s, strlen(s));
        int idx, ln;

        if (sscanf(s, ".loc %d %d", &idx, &ln) == 2) {
            file = idx >= 0 && idx < 64 ? files[idx] : NULL;
            lineno = ln;
        } else if ((p = strstr(s, ".entry ")) || (p = strstr(s, ".func "))) {
            p = strchr(p, ' ') + 1;
            if (*p == '(') /* .func (.param .b32 ret) name( */
                p = strchr(p, ')') ? strchr(p, ')') + 1 : p, p += strspn(p, " ");
            lab_buf_reset(&fn);
            lab_buf_add(&fn, p, strcspn(p, "( "));
        } else if (len && fn.len && strchr("abcdefghijklmnopqrstuvwxyz@", s[0]) && s[len] == ';') {
            rc = add_insn(out, fn.buf, s, len, -1, file, lineno, err);
        }
    }
    lab_buf_release(&fn);
    lab_buf_release(&cur);
    if (rc < 0)
        lab_listing_release(out);
    return rc;
}

void
lab_listing_release(lab_listing *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].function);
        free(l->v[i].text);
        free(l->v[i].opcode);
    }
    for (size_t i = 0; i < l->nfiles; i++)
        free(l->files[i]);
    free(l->v);
    free(l->files);
    memset(l, 0, sizeof(*l));
}

void
lab_listing_mix(const lab_listing *l, const char *function, lab_mix *out)
{
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < l->n; i++) {
        if (function && strcmp(l->v[i].function, function))
            continue;
        out->total++;
        out->marks[l->v[i].mark]++;
    }
}

int
lab_sass_disassemble(const char *nvdisasm, const char *cubin, char **out, lab_err *err)
{
    lab_proc p;
    int rc;

    lab_proc_init(&p);
    p.timeout_s = 60;
    p.output_cap = 64 << 20;
    if ((rc = lab_strvec_pushl(&p.argv, nvdisasm, "-g", "-c", cubin, NULL)) < 0 ||
        (rc = lab_proc_run(&p, err)) < 0)
        goto out;
    if (!p.exited || p.exit_code != 0) {
        char how[128];
        rc = lab_err_set(err, LAB_ETOOL, "'%s' on '%s' %s: %.200s", nvdisasm, cubin,
                         lab_proc_describe(&p, how, sizeof(how)), p.errout.buf);
        goto out;
    }
    *out = lab_buf_detach(&p.out);
out:
    lab_proc_release(&p);
    return rc;
}
