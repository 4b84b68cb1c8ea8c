/*
 * strvec.c - lab_strvec (see strvec.h).
 */
#include "lab/util/strvec.h"
#include "lab/util/buf.h"
#include "lab/util/err.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int
push_owned(lab_strvec *sv, char *s)
{
    if (!s)
        return LAB_ENOMEM;
    if (sv->n + 2 > sv->alloc) {
        size_t alloc = sv->alloc ? sv->alloc * 2 : 8;
        char **v = realloc(sv->v, alloc * sizeof(*v));
        if (!v) {
            free(s);
            return LAB_ENOMEM;
        }
        sv->v = v;
        sv->alloc = alloc;
    }
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
    return 0;
}

int
lab_strvec_push(lab_strvec *sv, const char *s)
{
    return push_owned(sv, strdup(s));
}

int
lab_strvec_pushf(lab_strvec *sv, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = lab_vformat(fmt, ap);
    va_end(ap);
    return push_owned(sv, s);
}

int
lab_strvec_pushl(lab_strvec *sv, ...)
{
    const char *s;
    va_list ap;
    int rc = 0;

    va_start(ap, sv);
    while ((s = va_arg(ap, const char *)))
        if ((rc = lab_strvec_push(sv, s)) < 0)
            break;
    va_end(ap);
    return rc;
}

int
lab_strvec_pushv(lab_strvec *sv, const char *const *v)
{
    int rc;

    for (; v && *v; v++)
        if ((rc = lab_strvec_push(sv, *v)) < 0)
            return rc;
    return 0;
}

void
lab_strvec_release(lab_strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->alloc = 0;
}
