// expect: WRONG (the partner is bounded, but __syncthreads() sits inside the branch that only the adding threads take: threads that are still running skip it, which CUDA leaves undefined; the simulator's barrier check names it)
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    unsigned int count = min(blockDim.x, n - blockIdx.x * blockDim.x);

    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) {
            idata[tid] += idata[tid + stride];
            // only the adding threads wait here; the others run on to the next round
            __syncthreads();
        }
    }

    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
