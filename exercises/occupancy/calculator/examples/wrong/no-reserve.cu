// expect: WRONG (forgets the shared memory the system reserves per block: 1000 bytes of dynamic and 6 KiB of static shared memory make 32 blocks per SM instead of 28)
struct OccDevice {
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsPerSM;
    int maxBlocksPerSM;
    int regsPerSM;
    int regsPerBlock;
    int regAllocUnit;
    int subPartitions;
    int smemPerSM;
    int smemPerBlock;
    int smemReservedPerBlock;
    int smemAllocUnit;
};

static int roundUp(int x, int unit)
{
    return (x + unit - 1) / unit * unit;
}

static int smaller(int a, int b)
{
    return a < b ? a : b;
}

int maxActiveBlocksPerSM(const OccDevice *dev, int threadsPerBlock, int regsPerThread,
                         int smemBytes)
{
    if (threadsPerBlock < 1 || threadsPerBlock > dev->maxThreadsPerBlock)
        return 0;
    int warps = (threadsPerBlock + dev->warpSize - 1) / dev->warpSize;

    // 1. warp slots
    int byWarps = dev->maxThreadsPerSM / dev->warpSize / warps;

    // 2. blocks
    int byBlocks = dev->maxBlocksPerSM;

    // 3. registers: a warp gets them in units of regAllocUnit, from one of the SM's
    //    sub-partitions; a block's warps are counted in whole groups of subPartitions
    int regsPerWarp = roundUp(regsPerThread * dev->warpSize, dev->regAllocUnit);
    int byRegs = dev->maxBlocksPerSM;
    if (regsPerWarp * roundUp(warps, dev->subPartitions) > dev->regsPerBlock)
        byRegs = 0;
    else if (regsPerWarp > 0)
        byRegs = dev->regsPerSM / dev->subPartitions / regsPerWarp * dev->subPartitions / warps;

    // 4. shared memory, with the system's reserve, in units of smemAllocUnit
    int smem = roundUp(smemBytes, dev->smemAllocUnit);
    int bySmem = smem > dev->smemPerBlock + dev->smemReservedPerBlock ? 0 : dev->smemPerSM / smem;

    return smaller(smaller(byWarps, byBlocks), smaller(byRegs, bySmem));
}
