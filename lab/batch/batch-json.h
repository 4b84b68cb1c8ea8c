/*
 * batch-json.h - shared by batch.c and gradebook.c only: reading a result's
 * fields ("" and 0 for what is missing).
 */
#ifndef LAB_BATCH_BATCH_JSON_H
#define LAB_BATCH_BATCH_JSON_H

#include <cJSON.h>

const char *lab_batch__str(const cJSON *o, const char *key);
double lab_batch__num(const cJSON *o, const char *key);

#endif
