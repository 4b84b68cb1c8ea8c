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

// a layered 2D texture (tex2DLayered) at (x, y) of layer coords[3 * i + 2]
extern "C" __global__ void fetch_layered(float4 *out, const float *coords, int n,
                                         cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2DLayered<float4>(t, coords[3 * i], coords[3 * i + 1], (int)coords[3 * i + 2]);
}

// a cube map (texCubemap) in the direction coords[3 * i ..]
extern "C" __global__ void fetch_cube(float4 *out, const float *coords, int n, cudaTextureObject_t t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = texCubemap<float4>(t, coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]);
}

// surf2Dread of a float at (x, y) = coords (x in bytes), plus 1, written back with surf2Dwrite
// (clamped), and the value read into out[i].x
extern "C" __global__ void surface_add(float4 *out, const float *coords, int n,
                                       cudaSurfaceObject_t s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = (int)coords[3 * i], y = (int)coords[3 * i + 1];
        float v = surf2Dread<float>(s, x, y, cudaBoundaryModeZero);
        surf2Dwrite(v + 1.0f, s, x, y, cudaBoundaryModeClamp);
        out[i] = make_float4(v, 0, 0, 0);
    }
}
