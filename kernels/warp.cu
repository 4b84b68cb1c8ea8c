// The warp chapter's demo kernel (lab/demos/demo-warp.c), one block per
// launch.  Every thread records what the hardware (or the simulator) says
// about it: its linear id in the block from the notes' formula, the lane the
// hardware put it in (%laneid), the mask of lanes executing with it
// (__activemask()) and the linear id of the first lane of its warp, fetched
// from that lane with a shuffle, so that which threads share a warp is
// measured, not computed.
// Built to PTX by the Makefile (build/libexec/cudalab/warp.ptx).

__global__ void warpRecord(unsigned *linear, unsigned *lane, unsigned *mask, unsigned *leader)
{
    unsigned t = threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;
    unsigned active = __activemask();
    unsigned l;

    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    linear[t] = t;
    lane[t] = l;
    mask[t] = active;
    leader[t] = __shfl_sync(active, t, __ffs(active) - 1);
}
