/*
 * localize.h - inside the catalog module only: the loaded catalog's local_* fields filled in
 * the learner's language (localize.c), after catalog.c has read the English files.
 *
 * Call order: catalog.c loads and sorts, then lab_catalog__localize once; the strings it sets
 * live in the catalog's arena.
 */
#ifndef LAB_CATALOG_LOCALIZE_H
#define LAB_CATALOG_LOCALIZE_H

#include <stddef.h>

#include "lab/catalog/catalog.h"
#include "lab/util/arena.h"
#include "lab/util/lang.h"

/* Every chapter's and exercise's local_* fields, from lang's translations (NULL: English). */
int lab_catalog__localize(lab_catalog *cat, lab_arena *arena, const char *datadir,
                          const lab_lang *lang);
/* Hints from a Markdown text: the bodies of its "## " sections, in the arena (catalog.c). */
int lab_catalog__split_hints(lab_arena *arena, const char *text, const char *const **out,
                             size_t *n);
void lab_catalog__set_language(lab_catalog *cat, const char *language);

#endif
