// tests/sim/textures.cu - texture fetches on the simulator (lab/sim/texture.c): each thread
// fetches at its own coordinates (three floats of coords, or an int) from the texture object t and
// writes the four channels it got.  tests/test-sim-features.c makes the texture objects
// (lab_sim_texture_create) and checks each fetch against a computation on the host.  Not in
// tests/sim-corpus.sh: kernel-run cannot make texture objects on a GPU.

extern "C" __global__ void fetch1d(float4 *out, const float *coords, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float4>(t, coords[3 * i]);
}

extern "C" __global__ void fetch2d(float4 *out, const float *coords, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(t, coords[3 * i], coords[3 * i + 1]);
}

extern "C" __global__ void fetch3d(float4 *out, const float *coords, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float4>(t, coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]);
}

// tex1Dfetch of integer texels (uchar4 read as themselves): integer coordinates, zero outside
extern "C" __global__ void fetch_int(uint4 *out, const int *coords, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = make_uint4(tex1Dfetch<uchar4>(t, coords[i]).x, tex1Dfetch<uchar4>(t, coords[i]).y,
                            tex1Dfetch<uchar4>(t, coords[i]).z, tex1Dfetch<uchar4>(t, coords[i]).w);
}
