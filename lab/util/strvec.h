/*
 * strvec.h - a NULL-terminated, growable array of owned strings (argv, env).
 *
 *     lab_strvec argv = LAB_STRVEC_INIT;
 *     lab_strvec_pushl(&argv, "nvcc", "-ptx", file, NULL);
 *     ... execvp(argv.v[0], argv.v) ...
 *     lab_strvec_release(&argv);
 */
#ifndef LAB_UTIL_STRVEC_H
#define LAB_UTIL_STRVEC_H

#include <stddef.h>

typedef struct lab_strvec {
    char **v; /* NULL-terminated; NULL only before the first push */
    size_t n;
    size_t alloc;
} lab_strvec;

#define LAB_STRVEC_INIT                                                                            \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

int lab_strvec_push(lab_strvec *sv, const char *s);
int lab_strvec_pushf(lab_strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lab_strvec_pushl(lab_strvec *sv, ...) __attribute__((sentinel)); /* strings, then NULL */
int lab_strvec_pushv(lab_strvec *sv, const char *const *v);          /* NULL-terminated */
void lab_strvec_release(lab_strvec *sv);

#endif
