/*
 * catalog.c - load the chapters and exercises under <datadir>/exercises (see catalog.h).
 *
 * lab_catalog_load walks exercises/ in name order.  For each chapter
 * directory it reads chapter.ini, then each exercise directory's
 * exercise.ini; then it drops exercises whose baseline names no loaded
 * exercise, and sorts.
 *
 * A manifest is read whole and handed to libinih one line per call of
 * read_line.  Debian's libinih is built without INI_HANDLER_LINENO, so the
 * handler is told no line number: read_line counts the lines instead, and
 * since inih parses each line before it asks for the next, the count is the
 * handler's line.  Every value is parsed by the row of its key in a table
 * (exercise_keys, chapter_keys).  The handler never fails: problems are
 * collected in the manifest, so inih's return value is only ever a syntax
 * error.  A manifest with any problem is left out of the catalog (a chapter
 * then keeps its defaults) and its problems, sorted by line, join the
 * catalog's list.
 *
 * Everything the catalog hands out lives in its arena; the vectors used while
 * loading are malloc'ed and freed before lab_catalog_load returns.
 */
#include "lab/catalog/catalog.h"
#include "lab/catalog/family.h"
#include "lab/catalog/figures.h"
#include "lab/catalog/localize.h"
#include "lab/util/arena.h"
#include "lab/util/buf.h"
#include "lab/util/inifile.h"
#include "lab/util/path.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_KEYS 32                /* keys of the longest table */
#define MANIFEST_CAP (64 * 1024)   /* bytes of an exercise.ini or chapter.ini */
#define CHAPTER_ORDER_NONE INT_MAX /* a chapter without chapter.ini sorts last */

static const lab_block_shape DEFAULT_BLOCK = { 256, 1, 1 };

struct lab_catalog {
    lab_arena arena;        /* everything below and every string handed out */
    lab_chapter **chapters; /* sorted by order, then id */
    size_t nchapters;
    const lab_exercise **exercises; /* sorted by chapter, order, id */
    size_t nexercises;
    const char **problems; /* "file:line: message" */
    size_t nproblems;
    const lab_broken_exercise **broken; /* sorted by id */
    size_t nbroken;
    const char *language; /* the local_* fields' language; NULL: English */
    lab_numbers *numbers; /* docs/numbers.ini, NULL when there is none (figures.h) */
};

/* A growable array of pointers, used only while loading. */
struct ptrs {
    void **v;
    size_t n;
    size_t alloc;
};

/* An exercise while it loads: the public part and what loading needs. */
struct exercise {
    lab_exercise ex;        /* the public part */
    lab_chapter *ch;        /* its chapter, to sort by and to fill */
    const char *hints_file; /* the hints key as written */
    unsigned baseline_line; /* the baseline key's line */
};

struct load {
    const char *datadir;
    lab_arena *arena;
    locale_t c_locale;     /* numbers read alike whatever locale the front end set */
    struct ptrs chapters;  /* lab_chapter * */
    struct ptrs exercises; /* struct exercise * */
    struct ptrs problems;  /* char *, in the arena */
    struct ptrs broken;    /* lab_broken_exercise *, in the arena */
    char *real_datadir;    /* realpath of datadir: files the manifests name stay inside */
};

struct problem {
    unsigned line; /* 0: not tied to a line */
    char *text;    /* "file:line: message", in the arena */
};

struct key;

/* One manifest file being parsed. */
struct manifest {
    struct load *ld;
    const struct key *keys; /* the table for this kind of file */
    size_t nkeys;
    const char *section;         /* the one section allowed */
    const char *path;            /* the file, for problems */
    void *obj;                   /* what the keys' offsets point into */
    const char *next;            /* text not yet handed to inih */
    unsigned line;               /* the line inih is parsing */
    unsigned section_line;       /* the last line that opened a section */
    lab_buf bad_section;         /* the unknown section last reported */
    unsigned key_line[MAX_KEYS]; /* where each key was set; 0 when not set */
    bool cut;                    /* the parse stopped at a line too long */
    struct problem *probs;
    size_t nprobs;
    size_t aprobs;
    int rc; /* LAB_ENOMEM once memory ran out */
};

/*
 * A key of a manifest: parse reads the value into the field at off (and the
 * count at count_off for lists) or records a problem; it returns 0, or
 * LAB_ENOMEM.  A value with a problem leaves the field as it was.
 */
struct key {
    const char *name;
    int (*parse)(struct manifest *m, const struct key *k, const char *value);
    size_t off;
    size_t count_off;
    bool required;
    long min; /* bounds of integer keys */
    long max;
};

/* --- vectors and problems ------------------------------------------------ */

static int
ptrs_push(struct ptrs *p, void *x)
{
    if (p->n == p->alloc) {
        size_t alloc = p->alloc ? p->alloc * 2 : 16;
        void **v = realloc(p->v, alloc * sizeof(*v));
        if (!v)
            return LAB_ENOMEM;
        p->v = v;
        p->alloc = alloc;
    }
    p->v[p->n++] = x;
    return 0;
}

static void
ptrs_release(struct ptrs *p)
{
    free(p->v);
    p->v = NULL;
    p->n = p->alloc = 0;
}

static char *arena_printf(lab_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *
arena_printf(lab_arena *a, const char *fmt, ...)
{
    char *s, *copy;
    va_list ap;

    va_start(ap, fmt);
    s = lab_vformat(fmt, ap);
    va_end(ap);
    copy = s ? lab_arena_strdup(a, s) : NULL;
    free(s);
    return copy;
}

/* "path:line: message" in the arena; NULL when out of memory. */
static char *
problem_text(lab_arena *a, const char *path, unsigned line, const char *fmt, va_list ap)
{
    lab_buf b = LAB_BUF_INIT;
    char *s = NULL;

    if (lab_buf_printf(&b, "%s:%u: ", path, line) == 0 && lab_buf_vprintf(&b, fmt, ap) == 0)
        s = lab_arena_strndup(a, b.buf, b.len);
    lab_buf_release(&b);
    return s;
}

static int load_problem(struct load *ld, const char *path, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A problem of the catalog as a whole (a directory, a cross-manifest check). */
static int
load_problem(struct load *ld, const char *path, unsigned line, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    text = problem_text(ld->arena, path, line, fmt, ap);
    va_end(ap);
    return text ? ptrs_push(&ld->problems, text) : LAB_ENOMEM;
}

static int problem(struct manifest *m, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A problem of the manifest being parsed; it keeps the manifest out. */
static int
problem(struct manifest *m, unsigned line, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    text = problem_text(m->ld->arena, m->path, line, fmt, ap);
    va_end(ap);
    if (!text)
        return LAB_ENOMEM;
    if (m->nprobs == m->aprobs) {
        size_t alloc = m->aprobs ? m->aprobs * 2 : 8;
        struct problem *v = realloc(m->probs, alloc * sizeof(*v));
        if (!v)
            return LAB_ENOMEM;
        m->probs = v;
        m->aprobs = alloc;
    }
    m->probs[m->nprobs].line = line;
    m->probs[m->nprobs].text = text;
    m->nprobs++;
    return 0;
}

/* Line order, problems not tied to a line last; stable, so ties keep the order found. */
static int
flush_problems(struct manifest *m)
{
    for (size_t i = 1; i < m->nprobs; i++) {
        struct problem p = m->probs[i];
        unsigned key = p.line ? p.line : UINT_MAX;
        size_t j = i;

        while (j > 0 && (m->probs[j - 1].line ? m->probs[j - 1].line : UINT_MAX) > key) {
            m->probs[j] = m->probs[j - 1];
            j--;
        }
        m->probs[j] = p;
    }
    for (size_t i = 0; i < m->nprobs; i++)
        if (ptrs_push(&m->ld->problems, m->probs[i].text) < 0)
            return LAB_ENOMEM;
    return 0;
}

/* --- small parsers -------------------------------------------------------- */

#define FIELD(m, k, type) ((type *)((char *)(m)->obj + (k)->off))
#define COUNT(m, k) ((size_t *)((char *)(m)->obj + (k)->count_off))

static const char *
trim(const char *s, size_t *len)
{
    while (*len && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    return s;
}

static size_t
count_items(const char *value)
{
    size_t n = 1;

    for (const char *p = value; *p; p++)
        n += *p == ',';
    return n;
}

/* The next comma-separated item of *p, trimmed; advances *p past its comma. */
static const char *
next_item(const char **p, size_t *len)
{
    const char *start = *p;
    const char *comma = strchr(start, ',');

    *len = comma ? (size_t)(comma - start) : strlen(start);
    *p = comma ? comma + 1 : start + *len;
    return trim(start, len);
}

static bool
read_decimal(const char **p, const char *end, unsigned long *out)
{
    unsigned long v = 0;
    const char *s = *p;

    if (s == end || *s < '0' || *s > '9')
        return false;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (ULONG_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return true;
}

static const char *
skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* "1000" or "1<<24" (spaces allowed around "<<"); 0 and overflow are not sizes. */
static bool
read_size(const char *s, size_t len, unsigned long *out)
{
    const char *end = s + len;
    unsigned long v, shift;

    if (!read_decimal(&s, end, &v))
        return false;
    s = skip_blanks(s, end);
    if (end - s >= 2 && s[0] == '<' && s[1] == '<') {
        s = skip_blanks(s + 2, end);
        if (!read_decimal(&s, end, &shift) || shift >= sizeof(v) * CHAR_BIT ||
            v > ULONG_MAX >> shift)
            return false;
        v <<= shift;
    }
    if (s != end || v == 0)
        return false;
    *out = v;
    return true;
}

static bool
read_long(const char *value, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(value, &end, 10);
    return end != value && !*end && errno != ERANGE;
}

static bool
read_double(struct manifest *m, const char *value, double *out)
{
    char *end;

    *out = strtod_l(value, &end, m->ld->c_locale);
    return end != value && !*end && isfinite(*out);
}

/* --- key parsers ---------------------------------------------------------- */

static int
parse_str(struct manifest *m, const struct key *k, const char *value)
{
    char *s;

    if (!*value)
        return problem(m, m->line, "'%s': value is empty", k->name);
    if (!(s = lab_arena_strdup(m->ld->arena, value)))
        return LAB_ENOMEM;
    *FIELD(m, k, const char *) = s;
    return 0;
}

static const char driver_name_chars[] = "abcdefghijklmnopqrstuvwxyz"
                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

/* The family names a driver program: no slashes, no dots. */
static int
parse_family(struct manifest *m, const struct key *k, const char *value)
{
    if (*value && value[strspn(value, driver_name_chars)])
        return problem(m, m->line, "'%s': '%s' is not a driver name", k->name, value);
    return parse_str(m, k, value);
}

/* An exercise's family must be one of the registry's (families.def): its driver exists. */
static int
parse_registered_family(struct manifest *m, const struct key *k, const char *value)
{
    lab_buf names = LAB_BUF_INIT;
    int rc;

    if (!*value || value[strspn(value, driver_name_chars)] || lab_family_find(value))
        return parse_family(m, k, value);
    for (size_t i = 0; i < lab_family_count; i++)
        lab_buf_printf(&names, "%s%s", i ? ", " : "", lab_families[i].name);
    rc = names.len ? problem(m, m->line, "'%s': unknown family '%s' (the families: %s)", k->name,
                             value, names.buf)
                   : LAB_ENOMEM;
    lab_buf_release(&names);
    return rc;
}

/* One word of a fixed list (k->min = 0 .. k->max - 1 index the list's words). */
static const char *const kind_words[LAB_KIND_COUNT] = {
    [LAB_KIND_DEVICE] = "device", [LAB_KIND_HOST] = "host"
};
static const char *const output_words[LAB_OUTPUT_COUNT] = {
    [LAB_OUTPUT_PARTIALS] = "partials", [LAB_OUTPUT_TOTAL] = "total"
};

static int
parse_word(struct manifest *m, const struct key *k, const char *const *words, size_t nwords,
           const char *value)
{
    lab_buf all = LAB_BUF_INIT;
    int rc;

    for (size_t i = 0; i < nwords; i++)
        if (!strcmp(words[i], value)) {
            *FIELD(m, k, int) = (int)i;
            return 0;
        }
    for (size_t i = 0; i < nwords; i++)
        lab_buf_printf(&all, "%s'%s'", i ? (i + 1 == nwords ? " or " : ", ") : "", words[i]);
    rc = problem(m, m->line, "'%s': '%s' is not %s", k->name, value, all.buf);
    lab_buf_release(&all);
    return rc;
}

static int
parse_kind(struct manifest *m, const struct key *k, const char *value)
{
    return parse_word(m, k, kind_words, ARRAY_SIZE(kind_words), value);
}

static int
parse_output(struct manifest *m, const struct key *k, const char *value)
{
    return parse_word(m, k, output_words, ARRAY_SIZE(output_words), value);
}

/* "true" or "false". */
static int
parse_bool(struct manifest *m, const struct key *k, const char *value)
{
    if (strcmp(value, "true") && strcmp(value, "false"))
        return problem(m, m->line, "'%s': '%s' is not 'true' or 'false'", k->name, value);
    *FIELD(m, k, bool) = !strcmp(value, "true");
    return 0;
}

/* 1 when *out is a good value, 0 when a problem was recorded, or LAB_ENOMEM. */
static int
check_range(struct manifest *m, const struct key *k, const char *value, long *out)
{
    if (!read_long(value, out))
        return problem(m, m->line, "'%s': '%s' is not an integer", k->name, value);
    if (*out < k->min && k->min == 0)
        return problem(m, m->line, "'%s': '%s' is negative", k->name, value);
    if (*out < k->min || *out > k->max)
        return problem(m, m->line, "'%s': '%s' is not between %ld and %ld", k->name, value, k->min,
                       k->max);
    return 1;
}

static int
parse_int(struct manifest *m, const struct key *k, const char *value)
{
    long v;
    int rc;

    if ((rc = check_range(m, k, value, &v)) == 1)
        *FIELD(m, k, int) = (int)v;
    return rc < 0 ? rc : 0;
}

static int
parse_uint(struct manifest *m, const struct key *k, const char *value)
{
    long v;
    int rc;

    if ((rc = check_range(m, k, value, &v)) == 1)
        *FIELD(m, k, unsigned) = (unsigned)v;
    return rc < 0 ? rc : 0;
}

/* A threshold: a number, 0 or more. */
static int
parse_threshold(struct manifest *m, const struct key *k, const char *value)
{
    double v;

    if (!read_double(m, value, &v))
        return problem(m, m->line, "'%s': '%s' is not a number", k->name, value);
    if (v < 0)
        return problem(m, m->line, "'%s': '%s' is negative", k->name, value);
    *FIELD(m, k, double) = v;
    return 0;
}

/* A timeout in seconds: a number above 0. */
static int
parse_seconds(struct manifest *m, const struct key *k, const char *value)
{
    double v;

    if (!read_double(m, value, &v))
        return problem(m, m->line, "'%s': '%s' is not a number", k->name, value);
    if (v <= 0)
        return problem(m, m->line, "'%s': '%s' is not positive", k->name, value);
    *FIELD(m, k, double) = v;
    return 0;
}

static int
parse_sizes(struct manifest *m, const struct key *k, const char *value)
{
    size_t n = count_items(value);
    unsigned long *v;
    const char *p = value;

    if (!strcmp(value, "none") && !strcmp(k->name, "timing_sizes"))
        return 0; /* graded on correctness alone */
    if (!(v = lab_arena_calloc(m->ld->arena, n, sizeof(*v))))
        return LAB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *item = next_item(&p, &len);

        if (!read_size(item, len, &v[i]))
            return problem(m, m->line, "'%s': '%.*s' is not a size", k->name, (int)len, item);
    }
    *FIELD(m, k, const unsigned long *) = v;
    *COUNT(m, k) = n;
    return 0;
}

/* One shape "X", "XxY" or "XxYxZ": every dimension 1 or more, 1024 threads at most. */
static bool
read_shape(const char *s, size_t len, lab_block_shape *out)
{
    const char *end = s + len;
    unsigned long d[3] = { 1, 1, 1 };
    int n = 0;

    for (;;) {
        if (n == 3 || !read_decimal(&s, end, &d[n]) || d[n] == 0 || d[n] > 1024)
            return false;
        n++;
        if (s == end)
            break;
        if (*s != 'x')
            return false;
        s++;
    }
    if (d[0] * d[1] * d[2] > 1024)
        return false;
    *out = (lab_block_shape){ (unsigned)d[0], (unsigned)d[1], (unsigned)d[2] };
    return true;
}

static int
parse_blocks(struct manifest *m, const struct key *k, const char *value)
{
    struct exercise *e = m->obj;
    size_t n = count_items(value);
    lab_block_shape *v;
    const char *p = value;

    if (n > LAB_MAX_BLOCK_SHAPES)
        return problem(m, m->line, "'%s': %zu shapes, at most %d", k->name, n,
                       LAB_MAX_BLOCK_SHAPES);
    if (!(v = lab_arena_calloc(m->ld->arena, n, sizeof(*v))))
        return LAB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *item = next_item(&p, &len);

        if (!read_shape(item, len, &v[i]))
            return problem(m, m->line,
                           "'%s': '%.*s' is not a block shape (X, XxY or XxYxZ, 1 to 1024 "
                           "threads)",
                           k->name, (int)len, item);
    }
    e->ex.blocks = v;
    e->ex.nblocks = n;
    e->ex.block = v[0].x * v[0].y * v[0].z;
    return 0;
}

void
lab_block_shape_format(const lab_block_shape *s, char *buf, size_t size)
{
    if (s->z > 1)
        snprintf(buf, size, "%ux%ux%u", s->x, s->y, s->z);
    else if (s->y > 1)
        snprintf(buf, size, "%ux%u", s->x, s->y);
    else
        snprintf(buf, size, "%u", s->x);
}

/* "forbid X" or "require X", X a class of lab/build/rules.h such as atomics or warp-sync, an
 * opcode prefix such as ld.shared, or a special register such as %ntid; alternatives joined by
 * '|' (lab/build/constraints.h). */
static int
parse_constraints(struct manifest *m, const struct key *k, const char *value)
{
    static const char opchars[] = "abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%|-";
    size_t n = *value ? count_items(value) : 0;
    const char **v = NULL;
    const char *p = value;

    if (n && !(v = lab_arena_calloc(m->ld->arena, n, sizeof(*v))))
        return LAB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t len, verb, gap;
        const char *item = next_item(&p, &len);

        verb = strcspn(item, " \t");
        verb = verb < len ? verb : len;
        gap = verb + strspn(item + verb, " \t");
        gap = gap < len ? gap : len;
        if (!((verb == 6 && !strncmp(item, "forbid", 6)) ||
              (verb == 7 && !strncmp(item, "require", 7))) ||
            gap == verb || gap == len || strspn(item + gap, opchars) < len - gap)
            return problem(m, m->line, "'%s': '%.*s' is not 'forbid X' or 'require X'", k->name,
                           (int)len, item);
        v[i] =
            arena_printf(m->ld->arena, "%.*s %.*s", (int)verb, item, (int)(len - gap), item + gap);
        if (!v[i])
            return LAB_ENOMEM;
    }
    *FIELD(m, k, const char *const *) = v;
    *COUNT(m, k) = n;
    return 0;
}

/* --- the key tables ------------------------------------------------------- */

#define EX(field) offsetof(struct exercise, ex.field)

static const struct key exercise_keys[] = {
    { "format", parse_int, EX(format), 0, false, 1, 1 },
    { "id", parse_str, EX(id), 0, true, 0, 0 },
    { "chapter", parse_str, EX(chapter), 0, true, 0, 0 },
    { "order", parse_int, EX(order), 0, false, INT_MIN, INT_MAX },
    { "title", parse_str, EX(title), 0, true, 0, 0 },
    { "kernel", parse_str, EX(kernel), 0, true, 0, 0 },
    { "family", parse_registered_family, EX(family), 0, true, 0, 0 },
    { "starter", parse_str, EX(starter), 0, false, 0, 0 },
    { "solution", parse_str, EX(solution), 0, true, 0, 0 },
    { "baseline", parse_str, EX(baseline), 0, true, 0, 0 },
    { "sizes", parse_sizes, EX(sizes), EX(nsizes), true, 0, 0 },
    { "timing_sizes", parse_sizes, EX(timing_sizes), EX(ntiming_sizes), false, 0, 0 },
    { "block", parse_blocks, EX(blocks), EX(nblocks), false, 0, 0 },
    { "unroll", parse_uint, EX(unroll), 0, false, 1, 1024 },
    { "build_timeout", parse_seconds, EX(build_timeout_s), 0, false, 0, 0 },
    { "run_timeout", parse_seconds, EX(run_timeout_s), 0, false, 0, 0 },
    { "min_speedup", parse_threshold, EX(min_speedup), 0, false, 0, 0 },
    { "min_fraction_of_reference", parse_threshold, EX(min_fraction_of_reference), 0, false, 0, 0 },
    { "points", parse_int, EX(points), 0, false, 0, INT_MAX },
    { "constraints", parse_constraints, EX(constraints), EX(nconstraints), false, 0, 0 },
    { "hints", parse_str, offsetof(struct exercise, hints_file), 0, false, 0, 0 },
    { "instantiate", parse_str, EX(instantiate), 0, false, 0, 0 },
    { "entry", parse_str, EX(entry), 0, false, 0, 0 },
    { "kind", parse_kind, EX(kind), 0, false, 0, 0 },
    { "output", parse_output, EX(output), 0, false, 0, 0 },
    { "grid_per_sm", parse_uint, EX(grid_per_sm), 0, false, 1, 64 },
    { "task", parse_str, EX(task), 0, false, 0, 0 },
    { "rdc", parse_bool, EX(rdc), 0, false, 0, 0 },
    { "choose_block", parse_bool, EX(choose_block), 0, false, 0, 0 },
    { "sim_check", parse_bool, EX(sim_check), 0, false, 0, 0 },
};
_Static_assert(ARRAY_SIZE(exercise_keys) <= MAX_KEYS, "raise MAX_KEYS");

static const struct key chapter_keys[] = {
    { "title", parse_str, offsetof(lab_chapter, title), 0, false, 0, 0 },
    { "order", parse_int, offsetof(lab_chapter, order), 0, false, INT_MIN, INT_MAX },
    { "text", parse_str, offsetof(lab_chapter, text), 0, false, 0, 0 },
    { "demo", parse_family, offsetof(lab_chapter, demo), 0, false, 0, 0 },
    { "demo_sim", parse_bool, offsetof(lab_chapter, demo_sim), 0, false, 0, 0 },
};
_Static_assert(ARRAY_SIZE(chapter_keys) <= MAX_KEYS, "raise MAX_KEYS");

/* The line where the key was set, 0 when it was not. */
static unsigned
key_line(const struct manifest *m, const char *name)
{
    for (size_t i = 0; i < m->nkeys; i++)
        if (!strcmp(m->keys[i].name, name))
            return m->key_line[i];
    return 0;
}

/* --- parsing a manifest with inih ------------------------------------------ */

/*
 * inih's reader: one whole line per call, so that inih's line numbers and
 * ours agree.  A line longer than inih's buffer would be cut in two and its
 * rest parsed as a line of its own, so it ends the parse as a problem.
 */
static char *
read_line(char *str, int num, void *stream)
{
    struct manifest *m = stream;
    int too_long = 0;
    const char *p;

    if (m->rc < 0 || !*m->next)
        return NULL;
    m->line++;
    if (!lab_inifile_next_line(str, num, &m->next, &too_long)) {
        m->rc = problem(m, m->line, "line too long (more than %d characters)", too_long);
        m->cut = true;
        return NULL;
    }
    p = str + strspn(str, " \t");
    if (*p == '[')
        m->section_line = m->line;
    return str;
}

static int
wrong_section(struct manifest *m, const char *section, const char *name)
{
    if (!*section)
        return problem(m, m->line, "key '%s' is outside the [%s] section", name, m->section);
    if (m->bad_section.len && !strcmp(m->bad_section.buf, section))
        return 0; /* reported at its first key */
    lab_buf_reset(&m->bad_section);
    if (lab_buf_adds(&m->bad_section, section) < 0)
        return LAB_ENOMEM;
    return problem(m, m->section_line, "unknown section '%s'", section);
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
    struct manifest *m = user;
    size_t i;

    if (m->rc < 0)
        return 1;
    if (strcmp(section, m->section)) {
        m->rc = wrong_section(m, section, name);
        return 1;
    }
    lab_buf_reset(&m->bad_section);
    for (i = 0; i < m->nkeys && strcmp(m->keys[i].name, name); i++)
        ;
    if (i == m->nkeys) {
        m->rc = problem(m, m->line, "unknown key '%s'", name);
    } else if (m->key_line[i]) {
        m->rc =
            problem(m, m->line, "duplicate key '%s' (first set on line %u)", name, m->key_line[i]);
    } else {
        m->key_line[i] = m->line;
        m->rc = m->keys[i].parse(m, &m->keys[i], value);
    }
    return 1; /* problems are collected, never inih errors */
}

/*
 * Parse the file at m->path into m->obj.  Returns 0 (problems, if any, are in
 * m->probs), or LAB_ENOMEM.  *missing is set when the file does not exist.
 */
static int
parse_manifest(struct manifest *m, bool *missing)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc, line;

    *missing = false;
    if ((rc = lab_buf_read_regular(&text, m->path, MANIFEST_CAP, &err)) < 0) {
        if (rc == LAB_ENOENT) {
            *missing = true;
            rc = 0;
        } else if (rc != LAB_ENOMEM) {
            rc = problem(m, 0, "%s", err.msg);
        }
        goto out;
    }
    if (memchr(text.buf, '\0', text.len)) {
        rc = problem(m, 0, "not a text file");
        goto out;
    }
    m->next = text.buf;
    line = ini_parse_stream(read_line, m, on_key, m);
    if ((rc = m->rc) < 0)
        goto out;
    if (line > 0)
        rc = problem(m, (unsigned)line, "syntax error: expected '[section]' or 'key = value'");
    else if (line < 0)
        rc = LAB_ENOMEM; /* inih's -2: its line buffer */
    for (size_t i = 0; rc == 0 && !m->cut && i < m->nkeys; i++)
        if (m->keys[i].required && !m->key_line[i])
            rc = problem(m, 0, "missing required key '%s'", m->keys[i].name);
out:
    lab_buf_release(&text);
    return rc;
}

static void
manifest_release(struct manifest *m)
{
    lab_buf_release(&m->bad_section);
    free(m->probs);
}

/* --- files and directories ------------------------------------------------ */

static char *
join(struct load *ld, const char *dir, const char *name)
{
    return arena_printf(ld->arena, "%s/%s", dir, name);
}

static bool
is_file(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether value, a path relative to a folder of the lab's data, stays in the data folder:
 * relative, no ".." in it, and no link leading out. */
static bool
inside_datadir(const struct load *ld, const char *value, const char *path)
{
    size_t len = ld->real_datadir ? strlen(ld->real_datadir) : 0;
    char *real;
    bool inside;

    if (*value == '/')
        return false;
    for (const char *p = value; *p; p += strcspn(p, "/"), p += *p == '/')
        if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
            return false;
    if (!len || !(real = realpath(path, NULL)))
        return true; /* the checks below name what is wrong with it */
    inside = lab_path_in_dir(real, ld->real_datadir);
    free(real);
    return inside;
}

/* The file named by key (value as written) must exist, in the lab's data folder. */
static int
check_file(struct manifest *m, const char *key, const char *value, const char *path)
{
    struct stat st;

    if (!inside_datadir(m->ld, value, path))
        return problem(m, key_line(m, key), "'%s': '%s' is outside the lab's data folder", key,
                       value);
    if (stat(path, &st) < 0)
        return problem(m, key_line(m, key), "'%s': '%s' does not exist", key, value);
    if (!S_ISREG(st.st_mode))
        return problem(m, key_line(m, key), "'%s': '%s' is not a regular file", key, value);
    return 0;
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The subdirectories of path, sorted by name, hidden ones left out.  Returns
 * 0, LAB_ENOMEM, or LAB_EIO with *errnum set when path cannot be read.
 */
static int
list_dirs(struct load *ld, const char *path, struct ptrs *out, int *errnum)
{
    DIR *d;
    struct dirent *de;
    int rc = 0;

    if (!(d = opendir(path))) {
        *errnum = errno;
        return LAB_EIO;
    }
    for (;;) {
        struct stat st;
        char *name;

        errno = 0;
        if (!(de = readdir(d))) {
            if (errno) {
                *errnum = errno;
                rc = LAB_EIO;
            }
            break;
        }
        if (de->d_name[0] == '.')
            continue;
        if (fstatat(dirfd(d), de->d_name, &st, 0) < 0) {
            const char *why = strerror(errno);
            char *sub = join(ld, path, de->d_name);

            if (!sub || (rc = load_problem(ld, sub, 0, "cannot read: %s", why)) < 0) {
                rc = LAB_ENOMEM;
                break;
            }
            continue;
        }
        if (!S_ISDIR(st.st_mode))
            continue;
        if (!(name = lab_arena_strdup(ld->arena, de->d_name)) || ptrs_push(out, name) < 0) {
            rc = LAB_ENOMEM;
            break;
        }
    }
    closedir(d);
    if (rc == 0 && out->n > 1)
        qsort(out->v, out->n, sizeof(*out->v), cmp_names);
    return rc;
}

/* --- hints ---------------------------------------------------------------- */

static bool
is_fence(const char *line)
{
    line += strspn(line, " ");
    return !strncmp(line, "```", 3) || !strncmp(line, "~~~", 3);
}

static bool
is_hint_heading(const char *line)
{
    return line[0] == '#' && line[1] == '#' &&
           (line[2] == ' ' || line[2] == '\t' || line[2] == '\r' || line[2] == '\n' || !line[2]);
}

static int
add_hint(lab_arena *arena, struct ptrs *hints, const char *start, const char *end)
{
    static const char ws[] = " \t\r\n";
    char *s;

    while (start < end && strchr(ws, *start))
        start++;
    while (end > start && strchr(ws, end[-1]))
        end--;
    if (start == end)
        return 0;
    if (!(s = lab_arena_strndup(arena, start, (size_t)(end - start))))
        return LAB_ENOMEM;
    return ptrs_push(hints, s);
}

/*
 * The hints are the bodies of the "## " sections of a Markdown text (headings
 * inside fenced code do not count); a text with no such heading is one hint.
 */
int
lab_catalog__split_hints(lab_arena *arena, const char *text, const char *const **out, size_t *n)
{
    struct ptrs hints = { 0 };
    const char *body = NULL, *p;
    const char **v = NULL;
    bool fenced = false;
    int rc;

    for (p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *next = nl ? nl + 1 : p + strlen(p);

        if (is_fence(p)) {
            fenced = !fenced;
        } else if (!fenced && is_hint_heading(p)) {
            if (body && (rc = add_hint(arena, &hints, body, p)) < 0)
                goto out;
            body = next;
        }
        p = next;
    }
    if ((rc = add_hint(arena, &hints, body ? body : text, p)) < 0)
        goto out;
    if (hints.n && !(v = lab_arena_calloc(arena, hints.n, sizeof(*v)))) {
        rc = LAB_ENOMEM;
        goto out;
    }
    if (hints.n)
        memcpy(v, hints.v, hints.n * sizeof(*v));
    *out = v;
    *n = hints.n;
out:
    ptrs_release(&hints);
    return rc;
}

static int
read_hints(struct manifest *m, struct exercise *e, const char *path)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    int rc;

    if ((rc = lab_buf_read_regular(&text, path, LAB_CATALOG_TEXT_CAP, &err)) < 0) {
        if (rc != LAB_ENOMEM)
            rc = problem(m, key_line(m, "hints"), "'hints': %s", err.msg);
        goto out;
    }
    if ((rc = lab_catalog__split_hints(m->ld->arena, text.buf, &e->ex.hints, &e->ex.nhints)) == 0)
        e->ex.hints_file = path;
out:
    lab_buf_release(&text);
    return rc;
}

/* --- exercises ------------------------------------------------------------ */

static int
check_exercise(struct manifest *m, struct exercise *e, const char *chapter, const char *name)
{
    struct load *ld = m->ld;
    lab_exercise *ex = &e->ex;
    const char *starter = ex->starter ? ex->starter : "starter.cu";
    const char *task = ex->task ? ex->task : "task.md";
    const char *hints = e->hints_file ? e->hints_file : "hints.md";
    char *id, *path;
    int rc;

    if (!(id = arena_printf(ld->arena, "%s/%s", chapter, name)))
        return LAB_ENOMEM;
    if (ex->id && strcmp(ex->id, id) &&
        (rc = problem(m, key_line(m, "id"), "'id': '%s' does not match the directory '%s'", ex->id,
                      id)) < 0)
        return rc;
    if (ex->chapter && strcmp(ex->chapter, chapter) &&
        (rc = problem(m, key_line(m, "chapter"),
                      "'chapter': '%s' does not match the directory '%s'", ex->chapter, chapter)) <
            0)
        return rc;
    if (ex->baseline && !strcmp(ex->baseline, id) &&
        (rc = problem(m, key_line(m, "baseline"), "'baseline': '%s' is this exercise", id)) < 0)
        return rc;
    ex->id = id;
    ex->name = name;
    e->baseline_line = key_line(m, "baseline");

    /* A key set to a bad value is unset here and already reported. */
    if (!ex->starter && key_line(m, "starter"))
        starter = NULL;
    if (!ex->task && key_line(m, "task"))
        task = NULL;
    if (!e->hints_file && key_line(m, "hints"))
        hints = NULL;
    if (starter) {
        if (!(path = join(ld, ex->dir, starter)))
            return LAB_ENOMEM;
        if ((rc = check_file(m, "starter", starter, path)) < 0)
            return rc;
        ex->starter = path;
    }
    if (ex->solution) {
        if (!(path = join(ld, ld->datadir, ex->solution)))
            return LAB_ENOMEM;
        if ((rc = check_file(m, "solution", ex->solution, path)) < 0)
            return rc;
        ex->solution = path;
    }
    if (task) {
        if (!(path = join(ld, ex->dir, task)))
            return LAB_ENOMEM;
        if ((rc = check_file(m, "task", task, path)) < 0)
            return rc;
        ex->task = path;
    }
    if (hints) {
        if (!(path = join(ld, ex->dir, hints)))
            return LAB_ENOMEM;
        if (e->hints_file && (rc = check_file(m, "hints", hints, path)) < 0)
            return rc;
        if (is_file(path) && (rc = read_hints(m, e, path)) < 0)
            return rc;
    }

    if (ex->sizes && !ex->timing_sizes && !key_line(m, "timing_sizes")) {
        unsigned long *largest = lab_arena_alloc(ld->arena, sizeof(*largest));

        if (!largest)
            return LAB_ENOMEM;
        *largest = ex->sizes[0];
        for (size_t i = 1; i < ex->nsizes; i++)
            *largest = ex->sizes[i] > *largest ? ex->sizes[i] : *largest;
        ex->timing_sizes = largest;
        ex->ntiming_sizes = 1;
    } else if (ex->sizes && ex->timing_sizes) {
        for (size_t i = 0; i < ex->ntiming_sizes; i++) {
            size_t j;

            for (j = 0; j < ex->nsizes && ex->sizes[j] != ex->timing_sizes[i]; j++)
                ;
            if (j == ex->nsizes)
                return problem(m, key_line(m, "timing_sizes"),
                               "'timing_sizes': '%lu' is not one of the sizes",
                               ex->timing_sizes[i]);
        }
    }
    return 0;
}

/* Keeps chapter/name as broken, for reason: listed as such, and named when asked for. */
static int
add_broken(struct load *ld, const lab_chapter *ch, const char *name, const char *reason)
{
    lab_broken_exercise *b = lab_arena_calloc(ld->arena, 1, sizeof(*b));

    if (!b || !(b->id = arena_printf(ld->arena, "%s/%s", ch->id, name)))
        return LAB_ENOMEM;
    b->chapter = ch->id;
    b->reason = reason;
    return ptrs_push(&ld->broken, b);
}

static int
load_exercise(struct load *ld, lab_chapter *ch, const char *chapter_dir, const char *name)
{
    struct manifest m = { .ld = ld,
                          .keys = exercise_keys,
                          .nkeys = ARRAY_SIZE(exercise_keys),
                          .section = "exercise",
                          .bad_section = LAB_BUF_INIT };
    struct exercise *e;
    bool missing;
    char *dir;
    int rc;

    if (!(e = lab_arena_calloc(ld->arena, 1, sizeof(*e))) || !(dir = join(ld, chapter_dir, name)) ||
        !(m.path = join(ld, dir, "exercise.ini"))) {
        rc = LAB_ENOMEM;
        goto out;
    }
    e->ch = ch;
    e->ex.dir = dir;
    e->ex.manifest = m.path;
    e->ex.block = DEFAULT_BLOCK.x;
    e->ex.blocks = &DEFAULT_BLOCK;
    e->ex.nblocks = 1;
    e->ex.unroll = 1;
    e->ex.sim_check = true;
    e->ex.build_timeout_s = 120;
    e->ex.run_timeout_s = 60;
    e->ex.min_speedup = 1.10;
    e->ex.points = 10;
    m.obj = e;

    if ((rc = parse_manifest(&m, &missing)) < 0)
        goto out;
    if (missing) {
        if ((rc = load_problem(ld, dir, 0, "missing exercise.ini")) == 0)
            rc = add_broken(ld, ch, name, ld->problems.v[ld->problems.n - 1]);
        goto out;
    }
    if ((rc = check_exercise(&m, e, ch->id, name)) < 0)
        goto out;
    if (!m.nprobs)
        rc = ptrs_push(&ld->exercises, e);
    else if ((rc = flush_problems(&m)) == 0) /* the first problem in line order says why */
        rc = add_broken(ld, ch, name, m.probs[0].text);
out:
    manifest_release(&m);
    return rc;
}

/* --- chapters ------------------------------------------------------------- */

/* Read chapter.ini over the defaults in ch; ch is left as it was when the file has problems. */
static int
read_chapter_ini(struct load *ld, lab_chapter *ch, const char *dir)
{
    lab_chapter tmp = *ch;
    struct manifest m = { .ld = ld,
                          .keys = chapter_keys,
                          .nkeys = ARRAY_SIZE(chapter_keys),
                          .section = "chapter",
                          .obj = &tmp,
                          .bad_section = LAB_BUF_INIT };
    bool missing;
    int rc;

    tmp.order = 0;
    tmp.text = NULL;
    tmp.demo = NULL;
    if (!(m.path = join(ld, dir, "chapter.ini"))) {
        rc = LAB_ENOMEM;
        goto out;
    }
    if ((rc = parse_manifest(&m, &missing)) < 0)
        goto out;
    if (missing) {
        rc = load_problem(ld, dir, 0, "missing chapter.ini");
        goto out;
    }
    if (tmp.text) {
        char *path = join(ld, ld->datadir, tmp.text);

        if (!path || (rc = check_file(&m, "text", tmp.text, path)) < 0) {
            rc = LAB_ENOMEM;
            goto out;
        }
        tmp.text = path;
    } else {
        tmp.text = ch->text;
    }
    if (m.nprobs)
        rc = flush_problems(&m);
    else
        *ch = tmp;
out:
    manifest_release(&m);
    return rc;
}

static int
load_chapter(struct load *ld, const char *root, const char *name)
{
    struct ptrs names = { 0 };
    lab_chapter *ch;
    char *dir, *text;
    int rc, errnum = 0;

    if (!(ch = lab_arena_calloc(ld->arena, 1, sizeof(*ch))) || !(dir = join(ld, root, name)) ||
        !(text = arena_printf(ld->arena, "%s/docs/%s.md", ld->datadir, name))) {
        rc = LAB_ENOMEM;
        goto out;
    }
    ch->id = name;
    ch->title = name;
    ch->order = CHAPTER_ORDER_NONE;
    ch->text = is_file(text) ? text : NULL;
    if ((rc = ptrs_push(&ld->chapters, ch)) < 0 || (rc = read_chapter_ini(ld, ch, dir)) < 0)
        goto out;

    rc = list_dirs(ld, dir, &names, &errnum);
    if (rc == LAB_EIO)
        rc = load_problem(ld, dir, 0, "cannot read directory: %s", strerror(errnum));
    for (size_t i = 0; rc == 0 && i < names.n; i++)
        rc = load_exercise(ld, ch, dir, names.v[i]);
out:
    ptrs_release(&names);
    return rc;
}

/* --- after loading -------------------------------------------------------- */

static bool
has_exercise(const struct load *ld, const char *id)
{
    for (size_t i = 0; i < ld->exercises.n; i++) {
        const struct exercise *e = ld->exercises.v[i];

        if (!strcmp(e->ex.id, id))
            return true;
    }
    return false;
}

static const lab_broken_exercise *
find_broken(const lab_broken_exercise *const *v, size_t n, const char *id)
{
    for (size_t i = 0; id && i < n; i++)
        if (!strcmp(v[i]->id, id))
            return v[i];
    return NULL;
}

/*
 * An exercise whose baseline names no exercise at all cannot be graded: it is broken
 * itself.  One whose baseline is a broken exercise still loads (grading it says which
 * baseline is broken); the catalog's problems say so too.  Moving an exercise to the broken
 * ones leaves the ids that are "loaded or broken" as they were, so one pass does.  (Ids need
 * no check for duplicates: an id must be "<chapter dir>/<exercise dir>".)
 */
static int
check_baselines(struct load *ld)
{
    const lab_broken_exercise *const *broken = (const lab_broken_exercise *const *)ld->broken.v;
    int rc;

    for (size_t i = 0; i < ld->exercises.n; i++) {
        struct exercise *e = ld->exercises.v[i];

        if (!strcmp(e->ex.baseline, "cpu") || has_exercise(ld, e->ex.baseline) ||
            find_broken(broken, ld->broken.n, e->ex.baseline))
            continue;
        if ((rc = load_problem(ld, e->ex.manifest, e->baseline_line, "'baseline': no exercise '%s'",
                               e->ex.baseline)) < 0 ||
            (rc = add_broken(ld, e->ch, e->ex.name, ld->problems.v[ld->problems.n - 1])) < 0)
            return rc;
        broken = (const lab_broken_exercise *const *)ld->broken.v;
        memmove(&ld->exercises.v[i], &ld->exercises.v[i + 1],
                (ld->exercises.n - i - 1) * sizeof(*ld->exercises.v));
        ld->exercises.n--;
        i--;
    }
    for (size_t i = 0; i < ld->exercises.n; i++) {
        struct exercise *e = ld->exercises.v[i];

        if (find_broken(broken, ld->broken.n, e->ex.baseline) &&
            (rc = load_problem(ld, e->ex.manifest, e->baseline_line,
                               "'baseline': '%s' is broken: this step cannot be graded until it "
                               "is fixed",
                               e->ex.baseline)) < 0)
            return rc;
    }
    return 0;
}

static int
cmp_chapter(const lab_chapter *a, const lab_chapter *b)
{
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    return strcmp(a->id, b->id);
}

static int
cmp_chapters(const void *a, const void *b)
{
    return cmp_chapter(*(lab_chapter *const *)a, *(lab_chapter *const *)b);
}

static int
cmp_exercises(const void *pa, const void *pb)
{
    const struct exercise *a = *(struct exercise *const *)pa;
    const struct exercise *b = *(struct exercise *const *)pb;
    int c;

    if ((c = cmp_chapter(a->ch, b->ch)))
        return c;
    if (a->ex.order != b->ex.order)
        return a->ex.order < b->ex.order ? -1 : 1;
    return strcmp(a->ex.id, b->ex.id);
}

static int
cmp_broken(const void *a, const void *b)
{
    return strcmp((*(const lab_broken_exercise *const *)a)->id,
                  (*(const lab_broken_exercise *const *)b)->id);
}

/* Sort, and move the lists into the arena; each chapter's exercises are a run of the whole list. */
static int
finish(struct load *ld, lab_catalog *cat)
{
    struct ptrs *chs = &ld->chapters, *exs = &ld->exercises, *probs = &ld->problems;
    struct ptrs *broken = &ld->broken;

    if (chs->n > 1)
        qsort(chs->v, chs->n, sizeof(*chs->v), cmp_chapters);
    if (exs->n > 1)
        qsort(exs->v, exs->n, sizeof(*exs->v), cmp_exercises);
    if ((chs->n && !(cat->chapters = lab_arena_calloc(ld->arena, chs->n, sizeof(lab_chapter *)))) ||
        (exs->n &&
         !(cat->exercises = lab_arena_calloc(ld->arena, exs->n, sizeof(lab_exercise *)))) ||
        (probs->n && !(cat->problems = lab_arena_calloc(ld->arena, probs->n, sizeof(char *)))) ||
        (broken->n &&
         !(cat->broken = lab_arena_calloc(ld->arena, broken->n, sizeof(*cat->broken)))))
        return LAB_ENOMEM;
    if (broken->n > 1)
        qsort(broken->v, broken->n, sizeof(*broken->v), cmp_broken);
    for (size_t i = 0; i < broken->n; i++)
        cat->broken[i] = broken->v[i];
    cat->nbroken = broken->n;
    for (size_t i = 0; i < chs->n; i++)
        cat->chapters[i] = chs->v[i];
    cat->nchapters = chs->n;
    for (size_t i = 0; i < exs->n; i++) {
        struct exercise *e = exs->v[i];

        cat->exercises[i] = &e->ex;
        if (!e->ch->nexercises)
            e->ch->exercises = &cat->exercises[i];
        e->ch->nexercises++;
    }
    cat->nexercises = exs->n;
    for (size_t i = 0; i < probs->n; i++)
        cat->problems[i] = probs->v[i];
    cat->nproblems = probs->n;
    return 0;
}

/* A problem found after finish (lab_catalog__problem_fn): onto the list finish made. */
static int
late_problem(void *ctx, const char *text)
{
    lab_catalog *cat = ctx;
    const char **v;
    char *copy;

    if (!(copy = lab_arena_strdup(&cat->arena, text)) ||
        !(v = lab_arena_calloc(&cat->arena, cat->nproblems + 1, sizeof(*v))))
        return LAB_ENOMEM;
    for (size_t i = 0; i < cat->nproblems; i++)
        v[i] = cat->problems[i];
    v[cat->nproblems++] = copy;
    cat->problems = v;
    return 0;
}

/* --- the public API ------------------------------------------------------- */

int
lab_catalog_load(const char *datadir, lab_catalog **out, lab_err *err)
{
    return lab_catalog_load_lang(datadir, NULL, out, err);
}

int
lab_catalog_load_lang(const char *datadir, const lab_lang *lang, lab_catalog **out, lab_err *err)
{
    struct load ld = { .datadir = datadir };
    struct ptrs names = { 0 };
    lab_catalog *cat = NULL;
    char *root;
    int rc, errnum = 0;

    *out = NULL;
    if (!(cat = calloc(1, sizeof(*cat)))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory loading the catalog");
        goto out;
    }
    lab_arena_init(&cat->arena);
    ld.arena = &cat->arena;
    if (!(ld.c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0)) ||
        !(root = join(&ld, datadir, "exercises"))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory loading the catalog");
        goto out;
    }
    ld.real_datadir = realpath(datadir, NULL);
    if ((rc = list_dirs(&ld, root, &names, &errnum)) == LAB_EIO) {
        rc = lab_err_set(err, errnum == ENOENT ? LAB_ENOENT : LAB_EIO, "cannot read '%s': %s", root,
                         strerror(errnum));
        goto out;
    }
    for (size_t i = 0; rc == 0 && i < names.n; i++)
        rc = load_chapter(&ld, root, names.v[i]);
    if (rc == 0)
        rc = check_baselines(&ld);
    if (rc == 0)
        rc = finish(&ld, cat);
    if (rc == 0)
        rc = lab_catalog__localize(cat, &cat->arena, datadir, lang);
    if (rc == 0)
        rc = lab_catalog__figures(cat, &cat->arena, datadir, late_problem, cat);
    if (rc < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory loading the catalog");
        goto out;
    }
    *out = cat;
    cat = NULL; /* the caller owns it now */
out:
    if (ld.c_locale)
        freelocale(ld.c_locale);
    ptrs_release(&names);
    ptrs_release(&ld.chapters);
    ptrs_release(&ld.exercises);
    ptrs_release(&ld.problems);
    ptrs_release(&ld.broken);
    free(ld.real_datadir);
    lab_catalog_free(cat);
    return rc;
}

const char *
lab_catalog_language(const lab_catalog *cat)
{
    return cat->language;
}

void
lab_catalog__set_numbers(lab_catalog *cat, lab_numbers *n)
{
    lab_numbers_free(cat->numbers);
    cat->numbers = n;
}

const lab_numbers *
lab_catalog_numbers(const lab_catalog *cat)
{
    return cat->numbers;
}

void
lab_catalog__set_language(lab_catalog *cat, const char *language)
{
    cat->language = language;
}

void
lab_catalog_free(lab_catalog *cat)
{
    if (!cat)
        return;
    lab_numbers_free(cat->numbers);
    lab_arena_release(&cat->arena);
    free(cat);
}

size_t
lab_catalog_chapter_count(const lab_catalog *cat)
{
    return cat->nchapters;
}

const lab_chapter *
lab_catalog_chapter(const lab_catalog *cat, size_t i)
{
    return i < cat->nchapters ? cat->chapters[i] : NULL;
}

size_t
lab_catalog_exercise_count(const lab_catalog *cat)
{
    return cat->nexercises;
}

const lab_exercise *
lab_catalog_exercise(const lab_catalog *cat, size_t i)
{
    return i < cat->nexercises ? cat->exercises[i] : NULL;
}

const lab_exercise *
lab_catalog_find(const lab_catalog *cat, const char *id)
{
    for (size_t i = 0; id && i < cat->nexercises; i++)
        if (!strcmp(cat->exercises[i]->id, id))
            return cat->exercises[i];
    return NULL;
}

size_t
lab_catalog_problem_count(const lab_catalog *cat)
{
    return cat->nproblems;
}

const char *
lab_catalog_problem(const lab_catalog *cat, size_t i)
{
    return i < cat->nproblems ? cat->problems[i] : NULL;
}

size_t
lab_catalog_broken_count(const lab_catalog *cat)
{
    return cat->nbroken;
}

const lab_broken_exercise *
lab_catalog_broken(const lab_catalog *cat, size_t i)
{
    return i < cat->nbroken ? cat->broken[i] : NULL;
}

const char *
lab_catalog_why_broken(const lab_catalog *cat, const char *id)
{
    const lab_broken_exercise *b = find_broken(cat->broken, cat->nbroken, id);

    return b ? b->reason : NULL;
}
