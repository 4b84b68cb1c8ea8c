/*
 * cmd-inspect.c - `cudalab inspect EXERCISE [FILE] [--gpu sm_XY] [--ptx|--summary]
 * [--diff OTHER|--previous] [--json]`: what the compiler made of a kernel
 * (lab/instruments/inspect.h), and how two attempts differ.  Needs no GPU.
 */
#include "lab/cli/cli.h"
#include "lab/instruments/inspect.h"

#include <cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef enum view { VIEW_SASS, VIEW_PTX, VIEW_SUMMARY } view;

static void
print_resources(const lab_inspection *in)
{
    const lab_funcres *k = in->kernel;

    if (!k) {
        printf("  ptxas reported no kernel %s\n", in->ex->kernel);
        return;
    }
    printf("  registers %d   barriers %d   static shared %ld B   dynamic shared 0 B (the driver "
           "passes none)\n",
           k->regs, k->barriers, k->smem);
    printf(
        "  local memory (stack frame) %ld B per thread   spill stores %ld B   spill loads %ld B\n",
        k->stack_frame, k->spill_stores, k->spill_loads);
}

static void
print_occupancy(const lab_inspection *in)
{
    const lab_occ_result *o = &in->occ;
    const char *sep = "";

    if (!in->limits) {
        printf("  occupancy: no table row for %s (the lab knows:", in->arch);
        for (size_t i = 0; i < lab_occupancy_arch_count(); i++)
            printf(" %s", lab_occupancy_arch_at(i)->arch);
        printf(")\n");
        return;
    }
    if (!in->has_occ)
        return;
    printf("  occupancy at block %u (%d warps%s%s) on %s (%s): %d blocks/SM, %d of %d warps = "
           "%.0f%%\n",
           in->block, o->warps_per_block, *in->block_from ? "; your " : "", in->block_from,
           in->arch, in->limits->example, o->blocks_per_sm, o->active_warps,
           in->limits->max_warps_per_sm, 100.0 * o->occupancy);
    if (o->why)
        printf("  cannot launch: %s\n", o->why);
    printf("  blocks each resource allows:");
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++) {
        if (o->limit_blocks[i] == INT_MAX)
            continue;
        printf("%s %s %d", sep, lab_occ_limit_names[i], o->limit_blocks[i]);
        sep = ",";
    }
    printf("; limited by");
    sep = "";
    for (int i = 0; i < LAB_OCC_LIMIT_COUNT; i++)
        if (o->limited_by[i]) {
            printf("%s %s", sep, lab_occ_limit_names[i]);
            sep = " and";
        }
    printf("\n");
}

static void
print_mix(const char *what, const lab_mix *m)
{
    printf("  %s: %zu instructions", what, m->total);
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        printf(", %zu %s", m->marks[i], lab_marks[i].name);
    printf("\n");
}

static void
print_listing(lab_cli *cli, const lab_inspection *in, const lab_listing *l, const char *title)
{
    lab_buf src = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *last_file = NULL;
    int last_line = -1;

    lab_buf_read_file(&src, in->file, &err);
    printf("\n%s%s%s\n", lab_cli_sgr(cli, "1"), title, lab_cli_reset(cli));
    for (size_t i = 0; i < l->n; i++) {
        const lab_insn *x = &l->v[i];
        if (in->kernel && strcmp(x->function, in->kernel->name))
            continue;
        if (x->file != last_file || x->line != last_line) {
            size_t len = 0;
            const char *text = lab_inspect_is_own_file(in, x->file)
                                   ? lab_source_line(src.buf, x->line, &len)
                                   : NULL;
            if (text)
                printf("%s%5d | %.*s%s\n", lab_cli_sgr(cli, "36"), x->line, (int)len, text,
                       lab_cli_reset(cli));
            else if (x->file)
                printf("%s      | (%s:%d)%s\n", lab_cli_sgr(cli, "2"),
                       strrchr(x->file, '/') ? strrchr(x->file, '/') + 1 : x->file, x->line,
                       lab_cli_reset(cli));
            last_file = x->file;
            last_line = x->line;
        }
        if (x->offset >= 0)
            printf("        %04lx  ", x->offset);
        else
            printf("        ");
        if (x->mark)
            printf("%s%-44s <- %s%s\n", lab_cli_sgr(cli, "1;33"), x->text, lab_marks[x->mark].label,
                   lab_cli_reset(cli));
        else
            printf("%s\n", x->text);
    }
    lab_buf_release(&src);
}

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
    if (listings) {
        cJSON_AddItemToObject(o, "ptx", listing_json(in, &in->ptx));
        if (in->has_sass)
            cJSON_AddItemToObject(o, "sass", listing_json(in, &in->sass));
    }
    return o;
}

static void
print_json_and_free(cJSON *o)
{
    char *s = cJSON_Print(o);

    puts(s);
    free(s);
    cJSON_Delete(o);
}

static void
print_inspection(lab_cli *cli, const lab_inspection *in, view v)
{
    printf("%s%s%s  %s  on %s\n", lab_cli_sgr(cli, "1"), in->ex->id, lab_cli_reset(cli), in->file,
           in->arch);
    printf("Kernel %s%s%s\n", in->ex->kernel, in->kernel ? ", " : "",
           in->kernel ? in->kernel->name : "");
    print_resources(in);
    print_occupancy(in);
    printf("Instruction mix of the kernel\n");
    print_mix("PTX ", &in->ptx_mix);
    if (in->has_sass)
        print_mix("SASS", &in->sass_mix);
    else
        printf("  SASS: not available: %s\n", in->sass_why);
    if (v == VIEW_PTX)
        print_listing(cli, in, &in->ptx, "PTX (nvcc -ptx -lineinfo), source lines interleaved");
    else if (v == VIEW_SASS && in->has_sass)
        print_listing(cli, in, &in->sass, "SASS (nvdisasm -g), source lines interleaved");
}

static void
diff_row(const char *what, double a, double b, const char *fmt)
{
    char x[32], y[32];

    snprintf(x, sizeof(x), fmt, a);
    snprintf(y, sizeof(y), fmt, b);
    printf("  %-22s %12s %12s  %s\n", what, x, y, a == b ? "" : b > a ? "up" : "down");
}

static void
print_diff(const lab_inspection *a, const lab_inspection *b)
{
    const lab_mix *ma = a->has_sass && b->has_sass ? &a->sass_mix : &a->ptx_mix;
    const lab_mix *mb = a->has_sass && b->has_sass ? &b->sass_mix : &b->ptx_mix;

    printf("Diff on %s: A = %s (%s)\n             B = %s (%s)\n", a->arch, a->file, a->ex->kernel,
           b->file, b->ex->kernel);
    printf("  %-22s %12s %12s\n", "", "A", "B");
    if (a->kernel && b->kernel) {
        diff_row("registers", a->kernel->regs, b->kernel->regs, "%.0f");
        diff_row("static shared (B)", (double)a->kernel->smem, (double)b->kernel->smem, "%.0f");
        diff_row("local (B/thread)", (double)a->kernel->stack_frame, (double)b->kernel->stack_frame,
                 "%.0f");
        diff_row("spill stores (B)", (double)a->kernel->spill_stores,
                 (double)b->kernel->spill_stores, "%.0f");
    }
    if (a->has_occ && b->has_occ) {
        diff_row("blocks per SM", a->occ.blocks_per_sm, b->occ.blocks_per_sm, "%.0f");
        diff_row("occupancy (%)", 100 * a->occ.occupancy, 100 * b->occ.occupancy, "%.0f");
    }
    printf("  instruction mix (%s)\n", ma == &a->sass_mix ? "SASS" : "PTX");
    diff_row("instructions", (double)ma->total, (double)mb->total, "%.0f");
    for (int i = 1; i < LAB_MARK_COUNT; i++)
        diff_row(lab_marks[i].name, (double)ma->marks[i], (double)mb->marks[i], "%.0f");
}

static int
inspect_one(lab_cli *cli, const lab_exercise *ex, const char *file, const char *gpu,
            lab_inspection *in)
{
    lab_err err = LAB_ERR_INIT;

    if (lab_inspect(cli->lab, ex, file, gpu, in, &err) < 0)
        return lab_cli_error("%s", err.msg);
    if (!in->build.ok) {
        fprintf(stderr, "%s", in->build.log.buf);
        return lab_cli_error("%s does not compile for %s", file, in->arch);
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
    view v = VIEW_SASS;
    lab_buf work = LAB_BUF_INIT;
    lab_inspection a, b;
    int status = LAB_EXIT_ERROR;

    lab_inspection_init(&a);
    lab_inspection_init(&b);
    cli->json = lab_cli_args_has(args, "json");
    /* --ptx and --summary: the last one given counts */
    for (size_t i = 0; i < args->n; i++)
        if (args->v[i].opt == ptx)
            v = VIEW_PTX;
        else if (args->v[i].opt == summary)
            v = VIEW_SUMMARY;
    if (other && previous) {
        status = lab_cli_usage_error(args->cmd, "--diff and --previous exclude each other");
        goto out;
    }
    if (gpu && !lab_occupancy_arch(gpu)) {
        lab_cli_error("inspect: --gpu '%s' is not an architecture the lab knows "
                      "(sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120)",
                      gpu);
        goto out;
    }
    if (!(ex = other_ex = lab_cli_exercise_file(cli, args, &work, &file)))
        goto out;
    if (previous && (!strcmp(ex->baseline, "cpu") ||
                     !(other_ex = lab_catalog_find(lab_catalog_of(cli->lab), ex->baseline)))) {
        lab_cli_error("inspect: %s has no previous step on the GPU to compare with", ex->id);
        goto out;
    }
    if (previous)
        other = other_ex->solution;
    if (other) {
        /* A is the earlier (the previous step, or the other file), B the file given */
        if ((status = inspect_one(cli, other_ex, other, gpu, &a)) ||
            (status = inspect_one(cli, ex, file, a.arch, &b)))
            goto out;
        if (cli->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToObject(o, "a", inspection_json(&a, false));
            cJSON_AddItemToObject(o, "b", inspection_json(&b, false));
            print_json_and_free(o);
        } else {
            print_diff(&a, &b);
        }
    } else {
        if ((status = inspect_one(cli, ex, file, gpu, &a)))
            goto out;
        if (cli->json)
            print_json_and_free(inspection_json(&a, v != VIEW_SUMMARY));
        else
            print_inspection(cli, &a, v);
    }
out:
    lab_inspection_release(&a);
    lab_inspection_release(&b);
    lab_buf_release(&work);
    return status;
}

static const lab_cli_param opts[] = {
    LAB_CLI_OPT_VALUE("gpu", LAB_CLI_STRING, "sm_XY",
                      "build for this architecture (default: $CUDALAB_ARCH, else the GPU's)"),
    LAB_CLI_OPT("ptx", "list the PTX instead of the SASS"),
    LAB_CLI_OPT("summary", "resources, occupancy and instruction mix, no listing"),
    LAB_CLI_OPT_VALUE("diff", LAB_CLI_SOURCE, "OTHER", "compare with the kernel in file OTHER"),
    LAB_CLI_OPT("previous", "compare with the previous step's reference solution"),
    LAB_CLI_OPT("json", "the inspection (or the comparison) as JSON"),
    LAB_CLI_END,
};

const lab_cmd lab_cmd_inspect = {
    .name = "inspect",
    .help = "show registers, occupancy, PTX and SASS of a kernel (no GPU needed)",
    .args = lab_cli_exercise_file_args,
    .opts = opts,
    .run = inspect_run,
};
