/*
 * arena.c - lab_arena, the bump allocator (see arena.h).
 *
 * Blocks form a list, newest first.  An allocation is cut from the front
 * block; when it does not fit, a new block is added.  A large request gets a
 * block of its own, put behind the front block so that the front block's
 * free space is not thrown away.
 */
#include "lab/util/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 8192             /* usable bytes of an ordinary block */
#define LARGE_SIZE (BLOCK_SIZE / 4) /* requests above this get a block of their own */

struct lab_arena_block {
    struct lab_arena_block *next; /* older block */
    size_t size;                  /* usable bytes in data */
    size_t used;                  /* bytes of data handed out */
    max_align_t data[];           /* max_align_t so that data is aligned for anything */
};

static struct lab_arena_block *
block_new(size_t size)
{
    struct lab_arena_block *b;

    if (size > SIZE_MAX - sizeof(*b))
        return NULL;
    if (!(b = malloc(sizeof(*b) + size)))
        return NULL;
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

void
lab_arena_init(lab_arena *a)
{
    a->blocks = NULL;
}

void
lab_arena_release(lab_arena *a)
{
    struct lab_arena_block *b = a->blocks;

    while (b) {
        struct lab_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->blocks = NULL;
}

void *
lab_arena_alloc(lab_arena *a, size_t size)
{
    const size_t align = alignof(max_align_t);
    struct lab_arena_block *b = a->blocks;
    void *p;

    if (size == 0)
        size = 1; /* distinct pieces get distinct addresses */
    if (size > SIZE_MAX - (align - 1))
        return NULL;
    size = (size + align - 1) & ~(align - 1);

    if (!b || b->size - b->used < size) {
        if (size > LARGE_SIZE) {
            if (!(b = block_new(size)))
                return NULL;
            if (a->blocks) {
                b->next = a->blocks->next;
                a->blocks->next = b;
            } else {
                a->blocks = b;
            }
        } else {
            if (!(b = block_new(BLOCK_SIZE)))
                return NULL;
            b->next = a->blocks;
            a->blocks = b;
        }
    }
    p = (unsigned char *)b->data + b->used;
    b->used += size;
    return p;
}

void *
lab_arena_calloc(lab_arena *a, size_t n, size_t size)
{
    void *p;

    if (size && n > SIZE_MAX / size)
        return NULL;
    if ((p = lab_arena_alloc(a, n * size)))
        memset(p, 0, n * size);
    return p;
}

char *
lab_arena_strndup(lab_arena *a, const char *s, size_t len)
{
    char *p;

    if (len == SIZE_MAX || !(p = lab_arena_alloc(a, len + 1)))
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *
lab_arena_strdup(lab_arena *a, const char *s)
{
    return lab_arena_strndup(a, s, strlen(s));
}
