// occ-oracle: NVIDIA's own occupancy calculator (cuda_occupancy.h, header-only,
// runs on the CPU) as the oracle for lab/core/occupancy.c.  Reads lines
//   MAJOR MINOR THREADS_PER_SM REGS_PER_SM SMEM_PER_SM SMEM_OPTIN RESERVED BLOCK REGS SMEM BARRIERS
// on stdin and prints the active blocks per SM for each (-1 on an error).
#include <cstdio>
#include <cuda_occupancy.h>

int main()
{
    int major, minor, thr, regs_sm, block, regs, bars;
    long smem_sm, optin, reserved, smem;

    while (scanf("%d %d %d %d %ld %ld %ld %d %d %ld %d", &major, &minor, &thr, &regs_sm, &smem_sm,
                 &optin, &reserved, &block, &regs, &smem, &bars) == 11) {
        cudaOccDeviceProp p;
        cudaOccFuncAttributes a;
        cudaOccDeviceState s;
        cudaOccResult r;

        p.computeMajor = major;
        p.computeMinor = minor;
        p.maxThreadsPerBlock = 1024;
        p.maxThreadsPerMultiprocessor = thr;
        p.regsPerBlock = 65536;
        p.regsPerMultiprocessor = regs_sm;
        p.warpSize = 32;
        p.sharedMemPerBlock = 48 * 1024;
        p.sharedMemPerMultiprocessor = smem_sm;
        p.sharedMemPerBlockOptin = optin;
        p.reservedSharedMemPerBlock = reserved;
        p.numSms = 1;
        a.maxThreadsPerBlock = 1024;
        a.numRegs = regs;
        a.sharedSizeBytes = smem;
        a.partitionedGCConfig = PARTITIONED_GC_OFF;
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        a.maxDynamicSharedSizeBytes = optin - smem > 0 ? optin - smem : 0;
        a.numBlockBarriers = bars;
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, block, 0) != CUDA_OCC_SUCCESS)
            printf("-1\n");
        else
            printf("%d\n", r.activeBlocksPerMultiprocessor);
    }
    return 0;
}
