/*
 * sha256.c - SHA-256 as hex (sha256.h), through GNU Nettle's implementation.
 */
#include "lab/util/sha256.h"

#include <nettle/sha2.h>
#include <stdint.h>

void
lab_sha256_hex(const void *data, size_t len, char out[LAB_SHA256_HEX])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t digest[SHA256_DIGEST_SIZE];
    struct sha256_ctx ctx;

    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof(digest), digest);
    for (size_t i = 0; i < sizeof(digest); i++) {
        out[2 * i] = digits[digest[i] >> 4];
        out[2 * i + 1] = digits[digest[i] & 15];
    }
    out[2 * sizeof(digest)] = '\0';
}
