/*
 * hash.c - FNV-1a, two lanes (see hash.h).
 */
#include "lab/util/hash.h"

#include <stdio.h>
#include <string.h>

#define FNV_PRIME 0x100000001b3ULL

void
lab_hash_init(lab_hash *h)
{
    h->a = 0xcbf29ce484222325ULL;
    h->b = 0x84222325cbf29ce4ULL;
}

void
lab_hash_add(lab_hash *h, const void *data, size_t len)
{
    const unsigned char *p = data;

    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * FNV_PRIME;
        h->b = (h->b ^ (unsigned char)(p[i] + 0x5b)) * FNV_PRIME;
    }
}

void
lab_hash_adds(lab_hash *h, const char *s)
{
    lab_hash_add(h, s, strlen(s) + 1);
}

void
lab_hash_hex(const lab_hash *h, char out[LAB_HASH_HEX])
{
    snprintf(out, LAB_HASH_HEX, "%016llx%016llx", (unsigned long long)h->a,
             (unsigned long long)h->b);
}
