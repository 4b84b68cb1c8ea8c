/*
 * test-sim-conf.c - the simulator against the PTX ISA, one instruction at a
 * time: every kernel of tests/sim/conformance.cu (built by real nvcc into
 * $CUDALAB_TEST_SIM_CONF_PTX) runs on the simulator over its edge operands
 * (tests/sim/conformance-edges.h), and each result is compared with the value
 * the PTX ISA defines, computed here: the host's IEEE arithmetic (in the
 * instruction's rounding mode) for add/sub/mul/fma/div/sqrt/rcp and the
 * conversions to f32, explicit rules for the rest.  What PTX leaves open
 * (x / 0, INT_MIN / -1, a NaN's payload and sign, min/max of +0 and -0, the
 * sign of .sat's zero) is skipped here and compared bit-exactly with the H100's
 * recording by tests/e2e/test-sim-diff.sh.
 */
#include <criterion/criterion.h>

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/buf.h"
#include "tests/sim-test.h"
#include "tests/sim/conformance-edges.h"

static const uint32_t conf_f32[] = { CONF_F32_EDGES }, conf_cvt[] = { CONF_CVT_EDGES },
                      conf_i32[] = { CONF_I32_EDGES }, conf_i2f[] = { CONF_I2F_EDGES },
                      conf_pos[] = { CONF_POS_EDGES }, conf_i64[] = { CONF_I64_EDGES };

enum { N = 16384, BLOCK = 256 };

/* what the rule says about one result */
typedef enum { OPEN, EXACT, ANY_NAN } verdict;

/* how thread i picks its operands (see operands) */
typedef enum {
    PLAIN, /* a = t[i % e], b = t[(i / e) % e], c = u[(i / e^2) % f] */
    BFI,   /* pos and len vary fastest, then a, then b */
    PAIRS, /* 64-bit a and b, each a (low, high) pair of t: o[0..1] and o[2..3] */
} conf_layout;

typedef struct conf_case {
    const char *kernel;
    const uint32_t *t, *u; /* operand tables: a, b from t; c (and d) from u */
    unsigned e, f;
    bool wide; /* 64-bit results, two words */
    conf_layout layout;
    verdict (*rule)(const uint32_t *o, uint64_t *want);
} conf_case;

static float
f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t
u_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* a float result: exact bits, or any NaN where the rule gives NaN (PTX leaves its bits open) */
static verdict
fres(float r, uint64_t *want)
{
    *want = u_of(r);
    return isnan(r) ? ANY_NAN : EXACT;
}

static float
ftz(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* x OP y in the given rounding mode; volatile keeps the operation at run time */
static float
farith(char op, float x, float y, float z, int mode)
{
    volatile float a = x, b = y, c = z, r;
    fesetround(mode);
    r = op == '+'   ? a + b
        : op == '-' ? a - b
        : op == '*' ? a * b
        : op == '/' ? a / b
                    : fmaf(a, b, c);
    fesetround(FE_TONEAREST);
    return r;
}

#define F2(NAME, OP, MODE)                                                                         \
    static verdict NAME(const uint32_t *o, uint64_t *w)                                            \
    {                                                                                              \
        return fres(farith(OP, f_of(o[0]), f_of(o[1]), 0, MODE), w);                               \
    }
F2(r_add, '+', FE_TONEAREST)
F2(r_sub, '-', FE_TONEAREST)
F2(r_mul, '*', FE_TONEAREST)
F2(r_div, '/', FE_TONEAREST)
F2(r_mul_rz, '*', FE_TOWARDZERO)

static verdict
r_fma(const uint32_t *o, uint64_t *w)
{
    return fres(farith('f', f_of(o[0]), f_of(o[1]), f_of(o[2]), FE_TONEAREST), w);
}

/* add.rn.ftz.f32: subnormal inputs and result become zeros of the same sign */
static verdict
r_add_ftz(const uint32_t *o, uint64_t *w)
{
    return fres(ftz(farith('+', ftz(f_of(o[0])), ftz(f_of(o[1])), 0, FE_TONEAREST)), w);
}

/* min/max.f32: a NaN operand gives the other one, two NaNs a NaN; +-0 is open */
static verdict
minmax(const uint32_t *o, uint64_t *w, bool max)
{
    float a = f_of(o[0]), b = f_of(o[1]);
    if (a == 0 && b == 0 && o[0] != o[1])
        return OPEN;
    if (isnan(a) && isnan(b))
        return fres(a, w);
    if (isnan(a) || isnan(b)) {
        *w = isnan(a) ? o[1] : o[0];
        return EXACT;
    }
    *w = (max ? a > b : a < b) ? o[0] : o[1];
    return EXACT;
}

static verdict
r_min(const uint32_t *o, uint64_t *w)
{
    return minmax(o, w, false);
}

static verdict
r_max(const uint32_t *o, uint64_t *w)
{
    return minmax(o, w, true);
}

static verdict
r_sqrt(const uint32_t *o, uint64_t *w)
{
    volatile float x = f_of(o[0]);
    return fres(sqrtf(x), w);
}

static verdict
r_rcp(const uint32_t *o, uint64_t *w)
{
    return fres(farith('/', 1.0f, f_of(o[0]), 0, FE_TONEAREST), w);
}

/* neg/abs change only the sign bit; of a NaN PTX promises only a NaN */
static verdict
r_neg(const uint32_t *o, uint64_t *w)
{
    *w = o[0] ^ 0x80000000u;
    return isnan(f_of(o[0])) ? ANY_NAN : EXACT;
}

static verdict
r_abs(const uint32_t *o, uint64_t *w)
{
    *w = o[0] & 0x7fffffffu;
    return isnan(f_of(o[0])) ? ANY_NAN : EXACT;
}

/* float -> integer: round to an integer (mode), NaN -> 0, clamp to the destination's range */
static verdict
f2i(const uint32_t *o, uint64_t *w, double (*round)(double), bool is_signed)
{
    double v = round((double)f_of(o[0]));
    double lo = is_signed ? -2147483648.0 : 0.0, hi = is_signed ? 2147483647.0 : 4294967295.0;
    if (isnan(v))
        *w = 0;
    else if (v <= lo)
        *w = (uint32_t)(int64_t)lo;
    else if (v >= hi)
        *w = (uint32_t)(int64_t)hi;
    else
        *w = (uint32_t)(int64_t)v;
    return EXACT;
}

#define F2I(NAME, ROUND, SIGNED)                                                                   \
    static verdict NAME(const uint32_t *o, uint64_t *w)                                            \
    {                                                                                              \
        return f2i(o, w, ROUND, SIGNED);                                                           \
    }
F2I(r_cvt_rzi_s32, trunc, true)
F2I(r_cvt_rni_s32, nearbyint, true)
F2I(r_cvt_rmi_s32, floor, true)
F2I(r_cvt_rpi_s32, ceil, true)
F2I(r_cvt_rzi_u32, trunc, false)
F2I(r_cvt_rni_u32, nearbyint, false)

static verdict
r_cvt_rni_f32(const uint32_t *o, uint64_t *w)
{
    return fres(nearbyintf(f_of(o[0])), w);
}

static verdict
r_cvt_rzi_f32(const uint32_t *o, uint64_t *w)
{
    return fres(truncf(f_of(o[0])), w);
}

/* .sat: clamped to [0, 1] (a negative value to +0), NaN -> +0; -0 may stay -0 (GPU decides) */
static verdict
r_cvt_sat_f32(const uint32_t *o, uint64_t *w)
{
    float x = f_of(o[0]);
    if (o[0] == 0x80000000u)
        return OPEN;
    *w = u_of(isnan(x) || x < 0 ? 0.0f : x > 1.0f ? 1.0f : x);
    return EXACT;
}

/* integer -> f32 in the instruction's rounding mode */
static verdict
i2f(const uint32_t *o, uint64_t *w, int mode, bool is_signed)
{
    volatile int32_t s = (int32_t)o[0];
    volatile uint32_t u = o[0];
    float r;
    fesetround(mode);
    r = is_signed ? (float)s : (float)u;
    fesetround(FE_TONEAREST);
    *w = u_of(r);
    return EXACT;
}

#define I2F(NAME, MODE, SIGNED)                                                                    \
    static verdict NAME(const uint32_t *o, uint64_t *w)                                            \
    {                                                                                              \
        return i2f(o, w, MODE, SIGNED);                                                            \
    }
I2F(r_cvt_rn_s32, FE_TONEAREST, true)
I2F(r_cvt_rn_u32, FE_TONEAREST, false)
I2F(r_cvt_rz_s32, FE_TOWARDZERO, true)
I2F(r_cvt_rm_u32, FE_DOWNWARD, false)
I2F(r_cvt_rp_s32, FE_UPWARD, true)

/* integer division: x / 0 and INT_MIN / -1 are the machine's */
static verdict
r_div_s32(const uint32_t *o, uint64_t *w)
{
    int32_t a = (int32_t)o[0], b = (int32_t)o[1];
    if (!b || (a == INT32_MIN && b == -1))
        return OPEN;
    *w = (uint32_t)(a / b);
    return EXACT;
}

static verdict
r_rem_s32(const uint32_t *o, uint64_t *w)
{
    int32_t a = (int32_t)o[0], b = (int32_t)o[1];
    if (!b || (a == INT32_MIN && b == -1))
        return OPEN;
    *w = (uint32_t)(a % b);
    return EXACT;
}

static verdict
r_div_u32(const uint32_t *o, uint64_t *w)
{
    if (!o[1])
        return OPEN;
    *w = o[0] / o[1];
    return EXACT;
}

static verdict
r_rem_u32(const uint32_t *o, uint64_t *w)
{
    if (!o[1])
        return OPEN;
    *w = o[0] % o[1];
    return EXACT;
}

/* 64 bits: operand k of a PAIRS case */
static uint64_t
u64_of(const uint32_t *o, int k)
{
    return (uint64_t)o[2 * k + 1] << 32 | o[2 * k];
}

static verdict
r_div_s64(const uint32_t *o, uint64_t *w)
{
    int64_t a = (int64_t)u64_of(o, 0), b = (int64_t)u64_of(o, 1);
    if (!b || (a == INT64_MIN && b == -1))
        return OPEN;
    *w = (uint64_t)(a / b);
    return EXACT;
}

static verdict
r_rem_s64(const uint32_t *o, uint64_t *w)
{
    int64_t a = (int64_t)u64_of(o, 0), b = (int64_t)u64_of(o, 1);
    if (!b || (a == INT64_MIN && b == -1))
        return OPEN;
    *w = (uint64_t)(a % b);
    return EXACT;
}

static verdict
r_div_u64(const uint32_t *o, uint64_t *w)
{
    if (!u64_of(o, 1))
        return OPEN;
    *w = u64_of(o, 0) / u64_of(o, 1);
    return EXACT;
}

static verdict
r_rem_u64(const uint32_t *o, uint64_t *w)
{
    if (!u64_of(o, 1))
        return OPEN;
    *w = u64_of(o, 0) % u64_of(o, 1);
    return EXACT;
}

/* neg/abs.f64: the sign bit; a NaN's result is the machine's */
static bool
is_nan64(uint64_t u)
{
    return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static verdict
r_neg_f64(const uint32_t *o, uint64_t *w)
{
    *w = u64_of(o, 0) ^ 0x8000000000000000ull;
    return is_nan64(u64_of(o, 0)) ? OPEN : EXACT;
}

static verdict
r_abs_f64(const uint32_t *o, uint64_t *w)
{
    *w = u64_of(o, 0) & 0x7fffffffffffffffull;
    return is_nan64(u64_of(o, 0)) ? OPEN : EXACT;
}

#define INT2(NAME, EXPR)                                                                           \
    static verdict NAME(const uint32_t *o, uint64_t *w)                                            \
    {                                                                                              \
        uint32_t a = o[0], b = o[1];                                                               \
        int32_t sa = (int32_t)a, sb = (int32_t)b;                                                  \
        (void)sa;                                                                                  \
        (void)sb;                                                                                  \
        *w = (EXPR);                                                                               \
        return EXACT;                                                                              \
    }
INT2(r_mul_lo, (uint32_t)(a *b))
INT2(r_mul_hi_s, (uint32_t)((uint64_t)((int64_t)sa *sb) >> 32))
INT2(r_mul_hi_u, (uint32_t)(((uint64_t)a * b) >> 32))
INT2(r_mul_wide_s, (uint64_t)((int64_t)sa *sb))
INT2(r_mul_wide_u, (uint64_t)a *b)
INT2(r_add_sat, (uint32_t)(int32_t)fmax(INT32_MIN, fmin(INT32_MAX, (double)sa + sb)))
INT2(r_sub_sat, (uint32_t)(int32_t)fmax(INT32_MIN, fmin(INT32_MAX, (double)sa - sb)))
INT2(r_min_s, sa < sb ? a : b)
INT2(r_max_s, sa > sb ? a : b)
INT2(r_min_u, a < b ? a : b)
INT2(r_max_u, a > b ? a : b)
/* shifts: amounts past 32 are clamped to 32 (a signed right shift fills with the sign) */
INT2(r_shl, b >= 32 ? 0 : a << b)
INT2(r_shr_u, b >= 32 ? 0 : a >> b)
INT2(r_shr_s, (uint32_t)(sa >> (b >= 32 ? 31 : b)))
INT2(r_popc, (uint32_t)__builtin_popcount(a))
INT2(r_clz, a ? (uint32_t)__builtin_clz(a) : 32)
/* bfind: the most significant bit (of ~a for a negative .s32), ~0 if there is none */
INT2(r_bfind_u, a ? 31 - (uint32_t)__builtin_clz(a) : 0xffffffffu)
INT2(r_bfind_s, (sa < 0 ? ~a : a) ? 31 - (uint32_t)__builtin_clz(sa < 0 ? ~a : a) : 0xffffffffu)

static verdict
r_mad_lo(const uint32_t *o, uint64_t *w)
{
    *w = (uint32_t)(o[0] * o[1] + o[2]);
    return EXACT;
}

static verdict
r_brev(const uint32_t *o, uint64_t *w)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((o[0] >> i) & 1u) << (31 - i);
    *w = r;
    return EXACT;
}

/* shf: the 64-bit {b, a} shifted by c (wrap: c mod 32, clamp: at most 32); .l keeps the high
 * word, .r the low one */
static verdict
r_shf_l_wrap(const uint32_t *o, uint64_t *w)
{
    uint64_t v = (uint64_t)o[1] << 32 | o[0];
    *w = (uint32_t)((v << (o[2] & 31)) >> 32);
    return EXACT;
}

static verdict
r_shf_r_clamp(const uint32_t *o, uint64_t *w)
{
    uint64_t v = (uint64_t)o[1] << 32 | o[0];
    *w = (uint32_t)(v >> (o[2] > 32 ? 32 : o[2]));
    return EXACT;
}

/* bfe: len bits from pos (both & 0xff); bits past bit 31 and past len repeat the sign bit,
 * a[min(pos + len - 1, 31)] for .s32 with len > 0, else 0 */
static verdict
bfe(const uint32_t *o, uint64_t *w, bool is_signed)
{
    uint32_t a = o[0], pos = o[1] & 0xff, len = o[2] & 0xff, r = 0;
    uint32_t top = pos + len - 1 > 31 ? 31 : pos + len - 1;
    uint32_t sbit = is_signed && len ? (a >> top) & 1u : 0;
    for (uint32_t i = 0; i < 32; i++)
        r |= (i < len && pos + i <= 31 ? (a >> (pos + i)) & 1u : sbit) << i;
    *w = r;
    return EXACT;
}

static verdict
r_bfe_u(const uint32_t *o, uint64_t *w)
{
    return bfe(o, w, false);
}

static verdict
r_bfe_s(const uint32_t *o, uint64_t *w)
{
    return bfe(o, w, true);
}

/* bfi: b with bits pos..pos+len-1 (those below 32) replaced by a's low bits */
static verdict
r_bfi(const uint32_t *o, uint64_t *w)
{
    uint32_t a = o[0], r = o[1], pos = o[2] & 0xff, len = o[3] & 0xff;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++)
        r = (r & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
    *w = r;
    return EXACT;
}

/* setp.f32: ordered comparisons are false with a NaN, unordered ones true; bits 14, 15 (.ftz)
 * compare with subnormals flushed */
static verdict
r_setp_f32(const uint32_t *o, uint64_t *w)
{
    float a = f_of(o[0]), b = f_of(o[1]), fa = ftz(a), fb = ftz(b);
    bool un = isnan(a) || isnan(b);
    bool bits[16] = { a == b,       !un && a != b, a<b, a <= b, a> b,
                      a >= b,       un || a == b,  un || a != b,
                      un || a < b,  un || a <= b,  un || a > b,
                      un || a >= b, !un,           un,
                      fa == fb,     fa < fb };
    uint32_t r = 0;
    for (int k = 0; k < 16; k++)
        r |= (uint32_t)bits[k] << k;
    *w = r;
    return EXACT;
}

static verdict
r_setp_i32(const uint32_t *o, uint64_t *w)
{
    int32_t sa = (int32_t)o[0], sb = (int32_t)o[1];
    uint32_t a = o[0], b = o[1];
    bool bits[12] = {
        sa == sb, sa != sb, sa<sb, sa <= sb, sa> sb, sa >= sb, a<b, a <= b, a> b, a >= b,
        a < b,    a >= b
    };
    uint32_t r = 0;
    for (int k = 0; k < 12; k++)
        r |= (uint32_t)bits[k] << k;
    *w = r;
    return EXACT;
}

/* selp.b32 d, a, b, (a <u b): the chosen operand's bits, NaNs untouched */
static verdict
r_selp(const uint32_t *o, uint64_t *w)
{
    float a = f_of(o[0]), b = f_of(o[1]);
    *w = isnan(a) || isnan(b) || a < b ? o[0] : o[1];
    return EXACT;
}

#define F32 conf_f32, conf_f32, CONF_NF, CONF_NF
#define CVT conf_cvt, conf_cvt, CONF_NC, CONF_NC
#define I2FT conf_i2f, conf_i2f, CONF_NJ, CONF_NJ
#define I32 conf_i32, conf_i32, CONF_NI, CONF_NI
#define BITS conf_i32, conf_pos, CONF_NI, CONF_NP
#define I64 conf_i64, conf_i64, CONF_NL, CONF_NL

static const conf_case cases[] = {
    { "conf_add_f32", F32, false, PLAIN, r_add },
    { "conf_sub_f32", F32, false, PLAIN, r_sub },
    { "conf_mul_f32", F32, false, PLAIN, r_mul },
    { "conf_div_f32", F32, false, PLAIN, r_div },
    { "conf_min_f32", F32, false, PLAIN, r_min },
    { "conf_max_f32", F32, false, PLAIN, r_max },
    { "conf_add_ftz_f32", F32, false, PLAIN, r_add_ftz },
    { "conf_mul_rz_f32", F32, false, PLAIN, r_mul_rz },
    { "conf_fma_f32", F32, false, PLAIN, r_fma },
    { "conf_sqrt_f32", CVT, false, PLAIN, r_sqrt },
    { "conf_rcp_f32", CVT, false, PLAIN, r_rcp },
    { "conf_neg_f32", CVT, false, PLAIN, r_neg },
    { "conf_abs_f32", CVT, false, PLAIN, r_abs },
    { "conf_neg_f64", I64, true, PAIRS, r_neg_f64 },
    { "conf_abs_f64", I64, true, PAIRS, r_abs_f64 },
    { "conf_cvt_rzi_s32_f32", CVT, false, PLAIN, r_cvt_rzi_s32 },
    { "conf_cvt_rni_s32_f32", CVT, false, PLAIN, r_cvt_rni_s32 },
    { "conf_cvt_rmi_s32_f32", CVT, false, PLAIN, r_cvt_rmi_s32 },
    { "conf_cvt_rpi_s32_f32", CVT, false, PLAIN, r_cvt_rpi_s32 },
    { "conf_cvt_rzi_u32_f32", CVT, false, PLAIN, r_cvt_rzi_u32 },
    { "conf_cvt_rni_u32_f32", CVT, false, PLAIN, r_cvt_rni_u32 },
    { "conf_cvt_rni_f32_f32", CVT, false, PLAIN, r_cvt_rni_f32 },
    { "conf_cvt_rzi_f32_f32", CVT, false, PLAIN, r_cvt_rzi_f32 },
    { "conf_cvt_sat_f32_f32", CVT, false, PLAIN, r_cvt_sat_f32 },
    { "conf_cvt_rn_f32_s32", I2FT, false, PLAIN, r_cvt_rn_s32 },
    { "conf_cvt_rn_f32_u32", I2FT, false, PLAIN, r_cvt_rn_u32 },
    { "conf_cvt_rz_f32_s32", I2FT, false, PLAIN, r_cvt_rz_s32 },
    { "conf_cvt_rm_f32_u32", I2FT, false, PLAIN, r_cvt_rm_u32 },
    { "conf_cvt_rp_f32_s32", I2FT, false, PLAIN, r_cvt_rp_s32 },
    { "conf_div_s32", I32, false, PLAIN, r_div_s32 },
    { "conf_div_u32", I32, false, PLAIN, r_div_u32 },
    { "conf_rem_s32", I32, false, PLAIN, r_rem_s32 },
    { "conf_rem_u32", I32, false, PLAIN, r_rem_u32 },
    { "conf_div_s64", I64, true, PAIRS, r_div_s64 },
    { "conf_div_u64", I64, true, PAIRS, r_div_u64 },
    { "conf_rem_s64", I64, true, PAIRS, r_rem_s64 },
    { "conf_rem_u64", I64, true, PAIRS, r_rem_u64 },
    { "conf_mul_lo_s32", I32, false, PLAIN, r_mul_lo },
    { "conf_mul_hi_s32", I32, false, PLAIN, r_mul_hi_s },
    { "conf_mul_hi_u32", I32, false, PLAIN, r_mul_hi_u },
    { "conf_mul_wide_s32", I32, true, PLAIN, r_mul_wide_s },
    { "conf_mul_wide_u32", I32, true, PLAIN, r_mul_wide_u },
    { "conf_mad_lo_s32", I32, false, PLAIN, r_mad_lo },
    { "conf_add_sat_s32", I32, false, PLAIN, r_add_sat },
    { "conf_sub_sat_s32", I32, false, PLAIN, r_sub_sat },
    { "conf_min_s32", I32, false, PLAIN, r_min_s },
    { "conf_max_s32", I32, false, PLAIN, r_max_s },
    { "conf_min_u32", I32, false, PLAIN, r_min_u },
    { "conf_max_u32", I32, false, PLAIN, r_max_u },
    { "conf_shl_b32", I32, false, PLAIN, r_shl },
    { "conf_shr_b32", I32, false, PLAIN, r_shr_u },
    { "conf_shr_u32", I32, false, PLAIN, r_shr_u },
    { "conf_shr_s32", I32, false, PLAIN, r_shr_s },
    { "conf_shf_l_wrap_b32", I32, false, PLAIN, r_shf_l_wrap },
    { "conf_shf_r_clamp_b32", I32, false, PLAIN, r_shf_r_clamp },
    { "conf_popc_b32", I32, false, PLAIN, r_popc },
    { "conf_clz_b32", I32, false, PLAIN, r_clz },
    { "conf_brev_b32", I32, false, PLAIN, r_brev },
    { "conf_bfind_u32", I32, false, PLAIN, r_bfind_u },
    { "conf_bfind_s32", I32, false, PLAIN, r_bfind_s },
    { "conf_bfe_u32", BITS, false, PLAIN, r_bfe_u },
    { "conf_bfe_s32", BITS, false, PLAIN, r_bfe_s },
    { "conf_bfi_b32", BITS, false, BFI, r_bfi },
    { "conf_setp_f32", F32, false, PLAIN, r_setp_f32 },
    { "conf_setp_i32", I32, false, PLAIN, r_setp_i32 },
    { "conf_selp_b32", F32, false, PLAIN, r_selp },
};

/* thread i's operands, as the kernel picks them */
static void
operands(const conf_case *c, unsigned i, uint32_t *o)
{
    if (c->layout == BFI) { /* pos and len vary fastest, then a, then b */
        o[2] = c->u[i % c->f];
        o[3] = c->u[(i / c->f) % c->f];
        o[0] = c->t[(i / (c->f * c->f)) % c->e];
        o[1] = c->t[(i / (c->f * c->f * c->e)) % c->e];
        return;
    }
    if (c->layout == PAIRS) {
        unsigned a = i % c->e, b = (i / c->e) % c->e;
        o[0] = c->t[2 * a];
        o[1] = c->t[2 * a + 1];
        o[2] = c->t[2 * b];
        o[3] = c->t[2 * b + 1];
        return;
    }
    o[0] = c->t[i % c->e];
    o[1] = c->t[(i / c->e) % c->e];
    o[2] = c->u[(i / (c->e * c->e)) % c->f];
    o[3] = 0;
}

static void
setup(void)
{
    sim_load_env("CUDALAB_TEST_SIM_CONF_PTX");
}

/* Runs one kernel over N threads; returns how many results differ from the rule (the first
 * few are reported) and counts the checked ones. */
static unsigned
check_case(const conf_case *c, unsigned *checked)
{
    static uint32_t out[2 * N];
    unsigned g[3] = { N / BLOCK, 1, 1 }, b[3] = { BLOCK, 1, 1 }, n = N, bad = 0;
    uint64_t d_out = dev_buf(sizeof(out), NULL);
    void *args[] = { &d_out, &n };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_sim_launch(mod, c->kernel, g, b, 0, args, &r, &err), 0, "%s: %s", c->kernel,
                 err.msg);
    cr_assert_not(r.fatal, "%s: %s", c->kernel, r.first.msg);
    fetch(out, d_out, sizeof(out));
    for (unsigned i = 0; i < N; i++) {
        uint32_t o[4];
        uint64_t want = 0, got = c->wide ? (uint64_t)out[2 * i + 1] << 32 | out[2 * i] : out[i];
        operands(c, i, o);
        verdict v = c->rule(o, &want);
        if (v == OPEN)
            continue;
        (*checked)++;
        if (v == ANY_NAN ? isnan(f_of((uint32_t)got)) : got == want)
            continue;
        if (++bad <= 4)
            cr_log_error("%s(0x%08x, 0x%08x, 0x%08x, 0x%08x): simulator 0x%llx, PTX 0x%llx%s",
                         c->kernel, o[0], o[1], o[2], o[3], (unsigned long long)got,
                         (unsigned long long)want, v == ANY_NAN ? " (a NaN)" : "");
    }
    return bad;
}

Test(sim_conformance, every_kernel_follows_the_ptx_rules, .init = setup, .fini = sim_unload,
     .timeout = 120)
{
    unsigned failed = 0, checked = 0;

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        unsigned bad = check_case(&cases[k], &checked);
        if (bad) {
            cr_log_error("%s: %u results differ from the PTX ISA", cases[k].kernel, bad);
            failed++;
        }
    }
    cr_log_info("%zu instructions, %u results checked", sizeof(cases) / sizeof(cases[0]), checked);
    cr_expect_eq(failed, 0, "%u of %zu instructions differ from the PTX ISA", failed,
                 sizeof(cases) / sizeof(cases[0]));
}

/* The table covers every kernel of conformance.cu: a new kernel needs its rule here. */
Test(sim_conformance, every_kernel_has_a_rule, .init = setup, .fini = sim_unload)
{
    const char *path = getenv("CUDALAB_TEST_SIM_CONF_PTX");
    lab_buf b = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    size_t entries = 0;

    cr_assert_eq(lab_buf_read_file(&b, path, &err), 0, "%s", err.msg);
    for (const char *p = b.buf; (p = strstr(p, ".entry conf_")); p += 12) {
        size_t k, len = strcspn(p + 7, "( \t\n");
        entries++;
        for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
            if (strlen(cases[k].kernel) == len && !strncmp(cases[k].kernel, p + 7, len))
                break;
        cr_expect_lt(k, sizeof(cases) / sizeof(cases[0]), "%.*s has no rule in test-sim-conf.c",
                     (int)len, p + 7);
    }
    cr_expect_eq(entries, sizeof(cases) / sizeof(cases[0]));
    lab_buf_release(&b);
}

/* The edge tables reach the kernels as module-scope initialized arrays: every element type
 * keeps its own size (nvcc writes `const unsigned t[]` as .b8 bytes). */
static const char *const init_ptx =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".global .align 1 .b8 c[3] = {1, 2, 255};\n"
    ".global .align 2 .u16 h[3] = {1, 2, 65535};\n"
    ".global .align 4 .f32 f[2] = {0f3F800000, 0fBF800000};\n"
    ".global .align 8 .u64 q[2] = {1, -1};\n"
    ".visible .entry init_copy(\n\t.param .u64 init_copy_param_0\n)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [init_copy_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u64 %rd3, c;\n\tld.global.u8 %r1, [%rd3+2];\n\tst.global.u32 [%rd2], %r1;\n"
    "\tmov.u64 %rd4, h;\n\tld.global.u16 %r2, [%rd4+4];\n\tst.global.u32 [%rd2+4], %r2;\n"
    "\tmov.u64 %rd5, f;\n\tld.global.u32 %r3, [%rd5+4];\n\tst.global.u32 [%rd2+8], %r3;\n"
    "\tmov.u64 %rd6, q;\n\tld.global.u64 %rd7, [%rd6+8];\n\tst.global.u64 [%rd2+16], %rd7;\n"
    "\tret;\n}\n";

Test(sim_conformance, initializers_keep_their_element_size, .fini = sim_unload)
{
    uint32_t out[6] = { 0 };
    unsigned g[3] = { 1, 1, 1 }, b[3] = { 1, 1, 1 };
    lab_sim_result r;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_sim_new(&sim, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_load(sim, init_ptx, strlen(init_ptx), "init.ptx", &mod, &err), 0, "%s",
                 err.msg);
    uint64_t d = dev_buf(sizeof(out), out);
    void *args[] = { &d };
    cr_assert_eq(lab_sim_launch(mod, "init_copy", g, b, 0, args, &r, &err), 0, "%s", err.msg);
    fetch(out, d, sizeof(out));
    cr_expect_eq(out[0], 255u, ".b8 c[2]: %u", out[0]);
    cr_expect_eq(out[1], 65535u, ".u16 h[2]: %u", out[1]);
    cr_expect_eq(out[2], 0xbf800000u, ".f32 f[1]: 0x%08x", out[2]);
    cr_expect(out[4] == 0xffffffffu && out[5] == 0xffffffffu, ".u64 q[1]: 0x%08x%08x", out[5],
              out[4]);
}
