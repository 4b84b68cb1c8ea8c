/*
 * utf8.h - text that came from outside the lab (a student's file name, a compiler's log, a
 * report) made safe to write where only valid UTF-8 is allowed (JSON, the gradebook's CSV)
 * or to show on a terminal.
 *
 * A byte that starts no valid UTF-8 sequence (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, a code point past U+10FFFF) becomes U+FFFD, one per byte,
 * so that what was invalid stays visible and nothing valid around it is lost.
 *
 * For a terminal, lab_utf8_shown also shows every control character instead of sending it:
 * C0 controls and DEL as their Control Pictures (ESC as U+241B, "␛"; a newline as "␊" unless
 * LAB_UTF8_KEEP_NEWLINE), C1 controls (U+0080..U+009F, which some terminals obey as
 * escape sequences) as U+FFFD.  A tab stays a tab.  So a file named
 * "x\e[2J\e[1;1Hall PASS.cu" prints as "x␛[2J␛[1;1Hall PASS.cu", never a cleared screen.
 */
#ifndef LAB_UTIL_UTF8_H
#define LAB_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"

enum {
    LAB_UTF8_KEEP_NEWLINE = 1, /* lab_utf8_shown: a newline stays one (a log's lines) */
};

/* Whether the len bytes at s are valid UTF-8 (a NUL counts as valid). */
bool lab_utf8_valid(const char *s, size_t len);
/* Appends s (len bytes) with every invalid byte as U+FFFD.  0 or LAB_ENOMEM. */
int lab_utf8_clean(lab_buf *out, const char *s, size_t len);
/* Appends s (len bytes) as a terminal may show it (above).  0 or LAB_ENOMEM. */
int lab_utf8_shown(lab_buf *out, const char *s, size_t len, unsigned flags);
/* Whether s (len bytes) needs lab_utf8_shown: invalid UTF-8, or a control character but a tab
 * (and a newline with LAB_UTF8_KEEP_NEWLINE). */
bool lab_utf8_needs_showing(const char *s, size_t len, unsigned flags);

#endif
