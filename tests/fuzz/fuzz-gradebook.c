/*
 * fuzz-gradebook.c - the gradebook's writer (lab/batch/gradebook.c) and the submissions' ids
 * (lab/batch/batchid.c) on hostile names and logs: any bytes a class's file names, compiler
 * logs and reports can hold.  The input is cut at its NULs into the fields of up to eight
 * results (student, verdict, message, compiler log, normalized hash, a flag and its reason);
 * what must hold, whatever they are: every id a file name of the batch's (at most
 * LAB_BATCH_ID_MAX bytes of letters, digits and ".-_", never hidden, never empty), two long
 * names apart two ids apart, and a gradebook of valid UTF-8 whose JSON reads back with every
 * result and whose CSV has a record per result.  Seeds: the exercises' example submissions.
 */
#include "tests/fuzz/fuzz.h"
#include "lab/batch/batch.h"
#include "lab/batch/batch-json.h"
#include "lab/util/utf8.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RESULTS 8
#define FIELDS 7

/* The next field of the input (up to a NUL or its end), as a string; "" past the end. */
static const char *
field(const uint8_t **at, const uint8_t *end, lab_buf *store)
{
    const uint8_t *nul = memchr(*at, 0, (size_t)(end - *at));
    size_t len = nul ? (size_t)(nul - *at) : (size_t)(end - *at);

    lab_buf_reset(store);
    if (lab_buf_add(store, *at, len) < 0)
        abort();
    *at += nul ? len + 1 : len;
    return store->buf;
}

static void
check_id(const char *student)
{
    lab_buf id = LAB_BUF_INIT;

    if (lab_batch_id(student, &id) < 0 || !id.len || id.len > LAB_BATCH_ID_MAX || id.buf[0] == '.')
        abort();
    for (size_t i = 0; i < id.len; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", id.buf[i]))
            abort();
    lab_buf_release(&id);
}

/* Two names past LAB_BATCH_ID_MAX bytes that differ keep two ids (their hashes). */
static void
check_long_ids(const char *a, const char *b)
{
    lab_buf x = LAB_BUF_INIT, y = LAB_BUF_INIT;

    if (strlen(a) > LAB_BATCH_ID_MAX && strlen(b) > LAB_BATCH_ID_MAX && strcmp(a, b)) {
        lab_batch_id(a, &x);
        lab_batch_id(b, &y);
        if (!strcmp(x.buf, y.buf))
            abort();
    }
    lab_buf_release(&x);
    lab_buf_release(&y);
}

/* CSV records: line ends outside quotes. */
static size_t
csv_records(const lab_buf *csv)
{
    size_t n = 0;
    bool quoted = false;

    for (size_t i = 0; i < csv->len; i++) {
        if (csv->buf[i] == '"')
            quoted = !quoted;
        else if (!quoted && csv->buf[i] == '\r' && i + 1 < csv->len && csv->buf[i + 1] == '\n')
            n++;
    }
    return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *at = data, *end = data + size;
    cJSON *results[MAX_RESULTS], *back;
    lab_buf f = LAB_BUF_INIT, csv = LAB_BUF_INIT, json = LAB_BUF_INIT;
    char students[MAX_RESULTS][512];
    size_t n = size ? (size_t)data[0] % MAX_RESULTS + 1 : 1;

    if (size)
        at++;
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject(), *flags = cJSON_AddArrayToObject(r, "flags"), *fl;
        lab_buf id = LAB_BUF_INIT;

        snprintf(students[i], sizeof(students[i]), "%s", field(&at, end, &f));
        check_id(students[i]);
        lab_batch_id(students[i], &id);
        cJSON_AddStringToObject(r, "student", students[i]);
        cJSON_AddStringToObject(r, "id", id.buf);
        cJSON_AddStringToObject(r, "exercise", "reduction/neighbored");
        cJSON_AddStringToObject(r, "verdict", field(&at, end, &f));
        cJSON_AddStringToObject(r, "message", field(&at, end, &f));
        cJSON_AddStringToObject(r, "compiler_log", field(&at, end, &f));
        cJSON_AddStringToObject(r, "norm_hash", field(&at, end, &f));
        cJSON_AddNumberToObject(r, "points", (double)(i * 3));
        cJSON_AddNumberToObject(r, "speedup", (double)size / (double)(i + 1));
        fl = cJSON_CreateObject();
        cJSON_AddStringToObject(fl, "flag", field(&at, end, &f));
        cJSON_AddStringToObject(fl, "reason", field(&at, end, &f));
        cJSON_AddItemToArray(flags, fl);
        results[i] = r;
        lab_buf_release(&id);
    }
    for (size_t i = 0; i + 1 < n; i++)
        check_long_ids(students[i], students[i + 1]);
    if (lab_gradebook_build(results, n, &csv, &json, NULL) < 0)
        abort();
    if (!lab_utf8_valid(csv.buf, csv.len) || !lab_utf8_valid(json.buf, json.len))
        abort();
    if (csv_records(&csv) != n + 1)
        abort();
    back = cJSON_ParseWithLength(json.buf, json.len);
    if (!back ||
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(back, "submissions")) != (int)n)
        abort();
    cJSON_Delete(back);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(results[i]);
    lab_buf_release(&f);
    lab_buf_release(&csv);
    lab_buf_release(&json);
    return 0;
}
