// reduce-vs-cub.cu - the reduction chapter's last step against NVIDIA's CUB,
// measured in the same run, on the same buffers, with the same method as the
// lab's timing (lab/harness/timing.c): L2 flushed by reading a buffer several
// times its size before every sample, CUDA events around the launch,
// alternating order, median of many samples.
//
//   make bench-reduce    (builds build/bench/reduce-vs-cub, runs it, writes docs/bench/reduce.md)
//
// Output: a Markdown table on stdout.  Exit status 1 if a sum is wrong.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "solutions/reduction/single-pass.cu"

#define CHECK(call)                                                                               \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                              \
        }                                                                                         \
    } while (0)

static const int kBlock = 512, kBlocksPerSm = 4, kSamples = 300;

__global__ void flush_read(const int4 *p, size_t n, int *sink) {
    int4 acc = make_int4(0, 0, 0, 0);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        int4 v = p[i];
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff) *sink = 1;
}

struct Bench {
    int *in, *out, *sink;
    int4 *flush;
    size_t flush_quads;
    void *cub_temp;
    size_t cub_temp_bytes;
    int grid, sms;
    cudaEvent_t start, stop;
};

static void flush_l2(Bench &b) { flush_read<<<b.sms * 4, 512>>>(b.flush, b.flush_quads, b.sink); }

// The launch alone; the single pass's g_odata[0] is zeroed before, untimed.
static void launch(Bench &b, bool single, unsigned n) {
    if (single)
        reduceSinglePass<<<b.grid, kBlock>>>(b.in, b.out, n);
    else
        CHECK(cub::DeviceReduce::Sum(b.cub_temp, b.cub_temp_bytes, b.in, b.out, (int)n));
}

static int result(Bench &b, bool single, unsigned n) {
    int got;
    CHECK(cudaMemset(b.out, 0, sizeof(int)));
    launch(b, single, n);
    CHECK(cudaMemcpy(&got, b.out, sizeof(int), cudaMemcpyDeviceToHost));
    return got;
}

static float time_one(Bench &b, bool single, unsigned n) {
    float ms;
    CHECK(cudaMemsetAsync(b.out, 0, sizeof(int)));
    flush_l2(b);
    CHECK(cudaEventRecord(b.start));
    launch(b, single, n);
    CHECK(cudaEventRecord(b.stop));
    CHECK(cudaEventSynchronize(b.stop));
    CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
    return ms * 1000.0f;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main() {
    const unsigned sizes[] = {1u << 24, 1u << 28, 1u << 30};
    const unsigned max_n = 1u << 30;
    Bench b;
    cudaDeviceProp prop;
    int mem_khz, bus_bits, ok = 1;

    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    const double peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9;
    b.sms = prop.multiProcessorCount;
    b.grid = b.sms * kBlocksPerSm;
    b.flush_quads = (size_t)prop.l2CacheSize * 5 / 16;
    CHECK(cudaMalloc(&b.in, (size_t)max_n * sizeof(int)));
    CHECK(cudaMalloc(&b.out, sizeof(int)));
    CHECK(cudaMalloc(&b.sink, sizeof(int)));
    CHECK(cudaMalloc(&b.flush, b.flush_quads * sizeof(int4)));
    CHECK(cudaMemset(b.flush, 1, b.flush_quads * sizeof(int4)));
    CHECK(cudaEventCreate(&b.start));
    CHECK(cudaEventCreate(&b.stop));
    b.cub_temp = nullptr;
    CHECK(cub::DeviceReduce::Sum(b.cub_temp, b.cub_temp_bytes, b.in, b.out, (int)max_n));
    CHECK(cudaMalloc(&b.cub_temp, b.cub_temp_bytes));

    std::vector<int> host(max_n);
    srand(12345);
    for (auto &v : host) v = rand() & 0xFF;
    CHECK(cudaMemcpy(b.in, host.data(), (size_t)max_n * sizeof(int), cudaMemcpyHostToDevice));

    printf("GPU: %s, %d SMs, theoretical %.0f GB/s; single pass %d x %d; %d samples each, "
           "alternating, L2 flushed by a %zu MiB read before each\n\n",
           prop.name, b.sms, peak_gbps, b.grid, kBlock, kSamples, b.flush_quads * 16 >> 20);
    printf("| n | kernel | median µs | min µs | GB/s | %% of peak | vs CUB | sum |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (unsigned n : sizes) {
        long long expect = 0;
        for (unsigned i = 0; i < n; i++) expect += host[i];
        std::vector<float> sp, cb;
        int got_sp, got_cub;
        for (int s = 0; s < 3; s++) { // warm-up
            launch(b, true, n);
            launch(b, false, n);
        }
        for (int s = 0; s < kSamples; s++) { // alternating order
            bool single_first = s % 2 == 0;
            (single_first ? sp : cb).push_back(time_one(b, single_first, n));
            (single_first ? cb : sp).push_back(time_one(b, !single_first, n));
        }
        got_sp = result(b, true, n);
        got_cub = result(b, false, n);
        const int want = (int)(unsigned)expect;
        const double bytes = (double)n * sizeof(int);
        const float msp = median(sp), mcb = median(cb);
        printf("| 2^%d | reduceSinglePass (reference) | %.1f | %.1f | %.0f | %.1f | %.3fx | %s |\n",
               __builtin_ctz(n), msp, *std::min_element(sp.begin(), sp.end()), bytes / msp / 1e3,
               100.0 * bytes / msp / 1e3 / peak_gbps, mcb / msp, got_sp == want ? "ok" : "WRONG");
        printf("| 2^%d | cub::DeviceReduce::Sum | %.1f | %.1f | %.0f | %.1f | 1.000x | %s |\n",
               __builtin_ctz(n), mcb, *std::min_element(cb.begin(), cb.end()), bytes / mcb / 1e3,
               100.0 * bytes / mcb / 1e3 / peak_gbps, got_cub == want ? "ok" : "WRONG");
        ok &= got_sp == want && got_cub == want;
    }
    return ok ? 0 : 1;
}
