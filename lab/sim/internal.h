/*
 * internal.h - what the files of lab/sim share (never included outside it).
 *
 * A module (parse.c) is an arena of functions; a function is an array of
 * decoded instructions with its registers numbered, its symbols resolved to
 * (space, offset) and, after cfg.c, every branch annotated with the pc where
 * its warp reconverges (the immediate post-dominator).  exec.c runs one
 * block's warps; launch.c spreads blocks over threads; memory.c owns global
 * memory; metrics.c and checks.c are called by exec.c per memory access.
 */
#ifndef LAB_SIM_INTERNAL_H
#define LAB_SIM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/util/arena.h"
#include "lab/util/buf.h"
#include "lab/sim/sim.h"

typedef enum sim_op {
#define X(e, s, cls, min, max, arity, o0, types) SIM_OP_##e,
#include "lab/sim/ops.def"
#undef X
    SIM_OP_COUNT
} sim_op;

/* What the executor does with an opcode (ops.def's class column). */
typedef enum sim_class {
    CL_MOVE,     /* mov d, a */
    CL_ADDRESS,  /* cvta: a generic address from a space's, or back */
    CL_UNARY,    /* d = OP a, one lane loop per opcode and type (exec.c: unary) */
    CL_BINARY,   /* d = a OP b (binary) */
    CL_TERNARY,  /* d = a * b + c: mad, fma (ternary_mad) */
    CL_BITS,     /* bit fields and byte permutes: bfe, bfi, prmt, shf (exec_bits) */
    CL_COMPARE,  /* setp */
    CL_SELECT,   /* selp */
    CL_CONVERT,  /* cvt */
    CL_CLASSIFY, /* testp */
    CL_LOAD,     /* ld, ldu */
    CL_STORE,    /* st */
    CL_ATOMIC,   /* atom, red */
    CL_BRANCH,   /* bra: ends a basic block, reconverges at its ipdom (cfg.c) */
    CL_EXIT,     /* ret, exit: end a block, retire the lanes */
    CL_CALL,    /* call: a function of the module (exec_call), or the device library's (devlib.c) */
    CL_BARRIER, /* bar, barrier */
    CL_FENCE,   /* membar, fence */
    CL_WARP,    /* shfl, vote, match, redux: lanes of a member mask exchange values */
    CL_SPECIAL, /* activemask: the warp's state */
    CL_COPY,    /* cp.async and its commit and wait (exec_cp_async) */
    CL_TEXTURE, /* tex, suld, sust (exec_tex, exec_surf, texture.c) */
    CL_HALF,    /* arithmetic on .f16, .bf16 and their pairs (parse.c moves it here; half.c) */
    CL_MBARRIER, /* mbarrier: shared-memory barrier objects (exec_mbarrier) */
    CL_WMMA,     /* wmma: warp matrix multiply (exec_wmma) */
    CL_COUNT
} sim_class;

/* Which operand count a form of an opcode takes, in its min..max (ops.def's arity column). */
typedef enum sim_arity {
    AR_RANGE,  /* any */
    AR_BOOLOP, /* max with .and/.or/.xor, else min */
    AR_CAS,    /* max with .cas, else min */
    AR_SYNC,   /* max with .sync, else min */
    AR_PAIR,   /* max to a pair of 16-bit floats (cvt.rn.f16x2.f32 d, a, b), else min */
    AR_BAR,    /* with .red min + 2 to max, else min to max - 2 */
} sim_arity;

/* ops.def's o0 column: whether o[0] is the operand the instruction writes */
enum { O0_SRC, O0_DST };

/* ops.def's types column: the types an arithmetic opcode has forms of */
enum {
    TY_INT = 1, /* integers, bits, .pred */
    TY_F32 = 2,
    TY_F64 = 4,
    TY_FLOAT = TY_F32 | TY_F64,
    TY_NUM = TY_INT | TY_FLOAT,
    TY_ALL = TY_NUM /* not an arithmetic class: its handler decides */
};

typedef struct sim_op_info {
    const char *name;
    uint8_t cls;      /* sim_class */
    uint8_t min, max; /* operands */
    uint8_t arity;    /* sim_arity */
    uint8_t dst;      /* O0_DST: o[0] is written, and an address operand is o[1] */
    uint8_t types;    /* TY_*: of an arithmetic class, the types it has forms of */
} sim_op_info;

/* One row per opcode, from ops.def (parse.c) */
extern const sim_op_info lab_sim__ops[SIM_OP_COUNT];

/* A memory instruction's address operand [a]: o[1] after a destination, else o[0] */
static inline unsigned
lab_sim__addr_index(unsigned op)
{
    return lab_sim__ops[op].dst == O0_DST ? 1 : 0;
}

typedef enum sim_type {
    T_NONE,
    T_B8,
    T_B16,
    T_B32,
    T_B64,
    T_U8,
    T_U16,
    T_U32,
    T_U64,
    T_S8,
    T_S16,
    T_S32,
    T_S64,
    T_F16,
    T_F32,
    T_F64,
    T_PRED,
    T_F16X2,  /* two .f16 in 32 bits, the first in the low half */
    T_BF16,   /* __nv_bfloat16 */
    T_BF16X2, /* two .bf16 */
    T_TF32,   /* wmma's tf32: a float's top 19 bits */
    T_COUNT
} sim_type;

typedef enum sim_space {
    SP_GENERIC,
    SP_GLOBAL,
    SP_SHARED,
    SP_LOCAL,
    SP_PARAM,
    SP_CONST,
    SP_COUNT
} sim_space;

/* comparison (setp), rounding (cvt), sub-operation (atom, vote, shfl, redux, ...) */
typedef enum sim_sub {
    SUB_NONE,
    /* comparisons */
    CMP_EQ,
    CMP_NE,
    CMP_LT,
    CMP_LE,
    CMP_GT,
    CMP_GE,
    CMP_LO,
    CMP_LS,
    CMP_HI,
    CMP_HS,
    CMP_EQU,
    CMP_NEU,
    CMP_LTU,
    CMP_LEU,
    CMP_GTU,
    CMP_GEU,
    CMP_NUM,
    CMP_NAN,
    /* atom / red / redux */
    AOP_ADD,
    AOP_MIN,
    AOP_MAX,
    AOP_INC,
    AOP_DEC,
    AOP_CAS,
    AOP_EXCH,
    AOP_AND,
    AOP_OR,
    AOP_XOR,
    /* shfl */
    SHFL_UP,
    SHFL_DOWN,
    SHFL_BFLY,
    SHFL_IDX,
    /* vote / match */
    VOTE_ALL,
    VOTE_ANY,
    VOTE_UNI,
    VOTE_BALLOT,
    /* bar */
    BAR_SYNC,
    BAR_ARRIVE,
    BAR_RED,
    BAR_WARP,
    /* testp */
    TESTP_FINITE,
    TESTP_INFINITE,
    TESTP_NUMBER,
    TESTP_NOTANUMBER,
    TESTP_NORMAL,
    TESTP_SUBNORMAL,
    /* cp.async */
    CP_ASYNC,
    CP_COMMIT,
    CP_WAIT,
    /* tex geometry */
    TEX_1D,
    TEX_2D,
    TEX_3D,
    TEX_A1D,
    TEX_A2D,
    TEX_CUBE,
    /* mbarrier (arrive: BAR_ARRIVE) and cp.async.bulk */
    MB_INIT,
    MB_ARRIVE_DROP,
    MB_WAIT,
    MB_INVAL,
    MB_COMPLETE_TX,
    CP_BULK,
    /* wmma (its shape in sim_insn.red: WM_M16N16K16 ..) */
    WM_LOAD,
    WM_STORE,
    WM_MMA,
    SUB_COUNT
} sim_sub;

enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI, RND_RNA };

/* flags */
#define F_FTZ 0x1u
#define F_SAT 0x2u
#define F_WIDE 0x4u
#define F_HI 0x8u
#define F_LO 0x10u
#define F_UNI 0x20u
#define F_VOLATILE 0x40u
#define F_APPROX 0x80u
#define F_TO 0x100u       /* cvta.to */
#define F_SHIFTAMT 0x200u /* bfind */
#define F_LEFT 0x400u     /* shf.l */
#define F_CLAMP 0x800u    /* shf.clamp */
#define F_BOOLAND 0x1000u
#define F_BOOLOR 0x2000u
#define F_BOOLXOR 0x4000u
#define F_CTA 0x8000u          /* scope .cta */
#define F_SYNC 0x10000u        /* shfl.sync, vote.sync, ... (the form with a member mask) */
#define F_ZERO 0x20000u        /* suld / sust .zero: out of the surface, nothing */
#define F_PARITY 0x40000u      /* mbarrier.try_wait.parity */
#define F_EXPECT 0x80000u      /* mbarrier.arrive.expect_tx, mbarrier.expect_tx */
#define F_MBAR 0x100000u       /* cp.async.mbarrier.arrive, cp.async.bulk...mbarrier::complete_tx */
#define F_NOINC 0x200000u      /* cp.async.mbarrier.arrive.noinc */
#define F_WM_A 0x400000u       /* wmma.load.a */
#define F_WM_B 0x800000u       /* wmma.load.b */
#define F_WM_C 0x1000000u      /* wmma.load.c */
#define F_WM_LAYOUT 0x2000000u /* wmma: a layout named */
#define F_WM_COL 0x4000000u    /* wmma: the (first) layout is .col */
#define F_WM_COLB 0x8000000u   /* wmma.mma: b's layout is .col */

typedef enum sim_opnd_kind {
    O_NONE,
    O_REG,
    O_IMM,
    O_SPECIAL,
    O_MEM,  /* [reg + imm] or [sym + imm] */
    O_ADDR, /* a symbol's address (mov %rd, sym) */
    O_VEC,  /* {a, b, ...} */
    O_LABEL
} sim_opnd_kind;

typedef enum sim_sreg {
    SR_TID_X,
    SR_TID_Y,
    SR_TID_Z,
    SR_NTID_X,
    SR_NTID_Y,
    SR_NTID_Z,
    SR_CTAID_X,
    SR_CTAID_Y,
    SR_CTAID_Z,
    SR_NCTAID_X,
    SR_NCTAID_Y,
    SR_NCTAID_Z,
    SR_LANEID,
    SR_WARPID,
    SR_NWARPID,
    SR_SMID,
    SR_NSMID,
    SR_LANEMASK_EQ,
    SR_LANEMASK_LT,
    SR_LANEMASK_LE,
    SR_LANEMASK_GT,
    SR_LANEMASK_GE,
    SR_CLOCK,
    SR_CLOCK64,
    SR_GLOBALTIMER,
    SR_GRIDID,
    SR_RES_BEGIN, /* %reserved_smem_offset_begin, _0 */
    SR_RES_END,
    SR_RES_CAP,
    SR_RES_1, /* %reserved_smem_offset_1: the second half */
    SR_COUNT
} sim_sreg;

enum { WM_NONE, WM_M16N16K16, WM_M16N16K8, WM_M8N8K4, WM_M32N8K16, WM_M8N32K16 };

typedef struct sim_opnd {
    uint8_t kind;
    uint8_t neg; /* !%p */
    uint8_t nvec;
    uint8_t space; /* of the symbol of O_MEM / O_ADDR */
    int32_t reg;   /* O_REG; O_MEM base register or -1; O_SPECIAL: sim_sreg */
    int32_t reg2;  /* second destination (shfl %r|%p, setp %p|%q) or -1 */
    int64_t imm;   /* O_IMM value bits; O_MEM/O_ADDR offset (symbol's included) */
    int32_t vec[4];
    uint8_t vec_imm;       /* bit i: vec[i] is an immediate index into... (unused: 0) */
    const uint64_t *splat; /* O_IMM / O_ADDR: imm in all 32 lanes, read like a register */
} sim_opnd;

#define SIM_MAX_OPNDS 6

/* A {vector}'s k-th register (-1: _): wmma's of up to 8 keep the 5th to 8th in reg, reg2 and
 * imm's halves, so that every instruction's operands stay as small as they were */
static inline void
lab_sim__vec_set(sim_opnd *o, unsigned k, int32_t r)
{
    if (k < 4)
        o->vec[k] = r;
    else if (k == 4)
        o->reg = r;
    else if (k == 5)
        o->reg2 = r;
    else if (k == 6)
        o->imm = (int64_t)(((uint64_t)o->imm & ~0xffffffffull) | (uint32_t)r);
    else
        o->imm = (int64_t)(((uint64_t)o->imm & 0xffffffffull) | (uint64_t)(uint32_t)r << 32);
}

static inline int32_t
lab_sim__vec_reg(const sim_opnd *o, unsigned k)
{
    return k < 4    ? o->vec[k]
           : k == 4 ? o->reg
           : k == 5 ? o->reg2
           : k == 6 ? (int32_t)(uint32_t)((uint64_t)o->imm & 0xffffffffu)
                    : (int32_t)(uint32_t)((uint64_t)o->imm >> 32);
}

/* A call of a function of the module, by the PTX .param calling convention (parse_call): the
 * caller's call sequence declares the arguments and the return value as .param variables, which
 * parse.c places in the caller's frame of local memory; the callee's parameters and return value
 * are the first bytes of its own frame (sim_func.params, ret_offset). */
typedef struct sim_call {
    int32_t callee; /* index in the module's fnames; -1: indirect, through the register fptr */
    int32_t fptr;   /* call %rd, (args), prototype: the register holding the callee's address */
    int32_t ret;    /* the caller's frame offset of the return value; -1: none */
    uint32_t nargs; /* arguments */
    uint32_t *args; /* their offsets in the caller's frame */
} sim_call;

typedef struct sim_insn {
    uint16_t op;
    uint8_t type;  /* the instruction's (destination) type */
    uint8_t type2; /* cvt's source type; setp's compared type is type */
    uint8_t space;
    uint8_t sub;
    uint8_t rnd;
    uint8_t nops;
    uint8_t vec;         /* 1, 2 or 4 */
    uint8_t exit_target; /* the branch target block only returns */
    uint8_t red;         /* bar.red's reduction: AOP_ADD (.popc), AOP_AND, AOP_OR */
    uint8_t predicated;  /* a short forward branch ptxas predicates (cfg.c) */
    uint32_t flags;
    int32_t guard; /* predicate register or -1 */
    uint8_t guard_neg;
    uint8_t cls;    /* sim_class: lab_sim__ops[op].cls, decoded once */
    int32_t target; /* branch target pc */
    int32_t rpc;    /* reconvergence pc (ipdom) of a branch; SIM_PC_EXIT */
    uint32_t line;  /* .loc */
    uint16_t file;
    uint16_t inl_file; /* inlined_at, 0 if none */
    uint32_t inl_line;
    uint32_t ptx_line;    /* line in the PTX text */
    const char *text;     /* the opcode as written (ld.global.u32), for messages */
    const sim_call *call; /* a call of a function of the module, else NULL */
    sim_opnd o[SIM_MAX_OPNDS];
} sim_insn;

#define SIM_PC_EXIT INT32_MAX

typedef struct sim_param {
    const char *name;
    uint32_t offset;
    uint32_t size;
} sim_param;

typedef struct sim_func {
    const char *name;
    bool entry;
    sim_insn *code;
    uint32_t ncode;
    uint32_t nregs;
    sim_param *params; /* a kernel's in .param; a function's at the start of its frame */
    uint32_t nparams;
    uint32_t param_bytes;
    int32_t ret_offset; /* a function's return value in its frame; -1: none (and kernels) */
    uint32_t ret_bytes;
    uint32_t arg_bytes;     /* a function's parameters and return value: its frame's first bytes */
    uint32_t callseq_bytes; /* of its frame, its call sequences' .params (registers on the GPU) */
    uint32_t shared_static; /* bytes of .shared declared in or used by the function */
    uint32_t shared_align;  /* alignment of the dynamic (extern) shared array */
    uint32_t local_bytes;
    struct sim_func *next;
} sim_func;

typedef struct sim_gvar {
    const char *name;
    sim_space space;
    uint64_t addr; /* global: device address; shared: offset in the block's shared window */
    uint64_t size;
    bool dynamic; /* extern .shared x[] */
    struct sim_gvar *next;
} sim_gvar;

/* Functions of CUDA's device library a call may name, which the simulator runs itself
 * (devlib.c): the device runtime's launches (dynamic parallelism, CUDA 12's CDP2, dynpar.c),
 * printf and assert.  A call of another function the module only declares fails when run,
 * naming it. */
typedef enum sim_builtin {
    BI_NONE,
    BI_PARAM_BUFFER, /* __cudaCDP2GetParameterBufferV2(func, grid, block, shmem) */
    BI_LAUNCH,       /* __cudaCDP2LaunchDeviceV2(buffer, stream) */
    BI_LAST_ERROR,   /* __cudaCDP2GetLastError(), __cudaCDP2PeekAtLastError() */
    BI_PRINTF,       /* vprintf(format, arguments): printf */
    BI_ASSERT,       /* __assertfail(message, file, line, function, char size): assert */
    BI_MALLOC,       /* malloc(size): a block of the device heap */
    BI_FREE,         /* free(pointer) */
    BI_COUNT
} sim_builtin;

struct lab_sim_module {
    lab_sim *sim;
    lab_arena arena;
    char *path;
    sim_func *funcs;
    sim_gvar *gvars;
    uint32_t module_shared; /* module-scope .shared bytes */
    const char *files[64];  /* .file N "path" */
    const char **fnames;    /* functions named by the module: a function's address is */
    uint32_t nfnames;       /* SIM_FUNC_TAG | its index here (malloc'd table) */
    uint32_t fnamecap;
    const sim_func **fdefs; /* by index in fnames: the function's body, or NULL (malloc'd) */
    bool uses_heap;         /* calls malloc */
    bool has_funcs;         /* functions with a body, callable: threads need a call stack */
    /* with lab_sim_set_branch_counts: per PTX line, the warps that executed its conditional
     * branch and those it split (2 counters a line, malloc'd; branches.c), else NULL */
    atomic_ullong *branch_counts;
    uint32_t branch_lines;
};

/* One allocation of global memory.  Device addresses are host addresses. */
typedef struct sim_alloc {
    uint64_t base;
    uint64_t size;
    void *mem;
    uint32_t *shadow; /* race shadow, 4 words per 4-byte word, or NULL */
} sim_alloc;

struct lab_sim {
    pthread_mutex_t lock; /* the allocation table */
    sim_alloc *allocs;    /* sorted by base */
    size_t nallocs, cap;
    unsigned threads;
    bool checks;
    bool branch_counts; /* modules loaded from now on count their branches (branches.c) */
    atomic_uint epoch;  /* barrier intervals, unique over the device's life (checks.c) */
    lab_sim_result last;
    lab_buf printf_text;     /* what the last launch printed (lab_sim_printf_text) */
    uint64_t printf_dropped; /* and the bytes it printed past them */
    /* the device heap of malloc and free in kernels: one allocation of LAB_SIM_HEAP_BYTES, made
     * when a module that calls malloc loads; its blocks in use, by offset (devlib.c) */
    uint64_t heap;
    pthread_mutex_t heap_lock;
    struct sim_heap_block *heap_blocks;
    size_t nheap_blocks, heap_cap;
    uint64_t max_launches; /* device-side launches per host launch (a runaway guard) */
    lab_sim_gpu gpu;       /* what %nsmid, %smid, %nwarpid, %warpid show */
    atomic_ullong grids;   /* launched so far, host's and device's: %gridid */
    lab_sim_texture textures[LAB_SIM_MAX_TEXTURES]; /* handle i + 1 (texture.c) */
    unsigned ntextures;
};

/* generic addresses of the shared and local windows (host pointers stay below 2^47) */
#define SIM_SHARED_TAG (1ull << 56)
#define SIM_LOCAL_TAG (2ull << 56)
#define SIM_TAG_MASK (0xffull << 56)
/* a function's address (mov.u64 %rd, kernel) and a device-side launch's parameter buffer */
#define SIM_FUNC_TAG (3ull << 56)
#define SIM_PBUF_TAG (4ull << 56)
/* shared-window offset of the dynamic (extern) shared array; statics start at 0 */
#define SIM_DYN_SHARED (1u << 24)
/* the block's reserved shared memory (1 KB on sm_80 and later: cooperative groups' scratch of
 * block_tile_memory, at %reserved_smem_offset_1), below the dynamic array */
#define SIM_RESERVED_SHARED (1u << 23)
#define SIM_RESERVED_BYTES 1024u

/* branches.c: counts one warp's conditional branch (diverged: it split the warp) when the module
 * counts them; allocating the counters when a module loads (0, or LAB_ENOMEM) */
static inline void
lab_sim__count_branch(lab_sim_module *m, const sim_insn *in, bool diverged)
{
    if (m->branch_counts && in->ptx_line < m->branch_lines) {
        atomic_fetch_add_explicit(&m->branch_counts[2 * in->ptx_line], 1, memory_order_relaxed);
        if (diverged)
            atomic_fetch_add_explicit(&m->branch_counts[2 * in->ptx_line + 1], 1,
                                      memory_order_relaxed);
    }
}
int lab_sim__branch_counts_init(lab_sim_module *m, lab_err *err);

/* checks.c: where in is, for messages: "file.cu:37" (+ " (inlined at file.cu:12)") from its .loc,
 * else "PTX line 51"; the file without its folders, never a build's path */
void lab_sim__where(const lab_sim_module *m, const sim_insn *in, char *buf, size_t len);
/* checks.c: err = LAB_ENOSYS, "the simulator does not support WHAT at WHERE; grade it on a GPU":
 * a construct the simulator cannot run, not a fault of the kernel (the grader's SIM_UNSUPPORTED) */
int lab_sim__unsupported_err(const lab_sim_module *m, const sim_insn *in, lab_err *err,
                             const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* parse.c / cfg.c */
int lab_sim__parse(lab_sim_module *m, const char *text, size_t len, lab_err *err);
int lab_sim__cfg(sim_func *f, lab_err *err);

/* A block of the device heap that malloc handed out */
typedef struct sim_heap_block {
    uint64_t off, size; /* in the heap; size rounded up to 16 bytes */
    uint64_t asked;     /* what malloc was asked for: the block's bounds */
} sim_heap_block;

/* devlib.c: the device's heap, made once (not during a launch) */
int lab_sim__heap_init(lab_sim *s, lab_err *err);
/* devlib.c: is [addr, addr + bytes) of the heap inside one block that malloc returned and free
 * did not take back?  If not, the block at or before addr goes in *near ({0} when none). */
bool lab_sim__heap_holds(lab_sim *s, uint64_t addr, uint64_t bytes, sim_heap_block *near);

/* module.c: the kernel (.entry with a body) of that name, or NULL */
const sim_func *lab_sim__entry(const lab_sim_module *m, const char *name);

/* memory.c: the allocation holding [addr, addr + bytes), or NULL */
const sim_alloc *lab_sim__find(lab_sim *s, uint64_t addr, uint64_t bytes);
/* half.c: 16-bit floats (.f16, .bf16) to and from wider ones; CL_HALF's instructions: which
 * half.c runs, and one lane of one (the pairs' two halves apart) */
float lab_sim__half_to_float(uint16_t h, bool bf);
uint16_t lab_sim__half_from_double(double v, bool bf);
bool lab_sim__half_supported(const sim_insn *in);
uint64_t lab_sim__half_lane(const sim_insn *in, uint64_t a, uint64_t b, uint64_t c);
/* texture.c: tex's fetch (geometry geom: TEX_1D ..) of the texture object handle at coord
 * (tex's vector: float bits, or integers with int_coords; a layered one's layer first) into out
 * (floats' bits with float_out, else the texel's integers); false if handle is no texture of s */
bool lab_sim__tex_fetch(const lab_sim *s, uint64_t handle, unsigned geom, bool int_coords,
                        const uint64_t coord[4], bool float_out, uint32_t out[4]);
/* texture.c: where suld / sust (geometry geom: TEX_1D ..) of bytes at coord (x in bytes; a
 * layered one's layer first) goes in the surface object handle: 0 and *p; out of the surface,
 * -1 (mode SURF_TRAP) or 1 (SURF_ZERO: loads read 0, stores do nothing); -2 no such surface */
enum { SURF_TRAP, SURF_CLAMP, SURF_ZERO };
int lab_sim__surf_at(const lab_sim *s, uint64_t handle, unsigned geom, const uint64_t coord[4],
                     uint32_t bytes, unsigned mode, uint8_t **p);
/* the allocation with the highest base at or below addr, or NULL (for messages) */
const sim_alloc *lab_sim__nearest(lab_sim *s, uint64_t addr);
int lab_sim__alloc_internal(lab_sim *s, size_t bytes, uint64_t *out, lab_err *err);
/* memory.c: bytes of zeroed memory aligned to align (a power of two, at least a pointer's size),
 * on huge pages when large; NULL: out of memory.  Freed with lab_sim__zfree, given the same
 * bytes. */
void *lab_sim__zalloc(size_t bytes, size_t align);
void lab_sim__zfree(void *p, size_t bytes);
/* Room for n more elements of size in the malloc'd array *p (used of *cap, which doubles);
 * false: out of memory, *p unchanged. */
bool lab_sim__reserve(void **p, size_t used, size_t n, size_t *cap, size_t size);

/* launch.c / exec.c */
typedef struct sim_worker sim_worker;
typedef struct sim_launch sim_launch;

#endif
