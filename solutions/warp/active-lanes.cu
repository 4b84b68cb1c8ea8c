// Reference for warp/active-lanes: lane 0 of each warp counts the lanes that
// are active with it.  At the kernel's start no thread has branched, so the
// active mask is exactly the lanes that hold a thread.
__global__ void countActiveLanes(unsigned *active)
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;
    unsigned warps = (threads + warpSize - 1) / warpSize;
    unsigned mask = __activemask();

    if (t % warpSize == 0)
        active[blockIdx.x * warps + t / warpSize] = __popc(mask);
}
