/*
 * err.c - lab_err and the table of error-code names (see err.h).
 */
#include "lab/util/err.h"

#include <stdio.h>
#include <string.h>

static const char *const errnames[] = {
    [-LAB_OK] = "success",
    [-LAB_EINVAL] = "invalid argument",
    [-LAB_ENOMEM] = "out of memory",
    [-LAB_EIO] = "input/output error",
    [-LAB_ENOENT] = "not found",
    [-LAB_EPARSE] = "parse error",
    [-LAB_ETOOL] = "tool failed",
    [-LAB_ECHILD] = "child process error",
    [-LAB_ETIMEOUT] = "timed out",
    [-LAB_ENODEV] = "no usable GPU",
    [-LAB_EDEVICE] = "device error",
    [-LAB_ESTORE] = "progress store error",
    [-LAB_ENOSYS] = "not available",
    [-LAB_ECANCEL] = "cancelled",
    [-LAB_ESANDBOX] = "sandbox failure",
};
_Static_assert(ARRAY_SIZE(errnames) == LAB_ECODE_COUNT, "one name per lab_errcode");

/* keep a message one line */
static void
one_line(char *msg)
{
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int
lab_err_setv(lab_err *err, int code, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    err->format = NULL;
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    one_line(err->msg);
    return code;
}

int
lab_err_set_msg(lab_err *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    va_start(ap, fmt);
    if (!err->args) {
        code = lab_err_setv(err, code, fmt, ap);
    } else {
        err->code = code;
        err->format =
            lab_fmtargs_vcapture(err->args, err->msg, sizeof(err->msg), fmt, ap) ? fmt : NULL;
        one_line(err->msg);
    }
    va_end(ap);
    return code;
}

int
lab_err_set(lab_err *err, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    code = lab_err_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int
lab_err_wrap(lab_err *err, const char *fmt, ...)
{
    char prefix[256];
    char old[sizeof(err->msg)];
    va_list ap;

    if (!err)
        return LAB_EINVAL;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof(old));
    err->format = NULL; /* the words are no longer the format's */
    /* a message too long for the record keeps its start: the context */
    if (snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old) >= (int)sizeof(err->msg))
        err->msg[sizeof(err->msg) - 1] = '\0';
    return err->code;
}

const char *
lab_strerror(int code)
{
    if (code > 0 || -code >= (int)ARRAY_SIZE(errnames))
        return "unknown error";
    return errnames[-code];
}
