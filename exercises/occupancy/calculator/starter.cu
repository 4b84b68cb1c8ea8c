// occupancy/calculator: how many blocks of a kernel can be active on one SM at
// once?  Host code: the lab builds this file into a shared object and calls
// maxActiveBlocksPerSM with your GPU's limits (filled from its attributes) and
// a kernel's resources, for many kernels, block sizes and amounts of shared
// memory, and compares with cudaOccupancyMaxActiveBlocksPerMultiprocessor.
// Without a GPU: an H100's limits and the same rules, from the lab's tables.
struct OccDevice {
    int warpSize;             // 32
    int maxThreadsPerBlock;   // 1024
    int maxThreadsPerSM;      // 2048 on an H100 (64 warps)
    int maxBlocksPerSM;       // 32 on an H100
    int regsPerSM;            // 65536
    int regsPerBlock;         // 65536
    int regAllocUnit;         // a warp's registers come in multiples of this: 256
    int subPartitions;        // the SM's quarters, each with regsPerSM / 4 registers: 4
    int smemPerSM;            // bytes; 233472 (228 KiB) on an H100
    int smemPerBlock;         // the limit: bytes a block may use without opting in: 49152
    int smemReservedPerBlock; // bytes the system adds to every block: 1024
    int smemAllocUnit;        // shared memory comes in multiples of this: 128
};

// The kernel's resources: threadsPerBlock, regsPerThread, and smemBytes, the shared memory
// each of its blocks uses (static plus dynamic; dev->smemPerBlock is the device's limit on it).
// This version counts warp slots only.
int maxActiveBlocksPerSM(const OccDevice *dev, int threadsPerBlock, int regsPerThread,
                         int smemBytes)
{
    int warps = (threadsPerBlock + dev->warpSize - 1) / dev->warpSize;

    return dev->maxThreadsPerSM / dev->warpSize / warps;
}
