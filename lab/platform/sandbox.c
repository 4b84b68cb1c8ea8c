/*
 * sandbox.c - the bubblewrap command line and its probe (see sandbox.h).
 */
#include "lab/platform/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROBE_TIMEOUT_S 10
#define SANDBOX_UID "65534" /* nobody: inside the sandbox, and outside too when the lab is root */
#define GIB (1024ULL * 1024 * 1024)

/* One row per job kind: its limits and whether it sees the GPU. */
static const struct {
    lab_proc_limits limits;
    bool gpu;
} jobs[] = {
    /* nvcc: cicc and ptxas take a few hundred MB; a template bomb hits the CPU limit */
    [LAB_SANDBOX_COMPILE] = { { 120, 8 * GIB, 256ULL << 20, 512, 1024 }, false },
    /* the CUDA driver maps the GPU's memory into the address space: no RLIMIT_AS */
    [LAB_SANDBOX_DRIVER] = { { 600, 0, 64ULL << 20, 512, 1024 }, true },
    [LAB_SANDBOX_HOST] = { { 120, 4 * GIB, 64ULL << 20, 256, 256 }, false },
};
_Static_assert(ARRAY_SIZE(jobs) == LAB_SANDBOX_JOB_COUNT, "one row per job kind");

/* What the sandbox sees of the machine, read-only: the system and its libraries, the CUDA
 * toolkit where it usually lives, and /sys (the CUDA driver reads the GPU's topology there).
 * Everything else (/home, /root, /srv, /var, /work, a checkout with its solutions/, other
 * students' files) is not there at all. */
static const char *const system_dirs[] = {
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/sys",
};

/* Run as root, the sandbox's user namespace would map its user back to root; so the lab makes
 * no user namespace then, and setpriv (util-linux) drops to nobody inside, with no groups, no
 * capabilities and no way back (no_new_privs). */
static const char *const drop_root[] = {
    "setpriv",         "--reuid=" SANDBOX_UID, "--regid=" SANDBOX_UID, "--clear-groups",
    "--inh-caps=-all", "--bounding-set=-all",  "--no-new-privs",       "--",
};

bool
lab_sandbox_in_system(const char *path)
{
    for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++) {
        size_t n = strlen(system_dirs[i]);

        if (!strncmp(path, system_dirs[i], n) && path[n] == '/')
            return true;
    }
    return false;
}

void
lab_sandbox_limits(lab_sandbox_job job, lab_proc_limits *out)
{
    *out = jobs[job].limits;
}

static bool
exists(const char *path)
{
    struct stat st;

    return path && *path && stat(path, &st) == 0;
}

static int
hide(lab_strvec *out, const char *path)
{
    if (!exists(path))
        return 0;
    return lab_strvec_pushl(out, "--tmpfs", path, NULL);
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
hide_examples(lab_strvec *out, const char *datadir)
{
    lab_buf pat = LAB_BUF_INIT;
    glob_t g;
    int rc = 0;

    lab_buf_printf(&pat, "%s/exercises/*/*/examples", datadir);
    if (glob(pat.buf, 0, NULL, &g) == 0) {
        for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++)
            rc = hide(out, g.gl_pathv[i]);
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

int
lab_sandbox_wrap(const lab_sandbox_plan *plan, lab_strvec *out, lab_err *err)
{
    lab_buf b = LAB_BUF_INIT;
    glob_t g;
    int rc = 0;

    bool root = geteuid() == 0;

    rc |= lab_strvec_push(out, plan->bwrap ? plan->bwrap : "bwrap");
    for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++)
        rc |= lab_strvec_pushl(out, "--ro-bind-try", system_dirs[i], system_dirs[i], NULL);
    rc |= lab_strvec_pushl(out, "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs",
                           "/tmp", "--unshare-ipc", "--unshare-pid", "--unshare-net",
                           "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", NULL);
    if (!root) /* setpriv needs root's capabilities until it drops them itself */
        rc |= lab_strvec_pushl(out, "--unshare-user", "--uid", SANDBOX_UID, "--gid", SANDBOX_UID,
                               "--cap-drop", "ALL", NULL);
    if (jobs[plan->job].gpu && glob("/dev/nvidia*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            rc |= lab_strvec_pushl(out, "--dev-bind", g.gl_pathv[i], g.gl_pathv[i], NULL);
        globfree(&g);
    }
    rc |= hide(out, getenv("HOME"));
    if (store_dir(&b) == 0 && b.len)
        rc |= hide(out, b.buf);
    if (plan->datadir) {
        lab_buf_reset(&b);
        lab_buf_printf(&b, "%s/solutions", plan->datadir);
        rc |= hide(out, b.buf);
        rc |= hide_examples(out, plan->datadir);
    }
    for (const char *const *p = plan->hide; p && *p; p++)
        rc |= hide(out, *p);
    for (const char *const *p = plan->show; p && *p; p++)
        rc |= bind(out, "--ro-bind", *p);
    if (plan->writable)
        rc |= bind(out, "--bind", plan->writable);
    rc |= lab_strvec_push(out, "--");
    if (root)
        for (size_t i = 0; i < ARRAY_SIZE(drop_root); i++)
            rc |= lab_strvec_push(out, drop_root[i]);
    lab_buf_release(&b);
    return rc < 0 ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

int
lab_sandbox_hand_over(const char *path, lab_err *err)
{
    uid_t nobody = (uid_t)atoi(SANDBOX_UID);

    if (geteuid() != 0 || lchown(path, nobody, (gid_t)nobody) == 0)
        return 0;
    return lab_err_set(err, LAB_EIO, "cannot hand '%s' to the sandbox's user: %s", path,
                       strerror(errno));
}

bool
lab_sandbox_probe(const char *bwrap, lab_buf *why)
{
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_HOST, .bwrap = bwrap };
    lab_err err = LAB_ERR_INIT;
    lab_proc p;
    bool ok = false;

    lab_proc_init(&p);
    p.timeout_s = PROBE_TIMEOUT_S;
    /* a command whose answer only a sandbox gives: the program named bwrap must run it, and
     * as the sandbox's user (a /bin/true in its place says nothing) */
    if (lab_sandbox_wrap(&plan, &p.argv, &err) < 0 ||
        lab_strvec_pushl(&p.argv, "id", "-u", NULL) < 0) {
        lab_buf_adds(why, err.msg);
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
    if (strcmp(p.out.buf, SANDBOX_UID "\n")) {
        lab_buf_printf(
            why,
            "'%s' is no working bubblewrap: the sandbox it made did not run as user " SANDBOX_UID
            " (`id -u` said '%.*s')",
            p.argv.v[0], (int)strcspn(p.out.buf, "\n"), p.out.buf);
        goto out;
    }
    ok = true;
out:
    lab_proc_release(&p);
    return ok;
}
