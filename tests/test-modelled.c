/*
 * test-modelled.c - speed on the simulator (lab/grade/modelled.h): the sizes the model's run
 * counts at, for the element and the matrix families, and below the sizes graded.
 */
#include "lab/catalog/family.h"
#include "lab/grade/modelled.h"

#include <criterion/criterion.h>

Test(modelled, sizes_of_elements)
{
    const lab_family *fam = lab_family_find("reduce-int");
    unsigned long s[2];

    cr_assert_not_null(fam);
    lab_modelled_sizes(fam, 1ul << 24, s);
    cr_expect_eq(s[0], 1ul << 16);
    cr_expect_eq(s[1], LAB_MODELLED_ELEMENTS);
    lab_modelled_sizes(fam, LAB_MODELLED_ELEMENTS, s);
    cr_expect_eq(s[1], LAB_MODELLED_ELEMENTS, "the model's size itself is enough");
    /* a cap of 70000 and of 1000: halved until within, what grade.c then refuses */
    lab_modelled_sizes(fam, 70000, s);
    cr_expect_eq(s[0], 1ul << 14);
    cr_expect_eq(s[1], 1ul << 16);
    lab_modelled_sizes(fam, 1000, s);
    cr_expect_eq(s[1], 512);
}

Test(modelled, sizes_of_a_matrix_are_sides)
{
    const lab_family *fam = lab_family_find("sum-matrix");
    unsigned long s[2];

    cr_assert_not_null(fam);
    lab_modelled_sizes(fam, 100000, s);
    cr_expect_eq(s[1], lab_family_sim_limit(fam, LAB_MODELLED_ELEMENTS));
    cr_expect_eq(s[0], lab_family_sim_limit(fam, LAB_MODELLED_ELEMENTS / 4));
    cr_expect_lt(s[1], 1000, "a side, not elements");
}
