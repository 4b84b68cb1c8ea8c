/*
 * toolchain.c - finding nvcc and cached device-code builds (see toolchain.h).
 */
#include "lab/build/toolchain.h"
#include "lab/build/buildcache.h"
#include "lab/util/i18n.h"
#include "lab/platform/proc.h"
#include "lab/util/trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLAGS_PTX "-O3 -lineinfo"
#define FLAGS_HOST "-shared -Xcompiler -fPIC -O2"
#define FLAGS_RDC "-rdc=true -dlink -lcudadevrt"

struct lab_toolchain {
    char *nvcc;
    char *version;
};

static bool
executable(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static char *
search_path(const char *prog)
{
    const char *path = getenv("PATH");
    lab_buf b = LAB_BUF_INIT;

    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        lab_buf_reset(&b);
        if (len && lab_buf_printf(&b, "%.*s/%s", (int)len, path, prog) == 0 && executable(b.buf))
            return lab_buf_detach(&b);
        path = colon ? colon + 1 : NULL;
    }
    lab_buf_release(&b);
    return NULL;
}

static char *
in_dir(const char *dir, const char *prog)
{
    lab_buf b = LAB_BUF_INIT;

    if (dir && *dir && lab_buf_printf(&b, "%s/%s", dir, prog) == 0 && executable(b.buf))
        return lab_buf_detach(&b);
    lab_buf_release(&b);
    return NULL;
}

int
lab_toolchain_find_tool(const lab_toolchain *tc, const char *name, const char *env_var,
                        const char *extra_dir, char **out, lab_err *err)
{
    const char *env = getenv(env_var), *home = getenv("CUDA_HOME");
    lab_buf b = LAB_BUF_INIT;
    char *p = NULL;

    if (env && *env) {
        if (!executable(env))
            return lab_err_set(err, LAB_ETOOL, _("$%s is '%s', which is not an executable file"),
                               env_var, env);
        p = strdup(env);
    } else if (!(p = search_path(name))) {
        if (home && *home)
            lab_buf_printf(&b, "%s/bin", home);
        if (!(p = in_dir(b.buf, name)) && !(p = in_dir("/usr/local/cuda/bin", name)) && tc &&
            strchr(tc->nvcc, '/')) {
            lab_buf_reset(&b);
            lab_buf_add(&b, tc->nvcc, (size_t)(strrchr(tc->nvcc, '/') - tc->nvcc));
            p = in_dir(b.buf, name);
        }
        if (!p)
            p = in_dir(extra_dir, name);
    }
    lab_buf_release(&b);
    if (!p)
        return extra_dir ? lab_err_set(err, LAB_ETOOL,
                                       _("%s not found (looked at $%s, on PATH, in "
                                         "$CUDA_HOME/bin, /usr/local/cuda/bin, next to nvcc and "
                                         "in %s): run 'make deps'"),
                                       name, env_var, extra_dir)
                         : lab_err_set(err, LAB_ETOOL,
                                       _("%s not found (looked at $%s, on PATH, in "
                                         "$CUDA_HOME/bin, /usr/local/cuda/bin and next to nvcc)"),
                                       name, env_var);
    *out = p;
    return 0;
}

/* Runs `nvcc ARG` and keeps its standard output in out. */
static int
nvcc_says(const lab_toolchain *tc, const char *arg, lab_buf *out, lab_err *err)
{
    lab_proc p;
    int rc;

    lab_proc_init(&p);
    p.timeout_s = 30;
    if ((rc = lab_strvec_pushl(&p.argv, tc->nvcc, arg, NULL)) < 0 ||
        (rc = lab_proc_run(&p, err)) < 0)
        goto out;
    if (!p.exited || p.exit_code != 0) {
        char how[128];
        rc = lab_err_set(err, LAB_ETOOL, "'%s %s' %s", tc->nvcc, arg,
                         lab_proc_describe(&p, how, sizeof(how)));
        goto out;
    }
    rc = lab_buf_add(out, p.out.buf, p.out.len);
out:
    lab_proc_release(&p);
    return rc;
}

int
lab_toolchain_find(lab_toolchain **out, lab_err *err)
{
    lab_toolchain *tc = calloc(1, sizeof(*tc));
    lab_buf said = LAB_BUF_INIT;
    const char *v, *env;
    int rc;

    *out = NULL;
    if (!tc)
        return lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    if ((env = getenv("CUDALAB_NVCC")) && *env) /* running it says what is wrong with it */
        tc->nvcc = strdup(env);
    else if (lab_toolchain_find_tool(NULL, "nvcc", "CUDALAB_NVCC", NULL, &tc->nvcc, NULL) < 0)
        tc->nvcc = NULL;
    if (!tc->nvcc) {
        rc = lab_err_set(err, LAB_ETOOL,
                         _("nvcc not found (looked on PATH, in $CUDA_HOME/bin and "
                           "/usr/local/cuda/bin): install the CUDA toolkit"));
        goto out;
    }
    if ((rc = nvcc_says(tc, "--version", &said, err)) < 0)
        goto out;
    /* "Cuda compilation tools, release 13.0, V13.0.88" */
    v = strstr(said.buf, ", V");
    tc->version = v ? strndup(v + 3, strcspn(v + 3, " \n")) : strdup("unknown");
    if (!tc->version) {
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
        goto out;
    }
out:
    lab_buf_release(&said);
    if (rc < 0) {
        lab_toolchain_free(tc);
        return rc;
    }
    *out = tc;
    return 0;
}

void
lab_toolchain_free(lab_toolchain *tc)
{
    if (!tc)
        return;
    free(tc->nvcc);
    free(tc->version);
    free(tc);
}

const char *
lab_toolchain_nvcc(const lab_toolchain *tc)
{
    return tc->nvcc;
}

const char *
lab_toolchain_version(const lab_toolchain *tc)
{
    return tc->version;
}

void
lab_build_init(lab_build *b)
{
    memset(b, 0, sizeof(*b));
    lab_buf_init(&b->ptx_path);
    lab_buf_init(&b->cubin_path);
    lab_buf_init(&b->so_path);
    lab_buf_init(&b->ptx);
    lab_buf_init(&b->log);
    b->hold = -1;
}

void
lab_build_release(lab_build *b)
{
    lab_buf_release(&b->ptx_path);
    lab_buf_release(&b->cubin_path);
    lab_buf_release(&b->so_path);
    lab_buf_release(&b->ptx);
    lab_buf_release(&b->log);
    if (b->hold >= 0)
        close(b->hold);
    b->hold = -1;
}

/* The "(12):" after the file name in an nvcc message, or NULL; file names may hold parentheses. */
static const char *
line_marker(const char *line, size_t len, size_t *digits)
{
    for (const char *p = memchr(line, '(', len); p;
         p = memchr(p + 1, '(', len - (size_t)(p + 1 - line))) {
        size_t n = 0;
        while (p + 1 + n < line + len && isdigit((unsigned char)p[1 + n]))
            n++;
        if (n && p + 3 + n <= line + len && p[1 + n] == ')' && p[2 + n] == ':') {
            *digits = n;
            return p;
        }
    }
    return NULL;
}

int
lab_toolchain_format_log(const char *log, lab_buf *out)
{
    const char *line = log;

    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line), digits = 0;
        const char *paren = line_marker(line, len, &digits);

        if (paren) {
            lab_buf_add(out, line, (size_t)(paren - line));
            lab_buf_addch(out, ':');
            lab_buf_add(out, paren + 1, digits);
            lab_buf_add(out, paren + 2 + digits, len - (size_t)(paren + 2 + digits - line));
        } else {
            lab_buf_add(out, line, len);
        }
        if (end)
            lab_buf_addch(out, '\n');
        line = end ? end + 1 : line + len;
    }
    return 0;
}

bool
lab_toolchain_arch_valid(const char *arch)
{
    size_t i = 3;

    if (strncmp(arch, "sm_", 3) || !isdigit((unsigned char)arch[3]))
        return false;
    while (isdigit((unsigned char)arch[i]))
        i++;
    return arch[i] == '\0' || ((arch[i] == 'a' || arch[i] == 'f') && arch[i + 1] == '\0');
}

/* One build: the request, its result and the private folder nvcc runs in.  nvcc runs its
 * steps (cicc, ptxas, fatbinary) through a shell, so no name from outside may reach its
 * command line: it is given only the names below, relative to the folder. */
typedef struct build_job {
    const lab_toolchain *tc;
    const lab_build_request *req;
    lab_build *b;
    lab_buf dir; /* <cache_dir>/.tmp/<host>.<pid>.XXXXXX, removed at the end */
} build_job;

#define WORK_SUBDIR ".tmp" /* hidden: `ls` of the cache shows builds only */
#define SOURCE_NAME "cudalab-source.cu"
#define WRAPPER_NAME "cudalab-instantiation.cu"
#define NVCC_TMPDIR "nvcc-tmp" /* nvcc's $TMPDIR: its tmpxft_* files go with the folder */
#define UTF8_BOM "\xef\xbb\xbf"

/* The student's file name as the copy's #line gives it: quotes, backslashes and control
 * characters as '?', for nvcc writes the name into the PTX's .file unescaped, where ptxas
 * cannot read a quote ("Parsing error"; a COMPILE_ERROR for a file's name).  nvcc's messages
 * name the student's file again (add_log). */
static void
line_name(const char *source, lab_buf *out)
{
    for (const char *c = source; *c; c++)
        lab_buf_addch(out, *c == '"' || *c == '\\' || iscntrl((unsigned char)*c) ? '?' : *c);
}

/* `#line 1 "NAME"` for the student's file (line_name). */
static void
line_directive(lab_buf *out, const char *source)
{
    lab_buf_adds(out, "#line 1 \"");
    line_name(source, out);
    lab_buf_adds(out, "\"\n");
}

/* Appends s to out with every from replaced by to. */
static void
add_replaced(lab_buf *out, const char *s, const char *from, const char *to)
{
    size_t from_len = strlen(from);

    for (const char *hit; (hit = strstr(s, from)); s = hit + from_len) {
        lab_buf_add(out, s, (size_t)(hit - s));
        lab_buf_adds(out, to);
    }
    lab_buf_adds(out, s);
}

/* nvcc's messages in file:line form, naming the student's file instead of the private copy. */
static void
add_log(build_job *j, const char *text)
{
    lab_buf formatted = LAB_BUF_INIT, named = LAB_BUF_INIT;
    lab_buf shown = LAB_BUF_INIT, renamed = LAB_BUF_INIT;

    lab_toolchain_format_log(text, &formatted);
    line_name(j->req->source, &shown); /* what the copy's #line calls it */
    add_replaced(&renamed, formatted.buf, shown.buf, j->req->source);
    add_replaced(&named, renamed.buf, SOURCE_NAME, j->req->source);
    add_replaced(&j->b->log, named.buf, WRAPPER_NAME, j->req->source);
    lab_buf_release(&formatted);
    lab_buf_release(&named);
    lab_buf_release(&shown);
    lab_buf_release(&renamed);
}

/* nvcc refused the target: the lab's error, naming what nvcc builds for ("sm_75 sm_80 ...") */
static int
unsupported_arch(build_job *j, lab_err *err)
{
    const lab_build_request *req = j->req;
    lab_buf origin = LAB_BUF_INIT, list = LAB_BUF_INIT, said = LAB_BUF_INIT;
    int rc;

    if (req->arch_origin)
        lab_buf_printf(&origin, "%s='%s': ", req->arch_origin, req->arch);
    if (nvcc_says(j->tc, "--list-gpu-code", &said, NULL) == 0) {
        lab_buf_adds(&list, _(": it builds for "));
        add_replaced(&list, said.buf, "\n", " ");
        while (list.buf[list.len - 1] == ' ')
            list.buf[--list.len] = '\0';
    }
    rc = lab_err_set(err, LAB_EINVAL, _("%snvcc %s does not build for '%s'%s"), origin.buf,
                     j->tc->version, req->arch, list.buf);
    lab_buf_release(&origin);
    lab_buf_release(&list);
    lab_buf_release(&said);
    return rc;
}

/* Runs nvcc with argv in the job's folder; 0 when it ran (success in *ok), <0 when it could
 * not. */
static int
run_nvcc(build_job *j, lab_strvec *argv, bool *ok, lab_err *err)
{
    const lab_build_request *req = j->req;
    lab_buf why = LAB_BUF_INIT;
    lab_proc p;
    int rc;

    *ok = false;
    lab_proc_init(&p);
    p.timeout_s = req->timeout_s;
    p.cancel = req->cancel;
    p.die_with_parent = true;
    p.dir = j->dir.buf;
    if ((rc = lab_strvec_pushv(&p.argv, (const char *const *)argv->v)) < 0 ||
        (rc = lab_strvec_pushf(&p.env, "TMPDIR=%s/%s", j->dir.buf, NVCC_TMPDIR)) < 0)
        goto out;
    if (req->sandbox) {
        /* the sandbox writes only the job's own folder: never the cache or another build */
        lab_sandbox_plan plan = *req->sandbox;
        plan.writable = j->dir.buf;
        if ((rc = lab_sandbox_confine(&plan, &p, err)) < 0)
            goto out;
    }
    lab_trace_mark("nvcc %s: begin", argv->v[1]);
    rc = lab_proc_run(&p, err);
    lab_trace_mark("nvcc %s: end", argv->v[1]);
    if (rc < 0) {
        if (rc == LAB_ECHILD) /* "cannot run 'nvcc': ..." says it already */
            err->code = rc = LAB_ETOOL;
        goto out;
    }
    if (req->sandbox && lab_sandbox_failed(&p, &why)) {
        /* the lab's failure (bubblewrap could not fork: another job's fork bomb), never the
         * student's COMPILE_ERROR */
        rc = lab_err_set(err, LAB_ESANDBOX, "%s", why.buf);
        goto out;
    }
    if (!(p.exited && p.exit_code == 0) && strstr(p.errout.buf, "Unsupported gpu architecture")) {
        rc = unsupported_arch(j,
                              err); /* "nvcc fatal   : Unsupported gpu architecture 'compute_10'" */
        goto out;
    }
    add_log(j, p.errout.buf);
    add_log(j, p.out.buf);
    j->b->timed_out = p.timed_out;
    j->b->cancelled = p.cancelled;
    *ok = p.exited && p.exit_code == 0;
    if (!*ok && !p.timed_out && !p.cancelled && p.term_signal) {
        char how[128];
        lab_buf_printf(&j->b->log, "nvcc %s\n", lab_proc_describe(&p, how, sizeof(how)));
    }
out:
    lab_proc_release(&p);
    lab_buf_release(&why);
    return rc;
}

/* Folders of builds whose lab died (kill -9, a power cut) on this host: <host>.<pid>.XXXXXX
 * whose pid is gone.  Another host's (a cache on a shared file system) are left alone. */
static void
sweep_dead_builds(const char *work, const char *host)
{
    size_t host_len = strlen(host);
    struct dirent *d;
    DIR *dir;

    if (!(dir = opendir(work)))
        return;
    while ((d = readdir(dir))) {
        lab_buf path = LAB_BUF_INIT;
        char *end;
        long pid;

        if (strncmp(d->d_name, host, host_len) || d->d_name[host_len] != '.')
            continue;
        pid = strtol(d->d_name + host_len + 1, &end, 10);
        if (*end != '.' || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (lab_buf_printf(&path, "%s/%s", work, d->d_name) == 0)
            lab_remove_tree(path.buf, NULL);
        lab_buf_release(&path);
    }
    closedir(dir);
}

/* The job's private folder, inside the cache so that its outputs are renamed into place, with
 * the student's source copied into it (and the instantiation wrapper when there is one). */
static int
make_workdir(build_job *j, const lab_buf *src, lab_err *err)
{
    char host[64] = "host";
    lab_buf path = LAB_BUF_INIT, text = LAB_BUF_INIT;
    int rc;

    gethostname(host, sizeof(host) - 1);
    host[strcspn(host, "./")] = '\0';
    if ((rc = lab_buf_printf(&path, "%s/%s", j->req->cache_dir, WORK_SUBDIR)) < 0 ||
        (rc = lab_buf_printf(&j->dir, "%s/%s.%ld.XXXXXX", path.buf, host, (long)getpid())) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
        goto out;
    }
    if ((rc = lab_mkdir_p(path.buf, 0755, err)) < 0)
        goto out;
    sweep_dead_builds(path.buf, host);
    if (!mkdtemp(j->dir.buf)) {
        rc = lab_err_set(err, LAB_EIO, _("cannot create a build folder in '%s': %s"), path.buf,
                         strerror(errno));
        lab_buf_reset(&j->dir);
        goto out;
    }
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/%s", j->dir.buf, NVCC_TMPDIR);
    if ((rc = lab_mkdir_p(path.buf, 0700, err)) < 0 ||
        (j->req->sandbox && ((rc = lab_sandbox_hand_over(j->dir.buf, err)) < 0 ||
                             (rc = lab_sandbox_hand_over(path.buf, err)) < 0)))
        goto out;
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/%s", j->dir.buf, SOURCE_NAME);
    /* the copy names the student's file, so that the PTX's .file (the simulator's messages) and
     * nvcc's messages say where a line is in the student's own terms */
    line_directive(&text, j->req->source);
    /* a UTF-8 byte order mark, which editors on Windows write, opens nvcc's input only: after
     * the #line it sits in the middle of the file, where nvcc reads it as a stray character */
    if (src->len >= 3 && !memcmp(src->buf, UTF8_BOM, 3))
        lab_buf_add(&text, src->buf + 3, src->len - 3);
    else
        lab_buf_add(&text, src->buf, src->len);
    if ((rc = lab_write_file(path.buf, text.buf, text.len, err)) < 0 || !j->req->instantiate)
        goto out;
    lab_buf_reset(&text);
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/%s", j->dir.buf, WRAPPER_NAME);
    /* errors inside the student's file keep its own name and lines */
    if (lab_buf_printf(&text, "#include \"%s\"\n#line 1 \"<instantiation>\"\n%s\n", SOURCE_NAME,
                       j->req->instantiate) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    else
        rc = lab_write_file(path.buf, text.buf, text.len, err);
out:
    lab_buf_release(&text);
    lab_buf_release(&path);
    return rc;
}
/* Moves the job's output name into the cache as dest. */
static int
store(build_job *j, const char *name, const char *dest, lab_err *err)
{
    lab_buf from = LAB_BUF_INIT;
    int rc = 0;

    if (lab_buf_printf(&from, "%s/%s", j->dir.buf, name) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    else if (rename(from.buf, dest) < 0)
        rc = lab_err_set(err, LAB_EIO, _("cannot store the build in '%s': %s"), j->req->cache_dir,
                         strerror(errno));
    lab_buf_release(&from);
    return rc;
}

/* A host-code exercise: the student's file as a shared object. */
static int
build_host(build_job *j, bool *ok, lab_err *err)
{
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    lab_strvec_pushl(&argv, j->tc->nvcc, "-shared", "-Xcompiler", "-fPIC", "-O2", NULL);
    lab_strvec_pushf(&argv, "-arch=%s", j->req->arch);
    lab_strvec_pushl(&argv, "-o", "out.so", SOURCE_NAME, NULL);
    if ((rc = run_nvcc(j, &argv, ok, err)) == 0 && *ok)
        rc = store(j, "out.so", j->b->so_path.buf, err);
    lab_strvec_release(&argv);
    return rc;
}

/* out.ptx to a cubin; extra is "-rdc=true" for a relocatable one, or "". */
static int
build_cubin(build_job *j, const char *extra, const char *cubin, bool *ok, lab_err *err)
{
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    lab_strvec_pushl(&argv, j->tc->nvcc, "-cubin", NULL);
    if (*extra)
        lab_strvec_push(&argv, extra);
    lab_strvec_pushf(&argv, "-arch=%s", j->req->arch);
    lab_strvec_pushl(&argv, "-o", cubin, "out.ptx", NULL);
    rc = run_nvcc(j, &argv, ok, err);
    lab_strvec_release(&argv);
    return rc;
}

/* Relocatable PTX to one executable cubin linked with the device runtime: the device-side
 * launch calls (__cudaCDP2LaunchDeviceV2, ...) come from libcudadevrt.a, which nvcc -dlink
 * finds in the toolkit's own lib64. */
static int
build_linked_cubin(build_job *j, bool *ok, lab_err *err)
{
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    if ((rc = build_cubin(j, "-rdc=true", "out.o.cubin", ok, err)) < 0 || !*ok)
        return rc;
    lab_strvec_pushl(&argv, j->tc->nvcc, "-dlink", "-cubin", NULL);
    lab_strvec_pushf(&argv, "-arch=%s", j->req->arch);
    lab_strvec_pushl(&argv, "-o", "out.cubin", "out.o.cubin", "-lcudadevrt", NULL);
    rc = run_nvcc(j, &argv, ok, err);
    lab_strvec_release(&argv);
    return rc;
}

/* The job's out.ptx to the cubin, stored in the cache. */
static int
build_and_store_cubin(build_job *j, bool *ok, lab_err *err)
{
    int rc;

    if (j->req->rdc)
        rc = build_linked_cubin(j, ok, err);
    else
        rc = build_cubin(j, "", "out.cubin", ok, err);
    if (rc < 0 || !*ok)
        return rc;
    if ((rc = store(j, "out.cubin", j->b->cubin_path.buf, err)) == 0)
        j->b->has_cubin = true;
    return rc;
}

/* The student's file to PTX and, unless the request wants the PTX alone, a cubin. */
static int
build_device(build_job *j, bool *ok, lab_err *err)
{
    const lab_build_request *req = j->req;
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    lab_strvec_pushl(&argv, j->tc->nvcc, "-ptx", NULL);
    if (req->rdc)
        lab_strvec_push(&argv, "-rdc=true");
    lab_strvec_pushf(&argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&argv, "-O3", "-lineinfo", "-o", "out.ptx",
                     req->instantiate ? WRAPPER_NAME : SOURCE_NAME, NULL);
    if ((rc = run_nvcc(j, &argv, ok, err)) < 0 || !*ok)
        goto out;
    /* cubin first: a build that wants both never finds the PTX without the cubin that the
     * same build makes (it would make the cubin again, from that PTX) */
    if (!req->ptx_only && ((rc = build_and_store_cubin(j, ok, err)) < 0 || !*ok))
        goto out;
    rc = store(j, "out.ptx", j->b->ptx_path.buf, err);
out:
    lab_strvec_release(&argv);
    return rc;
}

/* The cubin of a PTX that an earlier build with ptx_only left in the cache alone: the same
 * cubin steps as build_device's, on that PTX, which the cache key already made for this
 * request (source, flags, arch, nvcc). */
static int
build_cubin_of_cached(build_job *j, bool *ok, lab_err *err)
{
    lab_buf ptx = LAB_BUF_INIT, path = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_buf_read_file(&ptx, j->b->ptx_path.buf, err)) < 0)
        goto out;
    if (lab_buf_printf(&path, "%s/out.ptx", j->dir.buf) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
        goto out;
    }
    if ((rc = lab_write_file(path.buf, ptx.buf, ptx.len, err)) < 0)
        goto out;
    rc = build_and_store_cubin(j, ok, err);
out:
    lab_buf_release(&ptx);
    lab_buf_release(&path);
    return rc;
}

/* What the cache holds for req: true when it has all the request needs; *cubin_missing when it
 * has the PTX of a ptx_only build and the request needs the cubin too. */
static bool
cached(const lab_build_request *req, lab_build *b, bool *cubin_missing)
{
    *cubin_missing = false;
    if (req->host)
        return access(b->so_path.buf, R_OK) == 0;
    if (access(b->ptx_path.buf, R_OK) < 0)
        return false;
    b->has_cubin = access(b->cubin_path.buf, R_OK) == 0;
    *cubin_missing = !b->has_cubin && !req->ptx_only;
    return !*cubin_missing;
}

int
lab_toolchain_build(const lab_toolchain *tc, const lab_build_request *req, lab_build *b,
                    lab_err *err)
{
    build_job j = { .tc = tc, .req = req, .b = b, .dir = LAB_BUF_INIT };
    lab_buf src = LAB_BUF_INIT;
    const char *main_file;
    lab_hash h;
    bool ok = false, cubin_missing = false, added = false;
    int rc;

    if (!lab_toolchain_arch_valid(req->arch))
        return lab_err_set(err, LAB_EINVAL, _("'%s' is not a GPU architecture like sm_90"),
                           req->arch);
    if (req->host && req->instantiate)
        return lab_err_set(err, LAB_EINVAL, "a host-code build takes no instantiation");
    if ((rc = lab_buf_read_regular(&src, req->source, LAB_SOURCE_CAP, err)) < 0)
        goto out;
    lab_hash_init(&h);
    lab_hash_add(&h, src.buf, src.len + 1);
    lab_hash_adds(&h, req->instantiate ? req->instantiate : "");
    lab_hash_adds(&h, req->arch);
    lab_hash_adds(&h, req->host ? FLAGS_HOST : FLAGS_PTX);
    lab_hash_adds(&h, req->rdc ? FLAGS_RDC : "");
    lab_hash_adds(&h, tc->version);
    /* the PTX's .file names the file (#line), and what reads it names the file's last part:
     * another file of the same bytes gets a build that names it */
    lab_hash_adds(&h, strrchr(req->source, '/') ? strrchr(req->source, '/') + 1 : req->source);
    lab_hash_hex(&h, b->hash);
    if ((rc = lab_mkdir_p(req->cache_dir, 0755, err)) < 0)
        goto out;
    if (req->host)
        rc = lab_buf_printf(&b->so_path, "%s/%s.so", req->cache_dir, b->hash);
    else if ((rc = lab_buf_printf(&b->ptx_path, "%s/%s.ptx", req->cache_dir, b->hash)) == 0)
        rc = lab_buf_printf(&b->cubin_path, "%s/%s.cubin", req->cache_dir, b->hash);
    if (rc < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, _("out of memory"));
        goto out;
    }
    /* held from here to the build's release: no eviction takes it from under the grading */
    main_file = req->host ? b->so_path.buf : b->ptx_path.buf;
    if (b->hold >= 0)
        close(b->hold);
    if ((b->hold = lab_buildcache_hold(main_file)) >= 0 && cached(req, b, &cubin_missing)) {
        b->cached = ok = true;
        lab_trace_mark("build %.12s: cached", b->hash);
    } else if (b->hold >= 0 && cubin_missing) {
        lab_trace_mark("build %.12s: the cubin of the cached PTX", b->hash);
        if ((rc = make_workdir(&j, &src, err)) < 0 ||
            (rc = build_cubin_of_cached(&j, &ok, err)) < 0 || !ok)
            goto out;
        added = true;
    } else if ((rc = make_workdir(&j, &src, err)) < 0 ||
               (rc = req->host ? build_host(&j, &ok, err) : build_device(&j, &ok, err)) < 0 ||
               !ok) {
        goto out;
    } else if (b->hold < 0 && (b->hold = lab_buildcache_hold(main_file)) < 0) {
        rc = lab_err_set(err, LAB_EIO,
                         _("the build of '%s' left the cache at once: is $CUDALAB_CACHE_MAX_MB "
                           "smaller than one build?"),
                         req->source);
        goto out;
    } else {
        added = true;
    }
    if (!req->host && (rc = lab_buf_read_file(&b->ptx, b->ptx_path.buf, err)) < 0)
        goto out;
    b->ok = true;
    if (added) /* the cache grew: the builds used longest ago go, down to its bound */
        lab_buildcache_trim(req->cache_dir, lab_buildcache_max());
out:
    if (j.dir.len)
        lab_remove_tree(j.dir.buf, NULL);
    lab_buf_release(&j.dir);
    lab_buf_release(&src);
    return rc;
}
