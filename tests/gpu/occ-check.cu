// occ-check CUBIN MANGLED BLOCK: the CUDA occupancy API's answer for one
// kernel of a cubin (driver API, as the lab's drivers load modules), printed
// as "blocks_per_sm registers static_shared".  tests/gpu/run-profile.sh
// compares it with `cudalab inspect --json`.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = "";                                                                   \
            cuGetErrorString(r_, &s_);                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

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
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuModuleLoad(&mod, argv[1]));
    CHECK(cuModuleGetFunction(&f, mod, argv[2]));
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, atoi(argv[3]), 0));
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    printf("%d %d %d\n", blocks, regs, smem);
    return 0;
}
