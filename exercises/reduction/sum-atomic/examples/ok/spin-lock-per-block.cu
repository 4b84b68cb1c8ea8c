// expect: PASS (each warp adds its sum to its block's partial sum under a spin lock of the block's, built from atomicCAS and atomicExch with fences: right, and no race)
// a lock per block, free (0) when the kernel starts and when it ends
__device__ int block_locks[65536];

__global__ void sumAtomic(const float *pData, float *pPartial, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? pData[i] : 0.0f;
    int *lock = &block_locks[blockIdx.x % 65536];

    if (threadIdx.x == 0) pPartial[blockIdx.x] = 0.0f;
    __syncthreads();
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) {
        bool done = false;  // the form that cannot hang when a warp's lanes run together
        while (!done) {
            if (atomicCAS(lock, 0, 1) == 0) {
                __threadfence();
                pPartial[blockIdx.x] += v;  // a plain add: the lock makes it one at a time
                __threadfence();
                atomicExch(lock, 0);
                done = true;
            }
        }
    }
}
