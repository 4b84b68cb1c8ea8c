/*
 * family.c - the kernel-signature families as a table (see family.h).
 */
#include "lab/catalog/family.h"

#include <string.h>

const lab_family lab_families[] = {
#define LAB_FAMILY(id, name, kind, returns, params, mangled, cpu, size, sim_cap, preamble)         \
    { name,                                                                                        \
      LAB_FAMILY_##kind,                                                                           \
      returns,                                                                                     \
      params,                                                                                      \
      mangled,                                                                                     \
      cpu ? cpu : "the CPU",                                                                       \
      LAB_FAMILY_SIZE_##size,                                                                      \
      LAB_FAMILY_SIM_CAP_##sim_cap,                                                                \
      preamble },
#include "lab/catalog/families.def"
};
const size_t lab_family_count = sizeof(lab_families) / sizeof(lab_families[0]);

const lab_family *
lab_family_find(const char *name)
{
    for (size_t i = 0; i < lab_family_count; i++)
        if (!strcmp(lab_families[i].name, name))
            return &lab_families[i];
    return NULL;
}

unsigned long
lab_family_sim_limit(const lab_family *f, unsigned long max_elements)
{
    unsigned long side = 1;

    if (f->sim_cap != LAB_FAMILY_SIM_CAP_SIDE)
        return max_elements;
    while ((side + 1) * (side + 1) <= max_elements)
        side++;
    return side;
}
