/*
 * buf.c - lab_buf, the growable string (see buf.h), and whole-file helpers.
 */
#include "lab/util/buf.h"
#include "lab/util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

char lab_buf__empty[1];

void
lab_buf_init(lab_buf *b)
{
    b->buf = lab_buf__empty;
    b->len = 0;
    b->alloc = 0;
}

void
lab_buf_release(lab_buf *b)
{
    if (b->alloc)
        free(b->buf);
    lab_buf_init(b);
}

void
lab_buf_reset(lab_buf *b)
{
    b->len = 0;
    if (b->alloc)
        b->buf[0] = '\0';
}

int
lab_buf_grow(lab_buf *b, size_t extra)
{
    size_t want = b->len + extra + 1;
    size_t alloc;
    char *p;

    if (want < b->len)
        return LAB_ENOMEM;
    if (want <= b->alloc)
        return 0;
    alloc = b->alloc ? b->alloc : 64;
    while (alloc < want)
        alloc = alloc * 3 / 2 + 16;
    p = b->alloc ? realloc(b->buf, alloc) : malloc(alloc);
    if (!p)
        return LAB_ENOMEM;
    if (!b->alloc)
        p[0] = '\0';
    b->buf = p;
    b->alloc = alloc;
    return 0;
}

int
lab_buf_add(lab_buf *b, const void *data, size_t len)
{
    if (lab_buf_grow(b, len) < 0)
        return LAB_ENOMEM;
    memcpy(b->buf + b->len, data, len);
    b->len += len;
    b->buf[b->len] = '\0';
    return 0;
}

int
lab_buf_adds(lab_buf *b, const char *s)
{
    return lab_buf_add(b, s, strlen(s));
}

int
lab_buf_addch(lab_buf *b, char c)
{
    return lab_buf_add(b, &c, 1);
}

int
lab_buf_vprintf(lab_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return LAB_EINVAL;
    if (lab_buf_grow(b, (size_t)n) < 0)
        return LAB_ENOMEM;
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int
lab_buf_printf(lab_buf *b, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = lab_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

char *
lab_buf_detach(lab_buf *b)
{
    char *p = b->alloc ? b->buf : strdup("");

    lab_buf_init(b);
    return p;
}

char *
lab_vformat(const char *fmt, va_list ap)
{
    lab_buf b = LAB_BUF_INIT;

    if (lab_buf_vprintf(&b, fmt, ap) < 0) {
        lab_buf_release(&b);
        return NULL;
    }
    return lab_buf_detach(&b);
}

/* Appends everything fd holds, at most cap bytes (SIZE_MAX: no cap); 1 when there was more. */
static int
read_fd(lab_buf *b, int fd, size_t cap, const char *path, lab_err *err)
{
    char chunk[65536];
    size_t total = 0;
    ssize_t n;

    while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return lab_err_set(err, LAB_EIO, "cannot read '%s': %s", path, strerror(errno));
        }
        if ((size_t)n > cap - total)
            return 1;
        total += (size_t)n;
        if (lab_buf_add(b, chunk, (size_t)n) < 0)
            return lab_err_set(err, LAB_ENOMEM, "out of memory reading '%s'", path);
    }
    return 0;
}

static int
open_file(const char *path, int flags, lab_err *err)
{
    int fd = open(path, flags | O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return lab_err_set(err, errno == ENOENT ? LAB_ENOENT : LAB_EIO, "cannot open '%s': %s",
                           path, strerror(errno));
    return fd;
}

int
lab_buf_read_file(lab_buf *b, const char *path, lab_err *err)
{
    int fd, rc;

    if ((fd = open_file(path, 0, err)) < 0)
        return fd;
    rc = read_fd(b, fd, SIZE_MAX, path, err);
    close(fd);
    return rc;
}

static const struct {
    mode_t type;
    const char *name;
} file_types[] = {
    { S_IFDIR, "a directory" },    { S_IFIFO, "a FIFO" },    { S_IFCHR, "a character device" },
    { S_IFBLK, "a block device" }, { S_IFSOCK, "a socket" },
};

static const char *
file_type_name(mode_t mode)
{
    for (size_t i = 0; i < ARRAY_SIZE(file_types); i++)
        if ((mode & S_IFMT) == file_types[i].type)
            return file_types[i].name;
    return "not a regular file";
}

/* Reads the file open on fd (closed here) into b when it is regular, at most cap bytes and, when
 * one_link, not a hard link; nothing appended on failure. */
static int
read_regular_fd(lab_buf *b, int fd, const char *path, size_t cap, bool one_link, lab_err *err)
{
    size_t len = b->len;
    struct stat st;
    int rc;

    if (fstat(fd, &st) < 0)
        rc = lab_err_set(err, LAB_EIO, "cannot read '%s': %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = lab_err_set(err, LAB_EINVAL, "'%s' is %s, not a regular file", path,
                         file_type_name(st.st_mode));
    else if (one_link && st.st_nlink != 1)
        rc = lab_err_set(err, LAB_EINVAL,
                         "'%s' has %lu hard links; it must be a file of its own, not a link to "
                         "another",
                         path, (unsigned long)st.st_nlink);
    else if ((unsigned long long)st.st_size > cap || (rc = read_fd(b, fd, cap, path, err)) == 1)
        rc = lab_err_set(err, LAB_EINVAL, "'%s' is larger than %zu KiB", path, cap / 1024);
    close(fd);
    if (rc < 0) { /* nothing half read */
        b->len = len;
        if (b->alloc)
            b->buf[len] = '\0';
    }
    return rc;
}

int
lab_buf_read_regular(lab_buf *b, const char *path, size_t cap, lab_err *err)
{
    int fd;

    /* O_NONBLOCK: opening a FIFO with no writer must not wait for one */
    if ((fd = open_file(path, O_NONBLOCK, err)) < 0)
        return fd;
    return read_regular_fd(b, fd, path, cap, false, err);
}

/* name in dirfd's folder, resolved by the kernel beneath it: a symbolic link may lead anywhere
 * inside, never out (openat2's RESOLVE_BENEATH, Linux 5.6); where the kernel has no openat2,
 * no symbolic link at all in the last part of the name. */
static int
open_beneath(int dirfd, const char *name, int flags)
{
    struct open_how how = { .flags = (unsigned long long)flags,
                            .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
    int fd = (int)syscall(SYS_openat2, dirfd, name, &how, sizeof(how));

    if (fd < 0 && errno == ENOSYS)
        fd = openat(dirfd, name, flags | O_NOFOLLOW);
    return fd;
}

int
lab_buf_read_untrusted(lab_buf *b, int dirfd, const char *name, const char *path, size_t cap,
                       lab_err *err)
{
    const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
    int fd = dirfd == AT_FDCWD ? open(name, flags | O_NOFOLLOW) : open_beneath(dirfd, name, flags);

    if (fd >= 0)
        return read_regular_fd(b, fd, path, cap, true, err);
    if (errno == ELOOP)
        return lab_err_set(err, LAB_EINVAL, "'%s' is a symbolic link; it must be a regular file",
                           path);
    if (errno == EXDEV)
        return lab_err_set(err, LAB_EINVAL, "'%s' is a link to a file outside its folder", path);
    return lab_err_set(err, errno == ENOENT ? LAB_ENOENT : LAB_EIO, "cannot open '%s': %s", path,
                       strerror(errno));
}

int
lab_write_file(const char *path, const void *data, size_t len, lab_err *err)
{
    lab_buf tmp = LAB_BUF_INIT;
    const char *p = data;
    int fd = -1, rc = 0;

    if (lab_buf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if ((fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
        rc = lab_err_set(err, LAB_EIO, "cannot create '%s': %s", tmp.buf, strerror(errno));
        goto out;
    }
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = lab_err_set(err, LAB_EIO, "cannot write '%s': %s", tmp.buf, strerror(errno));
            goto out;
        }
        p += n;
        len -= (size_t)n;
    }
    if (close(fd) < 0) {
        fd = -1;
        rc = lab_err_set(err, LAB_EIO, "cannot write '%s': %s", tmp.buf, strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp.buf, path) < 0)
        rc = lab_err_set(err, LAB_EIO, "cannot rename '%s' to '%s': %s", tmp.buf, path,
                         strerror(errno));
out:
    if (fd >= 0)
        close(fd);
    if (rc < 0)
        unlink(tmp.buf);
    lab_buf_release(&tmp);
    return rc;
}

static int
is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
lab_mkdir_p(const char *dir, unsigned mode, lab_err *err)
{
    lab_buf b = LAB_BUF_INIT;
    int rc = 0;

    if (lab_buf_adds(&b, dir) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (char *p = b.buf + 1;; p++) {
        char c = *p;

        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        /* EEXIST, or EACCES/EROFS on a directory that is already there */
        if (mkdir(b.buf, (mode_t)mode) < 0 && !is_dir(b.buf)) {
            int e = errno;
            rc = lab_err_set(err, LAB_EIO, "cannot create directory '%s': %s", b.buf,
                             strerror(e == EEXIST ? ENOTDIR : e));
            break;
        }
        *p = c;
        if (!c)
            break;
    }
    lab_buf_release(&b);
    return rc;
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int
lab_remove_tree(const char *path, lab_err *err)
{
    /* FTW_DEPTH: a folder's contents before the folder; FTW_PHYS: links are not followed */
    if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
        return lab_err_set(err, LAB_EIO, "cannot remove '%s': %s", path, strerror(errno));
    return 0;
}
