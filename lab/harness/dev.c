/*
 * dev.c - the table of device backends (see dev.h).
 */
#include "lab/harness/dev.h"

#include <string.h>

static const lab_dev_ops *const backends[] = { &lab_dev_cuda, &lab_dev_sim };

const lab_dev_ops *
lab_dev_backend(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
        if (!strcmp(backends[i]->name, name))
            return backends[i];
    return NULL;
}
