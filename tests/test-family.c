/*
 * test-family.c - the registry of kernel-signature families
 * (lab/catalog/families.def) against the real nvcc: each family's C
 * parameters, compiled, give the entry its mangled column spells; names are
 * unique; the simulator's caps.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/build/ptx.h"
#include "lab/build/toolchain.h"
#include "lab/catalog/family.h"
#include "lab/util/buf.h"

/* Every family's signature in one file: kernel kN takes family N's C parameters. */
static void
write_source(lab_buf *src)
{
    for (size_t i = 0; i < lab_family_count; i++)
        lab_buf_adds(src, lab_families[i].preamble);
    for (size_t i = 0; i < lab_family_count; i++)
        lab_buf_printf(src, "__global__ void k%zu(%s) {}\n", i, lab_families[i].params);
}

Test(family, mangled_parameters_are_what_nvcc_makes_of_the_c_ones)
{
    char dir[] = "/tmp/test-family-XXXXXX";
    lab_buf src = LAB_BUF_INIT, path = LAB_BUF_INIT, cache = LAB_BUF_INIT, entry = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_toolchain *tc;
    lab_build b;

    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(lab_toolchain_find(&tc, &err), 0, "%s", err.msg);
    write_source(&src);
    lab_buf_printf(&path, "%s/families.cu", dir);
    lab_buf_printf(&cache, "%s/cache", dir);
    cr_assert_eq(lab_write_file(path.buf, src.buf, src.len, &err), 0, "%s", err.msg);
    lab_build_init(&b);
    lab_build_request req = {
        .source = path.buf, .arch = "sm_90", .cache_dir = cache.buf, .timeout_s = 120
    };
    cr_assert_eq(lab_toolchain_build(tc, &req, &b, &err), 0, "%s", err.msg);
    cr_assert(b.ok, "the registry's C parameters do not compile: %s", b.log.buf);
    for (size_t i = 0; i < lab_family_count; i++) {
        char name[32];
        snprintf(name, sizeof(name), "k%zu", i);
        lab_buf_reset(&entry);
        cr_assert_eq(lab_ptx_mangle(name, lab_families[i].mangled, &entry), 0);
        cr_expect(lab_ptx_has_entry(b.ptx.buf, entry.buf),
                  "family %s: (%s) is not %s in nvcc's PTX", lab_families[i].name,
                  lab_families[i].params, lab_families[i].mangled);
    }
    lab_build_release(&b);
    lab_toolchain_free(tc);
    lab_buf_release(&src);
    lab_buf_release(&path);
    lab_buf_release(&cache);
    lab_buf_release(&entry);
    lab_buf_printf(&src, "rm -rf '%s'", dir);
    cr_expect_eq(system(src.buf), 0);
    lab_buf_release(&src);
}

Test(family, names_are_unique_and_found)
{
    for (size_t i = 0; i < lab_family_count; i++) {
        cr_expect_eq(lab_family_find(lab_families[i].name), &lab_families[i], "%s",
                     lab_families[i].name);
        for (size_t k = i + 1; k < lab_family_count; k++)
            cr_expect_str_neq(lab_families[i].name, lab_families[k].name);
    }
    cr_expect_null(lab_family_find("no-such-family"));
}

Test(family, simulator_caps_a_count_or_a_matrix_side)
{
    const lab_family *reduce = lab_family_find("reduce-int"),
                     *matrix = lab_family_find("sum-matrix");

    cr_assert_not_null(reduce);
    cr_assert_not_null(matrix);
    cr_expect_eq(lab_family_sim_limit(reduce, 1ul << 20), 1ul << 20);
    cr_expect_eq(lab_family_sim_limit(matrix, 1ul << 20), 1024);
    cr_expect_eq(lab_family_sim_limit(matrix, 1000), 31);
    cr_expect_str_eq(reduce->cpu_baseline, "the CPU recursiveReduce");
    cr_expect_str_eq(matrix->cpu_baseline, "the CPU");
}
