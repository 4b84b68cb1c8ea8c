/*
 * buildcache.c - the build cache's size bound (see buildcache.h).
 */
#include "lab/build/buildcache.h"
#include "lab/util/buf.h"
#include "lab/util/err.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1ULL << 20)

/* The files of one build: the name's part before its first '.', the hash. */
typedef struct group {
    char key[80];
    unsigned long long bytes;
    time_t used; /* the latest time of its files */
} group;

unsigned long long
lab_buildcache_max(void)
{
    const char *s = getenv("CUDALAB_CACHE_MAX_MB");
    char *end;
    unsigned long long mb;

    if (!s || !*s)
        return LAB_BUILDCACHE_DEFAULT_MB * MIB;
    errno = 0;
    mb = strtoull(s, &end, 10);
    return errno || *end || !mb || mb > (1ULL << 40) ? LAB_BUILDCACHE_DEFAULT_MB * MIB : mb * MIB;
}

int
lab_buildcache_hold(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;

    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_SH) < 0 && errno == EINTR)
        ;
    /* an eviction may have removed it while this waited for its lock */
    if (fstat(fd, &st) < 0 || st.st_nlink == 0) {
        close(fd);
        return -1;
    }
    futimens(fd, NULL); /* used now: the eviction goes oldest first */
    return fd;
}

static int
cmp_used(const void *a, const void *b)
{
    const group *x = a, *y = b;

    return x->used < y->used ? -1 : x->used > y->used;
}

/* dir's builds, one group per key, with their sizes; *total the folder's bytes.  NULL when out
 * of memory or dir cannot be read. */
static group *
scan(const char *dir, size_t *n, unsigned long long *total)
{
    group *g = NULL;
    size_t cap = 0;
    struct dirent *de;
    DIR *d = opendir(dir);

    *n = 0;
    *total = 0;
    while (d && (de = readdir(d))) {
        size_t len = strcspn(de->d_name, ".");
        struct stat st;
        size_t i;

        /* .tmp (the builds under way) and anything hidden is not the cache's */
        if (!len || len >= sizeof(g->key) ||
            fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
            continue;
        *total += (unsigned long long)st.st_size;
        for (i = 0; i < *n && (strncmp(g[i].key, de->d_name, len) || g[i].key[len]); i++)
            ;
        if (i == *n) {
            if (*n == cap) {
                group *grown = realloc(g, (cap = cap ? 2 * cap : 64) * sizeof(*g));
                if (!grown)
                    break;
                g = grown;
            }
            memcpy(g[i].key, de->d_name, len);
            g[i].key[len] = '\0';
            g[i].bytes = 0;
            g[i].used = 0;
            (*n)++;
        }
        g[i].bytes += (unsigned long long)st.st_size;
        if (st.st_mtime > g[i].used)
            g[i].used = st.st_mtime;
    }
    if (d)
        closedir(d);
    return g;
}

/* Removes the files of key from dir unless a grading holds them: its main file (.ptx or .so,
 * whichever there is) locked first.  true when they are gone. */
static bool
evict(const char *dir, const char *key)
{
    static const char *const mains[] = { "ptx", "so" };
    lab_buf path = LAB_BUF_INIT;
    struct dirent *de;
    DIR *d;
    int fd = -1;
    bool gone = false;

    for (size_t i = 0; fd < 0 && i < ARRAY_SIZE(mains); i++) {
        lab_buf_reset(&path);
        lab_buf_printf(&path, "%s/%s.%s", dir, key, mains[i]);
        fd = open(path.buf, O_RDONLY | O_CLOEXEC);
    }
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) /* in use */
        goto out;
    if ((d = opendir(dir))) {
        size_t len = strlen(key);

        while ((de = readdir(d)))
            if (!strncmp(de->d_name, key, len) && de->d_name[len] == '.')
                unlinkat(dirfd(d), de->d_name, 0);
        closedir(d);
        gone = true;
    }
out:
    if (fd >= 0)
        close(fd); /* the lock goes with it: a waiting hold finds the file unlinked */
    lab_buf_release(&path);
    return gone;
}

void
lab_buildcache_trim(const char *dir, unsigned long long max)
{
    unsigned long long total, goal = max / 4 * 3;
    size_t n;
    group *g = scan(dir, &n, &total);

    if (g && total > max) {
        qsort(g, n, sizeof(*g), cmp_used);
        for (size_t i = 0; i < n && total > goal; i++)
            if (evict(dir, g[i].key))
                total -= g[i].bytes;
    }
    free(g);
}
