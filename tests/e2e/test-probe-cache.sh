#!/bin/bash
# The device probe's answer is kept (lab/grade/probecache.h): a GPU found is not looked for again
# by the next grading while nothing the probe depends on changed; a changed driver program,
# CUDA_VISIBLE_DEVICES or libcuda, a damaged file, `cudalab device` and a grading whose driver
# finds no GPU all make the lab probe again; each CUDA_VISIBLE_DEVICES keeps its own answer (a
# batch's graders are each pinned to a GPU).  No GPU found is never kept.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
cp "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu" less.cu
kept=$XDG_CACHE_HOME/cudalab/device-probe.json
probes=$T/probes

# without a GPU (this machine's real driver program): nothing is kept
run cudalab grade $less less.cu --no-record
expect_status "no GPU: graded on the simulator" 0
expect_cmd "no GPU: no probe kept" test ! -e "$kept"

. "$(dirname "$0")/fake-gpu.sh"
fake_driver "cat '$reports/less-ref.json' >&3"
# the pretend probe counts its runs
write_probe() { # LIBCUDA: the recorded H100 probe, its libcuda at LIBCUDA
    python3 - "$reports/probe.json" "$1" >"$T/probe-now.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["driver"] = {"found": True, "version": 13000, "library": sys.argv[2]}
print(json.dumps(r))
PY
    printf '#!/bin/sh\necho probe >>"%s"\ncat "%s" >&3\n' "$probes" "$T/probe-now.json" >"$fx/device-probe"
    chmod +x "$fx/device-probe"
}
probe_count() { [ -e "$probes" ] && wc -l <"$probes" || echo 0; }
echo fake >"$T/libcuda.so.1"
write_probe "$T/libcuda.so.1"

run cudalab grade $less less.cu --no-record
expect_out_re "a GPU grading: PASS" '^PASS  '
expect_eq "the first grading probes" "$(probe_count)" 1
expect_cmd "the GPU found is kept" test -s "$kept"
run cudalab grade $less less.cu --no-record
expect_out_re "the next grading: PASS" '^PASS  '
expect_eq "the next grading does not probe" "$(probe_count)" 1
CUDALAB_TRACE=$T/trace run cudalab grade $less less.cu --no-record
expect_cmd "its trace says the answer was kept" grep -q "device: the kept probe" "$T/trace"

CUDA_VISIBLE_DEVICES=1 run cudalab grade $less less.cu --no-record
expect_eq "another CUDA_VISIBLE_DEVICES probes again" "$(probe_count)" 2
CUDA_VISIBLE_DEVICES=1 run cudalab grade $less less.cu --no-record
expect_eq "the same CUDA_VISIBLE_DEVICES again: its answer is kept" "$(probe_count)" 2
run cudalab grade $less less.cu --no-record
expect_eq "and back again: the first answer is still kept beside it (a batch's graders are pinned to GPUs)" \
    "$(probe_count)" 2
CUDA_VISIBLE_DEVICES=1 run cudalab grade $less less.cu --no-record
echo '{' >"$(ls "$XDG_CACHE_HOME"/cudalab/device-probe-*.json)"
CUDA_VISIBLE_DEVICES=1 run cudalab grade $less less.cu --no-record
expect_eq "a damaged answer of a pinned grading: probes again" "$(probe_count)" 3
run cudalab grade $less less.cu --no-record
expect_eq "and the unpinned one's answer is untouched" "$(probe_count)" 3

echo "a new driver library" >"$T/libcuda.so.1"
run cudalab grade $less less.cu --no-record
expect_eq "a changed libcuda probes again" "$(probe_count)" 4
rm "$T/libcuda.so.1"
run cudalab grade $less less.cu --no-record
expect_eq "a libcuda that is gone probes again" "$(probe_count)" 5
echo fake >"$T/libcuda.so.1"

write_probe "$T/libcuda.so.1"
printf '\n# the same program, one line longer\n' >>"$fx/device-probe"
run cudalab grade $less less.cu --no-record
expect_eq "a changed driver program probes again" "$(probe_count)" 6
touch "$fx/a-new-file-beside-the-drivers"
run cudalab grade $less less.cu --no-record
expect_eq "a changed libexec folder probes again" "$(probe_count)" 7

echo '{"key": "not json' >"$kept"
run cudalab grade $less less.cu --no-record
expect_out_re "a damaged kept answer: still PASS" '^PASS  '
expect_eq "a damaged kept answer: probes again" "$(probe_count)" 8
mkfifo "$T/fifo"
rm "$kept" && ln -s "$T/fifo" "$kept"
run cudalab grade $less less.cu --no-record
expect_out_re "a kept answer that is a FIFO: PASS, without waiting on it" '^PASS  '
expect_eq "a kept answer that is a FIFO: probes again" "$(probe_count)" 9
rm -f "$kept"
run cudalab grade $less less.cu --no-record
expect_eq "kept again" "$(probe_count)" 10

run cudalab device
expect_out "cudalab device shows the GPU" "NVIDIA H100 80GB HBM3"
expect_eq "cudalab device always probes" "$(probe_count)" 11
run cudalab grade $less less.cu --no-record
expect_eq "and keeps what it found" "$(probe_count)" 11

# the kept GPU went away: the driver finds none; the lab probes again and grades again, once
fake_driver "echo '{\"version\":1,\"family\":\"reduce-int\",\"backend\":\"cuda\",\"status\":\"no_gpu\",\"reason\":\"no CUDA-capable device is detected\"}' >&3"
run cudalab grade $less less.cu
expect_out_re "the GPU gone: NO_GPU, with the driver's reason" '^NO_GPU .*no CUDA-capable device is detected'
expect_eq "the GPU gone: probed again, once" "$(probe_count)" 12
expect_eq "the GPU gone: one attempt recorded" \
    "$(db_rows "SELECT count(*) FROM attempts WHERE exercise = '$less'")" 1
# the probe now finds none either (and the real driver grades on the simulator): nothing is
# kept, and every grading probes
rm "$fx/reduce-int"
printf '#!/bin/sh\necho probe >>"%s"\necho %s >&3\n' "$probes" \
    "'{\"version\":1,\"family\":\"device-probe\",\"backend\":\"cuda\",\"status\":\"no_gpu\",\"reason\":\"no CUDA-capable device is detected\"}'" \
    >"$fx/device-probe"
run cudalab grade $less less.cu --no-record
expect_out_re "no GPU any more: graded on the simulator" '^PASS  .*simulator|^PASS .*modelled'
expect_cmd "no GPU any more: nothing kept" test ! -e "$kept"
run cudalab grade $less less.cu --no-record
expect_eq "no GPU any more: each grading probes" "$(probe_count)" 14

e2e_finish
