/*
 * toolchain.c - finding nvcc and cached device-code builds (see toolchain.h).
 */
#include "lab/build/toolchain.h"
#include "lab/platform/proc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
            return lab_err_set(err, LAB_ETOOL, "$%s is '%s', which is not an executable file",
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
        return lab_err_set(err, LAB_ETOOL,
                           "%s not found (looked at $%s, on PATH, in $CUDA_HOME/bin, "
                           "/usr/local/cuda/bin and next to nvcc%s%s)%s",
                           name, env_var, extra_dir ? " and in " : "", extra_dir ? extra_dir : "",
                           extra_dir ? ": run 'make deps'" : "");
    *out = p;
    return 0;
}

static char *
find_nvcc(void)
{
    const char *env = getenv("CUDALAB_NVCC");
    lab_err err = LAB_ERR_INIT;
    char *p = NULL;

    if (env && *env)
        return strdup(env);
    lab_toolchain_find_tool(NULL, "nvcc", "CUDALAB_NVCC", NULL, &p, &err);
    return p;
}

int
lab_toolchain_find(lab_toolchain **out, lab_err *err)
{
    lab_toolchain *tc = calloc(1, sizeof(*tc));
    lab_proc p;
    const char *v;
    int rc;

    *out = NULL;
    if (!tc)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (!(tc->nvcc = find_nvcc())) {
        free(tc);
        return lab_err_set(err, LAB_ETOOL,
                           "nvcc not found (looked on PATH, in $CUDA_HOME/bin and "
                           "/usr/local/cuda/bin): install the CUDA toolkit");
    }
    lab_proc_init(&p);
    p.timeout_s = 30;
    if ((rc = lab_strvec_pushl(&p.argv, tc->nvcc, "--version", NULL)) < 0 ||
        (rc = lab_proc_run(&p, err)) < 0)
        goto out;
    if (!p.exited || p.exit_code != 0) {
        char how[128];
        rc = lab_err_set(err, LAB_ETOOL, "'%s --version' %s", tc->nvcc,
                         lab_proc_describe(&p, how, sizeof(how)));
        goto out;
    }
    /* "Cuda compilation tools, release 13.0, V13.0.88" */
    v = strstr(p.out.buf, ", V");
    tc->version = v ? strndup(v + 3, strcspn(v + 3, " \n")) : strdup("unknown");
    if (!tc->version)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
out:
    lab_proc_release(&p);
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
}

void
lab_build_release(lab_build *b)
{
    lab_buf_release(&b->ptx_path);
    lab_buf_release(&b->cubin_path);
    lab_buf_release(&b->so_path);
    lab_buf_release(&b->ptx);
    lab_buf_release(&b->log);
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

static bool
valid_arch(const char *arch)
{
    size_t i = 3;

    if (strncmp(arch, "sm_", 3) || !isdigit((unsigned char)arch[3]))
        return false;
    while (isdigit((unsigned char)arch[i]))
        i++;
    return arch[i] == '\0' || (arch[i] == 'a' && arch[i + 1] == '\0');
}

/* Runs nvcc with argv; 0 when it ran (success in *ok), <0 when it could not. */
static int
run_nvcc(const lab_build_request *req, lab_strvec *argv, lab_build *b, bool *ok, lab_err *err)
{
    lab_proc p;
    int rc;

    *ok = false;
    lab_proc_init(&p);
    p.timeout_s = req->timeout_s;
    p.cancel = req->cancel;
    p.limits = req->limits;
    p.die_with_parent = true;
    if ((req->wrap && (rc = lab_strvec_pushv(&p.argv, req->wrap)) < 0) ||
        (rc = lab_strvec_pushv(&p.argv, (const char *const *)argv->v)) < 0 ||
        (rc = lab_proc_run(&p, err)) < 0) {
        if (rc == LAB_ECHILD || rc == LAB_ETOOL)
            lab_err_set(err, LAB_ETOOL, "cannot run nvcc: %s", err->msg);
        goto out;
    }
    lab_toolchain_format_log(p.errout.buf, &b->log);
    lab_toolchain_format_log(p.out.buf, &b->log);
    b->timed_out = p.timed_out;
    b->cancelled = p.cancelled;
    *ok = p.exited && p.exit_code == 0;
    if (!*ok && !p.timed_out && !p.cancelled && p.term_signal) {
        char how[128];
        lab_buf_printf(&b->log, "nvcc %s\n", lab_proc_describe(&p, how, sizeof(how)));
    }
out:
    lab_proc_release(&p);
    return rc;
}

static int
write_wrapper(const lab_build_request *req, const char *path, lab_err *err)
{
    lab_buf w = LAB_BUF_INIT;
    char *abs = realpath(req->source, NULL);
    int rc;

    if (!abs)
        return lab_err_set(err, LAB_EIO, "cannot resolve '%s': %s", req->source, strerror(errno));
    /* errors inside the student's file keep its own name and lines */
    rc = lab_buf_printf(&w, "#include \"%s\"\n#line 1 \"<instantiation>\"\n%s\n", abs,
                        req->instantiate);
    free(abs);
    if (rc == 0)
        rc = lab_write_file(path, w.buf, w.len, err);
    lab_buf_release(&w);
    return rc;
}

/* A host-code exercise: the student's file as a shared object. */
static int
build_host(const lab_toolchain *tc, const lab_build_request *req, lab_build *b, lab_err *err)
{
    lab_buf tmp = LAB_BUF_INIT;
    lab_strvec argv = LAB_STRVEC_INIT;
    bool ok = false;
    int rc;

    if ((rc = lab_buf_printf(&b->so_path, "%s/%s.so", req->cache_dir, b->hash)) < 0 ||
        (rc = lab_buf_printf(&tmp, "%s/%s.%ld.so", req->cache_dir, b->hash, (long)getpid())) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (access(b->so_path.buf, R_OK) == 0) {
        b->cached = b->ok = true;
        goto out;
    }
    lab_strvec_pushl(&argv, tc->nvcc, "-shared", "-Xcompiler", "-fPIC", "-O2", NULL);
    lab_strvec_pushf(&argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&argv, "-o", tmp.buf, req->source, NULL);
    if ((rc = run_nvcc(req, &argv, b, &ok, err)) < 0 || !ok)
        goto out;
    if (rename(tmp.buf, b->so_path.buf) < 0) {
        rc = lab_err_set(err, LAB_EIO, "cannot store the build in '%s': %s", req->cache_dir,
                         strerror(errno));
        goto out;
    }
    b->ok = true;
out:
    unlink(tmp.buf);
    lab_buf_release(&tmp);
    lab_strvec_release(&argv);
    return rc;
}

/* PTX to a cubin; extra is "-rdc=true" for a relocatable one, or "". */
static int
build_cubin(const lab_toolchain *tc, const lab_build_request *req, lab_build *b, const char *ptx,
            const char *extra, const char *cubin, bool *ok, lab_err *err)
{
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    lab_strvec_pushl(&argv, tc->nvcc, "-cubin", NULL);
    if (*extra)
        lab_strvec_push(&argv, extra);
    lab_strvec_pushf(&argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&argv, "-o", cubin, ptx, NULL);
    rc = run_nvcc(req, &argv, b, ok, err);
    lab_strvec_release(&argv);
    return rc;
}

/* Relocatable PTX to one executable cubin linked with the device runtime: the device-side
 * launch calls (__cudaCDP2LaunchDeviceV2, ...) come from libcudadevrt.a, which nvcc -dlink
 * finds in the toolkit's own lib64. */
static int
build_linked_cubin(const lab_toolchain *tc, const lab_build_request *req, lab_build *b,
                   const char *ptx, const char *cubin, bool *ok, lab_err *err)
{
    lab_buf rel = LAB_BUF_INIT;
    lab_strvec argv = LAB_STRVEC_INIT;
    int rc;

    if (lab_buf_printf(&rel, "%s.o.cubin", cubin) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = build_cubin(tc, req, b, ptx, "-rdc=true", rel.buf, ok, err)) < 0 || !*ok)
        goto out;
    lab_strvec_pushl(&argv, tc->nvcc, "-dlink", "-cubin", NULL);
    lab_strvec_pushf(&argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&argv, "-o", cubin, rel.buf, "-lcudadevrt", NULL);
    rc = run_nvcc(req, &argv, b, ok, err);
out:
    unlink(rel.buf);
    lab_buf_release(&rel);
    lab_strvec_release(&argv);
    return rc;
}

int
lab_toolchain_build(const lab_toolchain *tc, const lab_build_request *req, lab_build *b,
                    lab_err *err)
{
    lab_buf src = LAB_BUF_INIT, tmp_ptx = LAB_BUF_INIT, tmp_cubin = LAB_BUF_INIT;
    lab_buf wrapper = LAB_BUF_INIT;
    lab_strvec argv = LAB_STRVEC_INIT;
    lab_hash h;
    bool ok = false;
    int rc;

    if (!valid_arch(req->arch))
        return lab_err_set(err, LAB_EINVAL, "'%s' is not a GPU architecture like sm_90", req->arch);
    if ((rc = lab_buf_read_file(&src, req->source, err)) < 0)
        goto out;
    lab_hash_init(&h);
    lab_hash_add(&h, src.buf, src.len + 1);
    lab_hash_adds(&h, req->instantiate ? req->instantiate : "");
    lab_hash_adds(&h, req->arch);
    lab_hash_adds(&h, req->host ? FLAGS_HOST : FLAGS_PTX);
    lab_hash_adds(&h, req->rdc ? FLAGS_RDC : "");
    lab_hash_adds(&h, tc->version);
    lab_hash_hex(&h, b->hash);
    if ((rc = lab_mkdir_p(req->cache_dir, 0755, err)) < 0)
        goto out;
    if (req->host) {
        if (req->instantiate) {
            rc = lab_err_set(err, LAB_EINVAL, "a host-code build takes no instantiation");
            goto out;
        }
        rc = build_host(tc, req, b, err);
        goto out;
    }
    if ((rc = lab_buf_printf(&b->ptx_path, "%s/%s.ptx", req->cache_dir, b->hash)) < 0 ||
        (rc = lab_buf_printf(&b->cubin_path, "%s/%s.cubin", req->cache_dir, b->hash)) < 0 ||
        (rc = lab_buf_printf(&tmp_ptx, "%s/%s.%ld.ptx", req->cache_dir, b->hash, (long)getpid())) <
            0 ||
        (rc = lab_buf_printf(&tmp_cubin, "%s/%s.%ld.cubin", req->cache_dir, b->hash,
                             (long)getpid())) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (access(b->ptx_path.buf, R_OK) == 0 && access(b->cubin_path.buf, R_OK) == 0) {
        b->cached = true;
        goto read_ptx;
    }
    if (req->instantiate) {
        lab_buf_printf(&wrapper, "%s/%s.%ld.cu", req->cache_dir, b->hash, (long)getpid());
        if ((rc = write_wrapper(req, wrapper.buf, err)) < 0)
            goto out;
    }
    lab_strvec_pushl(&argv, tc->nvcc, "-ptx", NULL);
    if (req->rdc)
        lab_strvec_push(&argv, "-rdc=true");
    lab_strvec_pushf(&argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&argv, "-O3", "-lineinfo", "-o", tmp_ptx.buf,
                     req->instantiate ? wrapper.buf : req->source, NULL);
    if ((rc = run_nvcc(req, &argv, b, &ok, err)) < 0 || !ok)
        goto out;
    if (req->rdc)
        rc = build_linked_cubin(tc, req, b, tmp_ptx.buf, tmp_cubin.buf, &ok, err);
    else
        rc = build_cubin(tc, req, b, tmp_ptx.buf, "", tmp_cubin.buf, &ok, err);
    if (rc < 0 || !ok)
        goto out;
    /* cubin first: a PTX without its cubin is never taken for a cache hit */
    if (rename(tmp_cubin.buf, b->cubin_path.buf) < 0 || rename(tmp_ptx.buf, b->ptx_path.buf) < 0) {
        rc = lab_err_set(err, LAB_EIO, "cannot store the build in '%s': %s", req->cache_dir,
                         strerror(errno));
        goto out;
    }
read_ptx:
    if ((rc = lab_buf_read_file(&b->ptx, b->ptx_path.buf, err)) < 0)
        goto out;
    b->ok = true;
out:
    unlink(tmp_ptx.buf);
    unlink(tmp_cubin.buf);
    if (wrapper.len)
        unlink(wrapper.buf);
    lab_buf_release(&wrapper);
    lab_buf_release(&tmp_ptx);
    lab_buf_release(&tmp_cubin);
    lab_buf_release(&src);
    lab_strvec_release(&argv);
    return rc;
}
