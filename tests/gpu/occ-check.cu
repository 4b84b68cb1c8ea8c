// occ-check CUBIN MANGLED BLOCK: the CUDA occupancy API's answer for one
// kernel of a cubin (driver API, as the lab's drivers load modules), printed
// as "blocks_per_sm registers static_shared".  tests/gpu/run-profile.sh
// compares it with `cudalab inspect --json`.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

#include "common/common.h"

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    int blocks = 0, regs = 0, smem = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: occ-check CUBIN MANGLED BLOCK\n");
        return 2;
    }
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&dev, 0));
    CHECK_CU(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK_CU(cuModuleLoad(&mod, argv[1]));
    CHECK_CU(cuModuleGetFunction(&f, mod, argv[2]));
    CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, atoi(argv[3]), 0));
    CHECK_CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CHECK_CU(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    printf("%d %d %d\n", blocks, regs, smem);
    return 0;
}
