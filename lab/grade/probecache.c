/*
 * probecache.c - the device probe's answer kept for the boot (see probecache.h).
 */
#include "lab/grade/probecache.h"
#include "lab/util/dirlist.h"
#include "lab/util/err.h"
#include "lab/util/sha256.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_STEM "device-probe"
#define CACHE_FILE CACHE_STEM ".json"
#define CACHE_MAX_BYTES 16384
#define HASHED_MAX_BYTES 65536 /* files up to this size are identified by their contents too */

/* "name=<what identifies the file>;": its inode, size and modification time, or "missing";
 * and a small file's contents too, for a file rewritten in place within the clock's tick keeps
 * its inode and time (a test's pretend probe) */
static void
add_file_identity(lab_buf *key, const char *name, const char *path)
{
    lab_buf text = LAB_BUF_INIT;
    lab_err ignored = LAB_ERR_INIT;
    char hex[LAB_SHA256_HEX] = "";
    struct stat st;

    if (stat(path, &st) < 0) {
        lab_buf_printf(key, "%s=missing;", name);
        return;
    }
    if (S_ISREG(st.st_mode) && st.st_size <= HASHED_MAX_BYTES &&
        lab_buf_read_regular(&text, path, HASHED_MAX_BYTES, &ignored) == 0)
        lab_sha256_hex(text.buf ? text.buf : "", text.len, hex);
    lab_buf_release(&text);
    lab_buf_printf(key, "%s=%llu:%llu:%lld:%lld.%09ld:%s;", name, (unsigned long long)st.st_dev,
                   (unsigned long long)st.st_ino, (long long)st.st_size,
                   (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, hex);
}

/* "name=<the file's first line>;", or "name=;" where it cannot be read */
static void
add_first_line(lab_buf *key, const char *name, const char *path)
{
    char line[512] = "";
    FILE *f = fopen(path, "r");

    if (f) {
        if (!fgets(line, sizeof(line), f))
            line[0] = '\0';
        fclose(f);
    }
    line[strcspn(line, "\n")] = '\0';
    lab_buf_printf(key, "%s=%s;", name, line);
}

int
lab_probecache_key(const char *libexecdir, lab_buf *key)
{
    static const char *const env[] = { "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                       "LD_LIBRARY_PATH" };
    lab_strvec files = LAB_STRVEC_INIT;
    int rc;

    lab_buf_reset(key);
    add_first_line(key, "boot", "/proc/sys/kernel/random/boot_id");
    add_first_line(key, "module", "/proc/driver/nvidia/version");
    for (size_t i = 0; i < ARRAY_SIZE(env); i++) {
        const char *v = getenv(env[i]);
        lab_buf_printf(key, "%s%s%s;", env[i], v ? "=" : "", v ? v : "");
    }
    rc = lab_buf_printf(key, "libexec=%s;", libexecdir);
    if (rc == 0 && (rc = lab_dirlist(libexecdir, "", true, &files)) == 0)
        for (size_t i = 0; i < files.n; i++)
            add_file_identity(key, files.v[i] + strlen(libexecdir), files.v[i]);
    lab_strvec_release(&files);
    /* a key cut short by a failed append is only a key that matches nothing kept */
    return rc < 0 ? LAB_ENOMEM : 0;
}

/* The whole key of dev's answer: the process's key and the identity of the libcuda it names. */
static bool
full_key(const char *key, const lab_device *dev, char out[LAB_SHA256_HEX])
{
    lab_buf k = LAB_BUF_INIT;
    bool ok = lab_buf_adds(&k, key) == 0;

    add_file_identity(&k, "libcuda", dev->driver_library);
    if (ok)
        lab_sha256_hex(k.buf, k.len, out);
    lab_buf_release(&k);
    return ok;
}

/* CACHEDIR/device-probe.json; a process given its GPU (CUDA_VISIBLE_DEVICES set: a batch's
 * graders are each pinned to one) keeps its answer beside it, in device-probe-<the value's
 * hash>.json, so that graders pinned to different GPUs do not take each other's answer away */
static bool
cache_path(const char *cachedir, lab_buf *path)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    char hex[LAB_SHA256_HEX];

    if (!visible || !*visible)
        return lab_buf_printf(path, "%s/" CACHE_FILE, cachedir) == 0;
    lab_sha256_hex(visible, strlen(visible), hex);
    return lab_buf_printf(path, "%s/" CACHE_STEM "-%.16s.json", cachedir, hex) == 0;
}

static bool
copy_string(const cJSON *o, const char *name, char *dst, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    if (!cJSON_IsString(v) || strlen(v->valuestring) >= size)
        return false;
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return true;
}

static bool
copy_number(const cJSON *o, const char *name, double *dst)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    if (!cJSON_IsNumber(v))
        return false;
    *dst = v->valuedouble;
    return true;
}

bool
lab_probecache_load(const char *cachedir, const char *key, lab_device *out)
{
    lab_buf path = LAB_BUF_INIT, text = LAB_BUF_INIT;
    char want[LAB_SHA256_HEX], kept[LAB_SHA256_HEX] = "";
    double sm_count = 0, driver_version = 0;
    lab_device d = { .present = true, .driver_found = true };
    lab_err ignored = LAB_ERR_INIT;
    cJSON *o = NULL;
    bool ok = false;

    if (!cache_path(cachedir, &path) ||
        lab_buf_read_regular(&text, path.buf, CACHE_MAX_BYTES, &ignored) < 0 ||
        !(o = cJSON_ParseWithLength(text.buf, text.len)))
        goto out;
    ok = copy_string(o, "key", kept, sizeof(kept)) &&
         copy_string(o, "name", d.name, sizeof(d.name)) &&
         copy_string(o, "uuid", d.uuid, sizeof(d.uuid)) &&
         copy_string(o, "cc", d.cc, sizeof(d.cc)) &&
         copy_string(o, "arch", d.arch, sizeof(d.arch)) &&
         copy_string(o, "driver_library", d.driver_library, sizeof(d.driver_library)) &&
         copy_number(o, "peak_gbps", &d.peak_gbps) && copy_number(o, "sm_count", &sm_count) &&
         copy_number(o, "driver_version", &driver_version) && full_key(key, &d, want) &&
         !strcmp(want, kept);
    if (ok) {
        d.sm_count = (int)sm_count;
        d.driver_version = (int)driver_version;
        d.from_cache = true;
        *out = d;
    }
out:
    cJSON_Delete(o);
    lab_buf_release(&text);
    lab_buf_release(&path);
    return ok;
}

void
lab_probecache_store(const char *cachedir, const char *key, const lab_device *dev)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err ignored = LAB_ERR_INIT;
    char hex[LAB_SHA256_HEX];
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;

    if (!dev->present) { /* none found: what was kept is wrong now */
        lab_probecache_forget(cachedir);
        goto out;
    }
    if (!o || !full_key(key, dev, hex))
        goto out;
    cJSON_AddStringToObject(o, "key", hex);
    cJSON_AddStringToObject(o, "name", dev->name);
    cJSON_AddStringToObject(o, "uuid", dev->uuid);
    cJSON_AddStringToObject(o, "cc", dev->cc);
    cJSON_AddStringToObject(o, "arch", dev->arch);
    cJSON_AddStringToObject(o, "driver_library", dev->driver_library);
    cJSON_AddNumberToObject(o, "peak_gbps", dev->peak_gbps);
    cJSON_AddNumberToObject(o, "sm_count", dev->sm_count);
    cJSON_AddNumberToObject(o, "driver_version", dev->driver_version);
    if (cache_path(cachedir, &path) && (text = cJSON_PrintUnformatted(o)) &&
        lab_mkdir_p(cachedir, 0755, &ignored) == 0)
        lab_write_file(path.buf, text, strlen(text), &ignored);
out:
    free(text);
    cJSON_Delete(o);
    lab_buf_release(&path);
}

void
lab_probecache_forget(const char *cachedir)
{
    lab_buf path = LAB_BUF_INIT;

    if (cache_path(cachedir, &path))
        unlink(path.buf);
    lab_buf_release(&path);
}
