/*
 * scaffold.h - a new exercise's files (`cudalab new-exercise`).
 *
 * lab_scaffold_exercise writes, under the data dir:
 *   exercises/<chapter>/<name>/exercise.ini   format = 1, every key, TODO values marked
 *   exercises/<chapter>/<name>/task.md, hints.md, starter.cu
 *   exercises/<chapter>/<name>/examples/{ok,wrong,cheat}/   (ok/ gets a copy of the solution)
 *   solutions/<chapter>/<name>.cu
 * With like (an exercise id) the manifest's keys, the starter and the
 * solution are copied from that exercise; without it they are a template
 * for the family (lab/catalog/families.def: its preamble and parameters).  Nothing is overwritten:
 * an existing exercise or solution is LAB_EINVAL.  Every file written is added to created.
 */
#ifndef LAB_CATALOG_SCAFFOLD_H
#define LAB_CATALOG_SCAFFOLD_H

#include "lab/catalog/catalog.h"
#include "lab/catalog/family.h"
#include "lab/util/buf.h"
#include "lab/util/strvec.h"

/* datadir: where exercises/ and solutions/ are; cat: the loaded catalog (for like). */
int lab_scaffold_exercise(const char *datadir, const lab_catalog *cat, const char *id,
                          const lab_family *family, const char *like, lab_strvec *created,
                          lab_err *err);

#endif
