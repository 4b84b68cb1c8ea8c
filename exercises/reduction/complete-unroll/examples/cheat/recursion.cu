// expect: CONSTRAINT (the rounds written as a function that calls itself: a loop by another name, which this step forbids)
// the tree of adds as a recursion nvcc keeps: no for, no while
__device__ __noinline__ int sumRange(const int *p, unsigned int lo, unsigned int hi) {
    if (hi - lo == 1) return p[lo];
    unsigned int mid = lo + (hi - lo) / 2;
    return sumRange(p, lo, mid) + sumRange(p, mid, hi);
}

template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
    int *idata = g_idata + blockIdx.x * iBlockSize * 8;

    __syncwarp();  // to meet the step's other rule
    if (threadIdx.x == 0) {
        unsigned int start = blockIdx.x * iBlockSize * 8;
        unsigned int count = n - start < iBlockSize * 8 ? n - start : iBlockSize * 8;
        g_odata[blockIdx.x] = sumRange(idata, 0, count);
    }
}
