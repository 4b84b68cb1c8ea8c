/*
 * demos.c - the chapters' demos by program name (`demo = demo-CHAPTER` in a
 * chapter's manifest).
 */
#include "common/demodrv.h"

extern const lab_demo_driver lab_demo_blockshape, lab_demo_divergence, lab_demo_occupancy,
    lab_demo_reduction, lab_demo_warp;

const lab_demo_program lab_demo_programs[] = {
    { "demo-blockshape", &lab_demo_blockshape },
    { "demo-divergence", &lab_demo_divergence },
    { "demo-occupancy", &lab_demo_occupancy },
    { "demo-reduction", &lab_demo_reduction },
    { "demo-warp", &lab_demo_warp },
};
const size_t lab_demo_program_count = sizeof(lab_demo_programs) / sizeof(lab_demo_programs[0]);
