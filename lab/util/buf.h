/*
 * buf.h - a growable, always NUL-terminated byte string.
 *
 * buf is never NULL: an empty lab_buf points at a shared "" until the first
 * append.  Appends return 0 or LAB_ENOMEM.  lab_buf_detach hands the bytes to
 * the caller (free() them) and leaves the buf empty; lab_buf_release frees.
 *
 *     lab_buf b = LAB_BUF_INIT;
 *     lab_buf_printf(&b, "%s:%d", file, line);
 *     ... use b.buf, b.len ...
 *     lab_buf_release(&b);
 */
#ifndef LAB_UTIL_BUF_H
#define LAB_UTIL_BUF_H

#include <stddef.h>
#include <stdarg.h>

typedef struct lab_buf {
    char *buf;    /* NUL-terminated, never NULL */
    size_t len;   /* bytes before the NUL */
    size_t alloc; /* 0 while buf is the shared empty string */
} lab_buf;

extern char lab_buf__empty[];
#define LAB_BUF_INIT                                                                               \
    {                                                                                              \
        lab_buf__empty, 0, 0                                                                       \
    }

void lab_buf_init(lab_buf *b);
void lab_buf_release(lab_buf *b);
void lab_buf_reset(lab_buf *b); /* len = 0, keeps the memory */
int lab_buf_grow(lab_buf *b, size_t extra);
int lab_buf_add(lab_buf *b, const void *data, size_t len);
int lab_buf_adds(lab_buf *b, const char *s);
int lab_buf_addch(lab_buf *b, char c);
int lab_buf_printf(lab_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lab_buf_vprintf(lab_buf *b, const char *fmt, va_list ap);
/* The bytes, malloc'ed, for the caller to free(); NULL only when out of memory. */
char *lab_buf_detach(lab_buf *b);
/* fmt formatted into a new string, malloc'ed, for the caller to free(); NULL when out of
 * memory.  For the functions that take a format of their own (lab_strvec_pushf). */
char *lab_vformat(const char *fmt, va_list ap);

/* Read a whole file into b (appending).  LAB_EIO/LAB_ENOENT with err filled. */
struct lab_err;
int lab_buf_read_file(lab_buf *b, const char *path, struct lab_err *err);
/* Read a whole regular file of at most cap bytes into b (appending), for files someone else
 * wrote (a student's source, a manifest, a task text): a FIFO, a device, a directory or a
 * socket is refused without waiting on it or reading it, and so is a file past the cap
 * (LAB_EINVAL: "'x' is a FIFO, not a regular file", "'x' is larger than 1024 KiB").
 * Symbolic links are followed; what they lead to must be a regular file too. */
int lab_buf_read_regular(lab_buf *b, const char *path, size_t cap, struct lab_err *err);
/* Read a regular file that someone else may change while the lab reads it (a student's
 * submission during a batch), of at most cap bytes, into b (appending): opened once and read
 * through that one descriptor, so what is checked is what is read.  name is relative to the
 * folder open on dirfd, and a symbolic link in it may lead anywhere inside that folder, never
 * out ("'x' is a link to a file outside its folder"); with dirfd AT_FDCWD, name is a path whose
 * last part may be no symbolic link at all ("'x' is a symbolic link").  The file must be
 * regular (as lab_buf_read_regular's) and have one link: a hard link to a file the student could
 * not read (/etc/shadow, made where protected_hardlinks is off) is refused.  path names the file
 * in messages. */
int lab_buf_read_untrusted(lab_buf *b, int dirfd, const char *name, const char *path, size_t cap,
                           struct lab_err *err);
/* rm -r: remove path and, if it is a directory, everything in it (symbolic links are removed,
 * never followed).  A path that is not there is fine. */
int lab_remove_tree(const char *path, struct lab_err *err);
/* mkdir -p: create dir and its missing parents with mode; existing ones are fine. */
int lab_mkdir_p(const char *dir, unsigned mode, struct lab_err *err);
/* Write data to path atomically (temp file + rename). */
int lab_write_file(const char *path, const void *data, size_t len, struct lab_err *err);

#endif
