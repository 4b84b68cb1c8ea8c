/*
 * fuzz-runreport.c - the driver report reader (lab/grade/runreport.c) on any
 * bytes: a report, or a refusal with a message.  The report comes from a
 * child that ran a student's kernel; each case's detail as the learner reads it (its format
 * filled with its arguments, lab/util/fmtargs.h).  Seeds: tests/fixtures/reports.
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

    char shown[512];

    if (rc < 0 && !err.msg[0])
        abort();                                     /* a refusal says why */
    for (size_t i = 0; rc == 0 && i < r.ncases; i++) /* a detail's format filled, any format */
        if (!lab_case_detail(&r.cases[i], shown, sizeof(shown)))
            abort();
    lab_runreport_release(&r);
    return 0;
}
