/*
 * parse.c - PTX text to decoded functions (see internal.h).
 *
 * A small lexer (identifiers keep their dots: "ld.global.u32", "%tid.x")
 * feeds a recursive-descent parser of the subset nvcc emits: module
 * directives, .global and .shared variables, .entry/.func with their .param
 * lists, and in a body .reg, .shared and .local declarations, .loc lines, labels
 * and instructions.  Every opcode modifier is looked up in one table, and
 * every instruction's operand count in its opcode's row of ops.def
 * (check_operands); an unknown opcode or modifier, or a wrong count, is an
 * error naming the instruction, the PTX line and the source line of the last
 * .loc.  Everything is allocated from the module's arena.
 */
#include "lab/sim/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a kernel may declare in total.  The GPU's own limit (ptxas refuses more, in these
 * words): local data per thread.  The simulator's own, each "not supported" (LAB_ENOSYS: no
 * fault of the student's): the registers of one function (each is 32
 * lanes of 8 bytes in every warp), the module's variables in global memory, which a GPU may
 * hold but the simulator does not take, and its static shared variables (a GPU takes 48 KiB
 * a kernel; the simulator lays out a module's together). */
#define GPU_LOCAL_MAX 0x80000u       /* 512 KiB per thread */
#define SIM_REGS_MAX 65536u          /* declared registers of one function */
#define SIM_GLOBALS_MAX (256u << 20) /* bytes of a module's .global and .const variables */
#define SIM_SHARED_MAX (16u << 20)   /* bytes of a module's static .shared variables */

const sim_op_info lab_sim__ops[SIM_OP_COUNT] = {
#define X(e, s, cls, min, max, arity, o0, types)                                                   \
    [SIM_OP_##e] = { s, CL_##cls, min, max, AR_##arity, O0_##o0, TY_##types },
#include "lab/sim/ops.def"
#undef X
};

#define X(e, s, cls, min, max, arity, o0, types)                                                   \
    _Static_assert(min <= max && max <= SIM_MAX_OPNDS && (AR_##arity != AR_BAR || min + 2 <= max), \
                   s ": operand counts out of order");
#include "lab/sim/ops.def"
#undef X

/* ---- lexer ------------------------------------------------------------- */

typedef enum { TK_EOF, TK_ID, TK_NUM, TK_STR, TK_PUNCT } tk_kind;

typedef struct tok {
    tk_kind kind;
    const char *s; /* into the text */
    size_t len;
    uint32_t line;
} tok;

typedef struct lexer {
    const char *p, *end;
    uint32_t line;
    tok cur;
} lexer;

static bool
id_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool
id_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '.';
}

static void
lex_next(lexer *lx)
{
    const char *p = lx->p;

    for (;;) {
        while (p < lx->end && isspace((unsigned char)*p)) {
            if (*p == '\n')
                lx->line++;
            p++;
        }
        if (p + 1 < lx->end && p[0] == '/' && p[1] == '/') {
            while (p < lx->end && *p != '\n')
                p++;
            continue;
        }
        if (p + 1 < lx->end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < lx->end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n')
                    lx->line++;
                p++;
            }
            p = p + 2 <= lx->end ? p + 2 : lx->end;
            continue;
        }
        break;
    }
    lx->cur.s = p;
    lx->cur.line = lx->line;
    if (p >= lx->end || !*p) {
        lx->cur.kind = TK_EOF;
        lx->cur.len = 0;
        lx->p = p;
        return;
    }
    if (id_start((unsigned char)*p)) {
        const char *q = p + 1;
        for (;;) {
            if (q < lx->end && id_char((unsigned char)*q))
                q++;
            else if (q + 2 < lx->end && q[0] == ':' && q[1] == ':' && id_char((unsigned char)q[2]))
                q += 2;
            else
                break;
        }
        lx->cur.kind = TK_ID;
        lx->cur.len = (size_t)(q - p);
        lx->p = q;
        return;
    }
    if (isdigit((unsigned char)*p)) {
        const char *q = p;
        while (q < lx->end && (isalnum((unsigned char)*q) || *q == '.'))
            q++;
        lx->cur.kind = TK_NUM;
        lx->cur.len = (size_t)(q - p);
        lx->p = q;
        return;
    }
    if (*p == '"') {
        const char *q = p + 1;
        while (q < lx->end && *q != '"' && *q != '\n')
            q++;
        lx->cur.kind = TK_STR;
        lx->cur.s = p + 1;
        lx->cur.len = (size_t)(q - p - 1);
        lx->p = q < lx->end ? q + 1 : q;
        return;
    }
    lx->cur.kind = TK_PUNCT;
    lx->cur.len = 1;
    lx->p = p + 1;
}

static bool
tk_is(const tok *t, const char *s)
{
    return t->kind != TK_EOF && t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

static bool
tk_punct(const tok *t, char c)
{
    return t->kind == TK_PUNCT && *t->s == c;
}

/* ---- parser state -------------------------------------------------------- */

typedef struct reg_slot {
    const char *name;
    uint32_t len;
    int32_t index;
} reg_slot;

/* A register name that a nested scope's declaration hides, with what it meant before. */
typedef struct reg_hidden {
    const char *name;
    uint32_t len;
    int32_t index; /* -1: nothing */
    uint32_t scope;
} reg_hidden;

typedef struct label_ref {
    const char *name;
    size_t len;
    int32_t pc; /* -1 until defined */
} label_ref;

typedef struct parser {
    lab_sim_module *m;
    lexer lx;
    lab_err *err;
    /* the function being parsed */
    sim_func *fn;
    reg_slot *regs; /* open addressing */
    size_t regcap;
    uint32_t nregs;
    uint32_t scope;     /* braces open in the body: 1 in the function's own scope */
    reg_hidden *hidden; /* registers hidden by nested scopes' declarations, innermost last */
    size_t nhidden, hiddencap;
    label_ref *labels;
    size_t nlabels, labcap;
    sim_insn *code;
    size_t ncode, codecap;
    sim_gvar *locals; /* .local of this function */
    uint32_t cur_file, cur_line, inl_file, inl_line;
    uint32_t root_file;    /* the file of the last .loc that was inlined nowhere */
    uint64_t global_bytes; /* the module's .global and .const variables so far */
} parser;

static int perr(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
perr(parser *ps, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    const char *src = ps->cur_file < ARRAY_SIZE(ps->m->files) ? ps->m->files[ps->cur_file] : NULL;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (ps->cur_line && src)
        return lab_err_set(ps->err, LAB_EPARSE, "%s:%u: %s (source %s:%u)", ps->m->path,
                           ps->lx.cur.line, what, src, ps->cur_line);
    return lab_err_set(ps->err, LAB_EPARSE, "%s:%u: %s", ps->m->path, ps->lx.cur.line, what);
}

/* A construct nvcc writes and the simulator does not know: LAB_ENOSYS, at the source line of the
 * last .loc (or the PTX line), without the module's path (lab_sim__unsupported_err) */
static int punsupported(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
punsupported(parser *ps, const char *fmt, ...)
{
    sim_insn at = { .file = (uint16_t)ps->cur_file,
                    .line = ps->cur_line,
                    .inl_file = (uint16_t)ps->inl_file,
                    .inl_line = ps->inl_line,
                    .ptx_line = ps->lx.cur.line };
    char what[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return lab_sim__unsupported_err(ps->m, &at, ps->err, "%s", what);
}

static uint64_t
hash_str(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The slot of a register name, or NULL. */
static reg_slot *
reg_slot_of(parser *ps, const char *s, size_t len)
{
    if (!ps->regcap)
        return NULL;
    for (size_t i = hash_str(s, len) & (ps->regcap - 1);; i = (i + 1) & (ps->regcap - 1)) {
        reg_slot *r = &ps->regs[i];
        if (!r->name)
            return NULL;
        if (r->len == len && !memcmp(r->name, s, len))
            return r;
    }
}

/* A register's number; -1 if undeclared (or declared in a scope that has closed). */
static int32_t
reg_find(parser *ps, const char *s, size_t len)
{
    const reg_slot *r = reg_slot_of(ps, s, len);
    return r ? r->index : -1;
}

/* Declares a register.  In the function's own scope a second declaration is the same register;
 * in a nested { } (nvcc wraps inline asm in one: { .reg .pred %p1; setp ... %p1; }) it is a new
 * register that hides the outer one until the scope closes (reg_scope_close). */
static int
reg_add(parser *ps, const char *s, size_t len)
{
    reg_slot *r;

    if ((ps->nregs + 1) * 2 > ps->regcap) {
        size_t cap = ps->regcap ? ps->regcap * 2 : 256;
        reg_slot *old = ps->regs, *nr = calloc(cap, sizeof(*nr));
        if (!nr)
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        for (size_t i = 0; i < ps->regcap; i++) {
            if (!old[i].name)
                continue;
            size_t j = hash_str(old[i].name, old[i].len) & (cap - 1);
            while (nr[j].name)
                j = (j + 1) & (cap - 1);
            nr[j] = old[i];
        }
        free(old);
        ps->regs = nr;
        ps->regcap = cap;
    }
    if (!(r = reg_slot_of(ps, s, len))) {
        char *name = lab_arena_strndup(&ps->m->arena, s, len);
        if (!name)
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        size_t j = hash_str(s, len) & (ps->regcap - 1);
        while (ps->regs[j].name)
            j = (j + 1) & (ps->regcap - 1);
        r = &ps->regs[j];
        *r = (reg_slot){ name, (uint32_t)len, -1 };
    }
    if (ps->scope <= 1 && r->index >= 0)
        return 0;
    if (ps->nregs >= SIM_REGS_MAX)
        return punsupported(ps, "more than %u registers in one function", SIM_REGS_MAX);
    if (ps->scope > 1) { /* what the name meant outside, restored when the scope closes */
        if (!lab_sim__reserve((void **)&ps->hidden, ps->nhidden, 1, &ps->hiddencap,
                              sizeof(*ps->hidden)))
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        ps->hidden[ps->nhidden++] = (reg_hidden){ r->name, r->len, r->index, ps->scope };
    }
    r->index = (int32_t)ps->nregs++;
    return 0;
}

/* The scope opened at depth closes: its registers' names mean what they meant before. */
static void
reg_scope_close(parser *ps, uint32_t depth)
{
    while (ps->nhidden && ps->hidden[ps->nhidden - 1].scope >= depth) {
        const reg_hidden *h = &ps->hidden[--ps->nhidden];
        reg_slot_of(ps, h->name, h->len)->index = h->index;
    }
}

static int32_t
label_index(parser *ps, const char *s, size_t len)
{
    for (size_t i = 0; i < ps->nlabels; i++)
        if (ps->labels[i].len == len && !memcmp(ps->labels[i].name, s, len))
            return (int32_t)i;
    if (ps->nlabels == ps->labcap) {
        size_t cap = ps->labcap ? ps->labcap * 2 : 64;
        label_ref *n = realloc(ps->labels, cap * sizeof(*n));
        if (!n)
            return -1;
        ps->labels = n;
        ps->labcap = cap;
    }
    ps->labels[ps->nlabels] = (label_ref){ s, len, -1 };
    return (int32_t)ps->nlabels++;
}

/* ---- modifiers ----------------------------------------------------------- */

typedef enum { MK_TYPE, MK_SPACE, MK_CMP, MK_WORD, MK_RND, MK_FLAG, MK_VEC, MK_IGNORE } mod_kind;

static const struct {
    const char *name;
    mod_kind kind;
    unsigned value;
} mods[] = {
    { "b8", MK_TYPE, T_B8 },
    { "b16", MK_TYPE, T_B16 },
    { "b32", MK_TYPE, T_B32 },
    { "b64", MK_TYPE, T_B64 },
    { "u8", MK_TYPE, T_U8 },
    { "tf32", MK_TYPE, T_TF32 },
    { "u16", MK_TYPE, T_U16 },
    { "u32", MK_TYPE, T_U32 },
    { "u64", MK_TYPE, T_U64 },
    { "s8", MK_TYPE, T_S8 },
    { "s16", MK_TYPE, T_S16 },
    { "s32", MK_TYPE, T_S32 },
    { "s64", MK_TYPE, T_S64 },
    { "f16", MK_TYPE, T_F16 },
    { "f16x2", MK_TYPE, T_F16X2 },
    { "bf16", MK_TYPE, T_BF16 },
    { "bf16x2", MK_TYPE, T_BF16X2 },
    { "f32", MK_TYPE, T_F32 },
    { "f64", MK_TYPE, T_F64 },
    { "pred", MK_TYPE, T_PRED },
    { "global", MK_SPACE, SP_GLOBAL },
    { "shared", MK_SPACE, SP_SHARED },
    { "local", MK_SPACE, SP_LOCAL },
    { "param", MK_SPACE, SP_PARAM },
    { "const", MK_SPACE, SP_CONST },
    { "eq", MK_CMP, CMP_EQ },
    { "ne", MK_CMP, CMP_NE },
    { "lt", MK_CMP, CMP_LT },
    { "le", MK_CMP, CMP_LE },
    { "gt", MK_CMP, CMP_GT },
    { "ge", MK_CMP, CMP_GE },
    { "ls", MK_CMP, CMP_LS },
    { "hs", MK_CMP, CMP_HS },
    { "equ", MK_CMP, CMP_EQU },
    { "neu", MK_CMP, CMP_NEU },
    { "ltu", MK_CMP, CMP_LTU },
    { "leu", MK_CMP, CMP_LEU },
    { "gtu", MK_CMP, CMP_GTU },
    { "geu", MK_CMP, CMP_GEU },
    { "num", MK_CMP, CMP_NUM },
    { "nan", MK_CMP, CMP_NAN },
    { "rn", MK_RND, RND_RN },
    { "rz", MK_RND, RND_RZ },
    { "rm", MK_RND, RND_RM },
    { "rp", MK_RND, RND_RP },
    { "rni", MK_RND, RND_RNI },
    { "rzi", MK_RND, RND_RZI },
    { "rmi", MK_RND, RND_RMI },
    { "rpi", MK_RND, RND_RPI },
    { "rna", MK_RND, RND_RNA }, /* cvt.rna.tf32.f32 only */
    { "ftz", MK_FLAG, F_FTZ },
    { "sat", MK_FLAG, F_SAT },
    { "wide", MK_FLAG, F_WIDE },
    { "volatile", MK_FLAG, F_VOLATILE },
    { "approx", MK_FLAG, F_APPROX },
    { "full", MK_FLAG, F_APPROX },
    { "to", MK_FLAG, F_TO },
    { "shiftamt", MK_FLAG, F_SHIFTAMT },
    { "clamp", MK_FLAG, F_CLAMP },
    { "cta", MK_FLAG, F_CTA },
    { "L2", MK_IGNORE, 0 }, /* cp.async's .L2::128B prefetch size */
    { "v2", MK_VEC, 2 },
    { "v4", MK_VEC, 4 },
    /* words whose meaning depends on the opcode (word_meaning) */
    { "hi", MK_WORD, 0 },
    { "lo", MK_WORD, 0 },
    { "uni", MK_WORD, 0 },
    { "and", MK_WORD, 0 },
    { "or", MK_WORD, 0 },
    { "xor", MK_WORD, 0 },
    { "add", MK_WORD, 0 },
    { "min", MK_WORD, 0 },
    { "max", MK_WORD, 0 },
    { "inc", MK_WORD, 0 },
    { "dec", MK_WORD, 0 },
    { "cas", MK_WORD, 0 },
    { "exch", MK_WORD, 0 },
    { "up", MK_WORD, 0 },
    { "down", MK_WORD, 0 },
    { "bfly", MK_WORD, 0 },
    { "idx", MK_WORD, 0 },
    { "all", MK_WORD, 0 },
    { "any", MK_WORD, 0 },
    { "ballot", MK_WORD, 0 },
    { "sync", MK_WORD, 0 },
    { "arrive", MK_WORD, 0 },
    { "red", MK_WORD, 0 },
    { "warp", MK_WORD, 0 },
    { "popc", MK_WORD, 0 },
    { "l", MK_WORD, 0 },
    { "r", MK_WORD, 0 },
    { "wrap", MK_WORD, 0 },
    { "finite", MK_WORD, 0 },
    { "infinite", MK_WORD, 0 },
    { "number", MK_WORD, 0 },
    { "notanumber", MK_WORD, 0 },
    { "normal", MK_WORD, 0 },
    { "subnormal", MK_WORD, 0 },
    { "async", MK_WORD, 0 },
    { "load", MK_WORD, 0 },
    { "store", MK_WORD, 0 },
    { "mma", MK_WORD, 0 },
    { "a", MK_WORD, 0 },
    { "c", MK_WORD, 0 },
    { "d", MK_WORD, 0 },
    { "row", MK_WORD, 0 },
    { "col", MK_WORD, 0 },
    { "m16n16k16", MK_WORD, 0 },
    { "m16n16k8", MK_WORD, 0 },
    { "m8n8k4", MK_WORD, 0 },
    { "m32n8k16", MK_WORD, 0 },
    { "m8n32k16", MK_WORD, 0 },
    { "satfinite", MK_FLAG, F_SAT },
    { "bulk", MK_WORD, 0 },
    { "mbarrier", MK_WORD, 0 },
    { "noinc", MK_WORD, 0 },
    { "init", MK_WORD, 0 },
    { "arrive_drop", MK_WORD, 0 },
    { "expect_tx", MK_WORD, 0 },
    { "complete_tx", MK_WORD, 0 },
    { "test_wait", MK_WORD, 0 },
    { "try_wait", MK_WORD, 0 },
    { "inval", MK_WORD, 0 },
    { "parity", MK_WORD, 0 },
    { "1d", MK_WORD, 0 },
    { "2d", MK_WORD, 0 },
    { "3d", MK_WORD, 0 },
    { "a1d", MK_WORD, 0 },
    { "a2d", MK_WORD, 0 },
    { "cube", MK_WORD, 0 },
    { "zero", MK_FLAG, F_ZERO },
    { "commit_group", MK_WORD, 0 },
    { "wait_group", MK_WORD, 0 },
    { "wait_all", MK_WORD, 0 },
    /* memory-model and cache qualifiers: no effect in a sequential simulator */
    { "aligned", MK_IGNORE, 0 },
    { "nc", MK_IGNORE, 0 },
    { "relaxed", MK_IGNORE, 0 },
    { "acquire", MK_IGNORE, 0 },
    { "release", MK_IGNORE, 0 },
    { "acq_rel", MK_IGNORE, 0 },
    { "sc", MK_IGNORE, 0 },
    { "sys", MK_IGNORE, 0 },
    { "gpu", MK_IGNORE, 0 },
    { "gl", MK_IGNORE, 0 },
    { "ca", MK_IGNORE, 0 },
    { "cg", MK_IGNORE, 0 },
    { "cs", MK_IGNORE, 0 },
    { "lu", MK_IGNORE, 0 },
    { "cv", MK_IGNORE, 0 },
    { "wb", MK_IGNORE, 0 },
    { "wt", MK_IGNORE, 0 },
    { "b", MK_WORD, 0 },       /* wmma.load.b; suld.b, sust.b: the only form */
    { "trap", MK_IGNORE, 0 },  /* suld / sust out of the surface: the default */
    { "level", MK_IGNORE, 0 }, /* tex.level: textures have one level */
    { "wait", MK_IGNORE, 0 },  /* griddepcontrol */
    { "launch_dependents", MK_IGNORE, 0 },
    /* fence.proxy.async (generic and async proxies' accesses ordered) and fence.mbarrier_init:
     * a bulk copy here lands at once, in the one memory every access sees */
    { "proxy", MK_IGNORE, 0 },
    { "mbarrier_init", MK_IGNORE, 0 },
};

/* The opcode-dependent words ("and" is setp's boolean op but atom's operation). */
static const struct {
    const char *word;
    int op; /* -1: any opcode */
    int sub;
    unsigned flag;
} words[] = {
    { "hi", SIM_OP_SETP, CMP_HI, 0 },
    { "lo", SIM_OP_SETP, CMP_LO, 0 },
    { "hi", -1, 0, F_HI },
    { "lo", -1, 0, F_LO },
    { "uni", SIM_OP_VOTE, VOTE_UNI, 0 },
    { "uni", -1, 0, F_UNI },
    { "and", SIM_OP_SETP, 0, F_BOOLAND },
    { "or", SIM_OP_SETP, 0, F_BOOLOR },
    { "xor", SIM_OP_SETP, 0, F_BOOLXOR },
    { "and", -1, AOP_AND, 0 },
    { "or", -1, AOP_OR, 0 },
    { "xor", -1, AOP_XOR, 0 },
    { "add", -1, AOP_ADD, 0 },
    { "min", -1, AOP_MIN, 0 },
    { "max", -1, AOP_MAX, 0 },
    { "inc", -1, AOP_INC, 0 },
    { "dec", -1, AOP_DEC, 0 },
    { "cas", -1, AOP_CAS, 0 },
    { "exch", -1, AOP_EXCH, 0 },
    { "popc", -1, AOP_ADD, 0 },
    { "up", SIM_OP_SHFL, SHFL_UP, 0 },
    { "down", SIM_OP_SHFL, SHFL_DOWN, 0 },
    { "bfly", SIM_OP_SHFL, SHFL_BFLY, 0 },
    { "idx", SIM_OP_SHFL, SHFL_IDX, 0 },
    { "all", -1, VOTE_ALL, 0 },
    { "any", -1, VOTE_ANY, 0 },
    { "ballot", -1, VOTE_BALLOT, 0 },
    { "sync", SIM_OP_BAR, BAR_SYNC, 0 },
    { "sync", SIM_OP_BARRIER, BAR_SYNC, 0 },
    { "sync", -1, -1, F_SYNC }, /* shfl.sync, vote.sync, ...: the form with a member mask */
    { "arrive", -1, BAR_ARRIVE, 0 },
    { "red", -1, BAR_RED, 0 },
    { "warp", -1, BAR_WARP, 0 },
    { "l", SIM_OP_SHF, -1, F_LEFT },
    { "r", SIM_OP_SHF, -1, 0 },
    { "wrap", SIM_OP_SHF, -1, 0 },
    { "finite", -1, TESTP_FINITE, 0 },
    { "infinite", -1, TESTP_INFINITE, 0 },
    { "number", -1, TESTP_NUMBER, 0 },
    { "notanumber", -1, TESTP_NOTANUMBER, 0 },
    { "normal", -1, TESTP_NORMAL, 0 },
    { "subnormal", -1, TESTP_SUBNORMAL, 0 },
    { "async", SIM_OP_CP, CP_ASYNC, 0 },
    { "async", SIM_OP_FENCE, 0, 0 }, /* fence.proxy.async: see "proxy" */
    { "load", SIM_OP_WMMA, WM_LOAD, 0 },
    { "store", SIM_OP_WMMA, WM_STORE, 0 },
    { "mma", SIM_OP_WMMA, WM_MMA, 0 },
    { "a", SIM_OP_WMMA, 0, F_WM_A },
    { "b", SIM_OP_WMMA, 0, F_WM_B },
    { "b", -1, 0, 0 },
    { "c", SIM_OP_WMMA, 0, F_WM_C },
    { "d", SIM_OP_WMMA, 0, 0 },
    { "m16n16k16", SIM_OP_WMMA, 0, 0 }, /* shapes: wmma_form */
    { "m16n16k8", SIM_OP_WMMA, 0, 0 },
    { "m8n8k4", SIM_OP_WMMA, 0, 0 },
    { "m32n8k16", SIM_OP_WMMA, 0, 0 },
    { "m8n32k16", SIM_OP_WMMA, 0, 0 },
    { "row", SIM_OP_WMMA, 0, F_WM_LAYOUT },
    { "col", SIM_OP_WMMA, 0, F_WM_LAYOUT | F_WM_COL },
    { "bulk", SIM_OP_CP, CP_BULK, 0 },
    { "mbarrier", SIM_OP_CP, 0, F_MBAR },
    { "noinc", SIM_OP_CP, 0, F_NOINC },
    { "init", SIM_OP_MBARRIER, MB_INIT, 0 },
    { "arrive_drop", SIM_OP_MBARRIER, MB_ARRIVE_DROP, 0 },
    { "expect_tx", SIM_OP_MBARRIER, 0, F_EXPECT },
    { "complete_tx", SIM_OP_MBARRIER, MB_COMPLETE_TX, 0 },
    { "test_wait", SIM_OP_MBARRIER, MB_WAIT, 0 },
    { "try_wait", SIM_OP_MBARRIER, MB_WAIT, 0 },
    { "inval", SIM_OP_MBARRIER, MB_INVAL, 0 },
    { "parity", SIM_OP_MBARRIER, 0, F_PARITY },
    { "1d", -1, TEX_1D, 0 }, /* tex, suld, sust */
    { "2d", -1, TEX_2D, 0 },
    { "3d", -1, TEX_3D, 0 },
    { "a1d", -1, TEX_A1D, 0 },
    { "a2d", -1, TEX_A2D, 0 },
    { "cube", SIM_OP_TEX, TEX_CUBE, 0 },
    { "commit_group", SIM_OP_CP, CP_COMMIT, 0 },
    { "wait_group", SIM_OP_CP, CP_WAIT, 0 },
    { "wait_all", SIM_OP_CP, CP_WAIT, 0 },
    { "wrap", SIM_OP_BMSK, -1, 0 },
};

static int
apply_word(parser *ps, sim_insn *in, const char *w)
{
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        if (strcmp(words[i].word, w) || (words[i].op >= 0 && words[i].op != in->op))
            continue;
        in->flags |= words[i].flag;
        /* a barrier's first word names its operation (bar.warp.sync, bar.red), the next one
         * bar.red's reduction (.popc, .and, .or) */
        if (words[i].sub <= 0)
            return 0;
        if (in->cls == CL_BARRIER && in->sub != SUB_NONE)
            in->red = (uint8_t)words[i].sub;
        else
            in->sub = (uint8_t)words[i].sub;
        return 0;
    }
    return punsupported(ps, "the modifier '.%s' of '%s'", w, in->text);
}

/* the first ".row" or ".col" in s */
static const char *
first_layout(const char *s)
{
    const char *r = strstr(s, ".row"), *c = strstr(s, ".col");
    return r && (!c || r < c) ? r : c;
}

/* wmma's shape (in->red: WM_M16N16K16 ..), layouts (F_WM_COL: the first's col; F_WM_COLB: the
 * second's) and, for mma, the type of a and b (in->space; .f16 where only d and c are named) */
static int
wmma_form(parser *ps, const char *text, sim_insn *in)
{
    static const char *const shapes[] = { [WM_M16N16K16] = ".m16n16k16",
                                          [WM_M16N16K8] = ".m16n16k8",
                                          [WM_M8N8K4] = ".m8n8k4",
                                          [WM_M32N8K16] = ".m32n8k16",
                                          [WM_M8N32K16] = ".m8n32k16" };
    const char *l1 = first_layout(text), *l2 = l1 ? first_layout(l1 + 4) : NULL, *types[6];
    unsigned nt = 0;
    char buf[128], *save = NULL, *part;

    in->red = 0;
    for (unsigned i = 1; i < ARRAY_SIZE(shapes); i++)
        if (strstr(text, shapes[i]))
            in->red = (uint8_t)i;
    in->flags &= ~(F_WM_COL | F_WM_COLB);
    if (l1 && !strncmp(l1, ".col", 4))
        in->flags |= F_WM_COL;
    if (l2 && !strncmp(l2, ".col", 4))
        in->flags |= F_WM_COLB;
    snprintf(buf, sizeof(buf), "%s", text);
    for (part = strtok_r(buf, ".", &save); part && nt < ARRAY_SIZE(types);
         part = strtok_r(NULL, ".", &save))
        if (!strcmp(part, "f16") || !strcmp(part, "f32") || !strcmp(part, "bf16") ||
            !strcmp(part, "tf32") || !strcmp(part, "u8") || !strcmp(part, "s8") ||
            !strcmp(part, "s32") || !strcmp(part, "f64"))
            types[nt++] = part;
    if (!in->red || !in->sub || (in->sub == WM_LOAD) == !(in->flags & (F_WM_A | F_WM_B | F_WM_C)))
        return punsupported(ps, "the form '%s'", text);
    if (in->sub == WM_MMA) {
        in->space = (uint8_t)(nt == 2 ? T_F16 : in->type2);
        if (nt == 4) { /* d, a, b, c: type is d's, type2 was overwritten by b and c */
            for (size_t i = 0; i < ARRAY_SIZE(mods); i++)
                if (!strcmp(mods[i].name, types[1]))
                    in->space = (uint8_t)mods[i].value;
        }
    }
    return 0;
}

static int
decode_opcode(parser *ps, const char *text, sim_insn *in)
{
    char buf[128], *save = NULL, *part;
    int ntypes = 0;

    if (strlen(text) >= sizeof(buf))
        return perr(ps, "instruction '%s' is too long", text);
    memcpy(buf, text, strlen(text) + 1);
    if (!(part = strtok_r(buf, ".", &save))) /* "..": no word at all */
        return perr(ps, "unsupported instruction '%s'", text);
    in->op = SIM_OP_COUNT;
    for (unsigned i = 0; i < SIM_OP_COUNT; i++)
        if (!strcmp(lab_sim__ops[i].name, part))
            in->op = (uint16_t)i;
    if (in->op == SIM_OP_COUNT)
        return punsupported(ps, "the instruction '%s'", text);
    in->cls = lab_sim__ops[in->op].cls;
    in->vec = 1;
    while ((part = strtok_r(NULL, ".", &save))) {
        char *colons = strstr(part, "::");
        size_t i;
        if (colons)
            *colons = '\0'; /* shared::cta -> shared */
        for (i = 0; i < ARRAY_SIZE(mods); i++)
            if (!strcmp(mods[i].name, part))
                break;
        if (i == ARRAY_SIZE(mods))
            return punsupported(ps, "the modifier '.%s' of '%s'", part, text);
        switch (mods[i].kind) {
        case MK_TYPE:
            if (ntypes++ == 0)
                in->type = (uint8_t)mods[i].value;
            else
                in->type2 = (uint8_t)mods[i].value;
            break;
        case MK_SPACE:
            in->space = (uint8_t)mods[i].value;
            break;
        case MK_CMP:
            in->sub = (uint8_t)mods[i].value;
            break;
        case MK_RND:
            in->rnd = (uint8_t)mods[i].value;
            break;
        case MK_FLAG:
            in->flags |= mods[i].value;
            break;
        case MK_VEC:
            in->vec = (uint8_t)mods[i].value;
            break;
        case MK_WORD:
            if (apply_word(ps, in, part) < 0)
                return -1;
            break;
        case MK_IGNORE:
            break;
        }
    }
    if (in->cls == CL_COMPARE && in->sub == SUB_NONE)
        return perr(ps, "'%s' has no comparison", text);
    if (in->op == SIM_OP_WMMA && wmma_form(ps, text, in) < 0)
        return -1;
    if (in->type == T_F16 || in->type == T_F16X2 || in->type == T_BF16 || in->type == T_BF16X2) {
        if (in->cls == CL_UNARY || in->cls == CL_BINARY || in->cls == CL_TERNARY) {
            if (!lab_sim__half_supported(in))
                return punsupported(ps,
                                    "'%s' (of 16-bit floats: add sub mul fma neg abs min max, "
                                    "rounded to nearest)",
                                    text);
            in->cls = CL_HALF;
        } else if (in->cls == CL_COMPARE && in->type != T_F16 && in->type != T_BF16) {
            return punsupported(ps, "'%s' (a comparison of pairs)", text);
        }
    }
    if (in->cls == CL_BARRIER && in->sub == BAR_RED &&
        !((in->red == AOP_ADD && in->type == T_U32) ||
          ((in->red == AOP_AND || in->red == AOP_OR) && in->type == T_PRED)))
        return punsupported(ps, "'%s' (only bar.red.popc.u32, .and.pred and .or.pred)", text);
    return 0;
}

/* ---- operands ------------------------------------------------------------ */

static const struct {
    const char *name;
    sim_sreg sreg;
} sregs[] = {
    { "%tid.x", SR_TID_X },
    { "%tid.y", SR_TID_Y },
    { "%tid.z", SR_TID_Z },
    { "%ntid.x", SR_NTID_X },
    { "%ntid.y", SR_NTID_Y },
    { "%ntid.z", SR_NTID_Z },
    { "%ctaid.x", SR_CTAID_X },
    { "%ctaid.y", SR_CTAID_Y },
    { "%ctaid.z", SR_CTAID_Z },
    { "%nctaid.x", SR_NCTAID_X },
    { "%nctaid.y", SR_NCTAID_Y },
    { "%nctaid.z", SR_NCTAID_Z },
    { "%laneid", SR_LANEID },
    { "%warpid", SR_WARPID },
    { "%nwarpid", SR_NWARPID },
    { "%smid", SR_SMID },
    { "%nsmid", SR_NSMID },
    { "%lanemask_eq", SR_LANEMASK_EQ },
    { "%lanemask_lt", SR_LANEMASK_LT },
    { "%lanemask_le", SR_LANEMASK_LE },
    { "%lanemask_gt", SR_LANEMASK_GT },
    { "%lanemask_ge", SR_LANEMASK_GE },
    { "%clock", SR_CLOCK },
    { "%clock64", SR_CLOCK64 },
    { "%globaltimer", SR_GLOBALTIMER },
    { "%gridid", SR_GRIDID },
    { "%reserved_smem_offset_begin", SR_RES_BEGIN },
    { "%reserved_smem_offset_0", SR_RES_BEGIN },
    { "%reserved_smem_offset_1", SR_RES_1 },
    { "%reserved_smem_offset_end", SR_RES_END },
    { "%reserved_smem_offset_cap", SR_RES_CAP },
};

static int
parse_number(parser *ps, const tok *t, int64_t *out)
{
    char buf[64];
    char *end;

    if (t->len >= sizeof(buf))
        return perr(ps, "number '%.*s' is too long", (int)t->len, t->s);
    memcpy(buf, t->s, t->len);
    buf[t->len] = '\0';
    if ((buf[1] == 'f' || buf[1] == 'F' || buf[1] == 'd' || buf[1] == 'D') && buf[0] == '0') {
        *out = (int64_t)strtoull(buf + 2, &end, 16);
    } else if (strchr(buf, '.') || (strchr(buf, 'e') && !strchr(buf, 'x'))) {
        double d = strtod(buf, &end);
        memcpy(out, &d, sizeof(d));
    } else {
        *out = (int64_t)strtoull(buf, &end, 0);
    }
    if (*end == 'U' || *end == 'u')
        end++;
    if (*end)
        return perr(ps, "bad number '%s'", buf);
    return 0;
}

/* A symbol of this function or module: fills space and adds its address to *imm. */
static bool
resolve_symbol(parser *ps, const char *s, size_t len, uint8_t *space, int64_t *imm)
{
    sim_func *f = ps->fn;

    for (uint32_t i = 0; f && f->entry && i < f->nparams; i++) /* a .func's: in ps->locals */
        if (strlen(f->params[i].name) == len && !memcmp(f->params[i].name, s, len)) {
            *space = SP_PARAM;
            *imm += f->params[i].offset;
            return true;
        }
    for (sim_gvar *g = ps->locals; g; g = g->next)
        if (strlen(g->name) == len && !memcmp(g->name, s, len)) {
            *space = SP_LOCAL;
            *imm += (int64_t)g->addr;
            return true;
        }
    for (sim_gvar *g = ps->m->gvars; g; g = g->next)
        if (strlen(g->name) == len && !memcmp(g->name, s, len)) {
            *space = (uint8_t)g->space;
            *imm += (int64_t)g->addr;
            return true;
        }
    return false;
}

/* The index of a function name in the module's table, added if new; -1: out of memory. */
static int32_t
func_id(parser *ps, const char *s, size_t len)
{
    lab_sim_module *m = ps->m;
    const char *name;

    for (uint32_t i = 0; i < m->nfnames; i++)
        if (strlen(m->fnames[i]) == len && !memcmp(m->fnames[i], s, len))
            return (int32_t)i;
    if (m->nfnames == m->fnamecap) {
        uint32_t cap = m->fnamecap ? m->fnamecap * 2 : 16;
        const char **n = realloc(m->fnames, cap * sizeof(*n));
        if (!n)
            return -1;
        m->fnames = n;
        m->fnamecap = cap;
    }
    if (!(name = lab_arena_strndup(&m->arena, s, len)))
        return -1;
    m->fnames[m->nfnames] = name;
    return (int32_t)m->nfnames++;
}

/* A function declared or defined so far (PTX declares before use), or the one being parsed. */
static bool
func_known(parser *ps, const char *s, size_t len)
{
    if (ps->fn && ps->fn->name && strlen(ps->fn->name) == len && !memcmp(ps->fn->name, s, len))
        return true;
    for (uint32_t i = 0; i < ps->m->nfnames; i++)
        if (strlen(ps->m->fnames[i]) == len && !memcmp(ps->m->fnames[i], s, len))
            return true;
    return false;
}

static int
expect_reg(parser *ps, int32_t *out)
{
    tok t = ps->lx.cur;

    if (t.kind != TK_ID || (*out = reg_find(ps, t.s, t.len)) < 0)
        return perr(ps, "expected a register, got '%.*s'", (int)t.len, t.s);
    lex_next(&ps->lx);
    return 0;
}

/* One term of an address after its sign: a number; a register (inside [ ] only, once, added);
 * a symbol (once, added: its address). */
static int
address_term(parser *ps, sim_insn *in, sim_opnd *o, bool minus, bool regs, bool *sym)
{
    tok t = ps->lx.cur;
    int64_t v;
    int32_t r;

    if (t.kind == TK_NUM) {
        if (parse_number(ps, &t, &v) < 0)
            return -1;
        o->imm = (int64_t)((uint64_t)o->imm + (minus ? 0 - (uint64_t)v : (uint64_t)v));
    } else if (t.kind != TK_ID) {
        return perr(ps, "bad address in '%s': '%.*s'", in->text, (int)t.len, t.s);
    } else if (regs && (r = reg_find(ps, t.s, t.len)) >= 0) {
        if (o->reg >= 0 || minus)
            return perr(ps, "bad address in '%s': '%s%.*s' (one register, added)", in->text,
                        minus ? "-" : "+", (int)t.len, t.s);
        o->reg = r;
    } else if (*sym || minus) {
        return perr(ps, "bad address in '%s': '%s%.*s' (one symbol, added)", in->text,
                    minus ? "-" : "+", (int)t.len, t.s);
    } else if (!resolve_symbol(ps, t.s, t.len, &o->space, &o->imm)) {
        return perr(ps, "unknown symbol '%.*s' in '%s'", (int)t.len, t.s, in->text);
    } else {
        *sym = true;
    }
    lex_next(&ps->lx);
    return 0;
}

/* The terms after an address's first: + t, - t and +- t (nvcc writes [%rd1+-4] for p[-1]). */
static int
address_rest(parser *ps, sim_insn *in, sim_opnd *o, bool regs, bool *sym)
{
    lexer *lx = &ps->lx;

    while (tk_punct(&lx->cur, '+') || tk_punct(&lx->cur, '-')) {
        bool minus = tk_punct(&lx->cur, '-');
        lex_next(lx);
        if (tk_punct(&lx->cur, '-')) {
            minus = !minus;
            lex_next(lx);
        }
        if (address_term(ps, in, o, minus, regs, sym) < 0)
            return -1;
    }
    return 0;
}

/* [a]: a sum of at most one register, at most one symbol (its address) and numbers, in any
 * order ([%rd1+-4], [sym+8], [%rd2+sym], [-8+%rd3]); o->imm collects the constant part */
static int
parse_address(parser *ps, sim_insn *in, sim_opnd *o)
{
    lexer *lx = &ps->lx;
    bool sym = false, minus = false;

    lex_next(lx); /* [ */
    o->kind = O_MEM;
    if (tk_punct(&lx->cur, '-')) {
        minus = true;
        lex_next(lx);
    }
    if (address_term(ps, in, o, minus, true, &sym) < 0 || address_rest(ps, in, o, true, &sym) < 0)
        return -1;
    if (!tk_punct(&lx->cur, ']'))
        return perr(ps, "expected ']' in '%s'", in->text);
    lex_next(lx);
    return 0;
}

/* tex's, suld's and sust's [t, {c, ...}]: the object's register in o->reg, the coordinates' in
 * o->vec */
static int
parse_tex_address(parser *ps, sim_insn *in, sim_opnd *o)
{
    lexer *lx = &ps->lx;

    lex_next(lx); /* [ */
    o->kind = O_MEM;
    if (expect_reg(ps, &o->reg) < 0)
        return -1;
    if (!tk_punct(&lx->cur, ','))
        return perr(ps, "expected ',' in '%s'", in->text);
    lex_next(lx);
    if (!tk_punct(&lx->cur, '{'))
        return perr(ps, "expected '{' in '%s'", in->text);
    lex_next(lx);
    while (!tk_punct(&lx->cur, '}')) {
        if (o->nvec == 4)
            return perr(ps, "more than 4 coordinates in '%s'", in->text);
        if (expect_reg(ps, &o->vec[o->nvec++]) < 0)
            return -1;
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
    }
    lex_next(lx);
    if (!tk_punct(&lx->cur, ']'))
        return punsupported(ps, "'%s' (a texture fetch with more than [t, {c}])", in->text);
    lex_next(lx);
    return 0;
}

static int
parse_opnd(parser *ps, sim_insn *in, sim_opnd *o)
{
    lexer *lx = &ps->lx;
    tok t = lx->cur;
    bool neg = false;

    o->reg = -1;
    o->reg2 = -1;
    if (tk_punct(&t, '[') && in->cls == CL_TEXTURE)
        return parse_tex_address(ps, in, o);
    if (tk_punct(&t, '['))
        return parse_address(ps, in, o);
    if (tk_punct(&t, '{')) {
        lex_next(lx);
        o->kind = O_VEC;
        while (!tk_punct(&lx->cur, '}')) {
            int32_t r = -1;
            if (o->nvec == (in->op == SIM_OP_WMMA ? 8 : 4))
                return punsupported(ps, "a vector of more than %d in '%s'", o->nvec, in->text);
            if (tk_is(&lx->cur, "_"))
                lex_next(lx);
            else if (expect_reg(ps, &r) < 0)
                return -1;
            lab_sim__vec_set(o, o->nvec++, r);
            if (tk_punct(&lx->cur, ','))
                lex_next(lx);
        }
        lex_next(lx);
        return 0;
    }
    if (tk_punct(&t, '!')) {
        neg = true;
        lex_next(lx);
        t = lx->cur;
    }
    if (tk_punct(&t, '-')) {
        lex_next(lx);
        if (lx->cur.kind != TK_NUM || parse_number(ps, &lx->cur, &o->imm) < 0)
            return perr(ps, "bad operand in '%s'", in->text);
        o->kind = O_IMM;
        if ((lx->cur.s[1] == 'f' || lx->cur.s[1] == 'F') && lx->cur.s[0] == '0')
            o->imm ^= 0x80000000;
        else if ((lx->cur.s[1] == 'd' || lx->cur.s[1] == 'D') && lx->cur.s[0] == '0')
            o->imm ^= (int64_t)0x8000000000000000ull;
        else
            o->imm = -o->imm;
        lex_next(lx);
        return 0;
    }
    if (t.kind == TK_NUM) {
        o->kind = O_IMM;
        if (parse_number(ps, &t, &o->imm) < 0)
            return -1;
        if (in->type == T_F32 && !(t.len > 1 && (t.s[1] == 'f' || t.s[1] == 'F'))) {
            /* a plain decimal given to an f32 operand */
            double dv;
            float f;
            uint32_t bits;
            memcpy(&dv, &o->imm, sizeof(dv));
            f = memchr(t.s, '.', t.len) ? (float)dv : (float)o->imm;
            memcpy(&bits, &f, 4);
            o->imm = bits;
        }
        lex_next(lx);
        return 0;
    }
    if (t.kind != TK_ID)
        return perr(ps, "unexpected '%.*s' in '%s'", (int)t.len, t.s, in->text);
    if (tk_is(&t, "WARP_SZ")) {
        o->kind = O_IMM;
        o->imm = 32;
        lex_next(lx);
        return 0;
    }
    o->neg = neg;
    if ((o->reg = reg_find(ps, t.s, t.len)) >= 0) {
        o->kind = O_REG;
        lex_next(lx);
        if (tk_punct(&lx->cur, '|')) {
            lex_next(lx);
            if (expect_reg(ps, &o->reg2) < 0)
                return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(sregs); i++)
        if (tk_is(&t, sregs[i].name)) {
            o->kind = O_SPECIAL;
            o->reg = sregs[i].sreg;
            lex_next(lx);
            return 0;
        }
    if (t.len > 7 && !memcmp(t.s, "%envreg", 7) && in->op == SIM_OP_MOV) {
        /* the driver's environment: cooperative groups' grid workspace (%envreg1, 2), which
         * only a cooperative launch has.  Loads; runs as what the simulator cannot do */
        in->cls = CL_SPECIAL;
        o->kind = O_IMM;
        o->imm = 0;
        lex_next(lx);
        return 0;
    }
    if (in->cls == CL_BRANCH) {
        o->kind = O_LABEL;
        if ((o->reg = label_index(ps, t.s, t.len)) < 0)
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        lex_next(lx);
        return 0;
    }
    if (resolve_symbol(ps, t.s, t.len, &o->space, &o->imm)) { /* mov.u64 %rd, sym{+-8} */
        bool sym = true;
        o->kind = O_ADDR;
        lex_next(lx);
        return address_rest(ps, in, o, false, &sym);
    }
    if (func_known(ps, t.s, t.len)) { /* mov.u64 %rd, kernel: the kernel a launch names */
        int32_t id = func_id(ps, t.s, t.len);
        if (id < 0)
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        o->kind = O_ADDR;
        o->imm = (int64_t)(SIM_FUNC_TAG | (uint64_t)id);
        lex_next(lx);
        return 0;
    }
    return perr(ps, "unknown register or symbol '%.*s' in '%s'", (int)t.len, t.s, in->text);
}

static sim_insn *
new_insn(parser *ps)
{
    if (ps->ncode == ps->codecap) {
        size_t cap = ps->codecap ? ps->codecap * 2 : 256;
        sim_insn *n = realloc(ps->code, cap * sizeof(*n));
        if (!n)
            return NULL;
        ps->code = n;
        ps->codecap = cap;
    }
    sim_insn *in = &ps->code[ps->ncode++];
    memset(in, 0, sizeof(*in));
    in->guard = -1;
    in->target = -1;
    in->rpc = SIM_PC_EXIT;
    in->file = (uint16_t)ps->cur_file;
    in->line = ps->cur_line;
    in->inl_file = (uint16_t)ps->inl_file;
    in->inl_line = ps->inl_line;
    in->ptx_line = ps->lx.cur.line;
    return in;
}

/* Up to the next ';' (not consumed). */
static int
to_semicolon(parser *ps)
{
    while (ps->lx.cur.kind != TK_EOF && !tk_punct(&ps->lx.cur, ';'))
        lex_next(&ps->lx);
    if (ps->lx.cur.kind == TK_EOF)
        return perr(ps, "missing ';'");
    return 0;
}

static int
skip_to_semicolon(parser *ps)
{
    if (to_semicolon(ps) < 0)
        return -1;
    lex_next(&ps->lx);
    return 0;
}

static void
skip_line(parser *ps)
{
    uint32_t line = ps->lx.cur.line;
    while (ps->lx.cur.kind != TK_EOF && ps->lx.cur.line == line)
        lex_next(&ps->lx);
}

static const struct {
    const char *name;
    sim_builtin bi;
    uint8_t nargs; /* .param arguments */
    bool ret;      /* returns a value */
} builtins[] = {
    { "__cudaCDP2GetParameterBufferV2", BI_PARAM_BUFFER, 4, true },
    { "__cudaCDP2LaunchDeviceV2", BI_LAUNCH, 2, true },
    { "__cudaCDP2GetLastError", BI_LAST_ERROR, 0, true },
    { "__cudaCDP2PeekAtLastError", BI_LAST_ERROR, 0, true },
    { "vprintf", BI_PRINTF, 2, true },
    { "__assertfail", BI_ASSERT, 5, false },
    { "malloc", BI_MALLOC, 1, true },
    { "free", BI_FREE, 1, false },
};

/* Operands into in->o, each read by one, separated by commas, up to the punctuation close (not
 * consumed): an instruction's up to ';', a call's arguments up to ')'. */
static int
operand_list(parser *ps, sim_insn *in, char close, int (*one)(parser *, sim_insn *, sim_opnd *))
{
    lexer *lx = &ps->lx;

    while (!tk_punct(&lx->cur, close)) {
        if (in->nops == SIM_MAX_OPNDS)
            return perr(ps, "too many operands in '%s'", in->text);
        if (one(ps, in, &in->o[in->nops++]) < 0)
            return -1;
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
        else if (!tk_punct(&lx->cur, close))
            return perr(ps, "expected ',' or '%c' after an operand of '%s', got '%.*s'", close,
                        in->text, (int)lx->cur.len, lx->cur.s);
    }
    return 0;
}

/* A .param of this call sequence: its offset in the thread's local memory. */
static int
call_param(parser *ps, sim_insn *in, sim_opnd *o)
{
    tok t = ps->lx.cur;

    o->reg = o->reg2 = -1;
    if (t.kind != TK_ID || !resolve_symbol(ps, t.s, t.len, &o->space, &o->imm) ||
        o->space != SP_LOCAL)
        return perr(ps, "expected a .param of the call sequence in '%s', got '%.*s'", in->text,
                    (int)t.len, t.s);
    o->kind = O_ADDR;
    lex_next(&ps->lx);
    return 0;
}

/* A call of a function of the module (or of one it declares, which fails when run): callee by
 * name or through a register (call %rd, (args), prototype), the .param arguments' offsets, up to
 * the ';'.  The callee's parameters are matched when it runs (exec.c). */
static int
parse_func_call(parser *ps, sim_insn *in, const sim_opnd *ret, const tok *name)
{
    lexer *lx = &ps->lx;
    sim_call *c = lab_arena_calloc(&ps->m->arena, 1, sizeof(*c));
    uint32_t args[64];

    if (!c)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    c->ret = ret->kind == O_NONE ? -1 : (int32_t)ret->imm;
    c->fptr = reg_find(ps, name->s, name->len);
    if (c->fptr >= 0)
        c->callee = -1;
    else if (!func_known(ps, name->s, name->len))
        return perr(ps, "'%s' calls '%.*s', which the module does not declare", in->text,
                    (int)name->len, name->s);
    else if ((c->callee = func_id(ps, name->s, name->len)) < 0)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    lex_next(lx);
    if (tk_punct(&lx->cur, ',') && (lex_next(lx), tk_punct(&lx->cur, '('))) {
        lex_next(lx);
        while (!tk_punct(&lx->cur, ')')) {
            sim_opnd a = { 0 };
            if (c->nargs == ARRAY_SIZE(args))
                return perr(ps, "too many arguments in '%s'", in->text);
            if (call_param(ps, in, &a) < 0)
                return -1;
            args[c->nargs++] = (uint32_t)a.imm;
            if (tk_punct(&lx->cur, ','))
                lex_next(lx);
        }
        lex_next(lx);
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
    }
    if (lx->cur.kind == TK_ID) /* an indirect call's prototype */
        lex_next(lx);
    if (!tk_punct(&lx->cur, ';'))
        return perr(ps, "expected ';' after '%s'", in->text);
    if (!(c->args = lab_arena_alloc(&ps->m->arena, (c->nargs ? c->nargs : 1) * sizeof(uint32_t))))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    memcpy(c->args, args, c->nargs * sizeof(uint32_t));
    in->call = c;
    return 0;
}

/* call{.uni} [(ret),] func[, (args)], up to its ';': the device runtime's functions are built in
 * (sub), with o[0] the return .param (O_NONE if none) and o[1..] the arguments; any other callee
 * is kept by name in text, without operands, and fails when run. */
static int
parse_call(parser *ps, sim_insn *in)
{
    lexer *lx = &ps->lx;
    sim_opnd ret = { .kind = O_NONE, .reg = -1, .reg2 = -1 };
    size_t b = ARRAY_SIZE(builtins);
    char text[256];
    tok name;

    if (tk_punct(&lx->cur, '(')) {
        lex_next(lx);
        if (call_param(ps, in, &ret) < 0)
            return -1;
        if (!tk_punct(&lx->cur, ')'))
            return perr(ps, "expected ')' after the return value of '%s'", in->text);
        lex_next(lx);
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
    }
    name = lx->cur;
    if (name.kind != TK_ID)
        return perr(ps, "expected the function '%s' calls", in->text);
    snprintf(text, sizeof(text), "%s %.*s", in->text, (int)(name.len < 200 ? name.len : 200),
             name.s);
    if (!(in->text = lab_arena_strdup(&ps->m->arena, text)))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
        if (strlen(builtins[i].name) == name.len && !memcmp(builtins[i].name, name.s, name.len))
            b = i;
    if (b == ARRAY_SIZE(builtins))
        return parse_func_call(ps, in, &ret, &name);
    lex_next(lx);
    in->sub = (uint8_t)builtins[b].bi;
    ps->m->uses_heap |= in->sub == BI_MALLOC;
    in->o[0] = ret;
    in->nops = 1;
    if (tk_punct(&lx->cur, ',')) {
        lex_next(lx);
        if (!tk_punct(&lx->cur, '('))
            return perr(ps, "expected '(' before the arguments of '%s'", in->text);
        lex_next(lx);
        if (operand_list(ps, in, ')', call_param) < 0)
            return -1;
        lex_next(lx);
    }
    if ((unsigned)in->nops - 1 != builtins[b].nargs || (ret.kind == O_NONE) == builtins[b].ret)
        return perr(ps, "'%s' with %u arguments%s: not the device runtime's signature", in->text,
                    in->nops - 1u, ret.kind == O_NONE ? " and no return value" : "");
    if (!tk_punct(&lx->cur, ';'))
        return perr(ps, "expected ';' after '%s'", in->text);
    return 0;
}

/* The operand count of in's form (ops.def: its opcode's min..max, narrowed by its arity), and a
 * register (or {vector}) where it writes o[0]. */
static int
check_operands(parser *ps, const sim_insn *in)
{
    const sim_op_info *op = &lab_sim__ops[in->op];
    unsigned lo = op->min, hi = op->max;
    bool longer = false;

    switch (op->arity) {
    case AR_BOOLOP: /* setp.cmp.and: c */
        longer = in->flags & (F_BOOLAND | F_BOOLOR | F_BOOLXOR);
        break;
    case AR_CAS: /* atom.cas: c */
        longer = in->sub == AOP_CAS;
        break;
    case AR_SYNC: /* shfl.sync, vote.sync: the member mask */
        longer = in->flags & F_SYNC;
        break;
    case AR_PAIR: /* cvt.rn.f16x2.f32 d, a, b: the second value */
        longer = in->type == T_F16X2 || in->type == T_BF16X2;
        break;
    case AR_BAR: /* bar.red: d and c around bar.sync's a{, b} */
        if (in->sub == BAR_RED)
            lo += 2;
        else
            hi -= 2;
        break;
    default:
        break;
    }
    if (op->arity == AR_BOOLOP || op->arity == AR_CAS || op->arity == AR_SYNC ||
        op->arity == AR_PAIR)
        lo = hi = longer ? hi : lo;
    if (in->nops < lo || in->nops > hi) {
        if (hi == 0)
            return perr(ps, "'%s' takes no operands, got %u", in->text, in->nops);
        if (lo == hi)
            return perr(ps, "'%s' takes %u operand%s, got %u", in->text, lo, lo == 1 ? "" : "s",
                        in->nops);
        return perr(ps, "'%s' takes %u %s %u operands, got %u", in->text, lo,
                    hi == lo + 1 ? "or" : "to", hi, in->nops);
    }
    if (op->dst == O0_DST && in->o[0].kind != O_REG && in->o[0].kind != O_VEC)
        return perr(ps, "'%s' writes its first operand, which is not a register", in->text);
    return 0;
}

static int
parse_instruction(parser *ps)
{
    lexer *lx = &ps->lx;
    sim_insn *in;
    int32_t guard = -1;
    bool guard_neg = false;

    if (tk_punct(&lx->cur, '@')) {
        lex_next(lx);
        if (tk_punct(&lx->cur, '!')) {
            guard_neg = true;
            lex_next(lx);
        }
        if (expect_reg(ps, &guard) < 0)
            return -1;
    }
    if (lx->cur.kind != TK_ID)
        return perr(ps, "expected an instruction, got '%.*s'", (int)lx->cur.len, lx->cur.s);
    if (!(in = new_insn(ps)))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    in->guard = guard;
    in->guard_neg = guard_neg;
    if (!(in->text = lab_arena_strndup(&ps->m->arena, lx->cur.s, lx->cur.len)))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    if (decode_opcode(ps, in->text, in) < 0)
        return -1;
    lex_next(lx);
    if (in->cls == CL_CALL && parse_call(ps, in) < 0)
        return -1;
    if (operand_list(ps, in, ';', parse_opnd) < 0 || check_operands(ps, in) < 0)
        return -1;
    lex_next(lx);
    /* st.param [param0], ... / ld.param ..., [retval0]: a call sequence's .param lives in the
     * thread's local memory (parse_body), the kernel's own parameters stay .param */
    if ((in->cls == CL_LOAD || in->cls == CL_STORE) && in->space == SP_PARAM) {
        const sim_opnd *a = &in->o[lab_sim__addr_index(in->op)];
        if (a->kind == O_MEM && a->reg < 0 && a->space == SP_LOCAL)
            in->space = SP_LOCAL;
    }
    return 0;
}

static uint32_t
type_bytes(unsigned t)
{
    static const uint8_t bytes[T_COUNT] = {
        [T_B8] = 1,   [T_B16] = 2,   [T_B32] = 4,  [T_B64] = 8,    [T_U8] = 1,
        [T_U16] = 2,  [T_U32] = 4,   [T_U64] = 8,  [T_S8] = 1,     [T_S16] = 2,
        [T_S32] = 4,  [T_S64] = 8,   [T_F16] = 2,  [T_F32] = 4,    [T_F64] = 8,
        [T_PRED] = 1, [T_F16X2] = 4, [T_BF16] = 2, [T_BF16X2] = 4, [T_TF32] = 4
    };
    return t < T_COUNT ? bytes[t] : 0;
}

/* [.align A] .type name[N] [= {...}] : after the state space; returns name, size, alignment and
 * the element's size in bytes (an initializer's stride). */
static int
parse_var_decl(parser *ps, const char **name, uint64_t *size, uint32_t *align, bool *unsized,
               uint32_t *elem_bytes)
{
    lexer *lx = &ps->lx;
    uint32_t elem = 0;

    *align = 0;
    *unsized = false;
    while (lx->cur.kind == TK_ID && lx->cur.s[0] == '.') {
        if (tk_is(&lx->cur, ".align")) {
            int64_t a;
            lex_next(lx);
            if (lx->cur.kind != TK_NUM || parse_number(ps, &lx->cur, &a) < 0)
                return perr(ps, "bad .align");
            *align = (uint32_t)a;
        } else {
            sim_insn tmp = { 0 };
            char tname[16];
            snprintf(tname, sizeof(tname), "%.*s", (int)lx->cur.len - 1, lx->cur.s + 1);
            for (size_t i = 0; i < ARRAY_SIZE(mods); i++)
                if (mods[i].kind == MK_TYPE && !strcmp(mods[i].name, tname))
                    tmp.type = (uint8_t)mods[i].value;
            if (!tmp.type)
                return punsupported(ps, "the declaration qualifier '%.*s'", (int)lx->cur.len,
                                    lx->cur.s);
            elem = type_bytes(tmp.type);
        }
        lex_next(lx);
    }
    if (lx->cur.kind != TK_ID || !elem)
        return perr(ps, "bad variable declaration");
    if (!(*name = lab_arena_strndup(&ps->m->arena, lx->cur.s, lx->cur.len)))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    lex_next(lx);
    *size = elem;
    while (tk_punct(&lx->cur, '[')) {
        int64_t n;
        lex_next(lx);
        if (tk_punct(&lx->cur, ']')) {
            *unsized = true;
            *size = 0;
        } else {
            if (lx->cur.kind != TK_NUM || parse_number(ps, &lx->cur, &n) < 0)
                return perr(ps, "bad array size");
            *size *= (uint64_t)n;
            lex_next(lx);
        }
        if (!tk_punct(&lx->cur, ']'))
            return perr(ps, "expected ']'");
        lex_next(lx);
    }
    if (!*align)
        *align = elem;
    if (elem_bytes)
        *elem_bytes = elem;
    return 0;
}

static uint64_t
align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* One element of a variable's initializer, consumed: a number, -number, a function's address
 * (a table of function pointers: = {_Z3addii, _Z3subii}) or a variable's, generic(var) too. */
static int
init_value(parser *ps, int64_t *out)
{
    lexer *lx = &ps->lx;
    bool minus = tk_punct(&lx->cur, '-'), generic = tk_is(&lx->cur, "generic");
    uint8_t space = 0;

    *out = 0;
    if (minus || generic)
        lex_next(lx);
    if (generic && tk_punct(&lx->cur, '('))
        lex_next(lx);
    if (lx->cur.kind == TK_NUM) {
        if (parse_number(ps, &lx->cur, out) < 0)
            return -1;
        *out = minus ? -*out : *out;
    } else if (lx->cur.kind == TK_ID && func_known(ps, lx->cur.s, lx->cur.len)) {
        int32_t id = func_id(ps, lx->cur.s, lx->cur.len);
        if (id < 0)
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        *out = (int64_t)(SIM_FUNC_TAG | (uint64_t)id);
    } else if (lx->cur.kind != TK_ID || !resolve_symbol(ps, lx->cur.s, lx->cur.len, &space, out) ||
               space == SP_SHARED) {
        return punsupported(ps, "the initializer '%.*s'", (int)lx->cur.len, lx->cur.s);
    }
    lex_next(lx);
    if (generic && tk_punct(&lx->cur, ')'))
        lex_next(lx);
    return 0;
}

/* A .global, .shared or .const variable at module or function scope (module layout). */
static int
parse_gvar(parser *ps, sim_space space)
{
    lexer *lx = &ps->lx;
    sim_gvar *g = lab_arena_calloc(&ps->m->arena, 1, sizeof(*g));
    uint32_t align, elem;
    bool unsized;
    int rc;

    if (!g)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    if (parse_var_decl(ps, &g->name, &g->size, &align, &unsized, &elem) < 0)
        return -1;
    g->space = space;
    if (space == SP_SHARED) {
        if (unsized) {
            g->dynamic = true; /* its own window, whatever the static arrays' size */
            g->addr = SIM_DYN_SHARED;
        } else {
            uint64_t at = align_up(ps->m->module_shared, align);
            if (g->size > SIM_SHARED_MAX || at + g->size > SIM_SHARED_MAX)
                return punsupported(ps, "more than %u MiB of shared variables in one module",
                                    SIM_SHARED_MAX >> 20);
            g->addr = (uint32_t)at;
            ps->m->module_shared = (uint32_t)(at + g->size);
        }
    } else {
        uint64_t addr;

        if (g->size > SIM_GLOBALS_MAX - ps->global_bytes)
            return punsupported(ps, "more than %u MiB of variables in global memory",
                                SIM_GLOBALS_MAX >> 20);
        ps->global_bytes += g->size;
        if ((rc = lab_sim__alloc_internal(ps->m->sim, g->size ? g->size : 1, &addr, ps->err)) < 0)
            return rc;
        g->addr = addr;
        if (tk_punct(&lx->cur, '=')) { /* initializer: = v or = {v, ...}, one element each */
            uint8_t *mem = (uint8_t *)(uintptr_t)addr;
            uint64_t off = 0;
            lex_next(lx);
            if (tk_punct(&lx->cur, '{'))
                lex_next(lx);
            while (lx->cur.kind == TK_NUM || lx->cur.kind == TK_ID || tk_punct(&lx->cur, '-')) {
                int64_t v;
                if (init_value(ps, &v) < 0)
                    return -1;
                if (off < g->size) {
                    size_t n = g->size - off < elem ? g->size - off : elem;
                    memcpy(mem + off, &v, n); /* little-endian: the element's low bytes */
                }
                off += elem;
                if (tk_punct(&lx->cur, ','))
                    lex_next(lx);
            }
            if (tk_punct(&lx->cur, '}'))
                lex_next(lx);
        }
    }
    g->next = ps->m->gvars;
    ps->m->gvars = g;
    return skip_to_semicolon(ps);
}

static int
parse_local(parser *ps)
{
    sim_gvar *g = lab_arena_calloc(&ps->m->arena, 1, sizeof(*g));
    uint32_t align;
    bool unsized;

    if (!g)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    if (parse_var_decl(ps, &g->name, &g->size, &align, &unsized, NULL) < 0)
        return -1;
    g->space = SP_LOCAL;
    g->addr = align_up(ps->fn->local_bytes, align);
    if (g->size > GPU_LOCAL_MAX || g->addr + g->size > GPU_LOCAL_MAX)
        return perr(ps, "uses too much local data (0x%llx bytes, 0x%x max)",
                    (unsigned long long)(g->addr + g->size), GPU_LOCAL_MAX);
    ps->fn->local_bytes = (uint32_t)(g->addr + g->size);
    g->next = ps->locals;
    ps->locals = g;
    return skip_to_semicolon(ps);
}

/* .reg .b32 %r<18>;   .reg .b64 %SP, %SPL; */
static int
parse_reg_decl(parser *ps)
{
    lexer *lx = &ps->lx;

    lex_next(lx); /* the type */
    lex_next(lx);
    while (lx->cur.kind == TK_ID) {
        tok name = lx->cur;
        lex_next(lx);
        if (tk_punct(&lx->cur, '<')) {
            int64_t n;
            char buf[96];
            lex_next(lx);
            if (lx->cur.kind != TK_NUM || parse_number(ps, &lx->cur, &n) < 0 || n < 0 ||
                n > 1000000 || name.len > 64)
                return perr(ps, "bad register count");
            lex_next(lx);
            if (!tk_punct(&lx->cur, '>'))
                return perr(ps, "expected '>'");
            lex_next(lx);
            for (int64_t i = 0; i < n; i++) {
                int len =
                    snprintf(buf, sizeof(buf), "%.*s%lld", (int)name.len, name.s, (long long)i);
                if (reg_add(ps, buf, (size_t)len) < 0)
                    return -1;
            }
        } else if (reg_add(ps, name.s, name.len) < 0) {
            return -1;
        }
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
    }
    return skip_to_semicolon(ps);
}

/* F L C of a .loc or of its inlined_at, on the directive's line: the file and the line (0 if
 * missing) */
static int
loc_numbers(parser *ps, uint32_t line, uint32_t *file, uint32_t *src_line)
{
    lexer *lx = &ps->lx;
    int64_t v[3] = { 0 };

    for (int i = 0; i < 3 && lx->cur.kind == TK_NUM && lx->cur.line == line; i++) {
        if (parse_number(ps, &lx->cur, &v[i]) < 0)
            return -1;
        lex_next(lx);
    }
    *file = (uint32_t)v[0];
    *src_line = (uint32_t)v[1];
    return 0;
}

/* .loc F L C [, function_name X, inlined_at F2 L2 C2].  nvcc writes the whole chain of calls
 * that inlined the code, outermost first; an instruction keeps its own line and, as where it
 * was inlined, the innermost place of the chain in the file the chain starts in (the kernel's:
 * the student's line that called a header's function, not a line of another header). */
static int
parse_loc(parser *ps)
{
    lexer *lx = &ps->lx;
    uint32_t line = lx->cur.line, inl_file = 0, inl_line = 0;

    lex_next(lx);
    if (loc_numbers(ps, line, &ps->cur_file, &ps->cur_line) < 0)
        return -1;
    while (lx->cur.kind != TK_EOF && lx->cur.line == line) {
        bool inlined = tk_is(&lx->cur, "inlined_at");
        lex_next(lx);
        if (inlined && loc_numbers(ps, line, &inl_file, &inl_line) < 0)
            return -1;
    }
    if (!inl_file) { /* a chain starts */
        ps->root_file = ps->cur_file;
        ps->inl_file = ps->inl_line = 0;
    } else if (inl_file == ps->root_file || !ps->inl_file) {
        ps->inl_file = inl_file;
        ps->inl_line = inl_line;
    }
    return 0;
}

static int
parse_params(parser *ps, sim_func *f)
{
    lexer *lx = &ps->lx;
    sim_param tmp[64];
    uint32_t n = 0, off = 0;

    lex_next(lx); /* ( */
    while (!tk_punct(&lx->cur, ')')) {
        const char *name;
        uint64_t size;
        uint32_t align;
        bool unsized;
        if (!tk_is(&lx->cur, ".param"))
            return perr(ps, "expected .param");
        lex_next(lx);
        if (parse_var_decl(ps, &name, &size, &align, &unsized, NULL) < 0)
            return -1;
        if (n == ARRAY_SIZE(tmp))
            return perr(ps, "too many parameters");
        off = (uint32_t)align_up(off, align);
        tmp[n++] = (sim_param){ name, off, (uint32_t)size };
        off += (uint32_t)size;
        if (tk_punct(&lx->cur, ','))
            lex_next(lx);
    }
    lex_next(lx);
    if (!(f->params = lab_arena_calloc(&ps->m->arena, n ? n : 1, sizeof(sim_param))))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    memcpy(f->params, tmp, n * sizeof(sim_param));
    f->nparams = n;
    f->param_bytes = off;
    return 0;
}

static int
parse_body(parser *ps)
{
    lexer *lx = &ps->lx;

    lex_next(lx); /* { */
    ps->scope = 1;
    while (ps->scope > 0) {
        tok t = lx->cur;
        if (t.kind == TK_EOF)
            return perr(ps, "function '%s' has no end", ps->fn->name);
        if (tk_punct(&t, '{')) {
            ps->scope++;
            lex_next(lx);
        } else if (tk_punct(&t, '}')) {
            reg_scope_close(ps, ps->scope--);
            lex_next(lx);
        } else if (tk_is(&t, ".reg")) {
            if (parse_reg_decl(ps) < 0)
                return -1;
        } else if (tk_is(&t, ".loc")) {
            if (parse_loc(ps) < 0)
                return -1;
        } else if (tk_is(&t, ".shared")) {
            lex_next(lx);
            if (parse_gvar(ps, SP_SHARED) < 0)
                return -1;
        } else if (tk_is(&t, ".local")) {
            lex_next(lx);
            if (parse_local(ps) < 0)
                return -1;
        } else if (tk_is(&t, ".param")) { /* a call sequence's argument or return value */
            uint32_t before = ps->fn->local_bytes;
            lex_next(lx);
            if (parse_local(ps) < 0)
                return -1;
            ps->fn->callseq_bytes += ps->fn->local_bytes - before;
        } else if (tk_is(&t, ".pragma") || tk_is(&t, ".callprototype")) {
            if (skip_to_semicolon(ps) < 0)
                return -1;
        } else if (t.kind == TK_ID && t.s[0] != '%' && t.s[0] != '.' &&
                   (lex_next(lx), tk_punct(&lx->cur, ':'))) {
            int32_t li = label_index(ps, t.s, t.len);
            if (li < 0)
                return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
            ps->labels[li].pc = (int32_t)ps->ncode;
            lex_next(lx);
        } else {
            if (t.kind == TK_ID && t.s[0] != '%' && t.s[0] != '.') {
                /* the opcode was consumed by the label test: step back */
                lx->p = t.s;
                lx->line = t.line;
                lex_next(lx);
            }
            if (parse_instruction(ps) < 0)
                return -1;
        }
    }
    return 0;
}

static int
finish_function(parser *ps)
{
    sim_func *f = ps->fn;

    for (size_t i = 0; i < ps->ncode; i++) {
        sim_insn *in = &ps->code[i];
        if (in->cls != CL_BRANCH)
            continue;
        if (in->o[0].kind != O_LABEL)
            return lab_err_set(ps->err, LAB_EPARSE, "%s:%u: '%s' needs a label", ps->m->path,
                               in->ptx_line, in->text);
        label_ref *l = &ps->labels[in->o[0].reg];
        if (l->pc < 0)
            return lab_err_set(ps->err, LAB_EPARSE, "%s:%u: undefined label '%.*s'", ps->m->path,
                               in->ptx_line, (int)l->len, l->name);
        in->target = l->pc;
    }
    if (!(f->code = lab_arena_calloc(&ps->m->arena, ps->ncode ? ps->ncode : 1, sizeof(sim_insn))))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    if (ps->ncode) /* an empty body has no code to copy, ps->code is NULL */
        memcpy(f->code, ps->code, ps->ncode * sizeof(sim_insn));
    for (size_t i = 0; i < ps->ncode; i++) /* constants as lane rows: no copy per execution */
        for (unsigned k = 0; k < f->code[i].nops; k++) {
            sim_opnd *o = &f->code[i].o[k];
            uint64_t *row;
            if (o->kind != O_IMM && o->kind != O_ADDR)
                continue;
            if (!(row = lab_arena_alloc(&ps->m->arena, 32 * sizeof(*row))))
                return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
            for (int l = 0; l < 32; l++)
                row[l] = (uint64_t)o->imm;
            o->splat = row;
        }
    f->ncode = (uint32_t)ps->ncode;
    f->nregs = ps->nregs;
    return lab_sim__cfg(f, ps->err);
}

/* A function's parameters, then its return value, open its frame of local memory: locals of
 * the function, at the offsets parse_params gave them (sim_func.params) */
static int
frame_params(parser *ps, sim_func *f, const sim_param *ret)
{
    for (uint32_t i = 0; i <= f->nparams; i++) {
        const sim_param *p = i < f->nparams ? &f->params[i] : ret;
        sim_gvar *g;
        if (!p)
            break;
        if (!(g = lab_arena_calloc(&ps->m->arena, 1, sizeof(*g))))
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
        g->name = p->name;
        g->space = SP_LOCAL;
        g->size = p->size;
        g->addr = p == ret ? align_up(f->param_bytes, 8) : p->offset;
        g->next = ps->locals;
        ps->locals = g;
        if (p == ret) {
            f->ret_offset = (int32_t)g->addr;
            f->ret_bytes = p->size;
        }
        f->local_bytes = (uint32_t)(g->addr + g->size);
    }
    f->arg_bytes = f->local_bytes;
    return 0;
}

static int
parse_function(parser *ps, bool entry)
{
    lexer *lx = &ps->lx;
    sim_func *f = lab_arena_calloc(&ps->m->arena, 1, sizeof(*f)), ret = { 0 };
    int rc;

    if (!f)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    f->entry = entry;
    f->ret_offset = -1;
    lex_next(lx);
    if (!entry && tk_punct(&lx->cur, '(') && parse_params(ps, &ret) < 0) /* return value */
        return -1;
    if (lx->cur.kind != TK_ID)
        return perr(ps, "expected a function name");
    if (!(f->name = lab_arena_strndup(&ps->m->arena, lx->cur.s, lx->cur.len)) ||
        func_id(ps, lx->cur.s, lx->cur.len) < 0)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    lex_next(lx);
    if (tk_punct(&lx->cur, '(') && parse_params(ps, f) < 0)
        return -1;
    while (lx->cur.kind == TK_ID && lx->cur.s[0] == '.') /* .maxntid 256, 1, 1 etc. */
        skip_line(ps);
    if (tk_punct(&lx->cur, ';')) { /* a declaration (vprintf) */
        lex_next(lx);
        return 0;
    }
    if (!tk_punct(&lx->cur, '{'))
        return perr(ps, "expected '{' after function '%s'", f->name);
    ps->fn = f;
    ps->nregs = 0;
    ps->nhidden = 0;
    ps->ncode = 0;
    ps->nlabels = 0;
    ps->locals = NULL;
    if (ps->regs)
        memset(ps->regs, 0, ps->regcap * sizeof(*ps->regs));
    if ((!entry && (rc = frame_params(ps, f, ret.nparams ? ret.params : NULL)) < 0) ||
        (rc = parse_body(ps)) < 0 || (rc = finish_function(ps)) < 0)
        return rc;
    f->next = ps->m->funcs;
    ps->m->funcs = f;
    ps->fn = NULL;
    return 0;
}

static int
parse_file_directive(parser *ps)
{
    lexer *lx = &ps->lx;
    uint32_t line = lx->cur.line;
    int64_t n;

    lex_next(lx);
    if (lx->cur.kind == TK_NUM && parse_number(ps, &lx->cur, &n) == 0) {
        lex_next(lx);
        if (lx->cur.kind == TK_STR && n >= 0 && (size_t)n < ARRAY_SIZE(ps->m->files) &&
            !(ps->m->files[n] = lab_arena_strndup(&ps->m->arena, lx->cur.s, lx->cur.len)))
            return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    }
    while (lx->cur.kind != TK_EOF && lx->cur.line == line)
        lex_next(lx);
    return 0;
}

/* .section .debug_str { ... } : skipped whole */
static void
skip_section(parser *ps)
{
    lexer *lx = &ps->lx;
    int depth = 0;

    while (lx->cur.kind != TK_EOF) {
        if (tk_punct(&lx->cur, '{'))
            depth++;
        else if (tk_punct(&lx->cur, '}') && --depth == 0) {
            lex_next(lx);
            return;
        }
        lex_next(lx);
    }
}

/* The .file lines come last in nvcc's output: collect them first so .loc resolves. */
static int
prescan_files(parser *ps)
{
    lexer save = ps->lx;
    int rc = 0;

    while (ps->lx.cur.kind != TK_EOF && rc == 0) {
        if (tk_is(&ps->lx.cur, ".file"))
            rc = parse_file_directive(ps);
        else
            lex_next(&ps->lx);
    }
    ps->lx = save;
    return rc;
}

/* m->fdefs: each named function's body, for calls (the kernels' are never called) */
static int
function_table(parser *ps)
{
    lab_sim_module *m = ps->m;

    if (!(m->fdefs = calloc(m->nfnames ? m->nfnames : 1, sizeof(*m->fdefs))))
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < m->nfnames; i++)
        for (const sim_func *f = m->funcs; f; f = f->next)
            if (!f->entry && !strcmp(f->name, m->fnames[i])) {
                m->fdefs[i] = f;
                m->has_funcs = true;
            }
    return 0;
}

int
lab_sim__parse(lab_sim_module *m, const char *text, size_t len, lab_err *err)
{
    parser ps = { 0 };
    lexer *lx = &ps.lx;
    int rc = 0;

    ps.m = m;
    ps.err = err;
    lx->p = text;
    lx->end = text + len;
    lx->line = 1;
    lex_next(lx);
    if ((rc = prescan_files(&ps)) < 0)
        goto out;
    while (lx->cur.kind != TK_EOF) {
        tok t = lx->cur;
        if (tk_is(&t, ".version") || tk_is(&t, ".target") || tk_is(&t, ".address_size") ||
            tk_is(&t, ".loc")) {
            skip_line(&ps);
        } else if (tk_is(&t, ".file")) {
            if ((rc = parse_file_directive(&ps)) < 0)
                goto out;
        } else if (tk_is(&t, ".section")) {
            skip_section(&ps);
        } else if (tk_is(&t, ".visible") || tk_is(&t, ".extern") || tk_is(&t, ".weak") ||
                   tk_is(&t, ".common")) {
            lex_next(lx);
        } else if (tk_is(&t, ".entry") || tk_is(&t, ".func")) {
            if ((rc = parse_function(&ps, tk_is(&t, ".entry"))) < 0)
                goto out;
        } else if (tk_is(&t, ".global") || tk_is(&t, ".shared") || tk_is(&t, ".const")) {
            sim_space sp = tk_is(&t, ".shared") ? SP_SHARED : SP_GLOBAL;
            lex_next(lx);
            if ((rc = parse_gvar(&ps, sp)) < 0)
                goto out;
        } else if (tk_is(&t, ".pragma")) {
            if ((rc = skip_to_semicolon(&ps)) < 0)
                goto out;
        } else {
            rc = perr(&ps, "unexpected '%.*s' at module scope", (int)t.len, t.s);
            goto out;
        }
    }
    rc = function_table(&ps);
out:
    free(ps.regs);
    free(ps.hidden);
    free(ps.labels);
    free(ps.code);
    return rc < 0 ? (err->code ? err->code : LAB_EPARSE) : 0;
}
