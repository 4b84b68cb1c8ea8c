/*
 * fuzz-ptx.c - the simulator's PTX loader (lab/sim: parse, control-flow graph,
 * symbols) on any text: loaded or refused with a message, never a crash.
 * Seeds: the lab's recorded PTX (tests/fixtures/ptx, the simulator's tests).
 */
#include "tests/fuzz/fuzz.h"
#include "lab/sim/sim.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lab_err err = LAB_ERR_INIT;
    lab_sim_module *mod = NULL;
    lab_sim *sim = NULL;
    char *text = malloc(size + 1);

    if (!text || lab_sim_new(&sim, &err) < 0)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    if (lab_sim_load(sim, text, size, "fuzz.ptx", &mod, &err) < 0 && !err.msg[0])
        abort(); /* a refusal says why */
    lab_sim_module_free(mod);
    lab_sim_free(sim);
    free(text);
    return 0;
}
