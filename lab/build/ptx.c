/*
 * ptx.c - entries, variables and special-register reads read off PTX text (see ptx.h).
 */
#include "lab/build/ptx.h"

#include "lab/build/rules.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* From libstdc++ (the Itanium C++ ABI); used for messages only. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

/* Calls fn for each ".entry NAME" in ptx; stops when fn returns nonzero. */
static int
each_entry(const char *ptx, int (*fn)(const char *name, size_t len, void *arg), void *arg)
{
    const char *p = ptx;

    while ((p = strstr(p, ".entry"))) {
        const char *q = p + 6, *name;
        int rc;
        p = q;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        name = q;
        while (*q && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
            q++;
        if (q > name && (rc = fn(name, (size_t)(q - name), arg)))
            return rc;
    }
    return 0;
}

static int
match_entry(const char *name, size_t len, void *arg)
{
    const char *want = arg;

    return strlen(want) == len && !strncmp(name, want, len);
}

/* The next line of *p that is code: not empty, no comment, no .file or .loc mark, nothing of a
 * debug section (-lineinfo's .debug_str names inlined functions with a hash of the file's
 * path); its start and end (comments and trailing white space cut), *p moved past it.  false
 * at the end. */
static bool
next_code_line(const char **p, const char **start, const char **end)
{
    bool in_debug = false;

    while (**p) {
        const char *s = *p + strspn(*p, " \t"), *e = s + strcspn(s, "\n"), *c;
        *p = *e ? e + 1 : e;
        if ((c = memmem(s, (size_t)(e - s), "//", 2)))
            e = c;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (!strncmp(s, ".section", 8) && memmem(s, (size_t)(e - s), ".debug", 6))
            in_debug = true;
        else if (in_debug && e - s == 1 && *s == '}')
            in_debug = false;
        else if (!in_debug && e > s && strncmp(s, ".file", 5) && strncmp(s, ".loc", 4)) {
            *start = s;
            *end = e;
            return true;
        }
    }
    return false;
}

/* Do the lines [sa, ea) and [sb, eb) read the same once each entry name counts as one? */
static bool
same_line(const char *sa, const char *ea, const char *entry_a, const char *sb, const char *eb,
          const char *entry_b)
{
    const size_t na = strlen(entry_a), nb = strlen(entry_b);

    while (sa < ea && sb < eb) {
        bool at_a = na && (size_t)(ea - sa) >= na && !memcmp(sa, entry_a, na);
        bool at_b = nb && (size_t)(eb - sb) >= nb && !memcmp(sb, entry_b, nb);
        if (at_a != at_b)
            return false;
        if (at_a) {
            sa += na;
            sb += nb;
        } else if (*sa++ != *sb++) {
            return false;
        }
    }
    return sa == ea && sb == eb;
}

bool
lab_ptx_same_code(const char *a, const char *entry_a, const char *b, const char *entry_b)
{
    const char *sa, *ea, *sb, *eb;
    bool more_a, more_b;

    for (;;) {
        more_a = next_code_line(&a, &sa, &ea);
        more_b = next_code_line(&b, &sb, &eb);
        if (!more_a || !more_b)
            return more_a == more_b;
        if (!same_line(sa, ea, entry_a, sb, eb, entry_b))
            return false;
    }
}

bool
lab_ptx_has_entry(const char *ptx, const char *mangled)
{
    return each_entry(ptx, match_entry, (void *)mangled) != 0;
}

/* The value after "= " up to ";" on a definition's line, when it is a whole number; else 0. */
static unsigned long
initializer(const char *after, const char *end)
{
    const char *eq = memchr(after, '=', (size_t)(end - after));
    unsigned long v;
    char *stop;

    if (!eq)
        return 0;
    eq += 1 + strspn(eq + 1, " \t");
    v = strtoul(eq, &stop, 0);
    return stop > eq && stop < end && *stop == ';' ? v : 0;
}

bool
lab_ptx_global(const char *ptx, const char *name, unsigned long *value)
{
    size_t n = strlen(name);

    for (const char *line = ptx; *line;) {
        const char *p = line + strspn(line, " \t"), *end = p + strcspn(p, "\n"), *w = p;
        if (!strncmp(p, ".visible", 8))
            p += 8 + strspn(p + 8, " \t");
        if (!strncmp(p, ".global", 7) && isspace((unsigned char)p[7]))
            for (w = p; (w = strstr(w, name)) && w < end; w += n)
                if (isspace((unsigned char)w[-1]) && w[n] && strchr(" \t=;[", w[n])) {
                    if (value)
                        *value = initializer(w + n, end);
                    return true;
                }
        line = *end ? end + 1 : end;
    }
    return false;
}

static int
add_entry(const char *name, size_t len, void *arg)
{
    lab_buf *out = arg;
    char *mangled = strndup(name, len), *plain = NULL;
    int status = -1;

    if (!mangled)
        return LAB_ENOMEM;
    plain = __cxa_demangle(mangled, NULL, NULL, &status);
    if (out->len)
        lab_buf_adds(out, ", ");
    lab_buf_adds(out, status == 0 && plain ? plain : mangled);
    free(plain);
    free(mangled);
    return 0;
}

int
lab_ptx_list_entries(const char *ptx, lab_buf *out)
{
    return each_entry(ptx, add_entry, out);
}

int
lab_ptx_list_globals(const char *ptx, lab_buf *out)
{
    static const char *const prefixes[] = { ".global ", ".visible .global ", ".weak .global " };
    const char *line = ptx;

    while (line && *line) {
        const char *end = strchr(line, '\n'), *p = NULL;
        size_t n = 0;

        for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !p; i++)
            if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
                p = line + strlen(prefixes[i]);
        if (p) { /* ".global .align 4 .b8 memo[16] = {...};": the word before [, = or ; */
            const char *stop = p + strcspn(p, "[=;\n");
            while (stop > p && isspace((unsigned char)stop[-1]))
                stop--;
            while (stop - n > p && (isalnum((unsigned char)stop[-n - 1]) || stop[-n - 1] == '_' ||
                                    stop[-n - 1] == '$'))
                n++;
            if (n && lab_buf_printf(out, "%s%.*s", out->len ? "," : "", (int)n, stop - n) < 0)
                return LAB_ENOMEM;
        }
        line = end ? end + 1 : NULL;
    }
    return 0;
}

/* The bytes of one PTX type: .b8 .u16 .f32 .s64 ... */
static double
type_bytes(const char *t)
{
    static const struct {
        const char *bits;
        double bytes;
    } widths[] = { { "8", 1 }, { "16", 2 }, { "32", 4 }, { "64", 8 } };

    t += strspn(t, "bsuf"); /* .b8, .s32, .u64, .f16 */
    for (size_t i = 0; i < ARRAY_SIZE(widths); i++)
        if (!strncmp(t, widths[i].bits, strlen(widths[i].bits)))
            return widths[i].bytes;
    return 0;
}

double
lab_ptx_static_shared(const char *ptx)
{
    double total = 0;

    for (const char *line = ptx; line && *line; line = strchr(line, '\n'), line += !!line) {
        const char *p = line + strspn(line, " \t"), *type, *bracket;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        double count = 1;
        if (strncmp(p, ".shared ", 8))
            continue; /* .extern .shared is dynamic: the launch's, not the kernel's */
        /* ".shared .align 4 .b8 _ZZ...lut[40960];": the type is the last dotted word */
        type = NULL;
        for (const char *q = p + 1; q < p + len; q++)
            if (q[-1] == ' ' && *q == '.')
                type = q + 1;
        bracket = memchr(p, '[', len);
        if (bracket)
            count = strtod(bracket + 1, NULL);
        if (type)
            total += type_bytes(type) * count;
    }
    return total;
}

int
lab_ptx_mangle(const char *name, const char *param_code, lab_buf *out)
{
    return lab_buf_printf(out, "_Z%zu%s%s", strlen(name), name, param_code);
}

static const struct {
    const char *names;   /* for messages */
    const char *regs[6]; /* NULL-terminated; "%clock" is %clock64's prefix too */
} reads[] = {
    [LAB_PTX_READS_CLOCK] = { "%globaltimer or %clock", { NULL } }, /* rules.c's timers */
    [LAB_PTX_READS_GPU_IDS] = { "%smid, %nsmid, %warpid, %nwarpid or %gridid",
                                { "%smid", "%nsmid", "%warpid", "%nwarpid", "%gridid" } },
};
_Static_assert(ARRAY_SIZE(reads) == LAB_PTX_READS_COUNT, "one row per kind");

const char *
lab_ptx_reads_names(lab_ptx_reads what)
{
    return (unsigned)what < LAB_PTX_READS_COUNT ? reads[what].names : "?";
}

bool
lab_ptx_reads_any(const char *ptx, lab_ptx_reads what)
{
    if (what == LAB_PTX_READS_CLOCK) {
        const lab_rule *timers = lab_rule_get(LAB_RULE_TIMERS);
        for (const lab_rule_form *f = timers->forms; f->kind != LAB_FORM_NONE; f++)
            if (strstr(ptx, f->pattern))
                return true;
        return false;
    }
    for (const char *const *r = (unsigned)what < LAB_PTX_READS_COUNT ? reads[what].regs : NULL;
         r && *r; r++)
        if (strstr(ptx, *r))
            return true;
    return false;
}
