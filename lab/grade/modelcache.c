/*
 * modelcache.c - the baseline's and the reference's model counts, kept (see modelcache.h).
 */
#include "lab/grade/modelcache.h"
#include "lab/grade/runner.h"
#include "lab/util/err.h"
#include "lab/util/path.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The arguments that are the student's: they are not part of the key. */
static const char *const student_args[] = { "--student=", "--globals=" };

static bool
is_student_arg(const char *a)
{
    for (size_t i = 0; i < ARRAY_SIZE(student_args); i++)
        if (!strncmp(a, student_args[i], strlen(student_args[i])))
            return true;
    return false;
}

/* A file's identity in the key: its size and time of change (rebuilt, it is another). */
static void
add_file(lab_hash *h, const char *path)
{
    struct stat st;
    long long id[3];

    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
        return;
    id[0] = (long long)st.st_size;
    id[1] = (long long)st.st_mtim.tv_sec;
    id[2] = (long long)st.st_mtim.tv_nsec;
    lab_hash_add(h, id, sizeof(id));
}

void
lab_modelcache_key(const char *libexecdir, const char *builddir, const char *program,
                   const lab_strvec *args, char key[LAB_HASH_HEX])
{
    lab_buf driver = LAB_BUF_INIT;
    lab_hash h;

    lab_hash_init(&h);
    lab_hash_adds(&h, "model counts 1");
    lab_buf_printf(&driver, "%s/" LAB_RUNNER_PROGRAM, libexecdir);
    lab_hash_adds(&h, driver.buf);
    add_file(&h, driver.buf);
    lab_hash_adds(&h, program);
    for (size_t i = 0; i < args->n; i++) {
        const char *eq = strchr(args->v[i], '=');
        if (is_student_arg(args->v[i]))
            continue;
        lab_hash_adds(&h, args->v[i]);
        /* a build of the cache is named by its content, and its time of change is its last use
         * (the cache's eviction, lab/build/buildcache.c): its name is its identity */
        if (eq && !lab_path_in_dir(eq + 1, builddir))
            add_file(&h, eq + 1);
    }
    lab_hash_hex(&h, key);
    lab_buf_release(&driver);
}

static void
path_of(const char *cachedir, const char *key, lab_buf *path)
{
    lab_buf_printf(path, "%s/model/%s.json", cachedir, key);
}

bool
lab_modelcache_load(const char *cachedir, const char *key, lab_buf *out)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err ignored = LAB_ERR_INIT;
    bool ok;

    lab_buf_reset(out);
    path_of(cachedir, key, &path);
    ok = lab_buf_read_file(out, path.buf, &ignored) == 0 && out->len > 0;
    if (ok) { /* a damaged file is as good as none: the run counts them again */
        cJSON *kept = cJSON_ParseWithLength(out->buf, out->len);
        ok = kept && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(kept, "sim_metrics")) &&
             cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(kept, "cases"));
        cJSON_Delete(kept);
    }
    if (!ok)
        lab_buf_reset(out);
    lab_buf_release(&path);
    return ok;
}

/* Copies the entries of array `name` in from whose role is not the student's into to. */
static int
copy_others(const cJSON *from, cJSON *to, const char *name)
{
    const cJSON *e, *arr = cJSON_GetObjectItemCaseSensitive(from, name);
    cJSON *out = cJSON_AddArrayToObject(to, name);
    int n = 0;

    if (!out)
        return -1;
    cJSON_ArrayForEach(e, arr)
    {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "role");
        if (!cJSON_IsString(r) || !strcmp(r->valuestring, "student"))
            continue;
        cJSON_AddItemToArray(out, cJSON_Duplicate(e, true));
        n++;
    }
    return n;
}

void
lab_modelcache_store(const char *cachedir, const char *key, const char *report, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(report, len), *kept = cJSON_CreateObject();
    lab_buf path = LAB_BUF_INIT, dir = LAB_BUF_INIT;
    lab_err ignored = LAB_ERR_INIT;
    char *text = NULL;

    if (!root || !kept || copy_others(root, kept, "sim_metrics") <= 0 ||
        copy_others(root, kept, "cases") <= 0)
        goto out;
    lab_buf_printf(&dir, "%s/model", cachedir);
    path_of(cachedir, key, &path);
    if ((text = cJSON_PrintUnformatted(kept)) && lab_mkdir_p(dir.buf, 0755, &ignored) == 0)
        lab_write_file(path.buf, text, strlen(text), &ignored);
out:
    free(text);
    cJSON_Delete(root);
    cJSON_Delete(kept);
    lab_buf_release(&path);
    lab_buf_release(&dir);
}

int
lab_modelcache_merge(lab_buf *report, const char *kept, size_t len, lab_err *err)
{
    static const char *const arrays[] = { "sim_metrics", "cases" };
    cJSON *root = cJSON_ParseWithLength(report->buf, report->len);
    cJSON *from = cJSON_ParseWithLength(kept, len);
    char *text = NULL;
    int rc = 0;

    if (!root || !from) {
        rc = lab_err_set(err, LAB_EPARSE, "the model's report or its kept counts do not parse");
        goto out;
    }
    for (size_t i = 0; i < ARRAY_SIZE(arrays); i++) {
        cJSON *to = cJSON_GetObjectItemCaseSensitive(root, arrays[i]), *e;
        if (!cJSON_IsArray(to) && !(to = cJSON_AddArrayToObject(root, arrays[i]))) {
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
            goto out;
        }
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(from, arrays[i]))
            cJSON_AddItemToArray(to, cJSON_Duplicate(e, true));
    }
    if (!(text = cJSON_PrintUnformatted(root))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    lab_buf_reset(report);
    lab_buf_add(report, text, strlen(text));
out:
    free(text);
    cJSON_Delete(root);
    cJSON_Delete(from);
    return rc;
}
