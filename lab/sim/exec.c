/*
 * exec.c - the interpreter: one block's warps, 32 lanes in lockstep.
 *
 * A warp runs the instruction at the top of its reconvergence stack with the
 * entry's mask (minus exited lanes, minus lanes whose guard is false).  A
 * divergent bra turns the top into (ipdom, old rpc, mask) and pushes the
 * not-taken and the taken lanes, both reconverging at the ipdom; an entry
 * whose pc reaches its rpc pops (docs/design/simulator.md, "Warps, divergence and reconvergence").
 * ret/exit retire lanes.  bar.sync parks the warp until every warp of the block that has not exited
 * arrives.
 *
 * Registers hold raw bits in 64-bit slots (a .b32 register uses the low 32);
 * floats are IEEE with the GPU's canonical NaN (0x7fffffff) and .ftz
 * flushing; integer division by zero, shifts past the width, neg/abs of a NaN
 * (f32: the canonical NaN; f64: the NaN itself) and .sat of -0 follow what the H100 gives (recorded
 * by tests/sim/conformance.cu in tests/fixtures/sim-diff, docs/design/simulator.md, "How it is
 * verified").
 *
 * The warp loop is one switch on the opcode's class (ops.def); a class whose
 * opcodes differ goes on to its handler's switch on the opcode (binary,
 * unary, exec_bits, exec_warp), which has a lane loop of its own per opcode
 * and type: a converged warp's is branch-free, and the compiler vectorises
 * it (EACH_LANE; the Makefile builds lab/sim with -O3).  Each case opens with
 * a comment stating the PTX semantics.
 */
#include "lab/sim/exec.h"
#include "lab/util/i18n.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define FOR_LANES(m)                                                                               \
    for (int l = 0; l < 32; l++)                                                                   \
        if ((m) >> l & 1u)

/* The statement for every lane of m, as FOR_LANES, with a branch-free (vectorisable) loop of
 * its own for the common case of a converged warp. */
#define EACH_LANE(m, ...)                                                                          \
    do {                                                                                           \
        if ((m) == 0xffffffffu) {                                                                  \
            for (int l = 0; l < 32; l++) {                                                         \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        } else {                                                                                   \
            FOR_LANES(m)                                                                           \
            {                                                                                      \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

enum { RUN_DONE = 0, RUN_BARRIER = 1, RUN_YIELD = 3 };

/* lanes in a mask; SWAR, as the build does not assume the popcnt instruction */
static inline uint32_t
lanes_of(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

#define LANE_BITS4(i) 1ull << (i), 1ull << ((i) + 1), 1ull << ((i) + 2), 1ull << ((i) + 3)
static const uint64_t lane_bit[32] = { LANE_BITS4(0),  LANE_BITS4(4),  LANE_BITS4(8),
                                       LANE_BITS4(12), LANE_BITS4(16), LANE_BITS4(20),
                                       LANE_BITS4(24), LANE_BITS4(28) };

/* The lanes of a register row that are not 0 (a guard's): in 64-bit operations only, with no
 * shift by the lane number, so that the loop vectorises (twice as fast as a shift per lane) */
static inline uint32_t
true_lanes(const uint64_t *v)
{
    uint64_t acc = 0;

    for (int l = 0; l < 32; l++) {
        uint64_t nonzero = (v[l] | (0 - v[l])) >> 63;
        acc |= (0 - nonzero) & lane_bit[l];
    }
    return (uint32_t)acc;
}

static inline float
as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline double
as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

/* f32 result bits: NaN is canonical on the GPU */
static inline uint64_t
bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        u = 0x7fffffffu;
    return u;
}

static inline uint64_t
bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        u = 0x7fffffffffffffffull;
    return u;
}

static inline float
flush(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static const uint8_t type_width[T_COUNT] = {
    [T_NONE] = 32, [T_B8] = 8,      [T_B16] = 16,  [T_B32] = 32, [T_B64] = 64, [T_U8] = 8,
    [T_U16] = 16,  [T_U32] = 32,    [T_U64] = 64,  [T_S8] = 8,   [T_S16] = 16, [T_S32] = 32,
    [T_S64] = 64,  [T_F16] = 16,    [T_F32] = 32,  [T_F64] = 64, [T_PRED] = 1, [T_F16X2] = 32,
    [T_BF16] = 16, [T_BF16X2] = 32, [T_TF32] = 32,
};

static inline bool
is_float(unsigned t)
{
    return t == T_F32 || t == T_F64 || t == T_F16 || t == T_BF16;
}

static inline bool
is_half(unsigned t)
{
    return t == T_F16 || t == T_BF16;
}

/* a .f16 or .bf16 register's value */
static inline double
half_value(uint64_t v, unsigned t)
{
    return lab_sim__half_to_float((uint16_t)v, t == T_BF16);
}

static inline bool
is_signed(unsigned t)
{
    return t >= T_S8 && t <= T_S64;
}

static inline unsigned
width(unsigned t)
{
    return type_width[t];
}

/* a register's bits as a signed/unsigned 64-bit value of type t */
static inline int64_t
sx(uint64_t v, unsigned t)
{
    unsigned w = width(t);
    return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

static inline uint64_t
zx(uint64_t v, unsigned t)
{
    unsigned w = width(t);
    return w >= 64 ? v : v & ((1ull << w) - 1);
}

static inline uint64_t
trunc_to(uint64_t v, unsigned t)
{
    return zx(v, t);
}

/* ---- operands ------------------------------------------------------------ */

/* Lane l's value of the special register sr; only the thread ids, %laneid and the lane masks
 * differ from lane to lane (sreg_lanes counts on it) */
static uint64_t
sreg_value(const sim_worker *wk, const sim_warp *w, unsigned sr, int l)
{
    const sim_launch *L = wk->L;
    const lab_sim_gpu *gpu = &L->sim->gpu;
    switch (sr) {
    case SR_TID_X:
    case SR_TID_Y:
    case SR_TID_Z:
        return w->tid[sr - SR_TID_X][l];
    case SR_NTID_X:
    case SR_NTID_Y:
    case SR_NTID_Z:
        return L->block[sr - SR_NTID_X];
    case SR_CTAID_X:
    case SR_CTAID_Y:
    case SR_CTAID_Z:
        return wk->ctaid[sr - SR_CTAID_X];
    case SR_NCTAID_X:
    case SR_NCTAID_Y:
    case SR_NCTAID_Z:
        return L->grid[sr - SR_NCTAID_X];
    case SR_LANEID:
        return (uint32_t)l;
    case SR_WARPID: /* the warp's slot on its SM, after those of the SM's earlier blocks */
        return (wk->block_linear / gpu->sms * L->nwarps + w->index) % gpu->warps_per_sm;
    case SR_NWARPID:
        return gpu->warps_per_sm;
    case SR_SMID: /* blocks spread over the SMs in turn */
        return wk->block_linear % gpu->sms;
    case SR_NSMID:
        return gpu->sms;
    case SR_GRIDID:
        return L->gridid;
    case SR_RES_BEGIN:
        return SIM_RESERVED_SHARED;
    case SR_RES_1:
        return SIM_RESERVED_SHARED + SIM_RESERVED_BYTES / 2;
    case SR_RES_END:
        return SIM_RESERVED_SHARED + SIM_RESERVED_BYTES;
    case SR_RES_CAP:
        return SIM_RESERVED_BYTES;
    case SR_LANEMASK_EQ:
        return 1u << l;
    case SR_LANEMASK_LT:
        return (1u << l) - 1;
    case SR_LANEMASK_LE:
        return l == 31 ? 0xffffffffu : (2u << l) - 1;
    case SR_LANEMASK_GT:
        return l == 31 ? 0 : ~((2u << l) - 1);
    case SR_LANEMASK_GE:
        return ~((1u << l) - 1);
    default: /* clocks: the warp's instruction count is as good a clock as any */
        return (uint32_t)wk->metrics.warp_insts;
    }
}

/* A special register's 32 lanes in tmp: the thread ids copied, the lane's own registers lane by
 * lane, the rest (the same in every lane of a warp) read once */
static __attribute__((noinline)) const uint64_t *
sreg_lanes(const sim_worker *wk, const sim_warp *w, unsigned sr, uint64_t *tmp)
{
    switch (sr) {
    case SR_TID_X:
    case SR_TID_Y:
    case SR_TID_Z:
        for (int l = 0; l < 32; l++)
            tmp[l] = w->tid[sr - SR_TID_X][l];
        return tmp;
    case SR_LANEID:
    case SR_LANEMASK_EQ:
    case SR_LANEMASK_LT:
    case SR_LANEMASK_LE:
    case SR_LANEMASK_GT:
    case SR_LANEMASK_GE:
        for (int l = 0; l < 32; l++)
            tmp[l] = sreg_value(wk, w, sr, l);
        return tmp;
    default: {
        uint64_t v = sreg_value(wk, w, sr, 0);
        for (int l = 0; l < 32; l++)
            tmp[l] = v;
        return tmp;
    }
    }
}

static inline const uint64_t *
src(const sim_worker *wk, const sim_warp *w, const sim_opnd *o, uint64_t *tmp)
{
    switch (o->kind) {
    case O_REG:
        return &w->r[(size_t)o->reg * 32];
    case O_SPECIAL:
        return sreg_lanes(wk, w, (unsigned)o->reg, tmp);
    case O_ADDR: /* a local symbol's address: in the running function's frame */
        if (o->space == SP_LOCAL && w->local_base) {
            for (int l = 0; l < 32; l++)
                tmp[l] = (uint64_t)o->imm + w->local_base;
            return tmp;
        }
        return o->splat;
    case O_IMM:
        return o->splat;
    default:
        for (int l = 0; l < 32; l++)
            tmp[l] = (uint64_t)o->imm;
        return tmp;
    }
}

/* src for the instructions that kernels seldom run (cp.async, mbarrier, 16-bit floats): one copy
 * out of line, not one more inlined copy per call */
static __attribute__((noinline)) const uint64_t *
src_rare(const sim_worker *wk, const sim_warp *w, const sim_opnd *o, uint64_t *tmp)
{
    return src(wk, w, o, tmp);
}

static inline uint64_t *
dst(sim_warp *w, const sim_opnd *o)
{
    return &w->r[(size_t)o->reg * 32];
}

/* ---- arithmetic ---------------------------------------------------------- */

/* .sat: clamped to [0, 1]; NaN and -0 give +0 (the H100's -0, recorded) */
static float
sat01f(float r)
{
    return isnan(r) || r <= 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

static double
sat01(double v)
{
    return isnan(v) || v <= 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

static uint64_t
int_div(uint64_t x, uint64_t y, unsigned t, bool rem)
{
    if (is_signed(t)) {
        int64_t a = sx(x, t), b = sx(y, t);
        if (b == 0) /* undefined in PTX; the H100 gives -1 for both (recorded, 32 and 64 bits) */
            return trunc_to(~0ull, t);
        if (b == -1) /* INT_MIN / -1 wraps, no trap */
            return trunc_to(rem ? 0 : (uint64_t)0 - (uint64_t)a, t);
        return trunc_to(rem ? (uint64_t)(a % b) : (uint64_t)(a / b), t);
    }
    uint64_t a = zx(x, t), b = zx(y, t);
    if (b == 0)
        return trunc_to(~0ull, t);
    if (!(b & (b - 1))) /* a power of two, as the notes' tid % (2 * stride) */
        return rem ? a & (b - 1) : a >> __builtin_ctzll(b);
    return trunc_to(rem ? a % b : a / b, t);
}

static uint64_t
f32_minmax(uint64_t x, uint64_t y, bool max, bool ftz)
{
    float a = as_f32(x), b = as_f32(y);
    if (ftz) {
        a = flush(a);
        b = flush(b);
    }
    if (isnan(a) && isnan(b))
        return 0x7fffffffu;
    if (isnan(a))
        return bits_f32(b);
    if (isnan(b))
        return bits_f32(a);
    if (a == b) /* -0 < +0 */
        return max ? (signbit(a) ? bits_f32(b) : bits_f32(a))
                   : (signbit(a) ? bits_f32(a) : bits_f32(b));
    return bits_f32(max ? (a > b ? a : b) : (a < b ? a : b));
}

static uint64_t
f64_minmax(uint64_t x, uint64_t y, bool max)
{
    double a = as_f64(x), b = as_f64(y);
    if (isnan(a) && isnan(b))
        return bits_f64(a);
    if (isnan(a))
        return y;
    if (isnan(b))
        return x;
    if (a == b)
        return max ? (signbit(a) ? y : x) : (signbit(a) ? x : y);
    return max ? (a > b ? x : y) : (a < b ? x : y);
}

/* mul.hi: the high half of the product of a and b, twice the width of type t */
static inline uint64_t
mul_hi(uint64_t x, uint64_t y, unsigned t)
{
    unsigned wd = width(t);

    if (wd == 64)
        return is_signed(t) ? (uint64_t)(((__int128)(int64_t)x * (int64_t)y) >> 64)
                            : (uint64_t)(((unsigned __int128)x * y) >> 64);
    if (is_signed(t))
        return trunc_to((uint64_t)((sx(x, t) * sx(y, t)) >> wd), t);
    return trunc_to((zx(x, t) * zx(y, t)) >> wd, t);
}

/* div.u32 and rem.u32, all ones for y = 0 (the H100's); a power of two, as the notes'
 * tid % (2 * stride), by a shift or a mask */
static inline uint32_t
div_u32(uint32_t x, uint32_t y)
{
    return !y ? 0xffffffffu : !(y & (y - 1)) ? x >> __builtin_ctz(y) : x / y;
}

static inline uint32_t
rem_u32(uint32_t x, uint32_t y)
{
    return !y ? 0xffffffffu : !(y & (y - 1)) ? x & (y - 1) : x % y;
}

/* add.sat.s32: the 64-bit sum or difference clamped to s32 */
static inline uint64_t
clamp_s32(int64_t r)
{
    return (uint32_t)(int32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}

/* Refuses an arithmetic instruction whose opcode has no form of its type (ops.def's types). */
static int
check_type(sim_worker *wk, const sim_insn *in)
{
    unsigned t = in->type, types = lab_sim__ops[in->op].types;

    if (t == T_F16)
        return lab_sim__unsupported(wk, in, ".f16 arithmetic");
    if (t == T_F32 ? types & TY_F32 : t == T_F64 ? types & TY_F64 : types & TY_INT)
        return 0;
    return lab_sim__unsupported(wk, in,
                                t == T_F32   ? "this operation on .f32"
                                : t == T_F64 ? "this operation on .f64"
                                             : "this integer operation");
}

/* The floating-point lane loops of unary and binary, over their locals a, b (the sources'
 * lanes), d (the destination's), m, ftz and sat: x and y are the lane's operands, flushed to
 * zero with .ftz; d gets expr, flushed with .ftz and clamped with .sat (binary f32 only), its
 * NaN canonical.  PTX has no .ftz or .sat for .f64. */
#define F32_LANES1(expr)                                                                           \
    EACH_LANE(m, {                                                                                 \
        float x = ftz ? flush(as_f32(a[l])) : as_f32(a[l]), r = (expr);                            \
        d[l] = bits_f32(ftz ? flush(r) : r);                                                       \
    })
#define F32_LANES2(expr)                                                                           \
    EACH_LANE(m, {                                                                                 \
        float x = as_f32(a[l]), y = as_f32(b[l]), r;                                               \
        if (ftz) {                                                                                 \
            x = flush(x);                                                                          \
            y = flush(y);                                                                          \
        }                                                                                          \
        r = (expr);                                                                                \
        if (ftz)                                                                                   \
            r = flush(r);                                                                          \
        d[l] = bits_f32(sat ? sat01f(r) : r);                                                      \
    })
#define F64_LANES1(expr)                                                                           \
    EACH_LANE(m, {                                                                                 \
        double x = as_f64(a[l]);                                                                   \
        d[l] = bits_f64(expr);                                                                     \
    })
#define F64_LANES2(expr)                                                                           \
    EACH_LANE(m, {                                                                                 \
        double x = as_f64(a[l]), y = as_f64(b[l]);                                                 \
        d[l] = bits_f64(expr);                                                                     \
    })

/* add sub mul div rem min max and or xor shl shr copysign: d = a OP b, a lane loop per opcode
 * and type (check_type has refused the types the opcode has no form of) */
static int
binary(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32], tb[32];
    const uint64_t *a = src(wk, w, &in->o[1], ta), *b = src(wk, w, &in->o[2], tb);
    uint64_t *d = dst(w, &in->o[0]);
    unsigned t = in->type, wd = width(t);
    bool ftz = in->flags & F_FTZ, sat = in->flags & F_SAT, f32 = t == T_F32, f64 = t == T_F64;

    if (check_type(wk, in) < 0)
        return -1;
    switch (in->op) {
    case SIM_OP_ADD: /* add{.rnd}{.ftz}{.sat}.f32 / .f64 d, a, b = a + b; add.type wraps around,
                        add.sat.s32 clamps */
        if (f32)
            F32_LANES2(x + y);
        else if (f64)
            F64_LANES2(x + y);
        else if (sat && t == T_S32)
            EACH_LANE(m, d[l] = clamp_s32(sx(a[l], t) + sx(b[l], t)));
        else if (wd == 32)
            EACH_LANE(m, d[l] = (uint32_t)(a[l] + b[l]));
        else
            EACH_LANE(m, d[l] = trunc_to(a[l] + b[l], t));
        return 0;
    case SIM_OP_SUB: /* sub d, a, b = a - b, as add */
        if (f32)
            F32_LANES2(x - y);
        else if (f64)
            F64_LANES2(x - y);
        else if (sat && t == T_S32)
            EACH_LANE(m, d[l] = clamp_s32(sx(a[l], t) - sx(b[l], t)));
        else
            EACH_LANE(m, d[l] = trunc_to(a[l] - b[l], t));
        return 0;
    case SIM_OP_MUL: /* mul{.rnd}.f32 / .f64 d, a, b = a * b; mul.lo / .hi / .wide.type: the low
                        half of the product, the high half, or all of it (twice the width) */
        if (f32)
            F32_LANES2(x * y);
        else if (f64)
            F64_LANES2(x * y);
        else if ((in->flags & F_WIDE) && is_signed(t))
            EACH_LANE(m, d[l] = (uint64_t)(sx(a[l], t) * sx(b[l], t)));
        else if (in->flags & F_WIDE)
            EACH_LANE(m, d[l] = zx(a[l], t) * zx(b[l], t));
        else if (in->flags & F_HI)
            EACH_LANE(m, d[l] = mul_hi(a[l], b[l], t));
        else
            EACH_LANE(m, d[l] = trunc_to(a[l] * b[l], t));
        return 0;
    case SIM_OP_DIV: /* div{.rnd}.f32 / .f64 d, a, b = a / b; div.type: the quotient toward 0 */
    case SIM_OP_REM: /* rem.type d, a, b: the remainder, with a's sign; x / 0 gives all ones for
                        both, INT_MIN / -1 wraps (the H100's) */
    {
        bool rem = in->op == SIM_OP_REM;
        if (f32)
            F32_LANES2(x / y);
        else if (f64)
            F64_LANES2(x / y);
        else if ((t == T_U32 || t == T_B32) && rem)
            EACH_LANE(m, d[l] = rem_u32((uint32_t)a[l], (uint32_t)b[l]));
        else if (t == T_U32 || t == T_B32)
            EACH_LANE(m, d[l] = div_u32((uint32_t)a[l], (uint32_t)b[l]));
        else
            EACH_LANE(m, d[l] = int_div(a[l], b[l], t, rem));
        return 0;
    }
    case SIM_OP_MIN: /* min/max.f32 / .f64 d, a, b: a NaN operand gives the other, -0 < +0 */
    case SIM_OP_MAX: {
        bool max = in->op == SIM_OP_MAX;
        if (f32)
            EACH_LANE(m, d[l] = f32_minmax(a[l], b[l], max, ftz));
        else if (f64)
            EACH_LANE(m, d[l] = f64_minmax(a[l], b[l], max));
        else
            EACH_LANE(m, {
                bool lt = is_signed(t) ? sx(a[l], t) < sx(b[l], t) : zx(a[l], t) < zx(b[l], t);
                d[l] = trunc_to(lt != max ? a[l] : b[l], t);
            });
        return 0;
    }
    case SIM_OP_AND: /* and.pred d, a, b: logical; and.b16/.b32/.b64: bitwise */
        if (t == T_PRED)
            EACH_LANE(m, d[l] = (a[l] != 0) & (b[l] != 0));
        else
            EACH_LANE(m, d[l] = a[l] & b[l]);
        return 0;
    case SIM_OP_OR: /* or: as and */
        if (t == T_PRED)
            EACH_LANE(m, d[l] = (a[l] != 0) | (b[l] != 0));
        else
            EACH_LANE(m, d[l] = a[l] | b[l]);
        return 0;
    case SIM_OP_XOR: /* xor: as and */
        if (t == T_PRED)
            EACH_LANE(m, d[l] = (a[l] != 0) ^ (b[l] != 0));
        else
            EACH_LANE(m, d[l] = trunc_to(a[l] ^ b[l], t));
        return 0;
    case SIM_OP_SHL: /* shl.b d, a, b = a << b; shift amounts past the width give 0 */
        if (wd == 32)
            EACH_LANE(m, d[l] = (uint32_t)b[l] >= 32 ? 0 : (uint32_t)(a[l] << (uint32_t)b[l]));
        else
            EACH_LANE(m, d[l] = (uint32_t)b[l] >= wd ? 0 : trunc_to(a[l] << (uint32_t)b[l], t));
        return 0;
    case SIM_OP_SHR: /* shr.u / .b d, a, b = a >> b, 0 past the width; shr.s fills with the sign,
                        the shift clamped at the width */
        if (is_signed(t))
            EACH_LANE(m, {
                uint32_t s = (uint32_t)b[l];
                d[l] = trunc_to((uint64_t)(sx(a[l], t) >> (s >= wd ? wd - 1 : s)), t);
            });
        else
            EACH_LANE(m, d[l] = (uint32_t)b[l] >= wd ? 0 : zx(a[l], t) >> (uint32_t)b[l]);
        return 0;
    case SIM_OP_COPYSIGN: /* copysign.f32 / .f64 d, a, b: b's magnitude with a's sign */
        if (f32)
            F32_LANES2(copysignf(y, x));
        else
            F64_LANES2(copysign(y, x));
        return 0;
    default:
        return lab_sim__unsupported(wk, in, "this instruction");
    }
}

/* mad / fma d, a, b, c = a * b + c: fma.rnd.f32 / .f64 and mad.f32 round once; mad.lo / .hi /
 * .wide.type add c to mul.lo / .hi / .wide's product */
static int
ternary_mad(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32], tb[32], tc[32];
    const uint64_t *a = src(wk, w, &in->o[1], ta), *b = src(wk, w, &in->o[2], tb),
                   *c = src(wk, w, &in->o[3], tc);
    uint64_t *d = dst(w, &in->o[0]);
    unsigned t = in->type;
    bool ftz = in->flags & F_FTZ, sat = in->flags & F_SAT;

    if (check_type(wk, in) < 0)
        return -1;
    if (t == T_F32)
        EACH_LANE(m, {
            float x = as_f32(a[l]), y = as_f32(b[l]), z = as_f32(c[l]), r;
            if (ftz) {
                x = flush(x);
                y = flush(y);
                z = flush(z);
            }
            r = fmaf(x, y, z);
            if (ftz)
                r = flush(r);
            d[l] = bits_f32(sat ? sat01f(r) : r);
        });
    else if (t == T_F64)
        EACH_LANE(m, d[l] = bits_f64(fma(as_f64(a[l]), as_f64(b[l]), as_f64(c[l]))));
    else if ((in->flags & F_WIDE) && is_signed(t))
        EACH_LANE(m, d[l] = (uint64_t)(sx(a[l], t) * sx(b[l], t)) + c[l]);
    else if (in->flags & F_WIDE)
        EACH_LANE(m, d[l] = zx(a[l], t) * zx(b[l], t) + c[l]);
    else if ((in->flags & F_HI) && width(t) == 64 && m)
        return lab_sim__unsupported(wk, in, "mad.hi on 64-bit operands");
    else if (in->flags & F_HI)
        EACH_LANE(m, d[l] = trunc_to(mul_hi(a[l], b[l], t) + c[l], t));
    else
        EACH_LANE(m, d[l] = trunc_to(a[l] * b[l] + c[l], t));
    return 0;
}

/* neg abs not cnot popc clz brev bfind sqrt rsqrt rcp ex2 lg2 sin cos: d = OP a, a lane loop per
 * opcode and type (check_type has refused the types the opcode has no form of) */
static int
unary(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32];
    const uint64_t *a = src(wk, w, &in->o[1], ta);
    uint64_t *d = dst(w, &in->o[0]);
    unsigned t = in->type, wd = width(t);
    bool ftz = in->flags & F_FTZ, f32 = t == T_F32, f64 = t == T_F64;
    const uint64_t sign = 0x8000000000000000ull, quiet = 0x0008000000000000ull;

    if (check_type(wk, in) < 0)
        return -1;
    switch (in->op) {
    case SIM_OP_NEG: /* neg{.ftz}.f32 d, a = -a, a NaN gives the canonical NaN; neg.f64: a NaN
                        passes through as it is (the H100's, quiet ones recorded); neg.s: 0 - a */
        if (f32)
            F32_LANES1(-x);
        else if (f64)
            EACH_LANE(m, d[l] = isnan(as_f64(a[l])) ? a[l] | quiet : a[l] ^ sign);
        else
            EACH_LANE(m, d[l] = trunc_to(0 - zx(a[l], t), t));
        return 0;
    case SIM_OP_ABS: /* abs d, a = |a|, NaNs as neg */
        if (f32)
            F32_LANES1(fabsf(x));
        else if (f64)
            EACH_LANE(m, d[l] = isnan(as_f64(a[l])) ? a[l] | quiet : a[l] & ~sign);
        else
            EACH_LANE(m, {
                int64_t v = sx(a[l], t);
                d[l] = trunc_to(v < 0 ? -(uint64_t)v : (uint64_t)v, t);
            });
        return 0;
    case SIM_OP_NOT: /* not.pred d, a: logical; not.b: the bits flipped */
        if (t == T_PRED)
            EACH_LANE(m, d[l] = !a[l]);
        else
            EACH_LANE(m, d[l] = trunc_to(~a[l], t));
        return 0;
    case SIM_OP_CNOT: /* cnot.b d, a = a == 0 */
        EACH_LANE(m, d[l] = zx(a[l], t) == 0);
        return 0;
    case SIM_OP_POPC: /* popc.b d, a: the bits set (d is .u32) */
        EACH_LANE(m, d[l] = (uint32_t)__builtin_popcountll(zx(a[l], t)));
        return 0;
    case SIM_OP_CLZ: /* clz.b d, a: the leading zeros (the width for 0) */
        EACH_LANE(m, {
            uint64_t x = zx(a[l], t);
            d[l] = x == 0 ? wd : (uint32_t)(__builtin_clzll(x) - (64 - wd));
        });
        return 0;
    case SIM_OP_BREV: /* brev.b d, a: the bits in reverse order */
        EACH_LANE(m, {
            uint64_t x = zx(a[l], t), r = 0;
            for (unsigned i = 0; i < wd; i++)
                r |= ((x >> i) & 1) << (wd - 1 - i);
            d[l] = r;
        });
        return 0;
    case SIM_OP_BFIND: /* bfind{.shiftamt}.type d, a: the position of the most significant
                          non-sign bit (.shiftamt: its distance from the top); ~0 if none */
        EACH_LANE(m, {
            uint64_t x = zx(a[l], t), v = is_signed(t) && sx(a[l], t) < 0 ? zx(~x, t) : x;
            uint32_t r = v == 0 ? 0xffffffffu : 63u - (uint32_t)__builtin_clzll(v);
            d[l] = (in->flags & F_SHIFTAMT) && r != 0xffffffffu ? wd - 1 - r : r;
        });
        return 0;
    case SIM_OP_SQRT: /* sqrt{.rnd}{.ftz}.f32 / .f64 d, a: the square root */
        if (f32)
            F32_LANES1(sqrtf(x));
        else
            F64_LANES1(sqrt(x));
        return 0;
    case SIM_OP_RSQRT: /* rsqrt.approx d, a = 1 / sqrt(a) (rounded twice: within .approx's bound) */
        if (f32)
            F32_LANES1(1.0f / sqrtf(x));
        else
            F64_LANES1(1.0 / sqrt(x));
        return 0;
    case SIM_OP_RCP: /* rcp{.rnd}.f32 / .f64 d, a = 1 / a */
        if (f32)
            F32_LANES1(1.0f / x);
        else
            F64_LANES1(1.0 / x);
        return 0;
    case SIM_OP_EX2: /* ex2.approx.f32 d, a = 2^a */
        F32_LANES1(exp2f(x));
        return 0;
    case SIM_OP_LG2: /* lg2.approx.f32 d, a = log2(a) */
        F32_LANES1(log2f(x));
        return 0;
    case SIM_OP_SIN: /* sin.approx.f32 d, a = sin(a) */
        F32_LANES1(sinf(x));
        return 0;
    case SIM_OP_COS: /* cos.approx.f32 d, a = cos(a) */
        F32_LANES1(cosf(x));
        return 0;
    default:
        return lab_sim__unsupported(wk, in, "this instruction");
    }
}

/* An integer's bits in an order that unsigned comparison keeps: a signed one's with the sign
 * flipped, a predicate's as 0 or 1. */
static inline uint64_t
ordered(uint64_t v, unsigned t)
{
    if (t == T_PRED)
        return v != 0;
    return is_signed(t) ? (uint64_t)sx(v, t) ^ (1ull << 63) : zx(v, t);
}

static bool
compare(unsigned cmp, unsigned t, uint64_t x, uint64_t y)
{
    if (is_float(t)) {
        double a = t == T_F32   ? as_f32(x)
                   : t == T_F64 ? as_f64(x)
                                : half_value(x, t),
               b = t == T_F32   ? as_f32(y)
                   : t == T_F64 ? as_f64(y)
                                : half_value(y, t);
        bool un = isnan(a) || isnan(b);
        switch (cmp) {
        case CMP_EQ:
            return !un && a == b;
        case CMP_NE:
            return !un && a != b;
        case CMP_LT:
            return !un && a < b;
        case CMP_LE:
            return !un && a <= b;
        case CMP_GT:
            return !un && a > b;
        case CMP_GE:
            return !un && a >= b;
        case CMP_EQU:
            return un || a == b;
        case CMP_NEU:
            return un || a != b;
        case CMP_LTU:
            return un || a < b;
        case CMP_LEU:
            return un || a <= b;
        case CMP_GTU:
            return un || a > b;
        case CMP_GEU:
            return un || a >= b;
        case CMP_NUM:
            return !un;
        case CMP_NAN:
            return un;
        default:
            return false;
        }
    }
    uint64_t a = ordered(x, t), b = ordered(y, t);
    switch (cmp) {
    case CMP_EQ:
        return a == b;
    case CMP_NE:
        return a != b;
    case CMP_LT:
    case CMP_LO:
        return a < b;
    case CMP_LE:
    case CMP_LS:
        return a <= b;
    case CMP_GT:
    case CMP_HI:
        return a > b;
    case CMP_GE:
    case CMP_HS:
        return a >= b;
    default:
        return false;
    }
}

#define SETP_LOOP(T, OP)                                                                           \
    do {                                                                                           \
        EACH_LANE(m, p[l] = (T)a[l] OP(T) b[l]);                                                   \
    } while (0)

/* setp on 32-bit integers without a second predicate or combining operand */
static int
setp_int32(const sim_insn *in, const uint64_t *a, const uint64_t *b, uint64_t *p, uint32_t m)
{
    bool s = is_signed(in->type);

    switch (in->sub) {
    case CMP_EQ:
        SETP_LOOP(uint32_t, ==);
        return 0;
    case CMP_NE:
        SETP_LOOP(uint32_t, !=);
        return 0;
    case CMP_LT:
    case CMP_LO:
        if (s)
            SETP_LOOP(int32_t, <);
        else
            SETP_LOOP(uint32_t, <);
        return 0;
    case CMP_LE:
    case CMP_LS:
        if (s)
            SETP_LOOP(int32_t, <=);
        else
            SETP_LOOP(uint32_t, <=);
        return 0;
    case CMP_GT:
    case CMP_HI:
        if (s)
            SETP_LOOP(int32_t, >);
        else
            SETP_LOOP(uint32_t, >);
        return 0;
    case CMP_GE:
    case CMP_HS:
        if (s)
            SETP_LOOP(int32_t, >=);
        else
            SETP_LOOP(uint32_t, >=);
        return 0;
    default:
        EACH_LANE(m, p[l] = compare(in->sub, in->type, a[l], b[l]));
        return 0;
    }
}

/* setp.cmp.type p[|q], a, b[, {!}c with .and/.or/.xor]: p = a cmp b (op c), q = !(a cmp b) (op c)
 */
static int
exec_setp(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32], tb[32], tc[32];
    const uint64_t *a = src(wk, w, &in->o[1], ta), *b = src(wk, w, &in->o[2], tb), *c = NULL;
    uint64_t *p = dst(w, &in->o[0]), *q = in->o[0].reg2 >= 0 ? &w->r[in->o[0].reg2 * 32] : NULL;
    bool cneg = false;

    if (in->nops > 3) {
        c = src(wk, w, &in->o[3], tc);
        cneg = in->o[3].neg;
    } else if (!is_float(in->type) && width(in->type) == 32 && !q) {
        return setp_int32(in, a, b, p, m); /* the course's comparisons: one loop per kind */
    }
    FOR_LANES(m)
    {
        uint64_t x = a[l], y = b[l];
        if ((in->flags & F_FTZ) && in->type == T_F32) { /* setp.ftz: subnormals compare as 0 */
            x = bits_f32(flush(as_f32(x)));
            y = bits_f32(flush(as_f32(y)));
        }
        bool r = compare(in->sub, in->type, x, y), nr = !r;
        if (c) {
            bool cv = (c[l] != 0) != cneg;
            if (in->flags & F_BOOLAND) {
                r = r && cv;
                nr = nr && cv;
            } else if (in->flags & F_BOOLOR) {
                r = r || cv;
                nr = nr || cv;
            } else {
                r = r != cv;
                nr = nr != cv;
            }
        }
        p[l] = r;
        if (q)
            q[l] = nr;
    }
    return 0;
}

static double
round_int(double v, unsigned rnd)
{
    switch (rnd) {
    case RND_RNI:
        return nearbyint(v);
    case RND_RMI:
        return floor(v);
    case RND_RPI:
        return ceil(v);
    default:
        return trunc(v);
    }
}

/* cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a */
static int
exec_cvt(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32];
    const uint64_t *a = src(wk, w, &in->o[1], ta);
    uint64_t *d = dst(w, &in->o[0]);
    unsigned dt = in->type, st = in->type2;

    uint64_t tf[32];

    if (is_half(st)) { /* exactly a float: then as from .f32 */
        FOR_LANES(m) tf[l] = bits_f32(lab_sim__half_to_float((uint16_t)a[l], st == T_BF16));
        a = tf;
        st = T_F32;
    }
    if (dt == T_TF32 || in->rnd == RND_RNA) { /* cvt.rna.tf32.f32: 10 bits, ties away from 0 */
        if (dt != T_TF32 || st != T_F32 || in->rnd != RND_RNA)
            return lab_sim__unsupported(wk, in, "this conversion");
        FOR_LANES(m)
        {
            uint32_t b = (uint32_t)a[l];
            d[l] = (b & 0x7f800000u) == 0x7f800000u ? b : (b + 0x1000u) & 0xffffe000u;
        }
        return 0;
    }
    if (dt == T_F16X2 || dt == T_BF16X2) { /* cvt.rn.f16x2.f32 d, a, b: a high, b low */
        uint64_t tb2[32];
        const uint64_t *b = in->nops > 2 ? src_rare(wk, w, &in->o[2], tb2) : a;
        if (st != T_F32 || (in->rnd != RND_NONE && in->rnd != RND_RN) || in->flags & F_SAT)
            return lab_sim__unsupported(wk, in, "this conversion to a pair");
        FOR_LANES(m)
        d[l] = (uint64_t)lab_sim__half_from_double(as_f32(a[l]), dt == T_BF16X2) << 16 |
               lab_sim__half_from_double(as_f32(b[l]), dt == T_BF16X2);
        return 0;
    }
    if (is_half(dt)) { /* rounded once, to nearest even (or to an integer first: .rni ...) */
        if (in->rnd != RND_NONE && in->rnd != RND_RN && in->rnd < RND_RNI)
            return lab_sim__unsupported(wk, in, "conversions to .f16 or .bf16 not to nearest");
        FOR_LANES(m)
        {
            double v = st == T_F32     ? as_f32(a[l])
                       : st == T_F64   ? as_f64(a[l])
                       : is_signed(st) ? (double)sx(a[l], st)
                                       : (double)zx(a[l], st);
            if (in->rnd >= RND_RNI)
                v = round_int(v, in->rnd);
            if (in->flags & F_SAT)
                v = sat01(v);
            d[l] = lab_sim__half_from_double(v, dt == T_BF16);
        }
        return 0;
    }
    FOR_LANES(m)
    {
        if (is_float(st) && is_float(dt)) {
            double v = st == T_F32 ? as_f32(a[l]) : as_f64(a[l]);
            if ((in->flags & F_FTZ) && st == T_F32)
                v = flush((float)v);
            if (in->rnd >= RND_RNI)
                v = round_int(v, in->rnd);
            if (in->flags & F_SAT)
                v = sat01(v);
            if (dt == T_F32) {
                float f = (float)v;
                if (in->flags & F_FTZ)
                    f = flush(f);
                d[l] = bits_f32(f);
            } else {
                d[l] = bits_f64(v);
            }
        } else if (is_float(st)) { /* float -> int: rounded, NaN -> 0, saturated */
            double v = st == T_F32 ? as_f32(a[l]) : as_f64(a[l]);
            unsigned wd = width(dt);
            if ((in->flags & F_FTZ) && st == T_F32)
                v = flush((float)v);
            v = round_int(v, in->rnd ? in->rnd : RND_RZI);
            if (isnan(v)) {
                d[l] = 0;
            } else if (is_signed(dt)) {
                double lo = -ldexp(1.0, (int)wd - 1), hi = ldexp(1.0, (int)wd - 1);
                int64_t r = v <= lo   ? (int64_t)lo
                            : v >= hi ? (wd == 64 ? INT64_MAX : (int64_t)hi - 1)
                                      : (int64_t)v;
                d[l] = trunc_to((uint64_t)r, dt);
            } else {
                double hi = ldexp(1.0, (int)wd);
                uint64_t r = v <= 0    ? 0
                             : v >= hi ? (wd == 64 ? UINT64_MAX : (uint64_t)hi - 1)
                                       : (uint64_t)v;
                d[l] = r;
            }
        } else if (is_float(dt)) { /* int -> float, round to nearest */
            if (dt == T_F32)
                d[l] = bits_f32(is_signed(st) ? (float)sx(a[l], st) : (float)zx(a[l], st));
            else
                d[l] = bits_f64(is_signed(st) ? (double)sx(a[l], st) : (double)zx(a[l], st));
        } else { /* int -> int: extend by the source's signedness, then truncate or saturate */
            int64_t sv = is_signed(st) ? sx(a[l], st) : (int64_t)zx(a[l], st);
            if (in->flags & F_SAT) {
                unsigned wd = width(dt);
                if (is_signed(dt)) {
                    int64_t lo = wd == 64 ? INT64_MIN : -(1ll << (wd - 1)),
                            hi = wd == 64 ? INT64_MAX : (1ll << (wd - 1)) - 1;
                    if (!is_signed(st) && zx(a[l], st) > (uint64_t)hi)
                        sv = hi;
                    else
                        sv = sv < lo ? lo : sv > hi ? hi : sv;
                } else {
                    uint64_t hi = wd == 64 ? UINT64_MAX : (1ull << wd) - 1;
                    if (is_signed(st) && sv < 0)
                        sv = 0;
                    else if ((uint64_t)sv > hi)
                        sv = (int64_t)hi;
                }
            }
            d[l] = trunc_to((uint64_t)sv, dt);
        }
    }
    return 0;
}

/* bfe bfi prmt shf: bit fields, byte permutes and funnel shifts, d = f(a, b, c{, e}) */
static int
exec_bits(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t tmp[4][32];
    const uint64_t *s[4];
    uint64_t *d = dst(w, &in->o[0]);
    unsigned t = in->type, wd = width(t);

    for (unsigned k = 0; k < 4; k++) /* o[1] .. o[4], as many as the opcode has */
        s[k] = k + 1 < in->nops ? src(wk, w, &in->o[k + 1], tmp[k]) : NULL;
    switch (in->op) {
    case SIM_OP_BFE: /* bfe.type d, a, pos, len: a's bits pos .. pos + len - 1, sign-extended for
                        .s */
        FOR_LANES(m)
        {
            uint32_t pos = (uint32_t)s[1][l] & 0xff, len = (uint32_t)s[2][l] & 0xff;
            uint64_t x = zx(s[0][l], t), r = 0;
            bool sbit = is_signed(t) &&
                        ((pos + len - 1 >= wd ? x >> (wd - 1) : x >> (pos + len - 1)) & 1) &&
                        len > 0;
            for (uint32_t i = 0; i < wd; i++) {
                uint64_t bit = i < len && pos + i < wd ? (x >> (pos + i)) & 1 : sbit;
                r |= bit << i;
            }
            d[l] = r;
        }
        return 0;
    case SIM_OP_BFI: /* bfi.type f, a, b, pos, len: b with a's low len bits inserted at pos */
        FOR_LANES(m)
        {
            uint32_t pos = (uint32_t)s[2][l] & 0xff, len = (uint32_t)s[3][l] & 0xff;
            uint64_t r = s[1][l];
            for (uint32_t i = 0; i < len && pos + i < wd; i++)
                r = (r & ~(1ull << (pos + i))) | (((s[0][l] >> i) & 1) << (pos + i));
            d[l] = trunc_to(r, t);
        }
        return 0;
    case SIM_OP_PRMT: /* prmt.b32 d, a, b, c: bytes of {b, a} picked by c's nibbles */
        if (in->sub != SUB_NONE || in->flags)
            return lab_sim__unsupported(wk, in, "prmt modes");
        FOR_LANES(m)
        {
            uint64_t bytes = ((s[1][l] & 0xffffffffu) << 32) | (s[0][l] & 0xffffffffu);
            uint32_t r = 0;
            for (int k = 0; k < 4; k++) {
                uint32_t sel = ((uint32_t)s[2][l] >> (4 * k)) & 0xf;
                uint32_t byte = (uint32_t)(bytes >> (8 * (sel & 7))) & 0xff;
                if (sel & 8)
                    byte = byte & 0x80 ? 0xff : 0;
                r |= byte << (8 * k);
            }
            d[l] = r;
        }
        return 0;
    case SIM_OP_VABSDIFF4: /* vabsdiff4.u32.atype.btype.add d, a, b, c: c + the sum of |a_i - b_i|
                              over the four bytes, signed or not as atype */
        if (in->sub != AOP_ADD || in->flags & F_SAT)
            return lab_sim__unsupported(wk, in, "this form of vabsdiff4");
        FOR_LANES(m)
        {
            uint32_t sum = (uint32_t)s[2][l];
            for (int k = 0; k < 4; k++) {
                int32_t x = (int32_t)((s[0][l] >> (8 * k)) & 0xff),
                        y = (int32_t)((s[1][l] >> (8 * k)) & 0xff);
                if (is_signed(in->type2)) {
                    x = (int8_t)x;
                    y = (int8_t)y;
                }
                sum += (uint32_t)(x > y ? x - y : y - x);
            }
            d[l] = sum;
        }
        return 0;
    case SIM_OP_SAD: /* sad.type d, a, b, c: c + |a - b|, signed or not as type */
        FOR_LANES(m)
        {
            uint64_t a = zx(s[0][l], t), b = zx(s[1][l], t);
            uint64_t diff = is_signed(t) ? (sx(s[0][l], t) > sx(s[1][l], t) ? a - b : b - a)
                                         : (a > b ? a - b : b - a);
            d[l] = trunc_to(s[2][l] + diff, t);
        }
        return 0;
    case SIM_OP_DP4A: /* dp4a.atype.btype d, a, b, c: c + the four bytes' products */
    case SIM_OP_DP2A: /* dp2a.lo/.hi.atype.btype: c + a's half-words times b's bytes 0, 1 / 2, 3 */
        FOR_LANES(m)
        {
            uint32_t acc = (uint32_t)s[2][l], a = (uint32_t)s[0][l], b = (uint32_t)s[1][l];
            unsigned parts = in->op == SIM_OP_DP4A ? 4 : 2, first = in->flags & F_HI ? 2 : 0;
            for (unsigned k = 0; k < parts; k++) {
                int32_t x = parts == 4 ? (int32_t)((a >> (8 * k)) & 0xff)
                                       : (int32_t)((a >> (16 * k)) & 0xffff);
                int32_t y = (int32_t)((b >> (8 * (k + (parts == 4 ? 0 : first)))) & 0xff);
                if (is_signed(t))
                    x = parts == 4 ? (int8_t)x : (int16_t)x;
                if (is_signed(in->type2))
                    y = (int8_t)y;
                acc += (uint32_t)(x * y);
            }
            d[l] = acc;
        }
        return 0;
    case SIM_OP_BMSK: /* bmsk.clamp/.wrap.b32 d, a, b: b ones from bit a (each clamped to 32, or
                         taken mod 32) */
        FOR_LANES(m)
        {
            uint32_t a = (uint32_t)s[0][l], b = (uint32_t)s[1][l];
            if (in->flags & F_CLAMP) {
                a = a > 32 ? 32 : a;
                b = b > 32 ? 32 : b;
            } else {
                a &= 31;
                b &= 31;
            }
            d[l] = (uint32_t)((~0ull << a) & ~(a + b >= 64 ? 0 : ~0ull << (a + b)));
        }
        return 0;
    case SIM_OP_SHF: /* shf.l/.r.wrap/.clamp.b32 d, a, b, c: {b, a} shifted by c, a word of it */
        FOR_LANES(m)
        {
            uint32_t n = (uint32_t)s[2][l];
            uint64_t v = ((s[1][l] & 0xffffffffu) << 32) | (s[0][l] & 0xffffffffu);
            n = (in->flags & F_CLAMP) ? (n > 32 ? 32 : n) : n & 31;
            d[l] = (in->flags & F_LEFT) ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
        }
        return 0;
    default:
        return lab_sim__unsupported(wk, in, "this instruction");
    }
}

/* ---- memory -------------------------------------------------------------- */

typedef struct resolved {
    uint8_t *p;
    sim_space space;
    sim_shadow *sh;
} resolved;

static const char *const space_names[SP_COUNT] = { "generic", "global", "shared",
                                                   "local",   "param",  "const" };

/* An access of the device heap (malloc's): inside a block in use, or a fatal finding. */
static bool
heap_access(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t addr,
            uint32_t bytes, bool write)
{
    sim_heap_block near;

    if (lab_sim__heap_holds(wk->L->sim, addr, bytes, &near))
        return true;
    if (near.asked && addr - (wk->L->sim->heap + near.off) < near.size + (1u << 20))
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                         "out-of-bounds global %s of %u bytes at byte %llu of a %llu-byte block "
                         "from malloc (past its end, or freed)",
                         write ? "store" : "load", bytes,
                         (unsigned long long)(addr - (wk->L->sim->heap + near.off)),
                         (unsigned long long)near.asked);
    else
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                         "out-of-bounds global %s of %u bytes in the device heap, in no block "
                         "that malloc returned",
                         write ? "store" : "load", bytes);
    return false;
}

/* Where lane l's access of bytes at addr goes; false after a fatal finding. */
static bool
resolve(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, sim_space space,
        uint64_t addr, uint32_t bytes, bool write, resolved *out)
{
    const sim_launch *L = wk->L;
    uint64_t tag = addr & SIM_TAG_MASK;

    if (space == SP_GENERIC)
        space = tag == SIM_SHARED_TAG ? SP_SHARED : tag == SIM_LOCAL_TAG ? SP_LOCAL : SP_GLOBAL;
    if (space == SP_SHARED || space == SP_LOCAL)
        addr &= ~SIM_TAG_MASK;
    out->space = space;
    out->sh = NULL;
    if (bytes > 1 && addr % bytes && space != SP_PARAM) {
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_MISALIGNED, true,
                         write ? N_("misaligned %s store of %u bytes at %s address 0x%llx")
                               : N_("misaligned %s load of %u bytes at %s address 0x%llx"),
                         space_names[space], bytes, space_names[space], (unsigned long long)addr);
        return false;
    }
    switch (space) {
    case SP_GLOBAL:
    case SP_CONST: {
        const sim_alloc *a = wk->last_alloc;
        if (!a || addr < a->base || addr - a->base >= a->size || bytes > a->size - (addr - a->base))
            a = lab_sim__find(L->sim, addr, bytes);
        if (!a && (addr & SIM_TAG_MASK) == SIM_PBUF_TAG) { /* a device-side launch's buffer */
            out->p = lab_sim__pbuf(wk, w, l, in, addr, bytes, write);
            return out->p != NULL;
        }
        if (!a) {
            const sim_alloc *near = lab_sim__nearest(L->sim, addr);
            if (near && addr - near->base < near->size + (1u << 20))
                lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                                 write ? N_("out-of-bounds global store of %u bytes at byte "
                                            "%llu of a %llu-byte allocation")
                                       : N_("out-of-bounds global load of %u bytes at byte %llu "
                                            "of a %llu-byte allocation"),
                                 bytes, (unsigned long long)(addr - near->base),
                                 (unsigned long long)near->size);
            else
                lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                                 write ? N_("out-of-bounds global store of %u bytes at 0x%llx, "
                                            "outside every allocation")
                                       : N_("out-of-bounds global load of %u bytes at 0x%llx, "
                                            "outside every allocation"),
                                 bytes, (unsigned long long)addr);
            return false;
        }
        wk->last_alloc = a;
        out->p = (uint8_t *)(uintptr_t)addr;
        if (L->checks && a->base == L->sim->heap && !heap_access(wk, w, l, in, addr, bytes, write))
            return false;
        if (L->checks && space == SP_GLOBAL)
            out->sh = lab_sim__global_shadow(wk, a, addr);
        return true;
    }
    case SP_SHARED:
        if (addr < L->shared_static && bytes <= L->shared_static - addr) {
            out->p = wk->shared_static + addr;
            out->sh = wk->sh_static + addr / 4;
            return true;
        }
        if (addr >= SIM_DYN_SHARED && addr - SIM_DYN_SHARED < L->shared_dyn &&
            bytes <= L->shared_dyn - (addr - SIM_DYN_SHARED)) {
            out->p = wk->shared_dyn + (addr - SIM_DYN_SHARED);
            out->sh = wk->sh_dyn + (addr - SIM_DYN_SHARED) / 4;
            return true;
        }
        if (addr >= SIM_RESERVED_SHARED && addr - SIM_RESERVED_SHARED < SIM_RESERVED_BYTES &&
            bytes <= SIM_RESERVED_BYTES - (addr - SIM_RESERVED_SHARED)) {
            out->p = wk->shared_res + (addr - SIM_RESERVED_SHARED);
            out->sh = wk->sh_res + (addr - SIM_RESERVED_SHARED) / 4;
            return true;
        }
        if (addr >= SIM_DYN_SHARED)
            lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_SHARED, true,
                             write ? N_("out-of-bounds shared store of %u bytes at byte %llu "
                                        "of the dynamic shared array (%u bytes given at launch)")
                                   : N_("out-of-bounds shared load of %u bytes at byte %llu of "
                                        "the dynamic shared array (%u bytes given at launch)"),
                             bytes, (unsigned long long)(addr - SIM_DYN_SHARED), L->shared_dyn);
        else
            lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_SHARED, true,
                             write ? N_("out-of-bounds shared store of %u bytes at byte %llu "
                                        "(the block has %u bytes of static shared memory)")
                                   : N_("out-of-bounds shared load of %u bytes at byte %llu "
                                        "(the block has %u bytes of static shared memory)"),
                             bytes, (unsigned long long)addr, L->shared_static);
        return false;
    case SP_LOCAL: { /* the frames of the thread's calls so far, the running one's last */
        uint32_t lb = w->local_top;
        if (addr < lb && bytes <= lb - addr) {
            out->p = lab_sim__local(wk, w, l) + addr;
            return true;
        }
        lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_LOCAL, true,
                         write ? N_("out-of-bounds local store of %u bytes at byte %llu of %u")
                               : N_("out-of-bounds local load of %u bytes at byte %llu of %u"),
                         bytes, (unsigned long long)addr, lb);
        return false;
    }
    case SP_PARAM:
        if (write || addr + bytes > L->f->param_bytes) {
            lab_sim__unsupported(wk, in,
                                 write ? "stores to .param"
                                       : "a .param access outside "
                                         "the kernel's parameters");
            return false;
        }
        out->p = L->params + addr;
        return true;
    default:
        return false;
    }
}

const uint8_t *
lab_sim__lane_read(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in, uint64_t addr,
                   uint32_t bytes)
{
    resolved r;
    return resolve(wk, w, l, in, SP_GENERIC, addr, bytes, false, &r) ? r.p : NULL;
}

static inline uint64_t
load_bits(const uint8_t *p, unsigned t)
{
    switch (width(t)) {
    case 8:
        return is_signed(t) ? (uint64_t)(int64_t)(int8_t)*p : *p;
    case 16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return is_signed(t) ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 64: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return is_signed(t) ? (uint64_t)(uint32_t)v : v;
    }
    }
}

static inline void
store_bits(uint8_t *p, unsigned t, uint64_t v)
{
    switch (width(t)) {
    case 8:
        *p = (uint8_t)v;
        break;
    case 16: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 64:
        memcpy(p, &v, 8);
        break;
    default: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    }
}

static void
count_access(sim_worker *wk, const uint64_t *addr, const uint8_t *spaces, uint32_t m,
             uint32_t bytes, sim_access kind)
{
    uint32_t gm = 0, sm = 0;

    FOR_LANES(m)
    {
        if (spaces[l] == SP_GLOBAL)
            gm |= 1u << l;
        else if (spaces[l] == SP_SHARED)
            sm |= 1u << l;
    }
    if (gm)
        lab_sim__count_global(&wk->metrics, kind, addr, gm, bytes);
    if (gm && kind == SIM_ACCESS_LOAD)
        lab_sim__count_block_loads(&wk->block_loads, (uint32_t)wk->block_linear + 1, &wk->metrics,
                                   addr, gm, bytes);
    if (sm && kind == SIM_ACCESS_ATOM) /* no ld/st wavefronts: ATOMS, or a CAS loop in SASS */
        lab_sim__count_shared_atom(&wk->shared_atoms, (uint32_t)wk->block_linear + 1, &wk->metrics,
                                   addr, sm);
    else if (sm)
        lab_sim__count_shared(&wk->metrics, addr, sm, bytes);
}

/* The common access, without resolving each lane: one 4- or 8-byte element per lane, aligned,
 * all in the allocation the worker touched last (global) or in the static shared memory.
 * Same checks, same order, same counts as the general path; false: take that path. */
static bool
ldst_fast(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m, bool store, sim_space space,
          const uint64_t *addr)
{
    const sim_launch *L = wk->L;
    const sim_opnd *vo = &in->o[store ? 1 : 0];
    uint32_t bytes = width(in->type) / 8, words = bytes / 4;
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0, base = 0, tv[32];
    const uint64_t *sv = NULL;
    sim_shadow *sh = NULL;
    bool global = space != SP_SHARED;

    if (in->vec != 1 || (bytes != 4 && bytes != 8) || vo->kind == O_VEC ||
        (space != SP_GLOBAL && space != SP_GENERIC && space != SP_SHARED) ||
        (store && (w->holding & m))) /* a store that may give a lock back: lane by lane */
        return false;
    FOR_LANES(m)
    {
        lo = addr[l] < lo ? addr[l] : lo;
        hi = addr[l] > hi ? addr[l] : hi;
        bits |= addr[l];
    }
    if (bits & (bytes - 1))
        return false;
    if (global) { /* a tagged (shared, local) generic address is far above any allocation */
        const sim_alloc *a = wk->last_alloc;
        if (!a || a->size < bytes || lo < a->base || hi - a->base > a->size - bytes) {
            if (hi < lo || !(a = lab_sim__find(L->sim, lo, hi - lo + bytes)))
                return false; /* several allocations, or out of bounds: lane by lane */
            wk->last_alloc = a;
        }
        base = a->base;
        if (L->checks &&
            (a->base == L->sim->heap || !(sh = lab_sim__global_shadow(wk, a, a->base))))
            return false; /* the heap's blocks: lane by lane */
    } else {
        if (L->shared_static < bytes || hi > L->shared_static - bytes)
            return false;
        sh = wk->sh_static;
    }
    if (store)
        sv = src(wk, w, vo, tv);
    FOR_LANES(m)
    {
        /* device addresses are host addresses */
        uint8_t *p = global ? (uint8_t *)(uintptr_t)addr[l] : wk->shared_static + addr[l];
        if (L->checks)
            for (uint32_t k = 0; k < words; k++)
                lab_sim__check(wk, w, l, in, sh + (addr[l] - base) / 4 + k, store, global);
        if (store)
            store_bits(p, in->type, sv[l]);
        else if (vo->reg >= 0)
            w->r[(size_t)vo->reg * 32 + l] = load_bits(p, in->type);
    }
    if (global && !store)
        lab_sim__count_block_loads(&wk->block_loads, (uint32_t)wk->block_linear + 1, &wk->metrics,
                                   addr, m, bytes);
    if (global)
        lab_sim__count_global(&wk->metrics, store ? SIM_ACCESS_STORE : SIM_ACCESS_LOAD, addr, m,
                              bytes);
    else
        lab_sim__count_shared(&wk->metrics, addr, m, bytes);
    return true;
}

/* ld{.space}{.vec}.type d, [a]  /  st{.space}{.vec}.type [a], b */
static int
exec_ldst(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    unsigned ai = lab_sim__addr_index(in->op);
    bool store = ai == 0;                                  /* st has no d */
    const sim_opnd *ao = &in->o[ai], *vo = &in->o[1 - ai]; /* [a]; ld's d or st's b */
    uint32_t tb = width(in->type) / 8, bytes = tb * in->vec;
    uint64_t addr[32], tv[32], off;
    uint8_t spaces[32];
    const uint64_t *base = ao->reg >= 0 ? &w->r[(size_t)ao->reg * 32] : NULL;
    sim_space space = (sim_space)in->space;

    if (ao->kind != O_MEM)
        return lab_sim__unsupported(wk, in, "an address operand that is not [..]");
    if (space == SP_GENERIC && ao->reg < 0 && ao->space != SP_GENERIC)
        space = (sim_space)ao->space; /* generic access of a named variable */
    if (tb == 0)
        tb = 1;
    if (space == SP_PARAM && !store && !base && in->vec == 1 && vo->kind == O_REG &&
        (uint64_t)ao->imm + bytes <= wk->L->f->param_bytes) { /* a kernel parameter: one value */
        uint64_t v = load_bits(wk->L->params + ao->imm, in->type);
        uint64_t *d = &w->r[(size_t)vo->reg * 32];
        EACH_LANE(m, d[l] = v);
        return 0;
    }
    off = (uint64_t)ao->imm + (ao->space == SP_LOCAL ? w->local_base : 0); /* a frame's symbol */
    EACH_LANE(m, addr[l] = (base ? base[l] : 0) + off);
    if (ldst_fast(wk, w, in, m, store, space, addr))
        return 0;
    FOR_LANES(m)
    {
        resolved r;
        if (!resolve(wk, w, l, in, space, addr[l], bytes, store, &r))
            return -1;
        spaces[l] = (uint8_t)r.space;
        if (r.space == SP_SHARED || r.space == SP_LOCAL)
            addr[l] &= ~SIM_TAG_MASK;
        if (r.sh && wk->L->checks)
            for (uint32_t k = 0; k < (bytes + 3) / 4; k++)
                lab_sim__check(wk, w, l, in, r.sh + k, store, r.space == SP_GLOBAL);
        if (store && (w->holding >> l & 1u)) /* a release of its lock, with a fence before */
            lab_sim__lock_store(wk, w, l, r.p);
        for (uint32_t v = 0; v < in->vec; v++) {
            uint8_t *p = r.p + v * tb;
            if (store) {
                const uint64_t *s;
                if (vo->kind == O_VEC) {
                    if (vo->vec[v] < 0)
                        continue;
                    s = &w->r[(size_t)vo->vec[v] * 32];
                } else {
                    s = src(wk, w, vo, tv);
                }
                store_bits(p, in->type, s[l]);
            } else {
                int32_t reg = vo->kind == O_VEC ? vo->vec[v] : vo->reg;
                if (reg >= 0)
                    w->r[(size_t)reg * 32 + l] = load_bits(p, in->type);
            }
        }
    }
    count_access(wk, addr, spaces, m, bytes, store ? SIM_ACCESS_STORE : SIM_ACCESS_LOAD);
    return 0;
}

/* ---- wmma ---------------------------------------------------------------- */

/* A fragment here: the matrix's elements in row-major order e = slot * 32 + lane, slot 0, 1, ...
 * of each lane packed into its registers (two 16-bit, four 8-bit, or one wider per register).  The
 * PTX ISA leaves the layout to the implementation; a kernel that only loads, multiplies, stores
 * and changes every element alike sees no difference. */
static const uint8_t wm_mnk[][3] = { [WM_M16N16K16] = { 16, 16, 16 },
                                     [WM_M16N16K8] = { 16, 16, 8 },
                                     [WM_M8N8K4] = { 8, 8, 4 },
                                     [WM_M32N8K16] = { 32, 8, 16 },
                                     [WM_M8N32K16] = { 8, 32, 16 } };

/* rows and columns of matrix which ('a': M x K, 'b': K x N, else M x N) of shape sh */
static void
wm_dims(unsigned sh, char which, unsigned *rows, unsigned *cols)
{
    unsigned m = wm_mnk[sh][0], n = wm_mnk[sh][1], k = wm_mnk[sh][2];
    *rows = which == 'b' ? k : m;
    *cols = which == 'a' ? k : n;
}

static unsigned
wm_bytes(unsigned t)
{
    return t == T_F16 || t == T_BF16 ? 2 : t == T_U8 || t == T_S8 ? 1 : t == T_F64 ? 8 : 4;
}

static double
wm_value(uint64_t bits, unsigned t)
{
    float f;
    uint32_t u = (uint32_t)bits;
    switch (t) {
    case T_F16:
    case T_BF16:
        return lab_sim__half_to_float((uint16_t)bits, t == T_BF16);
    case T_TF32:
        u &= 0xffffe000u; /* tf32: the top 19 bits */
        memcpy(&f, &u, 4);
        return f;
    case T_F32:
        memcpy(&f, &u, 4);
        return f;
    case T_U8:
        return (double)(uint8_t)bits;
    case T_S8:
        return (double)(int8_t)bits;
    case T_S32:
        return (double)(int32_t)u;
    default:
        return as_f64(bits);
    }
}

/* slot of lane l in the fragment {v}: its register's bits, shifted down */
static uint64_t
wm_get(const sim_warp *w, const sim_opnd *v, unsigned t, unsigned slot, int l)
{
    unsigned b = wm_bytes(t), per = b >= 4 ? 1 : 4 / b;
    int32_t reg = lab_sim__vec_reg(v, slot / per);
    uint64_t x = reg >= 0 ? w->r[(size_t)reg * 32 + l] : 0;
    return b >= 4 ? x : (x >> (8 * b * (slot % per))) & ((1ull << (8 * b)) - 1);
}

static void
wm_put(sim_warp *w, const sim_opnd *v, unsigned t, unsigned slot, int l, uint64_t bits)
{
    unsigned b = wm_bytes(t), per = b >= 4 ? 1 : 4 / b, sh = 8 * b * (slot % per);
    int32_t reg = lab_sim__vec_reg(v, slot / per);
    uint64_t *r;
    if (reg < 0)
        return;
    r = &w->r[(size_t)reg * 32 + l];
    if (b >= 4)
        *r = b == 8 ? bits : (uint32_t)bits;
    else
        *r = (*r & ~(((1ull << (8 * b)) - 1) << sh)) | (bits & ((1ull << (8 * b)) - 1)) << sh;
}

/* wmma.load / wmma.store: each lane's elements from or to memory, row- or column-major with a
 * stride in elements; wmma.mma: d = a x b + c over the whole warp's fragments */
static int
exec_wmma(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    unsigned sh = in->red, rows, cols, t = in->type;

    if (m != 0xffffffffu)
        return lab_sim__unsupported(wk, in, "wmma in a warp that is not whole (.sync.aligned)");
    if (in->sub == WM_MMA) {
        unsigned M = wm_mnk[sh][0], N = wm_mnk[sh][1], K = wm_mnk[sh][2], at = in->space;
        double a[32 * 16], b[16 * 32], c[32 * 32];
        for (unsigned e = 0; e < M * K; e++)
            a[e] = wm_value(wm_get(w, &in->o[1], at, e / 32, (int)(e % 32)), at);
        for (unsigned e = 0; e < K * N; e++)
            b[e] = wm_value(wm_get(w, &in->o[2], at, e / 32, (int)(e % 32)), at);
        for (unsigned e = 0; e < M * N; e++)
            c[e] = wm_value(wm_get(w, &in->o[3], in->type2, e / 32, (int)(e % 32)), in->type2);
        for (unsigned e = 0; e < M * N; e++) {
            unsigned i = e / N, j = e % N;
            double acc = c[e];
            uint64_t bits;
            if (t == T_S32) {
                int64_t ia = (int64_t)acc;
                for (unsigned k = 0; k < K; k++)
                    ia += (int64_t)a[i * K + k] * (int64_t)b[k * N + j];
                if (in->flags & F_SAT)
                    ia = ia > INT32_MAX ? INT32_MAX : ia < INT32_MIN ? INT32_MIN : ia;
                bits = (uint32_t)(int32_t)ia;
            } else {
                for (unsigned k = 0; k < K; k++)
                    acc = fma(a[i * K + k], b[k * N + j], acc);
                bits = t == T_F64   ? bits_f64(acc)
                       : t == T_F16 ? lab_sim__half_from_double(acc, false)
                                    : bits_f32((float)acc);
            }
            wm_put(w, &in->o[0], t, e / 32, (int)(e % 32), bits);
        }
        return 0;
    }
    {
        bool store = in->sub == WM_STORE, col = in->flags & F_WM_COL;
        char which = store || in->flags & F_WM_C ? 'c' : in->flags & F_WM_A ? 'a' : 'b';
        const sim_opnd *ao = &in->o[store ? 0 : 1], *v = &in->o[store ? 1 : 0];
        unsigned esz = wm_bytes(t);
        uint64_t ts[32];
        const uint64_t *stride = in->nops > 2 ? src_rare(wk, w, &in->o[2], ts) : NULL;
        wm_dims(sh, which, &rows, &cols);
        if (ao->kind != O_MEM || v->kind != O_VEC)
            return lab_sim__unsupported(wk, in, "this form of wmma");
        FOR_LANES(m)
        {
            uint64_t base = (ao->reg >= 0 ? w->r[(size_t)ao->reg * 32 + l] : 0) + (uint64_t)ao->imm;
            uint64_t ld = stride ? (uint32_t)stride[l] : col ? rows : cols;
            for (unsigned slot = 0; slot * 32 + (unsigned)l < rows * cols; slot++) {
                unsigned e = slot * 32 + (unsigned)l, r = e / cols, cc = e % cols;
                uint64_t at = base + (col ? cc * ld + r : r * ld + cc) * esz;
                resolved rs;
                if (!resolve(wk, w, l, in, (sim_space)in->space, at, esz, store, &rs))
                    return -1;
                if (store && rs.space == SP_SHARED && wk->L->checks)
                    lab_sim__shadow_written(wk, rs.sh);
                if (store)
                    store_bits(rs.p,
                               esz == 8   ? T_B64
                               : esz == 4 ? T_B32
                               : esz == 2 ? T_B16
                                          : T_B8,
                               wm_get(w, v, t, slot, l));
                else
                    wm_put(w, v, t, slot, l,
                           load_bits(rs.p, esz == 8   ? T_B64
                                           : esz == 4 ? T_B32
                                           : esz == 2 ? T_B16
                                                      : T_B8));
            }
        }
    }
    return 0;
}

/* ---- mbarrier objects --------------------------------------------------- */

/* An mbarrier's 64 bits here: arrivals still due (bits 0..19), expected per phase (20..39),
 * transaction bytes still due (40..61, two's complement) and the phase's parity (63).  A phase
 * completes when neither arrivals nor bytes are due: the parity flips, the arrivals start over. */
static uint64_t
mb_pack(uint32_t pending, uint32_t expected, int64_t tx, uint64_t phase)
{
    return (pending & 0xfffffu) | (uint64_t)(expected & 0xfffffu) << 20 |
           ((uint64_t)tx & 0x3fffffu) << 40 | (phase & 1) << 63;
}

static uint64_t
mb_update(uint64_t v, uint32_t arrivals, int64_t tx_delta, bool drop)
{
    uint32_t pending = (uint32_t)(v & 0xfffff), expected = (uint32_t)((v >> 20) & 0xfffff);
    int64_t tx = (int64_t)((v >> 40) & 0x3fffff);
    uint64_t phase = v >> 63;

    tx = (tx >= (1 << 21) ? tx - (1 << 22) : tx) + tx_delta;
    pending = arrivals > pending ? 0 : pending - arrivals;
    if (drop)
        expected = arrivals > expected ? 0 : expected - arrivals;
    if (pending == 0 && tx == 0) {
        phase ^= 1;
        pending = expected;
    }
    return mb_pack(pending, expected, tx, phase);
}

/* lane l's mbarrier at the address operand o (in space: the instruction's, or shared for a bulk
 * copy's); NULL after a fatal finding */
static uint64_t *
mb_at(sim_worker *wk, sim_warp *w, int l, const sim_insn *in, const sim_opnd *o, sim_space space)
{
    uint64_t addr = (o->reg >= 0 ? w->r[(size_t)o->reg * 32 + l] : 0) + (uint64_t)o->imm;
    resolved r;

    if (o->kind != O_MEM || !resolve(wk, w, l, in, space, addr, 8, true, &r))
        return NULL;
    return (uint64_t *)(void *)r.p;
}

/* mbarrier.init / arrive / arrive_drop / expect_tx / complete_tx / test_wait / try_wait / inval:
 * each lane's operation on its barrier object, in lane order (lab_sim's warps run one at a time:
 * a wait that fails spins until another warp arrives, which RUN_YIELD lets it do) */
static int
exec_mbarrier(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    bool arrive = in->sub == BAR_ARRIVE || in->sub == MB_ARRIVE_DROP, wait = in->sub == MB_WAIT;
    const sim_opnd *a = &in->o[arrive || wait ? 1 : 0];
    uint64_t t1[32], t2[32];
    const uint64_t *n1 = in->nops > 1 ? src_rare(wk, w, &in->o[1], t1) : NULL,
                   *n2 = in->nops > 2 ? src_rare(wk, w, &in->o[2], t2) : NULL;

    FOR_LANES(m)
    {
        uint64_t *p = mb_at(wk, w, l, in, a, (sim_space)in->space), v;
        if (!p)
            return -1;
        v = *p;
        if (in->sub == MB_INIT) {
            *p = mb_pack((uint32_t)n1[l], (uint32_t)n1[l], 0, 0);
        } else if (arrive) { /* state: the phase it arrived in */
            uint32_t count = n2 ? (uint32_t)n2[l] : 1;
            int64_t tx = 0;
            if (in->flags & F_EXPECT) { /* arrive.expect_tx state, [a], tx: bytes, one arrival */
                tx = (int64_t)(uint32_t)n2[l];
                count = 1;
            }
            if (in->o[0].kind == O_REG)
                w->r[(size_t)in->o[0].reg * 32 + l] = v & (1ull << 63);
            *p = mb_update(v, count, tx, in->sub == MB_ARRIVE_DROP);
        } else if (in->sub == MB_COMPLETE_TX || (in->sub == SUB_NONE && in->flags & F_EXPECT)) {
            int64_t tx = (int64_t)(uint32_t)n1[l];
            *p = mb_update(v, 0, in->sub == MB_COMPLETE_TX ? -tx : tx, false);
        } else if (wait) { /* the phase of the token (or of the parity) is over */
            uint64_t phase = in->flags & F_PARITY ? (n2[l] & 1) << 63 : n2[l] & (1ull << 63);
            if (in->o[0].kind == O_REG)
                w->r[(size_t)in->o[0].reg * 32 + l] = (v & (1ull << 63)) != phase;
        } else if (in->sub == MB_INVAL) {
            *p = 0;
        } else {
            return lab_sim__unsupported(wk, in, "this form of mbarrier");
        }
    }
    return 0;
}

/* cp.async.ca/.cg.shared.global [d], [a], size{, src-size}: size bytes to shared memory, the
 * first src-size of them from global memory and the rest zero, now (the GPU may copy at any time
 * before the wait: this is one of its orders).  Its commit and wait have nothing left to do. */
static int
exec_cp_async(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const sim_opnd *d = &in->o[0], *a = &in->o[1];
    uint64_t ts[32], tn[32], da[32], sa[32];
    uint8_t ssp[32];
    const uint64_t *size, *srcsize;

    if (in->sub == CP_COMMIT || in->sub == CP_WAIT)
        return 0;
    if (in->sub == BAR_ARRIVE && in->flags & F_MBAR) { /* cp.async.mbarrier.arrive{.noinc} [m] */
        if (!(in->flags & F_NOINC)) /* counted in, then out as the copies end: no change */
            return 0;
        FOR_LANES(m)
        {
            uint64_t *p = mb_at(wk, w, l, in, &in->o[0], (sim_space)in->space);
            if (!p)
                return -1;
            *p = mb_update(*p, 1, 0, false);
        }
        return 0;
    }
    if (in->sub == CP_BULK) { /* [d], [a], size, [m]: copied, then size bytes completed on m */
        uint64_t tsz[32];
        const uint64_t *sz = src_rare(wk, w, &in->o[2], tsz);
        if (in->nops != 4 || !(in->flags & F_MBAR))
            return lab_sim__unsupported(wk, in, "this form of cp.async.bulk");
        FOR_LANES(m)
        {
            uint32_t n = (uint32_t)sz[l];
            resolved rd, rs;
            uint64_t *p;
            da[l] = (d->reg >= 0 ? w->r[(size_t)d->reg * 32 + l] : 0) + (uint64_t)d->imm;
            sa[l] = (a->reg >= 0 ? w->r[(size_t)a->reg * 32 + l] : 0) + (uint64_t)a->imm;
            resolved end;
            if (n % 16) /* 16-byte aligned, in 16-byte units: each end's 16 bytes checked */
                return lab_sim__unsupported(wk, in, "a bulk copy of bytes not a multiple of 16");
            if (n && (!resolve(wk, w, l, in, SP_SHARED, da[l], 16, true, &rd) ||
                      !resolve(wk, w, l, in, SP_SHARED, da[l] + n - 16, 16, true, &end) ||
                      !resolve(wk, w, l, in, SP_GLOBAL, sa[l], 16, false, &rs) ||
                      !resolve(wk, w, l, in, SP_GLOBAL, sa[l] + n - 16, 16, false, &end)))
                return -1;
            if (n)
                memcpy(rd.p, rs.p, n);
            for (uint32_t k = 0; wk->L->checks && k < n / 4; k++)
                lab_sim__shadow_written(wk, rd.sh + k);
            if (!(p = mb_at(wk, w, l, in, &in->o[3], SP_SHARED)))
                return -1;
            *p = mb_update(*p, 0, -(int64_t)n, false);
        }
        return 0;
    }
    if (in->sub != CP_ASYNC || in->nops < 3 || d->kind != O_MEM || a->kind != O_MEM)
        return lab_sim__unsupported(wk, in, "this form of cp");
    size = src_rare(wk, w, &in->o[2], ts);
    srcsize = in->nops > 3 ? src_rare(wk, w, &in->o[3], tn) : size;
    FOR_LANES(m)
    {
        uint32_t n = (uint32_t)size[l], sn = (uint32_t)srcsize[l] < n ? (uint32_t)srcsize[l] : n;
        resolved rd, rs;
        da[l] = (d->reg >= 0 ? w->r[(size_t)d->reg * 32 + l] : 0) + (uint64_t)d->imm;
        sa[l] = (a->reg >= 0 ? w->r[(size_t)a->reg * 32 + l] : 0) + (uint64_t)a->imm;
        if (!resolve(wk, w, l, in, SP_SHARED, da[l], n, true, &rd) ||
            (sn && !resolve(wk, w, l, in, SP_GLOBAL, sa[l], n, false, &rs)))
            return -1;
        ssp[l] = SP_GLOBAL;
        if (wk->L->checks)
            for (uint32_t k = 0; k < (n + 3) / 4; k++) {
                if (sn && rs.sh)
                    lab_sim__check(wk, w, l, in, rs.sh + k, false, true);
                if (rd.sh)
                    lab_sim__check(wk, w, l, in, rd.sh + k, true, false);
            }
        if (sn)
            memcpy(rd.p, rs.p, sn);
        memset(rd.p + sn, 0, n - sn);
    }
    /* the global side only: the H100's shared-memory wavefronts (Nsight Compute, recorded in
     * tests/fixtures/sim-diff/tests_sim_features.json: cp_async_groups) leave out the writes
     * of cp.async, which do not pass the load/store unit's shared data path */
    count_access(wk, sa, ssp, m, (uint32_t)size[__builtin_ctz(m)], SIM_ACCESS_LOAD);
    return 0;
}

/* the coordinates of each geometry (TEX_1D ..): a layered one's layer comes first */
static const uint8_t geom_coords[] = {
    [TEX_1D] = 1, [TEX_2D] = 2, [TEX_3D] = 3, [TEX_A1D] = 2, [TEX_A2D] = 3, [TEX_CUBE] = 3
};

/* tex{.level}.geom.v4.dtype.ctype {d}, [t, {c}]: each lane's fetch of its texture object */
static int
exec_tex(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const sim_opnd *d = &in->o[0], *a = &in->o[1];
    bool int_coords = in->type2 != T_F32, float_out = in->type == T_F32;

    if (in->sub < TEX_1D || in->sub > TEX_CUBE || in->vec != 4 || d->kind != O_VEC ||
        a->kind != O_MEM || a->reg < 0 || a->nvec < geom_coords[in->sub] ||
        (in->type != T_F32 && in->type != T_U32 && in->type != T_S32))
        return lab_sim__unsupported(wk, in, "this form of tex");
    FOR_LANES(m)
    {
        uint64_t c[4] = { 0, 0, 0, 0 };
        uint32_t r[4];
        for (unsigned k = 0; k < geom_coords[in->sub]; k++)
            c[k] = w->r[(size_t)a->vec[k] * 32 + l];
        if (!lab_sim__tex_fetch(wk->L->sim, w->r[(size_t)a->reg * 32 + l], in->sub, int_coords, c,
                                float_out, r))
            return lab_sim__unsupported(wk, in,
                                        "a texture object that was not made on the simulator");
        for (unsigned k = 0; k < 4; k++)
            if (d->vec[k] >= 0)
                w->r[(size_t)d->vec[k] * 32 + l] = r[k];
    }
    return 0;
}

/* suld.b.geom{.vec}.btype.mode {d}, [s, {c}] / sust.b.geom{.vec}.btype.mode [s, {c}], {a}: each
 * lane's load or store of its surface object's bytes at c (x in bytes) */
static int
exec_surf(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    bool store = in->op == SIM_OP_SUST;
    const sim_opnd *a = &in->o[store ? 0 : 1], *v = &in->o[store ? 1 : 0];
    uint32_t tb = width(in->type) / 8, n = v->kind == O_VEC ? v->nvec : 1;
    unsigned mode = in->flags & F_CLAMP ? SURF_CLAMP : in->flags & F_ZERO ? SURF_ZERO : SURF_TRAP;

    if (in->sub < TEX_1D || in->sub > TEX_A2D || !tb || a->kind != O_MEM || a->reg < 0 ||
        a->nvec < geom_coords[in->sub])
        return lab_sim__unsupported(wk, in, store ? "this form of sust" : "this form of suld");
    FOR_LANES(m)
    {
        uint64_t c[4] = { 0, 0, 0, 0 };
        uint8_t *p = NULL;
        int rc;
        for (unsigned k = 0; k < geom_coords[in->sub]; k++)
            c[k] = w->r[(size_t)a->vec[k] * 32 + l];
        rc = lab_sim__surf_at(wk->L->sim, w->r[(size_t)a->reg * 32 + l], in->sub, c, tb * n, mode,
                              &p);
        if (rc == -2)
            return lab_sim__unsupported(wk, in,
                                        "a surface object that was not made on the simulator");
        if (rc == -1) {
            lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_OOB_GLOBAL, true,
                             store ? N_("out-of-bounds surface store of %u bytes (a GPU traps)")
                                   : N_("out-of-bounds surface load of %u bytes (a GPU traps)"),
                             tb * n);
            return -1;
        }
        for (uint32_t k = 0; k < n; k++) {
            int32_t reg = v->kind == O_VEC ? v->vec[k] : v->reg;
            if (store && reg >= 0 && rc == 0)
                store_bits(p + k * tb, in->type, w->r[(size_t)reg * 32 + l]);
            else if (!store && reg >= 0)
                w->r[(size_t)reg * 32 + l] = rc == 0 ? load_bits(p + k * tb, in->type) : 0;
        }
    }
    return 0;
}

/* What an atom / red leaves in memory: old OP b (.cas: c where old is b); old itself for an
 * operation the type has no form of.  atom.add.f32 flushes subnormals (.ftz). */
static uint64_t
atomic_new(const sim_insn *in, uint64_t old, uint64_t b, uint64_t c)
{
    unsigned t = in->type, ti = width(t) == 64 ? t : is_signed(t) ? T_S32 : T_U32;

    if (t == T_F32) {
        if (in->sub == AOP_ADD)
            return bits_f32(flush(flush(as_f32(old)) + flush(as_f32(b))));
        if (in->sub == AOP_MIN || in->sub == AOP_MAX)
            return f32_minmax(old, b, in->sub == AOP_MAX, true);
        return in->sub == AOP_EXCH ? bits_f32(as_f32(b)) : old;
    }
    if (t == T_F64)
        return in->sub == AOP_EXCH ? b : bits_f64(as_f64(old) + as_f64(b));
    switch (in->sub) {
    case AOP_ADD:
        return old + b;
    case AOP_MIN:
        return (is_signed(ti) ? sx(old, ti) < sx(b, ti) : zx(old, ti) < zx(b, ti)) ? old : b;
    case AOP_MAX:
        return (is_signed(ti) ? sx(old, ti) > sx(b, ti) : zx(old, ti) > zx(b, ti)) ? old : b;
    case AOP_INC: /* ((old >= b) ? 0 : old + 1) */
        return zx(old, ti) >= zx(b, ti) ? 0 : old + 1;
    case AOP_DEC: /* ((old == 0 || old > b) ? b : old - 1) */
        return zx(old, ti) == 0 || zx(old, ti) > zx(b, ti) ? b : old - 1;
    case AOP_CAS:
        return zx(old, ti) == zx(b, ti) ? c : old;
    case AOP_EXCH:
        return b;
    case AOP_AND:
        return old & b;
    case AOP_OR:
        return old | b;
    case AOP_XOR:
        return old ^ b;
    default:
        return old;
    }
}

/* Applies an atom / red to the word at p (4 or 8 bytes): the old value */
static uint64_t
atomic_apply(const sim_insn *in, uint8_t *p, uint64_t b, uint64_t c)
{
    if (width(in->type) == 64) {
        uint64_t *q = (uint64_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &old, atomic_new(in, old, b, c), false,
                                            __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            ;
        return old;
    }
    uint32_t *q = (uint32_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, (uint32_t)atomic_new(in, old, b, c), false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        ;
    return old;
}

static bool
one_address(const uint64_t *addr, uint32_t m)
{
    uint64_t first = addr[__builtin_ctz(m)];
    FOR_LANES(m)
    {
        if (addr[l] != first)
            return false;
    }
    return true;
}

/* atom{.space}.op.type d, [a], b{, c}: d = old, [a] = old op b; red: no d. Lanes in order. */
static int
exec_atom(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    unsigned ai = lab_sim__addr_index(in->op); /* [a]: o[1] after atom's d, o[0] for red */
    const sim_opnd *ao = &in->o[ai];
    uint64_t tb[32], tc[32], addr[32];
    uint8_t spaces[32];
    const uint64_t *b = src(wk, w, &in->o[ai + 1], tb);
    const uint64_t *c = in->sub == AOP_CAS ? src(wk, w, &in->o[ai + 2], tc) : tb;
    const uint64_t *base = ao->reg >= 0 ? &w->r[(size_t)ao->reg * 32] : NULL;
    uint32_t bytes = width(in->type) / 8;
    sim_space space = (sim_space)in->space;
    bool checks = wk->L->checks;

    if (ao->kind != O_MEM)
        return lab_sim__unsupported(wk, in, "an address operand that is not [..]");
    if (space == SP_GENERIC && ao->reg < 0 && ao->space != SP_GENERIC)
        space = (sim_space)ao->space;
    FOR_LANES(m)
    {
        resolved r;
        uint64_t old;
        addr[l] = (base ? base[l] : 0) + (uint64_t)ao->imm;
        if (!resolve(wk, w, l, in, space, addr[l], bytes, true, &r))
            return -1;
        if (r.space != SP_GLOBAL && r.space != SP_SHARED)
            return lab_sim__unsupported(wk, in, "atomics outside global and shared memory");
        spaces[l] = (uint8_t)r.space;
        if (r.space == SP_SHARED)
            addr[l] &= ~SIM_TAG_MASK;
        /* an atomic other than exch reads the word: one no thread of the block wrote holds
         * what an earlier block left (not tracked otherwise: atomics race with nothing) */
        if (checks && r.space == SP_SHARED && in->sub != AOP_EXCH)
            lab_sim__check_uninit(wk, w, l, in, r.sh);
        old = atomic_apply(in, r.p, b[l], c[l]);
        if (ai == 1) /* atom's d */
            w->r[(size_t)in->o[0].reg * 32 + l] = old;
        if (checks && r.space == SP_SHARED)
            lab_sim__shadow_written(wk, r.sh);
        if (checks && (in->sub == AOP_CAS || in->sub == AOP_EXCH)) {
            uint64_t now = in->sub == AOP_EXCH                       ? zx(b[l], in->type)
                           : zx(old, in->type) == zx(b[l], in->type) ? zx(c[l], in->type)
                                                                     : zx(old, in->type);
            lab_sim__lock_atomic(wk, w, l, r.p, r.sh, zx(old, in->type), now, in->sub == AOP_CAS);
        }
    }
    /* ptxas turns a 32-bit integer add that every lane makes to one address into one lane's
     * atomic of the warp's sum (recorded on the H100: 1 sector per warp, where a float add
     * is 32); the counts follow SASS */
    if (in->sub == AOP_ADD && !is_float(in->type) && bytes == 4 && one_address(addr, m))
        m &= -m;
    count_access(wk, addr, spaces, m, bytes, SIM_ACCESS_ATOM);
    return 0;
}

/* ---- warp-level ---------------------------------------------------------- */

/* The *.sync warp operations take each executing lane's own member mask: lanes that give the
 * same mask are one group (a cooperative-groups tile of 16 lanes gives 0x0000ffff in its first
 * half, 0xffff0000 in its second), and a group's result covers its lanes only.  Each lane's mask
 * in masks (the operand's; all lanes without one) */
static void
lane_masks(sim_worker *wk, sim_warp *w, uint32_t m, bool has_mask, const sim_opnd *o,
           uint32_t *masks)
{
    uint64_t t[32];
    const uint64_t *v = has_mask ? src(wk, w, o, t) : NULL;

    FOR_LANES(m) masks[l] = v ? (uint32_t)v[l] : 0xffffffffu;
}

/* The lanes of m that gave the mask of lane first */
static uint32_t
group_of(const uint32_t *masks, uint32_t m, int first)
{
    uint32_t g = 0;

    FOR_LANES(m)
    {
        if (masks[l] == masks[first])
            g |= 1u << l;
    }
    return g;
}

/* The member-mask rules (PTX ISA, shfl.sync and the rest): each lane that executes the operation
 * is in its own mask, the lanes a mask names give that mask, and every lane a mask names
 * executes the operation with it (here, in this step of the warp).  A lane named that does not
 * take part (it has returned, or is on another path) leaves the result undefined, whatever a
 * given GPU does with it: a finding where it happens.  false when a rule is broken. */
static bool
check_group(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m, uint32_t g, uint32_t mask,
            const uint32_t *masks)
{
    uint32_t outside = g & ~mask, other = mask & m & ~g, missing = mask & ~m & w->valid;

    if (!wk->L->checks || (!outside && !other && !missing))
        return true;
    if (outside)
        lab_sim__finding(wk, w, __builtin_ctz(outside), in, LAB_SIM_CHECK_SYNC_MASK, false,
                         N_("'%s' executed by a lane outside its member mask 0x%08x"), in->text,
                         mask);
    else if (other)
        lab_sim__finding(wk, w, __builtin_ctz(g), in, LAB_SIM_CHECK_SYNC_MASK, false,
                         N_("'%s' with member mask 0x%08x, where lane %d of the mask gives "
                            "0x%08x: the lanes of one operation must give the same mask"),
                         in->text, mask, __builtin_ctz(other), masks[__builtin_ctz(other)]);
    else
        lab_sim__finding(wk, w, __builtin_ctz(g), in, LAB_SIM_CHECK_SYNC_MASK, false,
                         N_("'%s' with mask 0x%08x run by lanes 0x%08x only: lane %d, named in "
                            "the mask, does not take part (returned, or on another path): "
                            "undefined"),
                         in->text, mask, g, __builtin_ctz(missing));
    return false;
}

/* The warp operations compute, for every lane of m, d (res) and the predicate p (pv) of the
 * forms that have one from a, the o[1] of every lane; exec_warp writes them. */

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask: d = a of the lane that b and c name, p whether
 * it is in range (PTX ISA pseudo-code) */
static void
shfl_lanes(sim_worker *wk, const sim_warp *w, const sim_insn *in, uint32_t m, const uint64_t *a,
           uint64_t *res, uint64_t *pv)
{
    uint64_t tb[32], tc[32];
    const uint64_t *b = src(wk, w, &in->o[2], tb), *c = src(wk, w, &in->o[3], tc);

    FOR_LANES(m)
    {
        uint32_t bval = (uint32_t)b[l] & 0x1f, cval = (uint32_t)c[l];
        uint32_t clamp = cval & 0x1f, segmask = (cval >> 8) & 0x1f;
        uint32_t maxl = ((uint32_t)l & segmask) | (clamp & ~segmask), minl = (uint32_t)l & segmask;
        int32_t j;
        bool p;
        switch (in->sub) {
        case SHFL_UP:
            j = l - (int32_t)bval;
            p = j >= (int32_t)maxl;
            break;
        case SHFL_DOWN:
            j = l + (int32_t)bval;
            p = j <= (int32_t)maxl;
            break;
        case SHFL_BFLY:
            j = l ^ (int32_t)bval;
            p = j <= (int32_t)maxl;
            break;
        default:
            j = (int32_t)(minl | (bval & ~segmask));
            p = j <= (int32_t)maxl;
            break;
        }
        if (!p)
            j = l;
        if (!(m >> j & 1u) && wk->L->checks)
            lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_SYNC_MASK, false,
                             N_("'%s': lane %d reads lane %d, which does not take part (the "
                                "value is undefined)"),
                             in->text, l, j);
        res[l] = (uint32_t)a[j];
        pv[l] = p;
    }
}

/* vote.sync.{all,any,uni}.pred d, {!}a, mask: whether a holds in all, any, all or none of the
 * lanes; vote.sync.ballot.b32 d, {!}a, mask: the lanes where it holds */
static void
vote_lanes(const sim_insn *in, uint32_t m, const uint64_t *a, uint64_t *res)
{
    uint32_t ballot = 0;
    uint64_t r;

    FOR_LANES(m)
    {
        if ((a[l] != 0) != in->o[1].neg)
            ballot |= 1u << l;
    }
    switch (in->sub) {
    case VOTE_ALL:
        r = ballot == m;
        break;
    case VOTE_ANY:
        r = ballot != 0;
        break;
    case VOTE_UNI:
        r = ballot == 0 || ballot == m;
        break;
    default:
        r = ballot;
        break;
    }
    FOR_LANES(m) res[l] = r;
}

/* match.any.sync.b32 d, a, mask: the lanes holding my value; match.all.sync d|p, a, mask: the
 * lanes if all hold the same value (p), else 0 */
static void
match_lanes(const sim_insn *in, uint32_t m, const uint64_t *a, uint64_t *res, uint64_t *pv)
{
    bool all = true;

    FOR_LANES(m)
    {
        uint32_t same = 0;
        for (int k = 0; k < 32; k++)
            if ((m >> k & 1u) && zx(a[k], in->type) == zx(a[l], in->type))
                same |= 1u << k;
        res[l] = same;
        if (same != m)
            all = false;
    }
    if (in->sub == VOTE_ALL)
        FOR_LANES(m)
        {
            res[l] = all ? m : 0;
            pv[l] = all;
        }
}

/* redux.sync.op.type d, a, mask: the operation over the lanes of the mask */
static int
redux_lanes(sim_worker *wk, const sim_insn *in, uint32_t m, const uint64_t *a, uint64_t *res)
{
    uint32_t r = 0;
    bool first = true;

    FOR_LANES(m)
    {
        uint32_t v = (uint32_t)a[l];
        if (first) {
            r = v;
            first = false;
            continue;
        }
        switch (in->sub) {
        case AOP_ADD:
            r += v;
            break;
        case AOP_MIN:
            r = is_signed(in->type) ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r);
            break;
        case AOP_MAX:
            r = is_signed(in->type) ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r);
            break;
        case AOP_AND:
            r &= v;
            break;
        case AOP_OR:
            r |= v;
            break;
        case AOP_XOR:
            r ^= v;
            break;
        default:
            return lab_sim__unsupported(wk, in, "this redux operation");
        }
    }
    FOR_LANES(m) res[l] = r;
    return 0;
}

/* shfl vote match redux: the member mask is the last operand of the .sync forms (ops.def's most
 * operands; all lanes without one); each group of lanes with one mask exchanges values among
 * itself, and the operation synchronises them (checks.c: a warp-synchronisation count) */
static int
exec_warp(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t ta[32], res[32], pv[32] = { 0 };
    const uint64_t *a = src(wk, w, &in->o[1], ta);
    uint32_t masks[32];

    lane_masks(wk, w, m, in->nops == lab_sim__ops[in->op].max, &in->o[in->nops - 1], masks);
    for (uint32_t rest = m; rest;) {
        int first = __builtin_ctz(rest);
        uint32_t g = group_of(masks, rest, first);
        check_group(wk, w, in, m, g, masks[first], masks);
        switch (in->op) {
        case SIM_OP_SHFL: /* shfl.sync: d = a of another lane of the group */
            shfl_lanes(wk, w, in, g, a, res, pv);
            break;
        case SIM_OP_VOTE: /* vote.sync: the group's predicates combined */
            vote_lanes(in, g, a, res);
            break;
        case SIM_OP_MATCH: /* match.sync: the lanes of the group holding the same value */
            match_lanes(in, g, a, res, pv);
            break;
        case SIM_OP_REDUX: /* redux.sync: a reduction over the group */
            if (redux_lanes(wk, in, g, a, res) < 0)
                return -1;
            break;
        default:
            return lab_sim__unsupported(wk, in, "this warp operation");
        }
        rest &= ~g;
    }
    FOR_LANES(m)
    {
        w->r[(size_t)in->o[0].reg * 32 + l] = res[l];
        if (in->o[0].reg2 >= 0)
            w->r[(size_t)in->o[0].reg2 * 32 + l] = pv[l];
    }
    w->wsync++;
    return 0;
}

/* ---- the warp loop ------------------------------------------------------- */

typedef int (*sim_alu)(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m);

/* Runs an arithmetic instruction in its rounding mode: .rz, .rm and .rp (only floating-point
 * results have them) set the host's for the instruction's duration; .rn is the default. */
static int
rounded(sim_alu fn, sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    static const int mode[] = {
        [RND_RZ] = FE_TOWARDZERO, [RND_RM] = FE_DOWNWARD, [RND_RP] = FE_UPWARD
    };
    int rc;

    if (in->rnd < RND_RZ || in->rnd > RND_RP)
        return fn(wk, w, in, m);
    fesetround(mode[in->rnd]);
    rc = fn(wk, w, in, m);
    fesetround(FE_TONEAREST);
    return rc;
}

static void
retire(sim_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    for (int i = 0; i < w->sp; i++)
        w->stack[i].mask &= ~lanes;
}

static int
push(sim_worker *wk, sim_warp *w, const sim_insn *in, int32_t pc, int32_t rpc, uint32_t mask)
{
    if (w->sp == SIM_STACK_MAX)
        return lab_sim__unsupported(wk, in, "divergence nested deeper than the simulator's stack");
    w->stack[w->sp++] = (sim_entry){ pc, rpc, mask };
    return 0;
}

/* bra{.uni} target: uniform, or split at the ipdom */
static int
exec_bra(sim_worker *wk, sim_warp *w, const sim_insn *in, sim_entry *e, uint32_t active,
         uint32_t taken)
{
    uint32_t not_taken = active & ~taken;
    int32_t next = e->pc + 1;

    wk->metrics.branches++;
    if (in->guard >= 0)
        lab_sim__count_branch(wk->L->m, in, not_taken && taken);
    if (not_taken == 0) {
        e->pc = in->target;
        return 0;
    }
    if (taken == 0) {
        e->pc = next;
        return 0;
    }
    wk->metrics.divergent++;
    if ((in->flags & F_UNI) && wk->L->checks)
        lab_sim__finding(wk, w, __builtin_ctz(taken), in, LAB_SIM_CHECK_SYNC_MASK, false,
                         N_("bra.uni taken by lanes 0x%08x of 0x%08x: the branch is not uniform"),
                         taken, active);
    e->pc = in->rpc;
    /* the taken lanes run first; when they only return, they leave before any barrier */
    if (push(wk, w, in, next, in->rpc, not_taken) < 0 ||
        push(wk, w, in, in->target, in->rpc, taken) < 0)
        return -1;
    return 0;
}

static int
exec_barrier(sim_worker *wk, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint32_t live = w->valid & ~w->exited;

    if (in->sub == BAR_WARP) { /* bar.warp.sync membermask: each lane's, as exec_warp's */
        uint32_t masks[32];
        lane_masks(wk, w, m, true, &in->o[0], masks);
        for (uint32_t rest = m; rest;) {
            uint32_t g = group_of(masks, rest, __builtin_ctz(rest));
            check_group(wk, w, in, m, g, masks[__builtin_ctz(rest)], masks);
            rest &= ~g;
        }
        w->wsync++;
        return 0;
    }
    if (in->sub == BAR_RED) { /* bar.red.op d, a{, b}, {!}c: c's lanes counted; d when it opens */
        uint64_t tc[32];
        const sim_opnd *co = &in->o[in->nops - 1];
        const uint64_t *c = src(wk, w, co, tc);
        FOR_LANES(m) wk->red_true += (c[l] != 0) != co->neg;
        wk->red_lanes += lanes_of(m);
        w->red = in;
        w->red_mask = m;
    }
    if (in->sub == BAR_ARRIVE)
        return 0;
    if (m != live && wk->L->checks)
        lab_sim__finding(wk, w, __builtin_ctz(live & ~m), in, LAB_SIM_CHECK_DIVERGENT_BARRIER,
                         false,
                         N_("__syncthreads() reached by lanes 0x%08x of warp %u only (lanes "
                            "0x%08x are on another path)"),
                         m, w->index, live & ~m);
    w->at_barrier = true;
    return RUN_BARRIER;
}

/* The barrier w waited at opens: a bar.red's d, for the lanes that arrived, is the reduction over
 * the block's arrived lanes of c: .popc the count where it holds, .and whether it holds in all,
 * .or whether it holds in any. */
static void
barrier_opens(sim_worker *wk, sim_warp *w)
{
    const sim_insn *in = w->red;
    uint64_t *d, v;

    w->at_barrier = false;
    if (!in)
        return;
    d = dst(w, &in->o[0]);
    v = in->red == AOP_ADD   ? wk->red_true
        : in->red == AOP_AND ? wk->red_true == wk->red_lanes
                             : wk->red_true != 0;
    FOR_LANES(w->red_mask) d[l] = v;
    w->red = NULL;
}

/* ---- calls --------------------------------------------------------------- */

enum { RUN_CALLED = 2 }; /* exec_call: the warp runs the callee now (or split by callee) */

/* The registers and frame of the function that runs at call depth n (0: the kernel). */
static void
enter_frame(sim_worker *wk, sim_warp *w, uint32_t n)
{
    const sim_frame *fr = n ? &w->frames[n - 1] : NULL;

    w->nframes = n;
    w->f = fr ? fr->f : wk->L->f;
    w->r = fr ? w->rstack + fr->roff : w->kregs;
    w->local_base = fr ? fr->local_base : 0;
    w->local_top = w->local_base + w->f->local_bytes;
}

/* The lanes m of the running function return from it: they wait for the rest of its lanes. */
static void
leave_frame(sim_warp *w, uint32_t m)
{
    for (int i = w->frames[w->nframes - 1].base; i < w->sp; i++)
        w->stack[i].mask &= ~m;
}

/* The callee's entries are all done: its return value goes to each lane's call sequence, and the
 * caller goes on after the call. */
static void
call_return(sim_worker *wk, sim_warp *w)
{
    const sim_frame fr = w->frames[w->nframes - 1];
    const sim_call *c = fr.call->call;
    uint32_t lanes = fr.mask & ~w->exited;

    enter_frame(wk, w, w->nframes - 1);
    if (c->ret >= 0 && fr.f->ret_offset >= 0)
        FOR_LANES(lanes)
        {
            uint8_t *mem = lab_sim__local(wk, w, l);
            memcpy(mem + w->local_base + (uint32_t)c->ret, mem + fr.local_base + fr.f->ret_offset,
                   fr.f->ret_bytes);
        }
    w->rtop = fr.roff;
    w->stack[w->sp - 1].pc++;
}

/* The top entry is done; when it was a call's last, the call returns. */
static void
pop_entry(sim_worker *wk, sim_warp *w)
{
    w->sp--;
    if (w->nframes && w->sp == w->frames[w->nframes - 1].base)
        call_return(wk, w);
}

/* The function lane l calls: the module's, by its index in fnames; -1 after a finding. */
static int32_t
callee_of(sim_worker *wk, const sim_warp *w, int l, const sim_insn *in)
{
    const sim_call *c = in->call;
    const lab_sim_module *m = wk->L->m;
    uint64_t a;

    if (c->callee >= 0)
        return c->callee;
    a = w->r[(size_t)c->fptr * 32 + l];
    if ((a & SIM_TAG_MASK) == SIM_FUNC_TAG && (a & ~SIM_TAG_MASK) < m->nfnames &&
        !lab_sim__entry(m, m->fnames[a & ~SIM_TAG_MASK]))
        return (int32_t)(a & ~SIM_TAG_MASK);
    lab_sim__finding(wk, w, l, in, LAB_SIM_CHECK_BAD_CALL, true,
                     N_("call through 0x%llx, which is not the address of a device function"),
                     (unsigned long long)a);
    return -1;
}

/* call{.uni} (ret), func, (args): the lanes m run func in a frame of their own, its parameters
 * copied from the call sequence's arguments; lanes that call different functions through a
 * pointer call one function at a time.  RUN_CALLED when the warp goes on in the callee. */
static int
exec_call(sim_worker *wk, sim_warp *w, const sim_insn *in, sim_entry *e, uint32_t m)
{
    const lab_sim_module *mod = wk->L->m;
    const sim_call *c = in->call;
    const sim_func *callee;
    uint32_t same = 0, base, stack;
    int32_t id = -1;
    sim_frame *fr;

    FOR_LANES(m)
    {
        int32_t mine = callee_of(wk, w, l, in);
        if (mine < 0)
            return -1;
        if (id < 0)
            id = mine;
        if (mine == id)
            same |= 1u << l;
    }
    if (id < 0)
        return 0;
    if (same != m) { /* one function at a time; then all go on after the call */
        int32_t pc = e->pc;
        e->pc++;
        if (push(wk, w, in, pc, pc + 1, m & ~same) < 0 || push(wk, w, in, pc, pc + 1, same) < 0)
            return -1;
        return RUN_CALLED;
    }
    if (!(callee = mod->fdefs[id]))
        return lab_sim__unsupported(wk, in,
                                    "calls of functions the module only declares (another "
                                    "file's, linked with -rdc=true)");
    base = (w->local_top + 7u) / 8u * 8u;
    stack = (w->nframes ? w->frames[w->nframes - 1].stack : 0) + SIM_FRAME_LINK +
            (callee->local_bytes - callee->arg_bytes - callee->callseq_bytes);
    if (stack > SIM_CALL_STACK) {
        lab_sim__finding(wk, w, __builtin_ctz(m), in, LAB_SIM_CHECK_STACK_OVERFLOW, true,
                         N_("kernel '%s' calls '%s' at call depth %u, past the %u-byte stack of "
                            "a thread (the GPU's default, cudaLimitStackSize): endless "
                            "recursion?"),
                         wk->L->f->name, callee->name, w->nframes + 1, SIM_CALL_STACK);
        return -1;
    }
    if ((uint64_t)base + callee->local_bytes > wk->L->local_stride)
        return lab_sim__unsupported(wk, in, "call frames past the simulator's room for them");
    if (!lab_sim__reserve((void **)&w->frames, w->nframes, 1, &w->framecap, sizeof(*fr)) ||
        !lab_sim__reserve((void **)&w->rstack, w->rtop, (size_t)callee->nregs * 32, &w->rcap,
                          sizeof(uint64_t)))
        return lab_sim__launch_error(wk, in, "out of memory for a call");
    fr = &w->frames[w->nframes];
    *fr = (sim_frame){ callee, in, w->sp, m, base, stack, w->rtop };
    memset(w->rstack + w->rtop, 0, (size_t)callee->nregs * 32 * sizeof(uint64_t));
    w->rtop += (size_t)callee->nregs * 32;
    FOR_LANES(m)
    {
        uint8_t *mem = lab_sim__local(wk, w, l);
        memset(mem + base, 0, callee->local_bytes);
        for (uint32_t k = 0; k < c->nargs && k < callee->nparams; k++)
            memcpy(mem + base + callee->params[k].offset, mem + w->local_base + c->args[k],
                   callee->params[k].size);
    }
    enter_frame(wk, w, w->nframes + 1);
    if (push(wk, w, in, 0, SIM_PC_EXIT, m) < 0)
        return -1;
    return RUN_CALLED;
}

/* ---- the loads' latencies (metrics.gld_rounds) ----------------------------- */

static inline uint32_t
later(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* The round in which in can issue: when its sources are there (its operands but a written
 * first one, an address's base, the guard), and not before the stretch of code began.  With no
 * load in flight past that, every value is there. */
static uint32_t
issue_round(const sim_warp *w, const sim_insn *in)
{
    uint32_t t = w->start;

    if (w->horizon <= t)
        return t;
    if (in->guard >= 0)
        t = later(t, w->ready[in->guard]);
    for (unsigned k = 0; k < in->nops; k++) {
        const sim_opnd *o = &in->o[k];
        if (o->kind == O_MEM && o->reg >= 0)
            t = later(t, w->ready[o->reg]);
        else if (k > 0 && o->kind == O_REG)
            t = later(t, w->ready[o->reg]);
        for (unsigned v = 0; k > 0 && o->kind == O_VEC && v < o->nvec; v++)
            if (lab_sim__vec_reg(o, v) >= 0)
                t = later(t, w->ready[lab_sim__vec_reg(o, v)]);
    }
    return t;
}

/* in issued in round t wrote its first operand's registers: a global load's (or atomic's)
 * value is there a round later, anything else's at once */
static void
note_written(sim_warp *w, const sim_insn *in, uint32_t t, bool loaded)
{
    const sim_opnd *d = &in->o[0];
    uint32_t when = loaded ? t + 1 : t;
    unsigned n = d->kind == O_VEC ? d->nvec : 1;

    if (!loaded && w->horizon <= w->start) /* nothing in flight: every value is there */
        return;
    if (in->nops == 0 || (d->kind != O_REG && d->kind != O_VEC))
        return;
    for (unsigned k = 0; k < n; k++) {
        int32_t reg = d->kind == O_VEC ? lab_sim__vec_reg(d, k) : d->reg;
        if (reg >= 0)
            w->ready[reg] = when;
    }
    if (d->kind == O_REG && d->reg2 >= 0)
        w->ready[d->reg2] = when;
    w->horizon = later(w->horizon, when);
}

/* Runs w until it exits (RUN_DONE), waits at a barrier (RUN_BARRIER) or fails (<0); or, in a
 * block of several warps, yields after SIM_SLICE instructions (RUN_YIELD) so that a warp that
 * spins on what another warp writes (cooperative groups' multi-warp tiles) lets it run. */
#define SIM_SLICE (16u * 8192u)
static int
run_warp(sim_worker *wk, sim_warp *w)
{
    const sim_func *f = w->f; /* the running function: changes at calls and returns */
    lab_sim_metrics *mt = &wk->metrics;
    uint32_t budget = 0, slices = 0;
    int rc;

    while (w->sp > 0) {
        sim_entry *e = &w->stack[w->sp - 1];
        if (e->pc == e->rpc || e->mask == 0) {
            pop_entry(wk, w);
            f = w->f;
            continue;
        }
        if ((uint32_t)e->pc >= f->ncode) { /* fell off the end: like ret */
            if (w->nframes)
                leave_frame(w, e->mask);
            else
                retire(w, e->mask);
            pop_entry(wk, w);
            f = w->f;
            continue;
        }
        if (++budget == 8192) {
            budget = 0;
            if (atomic_load_explicit(&wk->L->root->abort, memory_order_relaxed))
                return -1;
            if (++slices == SIM_SLICE / 8192 && wk->L->nwarps > 1)
                return RUN_YIELD;
        }
        const sim_insn *in = &f->code[e->pc];
        uint32_t active = e->mask, m = active;
        if (in->guard >= 0) { /* all 32 lanes, branch-free; then the active ones */
            uint32_t neg = in->guard_neg ? 0xffffffffu : 0;
            m = (true_lanes(&w->r[(size_t)in->guard * 32]) ^ neg) & active;
        }
        mt->warp_insts++;
        mt->thread_insts += active == 0xffffffffu ? 32 : lanes_of(active); /* SIMT efficiency */
        /* the loads' latencies, in the kernel's frame: a branch, barrier, exit or call ends
         * the stretch ptxas may reorder, so what follows waits for all it issued */
        uint32_t round = 0;
        const uint64_t loads = mt->gld_requests + mt->gatom_requests;
        if (!w->nframes) {
            round = issue_round(w, in);
            w->last = later(w->last, round);
            if ((in->cls == CL_BRANCH && !in->predicated) || in->cls == CL_BARRIER ||
                in->cls == CL_EXIT || in->cls == CL_CALL)
                w->start = w->last;
        }
        rc = 0;
        switch (in->cls) {
        case CL_BRANCH: /* bra{.uni} target: lanes with a true guard jump */
            if (exec_bra(wk, w, in, e, active, m) < 0)
                return -1;
            continue;
        case CL_EXIT: /* ret / exit in a kernel, exit anywhere: the lanes leave; ret in a
                         function: they return (once all its lanes have) */
            if (m == 0)
                break;
            if (in->op == SIM_OP_RET && w->nframes)
                leave_frame(w, m);
            else
                retire(w, m);
            if (e->mask == 0) {
                pop_entry(wk, w);
                f = w->f;
                continue;
            }
            break;
        case CL_MOVE: /* mov d, a (register, immediate, special register, address); {a,b} packs */
            if (in->o[1].kind == O_VEC || in->o[0].kind == O_VEC) {
                const sim_opnd *v = in->o[1].kind == O_VEC ? &in->o[1] : &in->o[0];
                unsigned part = width(in->type) / v->nvec;
                uint64_t pm = part >= 64 ? ~0ull : (1ull << part) - 1;
                FOR_LANES(m)
                {
                    if (in->o[1].kind == O_VEC) {
                        uint64_t r = 0;
                        for (int k = 0; k < v->nvec; k++)
                            if (v->vec[k] >= 0)
                                r |= (w->r[(size_t)v->vec[k] * 32 + l] & pm) << (k * part);
                        w->r[(size_t)in->o[0].reg * 32 + l] = r;
                    } else {
                        uint64_t s = w->r[(size_t)in->o[1].reg * 32 + l];
                        for (int k = 0; k < v->nvec; k++)
                            if (v->vec[k] >= 0)
                                w->r[(size_t)v->vec[k] * 32 + l] = (s >> (k * part)) & pm;
                    }
                }
                break;
            }
            {
                uint64_t t[32];
                const uint64_t *a = src(wk, w, &in->o[1], t);
                uint64_t *d = dst(w, &in->o[0]);
                if (in->type == T_PRED)
                    EACH_LANE(m, d[l] = a[l] != 0);
                else
                    EACH_LANE(m, d[l] = a[l]);
            }
            break;
        case CL_ADDRESS: { /* cvta.space d, a: to generic (tag); cvta.to.space: from generic */
            uint64_t t[32];
            const uint64_t *a = src(wk, w, &in->o[1], t);
            uint64_t *d = dst(w, &in->o[0]);
            uint64_t tag = in->space == SP_SHARED  ? SIM_SHARED_TAG
                           : in->space == SP_LOCAL ? SIM_LOCAL_TAG
                                                   : 0;
            FOR_LANES(m)
            {
                uint64_t v = (in->flags & F_TO) ? (tag ? a[l] & ~SIM_TAG_MASK : a[l]) : a[l] | tag;
                d[l] = trunc_to(v, in->type);
            }
            break;
        }
        case CL_UNARY: /* d = OP a: neg abs not cnot popc clz brev bfind sqrt rsqrt rcp ex2 lg2
                          sin cos, in the rounding mode of .rnd */
            rc = rounded(unary, wk, w, in, m);
            break;
        case CL_BINARY: /* d = a OP b: add sub mul div rem min max and or xor shl shr copysign */
            if ((in->op == SIM_OP_DIV || in->op == SIM_OP_REM) && !is_float(in->type) &&
                in->o[2].kind != O_IMM && m)
                mt->int_divs++; /* a dozen SASS instructions or more; by a constant, a few */
            rc = rounded(binary, wk, w, in, m);
            break;
        case CL_TERNARY: /* mad.lo/.hi/.wide d, a, b, c = a * b + c; fma.rn: rounded once */
            rc = rounded(ternary_mad, wk, w, in, m);
            break;
        case CL_BITS: /* bfe bfi prmt shf d, a, b, c{, e}: bit fields, byte permutes */
            rc = exec_bits(wk, w, in, m);
            break;
        case CL_COMPARE: /* setp.cmp.type p|q, a, b */
            rc = exec_setp(wk, w, in, m);
            break;
        case CL_SELECT: { /* selp.type d, a, b, c: d = c ? a : b */
            uint64_t ta[32], tb[32], tc[32];
            const uint64_t *a = src(wk, w, &in->o[1], ta), *b = src(wk, w, &in->o[2], tb),
                           *c = src(wk, w, &in->o[3], tc);
            uint64_t *d = dst(w, &in->o[0]);
            EACH_LANE(m, d[l] = ((c[l] != 0) != in->o[3].neg) ? a[l] : b[l]);
            break;
        }
        case CL_CONVERT: /* cvt.rnd.dtype.atype d, a */
            rc = rounded(exec_cvt, wk, w, in, m);
            break;
        case CL_CLASSIFY: { /* testp.op.type p, a: whether a is finite, infinite, a number, ... */
            uint64_t ta[32];
            const uint64_t *a = src(wk, w, &in->o[1], ta);
            uint64_t *d = dst(w, &in->o[0]);
            FOR_LANES(m)
            {
                double v = in->type == T_F32 ? as_f32(a[l]) : as_f64(a[l]);
                int c = fpclassify(v);
                d[l] = in->sub == TESTP_FINITE       ? isfinite(v)
                       : in->sub == TESTP_INFINITE   ? isinf(v)
                       : in->sub == TESTP_NUMBER     ? !isnan(v)
                       : in->sub == TESTP_NOTANUMBER ? isnan(v)
                       : in->sub == TESTP_NORMAL     ? c == FP_NORMAL
                                                     : c == FP_SUBNORMAL;
            }
            break;
        }
        case CL_LOAD:  /* ld{.space}{.vec}.type d, [a] / ldu */
        case CL_STORE: /* st{.space}{.vec}.type [a], b */
            rc = exec_ldst(wk, w, in, m);
            break;
        case CL_ATOMIC: /* atom.space.op.type d, [a], b: atomic read-modify-write; red: no d */
            rc = exec_atom(wk, w, in, m);
            break;
        case CL_BARRIER: /* bar.sync / barrier.sync: wait for the block; bar.warp.sync mask */
            if (m == 0)
                break;
            rc = exec_barrier(wk, w, in, m);
            if (rc == RUN_BARRIER) {
                e->pc++;
                return RUN_BARRIER;
            }
            break;
        case CL_FENCE: /* membar / fence: memory is sequentially consistent here; nanosleep.
                          A lane holding a lock may give it back by a plain store after one */
            w->fenced |= m & w->holding;
            break;
        case CL_HALF: { /* add sub mul fma neg abs min max of .f16, .bf16 and pairs (half.c) */
            uint64_t ta[32], tb[32], tc[32];
            const uint64_t *a = src_rare(wk, w, &in->o[1], ta),
                           *b = in->nops > 2 ? src_rare(wk, w, &in->o[2], tb) : a,
                           *c = in->nops > 3 ? src_rare(wk, w, &in->o[3], tc) : a;
            uint64_t *d = dst(w, &in->o[0]);
            EACH_LANE(m, d[l] = lab_sim__half_lane(in, a[l], b[l], c[l]));
            break;
        }
        case CL_TEXTURE: /* tex, suld, sust: texture and surface objects */
            if (m)
                rc = in->op == SIM_OP_TEX ? exec_tex(wk, w, in, m) : exec_surf(wk, w, in, m);
            break;
        case CL_WMMA: /* wmma: warp matrix multiply */
            rc = exec_wmma(wk, w, in, m);
            break;
        case CL_MBARRIER: /* mbarrier: barrier objects in shared memory */
            if (m)
                rc = exec_mbarrier(wk, w, in, m);
            break;
        case CL_COPY: /* cp.async: copied at once */
            if (m)
                rc = exec_cp_async(wk, w, in, m);
            break;
        case CL_WARP: /* shfl vote match redux .sync: lanes of the member mask exchange values */
            rc = exec_warp(wk, w, in, m);
            break;
        case CL_SPECIAL: {               /* activemask.b32 d: the lanes executing together */
            if (in->op == SIM_OP_TRAP) { /* trap: the kernel stops the launch (__trap()) */
                if (!m)
                    break;
                lab_sim__finding(wk, w, __builtin_ctz(m), in, LAB_SIM_CHECK_TRAP, true,
                                 N_("the kernel called __trap() (a GPU ends the launch with an "
                                    "unspecified launch failure)"));
                return -1;
            }
            if (in->op != SIM_OP_ACTIVEMASK) /* mov d, %envregN (parse.c) */
                return lab_sim__unsupported(wk, in,
                                            "grid-wide cooperative-groups sync (a cooperative "
                                            "launch: %envreg)");
            uint64_t *d = dst(w, &in->o[0]);
            EACH_LANE(m, d[l] = m);
            break;
        }
        case CL_CALL: /* call (ret), func, (args): a function of the module, in a frame of
                         its own; or the device library's: launches, printf, malloc (devlib.c) */
            if (in->sub != BI_NONE) {
                rc = lab_sim__call(wk, w, in, m);
                break;
            }
            if ((rc = exec_call(wk, w, in, e, m)) == RUN_CALLED) {
                f = w->f;
                continue;
            }
            break;
        default:
            return lab_sim__unsupported(wk, in, "this instruction");
        }
        if (rc < 0)
            return -1;
        if (!w->nframes)
            note_written(w, in, round, mt->gld_requests + mt->gatom_requests != loads);
        e->pc++;
    }
    mt->gld_rounds += w->last;
    w->done = true;
    return RUN_DONE;
}

int
lab_sim__run_block(sim_worker *wk, uint64_t linear)
{
    sim_launch *L = wk->L;
    uint32_t nregs = L->f->nregs;

    wk->block_linear = linear;
    lab_sim__pbufs_reset(wk);
    wk->ctaid[0] = (unsigned)(linear % L->grid[0]);
    wk->ctaid[1] = (unsigned)(linear / L->grid[0] % L->grid[1]);
    wk->ctaid[2] = (unsigned)(linear / ((uint64_t)L->grid[0] * L->grid[1]));
    wk->epoch = atomic_fetch_add(&L->sim->epoch, 1) + 1;
    wk->block_epoch = wk->epoch;
    wk->nlocks = 0;
    wk->red_true = wk->red_lanes = 0;
    if (L->shared_static)
        memset(wk->shared_static, 0, L->shared_static);
    if (L->shared_dyn)
        memset(wk->shared_dyn, 0, L->shared_dyn);
    memset(wk->shared_res, 0, SIM_RESERVED_BYTES);
    for (uint32_t i = 0; i < L->nwarps; i++) {
        sim_warp *w = &wk->warps[i];
        uint32_t first = i * 32, n = L->nthreads - first < 32 ? L->nthreads - first : 32;
        w->kregs = wk->regs + (size_t)i * nregs * 32;
        memset(w->kregs, 0, (size_t)nregs * 32 * sizeof(uint64_t));
        w->rtop = 0;
        enter_frame(wk, w, 0);
        w->ready = wk->ready + (size_t)i * nregs;
        memset(w->ready, 0, (size_t)nregs * sizeof(uint32_t));
        w->start = w->last = w->horizon = 0;
        w->valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
        w->exited = ~w->valid;
        w->sp = 1;
        w->stack[0] = (sim_entry){ 0, SIM_PC_EXIT, w->valid };
        w->at_barrier = w->done = false;
        w->red = NULL;
        w->index = i;
        w->wsync = 0;
        memset(w->held, 0, sizeof(w->held));
        w->holding = w->fenced = 0;
        for (int l = 0; l < 32 && !wk->tids_set; l++) { /* the same in every block */
            uint32_t t = first + (uint32_t)l;
            w->tid[0][l] = t % L->block[0];
            w->tid[1][l] = t / L->block[0] % L->block[1];
            w->tid[2][l] = t / (L->block[0] * L->block[1]);
        }
    }
    wk->tids_set = true;
    wk->metrics.warps += L->nwarps;
    for (;;) {
        uint32_t live = 0;
        bool yielded = false;
        for (uint32_t i = 0; i < L->nwarps; i++) {
            sim_warp *w = &wk->warps[i];
            int rc;
            if (w->done || w->at_barrier)
                continue;
            if ((rc = run_warp(wk, w)) < 0)
                return -1;
            yielded |= rc == RUN_YIELD;
        }
        if (yielded) /* a warp has more to run before the barrier opens */
            continue;
        for (uint32_t i = 0; i < L->nwarps; i++)
            if (!wk->warps[i].done) {
                live++;
                barrier_opens(wk, &wk->warps[i]); /* every live warp waits here: release */
            }
        wk->red_true = wk->red_lanes = 0;
        if (!live)
            return 0;
        wk->metrics.barrier_waits += live; /* the block waits for its slowest warp here */
        wk->epoch = atomic_fetch_add(&L->sim->epoch, 1) + 1;
    }
}
