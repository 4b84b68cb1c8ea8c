/*
 * textwidth.h - how many terminal columns UTF-8 text takes, and text cut or padded to a
 * number of columns: Hangul and Hanzi take two columns, combining marks none, so byte and
 * character counts misalign every table of Korean or Chinese text.
 *
 * Widths come from mbrtowc and wcwidth in the current locale (the front end calls
 * setlocale(LC_CTYPE, "") first); in a locale that is not UTF-8, or for a byte that is no
 * character, each byte counts one column, as the terminal then shows it.  A cut never splits
 * a character: it stops before one that would pass the limit.
 *
 *     lab_buf line = LAB_BUF_INIT;
 *     lab_text_pad(&line, title, 30);   (title, cut to 30 columns, then spaces up to 30)
 */
#ifndef LAB_UTIL_TEXTWIDTH_H
#define LAB_UTIL_TEXTWIDTH_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"

/* The columns of the first len bytes of s. */
size_t lab_text_width(const char *s, size_t len);
/* The columns of the string s. */
size_t lab_text_widths(const char *s);
/* How many bytes of s (len bytes) fit in cols columns, whole characters only. */
size_t lab_text_cut(const char *s, size_t len, size_t cols);
/*
 * Whether a line may break before the character at s (len bytes) though no space precedes it:
 * a Han ideograph or kana, as Chinese and Japanese are written without spaces.  Not Hangul
 * (Korean breaks at its spaces) and not full-width punctuation (it never starts a line).
 */
bool lab_text_breaks_before(const char *s, size_t len);
/*
 * Whether the character at s (len bytes) is of a script written without spaces between its
 * words: two columns wide and not Hangul (Korean puts spaces between its words).  A source
 * line broken between two such characters joins them with nothing.
 */
bool lab_text_spaceless(const char *s, size_t len);
/* Appends s cut to cols columns, then spaces up to cols columns. */
int lab_text_pad(lab_buf *b, const char *s, size_t cols);
/* Appends s padded with spaces on the left up to cols columns (numbers, right-aligned). */
int lab_text_pad_left(lab_buf *b, const char *s, size_t cols);
/* Appends s when it fits in cols columns, else as much of it as fits with "..." after. */
int lab_text_fit(lab_buf *b, const char *s, size_t cols);

#endif
