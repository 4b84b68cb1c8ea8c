/*
 * stats.c - medians and their confidence (see stats.h).
 *
 * The half-width of the median's 95 % interval is estimated from the MAD:
 * 1.96 * 1.2533 * (1.4826 * MAD) / sqrt(n) - the normal approximation of the
 * median's standard error (1.2533 sigma / sqrt n) with sigma from the MAD, as
 * replayed on H100 samples in docs/design/timing.md, "How many samples".
 */
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double
median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
lab_stats_summarize(double *v, size_t n, lab_stats *out)
{
    double *dev;

    qsort(v, n, sizeof(*v), cmp_double);
    out->samples = n;
    out->median = median_sorted(v, n);
    out->min = v[0];
    out->max = v[n - 1];
    out->mad = 0;
    dev = malloc(n * sizeof(*dev));
    if (dev) {
        for (size_t i = 0; i < n; i++)
            dev[i] = fabs(v[i] - out->median);
        qsort(dev, n, sizeof(*dev), cmp_double);
        out->mad = median_sorted(dev, n);
        free(dev);
    }
    out->ci_rel =
        out->median > 0 ? 1.96 * 1.2533 * 1.4826 * out->mad / sqrt((double)n) / out->median : 0;
}
