// expect: PASS (the four limits written as one minimum over an array, the register limit counted in warps per sub-partition)
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
    int regsPerWarp = roundUp(regsPerThread * dev->warpSize, dev->regAllocUnit);
    int warpsPerPart = regsPerWarp ? dev->regsPerSM / dev->subPartitions / regsPerWarp : 1 << 20;
    int smem = roundUp(smemBytes + dev->smemReservedPerBlock, dev->smemAllocUnit);

    if (regsPerWarp * roundUp(warps, dev->subPartitions) > dev->regsPerBlock ||
        smem > dev->smemPerBlock + dev->smemReservedPerBlock)
        return 0;
    int limits[] = { dev->maxThreadsPerSM / dev->warpSize / warps, dev->maxBlocksPerSM,
                     warpsPerPart * dev->subPartitions / warps, dev->smemPerSM / smem };
    int best = limits[0];
    for (int i = 1; i < 4; i++)
        best = smaller(best, limits[i]);
    return best;
}
