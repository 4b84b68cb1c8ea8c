/*
 * fuzz.c - the private folder of a fuzz target (see fuzz.h).
 */
#include "tests/fuzz/fuzz.h"
#include "lab/util/buf.h"
#include "lab/util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[4096];
static char path[8192];

const char *
fuzz_dir(void)
{
    const char *tmp = getenv("TMPDIR");

    if (!*dir) {
        snprintf(dir, sizeof(dir), "%s/cudalab-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

const char *
fuzz_write(const char *rel, const uint8_t *data, size_t size)
{
    char folder[8192];
    lab_err err = LAB_ERR_INIT;

    snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), rel);
    snprintf(folder, sizeof(folder), "%s", path);
    *strrchr(folder, '/') = '\0';
    if (lab_mkdir_p(folder, 0755, &err) < 0 || lab_write_file(path, data, size, &err) < 0) {
        fprintf(stderr, "fuzz: %s\n", err.msg);
        abort();
    }
    return path;
}
