/*
 * batch-json.h - shared by batch.c and gradebook.c only: reading a result's
 * fields ("" and 0 for what is missing), and writing JSON as valid UTF-8.
 */
#ifndef LAB_BATCH_BATCH_JSON_H
#define LAB_BATCH_BATCH_JSON_H

#include <cJSON.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

const char *lab_batch__str(const cJSON *o, const char *key);
double lab_batch__num(const cJSON *o, const char *key);
/* o printed, every invalid UTF-8 byte of its strings as U+FFFD, appended to out; 0 or
 * LAB_ENOMEM. */
int lab_batch__json_text(const cJSON *o, lab_buf *out);
/* lab_batch__json_text written to path atomically. */
int lab_batch__write_json(const char *path, const cJSON *o, lab_err *err);

#endif
