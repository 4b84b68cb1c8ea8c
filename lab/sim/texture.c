/*
 * texture.c - texture objects: made on the host (lab_sim_texture_create), read by a kernel's
 * tex instruction (lab_sim__tex_fetch, from exec.c), as the PTX ISA and the CUDA programming
 * guide describe texture fetching: coordinates normalized or not, the addressing modes wrap,
 * clamp, mirror and border per dimension (wrap and mirror only with normalized coordinates, as
 * on the GPU), nearest-point and linear filtering (with the GPU's
 * 8-bit fraction of the weights), integer texels read as themselves or normalized to floats.
 */
#include "lab/sim/internal.h"
#include "lab/util/err.h"

#include <math.h>
#include <string.h>

int
lab_sim_texture_create(lab_sim *s, const lab_sim_texture *t, uint64_t *handle, lab_err *err)
{
    lab_sim_texture c = *t;
    uint64_t texel, bytes;

    if (c.dims < 1 || c.dims > 3 || !(c.channels == 1 || c.channels == 2 || c.channels == 4) ||
        !(c.bits == 8 || c.bits == 16 || c.bits == 32) || !strchr("fus", c.kind) || !c.kind ||
        (c.kind == 'f' && c.bits != 32) || !c.width)
        return lab_err_set(err, LAB_EINVAL, "unsupported texture format");
    c.height = c.dims >= 2 && c.height ? c.height : 1;
    c.depth = c.dims >= 3 && c.depth ? c.depth : 1;
    texel = (uint64_t)c.channels * c.bits / 8;
    if (!c.pitch)
        c.pitch = c.width * texel;
    if (c.pitch < c.width * texel)
        return lab_err_set(err, LAB_EINVAL, "texture pitch %llu is less than a row",
                           (unsigned long long)c.pitch);
    bytes = c.pitch * c.height * (c.depth - 1) + c.pitch * (c.height - 1) + c.width * texel;
    if (!lab_sim__find(s, c.base, bytes))
        return lab_err_set(err, LAB_EINVAL,
                           "texture memory of %llu bytes at 0x%llx is outside "
                           "every allocation",
                           (unsigned long long)bytes, (unsigned long long)c.base);
    if (s->ntextures == LAB_SIM_MAX_TEXTURES)
        return lab_err_set(err, LAB_ENOMEM, "more than %d textures", LAB_SIM_MAX_TEXTURES);
    s->textures[s->ntextures++] = c;
    *handle = s->ntextures;
    return 0;
}

/* Texel i of a dimension of n under an addressing mode; -1: border (reads zero) */
static long
address(long i, long n, lab_sim_tex_address mode)
{
    switch (mode) {
    case LAB_SIM_TEX_WRAP:
        return ((i % n) + n) % n;
    case LAB_SIM_TEX_MIRROR: {
        long p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    case LAB_SIM_TEX_BORDER:
        return i < 0 || i >= n ? -1 : i;
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* One channel of a texel as a float (read normalized or as its value) */
static float
channel_float(const lab_sim_texture *t, const uint8_t *p)
{
    switch (t->bits) {
    case 8:
        if (t->kind == 's')
            return t->normalized_read ? fmaxf((float)(int8_t)*p / 127.0f, -1.0f)
                                      : (float)(int8_t)*p;
        return t->normalized_read ? (float)*p / 255.0f : (float)*p;
    case 16: {
        uint16_t v;
        memcpy(&v, p, 2);
        if (t->kind == 's')
            return t->normalized_read ? fmaxf((float)(int16_t)v / 32767.0f, -1.0f)
                                      : (float)(int16_t)v;
        return t->normalized_read ? (float)v / 65535.0f : (float)v;
    }
    default: {
        uint32_t v;
        float f;
        memcpy(&v, p, 4);
        memcpy(&f, &v, 4);
        return t->kind == 'f' ? f : t->kind == 's' ? (float)(int32_t)v : (float)v;
    }
    }
}

static uint32_t
channel_bits(const lab_sim_texture *t, const uint8_t *p)
{
    switch (t->bits) {
    case 8:
        return t->kind == 's' ? (uint32_t)(int32_t)(int8_t)*p : *p;
    case 16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return t->kind == 's' ? (uint32_t)(int32_t)(int16_t)v : v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* The texel at i[0..2] (already addressed; -1: border) into f (floats) or u (bits) */
static void
texel(const lab_sim_texture *t, const long i[3], bool as_float, float f[4], uint32_t u[4])
{
    const uint8_t *p;
    unsigned cb = t->bits / 8;

    for (unsigned c = 0; c < 4; c++) {
        f[c] = 0.0f;
        u[c] = 0;
    }
    if (i[0] < 0 || i[1] < 0 || i[2] < 0)
        return;
    p = (const uint8_t *)(uintptr_t)(t->base + (uint64_t)i[2] * t->pitch * t->height +
                                     (uint64_t)i[1] * t->pitch + (uint64_t)i[0] * t->channels * cb);
    for (unsigned c = 0; c < t->channels; c++) {
        if (as_float)
            f[c] = channel_float(t, p + c * cb);
        else
            u[c] = channel_bits(t, p + c * cb);
    }
}

/* The fetch at coord (dims of them: float bits, or integers with int_coords) from layer (or
 * none: -1); normalized: coordinates in [0, 1) */
static void
sample(const lab_sim_texture *t, unsigned dims, bool int_coords, const uint64_t coord[3],
       long layer, bool normalized, bool float_out, uint32_t out[4])
{
    long n[3], base[3] = { 0, 0, 0 }, idx[3];
    float frac[3] = { 0, 0, 0 }, acc[4] = { 0, 0, 0, 0 }, f[4];
    uint32_t u[4];
    bool linear = t->linear && !int_coords && float_out;
    unsigned sdims = layer >= 0 ? t->dims - 1 : t->dims; /* a layered texture's last: layers */

    n[0] = t->width;
    n[1] = t->height;
    n[2] = t->depth;
    for (unsigned d = 0; d < sdims && d < dims; d++) {
        float x;
        if (int_coords) { /* tex1Dfetch and friends: the texel itself, zero outside */
            base[d] = (long)(int32_t)coord[d];
            continue;
        }
        memcpy(&x, &coord[d], 4);
        if (normalized) {
            if (t->address[d] == LAB_SIM_TEX_WRAP)
                x -= floorf(x);
            else if (t->address[d] == LAB_SIM_TEX_MIRROR) {
                float m = x - 2.0f * floorf(x / 2.0f);
                x = m > 1.0f ? 2.0f - m : m;
            }
            x *= (float)n[d];
        }
        if (!isfinite(x))
            x = 0.0f;
        if (linear) {
            float xb = x - 0.5f, fl = floorf(xb);
            base[d] = (long)fl;
            frac[d] = roundf((xb - fl) * 256.0f) / 256.0f; /* the GPU's 8-bit fraction */
        } else {
            base[d] = (long)floorf(x);
        }
    }
    for (unsigned corner = 0; corner < (linear ? 1u << sdims : 1u); corner++) {
        float wgt = 1.0f;
        for (unsigned d = 0; d < 3; d++) {
            long i = base[d] + (long)((corner >> d) & 1);
            lab_sim_tex_address mode = t->address[d];
            if (d >= sdims) { /* the layer, clamped to the texture's; 0 past the dimensions */
                idx[d] = d == sdims && layer >= 0 ? (layer < n[d] ? layer : n[d] - 1) : 0;
                continue;
            }
            if (linear)
                wgt *= (corner >> d) & 1 ? frac[d] : 1.0f - frac[d];
            /* wrap and mirror are for normalized coordinates; others clamp (CUDA's guide) */
            if (!normalized && (mode == LAB_SIM_TEX_WRAP || mode == LAB_SIM_TEX_MIRROR))
                mode = LAB_SIM_TEX_CLAMP;
            idx[d] = int_coords ? (i < 0 || i >= n[d] ? -1 : i) : address(i, n[d], mode);
        }
        texel(t, idx, float_out, f, u);
        if (!float_out) {
            memcpy(out, u, sizeof(u));
            return;
        }
        for (unsigned c = 0; c < 4; c++)
            acc[c] += linear ? wgt * f[c] : f[c];
    }
    memcpy(out, acc, sizeof(acc));
}

/* A cube map's direction (x, y, z) as its face (the layer) and the face's (s, t) in [0, 1]: the
 * major axis picks the face, as the CUDA programming guide's table says */
static long
cube_face(const uint64_t coord[3], uint64_t st[2])
{
    float v[3], ax[3], sc, tc, ma, s, t;
    long face;

    for (int k = 0; k < 3; k++) {
        memcpy(&v[k], &coord[k], 4);
        ax[k] = fabsf(v[k]);
    }
    if (ax[0] >= ax[1] && ax[0] >= ax[2]) {
        face = v[0] >= 0 ? 0 : 1;
        ma = ax[0];
        sc = v[0] >= 0 ? -v[2] : v[2];
        tc = -v[1];
    } else if (ax[1] >= ax[2]) {
        face = v[1] >= 0 ? 2 : 3;
        ma = ax[1];
        sc = v[0];
        tc = v[1] >= 0 ? v[2] : -v[2];
    } else {
        face = v[2] >= 0 ? 4 : 5;
        ma = ax[2];
        sc = v[2] >= 0 ? v[0] : -v[0];
        tc = -v[1];
    }
    s = ma > 0 ? (sc / ma + 1.0f) / 2.0f : 0.5f;
    t = ma > 0 ? (tc / ma + 1.0f) / 2.0f : 0.5f;
    st[0] = st[1] = 0;
    memcpy(&st[0], &s, 4);
    memcpy(&st[1], &t, 4);
    return face;
}

bool
lab_sim__tex_fetch(const lab_sim *s, uint64_t handle, unsigned geom, bool int_coords,
                   const uint64_t coord[4], bool float_out, uint32_t out[4])
{
    const lab_sim_texture *t;
    uint64_t st[3] = { 0, 0, 0 };

    if (handle == 0 || handle > s->ntextures)
        return false;
    t = &s->textures[handle - 1];
    switch (geom) {
    case TEX_A1D: /* {layer, x} */
    case TEX_A2D: /* {layer, x, y, _} */
        sample(t, geom == TEX_A1D ? 1 : 2, int_coords, coord + 1, (long)(int32_t)coord[0],
               t->normalized_coords, float_out, out);
        return true;
    case TEX_CUBE: /* {x, y, z, _}: a direction */
        sample(t, 2, false, st, cube_face(coord, st), true, float_out, out);
        return true;
    default:
        sample(t, geom - TEX_1D + 1u, int_coords, coord, -1, t->normalized_coords, float_out, out);
        return true;
    }
}

int
lab_sim__surf_at(const lab_sim *s, uint64_t handle, unsigned geom, const uint64_t coord[4],
                 uint32_t bytes, unsigned mode, uint8_t **p)
{
    const lab_sim_texture *t;
    long n[3], c[3] = { 0, 0, 0 };
    unsigned dims, first = 0, texel;

    if (handle == 0 || handle > s->ntextures)
        return -2;
    t = &s->textures[handle - 1];
    n[0] = t->width;
    n[1] = t->height;
    n[2] = t->depth;
    texel = t->channels * t->bits / 8;
    dims = geom == TEX_A1D ? 1 : geom == TEX_A2D ? 2 : geom - TEX_1D + 1u;
    if (geom == TEX_A1D || geom == TEX_A2D) { /* {layer, x, ...}: the layer is the last */
        c[dims] = (long)(int32_t)coord[0];
        first = 1;
    }
    for (unsigned d = 0; d < dims; d++)
        c[d] = (long)(int32_t)coord[first + d];
    for (unsigned d = 0; d < 3; d++) {
        long lim = d == 0 ? n[0] * (long)texel - (long)bytes : n[d] - 1; /* x: in bytes */
        if (c[d] >= 0 && c[d] <= lim)
            continue;
        if (mode != SURF_CLAMP)
            return mode == SURF_ZERO ? 1 : -1;
        c[d] = c[d] < 0 ? 0 : lim;
    }
    *p = (uint8_t *)(uintptr_t)(t->base + (uint64_t)c[2] * t->pitch * t->height +
                                (uint64_t)c[1] * t->pitch + (uint64_t)c[0]);
    return 0;
}
