#!/bin/bash
# The sandbox (bubblewrap) around a student's compile and around the driver
# that loads the student's code: fake drivers (no GPU needed) try to write
# outside, read the solutions and $HOME, flood stdout, fork a thousand
# processes and sleep forever; each is contained, gets its verdict and leaves
# nothing behind.  Also: the clear refusal where bubblewrap cannot run.
set -u
. "$(dirname "$0")/lib.sh"

less=reduction/neighbored-less
sol=$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu
cp "$sol" less.cu

# --- where bubblewrap cannot run: a clear message, never a silent fallback ---
CUDALAB_SANDBOX=on CUDALAB_BWRAP=$T/no-such-bwrap run cudalab grade $less less.cu
expect_status "sandbox on, bwrap missing: lab error" 2
expect_err "sandbox on, bwrap missing: says how to install it" "apt-get install bubblewrap"
printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n' >"$T/container-bwrap"
chmod +x "$T/container-bwrap"
CUDALAB_SANDBOX=on CUDALAB_BWRAP=$T/container-bwrap run cudalab grade $less less.cu
expect_status "sandbox on, no user namespaces: lab error" 2
expect_err "sandbox on, no user namespaces: says why" "user namespaces are probably disabled"
expect_err "sandbox on, no user namespaces: quotes bwrap" "No permissions to creating new namespace"
CUDALAB_SANDBOX=auto CUDALAB_BWRAP=$T/container-bwrap run cudalab grade $less less.cu --no-record
[ "$RC" -le 1 ]
check "sandbox auto, unusable: grades without it (a verdict, no lab error)" $?
expect_out_re "sandbox auto, unusable: the verdict (NO_GPU, or PASS on the simulator)" '^(NO_GPU|PASS) '
# a program named as bubblewrap that runs nothing is no sandbox (# 19: /bin/true passed the probe)
CUDALAB_SANDBOX=on CUDALAB_BWRAP=/bin/true run cudalab grade $less less.cu
expect_status "sandbox on, bwrap is /bin/true: lab error" 2
expect_err_re "bwrap is /bin/true: says it is no bubblewrap" \
    "'/bin/true' is no working bubblewrap: the sandbox it made did not run as user [0-9]+"
CUDALAB_SANDBOX=bogus run cudalab grade $less less.cu
expect_err "CUDALAB_SANDBOX=bogus: says what is allowed" "CUDALAB_SANDBOX='bogus' is not off, auto or on"
mkdir -p subs
cp less.cu subs/ann.cu
CUDALAB_BWRAP=$T/container-bwrap run cudalab batch $less subs/ann.cu --out gb0
expect_status "batch where bwrap cannot run: refused" 2
expect_err "batch where bwrap cannot run: names --no-sandbox" "pass --no-sandbox"
[ ! -e gb0/gradebook.csv ]
check "batch where bwrap cannot run: no gradebook" $?
CUDALAB_BWRAP=/bin/true run cudalab batch $less subs/ann.cu --out gb0
expect_status "batch with /bin/true as bwrap: refused" 2
CUDALAB_BWRAP=$T/container-bwrap run cudalab batch $less subs/ann.cu --out gb0 --no-sandbox
expect_status "batch --no-sandbox where bwrap cannot run: grades" 0
expect_out "batch --no-sandbox: says so" "(no sandbox)"

. "$(dirname "$0")/fake-gpu.sh"
# (the fake GPU only from here on: the checks above use the real probe)
export CUDALAB_LIBEXECDIR=$CUDALAB_LIBEXECDIR_TEST
unset CUDALAB_ARCH
if ! bwrap_usable; then
    echo "SKIP: bubblewrap cannot run here ($(head -1 "$T/bwrap.err")): the contained-fault tests need it"
    rm -rf "$outside"
e2e_finish
    exit 0
fi
export CUDALAB_SANDBOX=on

# --- the compile: the solutions and $HOME are out of the student's reach ---
printf '#include "%s"\n' "$sol" >steal.cu
run cudalab grade $less steal.cu --no-record
expect_out "compile: #include of the solution fails" "No such file or directory"
expect_out_re "compile: verdict COMPILE_ERROR" '^COMPILE_ERROR'
echo 'int secret = 1;' >"$HOME/secret.cu"
printf '#include "%s"\n' "$HOME/secret.cu" >home.cu
cat "$sol" >>home.cu
run cudalab grade $less home.cu --no-record
expect_out_re "compile: #include from \$HOME fails" '^COMPILE_ERROR'
run cudalab grade $less less.cu --no-record
expect_out_re "compile: a good file still compiles in the sandbox" '^(NO_GPU|PASS) '

# the build cache, the store, $HOME, other students' files and another checkout's solutions/ are
# not there at all (# 19: the cache was bound read-write; /var/tmp and checkouts were visible)
outside=/var/tmp/$E2E_MARK
mkdir -p "$outside/checkout/solutions/reduction" "$outside/subs"
cp "$sol" "$outside/checkout/solutions/reduction/"
cp less.cu "$outside/subs/bob.cu"
cached=$(ls "$CACHE"/*.ptx | head -1)
{
    for f in "$cached" "$CACHE" "$STORE" "$HOME" "$outside/checkout/solutions/reduction/neighbored-less.cu" \
        "$outside/subs/bob.cu" "$T/subs/ann.cu" "$CUDALAB_DATADIR_TEST/solutions/reduction/neighbored-less.cu"; do
        printf '#if __has_include("%s")\n#error sees %s\n#endif\n' "$f" "$f"
    done
    cat "$sol"
} >peek.cu
run cudalab grade $less peek.cu --no-record
expect_out_re "compile: the cache, store, home, other submissions and solutions are not there" '^(NO_GPU|PASS) '
expect_out_lacks "compile: no #error of a file seen" "error: #error"

# host code: the reference's shared object reaches the driver open, at no path, so the student's
# function cannot find it beside its own object or in the cache and dlopen it (# 19: it did, PASS)
cat >steal-ref.cu <<'CU'
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int (*reduce_fn)(int *, int);
int recursiveReduce(int *data, int const size)
{
    Dl_info me;
    char dirs[3][4096] = { "", "", "" }, path[8192];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

    if (dladdr((void *)&recursiveReduce, &me) && strrchr(me.dli_fname, '/')) {
        snprintf(dirs[0], sizeof(dirs[0]), "%s", me.dli_fname);
        *strrchr(dirs[0], '/') = '\0';
    }
    if (xdg)
        snprintf(dirs[1], sizeof(dirs[1]), "%s/cudalab/build", xdg);
    if (home)
        snprintf(dirs[2], sizeof(dirs[2]), "%s/.cache/cudalab/build", home);
    for (int i = 0; i < 3; i++) {
        DIR *d = *dirs[i] ? opendir(dirs[i]) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n < 4 || strcmp(e->d_name + n - 3, ".so"))
                continue;
            snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            reduce_fn f = h ? (reduce_fn)dlsym(h, "_Z15recursiveReducePii") : NULL;
            if (f && f != &recursiveReduce)
                return f(data, size);
        }
    }
    return 0;
}
CU
run cudalab grade reduction/recursive "$CUDALAB_DATADIR_TEST/solutions/reduction/recursive.cu" --no-record
expect_out_re "host code: the reference passes in the sandbox (its object passed open)" '^PASS '
run cudalab grade reduction/recursive steal-ref.cu --no-record
expect_out_re "host code: the reference's object is out of the student's reach: WRONG" '^WRONG '

# as root: the sandbox runs as the real nobody, so a file only root may read stays unread though
# it is in plain sight (# 19: a user namespace made by root maps its nobody back to root)
if [ "$(id -u)" = 0 ]; then
    secret=/etc/$E2E_MARK.secret
    echo "root-only-$E2E_MARK" >"$secret"
    chmod 600 "$secret"
    printf '#include "%s"\n' "$secret" >secret.cu
    cat "$sol" >>secret.cu
    run cudalab grade $less secret.cu --no-record
    expect_out_re "root, compile: #include of a root-only file is a COMPILE_ERROR" '^COMPILE_ERROR'
    expect_out "root, compile: nvcc may not read it" "Permission denied"
    expect_out_lacks "root, compile: nothing of it in the output" "root-only-$E2E_MARK"
    # host code: exit 3 when it reads the file, 13 when refused (EACCES), 2 when not there
    cat >attempts-secret.cu <<CU
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
int recursiveReduce(int *data, int const size)
{
    FILE *f = fopen("$secret", "r");
    exit(f ? 3 : errno == EACCES ? 13 : 2);
}
CU
    run cudalab grade reduction/recursive attempts-secret.cu --no-record
    expect_out_re "root, host code: may not open a root-only file (EACCES)" \
        'ended the process \(exit status 13\)'
    rm -f "$secret"
fi

# nvcc that never ends: a file that includes /dev/zero; the build timeout stops it
d0=$T/data-build
copy_datadir "$d0"
sed -i 's/^build_timeout = .*/build_timeout = 3/' "$d0/exercises/reduction/neighbored-less/exercise.ini"
printf '#include "/dev/zero"\n// %s-nvcc\n' "$E2E_MARK" >endless.cu
CUDALAB_DATADIR=$d0 run cudalab grade $less endless.cu --no-record
expect_out "endless nvcc: COMPILE_ERROR after the build timeout" "nvcc did not finish within 3 s"
expect_faster "endless nvcc: stopped near its 3 s limit" 20
expect_no_process "endless nvcc: no compiler process left" "$T/endless.cu"

# --- the driver: fake drivers under the sandbox ---
export CUDALAB_LIBEXECDIR=$fx CUDALAB_ARCH=sm_90
# a report whose reason the lab prints: how the driver sees its world
probe_report='printf "{\"version\":1,\"family\":\"reduce-int\",\"backend\":\"cuda\",\"status\":\"no_gpu\",\"reason\":\"%s\"}" "$why" >&3'

fake_driver "why=''
echo pwned >'$T/escaped' 2>/dev/null
echo pwned >'$CUDALAB_DATADIR_TEST/pwned' 2>/dev/null
[ -e '$sol' ] && why=\"\$why sees-solutions\"
[ -e '$HOME/secret.cu' ] && why=\"\$why sees-home\"
ls '$CACHE' 2>/dev/null | grep -qv '[.]cubin\$' && why=\"\$why sees-cache\"
[ -e '$outside/subs/bob.cu' ] && why=\"\$why sees-others\"
[ -e '$fx/root-only' ] && ! [ -r '$fx/root-only' ] || why=\"\$why reads-root-file\"
[ -d '$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/examples' ] && [ -n \"\$(ls '$CUDALAB_DATADIR_TEST/exercises/reduction/neighbored-less/examples')\" ] && why=\"\$why sees-examples\"
(exec 9<>/dev/tcp/127.0.0.1/22) 2>/dev/null && why=\"\$why network\"
ip -o link 2>/dev/null | grep -v ' lo:' | grep -q . && why=\"\$why has-interfaces\"
why=\"checked:\$why; uid \$(id -u) nproc \$(ulimit -u) fsize \$(ulimit -f) cpu \$(ulimit -t)\"
$probe_report"
echo root-only >"$fx/root-only"
chmod 600 "$fx/root-only"
[ "$(id -u)" = 0 ] || chmod 000 "$fx/root-only"
run cudalab grade $less less.cu --no-record
# uid 65534 in a user namespace of its own; as root a uid of the job's own (0x70000000 + a thread id)
expect_out_re "driver sandbox: nothing escaped, nothing seen" "checked:; uid (65534|18[0-9]{8}) "
expect_out "driver sandbox: rlimits set (512 processes, 256 MiB files, 600 s CPU)" "nproc 512 fsize 262144 cpu 600"
[ ! -e "$T/escaped" ] && [ ! -e "$CUDALAB_DATADIR_TEST/pwned" ]
check "driver sandbox: no file written outside" $?

# the driver still reads the cubins and writes its report
fake_driver "[ -r \"\$(printf '%s\n' \"\$@\" | sed -n 's/^--student=//p')\" ] || exit 5
cat '$reports/less-ref.json' >&3"
run cudalab grade $less less.cu --no-record
expect_out_re "driver sandbox: the student's cubin readable, report delivered: PASS" '^PASS  '

# flood: 300 MB on stdout, then a report: stopped at 1 MiB under the sandbox too, named, and
# nothing left
fake_driver "head -c 300000000 /dev/zero
cat '$reports/less-ref.json' >&3"
run cudalab grade $less less.cu --no-record
expect_out_re "flooding driver: stopped, a RUNTIME_ERROR that names the printf flood" \
    '^RUNTIME_ERROR  your kernel printed'
expect_faster "flooding driver: done in time" 60
expect_no_process "flooding driver: no process left" "$E2E_MARK"

# a thousand processes, then hang: TIMEOUT, the fork cap holds, nothing left.  The forks run in
# a shell of their own: a shell whose fork fails at the cap may exit (status 254), and the
# driver must still hang, by exec, which needs no fork
d=$T/data
copy_datadir "$d"
sed -i 's/^run_timeout = .*/run_timeout = 3/' "$d/exercises/reduction/neighbored-less/exercise.ini"
fake_driver "sh -c 'for i in \$(seq 1000); do sh -c \"sleep 300; :\" $E2E_MARK-fork & done; wait' 2>/dev/null
exec sleep 300"
CUDALAB_DATADIR=$d run cudalab grade $less less.cu --no-record
expect_out_re "fork bomb: TIMEOUT" '^TIMEOUT'
expect_faster "fork bomb: stopped near its 3 s limit" 20
expect_no_process "fork bomb: no process left" "$E2E_MARK-fork"

# sleeps forever, ignoring SIGTERM
fake_driver "trap '' TERM
sh -c 'trap \"\" TERM; sleep 300; :' $E2E_MARK-sleeper"
CUDALAB_DATADIR=$d run cudalab grade $less less.cu --no-record
expect_out_re "endless driver: TIMEOUT" '^TIMEOUT'
expect_faster "endless driver: stopped near its 3 s limit" 15
expect_no_process "endless driver: no process left" "$E2E_MARK-sleeper"

# a 100 MB file in its private /tmp: the tmpfs's size (64 MiB) stops it
fake_driver "why=\$(head -c 100000000 /dev/zero 2>/dev/null >/tmp/big && echo wrote-100MB || echo stopped)
$probe_report"
run cudalab grade $less less.cu --no-record
expect_out "big file: /tmp's 64 MiB stop it" "no GPU to run it on: stopped"

rm -rf "$outside"
e2e_finish
