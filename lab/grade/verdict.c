/*
 * verdict.c - the verdicts and their advice (see verdict.h).
 */
#include "lab/grade/verdict.h"
#include "lab/util/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const lab_verdict_info verdicts[] = {
    [LAB_VERDICT_PASS] = { "PASS", 0, LAB_TONE_PASS, N_("on to the next step") },
    [LAB_VERDICT_WRONG] = { "WRONG", 1, LAB_TONE_FAIL,
                            N_("check the first wrong block: its range, the tail past n, the "
                               "barriers") },
    [LAB_VERDICT_SLOW] = { "SLOW", 1, LAB_TONE_SLOW,
                           N_("correct; now make it faster: read the task's hints (cudalab "
                              "show)") },
    [LAB_VERDICT_COMPILE_ERROR] = { "COMPILE_ERROR", 1, LAB_TONE_FAIL,
                                    N_("fix the first error: file and line are shown") },
    [LAB_VERDICT_RUNTIME_ERROR] = { "RUNTIME_ERROR", 1, LAB_TONE_FAIL,
                                    N_("an index past the end of an array is the usual cause") },
    [LAB_VERDICT_TIMEOUT] = { "TIMEOUT", 1, LAB_TONE_LIMIT,
                              N_("look for a loop whose condition never changes, or a barrier "
                                 "that running threads skip") },
    [LAB_VERDICT_CONSTRAINT] = { "CONSTRAINT", 1, LAB_TONE_LIMIT,
                                 N_("the task forbids or requires an instruction: read it again") },
    [LAB_VERDICT_NO_GPU] = { "NO_GPU", 1, LAB_TONE_NO_GPU,
                             N_("it compiles, but the GPU asked for is not there: grade --sim "
                                "checks it on the simulator") },
    [LAB_VERDICT_SIM_UNSUPPORTED] = { "SIM_UNSUPPORTED", 1, LAB_TONE_NO_GPU,
                                      N_("the simulator cannot run what your kernel uses; grade it "
                                         "on a machine with an NVIDIA GPU") },
};
_Static_assert(ARRAY_SIZE(verdicts) == LAB_VERDICT_COUNT, "one row per verdict");

const lab_verdict_info *
lab_verdict_describe(lab_verdict v)
{
    return (unsigned)v < LAB_VERDICT_COUNT ? &verdicts[v] : NULL;
}

int
lab_verdict_parse(const char *name, lab_verdict *out)
{
    for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++)
        if (!strcmp(verdicts[i].name, name)) {
            *out = (lab_verdict)i;
            return 0;
        }
    return LAB_EINVAL;
}

int
lab_grade_points(const lab_exercise *ex, lab_verdict v)
{
    if (v == LAB_VERDICT_PASS)
        return ex->points;
    if (v == LAB_VERDICT_SLOW)
        return ex->points / 2;
    return 0;
}

int
lab_grade_points_correct(const lab_exercise *ex)
{
    return lab_grade_points(ex, LAB_VERDICT_SLOW);
}

void
lab_grade_set(lab_grade_result *out, const lab_exercise *ex, lab_verdict v, const char *fmt, ...)
{
    va_list ap;

    memset(out, 0, sizeof(*out));
    out->verdict = v;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof(out->message), fmt, ap);
    va_end(ap);
    out->points = lab_grade_points(ex, v);
}

void
lab_grade_append(lab_grade_result *r, const char *fmt, ...)
{
    size_t len = strlen(r->message);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(r->message + len, sizeof(r->message) - len, fmt, ap);
    va_end(ap);
}

static const char flood_advice[] =
    N_("print from one thread (if (blockIdx.x == 0 && threadIdx.x == 0)) or at a small n, and take "
       "the printf out before grading: a GPU keeps 1 MiB of printf output a launch, and every "
       "line costs time");

void
lab_grade_printf_flood(lab_grade_result *out, const lab_exercise *ex, double bytes,
                       unsigned long size, bool sim)
{
    if (sim)
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR,
                      _("your kernel printed %.1f MiB at n = %lu on the simulator, and the lab "
                        "stopped it: printf from every thread floods the output (a GPU run "
                        "would not end in time)"),
                      bytes / (1 << 20), size);
    else
        lab_grade_set(out, ex, LAB_VERDICT_RUNTIME_ERROR,
                      _("your kernel printed %.1f MiB, and the lab stopped it long before its "
                        "%.0f s limit: printf from every thread floods the output (2^24 threads "
                        "print 2^24 lines)"),
                      bytes / (1 << 20), ex->run_timeout_s);
    out->advice = flood_advice;
}

const char lab_grade_launch_advice[] = N_("a launch with a grid or block the GPU refuses: at most "
                                          "1024 threads a block, and no zero dimension");

/* What to do next about a WRONG or a RUNTIME_ERROR, by what was found, where the verdict's one
 * line would send the student the wrong way: the simulator's check that fired (a case's "check"),
 * else words of the case's detail or of the error (the drivers' "was never written", the
 * simulator's "does not support" and "invalid shape": their reports carry no kind for these). */
static const struct finding_advice {
    const char *finding;
    const char *advice;
} findings[] = {
    { "shared-memory race",
      N_("two threads use one shared word with no __syncthreads() between the "
         "write and the read: put a barrier there, reached by every thread") },
    { "global-memory race",
      N_("two threads use one global word with nothing ordering them: give each "
         "word one writer, or a barrier between writer and reader") },
    { "duplicate index",
      N_("two threads computed the same index and stored to one word: work the index by hand "
         "for the two threads named (a dimension left out, a stride that overlaps); each thread "
         "stores to a word of its own, and no barrier makes this right") },
    { "warp-synchronous hazard", N_("lanes of one warp read what other lanes write with no "
                                    "barrier between: a __syncthreads() between the rounds (or "
                                    "__syncwarp() where one warp works alone, or shuffles)") },
    { "barrier in divergent code",
      N_("a __syncthreads() that threads still running skip: move it out "
         "of the if (a thread that has returned is not waited for)") },
    { "bad warp-sync mask",
      N_("the mask of a __syncwarp or __shfl_*_sync names lanes that do not "
         "all get there: use the lanes that do (or the full mask, reached by all)") },
    { "uninitialised shared memory",
      N_("a shared-memory slot is read that no thread of the block wrote: a GPU does not zero "
         "shared memory, so give every slot the block reads a value (0 for the threads past n) "
         "before the barrier") },
    { "deadlock", N_("threads wait at a barrier that others never reach: every thread that has not "
                     "returned must reach every __syncthreads()") },
    { "out-of-bounds", N_("an index past the end of an array: bound it by n (the last block may be "
                          "partial) and by the array's size") },
    { "misaligned access", N_("a vector or wide access at an address not a multiple of its size: "
                              "check the casts and the offsets") },
    { ", past n = ", N_("an element past n was written: a thread whose index is n or more must "
                        "not store (the last block is only partly inside n)") },
    { "was never written", N_("a result never stored: look for an early return or a condition that "
                              "skips the store of some blocks or threads") },
    { "does not support", N_("a limit of the simulator, not an error of yours: grade on a GPU, or "
                             "write it with the instructions the simulator runs") },
    { "invalid shape", lab_grade_launch_advice },
};

/* The first finding whose words the check's name, else the text, holds. */
const char *
lab_grade_finding_advice(const char *check, const char *text)
{
    for (size_t i = 0; i < ARRAY_SIZE(findings); i++)
        if ((check && *check && strstr(check, findings[i].finding)) ||
            strstr(text, findings[i].finding))
            return findings[i].advice;
    return NULL;
}

/* What to do next about each kind of WRONG, and whether the finding's own advice comes first. */
static const struct wrong_kind_advice {
    bool finding_first; /* the finding's words name the fault (not so for a replay) */
    const char *advice;
} wrong_kinds[] = {
    [LAB_WRONG_VALUE] = { true, N_("a value came out wrong: work the first wrong block by hand "
                                   "at that n: which elements it owns, the partial last block, "
                                   "each step of its loop") },
    [LAB_WRONG_HOST_VALUE] = { true, N_("an answer came out wrong: work the case the message "
                                        "gives by hand, one rule of the task at a time") },
    [LAB_WRONG_REPLAYED] = { false, N_("compute every result from this run's input: nothing may "
                                       "carry over from an earlier run (__device__ variables, "
                                       "what the output buffer held)") },
    [LAB_WRONG_TOO_FAST] = { false, N_("no kernel that reads its input runs that fast: read all "
                                       "of it on every run, and keep no result between runs") },
    [LAB_WRONG_BY_LUCK] = { true, N_("the simulator found undefined behaviour that gave the "
                                     "right result here by chance: fix what the message names") },
};
_Static_assert(ARRAY_SIZE(wrong_kinds) == LAB_WRONG_COUNT, "one row per kind of WRONG");

const char *
lab_grade_wrong_advice(lab_wrong_kind kind, const char *check, const char *detail)
{
    const char *found =
        wrong_kinds[kind].finding_first ? lab_grade_finding_advice(check, detail) : NULL;

    return found ? found : wrong_kinds[kind].advice;
}
