#!/bin/bash
# make install / make uninstall: the FHS layout under DESTDIR+PREFIX, the
# installed copy run from outside the source tree (package/installed.sh), and
# an uninstall that leaves nothing behind.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/package/installed.sh"

dest=$T/dest prefix=/opt/cudalab-test
run make -C "$E2E_SRC" --no-print-directory install DESTDIR="$dest" PREFIX="$prefix"
expect_status "make install" 0
for f in bin/cudalab libexec/cudalab/cudalab-driver \
    libexec/cudalab/lab-kernels.ptx share/cudalab/exercises/reduction/neighbored/exercise.ini \
    share/cudalab/solutions/reduction/neighbored.cu share/cudalab/kernels/lab-kernels.cu \
    share/cudalab/docs share/man/man1/cudalab.1 share/bash-completion/completions/cudalab \
    share/zsh/site-functions/_cudalab; do
    [ -e "$dest$prefix/$f" ]
    check "installed: $f" $?
done
[ -z "$(find "$dest" -path "$dest$prefix" -prune -o -print | grep -v "^$dest\(/opt\)\?\$")" ]
check "nothing installed outside DESTDIR/PREFIX" $?

# Run where it was staged: the lab finds its files relative to its binary.
p=$dest$prefix
check_installed installed "$p" "$p/share/bash-completion/completions/cudalab" \
    "$p/share/zsh/site-functions/_cudalab" "$p/share/man/man1/cudalab.1"

# A folder named exercises beside the installed bin/ (PREFIX=$HOME with a ~/exercises)
# does not make the lab take PREFIX for a source tree.
mkdir "$dest$prefix/exercises"
run env -u CUDALAB_DATADIR -u CUDALAB_LIBEXECDIR "$dest$prefix/bin/cudalab" doctor
expect_out_re "an exercises folder in PREFIX: still the installed catalog" \
    "^ok    catalog +[0-9]+ exercises in [0-9]+ chapters? from $dest$prefix/share/cudalab\$"
rmdir "$dest$prefix/exercises"

# The source tree is not needed: move it out of sight of the installed copy.
mv "$dest$prefix" "$T/moved"
run env -u CUDALAB_DATADIR -u CUDALAB_LIBEXECDIR "$T/moved/bin/cudalab" doctor
expect_out_re "a moved install finds its catalog" \
    "^ok    catalog +[0-9]+ exercises in [0-9]+ chapters? from $T/moved/share/cudalab\$"
expect_out_re "a moved install finds its drivers" "^ok    lab drivers +$T/moved/libexec/cudalab\$"
run env -u CUDALAB_DATADIR -u CUDALAB_LIBEXECDIR "$T/moved/bin/cudalab" list --ids
expect_status "a moved install still finds its files" 0
expect_out "a moved install lists the exercises" "reduction/neighbored-less"
mv "$T/moved" "$dest$prefix"

run make -C "$E2E_SRC" --no-print-directory uninstall DESTDIR="$dest" PREFIX="$prefix"
expect_status "make uninstall" 0
expect_eq "make uninstall leaves no file" "$(find "$dest" -type f)" ""

e2e_finish
