/*
 * fuzz-questions.c - the prediction questions' reader (lab/catalog/questions.c,
 * over lab/util/inifile) on any questions.ini: loaded or refused with a
 * message.  Seeds: the lab's exercises/<chapter>/questions.ini.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/catalog/questions.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("questions.ini", data, size);
    lab_err err = LAB_ERR_INIT;
    lab_questions q;

    if (lab_questions_load(path, &q, &err) < 0) {
        if (!err.msg[0])
            abort(); /* a refusal says why */
        return 0;
    }
    lab_questions_release(&q);
    return 0;
}
