// expect: WRONG (reads %nsmid to tell the simulator from a GPU: a correct reduction where it sees one SM, a racy one elsewhere; the simulator presents the H100's 132 SMs, so its race check sees the racy one)
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    int *idata = g_idata + first;
    unsigned int count = min(blockDim.x, n - first);
    unsigned int sms;

    asm("mov.u32 %0, %%nsmid;" : "=r"(sms));
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;

        if (index + stride < count) {
            idata[index] += idata[index + stride];
        }
        if (sms == 1) // "the checker": wait for the round to finish
            __syncthreads();
        else          // "a GPU": within a warp the rounds stay in step; across warps they do not
            __syncwarp();
    }

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
