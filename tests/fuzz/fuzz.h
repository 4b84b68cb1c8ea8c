/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share: a private folder for
 * the readers that take a path (manifests, questions), made once per process.
 *
 * Each target is one LLVMFuzzerTestOneInput over one reader of input the lab
 * did not write; built with clang's libFuzzer, ASan and UBSan (`make fuzz`,
 * tests/fuzz/run.sh); seeded from the lab's own files of that kind.
 */
#ifndef LAB_TESTS_FUZZ_H
#define LAB_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* $TMPDIR/cudalab-fuzz.XXXXXX, made on the first call; aborts when it cannot be. */
const char *fuzz_dir(void);
/* Writes data to fuzz_dir()/rel (its folders made), aborting on failure; the whole path. */
const char *fuzz_write(const char *rel, const uint8_t *data, size_t size);

#endif
