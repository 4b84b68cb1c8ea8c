#!/bin/bash
# tests/check-layers.sh - the architecture's arrows (docs/design/architecture.md), checked on
# the sources: each folder of lab/, and common/ (the harness), includes only from the folders below
# it, the simulator, the harness, the drivers and the demos include nothing of the grader (the harness and the demos
# use the performance model's arithmetic, lab/model, for modelled times on the simulator) (the drivers read only the
# family registry's data file, lab/catalog/families.def, and the occupancy calculator's cases,
# lab/catalog/occupancy-cases.def; the harness the sandbox's table of limits, lab/platform/limits.def),
# no menu file includes the CLI, and
# no file in lab/drivers or lab/demos defines main.  Prints "layers: ok" or each violation.
set -u
cd "$(dirname "$0")/.."
declare -A allowed=(
    [util]=""
    [sim]="util"
    [common]="model sim util"
    [drivers]="common sim util"
    [demos]="common model sim util"
    [catalog]="util"
    [model]="util"
    [build]="platform util"
    [platform]="util"
    [grade]="model catalog build platform util"
    [instruments]="model grade catalog build platform util"
    [batch]="model instruments grade catalog build platform util"
    [report]="model instruments grade catalog build platform util"
    [menu]="model report instruments batch grade catalog build platform util"
    [cli]="model menu shell report instruments batch grade catalog build platform util"
    [shell]="model cli report instruments batch grade catalog build platform util"
)
bad=0
for dir in common/ lab/*/; do
    dir=${dir%/}
    layer=${dir#lab/}
    if [ -z "${allowed[$layer]+set}" ]; then
        echo "layers: $dir is not in the table of tests/check-layers.sh"
        bad=1
        continue
    fi
    while IFS=: read -r file inc; do
        used=${inc#lab/}
        used=${used%%/*}
        [ "$used" = "$layer" ] && continue
        case " ${allowed[$layer]} " in *" $used "*) continue ;; esac
        # the drivers' program table is generated from the registry's data file; the occupancy
        # driver's cases are data the grader reads too
        [ "$layer" = drivers ] && [ "$inc" = lab/catalog/families.def ] && continue
        [ "$layer" = drivers ] && [ "$inc" = lab/catalog/occupancy-cases.def ] && continue
        # the harness sets the sandbox's host-code row on a student's host function: the one
        # table of limits is data, as the registry is
        [ "$layer" = common ] && [ "$inc" = lab/platform/limits.def ] && continue
        echo "layers: $file includes $inc ($layer may use: ${allowed[$layer]:-nothing})"
        bad=1
    done < <(grep -o '^#include "\(lab\|common\)/[^"]*"' "$dir"/*.[ch] 2>/dev/null |
             sed 's/#include "//; s/"$//')
done
if grep -ln '^main(' lab/drivers/*.c lab/demos/*.c 2>/dev/null; then
    echo "layers: a file above defines main; the one main is common/main.c"
    bad=1
fi
[ $bad = 0 ] && echo "layers: ok"
exit $bad
