/*
 * kernel-run.c - runs every kernel of a PTX module once with seeded inputs on
 * either backend and prints what it produced, as one JSON object on stdout:
 *
 *     kernel-run --backend cuda|sim [--n N] [--block B] [--seed S] [--kernel NAME]
 *                [--dump DIR] MODULE.ptx
 *
 * It is the simulator's corpus and differential tool, not a grading driver:
 * tests/e2e/test-sim-corpus.sh runs every course kernel through it on the
 * simulator, tests/gpu/record-sim.sh records its output on a GPU, and
 * tests/e2e/test-sim-diff.sh compares the two.
 *
 * Arguments come from the kernel's mangled name (Itanium: Pi = int *, Pf =
 * float *, j = unsigned, S_ = the first substitution...), else from the PTX
 * .param sizes: every pointer gets its own buffer of 8 * N elements + 64,
 * filled from the seed (ints 0..255, floats in [0, 1)), every integer N.
 * A kernel with more than MAX_PARAMS (32) parameters is refused by name: the
 * launch would read arguments that are not there.
 * Launch: block B (default 256), grid ceil(N / B).  Output per kernel: status,
 * each buffer's FNV-1a 64-bit hash and its first 64 words (to compare float
 * results with a tolerance); on the simulator also the PTX-level metrics and
 * the first check finding.  --dump DIR also writes every pointer buffer, whole,
 * to DIR/KERNEL.pI.bin (to find which words differ when two runs' hashes do).
 */
#include "common/dev.h"
#include "common/rng.h"
#include "lab/util/buf.h"
#include "lab/util/clock.h"
#include "lab/sim/sim.h"

#include <cJSON.h>
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* cuda-samples' bisectKernelLarge has 19; a kernel with more is refused, saying so */
#define MAX_PARAMS 32
#define MAX_KERNELS 256
#define SHOWN_WORDS 64

static const char usage[] = "usage: kernel-run [--backend cuda|sim] [--n N] [--block B] [--seed S] "
                            "[--kernel NAME] [--dump DIR] MODULE.ptx\n";

typedef enum { ARG_INT, ARG_PTR_INT, ARG_PTR_FLOAT, ARG_PTR_DOUBLE, ARG_U64 } arg_kind;

typedef struct kernel {
    char name[256];
    unsigned nparams;           /* of them, at most MAX_PARAMS: psize and kind */
    unsigned declared;          /* all the .params the entry declares */
    unsigned psize[MAX_PARAMS]; /* bytes, from .param */
    arg_kind kind[MAX_PARAMS];
} kernel;

/* .entry NAME( .param .u64 a, .param .u32 b ): names and parameter sizes */
static size_t
scan_entries(const char *ptx, kernel *out, size_t max)
{
    size_t n = 0;
    const char *p = ptx;

    while (n < max && (p = strstr(p, ".entry "))) {
        kernel *k = &out[n];
        size_t len = 0;
        p += 7;
        while (*p == ' ' || *p == '\t')
            p++;
        while (p[len] && (isalnum((unsigned char)p[len]) || p[len] == '_' || p[len] == '$'))
            len++;
        if (!len || len >= sizeof(k->name))
            continue;
        memset(k, 0, sizeof(*k));
        memcpy(k->name, p, len);
        p += len;
        const char *end = strchr(p, ')');
        for (const char *q = p; end && (q = strstr(q, ".param")) && q < end; q += 6) {
            const char *t = q + 6;
            while (*t == ' ' || *t == '\t')
                t++;
            k->declared++;
            if (k->nparams < MAX_PARAMS)
                k->psize[k->nparams++] = !strncmp(t, ".u64", 4) || !strncmp(t, ".b64", 4) ||
                                                 !strncmp(t, ".s64", 4) || !strncmp(t, ".f64", 4)
                                             ? 8
                                             : 4;
        }
        n++;
    }
    return n;
}

/* Parameter kinds from an Itanium mangled name; false when it cannot tell. */
static bool
demangle_params(kernel *k)
{
    const char *p = k->name, *subs[MAX_PARAMS * 2];
    char subkind[MAX_PARAMS * 2];
    unsigned nsubs = 0, np = 0;
    long len;

    if (strncmp(p, "_Z", 2))
        return false;
    len = strtol(p + 2, (char **)&p, 10);
    if (len <= 0 || (long)strlen(p) < len)
        return false;
    p += len;
    while (*p && np < k->nparams) {
        char base;
        bool ptr = false;
        if (*p == 'S') {
            unsigned idx = 0;
            p++;
            if (*p != '_')
                idx = (unsigned)strtoul(p, (char **)&p, 10) + 1;
            if (*p++ != '_' || idx >= nsubs)
                return false;
            base = subkind[idx];
            ptr = subs[idx][0] == 'P';
        } else {
            if (*p == 'P') {
                ptr = true;
                p++;
            }
            while (*p == 'K' || *p == 'V') {
                if (nsubs < ARRAY_SIZE(subs) && ptr) {
                    subs[nsubs] = "K";
                    subkind[nsubs++] = p[1];
                }
                p++;
            }
            base = *p++;
            if (ptr && nsubs < ARRAY_SIZE(subs)) {
                subs[nsubs] = "P";
                subkind[nsubs++] = base;
            }
        }
        if (ptr)
            k->kind[np++] = base == 'f'   ? ARG_PTR_FLOAT
                            : base == 'd' ? ARG_PTR_DOUBLE
                                          : ARG_PTR_INT;
        else if (strchr("ijsthcb", base))
            k->kind[np++] = ARG_INT;
        else if (strchr("lmxy", base))
            k->kind[np++] = ARG_U64;
        else
            return false;
    }
    return np == k->nparams;
}

static void
guess_params(kernel *k)
{
    if (demangle_params(k))
        return;
    for (unsigned i = 0; i < k->nparams; i++)
        k->kind[i] = k->psize[i] == 8 ? ARG_PTR_INT : ARG_INT;
}

static size_t
count_entries(const char *ptx)
{
    size_t n = 0;

    for (const char *p = ptx; (p = strstr(p, ".entry ")); p += 7)
        n++;
    return n;
}

static double
cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t
fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* DIR/KERNEL.pPARAM.bin: one buffer, whole */
static int
dump_buffer(const char *dir, const char *name, unsigned param, const void *p, size_t n,
            lab_err *err)
{
    char path[1024];
    FILE *f;
    int ok;

    snprintf(path, sizeof(path), "%s/%s.p%u.bin", dir, name, param);
    if (!(f = fopen(path, "wb")))
        return lab_err_set(err, LAB_EIO, "cannot write %s", path);
    ok = fwrite(p, 1, n, f) == n;
    if (fclose(f) != 0 || !ok)
        return lab_err_set(err, LAB_EIO, "cannot write %s", path);
    return 0;
}

static void
add_sim(cJSON *o, const lab_sim_result *r)
{
    const lab_sim_metrics *m = &r->metrics;
    cJSON *s = cJSON_AddObjectToObject(o, "sim");

    cJSON_AddNumberToObject(s, "warps", (double)m->warps);
    cJSON_AddNumberToObject(s, "warp_insts", (double)m->warp_insts);
    cJSON_AddNumberToObject(s, "thread_insts", (double)m->thread_insts);
    cJSON_AddNumberToObject(s, "branches", (double)m->branches);
    cJSON_AddNumberToObject(s, "divergent_branches", (double)m->divergent);
    cJSON_AddNumberToObject(s, "gld_requests", (double)m->gld_requests);
    cJSON_AddNumberToObject(s, "gld_sectors", (double)m->gld_sectors);
    cJSON_AddNumberToObject(s, "gst_requests", (double)m->gst_requests);
    cJSON_AddNumberToObject(s, "gst_sectors", (double)m->gst_sectors);
    cJSON_AddNumberToObject(s, "shared_requests", (double)m->shared_requests);
    cJSON_AddNumberToObject(s, "shared_wavefronts", (double)m->shared_wavefronts);
    cJSON_AddNumberToObject(s, "gatom_requests", (double)m->gatom_requests);
    cJSON_AddNumberToObject(s, "gatom_sectors", (double)m->gatom_sectors);
    cJSON_AddNumberToObject(s, "shared_atom_requests", (double)m->shared_atom_requests);
    cJSON_AddStringToObject(s, "finding", r->first.kind ? r->first.msg : "");
    cJSON_AddBoolToObject(s, "fatal", r->fatal);
}

static int
run_kernel(const lab_dev_ops *ops, lab_dev *dev, lab_module *mod, kernel *k, unsigned long n,
           unsigned block, uint64_t seed, const char *dump_dir, cJSON *out, lab_err *err)
{
    size_t elems = 8 * (size_t)n + 64;
    lab_dptr ptr[MAX_PARAMS] = { 0 };
    uint32_t ints[MAX_PARAMS];
    uint64_t u64s[MAX_PARAMS];
    void *args[MAX_PARAMS];
    uint8_t *host = malloc(elems * 8);
    lab_rng rng;
    lab_dim3 g = { (unsigned)((n + block - 1) / block), 1, 1 }, b = { block, 1, 1 };
    cJSON *bufs;
    int rc = 0;

    if (k->declared > MAX_PARAMS) { /* the launch would read arguments that are not there */
        free(host);
        return lab_err_set(err, LAB_EINVAL,
                           "kernel '%s' has %u parameters; kernel-run passes at most %d", k->name,
                           k->declared, MAX_PARAMS);
    }
    if (!host)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    lab_rng_seed(&rng, seed);
    guess_params(k);
    for (unsigned i = 0; i < k->nparams; i++) {
        switch (k->kind[i]) {
        case ARG_INT:
            ints[i] = (uint32_t)n;
            args[i] = &ints[i];
            break;
        case ARG_U64:
            u64s[i] = n;
            args[i] = &u64s[i];
            break;
        default: {
            size_t esz = k->kind[i] == ARG_PTR_DOUBLE ? 8 : 4;
            for (size_t e = 0; e < elems; e++) {
                if (k->kind[i] == ARG_PTR_FLOAT) {
                    float f = (float)lab_rng_below(&rng, 1u << 24) / (float)(1u << 24);
                    memcpy(host + e * 4, &f, 4);
                } else if (k->kind[i] == ARG_PTR_DOUBLE) {
                    double d = (double)lab_rng_below(&rng, 1u << 24) / (double)(1u << 24);
                    memcpy(host + e * 8, &d, 8);
                } else {
                    uint32_t v = lab_rng_below(&rng, 256);
                    memcpy(host + e * 4, &v, 4);
                }
            }
            if ((rc = ops->alloc(dev, elems * esz, &ptr[i], err)) < 0 ||
                (rc = ops->copy_in(dev, ptr[i], host, elems * esz, err)) < 0)
                goto out;
            args[i] = &ptr[i];
        }
        }
    }
    cJSON_AddStringToObject(out, "name", k->name);
    cJSON_AddNumberToObject(out, "grid", g.x);
    cJSON_AddNumberToObject(out, "block", b.x);
    double t0 = lab_clock_now(), c0 = cpu_now();
    if ((rc = ops->launch(mod, k->name, g, b, 0, args, err)) < 0 || (rc = ops->sync(dev, err)) < 0)
        goto out;
    cJSON_AddNumberToObject(out, "launch_s", lab_clock_now() - t0); /* host wall time */
    cJSON_AddNumberToObject(out, "launch_cpu_s", cpu_now() - c0);   /* all threads' CPU time */
    bufs = cJSON_AddArrayToObject(out, "buffers");
    for (unsigned i = 0; i < k->nparams; i++) {
        size_t esz = k->kind[i] == ARG_PTR_DOUBLE ? 8 : 4;
        cJSON *o, *words;
        char hex[24];
        if (k->kind[i] == ARG_INT || k->kind[i] == ARG_U64)
            continue;
        if ((rc = ops->copy_out(dev, host, ptr[i], elems * esz, err)) < 0 ||
            (dump_dir && (rc = dump_buffer(dump_dir, k->name, i, host, elems * esz, err)) < 0))
            goto out;
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "param", i);
        cJSON_AddStringToObject(o, "type",
                                k->kind[i] == ARG_PTR_FLOAT    ? "float"
                                : k->kind[i] == ARG_PTR_DOUBLE ? "double"
                                                               : "int");
        snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fnv(host, elems * esz));
        cJSON_AddStringToObject(o, "hash", hex);
        words = cJSON_AddArrayToObject(o, "words");
        for (size_t w = 0; w < SHOWN_WORDS && w < elems * esz / 4; w++) {
            uint32_t v;
            memcpy(&v, host + w * 4, 4);
            cJSON_AddItemToArray(words, cJSON_CreateNumber(v));
        }
        cJSON_AddItemToArray(bufs, o);
    }
out:
    free(host);
    return rc;
}

int
main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "backend", required_argument, NULL, 'b' },
        { "n", required_argument, NULL, 'n' },
        { "block", required_argument, NULL, 'B' },
        { "seed", required_argument, NULL, 's' },
        { "kernel", required_argument, NULL, 'k' },
        { "dump", required_argument, NULL, 'd' },
        { NULL, 0, NULL, 0 },
    };
    const char *backend = "sim", *only = NULL, *dump_dir = NULL;
    unsigned long n = 4096, block = 256, seed = 1;
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    kernel *ks = calloc(MAX_KERNELS, sizeof(kernel));
    const lab_dev_ops *ops;
    lab_dev *dev = NULL;
    cJSON *report = cJSON_CreateObject(), *list;
    int c, status = 0;
    size_t nk;

    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            backend = optarg;
            break;
        case 'n':
            n = strtoul(optarg, NULL, 10);
            break;
        case 'B':
            block = strtoul(optarg, NULL, 10);
            break;
        case 's':
            seed = strtoul(optarg, NULL, 10);
            break;
        case 'k':
            only = optarg;
            break;
        case 'd':
            dump_dir = optarg;
            break;
        default:
            fputs(usage, stderr);
            return 2;
        }
    }
    if (optind + 1 != argc || !n || !block || block > 1024 || !ks || !report) {
        fputs(usage, stderr);
        return 2;
    }
    if (!(ops = lab_dev_backend(backend))) {
        fprintf(stderr, "kernel-run: unknown backend '%s'\n", backend);
        return 2;
    }
    if (lab_buf_read_file(&text, argv[optind], &err) < 0 || ops->open(0, &dev, &err) < 0) {
        fprintf(stderr, "kernel-run: %s\n", err.msg);
        return 1;
    }
    nk = scan_entries(text.buf, ks, MAX_KERNELS);
    if (count_entries(text.buf) > MAX_KERNELS) {
        fprintf(stderr, "kernel-run: %s has more than %d kernels\n", argv[optind], MAX_KERNELS);
        return 1;
    }
    cJSON_AddNumberToObject(report, "version", 1);
    cJSON_AddStringToObject(report, "backend", backend);
    cJSON_AddNumberToObject(report, "n", (double)n);
    cJSON_AddNumberToObject(report, "seed", (double)seed);
    list = cJSON_AddArrayToObject(report, "kernels");
    for (size_t i = 0; i < nk; i++) {
        lab_image img = { text.buf, text.len + 1, argv[optind] };
        lab_module *mod = NULL;
        cJSON *o;
        if (only && strcmp(only, ks[i].name))
            continue;
        o = cJSON_CreateObject();
        cJSON_AddItemToArray(list, o);
        /* a module per kernel: a fault in one leaves the others' runs clean */
        err = (lab_err)LAB_ERR_INIT;
        if (ops->load(dev, &img, &mod, &err) < 0 ||
            run_kernel(ops, dev, mod, &ks[i], n, (unsigned)block, seed, dump_dir, o, &err) < 0) {
            cJSON_AddStringToObject(o, "name", ks[i].name);
            cJSON_AddStringToObject(o, "status", "error");
            cJSON_AddStringToObject(o, "error", err.msg);
            status = 1;
        } else {
            cJSON_AddStringToObject(o, "status", "ok");
        }
        lab_sim_result res;
        lab_buf printed = LAB_BUF_INIT;
        if (ops == &lab_dev_sim && lab_dev_sim_take(dev, &res, &printed))
            add_sim(o, &res);
        if (printed.len)
            cJSON_AddStringToObject(o, "printf", printed.buf);
        lab_buf_release(&printed);
    }
    {
        char *s = cJSON_Print(report);
        if (s)
            puts(s);
        free(s);
    }
    cJSON_Delete(report);
    ops->close(dev);
    lab_buf_release(&text);
    free(ks);
    return status;
}
