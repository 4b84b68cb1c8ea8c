/*
 * batchid.c - a submission's id as the batch's file names use it (see batch.h, lab_batch_id):
 * results/<id>.json and its temporary twin, .work/<id>/, gradescope/<id>/.
 */
#include "lab/batch/batch.h"
#include "lab/util/hash.h"

#include <string.h>

/* The bytes of a long id kept before its hash: LAB_BATCH_ID_MAX less '-' and 16 hex digits. */
#define KEPT (LAB_BATCH_ID_MAX - 17)

static bool
safe_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

int
lab_batch_id(const char *student, lab_buf *out)
{
    size_t start = out->len;
    char hex[LAB_HASH_HEX];
    lab_hash h;
    int rc = 0;

    /* a leading '.' would make a hidden file, which nothing lists (".x" was graded and left out
     * of the gradebook); "." and ".." are folders */
    if (!*student || *student == '.')
        rc = lab_buf_addch(out, '_');
    for (const char *s = student; rc == 0 && *s; s++)
        rc = lab_buf_addch(out, safe_byte(*s) ? *s : '_');
    if (rc < 0 || out->len - start <= LAB_BATCH_ID_MAX)
        return rc;
    /* too long for NAME_MAX with the suffixes: its start, then a hash of the whole name, so
     * that two long names alike in their first bytes keep two ids */
    lab_hash_init(&h);
    lab_hash_adds(&h, student);
    lab_hash_hex(&h, hex);
    out->len = start + KEPT;
    out->buf[out->len] = '\0';
    return lab_buf_printf(out, "-%.16s", hex);
}
