// warp/thread-ids: write, for every thread, its global linear id, its warp
// within the block and its lane within the warp.  The lab launches this on a
// 1D grid of blocks of several shapes: 40x2, 8x4x2, 128 and 16x3x3.
//
// This version works for 1D blocks only.  Make it right for 2D and 3D blocks.
__global__ void writeThreadIds(unsigned *gid, unsigned *warp, unsigned *lane, unsigned n)
{
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;

    if (g < n) {
        gid[g] = g;
        warp[g] = t / warpSize;
        lane[g] = t % warpSize;
    }
}
