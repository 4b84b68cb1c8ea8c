#!/bin/bash
# cudalab doctor on this machine (nvcc, no GPU, the PTX simulator) and, through a
# fake device-probe replaying the probe report recorded on the H100, on a
# machine with a GPU; a damaged store, a missing catalog, no nvcc, a driver
# older than the toolkit, a simulator: each check's verdict and fix, and the
# exit status (0 GPU, 1 simulator only, 2 neither).
set -u
. "$(dirname "$0")/lib.sh"

checks='["catalog", "progress store", "lab drivers", "nvcc", "NVIDIA driver", "GPU", "simulator", "Nsight Compute", "compute-sanitizer", "bubblewrap"]'
nvcc_real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
nvcc_version=$("$nvcc_real" --version | sed -n 's/.*, V\([0-9.]*\).*/\1/p')

# --- this machine ---
run cudalab doctor
expect_status "doctor here (no GPU, the simulator)" 1
expect_out_re "catalog ok" '^ok    catalog +[0-9]+ exercises in [0-9]+ chapters? from '
expect_out_re "store ok, quick_check" "^ok    progress store +$STORE: quick_check ok\$"
expect_out_re "nvcc ok with its version" "^ok    nvcc +.*nvcc \(CUDA $nvcc_version\)\$"
expect_out_re "no NVIDIA driver: FAIL" '^FAIL  NVIDIA driver +no NVIDIA driver library: '
expect_out "no driver: the fix" "fix: install the NVIDIA driver"
expect_out_re "no GPU: FAIL" '^FAIL  GPU +none: no NVIDIA driver'
expect_out_re "simulator: available" \
    '^ok    simulator +available: grades correctness without a GPU \(cudalab PTX simulator\)$'
expect_out "the outcome: correctness, and speed modelled (review D4)" \
    "the lab grades on the simulator only: correctness, and speed on times the performance model"
run cudalab doctor --json
expect_status "doctor --json here" 1
expect_json "doctor --json: every check, in order" "[c['name'] for c in j['checks']] == $checks"
expect_json "doctor --json: can build, grades on the simulator" \
    "j['can_grade'] == 'sim' and j['can_build'] is True and j['nvcc_version'] == '$nvcc_version'"
expect_json "doctor --json: a fix for every check not ok" \
    "all((c['state'] == 'ok') == (c['fix'] == '') for c in j['checks'])"
run cudalab doctor --frobnicate
expect_status "doctor with an unknown argument" 2

# --- the toolkit's stub libcuda on the library path: the real probe loads it ---
stub=$(ls "$(dirname "$(readlink -f "$nvcc_real")")"/../lib64/stubs/libcuda.so \
    "$(dirname "$(readlink -f "$nvcc_real")")"/../targets/*/lib/stubs/libcuda.so 2>/dev/null | head -n 1)
if [ -n "$stub" ]; then
    mkdir -p "$T/stub" && ln -s "$stub" "$T/stub/libcuda.so.1"
    LD_LIBRARY_PATH=$T/stub run cudalab doctor
    expect_status "doctor with the stub libcuda (the simulator still grades)" 1
    expect_out_re "stub: the driver check names it" \
        "^FAIL  NVIDIA driver +$T/stub/libcuda.so.1, the CUDA toolkit's stub, not the NVIDIA driver\$"
    expect_out "stub: the fix" "fix: remove the toolkit's stubs folder from LD_LIBRARY_PATH"
    expect_out_re "stub: no GPU, and why" '^FAIL  GPU +none: the CUDA stub library was loaded'
else
    fail "the toolkit's stub libcuda.so is not beside nvcc ($nvcc_real)"
fi

# --- a damaged store: SQLite's quick_check finds it ---
db=$T/damaged.db
CUDALAB_DB=$db cudalab list >/dev/null
# page 3 (the index) gets a header whose cell pointers point nowhere
printf '\x0d\x00\x00\x00\x05\x0f\xff' | dd of="$db" bs=1 seek=8192 conv=notrunc 2>/dev/null
CUDALAB_DB=$db run cudalab doctor
expect_status "doctor with a damaged store" 2
expect_out_re "damaged store: FAIL with SQLite's words" \
    "^FAIL  progress store +$db: \*\*\* in database main \*\*\* On tree page 3"
expect_out "damaged store: the fix" "fix: the progress database is damaged: move $db aside"
echo "not a database, not at all, but long enough to have a header......................." >"$T/junk.db"
CUDALAB_DB=$T/junk.db run cudalab doctor
expect_out_re "a file that is no database: FAIL" "^FAIL  progress store +.*$T/junk.db"
expect_out "no store: the outcome" "the lab cannot grade here: fix the FAIL lines above"

# --- no catalog: doctor still runs every check ---
CUDALAB_DATADIR=$T/nowhere run cudalab doctor
expect_status "doctor without a catalog" 2
expect_out_re "no catalog: FAIL naming the folder" "^FAIL  catalog +.*$T/nowhere/exercises"
expect_out_re "no catalog: nvcc still checked" '^ok    nvcc '

# --- the driver program missing from the lab's libexec folder ---
mkdir -p "$T/partial"
cp "$CUDALAB_LIBEXECDIR_TEST"/* "$T/partial/"
rm "$T/partial/cudalab-driver"
CUDALAB_LIBEXECDIR=$T/partial run cudalab doctor
expect_status "doctor without the driver program" 2
expect_out_re "missing driver: FAIL naming it" "^FAIL  lab drivers +$T/partial: cudalab-driver is missing\$"
expect_out "missing driver: the fix" "fix: reinstall cudalab (make install)"

# --- no nvcc ---
CUDALAB_NVCC=$T/no-nvcc run cudalab doctor
expect_status "doctor without nvcc" 2
expect_out_re "no nvcc: FAIL" "^FAIL  nvcc +"
expect_out "no nvcc: the fix" "fix: install the CUDA toolkit"

# --- a GPU: the probe report recorded on the H100 (driver for CUDA 13.0) ---
fx=$T/libexec
fake_programs "$fx"
cat >"$fx/device-probe" <<EOF2
#!/bin/sh
case " \$* " in
*" --backend=sim "*) [ -n "\${FAKE_SIM:-}" ] && cat "\$FAKE_SIM" >&3 ||
    echo '{"version":1,"family":"device-probe","backend":"sim","status":"no_gpu","reason":"the PTX simulator is not available in this build"}' >&3 ;;
*) cat "$FIXTURES/reports/probe.json" >&3 ;;
esac
EOF2
chmod +x "$fx/device-probe"
fake_nvcc() { # VERSION: an nvcc that reports VERSION
    printf '#!/bin/sh\necho "Cuda compilation tools, release %s, V%s"\n' "${1%.*}" "$1" >"$T/nvcc-$1"
    chmod +x "$T/nvcc-$1"
    echo "$T/nvcc-$1"
}

CUDALAB_LIBEXECDIR=$fx CUDALAB_NVCC=$(fake_nvcc 13.0.88) run cudalab doctor
expect_status "doctor with the H100" 0
expect_out_re "H100: the driver, for CUDA 13.0 like the toolkit" \
    '^ok    NVIDIA driver +libcuda.so.1, for CUDA 13.0; the toolkit is 13.0$'
expect_out_re "H100: the GPU" \
    '^ok    GPU +NVIDIA H100 80GB HBM3, compute capability 9.0 \(kernels build for sm_90\), memory peak 3352 GB/s$'
expect_out "H100: ready" "ready: the lab grades on the GPU (correctness and speed)"

CUDALAB_LIBEXECDIR=$fx CUDALAB_NVCC=$(fake_nvcc 13.2.51) run cudalab doctor
expect_status "driver one minor behind the toolkit: still the GPU" 0
expect_out_re "minor behind: warn" '^warn  NVIDIA driver +.*the toolkit is 13.2 \(compiled kernels run'
expect_out "minor behind: the fix" "fix: update the NVIDIA driver to one for CUDA 13.2 or newer"

CUDALAB_LIBEXECDIR=$fx CUDALAB_NVCC=$(fake_nvcc 14.0.10) run cudalab doctor
expect_status "driver a major version behind: no GPU grading" 2
expect_out_re "major behind: FAIL" '^FAIL  NVIDIA driver +libcuda.so.1, for CUDA 13.0; the toolkit is 14.0$'

# --- a simulator and no GPU (a fake answer: the simulator is another helper's work) ---
cat >"$fx/device-probe" <<EOF2
#!/bin/sh
case " \$* " in
*" --backend=sim "*) echo '{"version":1,"family":"device-probe","backend":"sim","status":"ok","device":{"name":"PTX simulator","cc":"9.0"}}' >&3 ;;
*) echo '{"version":1,"family":"device-probe","backend":"cuda","status":"no_gpu","reason":"no CUDA-capable device is visible","driver":{"found":true,"version":13000,"library":"/usr/lib/libcuda.so.1"}}' >&3 ;;
esac
EOF2
CUDALAB_LIBEXECDIR=$fx run cudalab doctor
expect_status "doctor with only the simulator" 1
expect_out_re "simulator: ok" '^ok    simulator +available: grades correctness without a GPU'
expect_out_re "no device: FAIL" '^FAIL  GPU +none: no CUDA-capable device is visible$'
expect_out "no device: the fix" "fix: check nvidia-smi; unset CUDA_VISIBLE_DEVICES"
expect_out "simulator only: the outcome" "the lab grades on the simulator only"

e2e_finish
