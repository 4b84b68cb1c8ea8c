// Reference for occupancy/block-size.  40 KiB of shared memory per block plus
// the 1 KiB the system keeps per block: five blocks fit in an H100 SM's
// 228 KiB.  Five blocks of 256 threads are 40 of the SM's 64 warp slots
// (62.5 %); five of 384 are 60; 512 threads hit the 2048-threads-per-SM limit
// at four blocks: 64 warps, every slot.  Each thread has one load in flight,
// so the memory latency is hidden only by warps: the more resident warps, the
// faster.  512 and 1024 both fill the SM, and yet 1024 wins: every block first
// copies the whole 40 KiB table, so two blocks of 1024 per SM copy half the
// bytes four blocks of 512 do.  On the H100: 1024 59.4 us, 896 61.3 us, 512
// 62.5 us (5 % slower), 256 78.5 us (the sweep table of `cudalab grade`).
__device__ unsigned int chosenBlockX = 1024;

#define TABLE 10240 // ints: 40 KiB of shared memory per block

__global__ void mapThroughTable(const int *in, const int *table, int *out, unsigned int n)
{
    __shared__ int lut[TABLE];

    for (unsigned int i = threadIdx.x; i < TABLE; i += blockDim.x)
        lut[i] = table[i];
    __syncthreads();

    unsigned int stride = gridDim.x * blockDim.x;
#pragma unroll 1 // one load in flight per thread: latency is hidden by warps alone
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = lut[(unsigned int)in[i] % TABLE];
}
