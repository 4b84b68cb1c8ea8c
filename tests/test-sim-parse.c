/*
 * test-sim-parse.c - the simulator's parser against lab/sim/ops.def: every
 * instruction's operand count is its opcode's (min..max, narrowed by the
 * form: setp's bool op, atom's .cas, the .sync member mask, bar.red), and
 * an instruction that writes o[0] writes a register.  A wrong one is refused
 * with the file, the PTX line and the instruction named; the forms nvcc emits
 * load.  Each case is one instruction in a small kernel (line 16).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <string.h>

#include "lab/util/err.h"
#include "lab/sim/sim.h"

/* the kernel around one instruction: it lands on line 16 of "k.ptx" */
static void
kernel_with(const char *insn, char *out, size_t len)
{
    int n = snprintf(out, len,
                     ".version 9.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
                     "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n"
                     "\tld.param.u64 %%rd1, [k_param_0];\n"
                     "\tcvta.to.global.u64 %%rd2, %%rd1;\n"
                     "\tmov.u32 %%r1, %%tid.x;\n"
                     "\tsetp.ne.s32 %%p1, %%r1, 0;\n"
                     "$L1:\n"
                     "\t%s\n"
                     "\tst.global.u32 [%%rd2], %%r1;\n\tret;\n}\n",
                     insn);
    cr_assert(n > 0 && (size_t)n < len, "the kernel is too long for its buffer");
}

/* loads the kernel around insn: 0, or the parser's error in err */
static int
load(const char *insn, lab_sim **sim, lab_sim_module **mod, lab_err *err)
{
    char text[1024];

    kernel_with(insn, text, sizeof(text));
    cr_assert_eq(lab_sim_new(sim, err), 0, "%s", err->msg);
    lab_sim_set_threads(*sim, 1);
    return lab_sim_load(*sim, text, strlen(text), "k.ptx", mod, err);
}

struct bad {
    char insn[64];
    char msg[96]; /* the whole error */
};

ParameterizedTestParameters(sim_parse, a_wrong_operand_count_is_named)
{
    static struct bad cases[] = {
        /* arithmetic */
        { "add.s32 %r2, %r1;", "k.ptx:16: 'add.s32' takes 3 operands, got 2" },
        { "shl.b32 %r2, %r1, 1, 2;", "k.ptx:16: 'shl.b32' takes 3 operands, got 4" },
        { "neg.s32 %r2, %r1, %r3;", "k.ptx:16: 'neg.s32' takes 2 operands, got 3" },
        { "mad.lo.s32 %r2, %r1, %r1;", "k.ptx:16: 'mad.lo.s32' takes 4 operands, got 3" },
        { "bfi.b32 %r2, %r1, %r1, 0;", "k.ptx:16: 'bfi.b32' takes 5 operands, got 4" },
        { "mov.u32 %r2;", "k.ptx:16: 'mov.u32' takes 2 operands, got 1" },
        { "cvt.rn.f32.s32 %r2;", "k.ptx:16: 'cvt.rn.f32.s32' takes 2 operands, got 1" },
        { "cvta.to.global.u64 %rd3;", "k.ptx:16: 'cvta.to.global.u64' takes 2 operands, got 1" },
        { "testp.finite.f32 %p2;", "k.ptx:16: 'testp.finite.f32' takes 2 operands, got 1" },
        /* compare and select: setp's c comes with a bool op, and only with one */
        { "setp.lt.s32 %p2, %r1, 1, %p1;", "k.ptx:16: 'setp.lt.s32' takes 3 operands, got 4" },
        { "setp.lt.and.s32 %p2, %r1, 1;", "k.ptx:16: 'setp.lt.and.s32' takes 4 operands, got 3" },
        { "selp.b32 %r2, %r1, 1;", "k.ptx:16: 'selp.b32' takes 4 operands, got 3" },
        /* memory: atom's c comes with .cas, and only with it */
        { "ld.global.u32 %r2, [%rd2], %r1;", "k.ptx:16: 'ld.global.u32' takes 2 operands, got 3" },
        { "st.global.u32 [%rd2];", "k.ptx:16: 'st.global.u32' takes 2 operands, got 1" },
        { "atom.global.cas.b32 %r2, [%rd2], %r1;",
          "k.ptx:16: 'atom.global.cas.b32' takes 4 operands, got 3" },
        { "atom.global.add.u32 %r2, [%rd2], %r1, %r1;",
          "k.ptx:16: 'atom.global.add.u32' takes 3 operands, got 4" },
        { "red.global.add.u32 [%rd2];", "k.ptx:16: 'red.global.add.u32' takes 2 operands, got 1" },
        /* control */
        { "@%p1 bra $L1, $L1;", "k.ptx:16: 'bra' takes 1 operand, got 2" },
        { "ret %r1;", "k.ptx:16: 'ret' takes no operands, got 1" },
        { "bra %r1;", "k.ptx:16: 'bra' needs a label" },
        { "membar.gl 0;", "k.ptx:16: 'membar.gl' takes no operands, got 1" },
        { "bar.sync 0, 64, 1;", "k.ptx:16: 'bar.sync' takes 1 or 2 operands, got 3" },
        { "bar.red.popc.u32 %r2, 0;", "k.ptx:16: 'bar.red.popc.u32' takes 3 or 4 operands, got 2" },
        /* warp: the .sync forms end with the member mask */
        { "shfl.sync.bfly.b32 %r2, %r1, 1, 31;",
          "k.ptx:16: 'shfl.sync.bfly.b32' takes 5 operands, got 4" },
        { "vote.sync.ballot.b32 %r2, %p1;",
          "k.ptx:16: 'vote.sync.ballot.b32' takes 3 operands, got 2" },
        { "redux.sync.add.s32 %r2, %r1;",
          "k.ptx:16: 'redux.sync.add.s32' takes 3 operands, got 2" },
        { "activemask.b32;", "k.ptx:16: 'activemask.b32' takes 1 operand, got 0" },
        /* where an instruction writes o[0], a register */
        { "add.s32 5, %r1, %r1;", "k.ptx:16: 'add.s32' writes its first operand, which is not a "
                                  "register" },
        { "mov.u32 %tid.x, %r1;", "k.ptx:16: 'mov.u32' writes its first operand, which is not a "
                                  "register" },
        { "ld.global.u32 [%rd2], %r1;", "k.ptx:16: 'ld.global.u32' writes its first operand, which "
                                        "is not a register" },
    };

    return cr_make_param_array(struct bad, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct bad *c, sim_parse, a_wrong_operand_count_is_named)
{
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;

    cr_expect_lt(load(c->insn, &sim, &mod, &err), 0, "'%s' loaded", c->insn);
    cr_expect_str_eq(err.msg, c->msg, "%s", c->insn);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

struct good {
    char insn[64];
};

ParameterizedTestParameters(sim_parse, every_form_of_a_count_loads)
{
    static struct good cases[] = {
        { "setp.lt.s32 %p2|%p3, %r1, 1;" },
        { "setp.lt.and.s32 %p2, %r1, 1, !%p1;" },
        { "atom.global.add.u32 %r2, [%rd2], %r1;" },
        { "atom.global.cas.b32 %r2, [%rd2], %r1, 5;" },
        { "red.global.add.u32 [%rd2], %r1;" },
        { "ld.global.v2.u32 {%r2, %r3}, [%rd2];" },
        { "st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};" },
        { "mov.b64 {%r2, %r3}, %rd1;" },
        { "shfl.sync.bfly.b32 %r2|%p2, %r1, 1, 31, -1;" },
        { "shfl.bfly.b32 %r2, %r1, 1, 31;" },
        { "vote.sync.ballot.b32 %r2, %p1, -1;" },
        { "vote.any.pred %p2, !%p1;" },
        { "match.any.sync.b32 %r2, %r1, -1;" },
        { "bar.sync 0;" },
        { "barrier.sync 0, 64;" },
        { "bar.warp.sync -1;" },
        { "bar.red.popc.u32 %r2, 0, %p1;" },
        { "bar.red.and.pred %p2, 0, 64, %p1;" },
        { "membar.gl;" },
        { "bfi.b32 %r2, %r1, %r1, 0, 8;" },
        { "activemask.b32 %r2;" },
        { "@%p1 bra.uni $L1;" },
        { "ret;" },
    };

    return cr_make_param_array(struct good, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct good *c, sim_parse, every_form_of_a_count_loads)
{
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(load(c->insn, &sim, &mod, &err), 0, "'%s': %s", c->insn, err.msg);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* A fixed bug: bar.red's second word (.popc, .and, .or) replaced its operation, so
 * __syncthreads_count() ran as a plain __syncthreads() and never wrote its result; it runs now:
 * %p1 holds in lanes 1..31. */
Test(sim_parse, bar_red_keeps_its_operation)
{
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;
    lab_sim_result r;
    unsigned one[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 }, count = 0;
    uint64_t out;
    void *args[] = { &out };

    cr_assert_eq(load("bar.red.popc.u32 %r1, 0, %p1;", &sim, &mod, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_alloc(sim, 4, &out, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_launch(mod, "k", one, block, 0, args, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_copy_out(sim, &count, out, 4, &err), 0, "%s", err.msg);
    cr_expect_eq(count, 31);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* Loads a whole module from text; 0, or the parser's error in err. */
static int
load_text(const char *text, lab_sim **sim, lab_sim_module **mod, lab_err *err)
{
    cr_assert_eq(lab_sim_new(sim, err), 0, "%s", err->msg);
    lab_sim_set_threads(*sim, 1);
    return lab_sim_load(*sim, text, strlen(text), "k.ptx", mod, err);
}

/* Fixed bugs found by fuzzing the loader (# 19): each input was a crash or an out-of-bounds
 * read; each is now refused, or loaded and run, with the sanitizers quiet. */

/* "..;" splits into no words: the opcode was a NULL string compared with every op's name */
Test(sim_parse, an_instruction_of_dots_is_refused)
{
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;

    cr_expect_lt(load("..;", &sim, &mod, &err), 0);
    cr_expect(strstr(err.msg, "k.ptx:16: unsupported instruction '..'"), "%s", err.msg);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* a function with no instruction: its code was memcpy'd from NULL */
Test(sim_parse, an_empty_body_loads_and_runs)
{
    static const char text[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k()\n{\n}\n";
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;
    lab_sim_result r;
    unsigned one[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };

    cr_assert_eq(load_text(text, &sim, &mod, &err), 0, "%s", err.msg);
    cr_expect_eq(lab_sim_launch(mod, "k", one, block, 0, NULL, &r, &err), 0, "%s", err.msg);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* ptxas accepts a label after the last instruction; a branch there leaves the function.  The
 * control-flow graph read the instruction past the end and took block 0 for the target.  The
 * padding makes the code array a heap block of its own, so that AddressSanitizer sees a read
 * past it. */
Test(sim_parse, a_branch_to_the_end_of_a_function_leaves_it)
{
    static const char head[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
                               "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
                               "\tld.param.u64 %rd1, [k_param_0];\n"
                               "\tcvta.to.global.u64 %rd2, %rd1;\n"
                               "\tmov.u32 %r1, %tid.x;\n"
                               "\tsetp.ne.s32 %p1, %r1, 5;\n";
    static const char tail[] = "\t@%p1 bra $L_end;\n"
                               "\tst.global.u32 [%rd2], %r1;\n"
                               "\tbra.uni $L_end;\n"
                               "$L_end:\n}\n";
    char text[16384];
    size_t len = 0;
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;
    lab_sim_result r;
    unsigned one[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
    uint32_t got = 0, poison = 0xdeadbeef;
    uint64_t out;
    void *args[] = { &out };

    len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", head);
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "\tmov.u32 %%r2, %%r1;\n");
    len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", tail);
    cr_assert_lt(len, sizeof(text));
    cr_assert_eq(load_text(text, &sim, &mod, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_alloc(sim, 4, &out, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_copy_in(sim, out, &poison, 4, &err), 0, "%s", err.msg);
    cr_expect_eq(lab_sim_launch(mod, "k", one, block, 0, args, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_sim_copy_out(sim, &got, out, 4, &err), 0, "%s", err.msg);
    cr_expect_eq(got, 5, "thread 5 alone stores its index: got %u", got);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* Totals a kernel may declare (# 19: a 2 GiB __device__ array took 2.1 GB, 400000 registers
 * took 3.3 GB and 86 s, and both passed): refused at load, saying whose limit it is. */
struct too_much {
    char decl[96]; /* at module scope, or in the body */
    bool in_body;
    char says[128];
};

ParameterizedTestParameters(sim_parse, declarations_past_the_totals_are_refused)
{
    static struct too_much cases[] = {
        { ".global .align 1 .b8 big[2147483648];", false,
          "the simulator does not support more than 256 MiB of variables in global memory" },
        { ".global .align 4 .b8 a[200000000];\n.global .align 4 .b8 b[200000000];", false,
          "more than 256 MiB of variables in global memory" },
        { ".reg .b32 %big<400000>;", true,
          "the simulator does not support more than 65536 registers in one function" },
        { ".local .align 4 .b8 frame[600000];", true,
          "uses too much local data (0x927c0 bytes, 0x80000 max)" },
        { ".shared .align 4 .b8 tile[4294967300];", false,
          "the simulator does not support more than 16 MiB of shared variables in one module" },
    };
    return cr_make_param_array(struct too_much, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct too_much *c, sim_parse, declarations_past_the_totals_are_refused)
{
    char text[1024];
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;

    snprintf(
        text, sizeof(text),
        ".version 9.0\n.target sm_90\n.address_size 64\n%s\n.visible .entry k()\n{\n%s\nret;\n}\n",
        c->in_body ? "" : c->decl, c->in_body ? c->decl : "");
    cr_assert_lt(load_text(text, &sim, &mod, &err), 0, "%s loaded", c->decl);
    cr_expect(strstr(err.msg, c->says), "%s", err.msg);
    /* the simulator's own limits are not the student's fault; the GPU's is a compile error */
    cr_expect_eq(err.code, strstr(c->says, "local data") ? LAB_EPARSE : LAB_ENOSYS, "%d: %s",
                 err.code, err.msg);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}

/* just under the totals, a module still loads */
Test(sim_parse, declarations_within_the_totals_load)
{
    static const char text[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                               ".global .align 4 .b8 a[1048576];\n.visible .entry k()\n{\n"
                               ".reg .b32 %r<60000>;\n.local .align 4 .b8 f[524288];\nret;\n}\n";
    lab_sim *sim = NULL;
    lab_sim_module *mod = NULL;
    lab_err err = LAB_ERR_INIT;

    cr_expect_eq(load_text(text, &sim, &mod, &err), 0, "%s", err.msg);
    lab_sim_module_free(mod);
    lab_sim_free(sim);
}
