#!/bin/bash
# cudalab predict through the real binary: a chapter's questions, judged
# answers with their explanation, measured questions, the answers in the store
# (and in the chapter's score), `cudalab demo` judging and showing them, and
# the errors.
set -u
. "$(dirname "$0")/lib.sh"

run cudalab predict reduction
expect_status "predict lists the questions" 0
expect_out_re "a question with its id" '^\[inst-per-warp\] Which kernel executes fewer instructions per warp'
expect_out "a choice" "      - reduceNeighboredLess"
expect_out "a measured question names its run" "answered by: cudalab grade reduction/neighbored-less"

run cudalab predict reduction --json
expect_status "predict --json" 0
expect_eq "--json: six questions" "$(python3 -c "import json; print(len(json.load(open('$T/.out'))['questions']))")" 6

run cudalab predict reduction blocks-per-sm 4
expect_status "a right prediction" 0
expect_out "says it held" "Your prediction held: the answer is 4."
expect_out "explains" "An H100 SM holds at most 64 warps"
run cudalab predict reduction volatile-last-warp "yes, clearly faster"
expect_status "a wrong prediction" 1
expect_out "says it did not hold" "Not this time: the answer is no, slower."
run cudalab predict reduction less-vs-neighbored 1.5
expect_status "a measured question" 0
expect_out "sends the learner to the run" "Now run \`cudalab grade reduction/neighbored-less\`"

expect_eq "every answer is in the store, judged where the answer is fixed (NULL: undecided)" \
    "$(db_rows "SELECT question, answer, held FROM predictions WHERE chapter = 'reduction' ORDER BY id")" \
    "blocks-per-sm|4|1
volatile-last-warp|yes, clearly faster|0
less-vs-neighbored|1.5|"

# an answer whose explanation was shown stands: answering again is refused, the store unchanged
run cudalab predict reduction blocks-per-sm 2
expect_status "re-answering after the explanation: refused" 2
expect_err "re-answering: says which answer stands" \
    "'blocks-per-sm' is answered already (you said 4: your prediction held) and its explanation was shown"
expect_eq "re-answering: nothing stored" \
    "$(db_rows "SELECT count(*) FROM predictions WHERE question = 'blocks-per-sm'")" "1"
# the listing shows each answer and whether it held
run cudalab predict reduction
expect_out "listing: the held answer" "      you said: 4  -> your prediction held"
expect_out "listing: the one that did not" "      you said: yes, clearly faster  -> not this time"
expect_out "listing: the one no run decided" "      you said: 1.5  -> not decided yet"
expect_out "listing: what decided it" "      the answer is 4"
run cudalab predict reduction --json
expect_eq "--json: the answer and whether it held" \
    "$(python3 -c "import json; q={x['id']: x for x in json.load(open('$T/.out'))['questions']}; print(q['blocks-per-sm']['answer'], q['blocks-per-sm']['held'], q['less-vs-neighbored']['held'], 'answer' in q['inst-per-warp'])")" \
    "4 True None False"

# a question the demo measures: saved, and not answered before the run
run cudalab predict divergence fastest-mathkernel "about the same"
expect_status "a question the demo measures" 0
expect_out "sends the learner to the demo" "(saved). Now run \`cudalab demo divergence\`"
expect_out_lacks "does not give the answer away" "predicated select"
# before the demo has shown anything, the learner may still change it
run cudalab predict divergence fastest-mathkernel mathKernel1
expect_status "changed before the demo: accepted" 0
run cudalab demo divergence
expect_out "demo without a GPU: the newest answer, judged on modelled times" \
    "[fastest-mathkernel] you said: mathKernel1  -> not this time"
expect_out "demo without a GPU: the decision says it was modelled" \
    "modelled for an H100, not measured: fastest block 512"
expect_out_lacks "demo without a GPU: not called measured" "measured: modelled"
expect_out "demo without a GPU: the explanation, as the menu shows it" "predicated select"
run cudalab predict divergence fastest-mathkernel mathKernel4
expect_status "after the demo showed the explanation: refused" 2
expect_err "after the demo: says so" "(you said mathKernel1: not this time) and its explanation was shown"

# the warp demo runs on the simulator: it judges the chapter's answers and shows them
run cudalab predict warp warps-40x2 2
expect_status "warp: a wrong prediction" 1
run cudalab predict warp idle-lanes 16
expect_status "warp: a right prediction" 0
run cudalab demo warp
expect_status "demo warp" 0
expect_out "demo: the chapter's predictions" "Your predictions"
expect_out "demo: the wrong one" "[warps-40x2] you said: 2  -> not this time"
expect_out "demo: the right one, with what was found" "[idle-lanes] you said: 16  -> your prediction held"
expect_out "demo: the explanation after the verdict" "80 threads need ceil(80 / 32) = 3 warps"
expect_eq "the chapter's score counts both" \
    "$(db_rows "SELECT sum(held = 1), sum(held >= 0) FROM predictions WHERE chapter = 'warp'")" "1|2"

run cudalab predict reduction blocks-per-sm four
expect_status "not a number" 2
expect_err "says so" "'four' is not a number"
run cudalab predict reduction nope 1
expect_status "unknown question" 2
expect_err "names it" "reduction has no question 'nope'"
run cudalab predict nochapter
expect_status "a chapter without questions" 2
expect_err "says so" "that chapter has no prediction questions"
run cudalab predict
expect_status "no chapter" 2
expect_err "gives the usage" "usage: cudalab predict CHAPTER"
e2e_finish
