/*
 * fuzz-constraints.c - the constraint checker (lab/build: ptxmap, rules, constraints) on any
 * text: the student writes inline PTX, and nvcc copies it into the module as written.  Every
 * class and a raw spelling are checked; a verdict or a refusal, never a crash.
 * Seeds: the lab's PTX (tests/fixtures/ptx, the simulator's and the rules' tests).
 */
#include "tests/fuzz/fuzz.h"
#include "lab/build/constraints.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const rules[] = { "forbid atomics|shared-atomics",
                                         "forbid warp-collectives",
                                         "require warp-sync",
                                         "forbid loops",
                                         "forbid timers",
                                         "require ld.shared|%ntid" };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    char *text = malloc(size + 1);

    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
        if (lab_constraints_list(text, "k", rules[i], &why, &err) < 0 && !err.msg[0])
            abort(); /* a refusal says why */
    lab_buf_release(&why);
    free(text);
    return 0;
}
