#!/bin/bash
# The student's `make`: quiet (one line per step, the compiler's warnings still shown; V=1
# prints the full commands), a job per core unless -j is given, and -Werror only in the
# sanitized test build.  Run on a copy of the Makefile and lab/util (the smallest library),
# so that it builds little and leaves the tree alone.
set -u
. "$(dirname "$0")/lib.sh"

# this test's make is the top one, whatever runs it (make test exports its own flags)
unset MAKEFLAGS MAKELEVEL MFLAGS
src=$T/src
mkdir -p "$src/lab"
cp "$E2E_SRC/Makefile" "$src/"
cp -R "$E2E_SRC/lab/util" "$src/lab/"
# a warning of the kind a newer compiler adds: shown, and no failure in the student's build
printf 'int lab_util_unused_for_test(void);\nint lab_util_unused_for_test(void) { int x; return 0; }\n' \
    >"$src/lab/util/warned.c"
mk() {
    make -C "$src" --no-print-directory NO_DEPS_CHECK=1 "$@"
}

run mk build/rel/libutil.a
expect_status "make: builds" 0
expect_out_re "make: one line per compile, 'CC file'" '^  CC +lab/util/buf\.c$'
expect_out_re "make: one line per library" '^  AR +build/rel/libutil\.a$'
expect_out_lacks "make: no full compiler command line" "-std=c11"
expect_err "make: the compiler's warnings are still shown" "unused variable 'x'"
[ -f "$src/build/rel/libutil.a" ]
check "make: a warning does not stop the student's build (no -Werror)" $?

rm -rf "$src/build"
run mk V=1 build/rel/obj/lab/util/buf.o
expect_out_re "make V=1: the full command line" '^cc .*-std=c11 .* -c lab/util/buf\.c -o build/rel/obj/lab/util/buf\.o$'
expect_out_lacks "make V=1: the student's build has no -Werror" "-Werror"

run mk build/san/obj/lab/util/warned.o
expect_status "the test build (make test) keeps -Werror: the warning fails it" 2
expect_err "the test build: the warning is an error" "error: unused variable 'x'"

# the jobs: one per core when no -j is given; the user's -j wins (make -p prints the flags)
jobs() {
    mk "$@" -pq nothing-to-build 2>/dev/null | sed -n 's/^MAKEFLAGS = //p' | grep -o -- '-j[0-9]*' |
        head -1
}
expect_eq "make: a job per core when no -j is given" "$(jobs)" "-j$(nproc)"
expect_eq "make -j1: the user's choice" "$(jobs -j1)" "-j1"

e2e_finish
