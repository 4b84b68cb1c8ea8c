// expect: CONSTRAINT (a shared-memory atomic written as inline PTX: red.shared.add.f32 instead of the tournament)
__device__ float dev_sum = 0.0f;

__global__ void sumTournament(const float *pData, float *pPartial, unsigned int n) {
    __shared__ float s_sum;
    unsigned int tx = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tx;

    if (tx == 0) s_sum = 0.0f;
    __syncthreads();
    if (i < n) {
        unsigned int at = (unsigned int)__cvta_generic_to_shared(&s_sum);
        asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(at), "f"(pData[i]) : "memory");
    }
    __syncthreads();
    if (tx == 0) atomicAdd(&dev_sum, s_sum);
}
