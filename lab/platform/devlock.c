/*
 * devlock.c - the per-device timing lock (see devlock.h): flock on a file
 * in the cache dir, taken without blocking and retried every 20 ms so that a
 * cancel or a deadline is noticed.
 */
#include "lab/platform/devlock.h"
#include "lab/util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define POLL_NS (20 * 1000 * 1000)

void
lab_devlock_init(lab_devlock *lk)
{
    lk->fd = -1;
    lk->waited_s = 0;
    lab_buf_init(&lk->path);
}

static void
add_safe(lab_buf *out, const char *s)
{
    for (; *s; s++)
        lab_buf_addch(out, (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                                   (*s >= '0' && *s <= '9') || *s == '.' || *s == '-'
                               ? *s
                               : '_');
}

int
lab_devlock_path(const char *cachedir, const char *key, lab_buf *out)
{
    lab_buf_printf(out, "%s/locks/gpu-", cachedir);
    add_safe(out, key && *key ? key : "default");
    return lab_buf_adds(out, ".lock");
}

int
lab_devlock_acquire(lab_devlock *lk, const char *cachedir, const char *key, double timeout_s,
                    const volatile sig_atomic_t *cancel, bool (*no_longer_needed)(const void *ctx),
                    const void *ctx, lab_err *err)
{
    lab_buf dir = LAB_BUF_INIT;
    double t0 = lab_clock_now();
    struct timespec pause = { 0, POLL_NS };
    int rc;

    lab_devlock_release(lk);
    lab_buf_printf(&dir, "%s/locks", cachedir);
    rc = lab_mkdir_p(dir.buf, 0755, err);
    lab_buf_release(&dir);
    if (rc < 0)
        return rc;
    lab_devlock_path(cachedir, key, &lk->path);
    if ((lk->fd = open(lk->path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
        return lab_err_set(err, LAB_EIO, "cannot open the GPU lock '%s': %s", lk->path.buf,
                           strerror(errno));
    while (flock(lk->fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            rc = lab_err_set(err, LAB_EIO, "cannot lock '%s': %s", lk->path.buf, strerror(errno));
            goto fail;
        }
        if (cancel && *cancel) {
            rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
            goto fail;
        }
        if (no_longer_needed && no_longer_needed(ctx)) {
            rc = 1;
            goto fail;
        }
        if (timeout_s > 0 && lab_clock_now() - t0 > timeout_s) {
            rc = lab_err_set(err, LAB_ETIMEOUT, "the GPU stayed busy (lock '%s') for %.0f s",
                             lk->path.buf, timeout_s);
            goto fail;
        }
        nanosleep(&pause, NULL);
    }
    lk->waited_s = lab_clock_now() - t0;
    return 0;
fail:
    close(lk->fd);
    lk->fd = -1;
    return rc;
}

bool
lab_devlock_busy(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    bool busy;

    if (fd < 0)
        return false;
    busy = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
    close(fd);
    return busy;
}

void
lab_devlock_release(lab_devlock *lk)
{
    if (lk->fd >= 0) {
        flock(lk->fd, LOCK_UN);
        close(lk->fd);
        lk->fd = -1;
    }
    lab_buf_release(&lk->path);
    lab_buf_init(&lk->path);
}
