/*
 * speedline.c - the speed line a step gets on the GPU at hand (see speedline.h).
 */
#include "lab/grade/speedline.h"
#include "lab/util/err.h"

#include <string.h>

static const char *const source_names[] = {
    [LAB_LINE_NONE] = "",
    [LAB_LINE_MANIFEST] = "manifest",
    [LAB_LINE_THIS_GPU] = "this-gpu",
    [LAB_LINE_MATCH_REFERENCE] = "match-reference",
};
_Static_assert(ARRAY_SIZE(source_names) == LAB_LINE_SOURCE_COUNT, "one name per source");

const char *
lab_line_source_name(lab_line_source s)
{
    return (unsigned)s < LAB_LINE_SOURCE_COUNT ? source_names[s] : "";
}

double
lab_speed_line_noise(double ci_baseline, double ci_reference)
{
    double v = 2 * ((ci_baseline > 0 ? ci_baseline : 0) + (ci_reference > 0 ? ci_reference : 0));

    return v > LAB_SPEED_LINE_NOISE_FLOOR ? v : LAB_SPEED_LINE_NOISE_FLOOR;
}

void
lab_speed_line_for(double manifest_speedup, double manifest_fraction, double reference_speedup,
                   double noise, lab_speed_line *out)
{
    const double r = reference_speedup, v = noise;
    double line;

    memset(out, 0, sizeof(*out));
    out->source = LAB_LINE_MANIFEST;
    out->manifest_speedup = manifest_speedup;
    out->manifest_fraction = manifest_fraction;
    out->reference_speedup = r > 0 ? r : 0;
    out->noise = v;
    out->min_fraction = manifest_fraction;
    if (r <= 0) /* the baseline is not timed: the fraction alone */
        return;
    if (manifest_speedup > 1 && r < 1 + 2 * v) { /* the lesson does not show here */
        out->source = LAB_LINE_MATCH_REFERENCE;
        out->min_fraction = 1 - 2 * v;
        return;
    }
    /* half-way to a gain, or a little under the reference for "not slower" */
    line = manifest_speedup > 1 ? 1 + (r - 1) / 2 : r * (1 - 2 * v);
    if (line < manifest_speedup) {
        out->min_speedup = line;
        out->source = LAB_LINE_THIS_GPU;
    } else {
        out->min_speedup = manifest_speedup;
    }
}
