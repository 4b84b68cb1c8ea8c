// expect: WRONG (the course notes' kernel as printed: reads past n in the last block)
/*
 * reduction/neighbored -- reduceNeighbored, the first GPU rung of the ladder.
 *
 * This is the course notes' kernel as printed (with the parameter name
 * g_idate fixed to g_idata).  Each block sums its blockDim.x elements in
 * place, in global memory, with neighbored pairs, and writes its partial sum
 * to g_odata[blockIdx.x].  The lab launches grid = ceil(n / 512), block = 512,
 * and adds up the partial sums itself.
 *
 * The kernel is right when n is a multiple of blockDim.x and wrong otherwise:
 * `if (idx >= n) return;` stops a thread from owning an element past n, but a
 * thread that does own one still reads idata[tid + stride], which can lie past
 * n.  (With n = 1 it returns 244 where the answer is 245.)
 *
 * Your task: keep the neighbored pattern -- `tid % (2 * stride) == 0`, partial
 * sums stored in place -- and make the kernel correct for every n >= 1.
 * No atomics.  See task.md; `cudalab grade reduction/neighbored` checks it.
 */
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n) {
    // set thread ID
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    // convert global data pointer to the local pointer of this block
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // boundary check
    if (idx >= n) return;

    // in-place reduction in global memory
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) {
            idata[tid] += idata[tid + stride];
        }

        // synchronize within block
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
