#!/bin/bash
# cudalab predict through the real binary: a chapter's questions, judged
# answers with their explanation, measured questions, and the errors.
set -u
. "$(dirname "$0")/lib.sh"

run cudalab predict reduction
expect_status "predict lists the questions" 0
expect_out_re "a question with its id" '^\[inst-per-warp\] Which kernel executes fewer instructions per warp'
expect_out "a choice" "      - reduceNeighboredLess"
expect_out "a measured question names its run" "answered by: cudalab grade reduction/neighbored-less"

run cudalab predict reduction --json
expect_status "predict --json" 0
expect_eq "--json: four questions" "$(python3 -c "import json; print(len(json.load(open('$T/.out'))['questions']))")" 4

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
