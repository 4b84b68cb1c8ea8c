/*
 * trace.c - see trace.h.
 */
#include "lab/util/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int trace_fd = -1;
static char trace_program[24];

int
lab_trace_start(const char *program, lab_err *err)
{
    const char *path = getenv("CUDALAB_TRACE");
    struct stat st;

    if (!path || !*path || trace_fd >= 0)
        return 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return lab_err_set(err, LAB_EINVAL, "CUDALAB_TRACE='%s' is not a regular file", path);
    /* O_NONBLOCK: a FIFO put there since is refused at once instead of waited for */
    trace_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (trace_fd < 0)
        return lab_err_set(err, LAB_EIO, "CUDALAB_TRACE='%s': cannot open it: %s", path,
                           strerror(errno));
    if (fstat(trace_fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(trace_fd);
        trace_fd = -1;
        return lab_err_set(err, LAB_EINVAL, "CUDALAB_TRACE='%s' is not a regular file", path);
    }
    snprintf(trace_program, sizeof(trace_program), "%s", program);
    lab_trace_mark("start");
    return 0;
}

void
lab_trace_mark(const char *fmt, ...)
{
    char line[256];
    struct timespec ts;
    va_list ap;
    int len, n;

    if (trace_fd < 0)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    len = snprintf(line, sizeof(line), "%lld.%06ld %ld %s ", (long long)ts.tv_sec,
                   ts.tv_nsec / 1000, (long)getpid(), trace_program);
    va_start(ap, fmt);
    n = vsnprintf(line + len, sizeof(line) - (size_t)len - 1, fmt, ap);
    va_end(ap);
    len = n < 0 ? len : len + n < (int)sizeof(line) - 1 ? len + n : (int)sizeof(line) - 2;
    line[len++] = '\n';
    while (write(trace_fd, line, (size_t)len) < 0 && errno == EINTR)
        ;
}
