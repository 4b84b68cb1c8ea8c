/*
 * translation.c - where a content file's translation is, whether it follows the English file
 * as it is now, and the rules a translation keeps (translation.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/catalog/catalog.h"
#include "lab/catalog/translation.h"
#include "lab/util/buf.h"
#include "lab/util/inifile.h"
#include "lab/util/sha256.h"

/* The first line of a translation, before "NAME @ HASH", and what closes it. */
static const struct {
    const char *open;
    const char *close;
} markers[] = {
    { "<!-- translation of ", " -->" },
    { "; translation of ", "" },
};

static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *
lab_translation_path(const char *english, const char *lang)
{
    const char *base = base_name(english);
    const char *dot = strrchr(base, '.');
    lab_buf b = LAB_BUF_INIT;
    size_t stem = dot ? (size_t)(dot - english) : strlen(english);

    if (lab_buf_add(&b, english, stem) < 0 ||
        lab_buf_printf(&b, ".%s%s", lang, dot ? dot : "") < 0) {
        lab_buf_release(&b);
        return NULL;
    }
    return lab_buf_detach(&b);
}

size_t
lab_translation_marker_len(const char *text, size_t len)
{
    size_t line = 0;

    while (line < len && text[line] != '\n')
        line++;
    for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
        size_t n = strlen(markers[i].open);
        if (line >= n && !memcmp(text, markers[i].open, n))
            return line + (line < len);
    }
    return 0;
}

/* Whether the n bytes at h are hex digits. */
static bool
all_hex(const char *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)h[i]))
            return false;
    return true;
}

/* The revision the first line of text names for english's base name, into follows. */
static int
read_marker(const char *text, size_t len, const char *english, const char *path,
            char follows[LAB_TRANSLATION_HASH_LEN + 1], lab_err *err)
{
    const char *name = base_name(english);
    size_t n = strlen(name), line = lab_translation_marker_len(text, len);
    char want[512];

    while (line && (text[line - 1] == '\n' || text[line - 1] == '\r'))
        line--;
    for (size_t i = 0; line && i < ARRAY_SIZE(markers); i++) {
        size_t open = strlen(markers[i].open), close = strlen(markers[i].close);
        const char *p = text + open, *hash = p + n + 3;

        if (line < open || memcmp(text, markers[i].open, open))
            continue;
        if (line != open + n + 3 + LAB_TRANSLATION_HASH_LEN + close || memcmp(p, name, n) ||
            memcmp(p + n, " @ ", 3) || !all_hex(hash, LAB_TRANSLATION_HASH_LEN) ||
            memcmp(hash + LAB_TRANSLATION_HASH_LEN, markers[i].close, close))
            break;
        for (size_t k = 0; k < LAB_TRANSLATION_HASH_LEN; k++)
            follows[k] = (char)tolower((unsigned char)hash[k]);
        follows[LAB_TRANSLATION_HASH_LEN] = '\0';
        return 0;
    }
    snprintf(want, sizeof(want), "%s%s @ <12 hex digits of sha256sum %s>%s", markers[0].open, name,
             name, markers[0].close);
    return lab_err_set(err, LAB_EPARSE,
                       "%s:1: the first line must name the English revision it follows: '%s' "
                       "(in an INI file: '; translation of %s @ ...')",
                       path, want, name);
}

int
lab_translation_check(const char *english, const char *lang, lab_translation *out, lab_err *err)
{
    lab_buf text = LAB_BUF_INIT;
    char hex[LAB_SHA256_HEX];
    lab_err terr = LAB_ERR_INIT;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!(out->path = lab_translation_path(english, lang)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = lab_buf_read_regular(&text, english, LAB_CATALOG_TEXT_CAP, err)) < 0)
        goto out;
    lab_sha256_hex(text.buf, text.len, hex);
    memcpy(out->english, hex, LAB_TRANSLATION_HASH_LEN);
    lab_buf_reset(&text);
    if (lab_buf_read_regular(&text, out->path, LAB_CATALOG_TEXT_CAP, &terr) < 0) {
        out->state = LAB_TRANSLATION_MISSING;
        if (terr.code == LAB_ENOMEM)
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        else if (terr.code != LAB_ENOENT)
            out->state = LAB_TRANSLATION_BROKEN, lab_err_set(err, terr.code, "%s", terr.msg);
        goto out;
    }
    if (read_marker(text.buf, text.len, english, out->path, out->follows, err) < 0)
        out->state = LAB_TRANSLATION_BROKEN;
    else
        out->state =
            strcmp(out->follows, out->english) ? LAB_TRANSLATION_STALE : LAB_TRANSLATION_CURRENT;
out:
    lab_buf_release(&text);
    return rc;
}

/* The parts of a Markdown text a translation keeps: code blocks and hint headings. */
struct kept {
    lab_strvec code;     /* each fenced block, fences included */
    lab_strvec headings; /* "## " lines outside code */
    lab_strvec lines;    /* "N": the line each code block starts on */
};

static bool
is_fence(const char *line, size_t len)
{
    size_t i = 0;

    while (i < len && i < 3 && line[i] == ' ')
        i++;
    return len - i >= 3 && (!memcmp(line + i, "```", 3) || !memcmp(line + i, "~~~", 3));
}

static int
collect_kept(const char *text, size_t len, struct kept *k)
{
    lab_buf block = LAB_BUF_INIT;
    bool in_code = false;
    unsigned lineno = 0;
    int rc = 0;

    for (size_t i = 0; i < len && rc == 0;) {
        size_t n = 0;
        while (i + n < len && text[i + n] != '\n')
            n++;
        lineno++;
        if (is_fence(text + i, n)) {
            if (!in_code)
                rc = lab_strvec_pushf(&k->lines, "%u", lineno);
            if (rc == 0)
                rc = lab_buf_add(&block, text + i, n);
            if (rc == 0 && in_code)
                rc = lab_strvec_push(&k->code, block.buf), lab_buf_reset(&block);
            else if (rc == 0)
                rc = lab_buf_addch(&block, '\n');
            in_code = !in_code;
        } else if (in_code) {
            if ((rc = lab_buf_add(&block, text + i, n)) == 0)
                rc = lab_buf_addch(&block, '\n');
        } else if (n >= 3 && !memcmp(text + i, "## ", 3)) {
            lab_buf h = LAB_BUF_INIT;
            if ((rc = lab_buf_add(&h, text + i, n)) == 0)
                rc = lab_strvec_push(&k->headings, h.buf);
            lab_buf_release(&h);
        }
        i += n + 1;
    }
    lab_buf_release(&block);
    return rc;
}

static void
kept_release(struct kept *k)
{
    lab_strvec_release(&k->code);
    lab_strvec_release(&k->headings);
    lab_strvec_release(&k->lines);
}

int
lab_translation_compare_markdown(const char *english, size_t english_len, const char *translated,
                                 size_t translated_len, const char *path, bool hints,
                                 lab_strvec *problems)
{
    struct kept en = { LAB_STRVEC_INIT, LAB_STRVEC_INIT, LAB_STRVEC_INIT };
    struct kept tr = { LAB_STRVEC_INIT, LAB_STRVEC_INIT, LAB_STRVEC_INIT };
    int rc;

    if ((rc = collect_kept(english, english_len, &en)) < 0 ||
        (rc = collect_kept(translated, translated_len, &tr)) < 0)
        goto out;
    if (en.code.n != tr.code.n)
        rc = lab_strvec_pushf(problems, "%s:0: %zu code blocks where the English file has %zu",
                              path, tr.code.n, en.code.n);
    for (size_t i = 0; rc == 0 && i < en.code.n && i < tr.code.n; i++)
        if (strcmp(en.code.v[i], tr.code.v[i]))
            rc = lab_strvec_pushf(problems,
                                  "%s:%s: code block %zu differs from the English file's (code "
                                  "is never translated)",
                                  path, tr.lines.v[i], i + 1);
    if (rc == 0 && hints && en.headings.n != tr.headings.n)
        rc = lab_strvec_pushf(problems, "%s:0: %zu hints where the English file has %zu", path,
                              tr.headings.n, en.headings.n);
    for (size_t i = 0; rc == 0 && hints && i < en.headings.n && i < tr.headings.n; i++)
        if (strcmp(en.headings.v[i], tr.headings.v[i]))
            rc = lab_strvec_pushf(problems, "%s:0: heading '%s' should stay '%s' as in English",
                                  path, tr.headings.v[i], en.headings.v[i]);
out:
    kept_release(&en);
    kept_release(&tr);
    return rc;
}

struct ini_read {
    lab_inifile ini;
    const char *path;
    const char *const *text_keys;
    lab_strvec sections; /* the English file's */
    lab_translated_ini *out;
    lab_err *err;
    int rc;
};

static int
on_english_key(void *user, const char *section, const char *name, const char *value)
{
    struct ini_read *r = user;

    (void)name;
    (void)value;
    for (size_t i = 0; i < r->sections.n; i++)
        if (!strcmp(r->sections.v[i], section))
            return 1;
    if (lab_strvec_push(&r->sections, section) < 0)
        return r->rc = LAB_ENOMEM, 0;
    return 1;
}

static bool
listed(const char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; n ? i < n : v[i] != NULL; i++)
        if (!strcmp(v[i], s))
            return true;
    return false;
}

static int
on_translated_key(void *user, const char *section, const char *name, const char *value)
{
    struct ini_read *r = user;
    lab_translated_ini *t = r->out;
    lab_translated_key *last = t->n ? &t->v[t->n - 1] : NULL, *v;

    if (r->rc < 0)
        return 0;
    if (!listed((const char *const *)r->sections.v, r->sections.n, section))
        return r->rc =
                   lab_err_set(r->err, LAB_EPARSE, "%s:%d: section [%s] is not in the English file",
                               r->path, r->ini.line, section),
               0;
    if (!listed(r->text_keys, 0, name))
        return r->rc = lab_err_set(r->err, LAB_EPARSE,
                                   "%s:%d: '%s' is not translated: the English file's value "
                                   "holds in every language (remove the line)",
                                   r->path, r->ini.line, name),
               0;
    if (last && !strcmp(last->section, section) && !strcmp(last->key, name)) {
        char *joined = NULL;
        if (asprintf(&joined, "%s\n%s", last->value, value) < 0)
            return r->rc = LAB_ENOMEM, 0;
        free(last->value);
        last->value = joined;
        return 1;
    }
    if (!(v = realloc(t->v, (t->n + 1) * sizeof(*v))))
        return r->rc = LAB_ENOMEM, 0;
    t->v = v;
    v = &t->v[t->n];
    v->section = strdup(section);
    v->key = strdup(name);
    v->value = strdup(value);
    v->line = r->ini.line;
    t->n++;
    if (!v->section || !v->key || !v->value)
        return r->rc = LAB_ENOMEM, 0;
    return 1;
}

int
lab_translated_ini_read(const char *path, const char *english_ini, const char *const *text_keys,
                        lab_translated_ini *out, lab_err *err)
{
    struct ini_read r = {
        .path = path, .text_keys = text_keys, .sections = LAB_STRVEC_INIT, .out = out, .err = err
    };
    int rc;

    out->v = NULL;
    out->n = 0;
    if ((rc = lab_inifile_parse(english_ini, &r.ini, on_english_key, &r, err)) < 0)
        goto out;
    if (rc > 0 || r.rc < 0) {
        rc = r.rc < 0 ? lab_err_set(err, r.rc, "out of memory")
                      : lab_err_set(err, LAB_EPARSE, "%s:%d: not an INI line", english_ini, rc);
        goto out;
    }
    if ((rc = lab_inifile_parse(path, &r.ini, on_translated_key, &r, err)) < 0)
        goto out;
    if (r.rc < 0)
        rc = r.rc == LAB_ENOMEM ? lab_err_set(err, LAB_ENOMEM, "out of memory") : r.rc;
    else if (rc > 0)
        rc = lab_err_set(err, LAB_EPARSE, "%s:%d: not an INI line", path, rc);
out:
    lab_strvec_release(&r.sections);
    if (rc < 0)
        lab_translated_ini_release(out);
    return rc;
}

const lab_translated_key *
lab_translated_ini_find(const lab_translated_ini *t, const char *section, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].section, section) && !strcmp(t->v[i].key, key))
            return &t->v[i];
    return NULL;
}

void
lab_translated_ini_release(lab_translated_ini *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].section);
        free(t->v[i].key);
        free(t->v[i].value);
    }
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

/* "ko", "zh_CN": two or three lower-case letters, then maybe "_" and two capitals. */
static bool
is_lang_code(const char *s, size_t len)
{
    size_t i = 0;

    while (i < len && islower((unsigned char)s[i]))
        i++;
    if (i < 2 || i > 3)
        return false;
    if (i == len)
        return true;
    return len == i + 3 && s[i] == '_' && isupper((unsigned char)s[i + 1]) &&
           isupper((unsigned char)s[i + 2]);
}

static int
add_language(lab_strvec *out, const char *code, size_t len)
{
    lab_buf b = LAB_BUF_INIT;
    int rc;

    for (size_t i = 0; i < out->n; i++)
        if (strlen(out->v[i]) == len && !memcmp(out->v[i], code, len))
            return 0;
    if ((rc = lab_buf_add(&b, code, len)) == 0)
        rc = lab_strvec_push(out, b.buf);
    lab_buf_release(&b);
    return rc;
}

/* NAME.LANG.EXT in dir beside NAME.EXT: LANG onto out; then the folders below. */
static int
scan_dir(const char *dir, int depth, lab_strvec *out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;

    if (!d)
        return 0;
    while (rc == 0 && (e = readdir(d))) {
        const char *ext = strrchr(e->d_name, '.'), *lang;
        lab_buf p = LAB_BUF_INIT;
        struct stat st;

        if (e->d_name[0] == '.' || lab_buf_printf(&p, "%s/%s", dir, e->d_name) < 0) {
            rc = e->d_name[0] == '.' ? 0 : LAB_ENOMEM;
            lab_buf_release(&p);
            continue;
        }
        if (stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode) && depth < 4) {
            rc = scan_dir(p.buf, depth + 1, out);
        } else if (ext && ext != e->d_name) {
            for (lang = ext - 1; lang > e->d_name && lang[-1] != '.'; lang--)
                ;
            if (lang > e->d_name && is_lang_code(lang, (size_t)(ext - lang))) {
                lab_buf english = LAB_BUF_INIT;
                if (lab_buf_printf(&english, "%s/%.*s%s", dir, (int)(lang - 1 - e->d_name),
                                   e->d_name, ext) < 0)
                    rc = LAB_ENOMEM;
                else if (stat(english.buf, &st) == 0)
                    rc = add_language(out, lang, (size_t)(ext - lang));
                lab_buf_release(&english);
            }
        }
        lab_buf_release(&p);
    }
    closedir(d);
    return rc;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int
lab_translation_languages(const char *datadir, lab_strvec *out, lab_err *err)
{
    static const char *const roots[] = { "docs", "exercises" };
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(roots); i++) {
        lab_buf dir = LAB_BUF_INIT;
        rc = lab_buf_printf(&dir, "%s/%s", datadir, roots[i]);
        if (rc == 0)
            rc = scan_dir(dir.buf, 0, out);
        lab_buf_release(&dir);
    }
    if (rc < 0)
        return lab_err_set(err, rc, "out of memory");
    if (out->n)
        qsort(out->v, out->n, sizeof(*out->v), cmp_str);
    return 0;
}
