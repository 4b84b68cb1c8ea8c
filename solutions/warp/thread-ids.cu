// Reference for warp/thread-ids: the linear id of a thread in a 1D, 2D or 3D
// block, then its warp and lane within the block.
__global__ void writeThreadIds(unsigned *gid, unsigned *warp, unsigned *lane, unsigned n)
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;
    unsigned g = blockIdx.x * threads + t;

    if (g < n) {
        gid[g] = g;
        warp[g] = t / warpSize;
        lane[g] = t % warpSize;
    }
}
