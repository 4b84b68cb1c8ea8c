// expect: WRONG (writes a passing report into the driver's report pipe through /proc and kills the driver; the pipe is out of its reach, so it just returns 0)
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int recursiveReduce(int *data, int const size)
{
    static const unsigned long sizes[] = { 1, 2, 3, 7, 1000, 1048579, 1ul << 24 };
    char path[64], report[4096];
    int fd, len;

    (void)data;
    snprintf(path, sizeof(path), "/proc/%d/fd/3", (int)getppid());
    if ((fd = open(path, O_WRONLY)) < 0)
        return 0;
    len = snprintf(report, sizeof(report),
                   "{\"version\":1,\"family\":\"host-reduce-int\",\"backend\":\"host\",\"status\":\"ok\","
                   "\"cases\":[");
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        len += snprintf(report + len, sizeof(report) - len,
                        "%s{\"size\":%lu,\"role\":\"student\",\"correct\":true,\"detail\":\"\"}",
                        i ? "," : "", sizes[i]);
    len += snprintf(report + len, sizeof(report) - len, "],\"timings\":[]}");
    if (write(fd, report, (size_t)len) == len)
        kill(getppid(), SIGKILL);
    return size;
}
