/*
 * cmd-inspect.c - `cudalab inspect EXERCISE [FILE] [--gpu sm_XY|NAME] [--ptx|--summary]
 * [--diff OTHER|--previous] [--json]`: what the compiler made of a kernel
 * (lab/instruments/inspect.h), and how two attempts differ, laid out by
 * lab/report/inspection.h.  Needs no GPU.
 */
#include "lab/cli/cli.h"
#include "lab/instruments/inspect.h"
#include "lab/report/inspection.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static cJSON *
mix_json(const lab_mix *m)
{
    cJSON *o = cJSON_CreateObject(), *marks = cJSON_CreateObject();

    cJSON_AddNumberToObject(o, "total", (double)m->total);
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        cJSON_AddNumberToObject(marks, lab_marks[i].name, (double)m->marks[i]);
    cJSON_AddItemToObject(o, "marks", marks);
    return o;
}

static cJSON *
listing_json(const lab_inspection *in, const lab_listing *l)
{
    cJSON *arr = cJSON_CreateArray();

    for (size_t i = 0; i < l->n; i++) {
        const lab_insn *x = &l->v[i];
        cJSON *o;
        if (in->kernel && strcmp(x->function, in->kernel->name))
            continue;
        o = cJSON_CreateObject();
        if (x->offset >= 0)
            cJSON_AddNumberToObject(o, "offset", (double)x->offset);
        cJSON_AddNumberToObject(o, "line", x->line);
        cJSON_AddStringToObject(o, "text", x->text);
        cJSON_AddStringToObject(o, "mark", lab_marks[x->mark].name);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *
inspection_json(const lab_inspection *in, bool listings)
{
    cJSON *o = cJSON_CreateObject(), *k, *occ;

    cJSON_AddStringToObject(o, "exercise", in->ex->id);
    cJSON_AddStringToObject(o, "file", in->file);
    cJSON_AddStringToObject(o, "arch", in->arch);
    cJSON_AddBoolToObject(o, "compiled", in->build.ok);
    cJSON_AddStringToObject(o, "cubin", in->build.cubin_path.buf);
    if (!in->build.ok) {
        cJSON_AddStringToObject(o, "compiler_log", in->build.log.buf);
        return o;
    }
    if (in->kernel) {
        k = cJSON_AddObjectToObject(o, "kernel");
        cJSON_AddStringToObject(k, "name", in->ex->kernel);
        cJSON_AddStringToObject(k, "mangled", in->kernel->name);
        cJSON_AddNumberToObject(k, "registers", in->kernel->regs);
        cJSON_AddNumberToObject(k, "barriers", in->kernel->barriers);
        cJSON_AddNumberToObject(k, "static_shared", (double)in->kernel->smem);
        cJSON_AddNumberToObject(k, "dynamic_shared", 0);
        cJSON_AddNumberToObject(k, "local", (double)in->kernel->stack_frame);
        cJSON_AddNumberToObject(k, "spill_stores", (double)in->kernel->spill_stores);
        cJSON_AddNumberToObject(k, "spill_loads", (double)in->kernel->spill_loads);
    }
    if (in->has_occ) {
        occ = cJSON_AddObjectToObject(o, "occupancy");
        cJSON_AddNumberToObject(occ, "block", in->block);
        if (*in->block_from)
            cJSON_AddStringToObject(occ, "chosen", in->block_from);
        cJSON_AddNumberToObject(occ, "blocks_per_sm", in->occ.blocks_per_sm);
        cJSON_AddNumberToObject(occ, "active_warps", in->occ.active_warps);
        cJSON_AddNumberToObject(occ, "max_warps", in->limits->max_warps_per_sm);
        cJSON_AddNumberToObject(occ, "occupancy", in->occ.occupancy);
        for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
            if (in->occ.limited_by[i])
                cJSON_AddStringToObject(occ, "limited_by", lab_occ_limit_names[i]);
    }
    cJSON_AddItemToObject(o, "ptx_mix", mix_json(&in->ptx_mix));
    if (in->has_sass)
        cJSON_AddItemToObject(o, "sass_mix", mix_json(&in->sass_mix));
    else
        cJSON_AddStringToObject(o, "sass_unavailable", in->sass_why);
    if (in->has_runs) {
        cJSON *runs = cJSON_AddObjectToObject(o, "branch_runs"), *arr;
        cJSON_AddNumberToObject(runs, "size", (double)in->runs_size);
        arr = cJSON_AddArrayToObject(runs, "lines");
        for (size_t i = 0; i < in->nruns; i++) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "line", in->runs[i].line);
            cJSON_AddNumberToObject(r, "branches", in->runs[i].branches);
            cJSON_AddNumberToObject(r, "runs", (double)in->runs[i].runs);
            cJSON_AddNumberToObject(r, "divergent", (double)in->runs[i].divergent);
            cJSON_AddItemToArray(arr, r);
        }
    } else if (!in->no_runs) {
        cJSON_AddStringToObject(o, "branch_runs_unavailable", in->runs_why);
    }
    if (in->has_model)
        lab_cli_model_json(o, &in->model);
    else if (in->model_why[0])
        cJSON_AddStringToObject(o, "model_unavailable", in->model_why);
    if (listings) {
        cJSON_AddItemToObject(o, "ptx", listing_json(in, &in->ptx));
        if (in->has_sass)
            cJSON_AddItemToObject(o, "sass", listing_json(in, &in->sass));
    }
    return o;
}

/* The report's lines on stdout; 0 or LAB_EXIT_ERROR. */
static int
printed(int rc)
{
    return rc < 0 ? lab_cli_error("%s", lab_strerror(rc)) : LAB_EXIT_OK;
}

static int
inspect_one(lab_cli *cli, const lab_exercise *ex, const char *file, const char *gpu,
            lab_inspection *in)
{
    lab_err err = LAB_ERR_INIT;

    if (lab_inspect(cli->lab, ex, file, gpu, in, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (!in->build.ok) {
        lab_cli_put_shown(stderr, in->build.log.buf, in->build.log.len);
        return lab_cli_error(_("%s does not compile for %s"), file, in->arch);
    }
    return LAB_EXIT_OK;
}

static int
inspect_run(lab_cli *cli, const lab_cli_args *args)
{
    const char *file, *gpu = lab_cli_args_value(args, "gpu");
    const char *other = lab_cli_args_value(args, "diff");
    const lab_cli_param *ptx = lab_cli_find_opt(args->cmd, "ptx");
    const lab_cli_param *summary = lab_cli_find_opt(args->cmd, "summary");
    const lab_exercise *ex, *other_ex;
    bool previous = lab_cli_args_has(args, "previous");
    lab_inspection_layout_opts opts = { .listing = LAB_INSPECTION_SASS };
    lab_buf work = LAB_BUF_INIT;
    lab_inspection a, b;
    int status = LAB_EXIT_ERROR;

    lab_inspection_init(&a);
    lab_inspection_init(&b);
    cli->json = lab_cli_args_has(args, "json");
    a.no_runs = a.no_model = lab_cli_args_has(args, "no-run");
    /* --ptx and --summary: the last one given counts */
    for (size_t i = 0; i < args->n; i++)
        if (args->v[i].opt == ptx)
            opts.listing = LAB_INSPECTION_PTX;
        else if (args->v[i].opt == summary)
            opts.listing = LAB_INSPECTION_SUMMARY;
    if (other && previous) {
        status = lab_cli_usage_error(args->cmd, _("--diff and --previous exclude each other"));
        goto out;
    }
    if (gpu && !lab_occupancy_arch(gpu)) { /* not an architecture: a GPU the model knows? */
        lab_model_gpu known;
        lab_err err = LAB_ERR_INIT;
        if (lab_modelled_gpu(lab_datadir(cli->lab), gpu, &known, &err) < 0) {
            lab_cli_error(_("inspect: --gpu '%s' is not an architecture the lab knows "
                            "(sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120), and %s"),
                          gpu, err.msg);
            goto out;
        }
        a.model_gpu = gpu; /* its architecture: the default's, sm_90 for an H100 or an H200 */
        gpu = NULL;
    }
    if (!(ex = other_ex = lab_cli_exercise_file(cli, args, &work, &file)))
        goto out;
    if (previous && (!strcmp(ex->baseline, "cpu") ||
                     !(other_ex = lab_catalog_find(lab_catalog_of(cli->lab), ex->baseline)))) {
        lab_cli_error(_("inspect: %s has no previous step on the GPU to compare with"), ex->id);
        goto out;
    }
    if (previous)
        other = other_ex->solution;
    if (other) {
        /* A is the earlier (the previous step, or the other file), B the file given; the
         * comparison has no place for the simulator's branch runs and modelled times */
        a.no_runs = b.no_runs = a.no_model = b.no_model = true;
        if ((status = inspect_one(cli, other_ex, other, gpu, &a)) ||
            (status = inspect_one(cli, ex, file, a.arch, &b)))
            goto out;
        if (cli->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToObject(o, "a", inspection_json(&a, false));
            cJSON_AddItemToObject(o, "b", inspection_json(&b, false));
            lab_cli_print_json(o);
        } else {
            status = printed(lab_inspection_diff_layout(&a, &b, lab_cli_print_line, cli));
        }
    } else {
        if ((status = inspect_one(cli, ex, file, gpu, &a)))
            goto out;
        if (cli->json)
            lab_cli_print_json(inspection_json(&a, opts.listing != LAB_INSPECTION_SUMMARY));
        else
            status = printed(lab_inspection_layout(&a, &opts, lab_cli_print_line, cli));
    }
out:
    lab_inspection_release(&a);
    lab_inspection_release(&b);
    lab_buf_release(&work);
    return status;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT_VALUE("gpu", LAB_CLI_STRING, "sm_XY|NAME",
                      "build for this architecture (default: $CUDALAB_ARCH, else the GPU's), or "
                      "model the speed of GPU NAME (kernels/gpus/NAME.ini: h100, h200; a100, l4, "
                      "rtx4090 predicted, not measured)"),
    LAB_CLI_OPT("ptx", "list the PTX instead of the SASS"),
    LAB_CLI_OPT("summary", "resources, occupancy and instruction mix, no listing"),
    LAB_CLI_OPT("no-run", "do not run the kernel on the simulator to count how its branches "
                          "diverge and to model its speed"),
    LAB_CLI_OPT_VALUE("diff", LAB_CLI_SOURCE, "OTHER", "compare with the kernel in file OTHER"),
    LAB_CLI_OPT("previous", "compare with the previous step's reference solution"),
    LAB_CLI_OPT("json", "the inspection (or the comparison) as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_inspect = {
    .name = "inspect",
    .help = N_("show registers, occupancy, PTX and SASS of a kernel (no GPU needed)"),
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = inspect_run,
};
