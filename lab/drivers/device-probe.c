/*
 * device-probe.c - tells the lab which GPU the drivers see, or precisely why
 * none: `device-probe --report-fd 3 --probe [--backend cuda|sim]` writes a
 * report (lab/harness/report.h) whose status is "ok" with the device, or "no_gpu"
 * with the reason.  For the cuda backend the report also carries
 *   "driver": {"found": bool, "version": 13000, "library": "/usr/lib/.../libcuda.so.1"}
 * (the library's error when it is not found), also when no device opens, so
 * that `cudalab doctor` can compare the driver with the toolkit.  The lab
 * itself never loads the CUDA driver; this child does.
 */
#include "lab/harness/driver.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

static void
report_driver_library(cJSON *report)
{
    cJSON *o = cJSON_AddObjectToObject(report, "driver");
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    struct link_map *map = NULL;
    int (*get_version)(int *);
    int version = 0;

    if (!o)
        return;
    cJSON_AddBoolToObject(o, "found", lib != NULL);
    if (!lib) {
        cJSON_AddStringToObject(o, "library", dlerror());
        return;
    }
    if (dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        cJSON_AddStringToObject(o, "library", map->l_name);
    *(void **)&get_version = dlsym(lib, "cuDriverGetVersion");
    if (get_version && get_version(&version) == 0)
        cJSON_AddNumberToObject(o, "version", version);
    dlclose(lib);
}

int
main(int argc, char **argv)
{
    lab_driver d;

    lab_driver_start(&d, argc, argv, "device-probe", "");
    if (d.report && d.args.probe && !strcmp(d.args.backend, "cuda"))
        report_driver_library(d.report);
    return lab_driver_finish(&d);
}
