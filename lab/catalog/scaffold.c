/*
 * scaffold.c - writes a new exercise's files (see scaffold.h).
 */
#include "lab/catalog/scaffold.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The function a template starter defines: a kernel, or a host function. */
static const char *
template_name(const lab_family *family)
{
    return family->kind == LAB_FAMILY_KERNEL ? "myKernel" : "myFunction";
}

static bool
valid_id(const char *id)
{
    const char *slash = strchr(id, '/');

    if (!slash || slash == id || !slash[1] || strchr(slash + 1, '/'))
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '/'))
            return false;
    return true;
}

static int
write_new(const char *path, const lab_buf *text, lab_strvec *created, lab_err *err)
{
    int rc = lab_write_file(path, text->buf, text->len, err);

    return rc < 0 ? rc : lab_strvec_push(created, path);
}

static void
manifest_text(const lab_exercise *like, const char *id, const char *chapter, const char *name,
              const lab_family *family, lab_buf *m)
{
    lab_buf_printf(m, "; TODO: one line on what this step teaches\n[exercise]\nformat = 1\n");
    lab_buf_printf(m, "id = %s\nchapter = %s\n", id, chapter);
    lab_buf_printf(m, "order = %d\n", like ? like->order + 1 : 1);
    lab_buf_printf(m, "title = TODO %s\n", name);
    lab_buf_printf(m, "kernel = %s\n", like ? like->kernel : template_name(family));
    lab_buf_printf(m, "family = %s\n", family->name);
    if (family->kind == LAB_FAMILY_HOST)
        lab_buf_adds(m, "kind = host\n");
    lab_buf_adds(m, "starter = starter.cu\n");
    lab_buf_printf(m, "solution = solutions/%s.cu\n", id);
    lab_buf_printf(m, "baseline = %s\n", like ? like->id : "cpu");
    lab_buf_adds(m, "sizes = ");
    for (size_t i = 0; like && i < like->nsizes; i++)
        lab_buf_printf(m, "%s%lu", i ? ", " : "", like->sizes[i]);
    lab_buf_adds(m, like ? "\n" : "1, 1000, 1048579, 1<<24\n");
    lab_buf_printf(m, "block = %u\nunroll = %u\n", like ? like->block : 512,
                   like ? like->unroll : 1);
    lab_buf_printf(m, "build_timeout = 120\nrun_timeout = 120\n");
    lab_buf_printf(m, "min_speedup = %.2f\nmin_fraction_of_reference = %.2f\n",
                   like ? like->min_speedup : 1.10, like ? like->min_fraction_of_reference : 0.75);
    lab_buf_printf(m, "points = %d\n", like ? like->points : 10);
    if (like && like->nconstraints) {
        lab_buf_adds(m, "constraints = ");
        for (size_t i = 0; i < like->nconstraints; i++)
            lab_buf_printf(m, "%s%s", i ? ", " : "", like->constraints[i]);
        lab_buf_adds(m, "\n");
    }
    lab_buf_adds(m, "hints = hints.md\ntask = task.md\n");
}

/* A kernel file: the like's solution, or a template saying what it is for. */
static int
kernel_text(const lab_exercise *like, const char *what, const char *id, const lab_family *family,
            lab_buf *out, lab_err *err)
{
    lab_buf_reset(out);
    if (like)
        return lab_buf_read_file(out, like->solution, err);
    return lab_buf_printf(out, "// TODO: %s %s\n%s%s%s %s(%s)\n{\n%s}\n", what, id,
                          family->preamble, family->kind == LAB_FAMILY_KERNEL ? "__global__ " : "",
                          family->returns, template_name(family), family->params,
                          strcmp(family->returns, "void") ? "    return 0;\n" : "");
}

int
lab_scaffold_exercise(const char *datadir, const lab_catalog *cat, const char *id,
                      const lab_family *family, const char *like_id, lab_strvec *created,
                      lab_err *err)
{
    const lab_exercise *like = NULL;
    lab_buf dir = LAB_BUF_INIT, path = LAB_BUF_INIT, text = LAB_BUF_INIT, sol = LAB_BUF_INIT;
    lab_buf chapter = LAB_BUF_INIT;
    const char *name;
    struct stat st;
    int rc = 0;

    if (!valid_id(id))
        return lab_err_set(err, LAB_EINVAL,
                           "'%s' is not CHAPTER/NAME in lower case letters, digits and '-'", id);
    if (like_id && !(like = lab_catalog_find(cat, like_id)))
        return lab_err_set(err, LAB_ENOENT, "--like: unknown exercise '%s'", like_id);
    name = strchr(id, '/') + 1;
    lab_buf_add(&chapter, id, (size_t)(name - id - 1));
    lab_buf_printf(&dir, "%s/exercises/%s", datadir, id);
    lab_buf_printf(&sol, "%s/solutions/%s.cu", datadir, id);
    if (stat(dir.buf, &st) == 0 || stat(sol.buf, &st) == 0) {
        rc = lab_err_set(err, LAB_EINVAL, "'%s' exists already: nothing written",
                         stat(dir.buf, &st) == 0 ? dir.buf : sol.buf);
        goto out;
    }
    for (const char *const *k = (const char *const[]){ "ok", "wrong", "cheat", NULL }; *k; k++) {
        lab_buf_reset(&path);
        lab_buf_printf(&path, "%s/examples/%s", dir.buf, *k);
        if ((rc = lab_mkdir_p(path.buf, 0755, err)) < 0)
            goto out;
    }
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/solutions/%s", datadir, chapter.buf);
    if ((rc = lab_mkdir_p(path.buf, 0755, err)) < 0)
        goto out;

    manifest_text(like, id, chapter.buf, name, family, &text);
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/exercise.ini", dir.buf);
    if ((rc = write_new(path.buf, &text, created, err)) < 0)
        goto out;

    lab_buf_reset(&text);
    lab_buf_printf(&text,
                   "# TODO: the task of %s\n\nWhat to change in `starter.cu`, and how it is "
                   "graded.\n",
                   id);
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/task.md", dir.buf);
    if ((rc = write_new(path.buf, &text, created, err)) < 0)
        goto out;
    lab_buf_reset(&text);
    lab_buf_adds(&text, "## Hint 1\n\nTODO: the first nudge.\n\n## Hint 2\n\nTODO: the second.\n");
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/hints.md", dir.buf);
    if ((rc = write_new(path.buf, &text, created, err)) < 0)
        goto out;

    /* the solution and the starter: the like's solution, or a template */
    if ((rc = kernel_text(like, "the reference solution of", id, family, &text, err)) < 0 ||
        (rc = write_new(sol.buf, &text, created, err)) < 0 ||
        (rc = kernel_text(like, "the starter students edit for", id, family, &text, err)) < 0)
        goto out;
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/starter.cu", dir.buf);
    rc = write_new(path.buf, &text, created, err);
out:
    lab_buf_release(&dir);
    lab_buf_release(&path);
    lab_buf_release(&text);
    lab_buf_release(&sol);
    lab_buf_release(&chapter);
    return rc;
}
