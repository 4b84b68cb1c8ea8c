/*
 * numbers.c - the table of the course's figures and the {{name}} texts that quote them (see
 * numbers.h).  The table is read with libinih (inifile.h); its figures are kept sorted by
 * key in one array, their strings in one arena.
 */
#include "lab/util/numbers.h"
#include "lab/util/arena.h"
#include "lab/util/inifile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a section says about all its figures. */
struct section {
    const char *name;
    const char *about[3]; /* source, gpu, date */
    int line;             /* its first key's */
};

static const char *const about_keys[3] = { "source", "gpu", "date" };

struct lab_numbers {
    lab_arena arena;
    lab_number *v; /* sorted by key once loaded */
    size_t n, alloc;
    struct section *sections;
    size_t nsections, sections_alloc;
};

struct load {
    lab_inifile ini; /* first: the handler finds the line through it */
    lab_numbers *t;
    const char *path;
    lab_err *err;
    int rc;
};

static bool
is_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' && *s != '.')
            return false;
    return true;
}

static int fail(struct load *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The error "path:line: message" for the key being read; 0, which stops libinih. */
static int
fail(struct load *ld, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = lab_vformat(fmt, ap);
    va_end(ap);
    if (!msg)
        ld->rc = lab_err_set(ld->err, LAB_ENOMEM, "out of memory");
    else
        ld->rc = lab_err_set(ld->err, LAB_EPARSE, "%s:%d: %s", ld->path, ld->ini.line, msg);
    free(msg);
    return 0;
}

static struct section *
section_of(struct load *ld, const char *name)
{
    lab_numbers *t = ld->t;

    if (t->nsections && !strcmp(t->sections[t->nsections - 1].name, name))
        return &t->sections[t->nsections - 1];
    for (size_t i = 0; i < t->nsections; i++)
        if (!strcmp(t->sections[i].name, name))
            return &t->sections[i];
    if (t->nsections == t->sections_alloc) {
        size_t alloc = t->sections_alloc ? 2 * t->sections_alloc : 16;
        struct section *v = realloc(t->sections, alloc * sizeof(*v));
        if (!v)
            return NULL;
        t->sections = v;
        t->sections_alloc = alloc;
    }
    struct section *s = &t->sections[t->nsections++];
    memset(s, 0, sizeof(*s));
    s->line = ld->ini.line;
    if (!(s->name = lab_arena_strdup(&t->arena, name)))
        return NULL;
    return s;
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
    struct load *ld = user;
    lab_numbers *t = ld->t;
    struct section *s;
    lab_number *f;

    if (!*section)
        return fail(ld, "'%s' is outside a section: a figure belongs to a source", name);
    if (!is_name(section))
        return fail(ld, "section [%s]: a name is lower-case letters, digits, '_' and '.'", section);
    if (!(s = section_of(ld, section))) {
        ld->rc = lab_err_set(ld->err, LAB_ENOMEM, "out of memory");
        return 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(about_keys); i++) {
        if (strcmp(name, about_keys[i]))
            continue;
        if (s->about[i])
            return fail(ld, "'%s' given twice in this section", name);
        if (!*value)
            return fail(ld, "'%s' is empty", name);
        if (!(s->about[i] = lab_arena_strdup(&t->arena, value))) {
            ld->rc = lab_err_set(ld->err, LAB_ENOMEM, "out of memory");
            return 0;
        }
        return 1;
    }
    if (!strcmp(name, "about"))
        return 1;
    if (!is_name(name))
        return fail(ld, "'%s': a figure's name is lower-case letters, digits, '_' and '.'", name);
    if (!strpbrk(value, "0123456789"))
        return fail(ld, "'%s' has no figure: a value is a number as the texts show it", name);
    if (strstr(value, "{{"))
        return fail(ld, "'%s': a value cannot quote another figure", name);
    if (t->n == t->alloc) {
        size_t alloc = t->alloc ? 2 * t->alloc : 64;
        lab_number *v = realloc(t->v, alloc * sizeof(*v));
        if (!v) {
            ld->rc = lab_err_set(ld->err, LAB_ENOMEM, "out of memory");
            return 0;
        }
        t->v = v;
        t->alloc = alloc;
    }
    f = &t->v[t->n];
    memset(f, 0, sizeof(*f));
    f->line = ld->ini.line;
    size_t klen = strlen(section) + 1 + strlen(name);
    char *key = lab_arena_alloc(&t->arena, klen + 1);
    if (!key || !(f->value = lab_arena_strdup(&t->arena, value))) {
        ld->rc = lab_err_set(ld->err, LAB_ENOMEM, "out of memory");
        return 0;
    }
    snprintf(key, klen + 1, "%s.%s", section, name);
    f->key = key;
    f->source = s->name; /* the section, until every section is read */
    t->n++;
    return 1;
}

static int
by_key(const void *a, const void *b)
{
    return strcmp(((const lab_number *)a)->key, ((const lab_number *)b)->key);
}

/* Every figure gets its section's source, gpu and date; a section lacking one is an error. */
static int
finish(struct load *ld)
{
    lab_numbers *t = ld->t;

    for (size_t i = 0; i < t->nsections; i++) {
        const struct section *s = &t->sections[i];
        for (size_t k = 0; k < ARRAY_SIZE(about_keys); k++)
            if (!s->about[k])
                return lab_err_set(ld->err, LAB_EPARSE,
                                   "%s:%d: section [%s] has no '%s': every figure says where, "
                                   "on what and when it was measured",
                                   ld->path, s->line, s->name, about_keys[k]);
    }
    for (size_t i = 0; i < t->n; i++) {
        lab_number *f = &t->v[i];
        const struct section *s = section_of(ld, f->source);
        f->source = s->about[0];
        f->gpu = s->about[1];
        f->date = s->about[2];
    }
    qsort(t->v, t->n, sizeof(*t->v), by_key);
    for (size_t i = 1; i < t->n; i++)
        if (!strcmp(t->v[i - 1].key, t->v[i].key)) {
            const lab_number *later = t->v[i - 1].line > t->v[i].line ? &t->v[i - 1] : &t->v[i];
            return lab_err_set(ld->err, LAB_EPARSE, "%s:%d: '%s' is in the table twice", ld->path,
                               later->line, later->key);
        }
    return 0;
}

int
lab_numbers_load(const char *path, lab_numbers **out, lab_err *err)
{
    struct load ld = { .path = path, .err = err };
    int rc;

    *out = NULL;
    if (!(ld.t = calloc(1, sizeof(*ld.t))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    lab_arena_init(&ld.t->arena);
    rc = lab_inifile_parse(path, &ld.ini, on_key, &ld, err);
    if (rc < 0)
        goto out;
    if (ld.rc < 0) {
        rc = ld.rc;
        goto out;
    }
    if (rc > 0) {
        rc = lab_err_set(err, LAB_EPARSE, "%s:%d: not a line of an INI file", path, rc);
        goto out;
    }
    if ((rc = finish(&ld)) < 0)
        goto out;
    *out = ld.t;
    ld.t = NULL;
out:
    lab_numbers_free(ld.t);
    return rc;
}

void
lab_numbers_free(lab_numbers *n)
{
    if (!n)
        return;
    free(n->v);
    free(n->sections);
    lab_arena_release(&n->arena);
    free(n);
}

size_t
lab_numbers_count(const lab_numbers *n)
{
    return n ? n->n : 0;
}

const lab_number *
lab_numbers_at(const lab_numbers *n, size_t i)
{
    return n && i < n->n ? &n->v[i] : NULL;
}

const lab_number *
lab_numbers_find(const lab_numbers *n, const char *key)
{
    lab_number probe = { .key = key };

    if (!n || !n->n)
        return NULL;
    return bsearch(&probe, n->v, n->n, sizeof(*n->v), by_key);
}

bool
lab_numbers_double(const lab_numbers *n, const char *key, double *out)
{
    const lab_number *f = lab_numbers_find(n, key);
    char digits[64];
    size_t len = 0;

    if (!f)
        return false;
    for (const char *p = f->value; *p; p++) {
        if (*p == ' ')
            continue;
        if (len + 1 == sizeof(digits))
            return false;
        digits[len++] = *p;
    }
    digits[len] = '\0';
    return lab_inifile_number(digits, out);
}

bool
lab_numbers_quoted(const char *text, size_t len)
{
    return len >= 2 && memmem(text, len, "{{", 2) != NULL;
}

static int
line_at(const char *text, const char *p)
{
    int line = 1;

    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

int
lab_numbers_expand(const lab_numbers *n, const char *text, size_t len, const char *what,
                   lab_numbers_more more, void *ctx, lab_buf *out, lab_err *err)
{
    const char *p = text, *end = text + len;
    char name[128], value[64];
    int rc;

    while (p < end) {
        const char *open = memmem(p, (size_t)(end - p), "{{", 2), *close, *q;
        const char *v = NULL;
        size_t nlen;

        if (!open)
            return lab_buf_add(out, p, (size_t)(end - p));
        if ((rc = lab_buf_add(out, p, (size_t)(open - p))) < 0)
            return rc;
        q = open + 2;
        close = memmem(q, (size_t)(end - q), "}}", 2);
        nlen = close ? (size_t)(close - q) : 0;
        if (!close || nlen == 0 || nlen >= sizeof(name) || memchr(q, '\n', nlen))
            return lab_err_set(err, LAB_EPARSE,
                               "%s:%d: '{{' starts no figure's name: write {{name}}, a name of "
                               "docs/numbers.ini",
                               what, line_at(text, open));
        memcpy(name, q, nlen);
        name[nlen] = '\0';
        const lab_number *f = lab_numbers_find(n, name);
        if (f)
            v = f->value;
        else if (more)
            v = more(ctx, name, value, sizeof(value));
        if (!v)
            return lab_err_set(err, LAB_EPARSE,
                               "%s:%d: unknown figure '%s' (not in docs/numbers.ini)", what,
                               line_at(text, open), name);
        if ((rc = lab_buf_adds(out, v)) < 0)
            return rc;
        p = close + 2;
    }
    return 0;
}
