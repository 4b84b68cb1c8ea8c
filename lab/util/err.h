/*
 * err.h - error codes and the one-line error record every library call fills.
 *
 * Libraries (lab/core, lab/sim, common) never print or exit: a failing call
 * returns a negative LAB_E* code and describes what went wrong in a lab_err.
 * Only a front end's or driver's main() prints the message.
 *
 *     lab_err err = LAB_ERR_INIT;
 *     if (lab_catalog_load(cat, dir, &err) < 0)
 *         fprintf(stderr, "cudalab: %s\n", err.msg);
 */
#ifndef LAB_UTIL_ERR_H
#define LAB_UTIL_ERR_H

#include <stdarg.h>

#include "lab/util/fmtargs.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef enum lab_errcode {
    LAB_OK = 0,
    LAB_EINVAL = -1,    /* bad argument or input */
    LAB_ENOMEM = -2,    /* out of memory */
    LAB_EIO = -3,       /* file or pipe i/o failed */
    LAB_ENOENT = -4,    /* no such file, exercise or kernel */
    LAB_EPARSE = -5,    /* malformed manifest, report or PTX */
    LAB_ETOOL = -6,     /* an external tool (nvcc) is missing or failed to run */
    LAB_ECHILD = -7,    /* a child process could not be started or waited for */
    LAB_ETIMEOUT = -8,  /* a deadline passed */
    LAB_ENODEV = -9,    /* no usable GPU */
    LAB_EDEVICE = -10,  /* the device (CUDA) reported an error */
    LAB_ESTORE = -11,   /* the progress database failed */
    LAB_ENOSYS = -12,   /* not available in this build or backend */
    LAB_ECANCEL = -13,  /* cancelled by the user */
    LAB_ESANDBOX = -14, /* the sandbox could not run a job: the lab's failure, no verdict */
    LAB_ECODE_COUNT = 15
} lab_errcode;

typedef struct lab_err {
    int code;      /* 0 or a negative LAB_E* */
    char msg[512]; /* one line: no newline, no final period */
    /* Where the caller gave room for them (args not NULL) and the message was set with
     * lab_err_set_msg: msg's format, a message of the lab's catalog, and its arguments, so that
     * a driver's reason reaches the learner in their language (docs/design/i18n.md); NULL
     * after any other set or wrap */
    const char *format;
    lab_fmtargs *args;
} lab_err;

#define LAB_ERR_INIT                                                                               \
    {                                                                                              \
        0, "", NULL, NULL                                                                          \
    }

/* Fill err (which may be NULL) and return code. */
int lab_err_set(lab_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int lab_err_setv(lab_err *err, int code, const char *fmt, va_list ap);

/* As lab_err_set, and where err->args gives room, fmt and its arguments kept in err->format
 * and err->args: fmt is a message of the catalog (make pot takes it from the drivers' code). */
int lab_err_set_msg(lab_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefix err->msg with "what: " to add context while passing an error up. */
int lab_err_wrap(lab_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The generic name of a code ("out of memory"), from a table; never NULL. */
const char *lab_strerror(int code);

#endif
