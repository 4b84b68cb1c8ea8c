/*
 * env.c - checking the lab's CUDALAB_* variables (see env.h).
 */
#include "lab/grade/env.h"
#include "lab/build/toolchain.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SIM_MAX_SIZE_LIMIT (1UL << 31) /* elements: what a driver's 32-bit sizes hold */
#define SIM_THREADS_LIMIT 1024UL

typedef struct env_var {
    const char *name;
    bool (*ok)(const struct env_var *v, const char *value);
    const char *want;         /* what a good value is, for the message */
    unsigned long max;        /* is_count: the largest */
    const char *const *words; /* is_word: the values it takes */
} env_var;

static const char *const backends[] = { "cuda", "sim", "auto", NULL };
static const char *const sandbox_modes[] = { "off", "auto", "on", NULL };
static const char *const switches[] = { "0", "1", NULL };

bool
lab_env_parse_count(const char *s, unsigned long max, unsigned long *out)
{
    unsigned long v;
    char *end;

    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (*end || errno || v == 0 || v > max)
        return false;
    *out = v;
    return true;
}

static bool
is_count(const env_var *v, const char *value)
{
    unsigned long n;

    return lab_env_parse_count(value, v->max, &n);
}

static bool
is_word(const env_var *v, const char *value)
{
    for (const char *const *w = v->words; *w; w++)
        if (!strcmp(value, *w))
            return true;
    return false;
}

/* whether nvcc builds for it is nvcc's to say, when a build starts (lab/grade/compile.c) */
static bool
is_arch(const env_var *v, const char *value)
{
    (void)v;
    return lab_toolchain_arch_valid(value);
}

/* a file that is there or can be made: not a folder, not a device */
static bool
is_file_path(const env_var *v, const char *value)
{
    struct stat st;

    (void)v;
    if (value[strlen(value) - 1] == '/')
        return false;
    return stat(value, &st) < 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

/* a folder that is there or can be made */
static bool
is_dir_path(const env_var *v, const char *value)
{
    struct stat st;

    (void)v;
    return stat(value, &st) < 0 ? errno == ENOENT : S_ISDIR(st.st_mode);
}

static const env_var vars[] = {
    { .name = "CUDALAB_ARCH", .ok = is_arch, .want = "a GPU architecture like sm_90" },
    { .name = "CUDALAB_BACKEND", .ok = is_word, .want = "cuda, sim or auto", .words = backends },
    { .name = "CUDALAB_SANDBOX", .ok = is_word, .want = "off, auto or on", .words = sandbox_modes },
    { .name = "CUDALAB_SIM_MAX_SIZE",
      .ok = is_count,
      .want = "a number of elements from 1 to 2147483648",
      .max = SIM_MAX_SIZE_LIMIT },
    { .name = "CUDALAB_SIM_THREADS",
      .ok = is_count,
      .want = "a number of threads from 1 to 1024",
      .max = SIM_THREADS_LIMIT },
    { .name = "CUDALAB_SIM_CHECKS", .ok = is_word, .want = "0 or 1", .words = switches },
    { .name = "CUDALAB_CACHE_DIR", .ok = is_dir_path, .want = "a folder for compiled kernels" },
    { .name = "CUDALAB_TRACE",
      .ok = is_file_path,
      .want = "a file for the timeline of a grading (tests/bench/latency.sh)" },
    { .name = "CUDALAB_DB",
      .ok = is_file_path,
      .want = "the progress store's file, like ~/progress.db" },
};

int
lab_env_check(lab_err *err)
{
    for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
        const char *value = getenv(vars[i].name);

        if (value && *value && !vars[i].ok(&vars[i], value))
            return lab_err_set(err, LAB_EINVAL, "%s='%s' is not %s", vars[i].name, value,
                               vars[i].want);
    }
    return 0;
}
