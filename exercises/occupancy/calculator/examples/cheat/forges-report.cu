// expect: WRONG (writes a passing report into the driver's report pipe through /proc and kills the driver; the pipe is out of its reach, so it just returns 0)
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

struct OccDevice {
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsPerSM;
    int maxBlocksPerSM;
    int regsPerSM;
    int regsPerBlock;
    int regAllocUnit;
    int subPartitions;
    int smemPerSM;
    int smemPerBlock;
    int smemReservedPerBlock;
    int smemAllocUnit;
};

int maxActiveBlocksPerSM(const OccDevice *dev, int threadsPerBlock, int regsPerThread,
                         int smemPerBlock)
{
    static const unsigned long sizes[] = { 1, 1000, 4096, 12000, 30000, 42000 };
    char path[64], report[4096];
    int fd, len;

    (void)dev, (void)threadsPerBlock, (void)regsPerThread, (void)smemPerBlock;
    snprintf(path, sizeof(path), "/proc/%d/fd/3", (int)getppid());
    if ((fd = open(path, O_WRONLY)) < 0)
        return 0;
    len = snprintf(report, sizeof(report),
                   "{\"version\":1,\"family\":\"host-occupancy\",\"backend\":\"host\",\"status\":\"ok\","
                   "\"cases\":[");
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        len += snprintf(report + len, sizeof(report) - len,
                        "%s{\"size\":%lu,\"role\":\"student\",\"correct\":true,\"detail\":\"\"}",
                        i ? "," : "", sizes[i]);
    len += snprintf(report + len, sizeof(report) - len, "],\"timings\":[]}");
    if (write(fd, report, (size_t)len) == len)
        kill(getppid(), SIGKILL);
    return 1;
}
