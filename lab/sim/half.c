/*
 * half.c - 16-bit floating point: __half (.f16, IEEE binary16) and __nv_bfloat16 (.bf16), alone
 * or in pairs (.f16x2, .bf16x2: the low half is the first): conversions to and from the wider
 * types, and the arithmetic that exec.c runs on them (CL_HALF), each result rounded once to
 * nearest even, as the PTX ISA has it for .rn (the only rounding these forms take here).
 */
#include "lab/sim/internal.h"

#include <math.h>
#include <string.h>

float
lab_sim__half_to_float(uint16_t h, bool bf)
{
    float f;

    if (bf) {
        uint32_t b = (uint32_t)h << 16;
        memcpy(&f, &b, 4);
        return f;
    }
    /* binary16 by its bits (no _Float16: compilers before GCC 12 and clang 15 lack it on x86) */
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, b;
    if (exp == 0) { /* zero or subnormal: mant units of 2^-24, exact in a float */
        f = ldexpf((float)mant, -24);
        return sign ? -f : f;
    }
    b = sign | (exp == 31 ? 0x7f800000u : (exp - 15 + 127) << 23) | mant << 13;
    if (exp == 31 && mant) /* a NaN comes out quiet */
        b |= 0x00400000u;
    memcpy(&f, &b, 4);
    return f;
}

uint16_t
lab_sim__half_from_double(double v, bool bf)
{
    uint16_t h;

    if (bf) { /* 8 significant bits, rounded to nearest even from v itself (one rounding) */
        float f;
        uint32_t b;
        if (isnan(v))
            return 0x7fff;
        if (isfinite(v) && fabs(v) >= 0x1p-126) {
            int e;
            double m = frexp(v, &e);
            v = ldexp(nearbyint(m * 256.0), e - 8);
        }
        f = (float)v; /* exact now, or infinity; a subnormal rounds twice (to float, then here) */
        memcpy(&b, &f, 4);
        b += 0x7fff + ((b >> 16) & 1);
        return (uint16_t)(b >> 16);
    }
    /* binary16: 11 significant bits, rounded to nearest even from v itself (one rounding) */
    uint64_t bits;
    double a = fabs(v), r;
    int e;
    memcpy(&bits, &v, 8);
    h = (uint16_t)(bits >> 63 << 15);
    if (isnan(v)) /* quiet, the payload's top bits kept */
        return h | 0x7e00 | (uint16_t)((bits >> 42) & 0x3ff);
    if (a < 0x1p-14) /* subnormal: units of 2^-24; 1024 of them is the smallest normal */
        return h | (uint16_t)nearbyint(a * 0x1p24);
    if (isinf(a))
        return h | 0x7c00;
    frexp(a, &e);                    /* a = m 2^e, m in [0.5, 1): 1.f 2^(e-1) */
    r = nearbyint(ldexp(a, 11 - e)); /* 1024 .. 2048 */
    if (r == 2048.0) {
        r = 1024.0;
        e++;
    }
    if (e - 1 + 15 >= 31)
        return h | 0x7c00;
    return h | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(r - 1024.0);
}

/* One 16-bit lane of op on a, b, c (already floats); the result's bits */
static uint16_t
half_op(const sim_insn *in, bool bf, float a, float b, float c)
{
    double r;

    switch (in->op) {
    case SIM_OP_ADD:
        r = (double)a + b;
        break;
    case SIM_OP_SUB:
        r = (double)a - b;
        break;
    case SIM_OP_MUL:
        r = (double)a * b;
        break;
    case SIM_OP_FMA:
    case SIM_OP_MAD:
        r = fma((double)a, (double)b, (double)c); /* exact product and sum: one rounding */
        break;
    case SIM_OP_NEG:
        r = -(double)a;
        break;
    case SIM_OP_ABS:
        r = fabs((double)a);
        break;
    case SIM_OP_MIN:
        r = isnan(a) ? b : isnan(b) ? a : a < b || (a == b && signbit(a)) ? a : b;
        break;
    default: /* SIM_OP_MAX */
        r = isnan(a) ? b : isnan(b) ? a : a > b || (a == b && !signbit(a)) ? a : b;
        break;
    }
    if ((in->flags & F_SAT) && !isnan(r))
        r = r < 0 ? 0 : r > 1 ? 1 : r;
    if (isnan(r))
        return 0x7fff; /* the canonical NaN of both */
    return lab_sim__half_from_double(r, bf);
}

bool
lab_sim__half_supported(const sim_insn *in)
{
    switch (in->op) {
    case SIM_OP_ADD:
    case SIM_OP_SUB:
    case SIM_OP_MUL:
    case SIM_OP_FMA:
    case SIM_OP_NEG:
    case SIM_OP_ABS:
    case SIM_OP_MIN:
    case SIM_OP_MAX:
        return (in->rnd == RND_NONE || in->rnd == RND_RN) && !(in->flags & F_FTZ);
    default:
        return false;
    }
}

uint64_t
lab_sim__half_lane(const sim_insn *in, uint64_t a, uint64_t b, uint64_t c)
{
    bool bf = in->type == T_BF16 || in->type == T_BF16X2;
    unsigned lanes = in->type == T_F16X2 || in->type == T_BF16X2 ? 2 : 1;
    uint64_t r = 0;

    for (unsigned k = 0; k < lanes; k++) {
        float x = lab_sim__half_to_float((uint16_t)(a >> (16 * k)), bf),
              y = lab_sim__half_to_float((uint16_t)(b >> (16 * k)), bf),
              z = lab_sim__half_to_float((uint16_t)(c >> (16 * k)), bf);
        r |= (uint64_t)half_op(in, bf, x, y, z) << (16 * k);
    }
    return r;
}
