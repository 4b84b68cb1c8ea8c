/*
 * memory.c - the simulated device and its global memory (see sim.h).
 *
 * Device addresses are the host addresses of malloc'd blocks, so a kernel's
 * loads need no translation; every global access is first looked up in the
 * table of allocations (sorted by address, binary search), which gives exact
 * per-allocation bounds: one byte past an array is caught even where the
 * next allocation follows it.  Each allocation also carries the race
 * checker's shadow words (checks.c), made on first use.
 */
#include "lab/sim/exec.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int
lab_sim_new(lab_sim **out, lab_err *err)
{
    lab_sim *s = calloc(1, sizeof(*s));

    *out = NULL;
    if (!s)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->heap_lock, NULL);
    lab_buf_init(&s->printf_text);
    s->checks = !(getenv("CUDALAB_SIM_CHECKS") && !strcmp(getenv("CUDALAB_SIM_CHECKS"), "0"));
    s->max_launches = 1u << 20;
    s->gpu = (lab_sim_gpu)LAB_SIM_GPU_H100;
    atomic_init(&s->grids, 0);
    *out = s;
    return 0;
}

void
lab_sim_free(lab_sim *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nallocs; i++) {
        lab_sim__zfree(s->allocs[i].mem, s->allocs[i].size);
        lab_sim__zfree(s->allocs[i].shadow, lab_sim__shadow_bytes(&s->allocs[i]));
    }
    free(s->allocs);
    lab_buf_release(&s->printf_text);
    free(s->heap_blocks);
    pthread_mutex_destroy(&s->heap_lock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

const char *
lab_sim_printf_text(const lab_sim *s, uint64_t *dropped)
{
    if (dropped)
        *dropped = s->printf_dropped;
    return s->printf_text.buf;
}

void
lab_sim_set_gpu(lab_sim *s, lab_sim_gpu gpu)
{
    if (gpu.sms && gpu.warps_per_sm)
        s->gpu = gpu;
}

void
lab_sim_set_threads(lab_sim *s, unsigned n)
{
    s->threads = n;
}

void
lab_sim_set_checks(lab_sim *s, bool on)
{
    s->checks = on;
}

void
lab_sim_set_max_launches(lab_sim *s, uint64_t n)
{
    s->max_launches = n;
}

/* From this size up, a block is mapped on its own, 2 MiB-aligned, and the kernel is asked for
 * huge pages: a fault per 2 MiB instead of one per 4 KiB (the faults of a 2^20-element run's
 * buffers and race shadows were a tenth of its time), and the pages come zeroed, once, when
 * first touched */
#define HUGE_PAGE (2u << 20)

static size_t
mapped_size(size_t bytes)
{
    return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

void *
lab_sim__zalloc(size_t bytes, size_t align)
{
    void *mem = NULL;

    if (bytes >= HUGE_PAGE) {
        size_t len = mapped_size(bytes), head;
        uint8_t *p =
            mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
        if (head)
            munmap(p, head);
        munmap(p + head + len, HUGE_PAGE - head);
        madvise(p + head, len,
                MADV_HUGEPAGE); /* transparent huge pages "madvise"; refused: 4 KiB */
        return p + head;
    }
    if (posix_memalign(&mem, align, (bytes + align - 1) / align * align) != 0)
        return NULL;
    memset(mem, 0, bytes);
    return mem;
}

void
lab_sim__zfree(void *p, size_t bytes)
{
    if (p && bytes >= HUGE_PAGE)
        munmap(p, mapped_size(bytes));
    else
        free(p);
}

int
lab_sim__alloc_internal(lab_sim *s, size_t bytes, uint64_t *out, lab_err *err)
{
    /* 256-byte aligned like cudaMalloc; zeroed so a missed write reads 0, not host garbage */
    void *mem;
    size_t i;

    if (bytes == 0)
        bytes = 1;
    if (!(mem = lab_sim__zalloc(bytes, 256)))
        return lab_err_set(err, LAB_ENOMEM, "out of memory for %zu bytes of device memory", bytes);
    pthread_mutex_lock(&s->lock);
    if (s->nallocs == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        sim_alloc *n = realloc(s->allocs, cap * sizeof(*n));
        if (!n) {
            pthread_mutex_unlock(&s->lock);
            free(mem);
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
        }
        s->allocs = n;
        s->cap = cap;
    }
    for (i = s->nallocs; i > 0 && s->allocs[i - 1].base > (uint64_t)(uintptr_t)mem; i--)
        s->allocs[i] = s->allocs[i - 1];
    s->allocs[i] = (sim_alloc){ (uint64_t)(uintptr_t)mem, bytes, mem, NULL };
    s->nallocs++;
    pthread_mutex_unlock(&s->lock);
    *out = (uint64_t)(uintptr_t)mem;
    return 0;
}

int
lab_sim_alloc(lab_sim *s, size_t bytes, uint64_t *out, lab_err *err)
{
    return lab_sim__alloc_internal(s, bytes, out, err);
}

/* Allocations only grow during a launch's lifetime (no free), so readers need no lock. */
const sim_alloc *
lab_sim__nearest(lab_sim *s, uint64_t addr)
{
    size_t lo = 0, hi = s->nallocs;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &s->allocs[lo - 1] : NULL;
}

const sim_alloc *
lab_sim__find(lab_sim *s, uint64_t addr, uint64_t bytes)
{
    const sim_alloc *a = lab_sim__nearest(s, addr);

    return a && addr - a->base < a->size && bytes <= a->size - (addr - a->base) ? a : NULL;
}

static int
range(lab_sim *s, uint64_t addr, size_t bytes, const char *what, lab_err *err)
{
    if (bytes == 0)
        return 0;
    if (!lab_sim__find(s, addr, bytes))
        return lab_err_set(err, LAB_EINVAL, "%s of %zu bytes at 0x%llx is outside every allocation",
                           what, bytes, (unsigned long long)addr);
    return 0;
}

int
lab_sim_copy_in(lab_sim *s, uint64_t dst, const void *src, size_t bytes, lab_err *err)
{
    int rc;

    if ((rc = range(s, dst, bytes, "copy to the device", err)) < 0)
        return rc;
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return 0;
}

int
lab_sim_fill32(lab_sim *s, uint64_t dst, uint32_t value, size_t count, lab_err *err)
{
    uint32_t *w = (uint32_t *)(uintptr_t)dst;
    int rc;

    if ((rc = range(s, dst, count * sizeof(*w), "fill on the device", err)) < 0)
        return rc;
    for (size_t i = 0; i < count; i++)
        w[i] = value;
    return 0;
}

int
lab_sim_copy_out(lab_sim *s, void *dst, uint64_t src, size_t bytes, lab_err *err)
{
    int rc;

    if ((rc = range(s, src, bytes, "copy from the device", err)) < 0)
        return rc;
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return 0;
}

int
lab_sim_copy_dtod(lab_sim *s, uint64_t dst, uint64_t src, size_t bytes, lab_err *err)
{
    int rc;

    if ((rc = range(s, src, bytes, "device copy source", err)) < 0 ||
        (rc = range(s, dst, bytes, "device copy destination", err)) < 0)
        return rc;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return 0;
}

bool
lab_sim__reserve(void **p, size_t used, size_t n, size_t *cap, size_t size)
{
    size_t want = *cap ? *cap : 16;
    void *q;

    if (used + n <= *cap)
        return true;
    while (want < used + n)
        want *= 2;
    if (!(q = realloc(*p, want * size)))
        return false;
    *p = q;
    *cap = want;
    return true;
}
