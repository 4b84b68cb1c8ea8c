#!/bin/bash
# make test-gpu-install: the installed copy on a real GPU.
#  - make install into a temp PREFIX; everything below runs that copy from a
#    student folder outside the source tree, with nothing pointing it back;
#  - cudalab doctor exits 0 ("ready: the lab grades on the GPU"), the driver
#    check is ok, the GPU is named;
#  - cudalab --version names nvcc's version and the driver's CUDA version;
#  - start reduction/neighbored-less, put the reference solution in the work
#    file, grade it: PASS with the timing table; the untouched starter: not PASS;
#  - when debhelper is there: the Debian package, unpacked with dpkg -x, says
#    the same in doctor and grades the solution PASS;
#  - make uninstall leaves nothing.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
prefix=$tmp/prefix student=$tmp/student
export XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache
unset CUDALAB_DATADIR CUDALAB_LIBEXECDIR CUDALAB_ARCH
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' "$2"; }
# expect NAME WANT-STATUS CMD...: runs CMD (output in $tmp/out), checks its status
expect() {
    local name=$1 want=$2 rc
    shift 2
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" = "$want" ]; then ok "$name (exit $rc)"; else bad "$name: exit $rc, want $want" "$tmp/out"; fi
}
has() { # NAME ERE: the last output has a line matching
    if grep -Eq -- "$2" "$tmp/out"; then ok "$1"; else bad "$1: no line matches /$2/" "$tmp/out"; fi
}

# check_copy LABEL PREFIX: doctor, --version, start, grade from an installed copy
check_copy() {
    local label=$1 lab=$2/bin/cudalab dir=$student-$1
    mkdir -p "$dir" && cd "$dir" || exit 1
    expect "$label: doctor says the GPU is ready" 0 "$lab" doctor
    cat "$tmp/out"
    has "$label: doctor: driver ok" '^ok    NVIDIA driver +.*, for CUDA [0-9]+\.[0-9]+; the toolkit is'
    has "$label: doctor: GPU ok" '^ok    GPU +NVIDIA '
    has "$label: doctor: catalog from the installed copy" "^ok    catalog .* from $2/share/cudalab\$"
    has "$label: doctor: ready" '^ready: the lab grades on the GPU'
    expect "$label: --version" 0 "$lab" --version
    cat "$tmp/out"
    has "$label: --version: nvcc" '^nvcc [0-9]+\.[0-9]+\.[0-9]+ '
    has "$label: --version: driver" '^NVIDIA driver for CUDA [0-9]+\.[0-9]+ \('
    expect "$label: start" 0 "$lab" start reduction/neighbored-less
    has "$label: start names the work folder" "^Your work folder: $dir/work "
    expect "$label: grade the untouched starter (not PASS)" 1 "$lab" grade reduction/neighbored-less
    cp "$2/share/cudalab/solutions/reduction/neighbored-less.cu" work/reduction/neighbored-less.cu
    expect "$label: grade the reference solution in the work file" 0 \
        "$lab" grade reduction/neighbored-less
    cat "$tmp/out"
    has "$label: grade: PASS" '^PASS  '
    has "$label: grade: the timing table" '^  kernel +median +CI95 +samples +GB/s'
    has "$label: grade: on the GPU" '^GPU NVIDIA '
    cd "$tmp" || exit 1
}

# everything is built already (make test-gpu-install depends on all): install, do not rebuild
expect "make install PREFIX=$prefix" 0 make -C "$root" --no-print-directory -o all install PREFIX="$prefix"
check_copy installed "$prefix"
expect "make uninstall" 0 make -C "$root" --no-print-directory uninstall PREFIX="$prefix"
left=$(find "$prefix" -type f | head)
if [ -z "$left" ]; then ok "make uninstall leaves no file"; else bad "make uninstall left: $left"; fi

if command -v dh >/dev/null && command -v dpkg-buildpackage >/dev/null; then
    expect "make deb" 0 make -C "$root" --no-print-directory deb
    deb=$(ls "$root"/build/deb/cudalab_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)
    expect "dpkg -x the package" 0 dpkg -x "$deb" "$tmp/root"
    check_copy package "$tmp/root/usr"
else
    echo "skip the Debian package: debhelper is not installed here (make test builds and checks it)"
fi

echo
echo "$pass passed, $fail failed"
rm -rf "$tmp"
[ "$fail" -eq 0 ]
