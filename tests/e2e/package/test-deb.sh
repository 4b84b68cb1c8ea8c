#!/bin/bash
# The Debian package (make deb; its path in CUDALAB_DEB): its control data,
# its dependencies against what its programs really link, then unpacked into
# a clean folder root (dpkg -x) and run from there like an install
# (installed.sh): list, start, a grade, doctor, the man page, completion.
# Run by `make test-package` (part of `make test`).
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/installed.sh"

deb=${CUDALAB_DEB:-}
[ -n "$deb" ] && [ -f "$deb" ]
check "the package was built (CUDALAB_DEB=$deb)" $?

run dpkg-deb -f "$deb" Package Version Depends
expect_status "dpkg-deb reads the package" 0
expect_out "the package is cudalab" "Package: cudalab"
expect_out "its version is the lab's" \
    "Version: $(sed -n 's/^#define LAB_VERSION "\(.*\)"/\1/p' "$E2E_SRC/lab/cli/main.c")"
for lib in libinih1 libcjson1 libsqlite3-0; do
    expect_out_re "it depends on $lib" "^Depends: .*\b$lib\b"
done
[ -n "$OUT" ] && ! grep -Eiq '^Depends: .*(cuda|nvidia)' <<<"$OUT"
check "it does not depend on a CUDA or NVIDIA package" $?
depends=$(sed -n 's/^Depends: //p' <<<"$OUT" | tr ',' '\n' | awk '{print $1}')

root=$T/root
run dpkg -x "$deb" "$root"
expect_status "dpkg -x unpacks it into a clean root" 0

# Every library its programs link (NEEDED) comes from a package it depends on.
for prog in "$root"/usr/bin/cudalab "$root"/usr/libexec/cudalab/*; do
    readelf -h "$prog" >/dev/null 2>&1 || continue
    missing=
    for so in $(readelf -d "$prog" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
        path=$(ldd "$prog" | awk -v so="$so" '$1 == so {print $3}')
        pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null)
        pkg=${pkg%%:*}
        grep -Fxq -- "$pkg" <<<"$depends" || missing="$missing $so($pkg)"
    done
    expect_eq "${prog#"$root"}: every linked library is in Depends" "$missing" ""
done
run bash -c 'grep -rl --binary-files=text "$1" "$2" || true' _ "$E2E_SRC" "$root"
expect_eq "nothing in the package names the build tree" "$OUT" ""

check_installed package "$root/usr" "$root/usr/share/bash-completion/completions/cudalab" \
    "$root/usr/share/zsh/vendor-completions/_cudalab" "$root/usr/share/man/man1/cudalab.1.gz"

e2e_finish
