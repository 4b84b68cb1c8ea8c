/*
 * hash.h - content hashes for the compile cache and the store: 128 bits as
 * 32 hex digits (two FNV-1a 64 lanes with different offsets; a cache key, not
 * a security boundary).
 *
 *     lab_hash h; lab_hash_init(&h); lab_hash_add(&h, src, len); ...
 *     char hex[LAB_HASH_HEX]; lab_hash_hex(&h, hex);
 */
#ifndef LAB_UTIL_HASH_H
#define LAB_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define LAB_HASH_HEX 33 /* 32 digits and the NUL */

typedef struct lab_hash {
    uint64_t a, b;
} lab_hash;

void lab_hash_init(lab_hash *h);
void lab_hash_add(lab_hash *h, const void *data, size_t len);
/* Adds s and its NUL, so ("ab","c") and ("a","bc") differ. */
void lab_hash_adds(lab_hash *h, const char *s);
void lab_hash_hex(const lab_hash *h, char out[LAB_HASH_HEX]);

#endif
