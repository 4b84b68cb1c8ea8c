/*
 * dev.c - the table of device backends (see dev.h).
 */
#include "common/dev.h"
#include "lab/util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILL_CHUNK_WORDS 65536 /* the host buffer of a fill through copies */

static const lab_dev_ops *const backends[] = { &lab_dev_cuda, &lab_dev_sim };

const lab_dev_ops *
lab_dev_backend(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
        if (!strcmp(backends[i]->name, name))
            return backends[i];
    return NULL;
}

void
lab_dim3_format(lab_dim3 s, const char *open, const char *sep, const char *close, char *buf,
                size_t size)
{
    if (s.z > 1)
        snprintf(buf, size, "%s%u%s%u%s%u%s", open, s.x, sep, s.y, sep, s.z, close);
    else if (s.y > 1)
        snprintf(buf, size, "%s%u%s%u%s", open, s.x, sep, s.y, close);
    else
        snprintf(buf, size, "%s%u%s", open, s.x, close);
}

int
lab_dev_load_file(const lab_dev_ops *ops, lab_dev *dev, const char *path, lab_module **out,
                  lab_err *err)
{
    lab_buf text = LAB_BUF_INIT;
    lab_image img;
    int rc;

    if ((rc = lab_buf_read_file(&text, path, err)) == 0) {
        img = (lab_image){ text.buf, text.len + 1, path }; /* PTX goes with its NUL */
        rc = ops->load(dev, &img, out, err);
    }
    lab_buf_release(&text);
    return rc;
}

int
lab_dev_load_beside(const lab_dev_ops *ops, lab_dev *dev, const char *beside, const char *name,
                    lab_module **out, lab_err *err)
{
    const char *slash = strrchr(beside, '/');
    lab_buf path = LAB_BUF_INIT;
    int rc;

    if (slash)
        lab_buf_printf(&path, "%.*s/%s", (int)(slash - beside), beside, name);
    else
        lab_buf_adds(&path, name);
    rc = lab_dev_load_file(ops, dev, path.buf, out, err);
    lab_buf_release(&path);
    return rc;
}

int
lab_dev_fill32(const lab_dev_ops *ops, lab_dev *dev, lab_dptr dst, uint32_t value, size_t count,
               lab_err *err)
{
    const size_t chunk = count < FILL_CHUNK_WORDS ? count : FILL_CHUNK_WORDS;
    uint32_t *words;
    int rc = ops->fill32 ? ops->fill32(dev, dst, value, count, err) : LAB_ENOSYS;

    if (rc != LAB_ENOSYS || count == 0)
        return rc;
    if (!(words = malloc(chunk * sizeof(*words))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < chunk; i++)
        words[i] = value;
    rc = 0;
    for (size_t done = 0; done < count && rc == 0; done += chunk) {
        size_t n = count - done < chunk ? count - done : chunk;
        rc = ops->copy_in(dev, dst + done * sizeof(*words), words, n * sizeof(*words), err);
    }
    free(words);
    return rc;
}
