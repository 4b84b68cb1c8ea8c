/*
 * sha256.h - SHA-256 (FIPS 180-4) of a byte string, as hex: what `sha256sum` prints.  The
 * translations name the English revision they follow by its first 12 digits (lab/catalog/
 * translation.h), which instructors compute with `sha256sum FILE | cut -c1-12`.
 */
#ifndef LAB_UTIL_SHA256_H
#define LAB_UTIL_SHA256_H

#include <stddef.h>

#define LAB_SHA256_HEX 65 /* 64 digits and the NUL */

void lab_sha256_hex(const void *data, size_t len, char out[LAB_SHA256_HEX]);

#endif
