/*
 * device-probe.c - tells the lab which GPU the drivers see, or precisely why
 * none: `device-probe --report-fd 3 --probe` writes a report (common/report.h)
 * whose status is "ok" with the device, or "no_gpu" with the reason.  The lab
 * itself never loads the CUDA driver; this child does.
 */
#include "common/driver.h"

int
main(int argc, char **argv)
{
    lab_driver d;

    lab_driver_start(&d, argc, argv, "device-probe", "");
    return lab_driver_finish(&d);
}
