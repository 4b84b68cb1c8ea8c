/*
 * lab.c - the lab context (see lab.h): where the lab's files are, and what
 * it opens on first use.
 */
#include "lab/grade/lab.h"
#include "lab/grade/env.h"
#include "lab/grade/probecache.h"
#include "lab/grade/runner.h"
#include "lab/util/i18n.h"
#include "lab/util/lang.h"
#include "lab/util/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CACHE_SUBDIR "build"

struct lab {
    char *datadir;
    char *libexecdir;
    char *cachedir;
    char *builddir; /* cachedir/build: compiled kernels */
    char *toolsdir; /* CUDA tools from PyPI */
    lab_catalog *catalog;
    lab_store *store;
    lab_toolchain *toolchain;
    bool probed;
    lab_device device;
    bool sandboxed; /* student compiles and drivers run under bubblewrap */
    lab_lang lang;  /* the learner's languages for content; none in a locale not UTF-8 */
};

static bool
is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dirname(dirname(/proc/self/exe)): the prefix or the source tree. */
static char *
exe_prefix(void)
{
    char *exe = realpath("/proc/self/exe", NULL), *slash;

    for (int i = 0; exe && i < 2; i++)
        if ((slash = strrchr(exe, '/')))
            *slash = '\0';
    return exe;
}

/* $env, else prefix/installed_rel in an installed copy (PREFIX/share/cudalab/exercises
 * exists), else prefix/source_rel in a source tree (prefix/exercises exists), else the
 * installed path, for the error to name. */
static char *
pick_dir(const char *env, const char *prefix, const char *installed_rel, const char *source_rel)
{
    const char *v = getenv(env);
    lab_buf b = LAB_BUF_INIT;
    bool source;

    if (v && *v)
        return strdup(v);
    if (!prefix)
        return NULL;
    lab_buf_printf(&b, "%s/share/cudalab/exercises", prefix);
    source = !is_dir(b.buf);
    lab_buf_reset(&b);
    lab_buf_printf(&b, "%s/exercises", prefix);
    source = source && is_dir(b.buf);
    lab_buf_reset(&b);
    if (source)
        lab_buf_printf(&b, "%s%s%s", prefix, *source_rel ? "/" : "", source_rel);
    else
        lab_buf_printf(&b, "%s/%s", prefix, installed_rel);
    return lab_buf_detach(&b);
}

char *
lab_localedir_find(void)
{
    char *prefix = exe_prefix();
    char *dir = pick_dir("CUDALAB_LOCALEDIR", prefix, "share/locale", "build/locale");

    free(prefix);
    return dir;
}

static char *
cache_dir(void)
{
    const char *v = getenv("CUDALAB_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    lab_buf b = LAB_BUF_INIT;

    if (v && *v)
        lab_buf_adds(&b, v);
    else if (xdg && *xdg)
        lab_buf_printf(&b, "%s/cudalab", xdg);
    else
        lab_buf_printf(&b, "%s/.cache/cudalab", home && *home ? home : "/tmp");
    return lab_buf_detach(&b);
}

/* CUDALAB_SANDBOX=off|auto|on: the default for a student's own gradings is off. */
static int
sandbox_from_env(lab *l, lab_err *err)
{
    static const char *const names[] = {
        [LAB_SANDBOX_OFF] = "off", [LAB_SANDBOX_AUTO] = "auto", [LAB_SANDBOX_ON] = "on"
    };
    const char *v = getenv("CUDALAB_SANDBOX");

    if (!v || !*v)
        return 0;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (!strcmp(v, names[i]))
            return lab_set_sandbox(l, (lab_sandbox_mode)i, err);
    return lab_err_set(err, LAB_EINVAL, _("CUDALAB_SANDBOX='%s': expected off, auto or on"), v);
}

int
lab_set_sandbox(lab *l, lab_sandbox_mode mode, lab_err *err)
{
    lab_buf why = LAB_BUF_INIT;
    int rc = 0;

    l->sandboxed = false;
    if (mode == LAB_SANDBOX_OFF)
        return 0;
    if (lab_sandbox_probe(getenv("CUDALAB_BWRAP"), &why))
        l->sandboxed = true;
    else if (mode == LAB_SANDBOX_ON)
        rc = lab_err_set(err, LAB_ENOSYS, "%s", why.buf);
    lab_buf_release(&why);
    return rc;
}

bool
lab_sandboxed(const lab *l)
{
    return l->sandboxed;
}

const char *
lab_cachedir(const lab *l)
{
    return l->cachedir;
}

const char *
lab_device_reason(const lab_device *dev, char *buf, size_t size)
{
    return lab_fmtmsg_show(&dev->reason_msg, dev->reason, buf, size);
}

int
lab_open(lab **out, lab_err *err)
{
    lab *l = calloc(1, sizeof(*l));
    char *prefix = exe_prefix();
    int rc;

    *out = NULL;
    if (!l || (rc = lab_env_check(err)) < 0) {
        free(l);
        free(prefix);
        return l ? rc : lab_err_set(err, LAB_ENOMEM, _("out of memory"));
    }
    l->datadir = pick_dir("CUDALAB_DATADIR", prefix, "share/cudalab", "");
    l->libexecdir =
        pick_dir("CUDALAB_LIBEXECDIR", prefix, "libexec/cudalab", "build/libexec/cudalab");
    l->cachedir = cache_dir();
    free(prefix);
    if (l->cachedir) {
        lab_buf b = LAB_BUF_INIT;
        lab_buf_printf(&b, "%s/" CACHE_SUBDIR, l->cachedir);
        l->builddir = lab_buf_detach(&b);
    }
    if (l->datadir) {
        const char *t = getenv("CUDALAB_TOOLS_DIR");
        lab_buf b = LAB_BUF_INIT;
        if (t && *t)
            lab_buf_adds(&b, t);
        else
            lab_buf_printf(&b, "%s/tools/cuda/bin", l->datadir);
        l->toolsdir = lab_buf_detach(&b);
    }
    if (!l->datadir || !l->libexecdir || !l->builddir || !l->toolsdir) {
        lab_close(l);
        return lab_err_set(err, LAB_ENOENT, _("cannot find the lab's files: set CUDALAB_DATADIR"));
    }
    lab_lang_from_env(&l->lang);
    if (!lab_lang_utf8())
        l->lang.n = 0; /* Hangul and Hanzi need a UTF-8 terminal: English, as main() says */
    if ((rc = lab_catalog_load_lang(l->datadir, &l->lang, &l->catalog, err)) < 0 ||
        (rc = sandbox_from_env(l, err)) < 0) {
        lab_close(l);
        return rc;
    }
    *out = l;
    return 0;
}

void
lab_close(lab *l)
{
    if (!l)
        return;
    lab_catalog_free(l->catalog);
    lab_store_close(l->store);
    lab_toolchain_free(l->toolchain);
    free(l->datadir);
    free(l->libexecdir);
    free(l->cachedir);
    free(l->builddir);
    free(l->toolsdir);
    free(l);
}

const lab_catalog *
lab_catalog_of(const lab *l)
{
    return l->catalog;
}

const lab_lang *
lab_language(const lab *l)
{
    return &l->lang;
}

const char *
lab_datadir(const lab *l)
{
    return l->datadir;
}

const char *
lab_libexecdir(const lab *l)
{
    return l->libexecdir;
}

const char *
lab_builddir(const lab *l)
{
    return l->builddir;
}

const char *
lab_toolsdir(const lab *l)
{
    return l->toolsdir;
}

int
lab_toolchain_of(lab *l, const lab_toolchain **out, lab_err *err)
{
    int rc = 0;

    if (!l->toolchain)
        rc = lab_toolchain_find(&l->toolchain, err);
    *out = l->toolchain;
    return rc;
}

int
lab_store_of(lab *l, lab_store **out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    int rc = 0;

    if (!l->store) {
        if ((rc = lab_store_default_path(&path, err)) == 0)
            rc = lab_store_open(path.buf, &l->store, err);
        lab_buf_release(&path);
    }
    *out = l->store;
    return rc;
}

int
lab_device_probe(lab *l, const lab_device **out, lab_err *err)
{
    lab_buf key = LAB_BUF_INIT;
    bool keyed;
    int rc = 0;

    if (!l->probed) {
        keyed = lab_probecache_key(l->libexecdir, &key) == 0;
        if (!keyed || !lab_probecache_load(l->cachedir, key.buf, &l->device)) {
            rc = lab_runner_probe(l, "cuda", &l->device, err);
            if (rc == 0 && keyed)
                lab_probecache_store(l->cachedir, key.buf, &l->device);
        }
        l->probed = rc == 0;
        if (l->probed)
            lab_trace_mark(l->device.from_cache ? "device: the kept probe" : "device: probed");
    }
    lab_buf_release(&key);
    *out = &l->device;
    return rc;
}

void
lab_device_forget(lab *l)
{
    lab_probecache_forget(l->cachedir);
    l->probed = false;
}

const char *
lab_target_arch(const lab_device *dev)
{
    const char *arch_env = getenv("CUDALAB_ARCH");

    return arch_env && *arch_env ? arch_env : dev->present ? dev->arch : LAB_DEFAULT_ARCH;
}
