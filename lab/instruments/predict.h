/*
 * predict.h - "predict before you run" around a chapter's demo: which of the
 * chapter's questions (lab/catalog/questions.h) are asked before its demo, and
 * whether an answer held once the demo's report (lab/instruments/demo.h) is in.
 *
 * A question with a fixed answer is judged by lab_question_judge.  A
 * "measured" choice question is decided by the demo: the charted section
 * whose row labels (lab_demo_row_label) match most of the choices gives each
 * choice its value; the best one wins (the lowest for a time in s, ms, us or
 * ns, else the highest), unless the question has one choice that is no row
 * ("about the same") and the values of the others lie within the question's
 * tolerance of each other: then that choice is the answer.
 *
 * A demo run on the simulator gives modelled times (lab_demo_is_modelled): a decision on them
 * says "modelled for an H100, not measured".  "About the same" is decided as above (kernels
 * whose counts differ little get times that differ little); a winner only when it leads the
 * next choice by more than twice the model's median error (docs/bench/model.md: 7 % on the
 * course), else the question stays undecided, saying that the model cannot tell them apart.
 *
 * The learner's answers live in the store (lab_store_add_prediction).
 */
#ifndef LAB_INSTRUMENTS_PREDICT_H
#define LAB_INSTRUMENTS_PREDICT_H

#include <stdbool.h>

#include "lab/util/buf.h"
#include "lab/instruments/demo.h"
#include "lab/grade/lab.h"
#include "lab/catalog/questions.h"
#include "lab/grade/store.h"

/* A chapter's questions (exercises/CHAPTER/questions.ini), loaded and checked against the
 * catalog; LAB_ENOENT when the chapter has none. */
int lab_predict_questions(lab *l, const char *chapter, lab_questions *out, lab_err *err);
/* Asked before chapter's demo: it names that demo as its measurement, or it
 * belongs to the chapter alone (neither a measurement nor an exercise). */
bool lab_question_before_demo(const lab_question *q, const char *chapter);
/* Whether answer is a valid answer to q (one of the choices, or a number);
 * 0 or LAB_EINVAL saying why. */
int lab_question_check_answer(const lab_question *q, const char *answer, lab_err *err);
/* Whether p, the stored answer to q (a question of chapter), is final: its explanation has been
 * shown, by the answer itself (a fixed answer, or a question no demo of chapter measures) or by a
 * run that looked at it (held decided, or measured says why not).  A final answer is not replaced:
 * answering again, knowing the explanation, would turn a prediction into a recollection. */
bool lab_prediction_is_final(const lab_question *q, const char *chapter, const lab_prediction *p);
/* Was p judged on modelled times (its measured text says "modelled for an ..., not
 * measured")? */
bool lab_prediction_is_modelled(const lab_prediction *p);
/* The word for p's state: "your prediction held", "not this time" or "not decided yet". */
const char *lab_prediction_state(const lab_prediction *p);
/* After the demo: 1 held, 0 not, LAB_ENOSYS when r cannot decide (nothing
 * measured: no GPU; no rows for the choices); measured gets one line on what
 * was found, in every case (r may be NULL: fixed answers only). */
int lab_question_judge_demo(const lab_question *q, const char *answer, const lab_demo_report *r,
                            lab_buf *measured, lab_err *err);
/* After chapter's demo: the newest answer to each question asked before it that no run has
 * decided yet is judged by r (NULL: the demo gave no report) and the verdict stored; one that r
 * cannot decide keeps held -1 and stores why.  0, or <0 when the store fails. */
int lab_predict_judge_pending(lab_store *st, const lab_questions *qs, const char *chapter,
                              const lab_demo_report *r, lab_err *err);

#endif
