# tests/bench/opts.sh - what the bench scripts share, sourced: the lab under test ($root, $bin)
# and their options, -n N (how many gradings) and -e (edit the file before each, so that nvcc
# runs every time).  bench_opts USAGE "$@" sets n (keeping the caller's default) and edit; the
# caller then shifts $((OPTIND - 1)).
# shellcheck shell=bash disable=SC2034 # root, bin, n and edit are the caller's
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${CUDALAB_BIN:-$root/bin/cudalab}
edit=false
bench_opts() {
    local usage=$1 o
    shift
    while getopts n:e o; do
        case $o in
        n) n=$OPTARG ;;
        e) edit=true ;;
        *) echo "usage: $usage" >&2; exit 2 ;;
        esac
    done
}
