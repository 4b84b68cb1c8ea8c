#!/usr/bin/env python3
"""tests/sim-samples-run.py TOOL OUT - kernels of NVIDIA's cuda-samples on the simulator.

Each entry of KERNELS names a sample's file, one of its kernels, a launch and
real arguments (inputs drawn from a seeded generator, sizes as the sample uses
them); sim-call (TOOL) runs it on the simulator from OUT/ptx (tests/sim-samples.sh
compiled it there), and the entry's CPU computation says what each output
buffer must hold.  Prints one line per kernel; exit 1 when any differs.
"""
import array
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

KERNELS = []


def f32(x):
    """x rounded to float32, as a Python float"""
    return struct.unpack("f", struct.pack("f", x))[0]


def ints(n, lo=0, hi=255, seed=1):
    r = random.Random(seed)
    return array.array("i", [r.randint(lo, hi) for _ in range(n)])


def floats(n, seed=1, lo=0.0, hi=1.0):
    r = random.Random(seed)
    return array.array("f", [lo + (hi - lo) * r.random() for _ in range(n)])


def out(typecode, n):
    """an output buffer of n elements, zero before the launch"""
    return ("out", typecode, n)


def texture(data, dims, size, fmt, flags):
    """a texture object of data's texels (sim-call's tex:): size (w, h, d), fmt 1x32f, flags nlw"""
    return ("tex", data, dims, size, fmt, flags)


def kernel(path, name, grid, block, args, check, shared=0, syms=()):
    """check(bufs) -> None or what differs; bufs[i] is parameter i's buffer after the launch"""
    KERNELS.append((path, name, grid, block, shared, args, check, syms))


def same(got, want, what="element"):
    if len(want) > len(got):
        return "%d elements, want %d" % (len(got), len(want))
    for i, w in enumerate(want):
        if got[i] != w:
            return "%s %d is %r, want %r" % (what, i, got[i], w)
    return None


def close(got, want, rel=1e-5, abs_=1e-6):
    if len(want) > len(got):
        return "%d elements, want %d" % (len(got), len(want))
    for i, w in enumerate(want):
        if not math.isclose(got[i], w, rel_tol=rel, abs_tol=abs_):
            return "element %d is %r, want %r" % (i, got[i], w)
    return None


def run(tool, ptx, entry, tmp):
    path, name, grid, block, shared, args, check, syms = entry
    cmd = [tool, ptx, name, "%d,%d,%d" % grid, "%d,%d,%d" % block, str(shared), tmp]
    kinds = []
    for i, a in enumerate(args):
        if isinstance(a, array.array):
            f = os.path.join(tmp, "in%d.bin" % i)
            with open(f, "wb") as fh:
                a.tofile(fh)
            cmd.append("buf:%d:%s" % (len(a) * a.itemsize, f))
            kinds.append(a.typecode)
        elif isinstance(a, tuple) and a[0] == "tex":
            f = os.path.join(tmp, "tex%d.bin" % i)
            with open(f, "wb") as fh:
                a[1].tofile(fh)
            cmd.append("tex:%s:%d:%d,%d,%d:%s:%s" % ((f, a[2]) + a[3] + (a[4], a[5])))
            kinds.append(None)
        elif isinstance(a, tuple) and a[0] == "out":
            cmd.append("buf:%d" % (a[2] * array.array(a[1]).itemsize))
            kinds.append(a[1])
        else:
            cmd.append(a)
            kinds.append(None)
    for sym, data in syms:
        f = os.path.join(tmp, "sym-%s.bin" % sym)
        with open(f, "wb") as fh:
            data.tofile(fh)
        cmd.append("sym:%s:%s" % (sym, f))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return "sim-call failed: " + (p.stderr + p.stdout).strip()
    bufs = []
    for i, k in enumerate(kinds):
        if k is None:
            bufs.append(None)
            continue
        b = array.array(k)
        with open(os.path.join(tmp, "p%d.bin" % i), "rb") as fh:
            b.frombytes(fh.read())
        bufs.append(b)
    return check(bufs)


def main():
    tool, outdir = sys.argv[1], sys.argv[2]
    bad = 0
    for e in KERNELS:
        ptx = os.path.join(outdir, "ptx", e[0].replace("/", "_") + ".ptx")
        with tempfile.TemporaryDirectory() as tmp:
            why = run(tool, ptx, e, tmp) if os.path.exists(ptx) else "no PTX (nvcc failed)"
        print("%s %s %s%s" % ("ok  " if why is None else "FAIL", e[0], e[1], "" if why is None else ": " + why))
        bad += why is not None
    print("%d of %d kernels equal to the CPU" % (len(KERNELS) - bad, len(KERNELS)))
    return 1 if bad else 0


# --- the kernels ---------------------------------------------------------------------------
INTRO = "Samples/0_Introduction/"
N = 4096
A, B = ints(N, seed=1), ints(N, seed=2)
FA, FB = floats(N, seed=3), floats(N, seed=4)

kernel(INTRO + "asyncAPI/asyncAPI.cu", "_Z16increment_kernelPii", (N // 256, 1, 1), (256, 1, 1),
       [A, "i32:26"], lambda b: same(b[0], [x + 26 for x in A]))
kernel(INTRO + "cudaOpenMP/cudaOpenMP.cu", "_Z17kernelAddConstantPii", (N // 128, 1, 1), (128, 1, 1),
       [A, "i32:-7"], lambda b: same(b[0], [x - 7 for x in A]))
kernel(INTRO + "simpleCallback/simpleCallback.cu", "_Z9incKernelPii", (17, 1, 1), (256, 1, 1),
       [A, "i32:4000"], lambda b: same(b[0], [x + (i < 4000) for i, x in enumerate(A)]))
kernel(INTRO + "simpleMPI/simpleMPI.cu", "_Z15simpleMPIKernelPfS_", (N // 256, 1, 1), (256, 1, 1),
       [FA, out("f", N)], lambda b: same(b[1], [f32(math.sqrt(x)) for x in FA]))
kernel(INTRO + "simpleMultiCopy/simpleMultiCopy.cu", "_Z9incKernelPiS_ii", (16, 1, 1), (256, 1, 1),
       [out("i", N), A, "i32:4000", "i32:3"],
       lambda b: same(b[0], [x + 1 if i < 4000 else 0 for i, x in enumerate(A)]))
kernel(INTRO + "simpleOccupancy/simpleOccupancy.cu", "_Z6squarePii", (16, 1, 1), (256, 1, 1),
       [A, "i32:4095"], lambda b: same(b[0], [x * x if i < 4095 else x for i, x in enumerate(A)]))
kernel(INTRO + "simpleP2P/simpleP2P.cu", "_Z12SimpleKernelPfS_", (16, 1, 1), (256, 1, 1),
       [FA, out("f", N)], lambda b: same(b[1], [f32(2 * x) for x in FA]))
kernel(INTRO + "simpleStreams/simpleStreams.cu", "_Z10init_arrayPiS_i", (16, 1, 1), (256, 1, 1),
       [A, array.array("i", [3]), "i32:5"], lambda b: same(b[0], [x + 15 for x in A]))
kernel(INTRO + "simpleTemplates/simpleTemplates.cu", "_Z10testKernelIfEvPT_S1_", (1, 1, 1), (128, 1, 1),
       [FA, out("f", 128)], lambda b: same(b[1], [f32(128 * x) for x in FA[:128]]), shared=512)
kernel(INTRO + "simpleTemplates/simpleTemplates.cu", "_Z10testKernelIiEvPT_S1_", (1, 1, 1), (64, 1, 1),
       [A, out("i", 64)], lambda b: same(b[1], [64 * x for x in A[:64]]), shared=256)
kernel(INTRO + "simpleIPC/simpleIPC.cu", "_Z12simpleKernelPcic", (4, 1, 1), (128, 1, 1),
       [array.array("b", [1] * 3000), "i32:2900", "i32:-5"],
       lambda b: same(b[0], [-5] * 2900 + [1] * 100))
kernel(INTRO + "simpleDrvRuntime/vectorAdd_kernel.cu", "VecAdd_kernel", (16, 1, 1), (256, 1, 1),
       [FA, FB, out("f", N), "i32:4000"],
       lambda b: same(b[2], [f32(x + y) if i < 4000 else 0.0 for i, (x, y) in enumerate(zip(FA, FB))]))
kernel(INTRO + "vectorAdd/vectorAdd.cu", "_Z9vectorAddPKfS0_Pfi", (16, 1, 1), (256, 1, 1),
       [FA, FB, out("f", N), "i32:4001"],
       lambda b: same(b[2], [f32(x + y) if i < 4001 else 0.0 for i, (x, y) in enumerate(zip(FA, FB))]))


def multi_gpu_reduce(b):
    # 32 blocks of 256 threads: thread t sums FA[t], FA[t + 8192], ... in float32, in order
    want = []
    for t in range(32 * 256):
        s = 0.0
        for pos in range(t, N, 32 * 256):
            s = f32(s + FA[pos])
        want.append(s)
    return same(b[0], want)


kernel(INTRO + "simpleMultiGPU/simpleMultiGPU.cu", "_Z12reduceKernelPfS_i", (32, 1, 1), (256, 1, 1),
       [out("f", 32 * 256), FA, "i32:4096"], multi_gpu_reduce)


def timed_min(b):
    # each of 4 blocks of 128 threads: the minimum of input[0 .. 255] (every block reads the same)
    return same(b[1], [min(FA[:256])] * 4)


kernel(INTRO + "clock/clock.cu", "_Z14timedReductionPKfPfPl", (4, 1, 1), (128, 1, 1),
       [FA, out("f", 4), out("q", 8)], timed_min, shared=2 * 128 * 4)


def matmul(wa, ha, wb):
    ma, mb = floats(wa * ha, seed=5), floats(wb * wa, seed=6)

    def want():
        c = []
        for i in range(ha):
            for j in range(wb):
                c.append(sum(ma[i * wa + k] * mb[k * wb + j] for k in range(wa)))
        return c

    return ma, mb, want


for name, bs, path in [("_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii", 16, "matrixMul/matrixMul.cu"),
                       ("_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii", 32, "matrixMul/matrixMul.cu"),
                       ("matrixMulCUDA_block16", 16, "matrixMul_nvrtc/matrixMul_kernel.cu"),
                       ("matrixMulCUDA_block32", 32, "matrixMul_nvrtc/matrixMul_kernel.cu"),
                       ("matrixMul_bs8_64bit", 8, "matrixMulDrv/matrixMul_kernel.cu"),
                       ("matrixMul_bs16_64bit", 16, "matrixMulDrv/matrixMul_kernel.cu"),
                       ("matrixMul_bs32_64bit", 32, "matrixMulDrv/matrixMul_kernel.cu")]:
    wa, ha, wb = 2 * bs, 2 * bs, 3 * bs
    ma, mb, want = matmul(wa, ha, wb)
    if path.startswith("matrixMulDrv"):
        args = [out("f", ha * wb), ma, mb, "u64:%d" % wa, "u64:%d" % wb]
    else:
        args = [out("f", ha * wb), ma, mb, "i32:%d" % wa, "i32:%d" % wb]
    kernel(INTRO + path, name, (wb // bs, ha // bs, 1), (bs, bs, 1), args,
           lambda b, want=want: close(b[0], want(), rel=1e-5, abs_=1e-5))


# --- 0_Introduction: warp votes ----------------------------------------------------------------
VOTE = array.array("I", [0] * 32 + [0] * 31 + [5] + [7] * 32)  # a warp of none, of one, of all


def vote_want(f):
    return [int(f(VOTE[w * 32:(w + 1) * 32])) for w in range(3) for _ in range(32)]


kernel(INTRO + "simpleVoteIntrinsics/simpleVoteIntrinsics.cu", "_Z14VoteAnyKernel1PjS_i", (1, 1, 1), (96, 1, 1),
       [VOTE, out("I", 96), "i32:96"], lambda b: same(b[1], vote_want(lambda w: any(w))))
kernel(INTRO + "simpleVoteIntrinsics/simpleVoteIntrinsics.cu", "_Z14VoteAllKernel2PjS_i", (1, 1, 1), (96, 1, 1),
       [VOTE, out("I", 96), "i32:96"], lambda b: same(b[1], vote_want(lambda w: all(w))))

# --- 2_Concepts_and_Techniques: reductions, histogram, scalar product ---------------------------
CONCEPTS = "Samples/2_Concepts_and_Techniques/"
RED = CONCEPTS + "reduction/reduction_kernel.cu"


def block_sums(data, per_block, blocks):
    return [sum(data[b * per_block:(b + 1) * per_block]) for b in range(blocks)]


for name, per in [("_Z7reduce0IiEvPT_S1_j", 256), ("_Z7reduce1IiEvPT_S1_j", 256),
                  ("_Z7reduce2IiEvPT_S1_j", 256), ("_Z7reduce3IiEvPT_S1_j", 512),
                  ("_Z7reduce4IiLj256EEvPT_S1_j", 512), ("_Z7reduce5IiLj256EEvPT_S1_j", 512)]:
    kernel(RED, name, (N // per, 1, 1), (256, 1, 1), [A, out("i", N // per), "u32:%d" % N],
           lambda b, per=per: same(b[1], block_sums(A, per, N // per)), shared=256 * 4)
for name in ["_Z7reduce6IiLj256ELb1EEvPT_S1_j", "_Z7reduce6IiLj256ELb0EEvPT_S1_j",
             "_Z7reduce7IiLj256ELb1EEvPKT_PS0_j", "_Z7reduce7IiLj256ELb0EEvPKT_PS0_j",
             "_Z9cg_reduceIiEvPT_S1_j", "_Z20multi_warp_cg_reduceIiLm256ELm128EEvPT_S1_j"]:
    # a grid-stride loop: only the blocks' total is the sample's contract
    kernel(RED, name, (4, 1, 1), (256, 1, 1), [A, out("i", 4), "u32:%d" % (N - 3)],
           lambda b: same([sum(b[1])], [sum(A[:N - 3])], "total"), shared=256 * 4)
kernel(RED, "_Z7reduce0IfEvPT_S1_j", (16, 1, 1), (256, 1, 1), [FA, out("f", 16), "u32:%d" % N],
       lambda b: close(b[1], block_sums(FA, 256, 16), rel=1e-5), shared=256 * 4)

HIST = array.array("I", ints(N, 0, 2**31 - 1, seed=7))


def hist_want():
    h = [0] * 256
    for w in HIST:
        for k in range(4):
            h[(w >> (8 * k)) & 255] += 1
    return h


kernel(CONCEPTS + "histogram/histogram256.cu", "_Z18histogram256KernelPjS_j", (5, 1, 1), (192, 1, 1),
       [out("I", 5 * 256), HIST, "u32:%d" % N],
       lambda b: same([sum(b[0][p * 256 + k] for p in range(5)) for k in range(256)], hist_want(), "bin"))
PARTIALS = ints(7 * 256, 0, 1000, seed=8)
kernel(CONCEPTS + "histogram/histogram256.cu", "_Z23mergeHistogram256KernelPjS_j", (256, 1, 1), (256, 1, 1),
       [out("I", 256), PARTIALS, "u32:7"],
       lambda b: same(b[0], [sum(PARTIALS[p * 256 + k] for p in range(7)) for k in range(256)], "bin"))

SA, SB = floats(16 * 1024, seed=9), floats(16 * 1024, seed=10)
kernel(CONCEPTS + "scalarProd/scalarProd.cu", "_Z13scalarProdGPUPfS_S_ii", (8, 1, 1), (256, 1, 1),
       [out("f", 16), SA, SB, "i32:16", "i32:1024"],
       lambda b: close(b[0], [sum(SA[v * 1024 + i] * SB[v * 1024 + i] for i in range(1024)) for v in range(16)],
                       rel=1e-5))

# --- 6_Performance: transposes ------------------------------------------------------------------
TR = "Samples/6_Performance/transpose/transpose.cu"
TW, TH = 96, 64  # not square: transposeDiagonal's other path
TIN = floats(TW * TH, seed=11)
TGOLD = [TIN[y * TW + x] for x in range(TW) for y in range(TH)]
# copySharedMem's store tests x < height and y < width (the sample's slip): only that part is copied
TPART = [TIN[i] if i % TW < TH else 0.0 for i in range(TW * TH)]
for name, want in [("_Z4copyPfS_ii", list(TIN)), ("_Z13copySharedMemPfS_ii", TPART),
                   ("_Z14transposeNaivePfS_ii", TGOLD), ("_Z18transposeCoalescedPfS_ii", TGOLD),
                   ("_Z24transposeNoBankConflictsPfS_ii", TGOLD), ("_Z17transposeDiagonalPfS_ii", TGOLD)]:
    kernel(TR, name, (TW // 32, TH // 32, 1), (32, 16, 1), [out("f", TW * TH), TIN, "i32:%d" % TW, "i32:%d" % TH],
           lambda b, want=want: same(b[0], want))

# --- textures -----------------------------------------------------------------------------------
TEXW = 64
TIMG = floats(TEXW * TEXW, seed=12)
for name in ["_Z16shiftPitchLinearPfiiiiiy", "_Z10shiftArrayPfiiiiiy"]:
    # normalized coordinates, nearest texel, wrap: a shift by (5, 9), around the edges
    kernel(INTRO + "simplePitchLinearTexture/simplePitchLinearTexture.cu", name, (TEXW // 16, TEXW // 16, 1),
           (16, 16, 1), [out("f", TEXW * TEXW), "i32:%d" % TEXW, "i32:%d" % TEXW, "i32:%d" % TEXW, "i32:5", "i32:9",
                         texture(TIMG, 2, (TEXW, TEXW, 1), "1x32f", "nw")],
           lambda b: same(b[0], [TIMG[((y + 9) % TEXW) * TEXW + (x + 5) % TEXW]
                                 for y in range(TEXW) for x in range(TEXW)]))


def bilinear_wrap(img, w, h, u, v):
    """tex2D of a float texture: normalized coordinates, linear filtering (the weights' 8-bit
    fraction, as the GPU), wrap addressing"""
    x, y = (u - math.floor(u)) * w - 0.5, (v - math.floor(v)) * h - 0.5
    x0, y0 = math.floor(x), math.floor(y)
    a, b = round((x - x0) * 256) / 256, round((y - y0) * 256) / 256

    def t(i, j):
        return img[(j % h) * w + (i % w)]

    return ((1 - a) * (1 - b) * t(x0, y0) + a * (1 - b) * t(x0 + 1, y0) + (1 - a) * b * t(x0, y0 + 1)
            + a * b * t(x0 + 1, y0 + 1))


def rotated(b):
    want = []
    for y in range(TEXW):
        for x in range(TEXW):
            u, v = f32(x - TEXW / 2), f32(y - TEXW / 2)
            c, sn = f32(math.cos(0.5)), f32(math.sin(0.5))
            tu, tv = f32(f32(u * c) - f32(v * sn)) / TEXW, f32(f32(v * c) + f32(u * sn)) / TEXW
            want.append(bilinear_wrap(TIMG, TEXW, TEXW, f32(tu + 0.5), f32(tv + 0.5)))
    # float rounding may put a coordinate on the other side of a 1/256 step: 2 steps of slack
    return close(b[0], want, rel=0, abs_=2.0 / 256)


kernel(INTRO + "simpleTexture/simpleTexture.cu", "_Z15transformKernelPfiify", (TEXW // 8, TEXW // 8, 1), (8, 8, 1),
       [out("f", TEXW * TEXW), "i32:%d" % TEXW, "i32:%d" % TEXW, "f32:0.5",
        texture(TIMG, 2, (TEXW, TEXW, 1), "1x32f", "nlw")], rotated)

# --- 16-bit floats -------------------------------------------------------------------------------
def h16(x):
    """x rounded to IEEE half (nearest even), as a Python float"""
    return struct.unpack("<e", struct.pack("<e", x))[0]


HB, HT = 4, 128
HSIZE = HB * HT * 4
HA = array.array("H", [struct.unpack("<H", struct.pack("<e", v))[0] for v in floats(2 * HSIZE, seed=13)])
HBV = array.array("H", [struct.unpack("<H", struct.pack("<e", v))[0] for v in floats(2 * HSIZE, seed=14)])


def half_dot(fused):
    def value(arr, k):
        return struct.unpack("<e", struct.pack("<H", arr[k]))[0]

    def check(b):
        want = []
        for blk in range(HB):
            sh = []
            for t in range(HT):
                acc = [0.0, 0.0]
                for i in range(t + HT + blk, HSIZE, HB * HT):  # the sample's start index, as written
                    for k in range(2):
                        x, y = value(HA, 2 * i + k), value(HBV, 2 * i + k)
                        acc[k] = h16(x * y + acc[k]) if fused else h16(h16(x * y) + acc[k])
                sh.append(acc)
            for half in (64, 32, 16, 8, 4, 2, 1):
                for t in range(half):
                    sh[t] = [h16(sh[t][k] + sh[t + half][k]) for k in range(2)]
            want.append(f32(sh[0][0] + sh[0][1]) if fused else f32(sh[0][1] + sh[0][0]))
        return same(b[2], want)

    return check


FP16 = INTRO + "fp16ScalarProduct/fp16ScalarProduct.cu"
kernel(FP16, "_Z30scalarProductKernel_intrinsicsPK7__half2S1_Pfm", (HB, 1, 1), (HT, 1, 1),
       [HA, HBV, out("f", HB), "u64:%d" % HSIZE], half_dot(True))
kernel(FP16, "_Z26scalarProductKernel_nativePK7__half2S1_Pfm", (HB, 1, 1), (HT, 1, 1),
       [HA, HBV, out("f", HB), "u64:%d" % HSIZE], half_dot(False))

if __name__ == "__main__":
    sys.exit(main())
