/*
 * resusage.c - reading ptxas -v output (see resusage.h).  One pass over the
 * lines: "Compiling entry function" and "Function properties for" name the
 * function the following lines describe.
 */
#include "lab/build/resusage.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lab_funcres *
get(lab_resusage *r, const char *name, size_t len, lab_err *err)
{
    lab_funcres *v;

    for (size_t i = 0; i < r->n; i++)
        if (strlen(r->v[i].name) == len && !strncmp(r->v[i].name, name, len))
            return &r->v[i];
    if (!(v = realloc(r->v, (r->n + 1) * sizeof(*v)))) {
        lab_err_set(err, LAB_ENOMEM, "out of memory");
        return NULL;
    }
    r->v = v;
    v = &r->v[r->n];
    memset(v, 0, sizeof(*v));
    v->regs = -1;
    v->cmem0 = -1;
    if (!(v->name = strndup(name, len))) {
        lab_err_set(err, LAB_ENOMEM, "out of memory");
        return NULL;
    }
    r->n++;
    return v;
}

/* sscanf with the whole pattern matched: a number alone is no match. */
static bool
item_is(const char *item, const char *fmt, long *n)
{
    int k = 0;

    return sscanf(item, fmt, n, &k) == 1 && k > 0;
}

/* One comma-separated item of a "Used" line. */
static void
used_item(lab_funcres *f, const char *item)
{
    long n;

    while (isspace((unsigned char)*item))
        item++;
    if (item_is(item, "Used %ld registers%n", &n) || item_is(item, "used %ld registers%n", &n))
        f->regs = (int)n;
    else if (item_is(item, "used %ld barriers%n", &n))
        f->barriers = (int)n;
    else if (item_is(item, "%ld bytes cumulative stack size%n", &n))
        f->cumulative_stack = n;
    else if (item_is(item, "%ld bytes smem%n", &n))
        f->smem = n;
    else if (item_is(item, "%ld bytes cmem[0]%n", &n))
        f->cmem0 = n;
}

static void
used_line(lab_funcres *f, const char *line)
{
    char buf[1024];
    char *save = NULL;

    snprintf(buf, sizeof(buf), "%.1000s", line);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        used_item(f, tok);
}

/* The quoted or bare name after prefix in line; its length in *len. */
static const char *
name_after(const char *line, const char *prefix, size_t *len)
{
    const char *p = strstr(line, prefix);

    if (!p)
        return NULL;
    p += strlen(prefix);
    if (*p == '\'') {
        p++;
        *len = strcspn(p, "'");
    } else {
        *len = strcspn(p, " \t\r\n");
    }
    return *len ? p : NULL;
}

int
lab_resusage_parse(const char *text, lab_resusage *out, lab_err *err)
{
    lab_funcres *entry = NULL, *props = NULL;
    const char *line = text;

    out->v = NULL;
    out->n = 0;
    while (line && *line) {
        const char *end = strchr(line, '\n'), *name, *body;
        size_t len = end ? (size_t)(end - line) : strlen(line), nlen;
        char buf[1024];
        long st, ss, sl;

        snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
        line = end ? end + 1 : NULL;
        body = strstr(buf, "info    :") ? strchr(buf, ':') + 1 : buf;
        while (isspace((unsigned char)*body))
            body++;
        if ((name = name_after(body, "Compiling entry function ", &nlen))) {
            const char *arch = strstr(name + nlen, "for '");
            if (!(entry = get(out, name, nlen, err)))
                goto fail;
            entry->entry = true;
            if (arch)
                snprintf(entry->arch, sizeof(entry->arch), "%.*s", (int)strcspn(arch + 5, "'"),
                         arch + 5);
            props = NULL;
        } else if ((name = name_after(body, "Function properties for ", &nlen))) {
            if (!(props = get(out, name, nlen, err)))
                goto fail;
        } else if (sscanf(body,
                          "%ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
                          &st, &ss, &sl) == 3) {
            if (props) {
                props->stack_frame = st;
                props->spill_stores = ss;
                props->spill_loads = sl;
            }
        } else if (!strncmp(body, "Used ", 5)) {
            lab_funcres *f = props && !props->entry ? props : entry;
            if (f)
                used_line(f, body);
        }
    }
    return 0;
fail:
    lab_resusage_release(out);
    return err->code;
}

const lab_funcres *
lab_resusage_find(const lab_resusage *r, const char *mangled)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].name, mangled))
            return &r->v[i];
    return NULL;
}

void
lab_resusage_release(lab_resusage *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].name);
    free(r->v);
    r->v = NULL;
    r->n = 0;
}
