/*
 * devlib.c - the functions of CUDA's device library that the simulator runs
 * itself when a kernel calls them (parse.c's builtins table names them):
 * the device runtime's launches (dynpar.c), printf, assert, malloc and free.  exec.c
 * hands such a call to lab_sim__call, which runs it lane by lane from the
 * table below and writes what it returns into the lane's return .param.
 * A call's arguments and return value are the call sequence's .param
 * variables, which parse.c placed in the caller's frame of local memory.
 *
 * printf is vprintf(format, arguments): format the generic address of the
 * format string (a global constant), arguments that of the buffer nvcc
 * packs in the thread's local memory, or NULL (CUDA's printf ABI): each
 * argument at a multiple of its size, 4-byte ints (char and short
 * promoted), 8-byte long, long long, pointers and doubles (float
 * promoted).  Each lane's text becomes lines "block [x,y,z], thread
 * [x,y,z]: text" in its worker's buffer, block by block, up to
 * LAB_SIM_PRINTF_MAX bytes; launch.c merges the workers' buffers by block,
 * the lowest first, so what is kept does not depend on which worker ran
 * which block.  vprintf returns the number of arguments it read.
 *
 * assert is __assertfail(message, file, line, function, char size): a
 * fatal finding whose message is the GPU's ("file:line: function: block
 * [x,y,z], thread [x,y,z] Assertion `message` failed.").
 *
 * malloc and free share the device's heap, one global allocation of
 * LAB_SIM_HEAP_BYTES made when a module that calls malloc loads (never
 * during a launch: the table of allocations takes no lock for readers).
 * Its blocks in use are a sorted table under a lock, each with the size it
 * was asked for: with the checks on, exec.c's accesses of the heap are
 * checked against them (lab_sim__heap_holds), so an access past a block,
 * into its neighbour or a freed one, is caught as one past an array is.
 */
#include "lab/sim/exec.h"
#include "lab/util/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOR_LANES(m)                                                                               \
    for (int l = 0; l < 32; l++)                                                                   \
        if ((m) >> l & 1u)

#define STRING_MAX 1024 /* bytes of a format or a %s argument read from the device */

uint8_t *
lab_sim__arg(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o)
{
    return lab_sim__local(wk, w, l) + w->local_base + (size_t)o->imm;
}

uint64_t
lab_sim__arg64(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o)
{
    uint64_t v;
    memcpy(&v, lab_sim__arg(wk, w, l, o), 8);
    return v;
}

uint32_t
lab_sim__arg32(sim_worker *wk, const sim_warp *w, int l, const sim_opnd *o, unsigned k)
{
    uint32_t v;
    memcpy(&v, lab_sim__arg(wk, w, l, o) + 4 * k, 4);
    return v;
}

/* A NUL-terminated string at a generic address into out (at most STRING_MAX bytes); -1 after a
 * finding (an address outside memory). */
static int
read_string(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t addr,
            lab_buf *out)
{
    for (size_t i = 0; i < STRING_MAX; i++) {
        const uint8_t *c = lab_sim__lane_read(wk, w, l, in, addr + i, 1);
        if (!c)
            return -1;
        if (!*c)
            break;
        if (lab_buf_addch(out, (char)*c) < 0)
            return lab_sim__launch_error(wk, in, "out of memory");
    }
    return 0;
}

/* One conversion of a format: %[flags][width][.precision][length]conversion */
typedef struct conv {
    char spec[40]; /* flags, width and precision, "%" first, for the host's printf */
    char type;     /* d i o u x X c s p f F e E g G a A */
    int size;      /* of its argument in the buffer: 4 or 8 */
    int narrow;    /* h: 16 bits, hh: 8 bits (of an int) */
    size_t len;    /* characters of the conversion in the format */
} conv;

/* The conversion at p (after its '%'); false if it is none the GPU's printf knows. */
static bool
parse_conv(const char *p, conv *c)
{
    const char *q = p, *length;
    size_t n;

    q += strspn(q, "-+ #0");
    q += strspn(q, "0123456789");
    if (*q == '.') {
        q++;
        q += strspn(q, "0123456789");
    }
    n = (size_t)(q - p);
    length = q;
    q += strspn(q, "hlLjzt");
    if (!*q || !strchr("diouxXcspfFeEgGaA", *q) || n + 2 > sizeof(c->spec) - 4)
        return false;
    c->type = *q;
    c->len = (size_t)(q - p) + 1;
    c->spec[0] = '%';
    memcpy(c->spec + 1, p, n);
    c->spec[n + 1] = '\0';
    c->narrow = length[0] == 'h' ? (length[1] == 'h' ? 8 : 16) : 0;
    c->size = strchr("spfFeEgGaA", c->type) || (q > length && length[0] != 'h') ? 8 : 4;
    return true;
}

/* One argument formatted by c into out; a %s reads its string from the device. */
static int
format_arg(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, const conv *c, uint64_t v,
           lab_buf *out)
{
    char spec[48];
    int rc = 0;

    if (c->type == 's') {
        lab_buf s = LAB_BUF_INIT;
        snprintf(spec, sizeof(spec), "%ss", c->spec);
        if (v && read_string(wk, w, l, in, v, &s) < 0)
            rc = -1;
        else
            rc = lab_buf_printf(out, spec, v ? s.buf : "(null)");
        lab_buf_release(&s);
    } else if (strchr("fFeEgGaA", c->type)) {
        double d;
        memcpy(&d, &v, 8);
        snprintf(spec, sizeof(spec), "%s%c", c->spec, c->type);
        rc = lab_buf_printf(out, spec, d);
    } else if (c->type == 'p') {
        snprintf(spec, sizeof(spec), "%sp", c->spec);
        rc = lab_buf_printf(out, spec, (void *)(uintptr_t)v);
    } else if (c->type == 'c') {
        snprintf(spec, sizeof(spec), "%sc", c->spec);
        rc = lab_buf_printf(out, spec, (int)v);
    } else { /* integers, signed or not, at the argument's width or narrower (h, hh) */
        unsigned bits = c->narrow ? (unsigned)c->narrow : (unsigned)c->size * 8;
        uint64_t u = bits == 64 ? v : v & ((1ull << bits) - 1);
        bool is_signed = c->type == 'd' || c->type == 'i';
        snprintf(spec, sizeof(spec), "%sll%c", c->spec, c->type);
        if (is_signed && bits < 64 && (u >> (bits - 1) & 1))
            u |= ~0ull << bits; /* sign-extended */
        rc = is_signed ? lab_buf_printf(out, spec, (long long)u)
                       : lab_buf_printf(out, spec, (unsigned long long)u);
    }
    if (rc < 0 && wk->rc == 0)
        return lab_sim__launch_error(wk, in, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* vprintf(format, arguments) of lane l into out; *nargs: the arguments read */
static int
format_lane(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, lab_buf *out,
            uint64_t *nargs)
{
    uint64_t fmt_addr = lab_sim__arg64(wk, w, l, &in->o[1]),
             args = lab_sim__arg64(wk, w, l, &in->o[2]);
    lab_buf fmt = LAB_BUF_INIT;
    uint64_t off = 0;
    int rc = 0;

    *nargs = 0;
    if (read_string(wk, w, l, in, fmt_addr, &fmt) < 0) {
        lab_buf_release(&fmt);
        return -1;
    }
    for (const char *p = fmt.buf; *p && rc == 0;) {
        const uint8_t *a;
        uint64_t v = 0;
        conv c;
        if (*p != '%' || p[1] == '%' || !parse_conv(p + 1, &c)) { /* text, %% or not a conversion */
            size_t n = *p == '%' && p[1] == '%' ? 2 : 1;
            rc = lab_buf_addch(out, *p);
            p += n;
            continue;
        }
        off = (off + (uint64_t)c.size - 1) / (uint64_t)c.size * (uint64_t)c.size;
        if (!args) { /* more conversions than arguments: printed as written */
            rc = lab_buf_add(out, p, c.len + 1);
            p += c.len + 1;
            continue;
        }
        if (!(a = lab_sim__lane_read(wk, w, l, in, args + off, (uint32_t)c.size))) {
            rc = -1;
            break;
        }
        memcpy(&v, a, (size_t)c.size);
        off += (uint64_t)c.size;
        ++*nargs;
        rc = format_arg(wk, w, l, in, &c, v, out);
        p += c.len + 1;
    }
    lab_buf_release(&fmt);
    if (rc < 0 && wk->rc == 0 && !wk->fatal)
        return lab_sim__launch_error(wk, in, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* text, each of its lines prefixed with lane l's block and thread, into the worker's buffer */
static int
printf_keep(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, const lab_buf *text)
{
    lab_buf *o = &wk->printf_text;
    sim_printf_seg *seg;
    char who[96];
    size_t who_len;

    if (!wk->nprintf_segs || wk->printf_segs[wk->nprintf_segs - 1].block != wk->block_linear) {
        if (!lab_sim__reserve((void **)&wk->printf_segs, wk->nprintf_segs, 1, &wk->printf_segcap,
                              sizeof(*wk->printf_segs)))
            return lab_sim__launch_error(wk, in, "out of memory");
        wk->printf_segs[wk->nprintf_segs++] = (sim_printf_seg){ wk->block_linear, o->len, o->len };
    }
    seg = &wk->printf_segs[wk->nprintf_segs - 1];
    who_len =
        (size_t)snprintf(who, sizeof(who), "block [%u,%u,%u], thread [%u,%u,%u]: ", wk->ctaid[0],
                         wk->ctaid[1], wk->ctaid[2], w->tid[0][l], w->tid[1][l], w->tid[2][l]);
    for (const char *p = text->buf; *p;) {
        size_t n = strcspn(p, "\n");
        /* a flood stops the launch: formatting every thread's line of a large grid takes the
         * simulator longer than the grading's time limit, and a GPU would not keep them either */
        if (atomic_fetch_add(&wk->L->root->printed, who_len + n + 1) + who_len + n + 1 >
            LAB_SIM_PRINTF_FLOOD) {
            atomic_store(&wk->L->root->printf_cut, 1);
            atomic_store(&wk->L->root->abort, 1);
        }
        if (o->len >= LAB_SIM_PRINTF_MAX) /* counted as it would have been kept */
            wk->printf_dropped += who_len + n + 1;
        else if (lab_buf_add(o, who, who_len) < 0 || lab_buf_add(o, p, n) < 0 ||
                 lab_buf_addch(o, '\n') < 0)
            return lab_sim__launch_error(wk, in, "out of memory");
        seg->end = o->len;
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* vprintf(format, arguments): .b32 the number of arguments read */
static int
run_printf(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret)
{
    lab_buf text = LAB_BUF_INIT;
    int rc;

    if ((rc = format_lane(wk, w, l, in, &text, ret)) == 0)
        rc = printf_keep(wk, w, l, in, &text);
    lab_buf_release(&text);
    return rc;
}

/* __assertfail(message, file, line, function, char size): stops the launch with the GPU's
 * message, the file named without its folders as in every finding */
static int
run_assert(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret)
{
    lab_buf msg = LAB_BUF_INIT, file = LAB_BUF_INIT, func = LAB_BUF_INIT;
    uint32_t line = lab_sim__arg32(wk, w, l, &in->o[3], 0);
    const char *base;

    *ret = 0;
    if (read_string(wk, w, l, in, lab_sim__arg64(wk, w, l, &in->o[1]), &msg) == 0 &&
        read_string(wk, w, l, in, lab_sim__arg64(wk, w, l, &in->o[2]), &file) == 0 &&
        read_string(wk, w, l, in, lab_sim__arg64(wk, w, l, &in->o[4]), &func) == 0) {
        base = strrchr(file.buf, '/') ? strrchr(file.buf, '/') + 1 : file.buf;
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_ASSERT, true,
                         "%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u] Assertion `%s` failed.",
                         base, line, func.buf, wk->ctaid[0], wk->ctaid[1], wk->ctaid[2],
                         w->tid[0][l], w->tid[1][l], w->tid[2][l], msg.buf);
    }
    lab_buf_release(&msg);
    lab_buf_release(&file);
    lab_buf_release(&func);
    return -1;
}

int
lab_sim__heap_init(lab_sim *s, lab_err *err)
{
    return s->heap ? 0 : lab_sim__alloc_internal(s, LAB_SIM_HEAP_BYTES, &s->heap, err);
}

/* malloc(size): .b64 a block of the heap, 16-byte aligned, in the first gap between the blocks in
 * use that holds it; NULL when none does (the GPU's answer too) */
static int
run_malloc(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret)
{
    lab_sim *s = wk->L->sim;
    uint64_t size = lab_sim__arg64(wk, w, l, &in->o[1]), at = 0, asked;
    size_t i;

    *ret = 0;
    if (!size || size > LAB_SIM_HEAP_BYTES)
        return 0;
    asked = size;
    size = (size + 15) / 16 * 16;
    pthread_mutex_lock(&s->heap_lock);
    for (i = 0; i < s->nheap_blocks && s->heap_blocks[i].off - at < size; i++)
        at = s->heap_blocks[i].off + s->heap_blocks[i].size;
    if (LAB_SIM_HEAP_BYTES - at >= size &&
        lab_sim__reserve((void **)&s->heap_blocks, s->nheap_blocks, 1, &s->heap_cap,
                         sizeof(*s->heap_blocks))) {
        memmove(&s->heap_blocks[i + 1], &s->heap_blocks[i],
                (s->nheap_blocks - i) * sizeof(*s->heap_blocks));
        s->heap_blocks[i] = (sim_heap_block){ at, size, asked };
        s->nheap_blocks++;
        *ret = s->heap + at;
    }
    pthread_mutex_unlock(&s->heap_lock);
    if (*ret && wk->L->checks) { /* a new block: what its earlier owners did to it is no race */
        const sim_alloc *a = lab_sim__find(s, s->heap, 1);
        sim_shadow *sh = a ? lab_sim__global_shadow(wk, a, *ret) : NULL;
        if (sh)
            memset(sh, 0, size / 4 * sizeof(*sh));
    }
    return 0;
}

bool
lab_sim__heap_holds(lab_sim *s, uint64_t addr, uint64_t bytes, sim_heap_block *near)
{
    uint64_t off = addr - s->heap;
    size_t lo = 0, hi;
    bool in = false;

    *near = (sim_heap_block){ 0, 0, 0 };
    pthread_mutex_lock(&s->heap_lock);
    hi = s->nheap_blocks;
    while (lo < hi) { /* the first block past off */
        size_t mid = (lo + hi) / 2;
        if (s->heap_blocks[mid].off <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0) {
        *near = s->heap_blocks[lo - 1];
        in = off - near->off < near->asked && bytes <= near->asked - (off - near->off);
    }
    pthread_mutex_unlock(&s->heap_lock);
    return in;
}

/* free(pointer): the block malloc returned goes back; NULL does nothing; anything else is the
 * kernel's fault (on the GPU, undefined) */
static int
run_free(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret)
{
    lab_sim *s = wk->L->sim;
    uint64_t p = lab_sim__arg64(wk, w, l, &in->o[1]);
    size_t lo = 0, hi;
    bool freed = false;

    *ret = 0;
    if (!p)
        return 0;
    pthread_mutex_lock(&s->heap_lock);
    hi = s->nheap_blocks;
    while (lo < hi) { /* the first block at or past p's offset */
        size_t mid = (lo + hi) / 2;
        if (s->heap + s->heap_blocks[mid].off < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nheap_blocks && s->heap + s->heap_blocks[lo].off == p) {
        memmove(&s->heap_blocks[lo], &s->heap_blocks[lo + 1],
                (s->nheap_blocks - lo - 1) * sizeof(*s->heap_blocks));
        s->nheap_blocks--;
        freed = true;
    }
    pthread_mutex_unlock(&s->heap_lock);
    if (freed)
        return 0;
    lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_BAD_FREE, true,
                     N_("free(0x%llx): not a block that malloc returned, or freed already"),
                     (unsigned long long)p);
    return -1;
}

/* __cudaCDP2GetLastError(), __cudaCDP2PeekAtLastError(): a launch that fails here stops the
 * simulator instead, so there is never an error to report */
static int
last_error(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret)
{
    (void)wk;
    (void)w;
    (void)l;
    (void)in;
    *ret = 0; /* cudaSuccess */
    return 0;
}

static const struct {
    int (*run)(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t *ret);
    uint8_t ret_bytes; /* of the return .param */
} builtins[BI_COUNT] = {
    [BI_PARAM_BUFFER] = { lab_sim__param_buffer, 8 },
    [BI_LAUNCH] = { lab_sim__launch_device, 4 },
    [BI_LAST_ERROR] = { last_error, 4 },
    [BI_PRINTF] = { run_printf, 4 },
    [BI_ASSERT] = { run_assert, 0 },
    [BI_MALLOC] = { run_malloc, 8 },
    [BI_FREE] = { run_free, 0 },
};

int
lab_sim__call(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    if (in->sub >= BI_COUNT || !builtins[in->sub].run)
        return lab_sim__unsupported(wk, in, "this call");
    FOR_LANES(m)
    {
        uint64_t ret = 0;
        if (builtins[in->sub].run(wk, w, l, in, &ret) < 0)
            return -1;
        if (builtins[in->sub].ret_bytes)
            memcpy(lab_sim__arg(wk, w, l, &in->o[0]), &ret, builtins[in->sub].ret_bytes);
    }
    return 0;
}

/* A block's printf text, where it lies */
typedef struct block_text {
    uint64_t block;
    const char *text;
    size_t len;
} block_text;

static int
block_order(const void *a, const void *b)
{
    const block_text *x = a, *y = b;
    return x->block < y->block ? -1 : x->block > y->block;
}

void
lab_sim__printf_merge(sim_root *root, sim_worker *workers, unsigned nworkers)
{
    size_t nblocks = 0, k = 0;
    block_text *all;

    for (unsigned i = 0; i < nworkers; i++)
        nblocks += workers[i].nprintf_segs;
    all = malloc((nblocks ? nblocks : 1) * sizeof(*all));
    pthread_mutex_lock(&root->lock);
    for (unsigned i = 0; i < nworkers; i++) {
        const sim_worker *wk = &workers[i];
        root->printf_dropped += wk->printf_dropped + (all ? 0 : wk->printf_text.len);
        for (size_t s = 0; all && s < wk->nprintf_segs; s++)
            all[k++] = (block_text){ wk->printf_segs[s].block,
                                     wk->printf_text.buf + wk->printf_segs[s].start,
                                     wk->printf_segs[s].end - wk->printf_segs[s].start };
    }
    if (all) /* a block runs on one worker: the keys are unique */
        qsort(all, k, sizeof(*all), block_order);
    for (size_t i = 0; i < k; i++) { /* whole lines, as many as fit */
        size_t room = LAB_SIM_PRINTF_MAX - (root->printf_text.len < LAB_SIM_PRINTF_MAX
                                                ? root->printf_text.len
                                                : LAB_SIM_PRINTF_MAX),
               n = all[i].len;
        while (n > room) { /* a line ends every segment */
            const char *nl = n > 1 ? memrchr(all[i].text, '\n', n - 1) : NULL;
            n = nl ? (size_t)(nl + 1 - all[i].text) : 0;
        }
        if (n && lab_buf_add(&root->printf_text, all[i].text, n) < 0)
            n = 0;
        root->printf_dropped += all[i].len - n;
    }
    pthread_mutex_unlock(&root->lock);
    free(all);
}
