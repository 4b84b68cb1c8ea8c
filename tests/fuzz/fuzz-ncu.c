/*
 * fuzz-ncu.c - the Nsight Compute CSV reader (lab/instruments/ncu.c) on any
 * text: a table, or a refusal with a message.  Seeds: tests/fixtures/ncu.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/instruments/ncu.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_err err = LAB_ERR_INIT;
    char *text = malloc(size + 1);

    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    if (lab_ncu_parse(text, &t, &err) < 0 && !err.msg[0])
        abort(); /* a refusal says why */
    lab_ncu_table_release(&t);
    free(text);
    return 0;
}
