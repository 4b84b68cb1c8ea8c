/*
 * libs.h - the shared libraries a program loads, found as the dynamic loader finds them here.
 *
 * A sandbox shows the system's folders and little else (lab/platform/sandbox.h), so a driver
 * program whose libraries come through LD_LIBRARY_PATH from anywhere else (a build carried to a
 * GPU machine that lacks libcjson.so.1 and libinih.so.1, a test's stand-in libcuda) would stop
 * inside it before its main, with the loader's exit status 127.  The runner (lab/grade/runner.c)
 * shows each library this module finds outside the system read-only in the sandbox, at its own
 * path, or stops with the name of the one the loader cannot find.
 *
 * The loader answers through ldd (glibc's, which runs the loader in its listing mode: the
 * program itself does not run); a library the program opens itself (dlopen: libcuda.so.1) is
 * looked for in LD_LIBRARY_PATH's folders, where dlopen looks first, and what it needs in turn
 * through ldd again.  Where ldd cannot run, nothing is known and nothing is added: the driver's
 * own start then says what it lacks.
 *
 * The answer is kept: asked again for the same program, LD_LIBRARY_PATH and dlopened names (a
 * driver start per grading), this module answers without running ldd.  Safe on several threads.
 */
#ifndef LAB_PLATFORM_LIBS_H
#define LAB_PLATFORM_LIBS_H

#include "lab/util/err.h"
#include "lab/util/strvec.h"

/* Appends to out the path of every library program needs and of each of dlopened (names, NULL
 * terminated, may be NULL) found in a folder of LD_LIBRARY_PATH, with theirs; a path already in
 * out is not added again.  LAB_ENOENT naming the library when the loader finds one nowhere. */
int lab_libs_needed(const char *program, const char *const *dlopened, lab_strvec *out,
                    lab_err *err);

#endif
