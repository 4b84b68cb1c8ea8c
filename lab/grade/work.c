/*
 * work.c - the student's copy of an exercise (see work.h).
 */
#include "lab/grade/work.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
lab_work_path(const lab_exercise *ex, lab_buf *out)
{
    return lab_buf_printf(out, "work/%s/%s.cu", ex->chapter, ex->name);
}

int
lab_work_start(const lab_exercise *ex, lab_buf *path_out, bool *created_out, lab_err *err)
{
    lab_buf dir = LAB_BUF_INIT, text = LAB_BUF_INIT;
    int rc = 0;

    *created_out = false;
    lab_buf_reset(path_out);
    if ((rc = lab_work_path(ex, path_out)) < 0)
        return lab_err_set(err, rc, "out of memory");
    if (access(path_out->buf, F_OK) == 0)
        return 0;
    lab_buf_printf(&dir, "work/%s", ex->chapter);
    if ((rc = lab_mkdir_p(dir.buf, 0755, err)) < 0 ||
        (rc = lab_buf_read_file(&text, ex->starter, err)) < 0 ||
        (rc = lab_write_file(path_out->buf, text.buf, text.len, err)) < 0)
        goto out;
    *created_out = true;
out:
    lab_buf_release(&dir);
    lab_buf_release(&text);
    return rc;
}

int
lab_work_reset(const lab_exercise *ex, lab_buf *path_out, lab_buf *backup_out, lab_err *err)
{
    lab_buf old = LAB_BUF_INIT, text = LAB_BUF_INIT;
    bool created;
    int rc;

    lab_buf_reset(backup_out);
    if ((rc = lab_work_start(ex, path_out, &created, err)) < 0 || created)
        goto out;
    if ((rc = lab_buf_read_file(&old, path_out->buf, err)) < 0)
        goto out;
    for (int n = 1;; n++) {
        lab_buf_reset(backup_out);
        lab_buf_printf(backup_out, "%s.%d.bak", path_out->buf, n);
        if (access(backup_out->buf, F_OK) < 0)
            break;
    }
    if ((rc = lab_write_file(backup_out->buf, old.buf, old.len, err)) < 0 ||
        (rc = lab_buf_read_file(&text, ex->starter, err)) < 0 ||
        (rc = lab_write_file(path_out->buf, text.buf, text.len, err)) < 0)
        goto out;
out:
    lab_buf_release(&old);
    lab_buf_release(&text);
    return rc;
}

int
lab_work_next(const lab_catalog *cat, lab_store *st, const lab_exercise *after,
              const lab_exercise **out, lab_err *err)
{
    size_t n = lab_catalog_exercise_count(cat), start = 0;
    int rc;

    *out = NULL;
    for (size_t i = 0; after && i < n; i++)
        if (lab_catalog_exercise(cat, i) == after)
            start = i + 1;
    for (size_t k = 0; k < n; k++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, (start + k) % n);
        lab_progress p;
        if ((rc = lab_store_progress(st, ex->id, &p, err)) < 0)
            return rc;
        if (!p.passed) {
            *out = ex;
            return 0;
        }
    }
    return 0;
}

const lab_exercise *
lab_work_exercise_of(const lab_catalog *cat, const char *chapter, const char *name)
{
    size_t len = strlen(name);
    char id[192];

    if (len <= 3 || strcmp(name + len - 3, ".cu"))
        return NULL;
    snprintf(id, sizeof(id), "%s/%.*s", chapter, (int)(len - 3), name);
    return lab_catalog_find(cat, id);
}
