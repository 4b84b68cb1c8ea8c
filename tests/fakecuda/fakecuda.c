/*
 * fakecuda.c - a stand-in libcuda.so.1 for testing the drivers, and the lab
 * around them, without a GPU (tests/e2e/test-float-fakecuda.sh and others
 * build it and put it on LD_LIBRARY_PATH).
 *
 * It answers the driver-API calls common/dev-cuda.c looks up, on the host:
 * device memory is malloc'ed, copies are memcpy, and a "module" is a text
 * file, not a cubin, that says which kernel it holds and how it behaves:
 *
 *     _Z9sumAtomicPKfPfj mode=devsum unroll=1 cost=2000 sum_bytes=4
 *
 * A real cubin (an ELF image, as nvcc builds a student's file) is read the same way: its bytes,
 * with every NUL made a newline, are the module's text, so a source file that holds the keys in
 * a string, e.g.
 *     __device__ char lab_fake_module[] = "mode=devsum unroll=1 cost=4000 sum_bytes=4 ";
 * gives a module that behaves so, and its kernels' names are the ones in its symbol table:
 * the whole grading (nvcc, the lab, the sandbox, the driver) runs on the pretend GPU.
 *
 * A launch runs the reduce-float contract (grid, block, unroll; block b owns
 * [b*block*unroll, ...)) on the host, with one of these behaviours:
 *   devsum    adds each block's float sum into the module's dev_sum
 *   racy      as devsum, but keeps only every other element (a lost update)
 *   nan-tail  as devsum, but adds the block's elements past n too
 *   partials  writes block b's float sum to pPartial[b]
 *   missing   as partials, but the last block writes nothing
 *   past      as partials, and writes pPartial[grid] too
 *   none      does nothing
 * and two ways to cheat that a devsum or partials module takes as keys:
 *   memo=1    the first launch on an input pointer computes; every later launch on the same
 *             pointer adds the remembered sum again, whatever the input holds now (a result
 *             replayed from a device-side cache keyed on the buffer)
 *   after=K   the first K launches compute; later ones do nothing (right when checked, not
 *             when timed)
 * Modules for the reduce-nested driver (int, one sum per block, block b owns
 * [b*block, min((b+1)*block, n))) take these instead:
 *   int-partials   writes block b's exact int sum to g_odata[b]
 *   int-tail       as int-partials, but sums the whole block, past n too
 *   int-missing    as int-partials, but the last block writes nothing
 * Modules for the sum-matrix driver (C = A + B, nx x ny, a 2D grid) take
 *   matrix         every C element inside the matrix, none outside; its cost
 *                  grows with the block's distance from 256 threads: cost x (1 + 0.08 x
 *                  |log2(threads / 256)|), so 1024-thread blocks are 16 % slower and
 *                  blocks over 1024 threads fail to launch
 * and `choose=XxY` gives the module __device__ globals chosenBlockX = X and chosenBlockY = Y
 * (common/choose.h).
 * cuCtxSetLimit accepts any limit, unless $FAKECUDA_REFUSE_LIMIT is set.
 * Time is a virtual clock: a launch adds `cost` ns, a device copy one ns per
 * kilobyte; events read the clock.  Any other module (the lab's own
 * lab-kernels.ptx) has no mode, and its launches do nothing.
 *
 * A node of several GPUs (the batch's GPU assignment, lab/batch/gpus.h):
 *   FAKECUDA_DEVICES=N    N identical devices, "Fake GPU (tests/fakecuda)", device i with UUID
 *                         GPU-fa4ec0da-0000-4000-8000-0000000000ii (i in hex) and PCI bus
 *                         0x10 + i; with it set, CUDA_VISIBLE_DEVICES picks and orders them as
 *                         the NVIDIA driver does (indices or UUIDs, comma-separated; the list
 *                         ends at the first entry that names none; empty: no device).  Built
 *                         with -DFAKECUDA_DEVICES=N, the library has that node of its own,
 *                         with no variable (a sandbox passes the driver only the environment
 *                         it allows).  Neither: one device, whatever CUDA_VISIBLE_DEVICES says
 *                         (the e2e tests set it empty so that a real GPU stays out of them).
 *   FAKECUDA_BUSY_LOG=DIR the GPU's work, as the test of "two timings never share a GPU"
 *                         reads it: each process that launches writes DIR/busy-<pid>, one line
 *                         "UUID FIRST LAST PID", the wall-clock times (CLOCK_REALTIME, seconds)
 *                         of its first and its latest launch or event, rewritten in place at
 *                         each one, so that it holds even when the driver ends by _exit.
 *   FAKECUDA_LAUNCH_US=U  each launch also takes U microseconds of real time, so that a
 *                         process's work on the GPU lasts long enough to overlap another's if
 *                         the lab let them share the GPU.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum { OK = 0, INVALID_VALUE = 1, NO_DEVICE = 100, INVALID_DEVICE = 101, NOT_FOUND = 500 };

#define MAX_DEVICES 16

typedef struct function {
    struct module *m;
    char name[128];
} function;

typedef struct module {
    char *text;
    function fns[8]; /* the kernels looked up, each once */
    size_t nfns;
    char mode[16];
    unsigned unroll;
    double cost_ns;
    size_t sum_bytes;
    int memo;                /* memo=1 */
    const void *memo_in;     /* the input pointer remembered, and its sum */
    float memo_sum;
    unsigned long after;     /* after=K; 0: always computes */
    unsigned long launches;
    double dev_sum[1]; /* room for a float or a double */
    unsigned choice[2]; /* choose=XxY: chosenBlockX, chosenBlockY */
} module;

static double clock_ns;
static int context;
static int current = -1;         /* the device whose context is current: its index on the node */
static int nvisible = 1;         /* the devices this process sees, in CUDA's order ... */
static int visible[MAX_DEVICES]; /* ... each its index on the node */

static module *
as_module(void *p)
{
    return p;
}

/* Device i's UUID, as cuDeviceGetUuid gives it: 16 bytes. */
static void
device_uuid(int i, unsigned char out[16])
{
    static const unsigned char base[16] = { 0xfa, 0x4e, 0xc0, 0xda, 0x00, 0x00, 0x40, 0x00,
                                            0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };

    memcpy(out, base, 16);
    out[15] = (unsigned char)i;
}

/* Device i's UUID as text, as nvidia-smi and CUDA_VISIBLE_DEVICES write it. */
static void
device_uuid_text(int i, char *out, size_t size)
{
    unsigned char u[16];

    device_uuid(i, u);
    snprintf(out, size,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
             u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
             u[14], u[15]);
}

/* The node's device one entry of CUDA_VISIBLE_DEVICES names (an index, or a UUID or the start
 * of one), or -1. */
static int
named_device(const char *entry, size_t len, int ndevices)
{
    char uuid[64];
    char *end;
    long i;

    if (len && entry[0] >= '0' && entry[0] <= '9') {
        i = strtol(entry, &end, 10);
        return (size_t)(end - entry) == len && i < ndevices ? (int)i : -1;
    }
    for (i = 0; i < ndevices; i++) {
        device_uuid_text((int)i, uuid, sizeof(uuid));
        if (len >= 8 && len <= strlen(uuid) && !strncmp(entry, uuid, len))
            return (int)i;
    }
    return -1;
}

#ifndef FAKECUDA_DEVICES
#define FAKECUDA_DEVICES 0 /* no node of its own: one device */
#endif

/* FAKECUDA_DEVICES and CUDA_VISIBLE_DEVICES: which devices this process sees. */
static CUresult
find_devices(void)
{
    const char *n = getenv("FAKECUDA_DEVICES"), *list = getenv("CUDA_VISIBLE_DEVICES");
    int ndevices = n ? atoi(n) : FAKECUDA_DEVICES ? FAKECUDA_DEVICES : 1;
    int node = n || FAKECUDA_DEVICES;

    if (ndevices < 1 || ndevices > MAX_DEVICES)
        return INVALID_VALUE;
    nvisible = 0;
    if (!node || !list) { /* one device whatever is asked, or every device */
        for (int i = 0; i < ndevices; i++)
            visible[nvisible++] = i;
        return OK;
    }
    for (const char *p = list; *p && nvisible < MAX_DEVICES;) {
        size_t len = strcspn(p, ",");
        int i = named_device(p, len, ndevices);

        if (i < 0)
            break; /* the driver's rule: the list ends at the first entry that names none */
        visible[nvisible++] = i;
        p += len + (p[len] == ',');
    }
    return nvisible ? OK : NO_DEVICE;
}

/* The busy log: this process's first and latest use of its device, rewritten in place. */
static void
mark_busy(void)
{
    static int fd = -2;
    static double first;
    const char *dir = getenv("FAKECUDA_BUSY_LOG");
    struct timespec ts;
    char line[160], uuid[64];
    double now;
    int len;

    if (!dir || current < 0 || fd == -1)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    if (fd == -2) {
        snprintf(line, sizeof(line), "%s/busy-%d", dir, (int)getpid());
        fd = open(line, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        first = now;
    }
    device_uuid_text(current, uuid, sizeof(uuid));
    len = snprintf(line, sizeof(line), "%s %.6f %.6f %d\n", uuid, first, now, (int)getpid());
    if (fd >= 0 && len > 0 && pwrite(fd, line, (size_t)len, 0) != len)
        fd = -1;
}

CUresult
cuInit(unsigned flags)
{
    (void)flags;
    return find_devices();
}

CUresult
cuDriverGetVersion(int *v)
{
    *v = 13000;
    return OK;
}

CUresult
cuDeviceGetCount(int *n)
{
    *n = nvisible;
    return OK;
}

/* A CUdevice is the device's index on the node. */
CUresult
cuDeviceGet(CUdevice *d, int ordinal)
{
    if (ordinal < 0 || ordinal >= nvisible)
        return INVALID_DEVICE;
    *d = visible[ordinal];
    return OK;
}

CUresult
cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "Fake GPU (tests/fakecuda)");
    return OK;
}

CUresult
cuDeviceGetUuid_v2(unsigned char *uuid, CUdevice d)
{
    device_uuid(d, uuid);
    return OK;
}

CUresult
cuDeviceGetPCIBusId(char *bus, int len, CUdevice d)
{
    snprintf(bus, (size_t)len, "00000000:%02X:00.0", 0x10 + d);
    return OK;
}

CUresult
cuDeviceGetAttribute(int *v, int attribute, CUdevice d)
{
    static const struct {
        int attribute, value;
    } attrs[] = {
        { 1, 1024 },     /* max threads per block */
        { 10, 32 },      /* warp size */
        { 16, 4 },       /* SMs */
        { 36, 1000000 }, /* memory clock, kHz */
        { 37, 256 },     /* bus width, bits */
        { 38, 1 << 20 }, /* L2 bytes */
        { 75, 9 },       /* cc major */
        { 76, 0 },       /* cc minor */
        { 13, 1000000 }, /* SM clock, kHz */
        { 39, 2048 },    /* max threads per SM */
        { 82, 65536 },   /* registers per SM */
        { 8, 49152 },    /* shared memory per block */
        { 81, 233472 },  /* shared memory per SM */
    };

    (void)d;
    *v = 0;
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
        if (attrs[i].attribute == attribute)
            *v = attrs[i].value;
    return OK;
}

CUresult
cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    (void)d;
    *bytes = (size_t)1 << 30;
    return OK;
}

CUresult
cuDevicePrimaryCtxRetain(void **ctx, CUdevice d)
{
    current = d;
    *ctx = &context;
    return OK;
}

CUresult
cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    (void)d;
    return OK;
}

CUresult
cuCtxSetCurrent(void *ctx)
{
    (void)ctx;
    return OK;
}

CUresult
cuCtxSynchronize(void)
{
    return OK;
}

CUresult
cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    void *m = malloc(bytes);

    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? OK : 2;
}

CUresult
cuMemFree_v2(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return OK;
}

CUresult
cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return OK;
}

CUresult
cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return OK;
}

CUresult
cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void *stream)
{
    (void)stream;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    clock_ns += (double)bytes / 1024 + 1;
    return OK;
}

static void
read_key(const char *text, const char *key, char *out, size_t size)
{
    const char *p = strstr(text, key);

    *out = 0;
    if (p)
        sscanf(p + strlen(key), "%15s", out);
    (void)size;
}

/* The bytes of an ELF64 image (a cubin): up to the end of its section and program headers. */
static size_t
elf_size(const unsigned char *e)
{
    uint64_t shoff, phoff;
    uint16_t shentsize, shnum, phentsize, phnum;
    size_t sections, programs;

    memcpy(&phoff, e + 0x20, 8);
    memcpy(&shoff, e + 0x28, 8);
    memcpy(&phentsize, e + 0x36, 2);
    memcpy(&phnum, e + 0x38, 2);
    memcpy(&shentsize, e + 0x3a, 2);
    memcpy(&shnum, e + 0x3c, 2);
    sections = (size_t)shoff + (size_t)shentsize * shnum;
    programs = (size_t)phoff + (size_t)phentsize * phnum;
    return sections > programs ? sections : programs;
}

/* A module's text: the image itself, or a cubin's bytes with every NUL made a newline. */
static char *
module_text(const void *image)
{
    const unsigned char *e = image;
    size_t size;
    char *text;

    if (e[0] != 0x7f || e[1] != 'E' || e[2] != 'L' || e[3] != 'F' || e[4] != 2) /* ELF64 */
        return strdup(image);
    size = elf_size(e);
    if (!(text = malloc(size + 1)))
        return NULL;
    for (size_t i = 0; i < size; i++)
        text[i] = e[i] ? (char)e[i] : '\n';
    text[size] = '\0';
    return text;
}

CUresult
cuModuleLoadDataEx(void **out, const void *image, unsigned n, void *options, void **values)
{
    module *m = calloc(1, sizeof(*m));
    char v[16];

    (void)n, (void)options, (void)values;
    if (!m || !(m->text = module_text(image)))
        return 2;
    read_key(m->text, "mode=", m->mode, sizeof(m->mode));
    read_key(m->text, "unroll=", v, sizeof(v));
    m->unroll = *v ? (unsigned)atoi(v) : 1;
    read_key(m->text, "cost=", v, sizeof(v));
    m->cost_ns = *v ? atof(v) : 1000;
    read_key(m->text, "sum_bytes=", v, sizeof(v));
    m->sum_bytes = *v ? (size_t)atoi(v) : 0;
    read_key(m->text, "memo=", v, sizeof(v));
    m->memo = *v ? atoi(v) : 0;
    read_key(m->text, "after=", v, sizeof(v));
    m->after = *v ? strtoul(v, NULL, 10) : 0;
    read_key(m->text, "choose=", v, sizeof(v));
    if (*v && sscanf(v, "%ux%u", &m->choice[0], &m->choice[1]) != 2)
        return INVALID_VALUE;
    *out = m;
    return OK;
}

CUresult
cuModuleUnload(void *mod)
{
    module *m = as_module(mod);

    free(m->text);
    free(m);
    return OK;
}

CUresult
cuModuleGetFunction(void **out, void *mod, const char *name)
{
    module *m = as_module(mod);
    size_t i;

    if (!strstr(m->text, name))
        return NOT_FOUND;
    for (i = 0; i < m->nfns && strcmp(m->fns[i].name, name); i++)
        ;
    if (i == sizeof(m->fns) / sizeof(m->fns[0]))
        return INVALID_VALUE;
    if (i == m->nfns) {
        m->fns[m->nfns].m = m;
        snprintf(m->fns[m->nfns++].name, sizeof(m->fns[0].name), "%s", name);
    }
    *out = &m->fns[i];
    return OK;
}

CUresult
cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, void *mod, const char *name)
{
    module *m = as_module(mod);

    for (int i = 0; i < 2; i++)
        if (m->choice[0] && !strcmp(name, i ? "chosenBlockY" : "chosenBlockX")) {
            *p = (CUdeviceptr)(uintptr_t)&m->choice[i];
            *bytes = sizeof(m->choice[i]);
            return OK;
        }
    if (strcmp(name, "dev_sum") || !m->sum_bytes)
        return NOT_FOUND;
    *p = (CUdeviceptr)(uintptr_t)m->dev_sum;
    *bytes = m->sum_bytes;
    return OK;
}

/* One launch of the reduce-float contract, on the host. */
static void
run_sum(module *m, unsigned grid, unsigned block, void **params)
{
    const float *in = *(const float **)params[0];
    float *partial = *(float **)params[1];
    unsigned n = *(unsigned *)params[2];
    size_t per = (size_t)block * m->unroll;
    float *dev_sum = (float *)m->dev_sum;
    int partials =
        !strcmp(m->mode, "partials") || !strcmp(m->mode, "missing") || !strcmp(m->mode, "past");

    if (!strcmp(m->mode, "none") || (m->after && ++m->launches > m->after))
        return;
    if (m->memo && !partials && in == m->memo_in) {
        *dev_sum += m->memo_sum;
        return;
    }
    m->memo_in = in;
    m->memo_sum = -*dev_sum;
    for (unsigned b = 0; b < grid; b++) {
        float sum = 0;
        for (size_t i = b * per; i < (b + 1) * per; i++) {
            if (i >= n && strcmp(m->mode, "nan-tail"))
                break;
            if (!strcmp(m->mode, "racy") && i % 2)
                continue;
            sum += in[i];
        }
        if (!partials)
            *dev_sum += sum;
        else if (strcmp(m->mode, "missing") || b + 1 < grid)
            partial[b] = sum;
    }
    if (!strcmp(m->mode, "past"))
        partial[grid] = 0;
    if (!partials)
        m->memo_sum += *dev_sum;
}

/* One launch of the reduce-nested contract, on the host. */
static void
run_int_sum(module *m, unsigned grid, unsigned block, void **params)
{
    const uint32_t *in = *(const uint32_t **)params[0];
    uint32_t *out = *(uint32_t **)params[1];
    unsigned n = *(unsigned *)params[2];

    for (unsigned b = 0; b < grid; b++) {
        uint32_t sum = 0;
        for (size_t i = (size_t)b * block; i < (size_t)(b + 1) * block; i++)
            if (i < n || !strcmp(m->mode, "int-tail"))
                sum += in[i];
        if (strcmp(m->mode, "int-missing") || b + 1 < grid)
            out[b] = sum;
    }
}

/* One launch of the sum-matrix contract, on the host; its cost. */
static double
run_matrix(module *m, unsigned gx, unsigned gy, unsigned bx, unsigned by, void **params)
{
    const float *a = *(const float **)params[0], *b = *(const float **)params[1];
    float *c = *(float **)params[2];
    unsigned nx = *(unsigned *)params[3], ny = *(unsigned *)params[4];
    unsigned steps = 0; /* |log2(threads / 256)|, rounded down */

    for (unsigned iy = 0; iy < gy * by && iy < ny; iy++)
        for (unsigned ix = 0; ix < gx * bx && ix < nx; ix++)
            c[(size_t)iy * nx + ix] = a[(size_t)iy * nx + ix] + b[(size_t)iy * nx + ix];
    for (unsigned t = bx * by; t >= 512; t /= 2)
        steps++;
    for (unsigned t = bx * by; t <= 128; t *= 2)
        steps++;
    return m->cost_ns * (1 + 0.08 * steps);
}

CUresult
cuCtxSetLimit(int limit, size_t value)
{
    (void)limit, (void)value;
    return getenv("FAKECUDA_REFUSE_LIMIT") ? INVALID_VALUE : OK;
}

CUresult
cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
               unsigned bz, unsigned shared, void *stream, void **params, void **extra)
{
    function *f = fn;
    const char *us = getenv("FAKECUDA_LAUNCH_US");

    (void)gz, (void)bz, (void)shared, (void)stream, (void)extra;
    if (us)
        usleep((useconds_t)atoi(us));
    mark_busy();
    if (!*f->m->mode)
        return OK; /* the lab's own kernels */
    if (bx * by * bz > 1024)
        return INVALID_VALUE;
    if (!strcmp(f->m->mode, "matrix")) {
        clock_ns += run_matrix(f->m, gx, gy, bx, by, params);
        return OK;
    }
    if (!strncmp(f->m->mode, "int-", 4))
        run_int_sum(f->m, gx, bx, params);
    else
        run_sum(f->m, gx, bx, params);
    clock_ns += f->m->cost_ns;
    return OK;
}

CUresult
cuEventCreate(void **e, unsigned flags)
{
    (void)flags;
    *e = calloc(1, sizeof(double));
    return *e ? OK : 2;
}

CUresult
cuEventRecord(void *e, void *stream)
{
    (void)stream;
    mark_busy();
    *(double *)e = clock_ns;
    return OK;
}

CUresult
cuEventElapsedTime(float *ms, void *start, void *stop)
{
    *ms = (float)((*(double *)stop - *(double *)start) / 1e6);
    return OK;
}

CUresult
cuEventDestroy_v2(void *e)
{
    free(e);
    return OK;
}

CUresult
cuGetErrorName(CUresult rc, const char **name)
{
    *name = rc == NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_FAKE";
    return OK;
}

CUresult
cuGetErrorString(CUresult rc, const char **text)
{
    *text = rc == NOT_FOUND ? "named symbol not found" : "fake error";
    return OK;
}
