/*
 * libs.c - the libraries a program loads, as ldd and LD_LIBRARY_PATH tell them (see libs.h).
 */
#include "lab/platform/libs.h"
#include "lab/platform/proc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LDD_TIMEOUT_S 10

/* The last answer found, and what it was found for: a lab starts one driver program for every
 * grading (a batch, hundreds of them, on several threads) and what it loads does not change
 * while the lab runs, so ldd runs once per program and LD_LIBRARY_PATH, not once per start. */
static struct {
    pthread_mutex_t mu;
    lab_buf key;     /* program, LD_LIBRARY_PATH and the dlopened names, each ending in '\n' */
    lab_strvec libs; /* their answer */
    bool found;      /* key and libs hold one */
} memo = { .mu = PTHREAD_MUTEX_INITIALIZER, .key = LAB_BUF_INIT, .libs = LAB_STRVEC_INIT };

static bool
listed(const lab_strvec *v, const char *s)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return true;
    return false;
}

static int
add(lab_strvec *out, const char *path, size_t len, lab_err *err)
{
    char *p = strndup(path, len);
    int rc = 0;

    if (!p)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (!listed(out, p) && lab_strvec_push(out, p) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    free(p);
    return rc;
}

/* One line of ldd's answer: "\tNAME => PATH (0x...)", "\tNAME => not found", "\tPATH (0x...)"
 * (the loader itself) or "\tlinux-vdso.so.1 (0x...)" (in the kernel: nothing to show). */
static int
ldd_line(const char *program, const char *line, size_t len, lab_strvec *out, lab_err *err)
{
    const char *arrow = memmem(line, len, " => ", 4), *path = line, *end;
    const char *ld_path = getenv("LD_LIBRARY_PATH");

    while (path < line + len && (*path == '\t' || *path == ' '))
        path++;
    if (arrow) {
        if ((size_t)(line + len - (arrow + 4)) >= 9 && !strncmp(arrow + 4, "not found", 9))
            return lab_err_set(err, LAB_ENOENT,
                               "'%s' needs %.*s, which the dynamic loader does not find here "
                               "(LD_LIBRARY_PATH=%s): install it, or put its folder on "
                               "LD_LIBRARY_PATH",
                               program, (int)(arrow - path), path, ld_path ? ld_path : "");
        path = arrow + 4;
    }
    if (path >= line + len || *path != '/')
        return 0;
    end = memmem(path, (size_t)(line + len - path), " (", 2);
    return add(out, path, end ? (size_t)(end - path) : (size_t)(line + len - path), err);
}

/* ldd PROGRAM's libraries into out; nothing when ldd cannot tell (not installed, a static
 * program). */
static int
ldd(const char *program, lab_strvec *out, lab_err *err)
{
    lab_err ignored = LAB_ERR_INIT;
    lab_proc p;
    int rc = 0;

    lab_proc_init(&p);
    p.timeout_s = LDD_TIMEOUT_S;
    if (lab_strvec_pushl(&p.argv, "ldd", program, NULL) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (lab_proc_run(&p, &ignored) < 0 || !p.exited)
        goto out;
    /* ldd reports a missing library and still exits 0; a status of 1 is "not a dynamic
     * executable", whose answer is no library */
    for (size_t at = 0; rc == 0 && at < p.out.len;) {
        size_t len = strcspn(p.out.buf + at, "\n");

        rc = ldd_line(program, p.out.buf + at, len, out, err);
        at += len + 1;
    }
out:
    lab_proc_release(&p);
    return rc;
}

/* name in the first folder of LD_LIBRARY_PATH that holds it, into path; false when none does
 * (dlopen then asks the system's cache, whose folders a sandbox shows). */
static bool
in_library_path(const char *name, lab_buf *path)
{
    const char *dirs = getenv("LD_LIBRARY_PATH");

    for (const char *d = dirs; d && *d;) {
        size_t len = strcspn(d, ":");

        if (len) {
            lab_buf_reset(path);
            lab_buf_printf(path, "%.*s/%s", (int)len, d, name);
            if (access(path->buf, R_OK) == 0)
                return true;
        }
        d += len + (d[len] == ':');
    }
    return false;
}

/* What lab_libs_needed finds, ldd asked, into out (empty). */
static int
find(const char *program, const char *const *dlopened, lab_strvec *out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    int rc;

    if ((rc = ldd(program, out, err)) < 0)
        goto out;
    for (const char *const *name = dlopened; name && *name; name++) {
        if (!in_library_path(*name, &path))
            continue;
        if ((rc = add(out, path.buf, path.len, err)) < 0 || (rc = ldd(path.buf, out, err)) < 0)
            goto out;
    }
out:
    lab_buf_release(&path);
    return rc;
}

int
lab_libs_needed(const char *program, const char *const *dlopened, lab_strvec *out, lab_err *err)
{
    const char *ld_path = getenv("LD_LIBRARY_PATH");
    lab_strvec libs = LAB_STRVEC_INIT;
    lab_buf key = LAB_BUF_INIT;
    int rc = 0;

    if (lab_buf_printf(&key, "%s\n%s\n", program, ld_path ? ld_path : "") < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (const char *const *name = dlopened; rc == 0 && name && *name; name++)
        if (lab_buf_printf(&key, "%s\n", *name) < 0)
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (rc < 0)
        goto out;
    pthread_mutex_lock(&memo.mu);
    if (!memo.found || memo.key.len != key.len || memcmp(memo.key.buf, key.buf, key.len)) {
        /* a failure is not kept: the next start asks again */
        if ((rc = find(program, dlopened, &libs, err)) == 0) {
            lab_strvec_release(&memo.libs);
            lab_buf_release(&memo.key);
            memo.libs = libs;
            memo.key = key;
            memo.found = true;
            libs = (lab_strvec)LAB_STRVEC_INIT;
            key = (lab_buf)LAB_BUF_INIT;
        }
    }
    for (size_t i = 0; rc == 0 && i < memo.libs.n; i++)
        rc = add(out, memo.libs.v[i], strlen(memo.libs.v[i]), err);
    pthread_mutex_unlock(&memo.mu);
out:
    lab_strvec_release(&libs);
    lab_buf_release(&key);
    return rc;
}
