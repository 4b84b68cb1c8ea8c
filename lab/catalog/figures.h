/*
 * figures.h - inside the catalog module only: the course's figures (docs/numbers.ini,
 * lab/util/numbers.h) for the texts that quote them by name (figures.c).
 *
 * Call order: catalog.c loads, sorts and localizes, then calls lab_catalog__figures once: it
 * reads the table, fills the figures into every hint (the hints are kept as text), and checks
 * that every figure the tasks and chapter texts quote has a value, so that a broken name is a
 * problem of the catalog's list rather than a surprise on the page.  Tasks and chapter texts
 * are filled in when they are read (lab_catalog_read_text).
 */
#ifndef LAB_CATALOG_FIGURES_H
#define LAB_CATALOG_FIGURES_H

#include "lab/catalog/catalog.h"
#include "lab/util/arena.h"
#include "lab/util/numbers.h"

/* One problem "file:line: message" for the catalog's list; 0 or LAB_ENOMEM. */
typedef int (*lab_catalog__problem_fn)(void *ctx, const char *text);

int lab_catalog__figures(lab_catalog *cat, lab_arena *arena, const char *datadir,
                         lab_catalog__problem_fn problem, void *ctx);
/* The table the catalog keeps (catalog.c), set once by lab_catalog__figures. */
void lab_catalog__set_numbers(lab_catalog *cat, lab_numbers *n);

#endif
