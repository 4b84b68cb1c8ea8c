#!/bin/bash
# Inputs and expected sums made by the lab's own kernels (common/devgen.h), as every GPU run
# of the integer reduction makes them, tested on the simulator (--device-inputs): the real
# driver checks a correct kernel right and a wrong one wrong, at sizes whose last block is
# partial, for per-block sums and for a total; the CPU baseline gets the same input; the
# padding past n is the lab's poison; two fills from one seed give two inputs.
set -u
. "$(dirname "$0")/lib.sh"

nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ex=$CUDALAB_DATADIR_TEST/exercises/reduction
sol=$CUDALAB_DATADIR_TEST/solutions/reduction
ptx() { # OUT FILE: FILE's PTX with the exercise's instantiation line, as the lab builds it
    cp "$2" "$T/src.cu"
    "$nvcc_real" -ptx -arch=sm_90 -O3 -o "$1" "$T/src.cu"
}
ptx less.ptx "$sol/neighbored-less.cu"
ptx odd.ptx "$ex/neighbored-less/examples/wrong/drops-odd-elements.cu"
ptx sp.ptx "$sol/single-pass.cu"

sizes=1,3,1000,4099,65539
driver() { # INPUTS STUDENT REFERENCE KERNEL ENTRY [ARG...]: the real driver on the simulator
    local inputs=$1 student=$2 reference=$3 kernel=$4 entry=$5
    shift 5
    "$CUDALAB_LIBEXECDIR_TEST/cudalab-driver" reduce-int --backend=sim --report-fd=3 \
        "--lab-kernels=$CUDALAB_LIBEXECDIR_TEST/lab-kernels.ptx" "--student=$student" \
        "--reference=$reference" --baseline=cpu --kernel="$kernel" --entry="$entry" \
        --sizes=$sizes --block=512 --seed=7 $inputs "$@" 3>report.json 2>driver.err
    echo "$?" >status
    OUT=$(<report.json)
}
less_args=(less.ptx reduceNeighboredLess _Z20reduceNeighboredLessPiS_j)

driver --device-inputs less.ptx "${less_args[@]}"
expect_eq "device inputs, the reference: exit 0" "$(<status)" 0
expect_json "device inputs, the reference: right at every size, partial last blocks included" \
    'j["status"] == "ok" and len(j["cases"]) >= 10 and all(c["correct"] for c in j["cases"])'
expect_json "device inputs, the reference: sums of bytes (each block at most 512 x 255)" \
    'all(0 < c["expected"] <= 255 * 65539 for c in j["cases"] if c["size"] > 1)'
expected_device=$(python3 -c 'import json; print([c["expected"] for c in json.load(open("report.json"))["cases"]])')

driver "" less.ptx "${less_args[@]}"
expect_json "host inputs, the reference: right at every size too" \
    'j["status"] == "ok" and all(c["correct"] for c in j["cases"])'
expected_host=$(python3 -c 'import json; print([c["expected"] for c in json.load(open("report.json"))["cases"]])')
expect_cmd "device and host inputs differ (each a function of the seed)" test "$expected_device" != "$expected_host"

driver --device-inputs less.ptx "${less_args[@]}"
expect_eq "device inputs: the same seed, the same inputs" \
    "$(python3 -c 'import json; print([c["expected"] for c in json.load(open("report.json"))["cases"]])')" \
    "$expected_device"

driver --device-inputs odd.ptx "${less_args[@]}"
expect_json "device inputs, a kernel that drops the odd elements: wrong at every size past 1" \
    'j["status"] == "ok" and all(not c["correct"] for c in j["cases"] if c["role"] == "student" and c["size"] > 1)'
expect_json "device inputs, the wrong kernel: the first wrong block named against the lab's sum" \
    'any("block 0 (elements 0..2): expected" in c.get("detail", "") for c in j["cases"])'

# a kernel that reads past n adds the poison: its sum is wrong at n = 4099 (a partial block)
sed 's/index + stride < count/index + stride < blockDim.x/' "$sol/neighbored-less.cu" >past.cu
expect_cmd "the kernel that reads past n is the notes' bound" grep -q 'index + stride < blockDim.x' past.cu
ptx past.ptx past.cu
driver --device-inputs past.ptx "${less_args[@]}"
expect_json "device inputs: a kernel that reads past n adds the lab's poison, wrong at 4099" \
    'any(not c["correct"] for c in j["cases"] if c["role"] == "student" and c["size"] == 4099)'

# the total layout: one sum into g_odata[0], made by the lab's total kernel
driver --device-inputs sp.ptx sp.ptx reduceSinglePass _Z16reduceSinglePassPiS_j --output=total \
    --grid-per-sm=4
expect_json "device inputs, the single pass (a total): right at every size" \
    'j["status"] == "ok" and all(c["correct"] for c in j["cases"])'

e2e_finish
