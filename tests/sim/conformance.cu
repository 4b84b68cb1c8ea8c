// tests/sim/conformance.cu - one-instruction conformance kernels: each runs ONE
// PTX instruction (inline asm, so nvcc can neither fold it nor assume undefined
// behaviour away) over a table of edge operands (tests/sim/conformance-edges.h)
// and writes the result's raw bits to out[i] (out[2i], out[2i + 1] for 64-bit
// results).  Thread i takes a = T[i % E], b = T[(i / E) % E], c = T[(i / E^2) % E].
//
// Every kernel is `(unsigned *out, unsigned n)`, the shape kernel-run launches
// generically: tests/test-sim-conf.c checks the simulator's bits against the
// PTX-defined results computed on the host; tests/gpu/record-sim.sh records the
// H100's bits and tests/e2e/test-sim-diff.sh compares them with the simulator's,
// bit-exactly, including what PTX leaves to the machine (x / 0, INT_MIN / -1).
#include "conformance-edges.h"

__device__ const unsigned conf_f32[] = { CONF_F32_EDGES };
__device__ const unsigned conf_cvt[] = { CONF_CVT_EDGES };
__device__ const unsigned conf_i32[] = { CONF_I32_EDGES };
__device__ const unsigned conf_i2f[] = { CONF_I2F_EDGES };
__device__ const unsigned conf_pos[] = { CONF_POS_EDGES };
__device__ const unsigned conf_i64[] = { CONF_I64_EDGES };

#define TID                                                                                        \
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i >= n)                                                                                    \
        return

// d = OP a (a from table T of E entries)
#define UNARY(NAME, INSN, T, E)                                                                    \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned a = T[i % E], d;                                                                  \
        asm volatile(INSN " %0, %1;" : "=r"(d) : "r"(a));                                          \
        out[i] = d;                                                                                \
    }

// d = a OP b
#define BINARY(NAME, INSN, T, E)                                                                   \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned a = T[i % E], b = T[(i / E) % E], d;                                              \
        asm volatile(INSN " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));                              \
        out[i] = d;                                                                                \
    }

// d = OP(a, b, c); c from table U of F entries
#define TERNARY(NAME, INSN, T, E, U, F)                                                            \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned a = T[i % E], b = T[(i / E) % E], c = U[(i / (E * E)) % F], d;                    \
        asm volatile(INSN " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));                  \
        out[i] = d;                                                                                \
    }

// 64-bit d = a OP b, written as two words (low first)
#define WIDE(NAME, INSN, T, E)                                                                     \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned a = T[i % E], b = T[(i / E) % E];                                                 \
        unsigned long long d;                                                                      \
        asm volatile(INSN " %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b));                              \
        out[2 * i] = (unsigned)d;                                                                  \
        out[2 * i + 1] = (unsigned)(d >> 32);                                                      \
    }

// the K-th 64-bit operand of conf_i64
#define OPERAND64(K) ((unsigned long long)conf_i64[2 * (K) + 1] << 32 | conf_i64[2 * (K)])

// f64 d = OP a, its bits split inside the asm (mov.b64 {lo, hi}): a st.u32 straight from the
// .b64 result makes ptxas convert the float to an integer (tests/fixtures/sim-diff/README.md)
#define UNARY_F64(NAME, INSN)                                                                      \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned long long a = OPERAND64(i % CONF_NL);                                             \
        unsigned lo, hi;                                                                           \
        asm volatile("{\n\t.reg .f64 t;\n\tmov.b64 t, %2;\n\t" INSN                              \
                     " t, t;\n\tmov.b64 {%0, %1}, t;\n\t}"                                         \
                     : "=r"(lo), "=r"(hi)                                                          \
                     : "l"(a));                                                                    \
        out[2 * i] = lo;                                                                           \
        out[2 * i + 1] = hi;                                                                       \
    }

// 64-bit d = a OP b (64-bit operands), written as two words (low first)
#define BINARY64(NAME, INSN)                                                                       \
    extern "C" __global__ void NAME(unsigned *out, unsigned n)                                     \
    {                                                                                              \
        TID;                                                                                       \
        unsigned long long a = OPERAND64(i % CONF_NL), b = OPERAND64((i / CONF_NL) % CONF_NL), d; \
        asm volatile(INSN " %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));                              \
        out[2 * i] = (unsigned)d;                                                                  \
        out[2 * i + 1] = (unsigned)(d >> 32);                                                      \
    }

// --- f32 arithmetic: IEEE round-to-nearest (NaN results: the GPU's canonical NaN) ---
BINARY(conf_add_f32, "add.rn.f32", conf_f32, CONF_NF)
BINARY(conf_sub_f32, "sub.rn.f32", conf_f32, CONF_NF)
BINARY(conf_mul_f32, "mul.rn.f32", conf_f32, CONF_NF)
BINARY(conf_div_f32, "div.rn.f32", conf_f32, CONF_NF)
BINARY(conf_min_f32, "min.f32", conf_f32, CONF_NF)
BINARY(conf_max_f32, "max.f32", conf_f32, CONF_NF)
BINARY(conf_add_ftz_f32, "add.rn.ftz.f32", conf_f32, CONF_NF)
BINARY(conf_mul_rz_f32, "mul.rz.f32", conf_f32, CONF_NF)
TERNARY(conf_fma_f32, "fma.rn.f32", conf_f32, CONF_NF, conf_f32, CONF_NF)
UNARY(conf_sqrt_f32, "sqrt.rn.f32", conf_cvt, CONF_NC)
UNARY(conf_rcp_f32, "rcp.rn.f32", conf_cvt, CONF_NC)
UNARY(conf_neg_f32, "neg.f32", conf_cvt, CONF_NC)
UNARY(conf_abs_f32, "abs.f32", conf_cvt, CONF_NC)
UNARY_F64(conf_neg_f64, "neg.f64")
UNARY_F64(conf_abs_f64, "abs.f64")

// --- conversions: float -> integer rounds, NaN -> 0, saturates; integer -> float rounds ---
UNARY(conf_cvt_rzi_s32_f32, "cvt.rzi.s32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rni_s32_f32, "cvt.rni.s32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rmi_s32_f32, "cvt.rmi.s32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rpi_s32_f32, "cvt.rpi.s32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rzi_u32_f32, "cvt.rzi.u32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rni_u32_f32, "cvt.rni.u32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rni_f32_f32, "cvt.rni.f32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rzi_f32_f32, "cvt.rzi.f32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_sat_f32_f32, "cvt.sat.f32.f32", conf_cvt, CONF_NC)
UNARY(conf_cvt_rn_f32_s32, "cvt.rn.f32.s32", conf_i2f, CONF_NJ)
UNARY(conf_cvt_rn_f32_u32, "cvt.rn.f32.u32", conf_i2f, CONF_NJ)
UNARY(conf_cvt_rz_f32_s32, "cvt.rz.f32.s32", conf_i2f, CONF_NJ)
UNARY(conf_cvt_rm_f32_u32, "cvt.rm.f32.u32", conf_i2f, CONF_NJ)
UNARY(conf_cvt_rp_f32_s32, "cvt.rp.f32.s32", conf_i2f, CONF_NJ)

// --- integer division (x / 0 and INT_MIN / -1 are left to the machine: GPU only) ---
BINARY(conf_div_s32, "div.s32", conf_i32, CONF_NI)
BINARY(conf_div_u32, "div.u32", conf_i32, CONF_NI)
BINARY(conf_rem_s32, "rem.s32", conf_i32, CONF_NI)
BINARY(conf_rem_u32, "rem.u32", conf_i32, CONF_NI)
// 64 bits: a subroutine in SASS, not one instruction
BINARY64(conf_div_s64, "div.s64")
BINARY64(conf_div_u64, "div.u64")
BINARY64(conf_rem_s64, "rem.s64")
BINARY64(conf_rem_u64, "rem.u64")

// --- integer multiply, add, min/max ---
BINARY(conf_mul_lo_s32, "mul.lo.s32", conf_i32, CONF_NI)
BINARY(conf_mul_hi_s32, "mul.hi.s32", conf_i32, CONF_NI)
BINARY(conf_mul_hi_u32, "mul.hi.u32", conf_i32, CONF_NI)
WIDE(conf_mul_wide_s32, "mul.wide.s32", conf_i32, CONF_NI)
WIDE(conf_mul_wide_u32, "mul.wide.u32", conf_i32, CONF_NI)
TERNARY(conf_mad_lo_s32, "mad.lo.s32", conf_i32, CONF_NI, conf_i32, CONF_NI)
BINARY(conf_add_sat_s32, "add.sat.s32", conf_i32, CONF_NI)
BINARY(conf_sub_sat_s32, "sub.sat.s32", conf_i32, CONF_NI)
BINARY(conf_min_s32, "min.s32", conf_i32, CONF_NI)
BINARY(conf_max_s32, "max.s32", conf_i32, CONF_NI)
BINARY(conf_min_u32, "min.u32", conf_i32, CONF_NI)
BINARY(conf_max_u32, "max.u32", conf_i32, CONF_NI)

// --- shifts (b = 0, 1, 2, 7, 31, 32, 33, 255, and huge counts) ---
BINARY(conf_shl_b32, "shl.b32", conf_i32, CONF_NI)
BINARY(conf_shr_b32, "shr.b32", conf_i32, CONF_NI)
BINARY(conf_shr_u32, "shr.u32", conf_i32, CONF_NI)
BINARY(conf_shr_s32, "shr.s32", conf_i32, CONF_NI)
TERNARY(conf_shf_l_wrap_b32, "shf.l.wrap.b32", conf_i32, CONF_NI, conf_i32, CONF_NI)
TERNARY(conf_shf_r_clamp_b32, "shf.r.clamp.b32", conf_i32, CONF_NI, conf_i32, CONF_NI)

// --- bit operations ---
UNARY(conf_popc_b32, "popc.b32", conf_i32, CONF_NI)
UNARY(conf_clz_b32, "clz.b32", conf_i32, CONF_NI)
UNARY(conf_brev_b32, "brev.b32", conf_i32, CONF_NI)
UNARY(conf_bfind_u32, "bfind.u32", conf_i32, CONF_NI)
UNARY(conf_bfind_s32, "bfind.s32", conf_i32, CONF_NI)
TERNARY(conf_bfe_u32, "bfe.u32", conf_i32, CONF_NI, conf_pos, CONF_NP)
TERNARY(conf_bfe_s32, "bfe.s32", conf_i32, CONF_NI, conf_pos, CONF_NP)

// bfi.b32 d, a, b, pos, len: pos and len vary fastest (all 64 pairs in 4096 threads), then a, b
extern "C" __global__ void conf_bfi_b32(unsigned *out, unsigned n)
{
    TID;
    unsigned pos = conf_pos[i % CONF_NP], len = conf_pos[(i / CONF_NP) % CONF_NP];
    unsigned a = conf_i32[(i / (CONF_NP * CONF_NP)) % CONF_NI];
    unsigned b = conf_i32[(i / (CONF_NP * CONF_NP * CONF_NI)) % CONF_NI], d;
    asm volatile("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(pos), "r"(len));
    out[i] = d;
}

// --- comparisons: bit k of out[i] is setp's k-th comparison of a and b, through selp ---
#define SETP(CMP, K)                                                                            \
    asm volatile("{\n\t.reg .pred p;\n\tsetp." CMP " p, %1, %2;\n\tselp.b32 %0, %3, 0, p;\n\t}"    \
                 : "=r"(bit)                                                                       \
                 : "r"(a), "r"(b), "r"(1u << (K)));                                                \
    d |= bit

extern "C" __global__ void conf_setp_f32(unsigned *out, unsigned n)
{
    TID;
    unsigned a = conf_f32[i % CONF_NF], b = conf_f32[(i / CONF_NF) % CONF_NF], d = 0, bit;
    SETP("eq.f32", 0);
    SETP("ne.f32", 1);
    SETP("lt.f32", 2);
    SETP("le.f32", 3);
    SETP("gt.f32", 4);
    SETP("ge.f32", 5);
    SETP("equ.f32", 6);
    SETP("neu.f32", 7);
    SETP("ltu.f32", 8);
    SETP("leu.f32", 9);
    SETP("gtu.f32", 10);
    SETP("geu.f32", 11);
    SETP("num.f32", 12);
    SETP("nan.f32", 13);
    SETP("eq.ftz.f32", 14);
    SETP("lt.ftz.f32", 15);
    out[i] = d;
}

extern "C" __global__ void conf_setp_i32(unsigned *out, unsigned n)
{
    TID;
    unsigned a = conf_i32[i % CONF_NI], b = conf_i32[(i / CONF_NI) % CONF_NI], d = 0, bit;
    SETP("eq.s32", 0);
    SETP("ne.s32", 1);
    SETP("lt.s32", 2);
    SETP("le.s32", 3);
    SETP("gt.s32", 4);
    SETP("ge.s32", 5);
    SETP("lt.u32", 6);
    SETP("le.u32", 7);
    SETP("gt.u32", 8);
    SETP("ge.u32", 9);
    SETP("lo.u32", 10);
    SETP("hs.u32", 11);
    out[i] = d;
}

// selp.b32 d, a, b, p with p = (a < b as f32): NaN operands pass through bit-exactly
extern "C" __global__ void conf_selp_b32(unsigned *out, unsigned n)
{
    TID;
    unsigned a = conf_f32[i % CONF_NF], b = conf_f32[(i / CONF_NF) % CONF_NF], d;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ltu.f32 p, %1, %2;\n\tselp.b32 %0, %1, %2, p;\n\t}"
                 : "=r"(d)
                 : "r"(a), "r"(b));
    out[i] = d;
}
