/*
 * arena.h - a bump allocator for objects made of many small pieces.
 *
 * An object such as the catalog (or a parsed PTX module) makes hundreds of
 * small strings and arrays that all die together.  It takes them from one
 * arena and frees them with one lab_arena_release, so no piece needs its own
 * free (as git's mem-pool.h).
 *
 * Call order: lab_arena_init (or LAB_ARENA_INIT), any number of allocations,
 * lab_arena_release.  Memory is taken from malloc in blocks; a pointer from the
 * arena stays valid until lab_arena_release and must never be passed to free().
 * There is no per-piece free and no realloc.  Out of memory is a NULL return,
 * never an abort.
 *
 *     lab_arena a = LAB_ARENA_INIT;
 *     char *s = lab_arena_strdup(&a, "reduction");
 *     unsigned long *v = lab_arena_calloc(&a, n, sizeof(*v));
 *     if (!s || !v)
 *         ... LAB_ENOMEM ...
 *     lab_arena_release(&a);
 */
#ifndef LAB_UTIL_ARENA_H
#define LAB_UTIL_ARENA_H

#include <stddef.h>

struct lab_arena_block;

typedef struct lab_arena {
    struct lab_arena_block *blocks; /* newest first; NULL before the first allocation */
} lab_arena;

#define LAB_ARENA_INIT                                                                             \
    {                                                                                              \
        NULL                                                                                       \
    }

void lab_arena_init(lab_arena *a);
/* Free every block; the arena is empty and usable again afterwards. */
void lab_arena_release(lab_arena *a);

/* size bytes aligned for any type (max_align_t), uninitialised; NULL when out of memory. */
void *lab_arena_alloc(lab_arena *a, size_t size);
/* n * size bytes, zeroed; NULL when out of memory or when n * size overflows. */
void *lab_arena_calloc(lab_arena *a, size_t n, size_t size);
/* A copy of s; NULL when out of memory. */
char *lab_arena_strdup(lab_arena *a, const char *s);
/* A NUL-terminated copy of the first len bytes of s; NULL when out of memory. */
char *lab_arena_strndup(lab_arena *a, const char *s, size_t len);

#endif
