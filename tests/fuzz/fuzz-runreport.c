/*
 * fuzz-runreport.c - the driver report reader (lab/grade/runreport.c) on any
 * bytes: a report, or a refusal with a message.  The report comes from a
 * child that ran a student's kernel.  Seeds: tests/fixtures/reports.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/grade/runreport.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lab_err err = LAB_ERR_INIT;
    lab_runreport r;
    int rc = lab_runreport_parse((const char *)data, size, &r, &err);

    if (rc < 0 && !err.msg[0])
        abort(); /* a refusal says why */
    lab_runreport_release(&r);
    return 0;
}
