/*
 * sim-call.c - loads PTX on the simulator, and runs one kernel of it with
 * arguments given on the command line; the harness of outside code
 * (tests/sim-samples.sh: NVIDIA's cuda-samples).
 *
 *     sim-call --load FILE.ptx...
 *         one line per file: "ok FILE" or "fail FILE: the loader's message";
 *         exit 0 when every file loads
 *     sim-call FILE.ptx KERNEL GX,GY,GZ BX,BY,BZ SHARED OUTDIR ARG...
 *         one launch; ARG is i32:V, u32:V, u64:V, f32:V, f64:V (by value),
 *         buf:BYTES[:FILE] (a device buffer of BYTES, its first bytes from
 *         FILE, the rest zero; written back to OUTDIR/pI.bin after the launch)
 *         sym:NAME:FILE (a __constant__/__device__ variable set from FILE
 *         before the launch; takes no parameter slot) or
 *         tex:FILE:DIMS:W,H,D:CxBITSKIND:FLAGS (a texture object of FILE's
 *         texels, C channels of BITS of KIND f, u or s each, W x H x D of
 *         them in rows without padding; FLAGS: n normalized coordinates, l
 *         linear filtering, r normalized read, and the addressing mode of
 *         every dimension: w wrap, c clamp, m mirror, b border)
 *
 * Prints the launch's first check finding, if any, and exits 1 when the
 * launch fails or stops on a finding.
 */
#include "lab/sim/sim.h"
#include "lab/util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32

typedef struct arg {
    uint64_t bytes; /* bytes of the value, or of the buffer */
    uint64_t dptr;  /* the buffer's device address; 0 for a value */
    union {
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
    } v;
} arg;

static int
load_all(int n, char **files)
{
    lab_sim *s = NULL;
    lab_err err = LAB_ERR_INIT;
    int bad = 0;

    if (lab_sim_new(&s, &err) < 0) {
        fprintf(stderr, "sim-call: %s\n", err.msg);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        lab_buf text = LAB_BUF_INIT;
        lab_sim_module *m = NULL;
        err = (lab_err)LAB_ERR_INIT;
        if (lab_buf_read_file(&text, files[i], &err) < 0 ||
            lab_sim_load(s, text.buf, text.len, files[i], &m, &err) < 0) {
            printf("fail %s: %s\n", files[i], err.msg);
            bad = 1;
        } else {
            printf("ok %s\n", files[i]);
        }
        lab_sim_module_free(m);
        lab_buf_release(&text);
    }
    lab_sim_free(s);
    return bad;
}

/* FILE's bytes into the device at dst, at most cap */
static int
fill_from(lab_sim *s, uint64_t dst, uint64_t cap, const char *file, lab_err *err)
{
    lab_buf b = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_buf_read_file(&b, file, err)) < 0)
        return rc;
    if (b.len > cap)
        rc = lab_err_set(err, LAB_EINVAL, "%s: %zu bytes, more than %llu", file, b.len,
                         (unsigned long long)cap);
    else
        rc = lab_sim_copy_in(s, dst, b.buf, b.len, err);
    lab_buf_release(&b);
    return rc;
}

/* FILE:DIMS:W,H,D:CxBITSKIND:FLAGS into a texture object, its handle in a->v.u64 */
static int
parse_tex(lab_sim *s, const char *spec, arg *a, lab_err *err)
{
    char file[512], flags[16] = "", kind;
    lab_sim_texture t = { 0 };
    lab_buf b = LAB_BUF_INIT;
    lab_sim_tex_address mode = LAB_SIM_TEX_CLAMP;
    uint64_t dptr;
    int rc;

    if (sscanf(spec, "%511[^:]:%u:%u,%u,%u:%ux%u%c:%15s", file, &t.dims, &t.width, &t.height,
               &t.depth, &t.channels, &t.bits, &kind, flags) < 8)
        return lab_err_set(err, LAB_EINVAL, "bad texture '%s'", spec);
    t.kind = kind;
    for (const char *f = flags; *f; f++) {
        t.normalized_coords |= *f == 'n';
        t.linear |= *f == 'l';
        t.normalized_read |= *f == 'r';
        mode = *f == 'w'   ? LAB_SIM_TEX_WRAP
               : *f == 'm' ? LAB_SIM_TEX_MIRROR
               : *f == 'b' ? LAB_SIM_TEX_BORDER
               : *f == 'c' ? LAB_SIM_TEX_CLAMP
                           : mode;
    }
    t.address[0] = t.address[1] = t.address[2] = mode;
    if ((rc = lab_buf_read_file(&b, file, err)) < 0)
        return rc;
    if ((rc = lab_sim_alloc(s, b.len ? b.len : 1, &dptr, err)) == 0 &&
        (rc = lab_sim_copy_in(s, dptr, b.buf, b.len, err)) == 0) {
        t.base = dptr;
        rc = lab_sim_texture_create(s, &t, &a->v.u64, err);
    }
    a->bytes = 8;
    lab_buf_release(&b);
    return rc;
}

static int
parse_arg(lab_sim *s, lab_sim_module *m, const char *spec, arg *a, bool *slot, lab_err *err)
{
    const char *v = strchr(spec, ':');

    memset(a, 0, sizeof(*a));
    *slot = true;
    if (!v)
        return lab_err_set(err, LAB_EINVAL, "bad argument '%s'", spec);
    v++;
    if (!strncmp(spec, "i32:", 4) || !strncmp(spec, "u32:", 4)) {
        a->v.u32 = (uint32_t)strtoll(v, NULL, 0);
        a->bytes = 4;
    } else if (!strncmp(spec, "u64:", 4)) {
        a->v.u64 = strtoull(v, NULL, 0);
        a->bytes = 8;
    } else if (!strncmp(spec, "f32:", 4)) {
        a->v.f32 = strtof(v, NULL);
        a->bytes = 4;
    } else if (!strncmp(spec, "f64:", 4)) {
        a->v.f64 = strtod(v, NULL);
        a->bytes = 8;
    } else if (!strncmp(spec, "buf:", 4)) {
        const char *file = strchr(v, ':');
        int rc;
        a->bytes = strtoull(v, NULL, 0);
        if ((rc = lab_sim_alloc(s, a->bytes ? a->bytes : 1, &a->dptr, err)) < 0 ||
            (rc = lab_sim_fill32(s, a->dptr, 0, (a->bytes + 3) / 4, err)) < 0)
            return rc;
        if (file && (rc = fill_from(s, a->dptr, a->bytes, file + 1, err)) < 0)
            return rc;
        a->v.u64 = a->dptr;
    } else if (!strncmp(spec, "sym:", 4)) {
        char name[256];
        const char *file = strchr(v, ':');
        uint64_t addr;
        size_t bytes;
        int rc;
        *slot = false;
        if (!file || (size_t)(file - v) >= sizeof(name))
            return lab_err_set(err, LAB_EINVAL, "bad argument '%s'", spec);
        memcpy(name, v, (size_t)(file - v));
        name[file - v] = 0;
        if ((rc = lab_sim_symbol(m, name, &addr, &bytes, err)) < 0)
            return rc;
        return fill_from(s, addr, bytes, file + 1, err);
    } else if (!strncmp(spec, "tex:", 4)) {
        return parse_tex(s, v, a, err);
    } else {
        return lab_err_set(err, LAB_EINVAL, "bad argument '%s'", spec);
    }
    return 0;
}

static int
write_out(lab_sim *s, const char *dir, unsigned i, const arg *a, lab_err *err)
{
    char path[1024];
    void *host = malloc(a->bytes ? a->bytes : 1);
    FILE *f;
    int rc;

    if (!host)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    snprintf(path, sizeof(path), "%s/p%u.bin", dir, i);
    if ((rc = lab_sim_copy_out(s, host, a->dptr, a->bytes, err)) == 0) {
        if (!(f = fopen(path, "wb")) || fwrite(host, 1, a->bytes, f) != a->bytes)
            rc = lab_err_set(err, LAB_EIO, "cannot write %s", path);
        if (f && fclose(f) != 0)
            rc = lab_err_set(err, LAB_EIO, "cannot write %s", path);
    }
    free(host);
    return rc;
}

static int
call(int argc, char **argv)
{
    unsigned grid[3], block[3], shared = (unsigned)strtoul(argv[4], NULL, 0);
    const char *outdir = argv[5];
    lab_sim *s = NULL;
    lab_sim_module *m = NULL;
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    arg args[MAX_ARGS];
    void *params[MAX_ARGS];
    unsigned nparams = 0;
    lab_sim_result res;
    int rc;

    if (sscanf(argv[2], "%u,%u,%u", &grid[0], &grid[1], &grid[2]) != 3 ||
        sscanf(argv[3], "%u,%u,%u", &block[0], &block[1], &block[2]) != 3 || argc - 6 > MAX_ARGS) {
        fputs("sim-call: bad grid, block or arguments\n", stderr);
        return 2;
    }
    if ((rc = lab_sim_new(&s, &err)) < 0 || (rc = lab_buf_read_file(&text, argv[0], &err)) < 0 ||
        (rc = lab_sim_load(s, text.buf, text.len, argv[0], &m, &err)) < 0)
        goto out;
    for (int i = 6; i < argc; i++) {
        bool slot;
        if ((rc = parse_arg(s, m, argv[i], &args[nparams], &slot, &err)) < 0)
            goto out;
        if (slot) {
            params[nparams] = &args[nparams].v;
            nparams++;
        }
    }
    if ((rc = lab_sim_launch(m, argv[1], grid, block, shared, params, &res, &err)) < 0)
        goto out;
    if (res.first.kind)
        printf("finding: %s\n", res.first.msg);
    for (unsigned i = 0; i < nparams && rc == 0; i++)
        if (args[i].dptr)
            rc = write_out(s, outdir, i, &args[i], &err);
    if (rc == 0 && res.fatal)
        rc = -1;
out:
    if (rc < 0 && err.msg[0])
        fprintf(stderr, "sim-call: %s\n", err.msg);
    lab_sim_module_free(m);
    lab_sim_free(s);
    lab_buf_release(&text);
    return rc < 0 ? 1 : 0;
}

int
main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--load"))
        return load_all(argc - 2, argv + 2);
    if (argc >= 7)
        return call(argc - 1, argv + 1);
    fputs("usage: sim-call --load FILE.ptx...\n"
          "       sim-call FILE.ptx KERNEL GX,GY,GZ BX,BY,BZ SHARED OUTDIR ARG...\n",
          stderr);
    return 2;
}
