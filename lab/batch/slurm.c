/*
 * slurm.c - the scripts of a Slurm batch and their submission (see slurm.h).
 */
#include "lab/batch/slurm.h"
#include "lab/platform/proc.h"

#include <stdio.h>
#include <string.h>

void
lab_slurm_job_init(lab_slurm_job *j)
{
    memset(j, 0, sizeof(*j));
    lab_buf_init(&j->array_script);
    lab_buf_init(&j->merge_script);
}

void
lab_slurm_job_release(lab_slurm_job *j)
{
    lab_buf_release(&j->array_script);
    lab_buf_release(&j->merge_script);
}

/* s as one shell word */
static void
quote(lab_buf *b, const char *s)
{
    lab_buf_addch(b, '\'');
    for (; *s; s++)
        if (*s == '\'')
            lab_buf_adds(b, "'\\''");
        else
            lab_buf_addch(b, *s);
    lab_buf_addch(b, '\'');
}

/* One list per task: the paths, each ended by a NUL, which no path holds (a newline may be in
 * a name: # 34); `cudalab batch --from` reads such a list. */
static int
write_lists(const lab_slurm_opts *o, lab_slurm_job *j, lab_err *err)
{
    int rc = 0;

    j->tasks = (o->nsubs + o->chunk - 1) / o->chunk;
    for (size_t t = 0; rc == 0 && t < j->tasks; t++) {
        lab_buf list = LAB_BUF_INIT, path = LAB_BUF_INIT;

        for (size_t i = t * o->chunk; i < o->nsubs && i < (t + 1) * o->chunk; i++)
            lab_buf_add(&list, o->subs[i], strlen(o->subs[i]) + 1);
        lab_buf_printf(&path, "%s/slurm/list-%zu", o->out, t);
        rc = lab_write_file(path.buf, list.buf, list.len, err);
        lab_buf_release(&list);
        lab_buf_release(&path);
    }
    return rc;
}

/* A value that goes on an #SBATCH line as it is: sbatch reads the line as words, and a line
 * break would end the directives and start a line of the script (a command of the grader's
 * shell).  So only what Slurm's partition names and resource specifications are made of. */
static int
check_directive(const char *what, const char *v, lab_err *err)
{
    for (const char *c = v; c && *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              strchr("_.,:=+-/()%", *c)))
            return lab_err_set(err, LAB_EINVAL,
                               "%s '%s' holds '%c' (byte %u): a job script's #SBATCH line takes "
                               "letters, digits and _.,:=+-/()%% only",
                               what, v, (unsigned char)*c >= ' ' ? *c : '?', (unsigned char)*c);
    return v && !*v ? lab_err_set(err, LAB_EINVAL, "%s is empty", what) : 0;
}

int
lab_slurm_prepare(const lab_slurm_opts *o, lab_slurm_job *j, lab_err *err)
{
    lab_buf dir = LAB_BUF_INIT, s = LAB_BUF_INIT;
    int rc;

    if (!o->nsubs || !o->chunk)
        return lab_err_set(err, LAB_EINVAL, "no submissions to send to Slurm");
    if ((rc = check_directive("--gres", o->gres, err)) < 0 ||
        (rc = check_directive("--partition", o->partition, err)) < 0)
        return rc;
    if (strpbrk(o->out, "\n\r"))
        return lab_err_set(err, LAB_EINVAL,
                           "the output folder's path holds a line break, which a job script's "
                           "#SBATCH --output cannot carry");
    lab_buf_printf(&dir, "%s/slurm", o->out);
    if ((rc = lab_mkdir_p(dir.buf, 0755, err)) < 0 || (rc = write_lists(o, j, err)) < 0)
        goto out;

    lab_buf_printf(&s, "#!/bin/bash\n# cudalab batch of %s: one array task per %zu submissions\n",
                   o->exercise, o->chunk);
    lab_buf_printf(&s, "#SBATCH --job-name=cudalab-batch\n#SBATCH --array=0-%zu\n", j->tasks - 1);
    lab_buf_printf(&s, "#SBATCH --output=%s/task-%%a.out\n", dir.buf);
    if (o->gres)
        lab_buf_printf(&s, "#SBATCH --gres=%s\n", o->gres);
    if (o->partition)
        lab_buf_printf(&s, "#SBATCH --partition=%s\n", o->partition);
    lab_buf_adds(&s, "exec ");
    quote(&s, o->self);
    lab_buf_adds(&s, " batch ");
    quote(&s, o->exercise);
    lab_buf_adds(&s, " --from ");
    quote(&s, dir.buf);
    lab_buf_adds(&s, "/list-\"$SLURM_ARRAY_TASK_ID\" --out ");
    quote(&s, o->out);
    lab_buf_printf(&s, "/parts/\"$SLURM_ARRAY_TASK_ID\" --jobs %d%s\n", o->jobs,
                   o->sandbox ? "" : " --no-sandbox");
    lab_buf_printf(&j->array_script, "%s/array.sh", dir.buf);
    if ((rc = lab_write_file(j->array_script.buf, s.buf, s.len, err)) < 0)
        goto out;

    lab_buf_reset(&s);
    lab_buf_printf(&s, "#!/bin/bash\n# cudalab: merge the %zu parts into one gradebook\n",
                   j->tasks);
    lab_buf_printf(&s, "#SBATCH --job-name=cudalab-merge\n#SBATCH --output=%s/merge.out\n",
                   dir.buf);
    if (o->partition)
        lab_buf_printf(&s, "#SBATCH --partition=%s\n", o->partition);
    lab_buf_adds(&s, "exec ");
    quote(&s, o->self);
    lab_buf_printf(&s, " gradebook merge%s --out ", o->gradescope ? " --format gradescope" : "");
    quote(&s, o->out);
    for (size_t t = 0; t < j->tasks; t++) {
        lab_buf part = LAB_BUF_INIT;
        lab_buf_printf(&part, "%s/parts/%zu", o->out, t);
        lab_buf_addch(&s, ' ');
        quote(&s, part.buf);
        lab_buf_release(&part);
    }
    lab_buf_addch(&s, '\n');
    lab_buf_printf(&j->merge_script, "%s/merge.sh", dir.buf);
    rc = lab_write_file(j->merge_script.buf, s.buf, s.len, err);
out:
    lab_buf_release(&dir);
    lab_buf_release(&s);
    return rc;
}

/* sbatch ARGS...; the job id (first field of --parsable) into id */
static int
sbatch(const char *const *args, double timeout_s, char *id, size_t size, lab_err *err)
{
    lab_proc p;
    char how[128];
    int rc;

    lab_proc_init(&p);
    p.timeout_s = timeout_s;
    lab_strvec_pushl(&p.argv, "sbatch", "--parsable", NULL);
    lab_strvec_pushv(&p.argv, args);
    if ((rc = lab_proc_run(&p, err)) < 0) {
        lab_err_wrap(err, "slurm");
        goto out;
    }
    if (!p.exited || p.exit_code != 0) {
        size_t len = strcspn(p.errout.buf, "\n");
        rc = lab_err_set(err, LAB_ECHILD, "sbatch %s: %.*s",
                         lab_proc_describe(&p, how, sizeof(how)), (int)len, p.errout.buf);
        goto out;
    }
    snprintf(id, size, "%.*s", (int)strcspn(p.out.buf, ";\n"), p.out.buf);
out:
    lab_proc_release(&p);
    return rc;
}

int
lab_slurm_submit(lab_slurm_job *j, bool wait, double timeout_s, lab_err *err)
{
    lab_buf dep = LAB_BUF_INIT;
    const char *array_args[] = { j->array_script.buf, NULL };
    int rc;

    if ((rc = sbatch(array_args, 60, j->array_id, sizeof(j->array_id), err)) < 0)
        return rc;
    lab_buf_printf(&dep, "--dependency=afterany:%s", j->array_id);
    {
        const char *merge_args[] = { dep.buf, wait ? "--wait" : j->merge_script.buf,
                                     wait ? j->merge_script.buf : NULL, NULL };
        rc = sbatch(merge_args, wait ? timeout_s : 60, j->merge_id, sizeof(j->merge_id), err);
    }
    lab_buf_release(&dep);
    return rc;
}
