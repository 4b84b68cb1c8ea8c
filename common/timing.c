/*
 * timing.c - interleaved event timing with an L2 read-flush (see timing.h).
 *
 * One sample of kernel k on its input set s (the samples of a kernel take
 * the sets in turn): prepare (restore set s's input, poison its output) ->
 * flush (read a buffer several times the L2) -> start event -> launch -> stop
 * event.  No host synchronisation between the flush and the start event: it
 * adds ~3 us of launch latency and triples the noise (docs/design/timing.md).
 * A round takes one sample of every kernel, starting at a rotating position,
 * then synchronises once and reads the events.  A sample picked for checking
 * (the warm-up, one in check_one_in at random, and an extra last round that
 * is not counted in the statistics) synchronises after its stop event and
 * has its output checked there, before the next sample overwrites it: the
 * check sits outside every timed span.
 */
#include "common/timing.h"
#include "lab/util/clock.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_MAX (256u << 20) /* bytes; 5x the H100's 50 MiB L2 */
#define FLUSH_MIN (16u << 20)
#define CHECK_EVERY 10 /* rounds between looks at the stop rule */
#define VERIFY_ONE_IN                                                                              \
    16 /* of the timed samples, about one in this many is checked, or more often */

int
lab_timing_init(lab_timing *t, const lab_dev_ops *ops, lab_dev *dev, const lab_dev_info *info,
                double flush_l2, const char *lab_kernels_path, lab_err *err)
{
    const size_t total_mem = info->total_mem;
    size_t bytes = (size_t)((double)info->l2_bytes * flush_l2) & ~(size_t)15;
    int rc;

    memset(t, 0, sizeof(*t));
    t->ops = ops;
    t->dev = dev;
    if ((rc = lab_dev_load_file(ops, dev, lab_kernels_path, &t->kernels, err)) < 0)
        return rc;
    if (bytes < FLUSH_MIN)
        bytes = FLUSH_MIN;
    if (bytes > FLUSH_MAX)
        bytes = FLUSH_MAX;
    if (total_mem && bytes > total_mem / 8)
        bytes = total_mem / 8 & ~(size_t)15;
    t->flush_bytes = bytes;
    if ((rc = ops->alloc(dev, bytes, &t->flush_buf, err)) < 0 ||
        (rc = ops->alloc(dev, sizeof(int), &t->sink, err)) < 0)
        return lab_err_wrap(err, "flush buffer");
    /* zeros, written on the device rather than filled on the host and copied:
     * the flush kernel's xor never matches its sentinel */
    return lab_dev_fill32(ops, dev, t->flush_buf, 0, bytes / sizeof(uint32_t), err);
}

int
lab_timing_flush(lab_timing *t, lab_err *err)
{
    unsigned long long n = t->flush_bytes / 16;
    void *args[] = { &t->flush_buf, &n, &t->sink };
    lab_dim3 grid = { 1024, 1, 1 }, block = { 512, 1, 1 };

    return t->ops->launch(t->kernels, "lab_flush_l2", grid, block, 0, args, err);
}

int
lab_timing_copy_gbps(lab_timing *t, double *gbps, lab_err *err)
{
    const size_t half = t->flush_bytes / 2;
    double ms[21];
    lab_timer *tm = NULL;
    lab_stats st;
    int rc;

    if ((rc = t->ops->timer_new(t->dev, &tm, err)) < 0)
        return rc;
    for (size_t i = 0; i <= ARRAY_SIZE(ms); i++) { /* the first is a warm-up */
        if ((rc = t->ops->timer_start(tm, err)) < 0 ||
            (rc = t->ops->copy_dtod(t->dev, t->flush_buf + half, t->flush_buf, half, err)) < 0 ||
            (rc = t->ops->timer_stop(tm, err)) < 0 || (rc = t->ops->sync(t->dev, err)) < 0)
            return rc;
        if (i > 0 && (rc = t->ops->elapsed(tm, &ms[i - 1], err)) < 0)
            return rc;
    }
    lab_stats_summarize(ms, ARRAY_SIZE(ms), &st);
    *gbps = 2.0 * half / (st.median * 1e-3) / 1e9;
    return 0;
}

/* One in how many timed samples is checked: VERIFY_ONE_IN, or more often where the minimum is
 * short, so that a kernel wrong on a fraction of its launches meets about o->checks checks, as in
 * a long timing (16 of 50 samples, 19 of 300).  A sweep (checks 0) times one kernel at many
 * shapes: one in 16 of each shape's samples checks the same code many times over. */
static unsigned
check_one_in(const lab_timing_opts *o)
{
    unsigned k = o->checks ? o->min_samples / o->checks : VERIFY_ONE_IN;

    return k < 1 ? 1 : k > VERIFY_ONE_IN ? VERIFY_ONE_IN : k;
}

/* Which timed samples are checked: a xorshift stream the kernel cannot predict from its own
 * launches (seeded from the clock), so a kernel cannot be right only on the checked ones. */
static bool
pick(uint64_t *state, unsigned one_in)
{
    uint64_t x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x % one_in == 0;
}

/* One sample of kernel k: its launch number `index` on input set index % sets; checked when
 * `check` (the result records the first wrong one). */
static int
sample(lab_timing *t, const lab_timed_kernel *k, size_t index, bool check, lab_timer *tm,
       lab_timing_result *res, lab_err *err)
{
    const unsigned set = (unsigned)(index % (k->sets ? k->sets : 1));
    int rc;

    if (k->prepare && (rc = k->prepare(k->ctx, set, err)) < 0)
        return rc;
    if ((rc = lab_timing_flush(t, err)) < 0 || (rc = t->ops->timer_start(tm, err)) < 0 ||
        (rc = k->launch(k->ctx, set, err)) < 0 || (rc = t->ops->timer_stop(tm, err)) < 0)
        return rc;
    if (!check || !k->verify)
        return 0;
    if ((rc = t->ops->sync(t->dev, err)) < 0)
        return rc;
    res->verified++;
    if (res->wrong)
        return 0; /* the first wrong launch is the one described */
    rc = k->verify(k->ctx, set, res->why, sizeof(res->why), err);
    if (rc == 1) {
        res->wrong = true;
        res->wrong_sample = index;
    }
    return rc < 0 ? rc : 0;
}

static bool
converged(double **samples, size_t count, size_t n, const lab_timing_opts *o)
{
    for (size_t i = 0; i < n; i++) {
        double *copy = malloc(count * sizeof(*copy));
        lab_stats st;

        if (!copy)
            return false;
        memcpy(copy, samples[i], count * sizeof(*copy));
        lab_stats_summarize(copy, count, &st);
        free(copy);
        if (st.ci_rel > o->ci_target)
            return false;
    }
    return true;
}

int
lab_timing_run(lab_timing *t, const lab_timed_kernel *kernels, size_t n, const lab_timing_opts *o,
               lab_timing_result *results, lab_err *err)
{
    lab_timer *timers[LAB_TIMING_MAX_KERNELS] = { 0 };
    double *samples[LAB_TIMING_MAX_KERNELS] = { 0 };
    size_t count = 0, alloc = 0, round;
    double deadline = lab_clock_now() + o->time_cap_s;
    uint64_t draw = (uint64_t)(lab_clock_now() * 1e9) | 1;
    const unsigned one_in = check_one_in(o);
    bool capped = false;
    int rc = 0;

    if (n == 0 || n > LAB_TIMING_MAX_KERNELS)
        return lab_err_set(err, LAB_EINVAL, "cannot time %zu kernels at once", n);
    memset(results, 0, n * sizeof(*results));
    for (size_t i = 0; i < n; i++)
        if ((rc = t->ops->timer_new(t->dev, &timers[i], err)) < 0)
            goto out;
    /* warm-up, checked: module load and first-launch costs stay out of the samples */
    for (size_t i = 0; i < n; i++)
        if ((rc = sample(t, &kernels[i], 0, true, timers[i], &results[i], err)) < 0) {
            lab_err_wrap(err, "%s kernel, warm-up", kernels[i].role);
            goto out;
        }
    if ((rc = t->ops->sync(t->dev, err)) < 0)
        goto out;
    for (round = 0;; round++) {
        if (count == alloc) {
            alloc = alloc ? alloc * 2 : 512;
            for (size_t i = 0; i < n; i++) {
                double *p = realloc(samples[i], alloc * sizeof(*p));
                if (!p) {
                    rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
                    goto out;
                }
                samples[i] = p;
            }
        }
        for (size_t j = 0; j < n; j++) {
            size_t i = (round + j) % n;
            if ((rc = sample(t, &kernels[i], count + 1, pick(&draw, one_in), timers[i], &results[i],
                             err)) < 0) {
                lab_err_wrap(err, "%s kernel", kernels[i].role);
                goto out;
            }
        }
        if ((rc = t->ops->sync(t->dev, err)) < 0)
            goto out;
        for (size_t i = 0; i < n; i++) {
            double ms;
            if ((rc = t->ops->elapsed(timers[i], &ms, err)) < 0)
                goto out;
            samples[i][count] = ms * 1e6;
        }
        count++;
        if (count >= o->min_samples && count % CHECK_EVERY == 0 && converged(samples, count, n, o))
            break;
        if (lab_clock_now() > deadline && count >= 10) {
            capped = true;
            break;
        }
    }
    /* the last round: every kernel's output checked, its times not counted */
    for (size_t i = 0; i < n; i++)
        if ((rc = sample(t, &kernels[i], count + 1, true, timers[i], &results[i], err)) < 0) {
            lab_err_wrap(err, "%s kernel, last round", kernels[i].role);
            goto out;
        }
    for (size_t i = 0; i < n; i++) {
        lab_stats_summarize(samples[i], count, &results[i].ns);
        results[i].capped = capped;
    }
out:
    for (size_t i = 0; i < n; i++)
        free(samples[i]);
    /* timers are owned by the device and freed when it closes */
    return rc;
}

void
lab_timing_release(lab_timing *t)
{
    memset(t, 0, sizeof(*t));
}
