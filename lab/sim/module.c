/*
 * module.c - loading a PTX module and looking up its kernels and variables
 * (see sim.h).  The module's pieces live in its arena; its __device__
 * variables are allocations of the device that loaded it.
 */
#include "lab/sim/internal.h"

#include <stdlib.h>
#include <string.h>

/* PTX is text; a cubin (ELF) starts with 0x7f and holds NULs */
static bool
is_text(const char *text, size_t len)
{
    for (size_t i = 0; i < len && i < 4096; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return false;
    }
    return true;
}

int
lab_sim_load(lab_sim *s, const char *text, size_t len, const char *path, lab_sim_module **out,
             lab_err *err)
{
    lab_sim_module *m = calloc(1, sizeof(*m));
    int rc;

    *out = NULL;
    if (!m)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    lab_arena_init(&m->arena);
    m->sim = s;
    while (len > 0 && text[len - 1] == '\0')
        len--;
    if (!(m->path = lab_arena_strdup(&m->arena, path ? path : "<ptx>"))) {
        lab_sim_module_free(m);
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    if (!is_text(text, len)) {
        lab_sim_module_free(m);
        return lab_err_set(err, LAB_EPARSE,
                           "'%s' is not PTX text (a cubin?): the simulator "
                           "needs the PTX",
                           path ? path : "<ptx>");
    }
    if ((rc = lab_sim__parse(m, text, len, err)) < 0 ||
        (m->uses_heap && (rc = lab_sim__heap_init(s, err)) < 0) ||
        (s->branch_counts && (rc = lab_sim__branch_counts_init(m, err)) < 0)) {
        lab_sim_module_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

void
lab_sim_module_free(lab_sim_module *m)
{
    if (!m)
        return;
    lab_arena_release(&m->arena);
    free(m->branch_counts);
    free(m->fnames);
    free(m->fdefs);
    free(m);
}

const sim_func *
lab_sim__entry(const lab_sim_module *m, const char *name)
{
    for (const sim_func *f = m->funcs; f; f = f->next)
        if (f->entry && !strcmp(f->name, name))
            return f;
    return NULL;
}

bool
lab_sim_has_kernel(const lab_sim_module *m, const char *name)
{
    return lab_sim__entry(m, name) != NULL;
}

const char *
lab_sim_kernel_name(const lab_sim_module *m, size_t i)
{
    for (const sim_func *f = m->funcs; f; f = f->next)
        if (f->entry && i-- == 0)
            return f->name;
    return NULL;
}

int
lab_sim_symbol(lab_sim_module *m, const char *name, uint64_t *out, size_t *bytes, lab_err *err)
{
    for (const sim_gvar *g = m->gvars; g; g = g->next)
        if (g->space == SP_GLOBAL && !strcmp(g->name, name)) {
            *out = g->addr;
            if (bytes)
                *bytes = g->size;
            return 0;
        }
    return lab_err_set(err, LAB_ENOENT, "'%s' has no __device__ variable '%s'", m->path, name);
}
