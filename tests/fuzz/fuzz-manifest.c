/*
 * fuzz-manifest.c - the catalog's manifest reader (lab/catalog/catalog.c) on
 * any exercise.ini: the catalog loads, the exercise loaded or listed as broken
 * with a reason, never a crash.  Seeds: the lab's exercises/<chapter>/<ex>/exercise.ini.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/catalog/catalog.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lab_err err = LAB_ERR_INIT;
    lab_catalog *cat = NULL;

    fuzz_write("exercises/ch/ex/exercise.ini", data, size);
    if (lab_catalog_load(fuzz_dir(), &cat, &err) < 0)
        abort(); /* only a folder that cannot be read or no memory fails a load */
    if (!lab_catalog_find(cat, "ch/ex") && !lab_catalog_why_broken(cat, "ch/ex"))
        abort(); /* an exercise is loaded or says why it is broken */
    lab_catalog_free(cat);
    return 0;
}
