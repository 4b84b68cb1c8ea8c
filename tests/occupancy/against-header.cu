// against-header.cu - the occupancy calculator's reference solution against
// CUDA's own host-side calculator (cuda_occupancy.h), with no GPU: for the
// H100's and the A100's limits, every block size 1..1024, register counts
// 0..255 in steps and shared memory up to the per-block limit, both must give
// the same blocks per SM.  Built and run by tests/e2e/test-chapters.sh; prints
// "N configurations, M differ" and the first differences.
#include <cstdio>
#include <cuda_occupancy.h>

#include "../../solutions/occupancy/calculator.cu"

struct Gpu {
    const char *name;
    int major, minor, maxThreadsPerSM, maxBlocksPerSM, smemPerSM, smemOptin;
};

int main()
{
    const Gpu gpus[] = { { "H100", 9, 0, 2048, 32, 233472, 232448 },
                         { "A100", 8, 0, 2048, 32, 167936, 166912 } };
    long n = 0, differ = 0;

    for (const Gpu &g : gpus) {
        cudaOccDeviceProp p;
        p.computeMajor = g.major;
        p.computeMinor = g.minor;
        p.maxThreadsPerBlock = 1024;
        p.maxThreadsPerMultiprocessor = g.maxThreadsPerSM;
        p.regsPerBlock = 65536;
        p.regsPerMultiprocessor = 65536;
        p.warpSize = 32;
        p.sharedMemPerBlock = 49152;
        p.sharedMemPerMultiprocessor = g.smemPerSM;
        p.numSms = 100;
        p.sharedMemPerBlockOptin = g.smemOptin;
        p.reservedSharedMemPerBlock = 1024;
        OccDevice d = { 32, 1024, g.maxThreadsPerSM, g.maxBlocksPerSM, 65536, 65536, 256, 4,
                        g.smemPerSM, 49152, 1024, 128 };
        cudaOccDeviceState state;
        for (int threads = 1; threads <= 1024; threads += (threads < 64 ? 1 : 7))
            for (int regs = 0; regs <= 255; regs += 9)
                for (int smem = 0; smem <= 49152; smem += 3071) {
                    cudaOccFuncAttributes a;
                    cudaOccResult r;
                    a.maxThreadsPerBlock = 1024;
                    a.numRegs = regs;
                    a.sharedSizeBytes = smem;
                    a.partitionedGCConfig = PARTITIONED_GC_OFF;
                    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
                    a.maxDynamicSharedSizeBytes = 0;
                    a.numBlockBarriers = 1;
                    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &state, threads, 0) !=
                        CUDA_OCC_SUCCESS)
                        continue;
                    int mine = maxActiveBlocksPerSM(&d, threads, regs, smem);
                    n++;
                    if (mine != r.activeBlocksPerMultiprocessor && differ++ < 5)
                        printf("%s: %d threads, %d regs, %d B: reference %d, cuda_occupancy.h %d\n",
                               g.name, threads, regs, smem, mine, r.activeBlocksPerMultiprocessor);
                }
    }
    printf("%ld configurations, %ld differ\n", n, differ);
    return differ != 0;
}
