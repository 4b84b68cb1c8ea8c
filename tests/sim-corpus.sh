#!/bin/bash
# tests/sim-corpus.sh - the course's kernel files, one per line: every
# solutions/*/*.cu, exercises/*/*/starter.cu and kernels/*.cu under ROOT
# (default: the source tree).  Shared by the simulator's corpus test, the
# differential test and the GPU recorder, so the three see the same files.
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
ls -1 solutions/*/*.cu exercises/*/*/starter.cu kernels/*.cu 2>/dev/null | sort
