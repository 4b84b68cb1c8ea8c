/*
 * sandbox.c - the bubblewrap command line, its environment, limits and status, and its probe
 * (see sandbox.h).
 */
#include "lab/platform/sandbox.h"
#include "lab/util/path.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROBE_TIMEOUT_S 10
#define USERNS_UID "65534" /* nobody, inside the job's own user namespace (the lab not root) */
#define HIDE_BYTES "4096"  /* a hidden folder's empty tmpfs, read-only too */

/* limits.def, one row per job kind. */
static const lab_sandbox_limits jobs[] = {
#define LAB_SANDBOX_JOB(KIND, LABEL, CPU, AS, FSIZE, NPROC, NOFILE, TMPFS, GPU)                    \
    [LAB_SANDBOX_##KIND] = { LABEL, { CPU, AS, FSIZE, NPROC, NOFILE }, TMPFS, GPU },
#include "lab/platform/limits.def"
#undef LAB_SANDBOX_JOB
};
_Static_assert(ARRAY_SIZE(jobs) == LAB_SANDBOX_JOB_COUNT, "one row per job kind");

/* What the sandbox sees of the machine, read-only: the system and its libraries, the CUDA
 * toolkit where it usually lives, and /sys (the CUDA driver reads the GPU's topology there).
 * Everything else (/home, /root, /srv, /var, /work, a checkout with its solutions/, other
 * students' files) is not there at all. */
static const char *const system_dirs[] = {
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/sys",
};

/* The environment a sandboxed job gets of the lab's: what finds programs and libraries, the
 * language of messages, which GPU, the simulator's and the sanitizers' settings (NAME* is a
 * prefix).  Nothing else: a grader's API token or its paths are not the student's to read. */
static const char *const env_allowed[] = {
    "PATH",
    "LD_LIBRARY_PATH",
    "LANG",
    "LANGUAGE",
    "LC_*",
    "TZ",
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "CUDALAB_SIM_*",
    "CUDALAB_TRACE",
    "ASAN_OPTIONS",
    "UBSAN_OPTIONS",
    "LSAN_OPTIONS",
};

bool
lab_sandbox_in_system(const char *path)
{
    for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++)
        if (lab_path_in_dir(path, system_dirs[i]))
            return true;
    return false;
}

const lab_sandbox_limits *
lab_sandbox_limits_of(lab_sandbox_job job)
{
    return &jobs[job];
}

uid_t
lab_sandbox_uid(void)
{
    /* thread ids are unique among live tasks: a batch grades on threads, one job at a time on
     * each, so two jobs running at once, of one lab or of two, never share a user (the lab's pid
     * was one user for a whole batch's jobs) */
    return geteuid() == 0 ? (uid_t)(LAB_SANDBOX_UID_BASE + (unsigned)gettid())
                          : (uid_t)atoi(USERNS_UID);
}

static bool
exists(const char *path)
{
    struct stat st;

    return path && *path && stat(path, &st) == 0;
}

/* An empty tmpfs over path, of no size to fill; made read-only once everything shown inside it
 * is mounted (remount_hidden).  hidden collects the paths. */
static int
hide(lab_strvec *out, lab_strvec *hidden, const char *path)
{
    int rc;

    if (!exists(path))
        return 0;
    if ((rc = lab_strvec_pushl(out, "--size", HIDE_BYTES, "--tmpfs", path, NULL)) < 0)
        return rc;
    return lab_strvec_push(hidden, path);
}

/* opt ("--ro-bind" or "--bind") of path onto itself, its folders made first with --dir: bwrap
 * makes the ones it needs for a mount 0700, which the sandbox's user could not go through */
static int
bind(lab_strvec *out, const char *opt, const char *path)
{
    lab_buf dir = LAB_BUF_INIT;
    int rc = 0;

    if (!exists(path))
        return 0;
    for (const char *slash = strchr(path + 1, '/'); slash && rc == 0;
         slash = strchr(slash + 1, '/')) {
        lab_buf_reset(&dir);
        rc = lab_buf_add(&dir, path, (size_t)(slash - path));
        if (rc == 0 && dir.len > 1)
            rc = lab_strvec_pushl(out, "--dir", dir.buf, NULL);
    }
    lab_buf_release(&dir);
    return rc < 0 ? rc : lab_strvec_pushl(out, opt, path, path, NULL);
}

/* exercises/<chapter>/<exercise>/examples for every exercise */
static int
hide_examples(lab_strvec *out, lab_strvec *hidden, const char *datadir)
{
    lab_buf pat = LAB_BUF_INIT;
    glob_t g;
    int rc = 0;

    lab_buf_printf(&pat, "%s/exercises/*/*/examples", datadir);
    if (glob(pat.buf, 0, NULL, &g) == 0) {
        for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++)
            rc = hide(out, hidden, g.gl_pathv[i]);
        globfree(&g);
    }
    lab_buf_release(&pat);
    return rc;
}

static int
store_dir(lab_buf *out)
{
    const char *db = getenv("CUDALAB_DB"), *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");

    if (db && *db) {
        const char *slash = strrchr(db, '/');
        return slash ? lab_buf_add(out, db, (size_t)(slash - db)) : 0;
    }
    if (xdg && *xdg)
        return lab_buf_printf(out, "%s/cudalab", xdg);
    if (home && *home)
        return lab_buf_printf(out, "%s/.local/share/cudalab", home);
    return 0;
}

/* A private memory file system at path, writable by all (mode 1777), no larger than bytes. */
static int
sized_tmpfs(lab_strvec *out, unsigned long long bytes, const char *path)
{
    int rc = 0;

    rc |= lab_strvec_pushl(out, "--perms", "1777", "--size", NULL);
    rc |= lab_strvec_pushf(out, "%llu", bytes);
    rc |= lab_strvec_pushl(out, "--tmpfs", path, NULL);
    return rc < 0 ? LAB_ENOMEM : 0;
}

/* bubblewrap's options for the plan, then "--", into out; status_fd: its --json-status-fd. */
static int
bwrap_options(const lab_sandbox_plan *plan, int status_fd, lab_strvec *out)
{
    const lab_sandbox_limits *row = &jobs[plan->job];
    lab_strvec hidden = LAB_STRVEC_INIT;
    lab_buf b = LAB_BUF_INIT;
    glob_t g;
    int rc = 0;

    rc |= lab_strvec_push(out, plan->bwrap ? plan->bwrap : "bwrap");
    for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++)
        rc |= lab_strvec_pushl(out, "--ro-bind-try", system_dirs[i], system_dirs[i], NULL);
    rc |= lab_strvec_pushl(out, "--dev", "/dev", "--proc", "/proc", NULL);
    rc |= sized_tmpfs(out, row->tmpfs, "/tmp");
    rc |= sized_tmpfs(out, row->tmpfs, "/dev/shm");
    rc |= lab_strvec_pushl(out, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                           "--unshare-cgroup-try", "--die-with-parent", "--json-status-fd", NULL);
    rc |= lab_strvec_pushf(out, "%d", status_fd);
    if (geteuid() != 0) /* as root, setpriv needs root's capabilities until it drops them */
        rc |= lab_strvec_pushl(out, "--unshare-user", "--uid", USERNS_UID, "--gid", USERNS_UID,
                               "--cap-drop", "ALL", NULL);
    if (row->gpu && glob("/dev/nvidia*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            rc |= lab_strvec_pushl(out, "--dev-bind", g.gl_pathv[i], g.gl_pathv[i], NULL);
        globfree(&g);
    }
    rc |= hide(out, &hidden, getenv("HOME"));
    if (store_dir(&b) == 0 && b.len)
        rc |= hide(out, &hidden, b.buf);
    if (plan->datadir) {
        lab_buf_reset(&b);
        lab_buf_printf(&b, "%s/solutions", plan->datadir);
        rc |= hide(out, &hidden, b.buf);
        rc |= hide_examples(out, &hidden, plan->datadir);
    }
    for (const char *const *p = plan->hide; p && *p; p++)
        rc |= hide(out, &hidden, *p);
    for (const char *const *p = plan->show; p && *p; p++)
        rc |= bind(out, "--ro-bind", *p);
    if (plan->writable)
        rc |= bind(out, "--bind", plan->writable);
    /* the hidden folders read-only last: what is shown inside them needed --dir there first;
     * then bubblewrap's own root and /dev, tmpfs that a user namespace's user may write, of
     * half the machine's memory (their mounts, /tmp and /dev/shm, keep their own size) */
    for (size_t i = hidden.n; i-- > 0;)
        rc |= lab_strvec_pushl(out, "--remount-ro", hidden.v[i], NULL);
    rc |= lab_strvec_pushl(out, "--remount-ro", "/dev", "--remount-ro", "/", NULL);
    rc |= lab_strvec_push(out, "--");
    lab_strvec_release(&hidden);
    lab_buf_release(&b);
    return rc < 0 ? LAB_ENOMEM : 0;
}

/* What runs inside before the program: as root, setpriv drops to the job's own user with no
 * groups, no capabilities and no way back (no_new_privs); then prlimit sets the process limit
 * inside the sandbox, where it counts the job's user (or user namespace) alone: set on bubblewrap
 * outside, a user namespace would also cap every process of the lab's user at it, and one job's
 * fork bomb would stop the others' sandboxes from starting (# 34). */
static int
inside(const lab_sandbox_limits *row, lab_strvec *out)
{
    uid_t uid = lab_sandbox_uid();
    int rc = 0;

    if (geteuid() == 0) {
        rc |= lab_strvec_push(out, "setpriv");
        rc |= lab_strvec_pushf(out, "--reuid=%u", (unsigned)uid);
        rc |= lab_strvec_pushf(out, "--regid=%u", (unsigned)uid);
        rc |= lab_strvec_pushl(out, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                               "--no-new-privs", "--", NULL);
    }
    rc |= lab_strvec_push(out, "prlimit");
    rc |= lab_strvec_pushf(out, "--nproc=%lu", row->rlimits.nproc);
    rc |= lab_strvec_push(out, "--");
    return rc < 0 ? LAB_ENOMEM : 0;
}

/* Whether the name of entry (NAME=value) is pattern's (len bytes): NAME, or a prefix and '*'. */
static bool
env_matches(const char *entry, const char *pattern, size_t len)
{
    size_t name = strcspn(entry, "=");

    if (len && pattern[len - 1] == '*')
        return name >= len - 1 && !strncmp(entry, pattern, len - 1);
    return len && name == len && !strncmp(entry, pattern, len);
}

/* Whether entry is on the allow-list, or on the grader's own additions
 * ($CUDALAB_SANDBOX_KEEP_ENV: names and prefixes with '*', comma-separated). */
static bool
env_is_allowed(const char *entry)
{
    const char *more = getenv("CUDALAB_SANDBOX_KEEP_ENV");

    for (size_t i = 0; i < ARRAY_SIZE(env_allowed); i++)
        if (env_matches(entry, env_allowed[i], strlen(env_allowed[i])))
            return true;
    for (const char *p = more; p && *p; p += *p == ',') {
        size_t len = strcspn(p, ",");
        if (env_matches(entry, p, len))
            return true;
        p += len;
    }
    return false;
}

/* The allow-list's part of the lab's environment, then p's own entries (which override). */
static int
allowed_env(const lab_strvec *own, lab_strvec *out)
{
    int rc = 0;

    for (char **e = environ; rc == 0 && e && *e; e++)
        if (env_is_allowed(*e))
            rc = lab_strvec_push(out, *e);
    for (size_t i = 0; rc == 0 && i < own->n; i++)
        rc = lab_strvec_push(out, own->v[i]);
    return rc;
}

int
lab_sandbox_confine(const lab_sandbox_plan *plan, lab_proc *p, lab_err *err)
{
    const lab_sandbox_limits *row = &jobs[plan->job];
    lab_strvec argv = LAB_STRVEC_INIT, env = LAB_STRVEC_INIT;
    int rc;

    if ((rc = bwrap_options(plan, lab_proc_status_fd(p), &argv)) < 0 ||
        (rc = inside(row, &argv)) < 0 ||
        (rc = lab_strvec_pushv(&argv, (const char *const *)p->argv.v)) < 0 ||
        (rc = allowed_env(&p->env, &env)) < 0) {
        lab_strvec_release(&argv);
        lab_strvec_release(&env);
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    lab_strvec_release(&p->argv);
    lab_strvec_release(&p->env);
    p->argv = argv;
    p->env = env;
    p->env_only = true;
    p->status_pipe = true;
    p->limits = row->rlimits;
    p->limits.nproc = 0; /* inside (above) */
    return 0;
}

bool
lab_sandbox_failed(const lab_proc *p, lab_buf *why)
{
    const char *said = strstr(p->errout.buf, "bwrap: "), *own;
    char how[128];

    /* bubblewrap writes {"exit-code": N} once the program has run and exited, whatever it did;
     * without it bubblewrap itself failed: it could not fork, mount or exec (its status says
     * nothing of a program that never ran) */
    if (strstr(p->status_text.buf, "\"exit-code\"") || p->timed_out || p->cancelled || p->flooded)
        return false; /* the lab stopped it: the run's end, not the sandbox's failure */
    own = said ? said : p->errout.buf;
    lab_buf_printf(why, "the sandbox could not run '%s' (bubblewrap %s: %.*s)",
                   p->argv.n > 0 ? p->argv.v[p->argv.n - 1] : "?",
                   lab_proc_describe(p, how, sizeof(how)), (int)strcspn(own, "\n"), own);
    return true;
}

int
lab_sandbox_hand_over(const char *path, lab_err *err)
{
    uid_t uid = lab_sandbox_uid();

    if (geteuid() != 0 || lchown(path, uid, (gid_t)uid) == 0)
        return 0;
    return lab_err_set(err, LAB_EIO, "cannot hand '%s' to the sandbox's user: %s", path,
                       strerror(errno));
}

bool
lab_sandbox_probe(const char *bwrap, lab_buf *why)
{
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_COMPILE, .bwrap = bwrap };
    lab_err err = LAB_ERR_INIT;
    char uid[32];
    lab_proc p;
    bool ok = false;

    lab_proc_init(&p);
    p.timeout_s = PROBE_TIMEOUT_S;
    snprintf(uid, sizeof(uid), "%u\n", (unsigned)lab_sandbox_uid());
    /* a command whose answer only a sandbox gives: the program named bwrap must run it, and
     * as the sandbox's user (a /bin/true in its place says nothing) */
    if (lab_strvec_pushl(&p.argv, "id", "-u", NULL) < 0 ||
        lab_sandbox_confine(&plan, &p, &err) < 0) {
        lab_buf_adds(why, err.msg[0] ? err.msg : "out of memory");
        goto out;
    }
    if (lab_proc_run(&p, &err) < 0) {
        lab_buf_printf(why,
                       "bubblewrap is not installed (%s); install it with: apt-get install "
                       "bubblewrap",
                       err.msg);
        goto out;
    }
    if (!p.exited || p.exit_code != 0) {
        char how[128];
        size_t len = strcspn(p.errout.buf, "\n");
        lab_buf_printf(why,
                       "bubblewrap cannot run here (%s: %.*s); user namespaces are probably "
                       "disabled, as in many containers",
                       lab_proc_describe(&p, how, sizeof(how)), (int)len, p.errout.buf);
        goto out;
    }
    if (strcmp(p.out.buf, uid)) {
        lab_buf_printf(why,
                       "'%s' is no working bubblewrap: the sandbox it made did not run as user "
                       "%.*s (`id -u` said '%.*s')",
                       p.argv.v[0], (int)strcspn(uid, "\n"), uid, (int)strcspn(p.out.buf, "\n"),
                       p.out.buf);
        goto out;
    }
    ok = true;
out:
    lab_proc_release(&p);
    return ok;
}
