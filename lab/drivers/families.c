/*
 * families.c - the family drivers by name: one per row of the registry
 * (lab/catalog/families.def), so that a family without a driver does not link.
 */
#include "common/driver.h"

#define LAB_FAMILY(id, name, ...) extern const lab_family_driver lab_driver_##id;
#include "lab/catalog/families.def"

const lab_family_program lab_family_programs[] = {
#define LAB_FAMILY(id, name, ...) { name, &lab_driver_##id },
#include "lab/catalog/families.def"
};
const size_t lab_family_program_count =
    sizeof(lab_family_programs) / sizeof(lab_family_programs[0]);
