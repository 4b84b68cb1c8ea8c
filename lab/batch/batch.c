/*
 * batch.c - batch grading (see batch.h): resolve submissions, find and check
 * the GPUs (gpus.h), copy each submission to a private folder, grade each in a
 * child `cudalab grade --json` pinned to the least busy GPU from a pool of
 * worker threads, keep every result in results/<id>.json, and build the
 * gradebook from the results.
 */
#include "lab/batch/batch.h"
#include "lab/batch/batch-json.h"
#include "lab/build/ptx.h"
#include "lab/util/clock.h"
#include "lab/platform/proc.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define GRADE_OUTPUT_CAP (16u << 20)
#define RESULT_CAP (256u << 20) /* bytes of one results/<id>.json read back */
#define REBUILD_EVERY 25
#define BEYOND_REFERENCE 1.5
#define COPY_FLOOR_SLACK 0.95 /* a kernel may not beat 95 % of the copy's time */
#define NO_GPU ((size_t)-1)   /* a grader pinned to none: the batch has no GPU */

struct sub {
    char *path;    /* as given */
    char *student; /* the id */
    char *safe;    /* the id as a file name, unique */
    char *file;    /* the .cu to grade (its path), NULL when unusable */
    char *dir;     /* a folder submission: the folder, and the file's name in it */
    char *name;
    char *problem; /* why it cannot be graded */
    char hash[LAB_HASH_HEX];
};

struct pool {
    lab *l;
    const lab_batch_opts *o;
    const lab_exercise *ex;
    struct sub *subs;
    size_t nsubs;
    size_t next; /* next to take */
    size_t done, skipped, graded, passed;
    lab_batch_gpus gpus;
    size_t working[LAB_BATCH_MAX_GPUS]; /* graders pinned to each GPU now */
    size_t given[LAB_BATCH_MAX_GPUS];   /* graders given each GPU so far */
    size_t timed[LAB_BATCH_MAX_GPUS];   /* submissions each GPU timed */
    lab_batch_tally verdicts[LAB_BATCH_MAX_VERDICTS];
    size_t nverdicts;
    double t0;
    pthread_mutex_t mu;
    int rc; /* first failure of the lab itself */
    lab_err err;
};

/* --- small helpers --------------------------------------------------------- */

static char *
xstrdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static const char *
base_name(const char *path)
{
    const char *s = path + strlen(path);

    while (s > path && s[-1] == '/')
        s--;
    while (s > path && s[-1] != '/')
        s--;
    return s;
}

static bool
ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);

    return a >= b && !strcmp(s + a - b, suffix);
}

static cJSON *
read_json(const char *path)
{
    lab_buf b = LAB_BUF_INIT;
    cJSON *o = NULL;

    if (lab_buf_read_regular(&b, path, RESULT_CAP, NULL) == 0)
        o = cJSON_ParseWithLength(b.buf, b.len);
    lab_buf_release(&b);
    return o;
}

/* --- submissions ------------------------------------------------------------- */

/* The .cu inside a submission folder: <name>.cu, else the only .cu.  Only its name is taken here:
 * the file is opened once, when it is copied (private_copy), where a symbolic link out of the
 * folder is refused. */
static void
find_in_dir(struct sub *s, const char *name)
{
    lab_buf want = LAB_BUF_INIT, only = LAB_BUF_INIT, p = LAB_BUF_INIT;
    DIR *d = opendir(s->path);
    struct dirent *de;
    int ncu = 0;

    lab_buf_printf(&want, "%s.cu", name);
    if (!d) {
        if (asprintf(&s->problem, "cannot read the folder '%s': %s", s->path, strerror(errno)) < 0)
            s->problem = NULL;
        goto out;
    }
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && ends_with(de->d_name, ".cu")) {
            ncu++;
            if (!strcmp(de->d_name, want.buf) || !only.len) {
                lab_buf_reset(&only);
                lab_buf_adds(&only, de->d_name);
            }
            if (!strcmp(de->d_name, want.buf))
                ncu = 1, want.buf[0] = '\0';
        }
    if (ncu != 1) {
        if (asprintf(&s->problem, "%s .cu files in '%s' and none named '%s'",
                     ncu ? "several" : "no", s->path, want.buf) < 0)
            s->problem = NULL;
        goto out;
    }
    lab_buf_printf(&p, "%s/%s", s->path, only.buf);
    s->dir = xstrdup(s->path);
    s->name = lab_buf_detach(&only);
    s->file = lab_buf_detach(&p);
out:
    if (d)
        closedir(d);
    lab_buf_release(&want);
    lab_buf_release(&only);
    lab_buf_release(&p);
}

static void
resolve(struct sub *s, const char *exname)
{
    struct stat st;
    const char *b = base_name(s->path);

    if (stat(s->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        s->student = strndup(b, strcspn(b, "/"));
        find_in_dir(s, exname);
        return;
    }
    s->student = strndup(b, ends_with(b, ".cu") ? strlen(b) - 3 : strlen(b));
    s->file = xstrdup(s->path); /* what it is, private_copy learns from the file it opens */
}

/* The submission's text, read from the one descriptor the file is opened with (the file may be
 * swapped for a link to /etc/shadow while the batch grades others: # 34); a problem becomes
 * s->problem. */
static void
read_submission(struct sub *s, lab_buf *text)
{
    lab_err rerr = LAB_ERR_INIT;
    int dirfd = AT_FDCWD;

    if (s->dir && (dirfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        lab_err_set(&rerr, LAB_EIO, "cannot read the folder '%s': %s", s->dir, strerror(errno));
    else
        lab_buf_read_untrusted(text, dirfd, s->dir ? s->name : s->file, s->file, LAB_SOURCE_CAP,
                               &rerr);
    if (dirfd >= 0)
        close(dirfd);
    if (rerr.code && asprintf(&s->problem, "%s", rerr.msg) < 0)
        s->problem = NULL;
}

/* Copy the submission to out/.work/<safe>/<name>.cu; fills s->hash.  A read failure becomes
 * s->problem. */
static int
private_copy(const char *out, const char *exname, struct sub *s, lab_buf *copy, lab_err *err)
{
    lab_buf text = LAB_BUF_INIT, dir = LAB_BUF_INIT;
    lab_hash h;
    int rc = 0;

    /* a FIFO or a device among the submissions is refused, never waited on */
    read_submission(s, &text);
    if (s->problem)
        goto out;
    lab_hash_init(&h);
    lab_hash_add(&h, text.buf, text.len);
    lab_hash_hex(&h, s->hash);
    lab_buf_printf(&dir, "%s/.work/%s", out, s->safe);
    /* the copies are the grader's alone: another user of the machine reads none of them */
    if ((rc = lab_mkdir_p(dir.buf, 0700, err)) < 0)
        goto out;
    lab_buf_printf(copy, "%s/%s.cu", dir.buf, exname);
    rc = lab_write_file(copy->buf, text.buf, text.len, err);
out:
    lab_buf_release(&text);
    lab_buf_release(&dir);
    return rc;
}

/* --- flags from the PTX and the report ------------------------------------------- */

static void
flag(cJSON *flags, const char *name, const char *reason)
{
    cJSON *f = cJSON_CreateObject();

    cJSON_AddStringToObject(f, "flag", name);
    cJSON_AddStringToObject(f, "reason", reason);
    cJSON_AddItemToArray(flags, f);
}

/* The flags for reading special registers that tell machines apart (lab/build/ptx.h) */
static const char *const reads_flags[LAB_PTX_READS_COUNT] = {
    [LAB_PTX_READS_CLOCK] = "reads-clock",
    [LAB_PTX_READS_GPU_IDS] = "reads-gpu-ids",
};

static void
ptx_flags(const char *cachedir, const char *build_hash, cJSON *flags)
{
    lab_buf path = LAB_BUF_INIT, ptx = LAB_BUF_INIT;

    lab_buf_printf(&path, "%s/build/%s.ptx", cachedir, build_hash);
    if (*build_hash && lab_buf_read_file(&ptx, path.buf, NULL) == 0) {
        if (!strstr(ptx.buf, "ld.global") && !strstr(ptx.buf, "ld.volatile.global") &&
            !strstr(ptx.buf, "ld.relaxed") && !strstr(ptx.buf, "ld.acquire"))
            flag(flags, "ignores-input", "the kernel never loads from global memory");
        for (int k = 0; k < LAB_PTX_READS_COUNT; k++)
            if (lab_ptx_reads_any(ptx.buf, (lab_ptx_reads)k)) {
                char why[128];
                snprintf(why, sizeof(why), "the kernel reads %s", lab_ptx_reads_names(k));
                flag(flags, reads_flags[k], why);
            }
        if (strstr(ptx.buf, "cudaLaunchDevice") || strstr(ptx.buf, "cudaGetParameterBuffer") ||
            strstr(ptx.buf, "\tcall"))
            flag(flags, "device-launch", "the kernel launches kernels or calls other functions");
    }
    lab_buf_release(&path);
    lab_buf_release(&ptx);
}

static void
timing_flags(const cJSON *grade, cJSON *flags)
{
    const cJSON *report = cJSON_GetObjectItemCaseSensitive(grade, "report");
    const cJSON *timings = cJSON_GetObjectItemCaseSensitive(report, "timings"), *last, *k;
    double ref = lab_batch__num(grade, "reference_speedup"), sp = lab_batch__num(grade, "speedup");
    char why[256];

    if (ref > 0 && sp > BEYOND_REFERENCE * ref) {
        snprintf(why, sizeof(why), "speedup %.2fx is more than %.1fx the reference's %.2fx", sp,
                 BEYOND_REFERENCE, ref);
        flag(flags, "beyond-reference", why);
    }
    if (!cJSON_IsArray(timings) ||
        !(last = cJSON_GetArrayItem(timings, cJSON_GetArraySize(timings) - 1)))
        return;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(last, "kernels"))
    {
        double bytes = lab_batch__num(last, "bytes"), gbps = lab_batch__num(last, "copy_gbps");
        double floor_ns = gbps > 0 ? bytes / gbps : 0; /* bytes / (GB/s) = ns */

        if (strcmp(lab_batch__str(k, "role"), "student") || floor_ns <= 0)
            continue;
        if (lab_batch__num(k, "median_ns") < COPY_FLOOR_SLACK * floor_ns) {
            snprintf(why, sizeof(why),
                     "%.1f us is below the %.1f us a copy of its input takes (%.0f GB/s now)",
                     lab_batch__num(k, "median_ns") / 1e3, floor_ns / 1e3, gbps);
            flag(flags, "below-copy-floor", why);
        }
    }
}

/* Whitespace and // comments removed: the same code typed differently hashes the same. */
static void
norm_hash(const char *path, char out[LAB_HASH_HEX])
{
    lab_buf text = LAB_BUF_INIT, n = LAB_BUF_INIT;
    lab_hash h;

    lab_buf_read_file(&text, path, NULL);
    for (size_t i = 0; i < text.len; i++) {
        if (text.buf[i] == '/' && i + 1 < text.len && text.buf[i + 1] == '/') {
            while (i < text.len && text.buf[i] != '\n')
                i++;
            continue;
        }
        if (text.buf[i] == '/' && i + 1 < text.len && text.buf[i + 1] == '*') {
            char *end = strstr(text.buf + i + 2, "*/");
            i = end ? (size_t)(end - text.buf) + 1 : text.len;
            continue;
        }
        if (text.buf[i] != ' ' && text.buf[i] != '\t' && text.buf[i] != '\n' && text.buf[i] != '\r')
            lab_buf_addch(&n, text.buf[i]);
    }
    lab_hash_init(&h);
    lab_hash_add(&h, n.buf ? n.buf : "", n.len);
    lab_hash_hex(&h, out);
    lab_buf_release(&text);
    lab_buf_release(&n);
}

/* --- grading one submission ----------------------------------------------------- */

static uint64_t
fresh_seed(void)
{
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        if (read(fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
            s = 0;
        close(fd);
    }
    if (!s)
        s = (uint64_t)(lab_clock_now() * 1e9) ^ (uint64_t)getpid();
    return s % 1000000007 + 1;
}

static cJSON *
new_result(const struct pool *pl, const struct sub *s)
{
    cJSON *r = cJSON_CreateObject();

    cJSON_AddNumberToObject(r, "version", 1);
    cJSON_AddStringToObject(r, "student", s->student);
    cJSON_AddStringToObject(r, "id", s->safe);
    cJSON_AddStringToObject(r, "source", s->path);
    cJSON_AddStringToObject(r, "exercise", pl->ex->id);
    cJSON_AddStringToObject(r, "content_hash", s->hash);
    cJSON_AddNumberToObject(r, "max_points", pl->ex->points);
    return r;
}

/* The GPU that timed the grading into r ("gpu"): gpu, the one its grader was pinned to, when its
 * driver's report says it ran there.  A report from another GPU is the lab's error: the result is
 * an ERROR, graded again by the next run.  Nothing for a grading that timed nothing on a GPU. */
static void
record_gpu(const struct pool *pl, size_t gpu, const cJSON *grade, cJSON *r)
{
    const cJSON *report = cJSON_GetObjectItemCaseSensitive(grade, "report");
    const char *uuid = lab_batch__str(cJSON_GetObjectItemCaseSensitive(report, "device"), "uuid");
    const lab_batch_gpu *g;
    cJSON *o;

    if (gpu == NO_GPU || strcmp(lab_batch__str(report, "backend"), "cuda"))
        return;
    g = &pl->gpus.gpu[gpu];
    if (*uuid && *g->uuid && strcmp(uuid, g->uuid)) {
        lab_buf msg = LAB_BUF_INIT;

        lab_buf_printf(&msg, "the grader pinned to GPU %d (%s) ran on %s", g->index, g->uuid, uuid);
        cJSON_ReplaceItemInObject(r, "verdict", cJSON_CreateString("ERROR"));
        cJSON_ReplaceItemInObject(r, "message", cJSON_CreateString(msg.buf));
        cJSON_ReplaceItemInObject(r, "points", cJSON_CreateNumber(0));
        lab_buf_release(&msg);
        return;
    }
    o = cJSON_AddObjectToObject(r, "gpu");
    cJSON_AddNumberToObject(o, "index", g->index);
    cJSON_AddStringToObject(o, "name", g->name);
    cJSON_AddStringToObject(o, "uuid", g->uuid);
    cJSON_AddStringToObject(o, "pci_bus_id", g->pci_bus_id);
}

/* Grade s in a child pinned to the batch's GPU gpu (NO_GPU: none); returns the result object
 * (NULL only when memory ran out). */
static cJSON *
grade_one(struct pool *pl, struct sub *s, const char *copy, size_t gpu)
{
    const lab_exercise *ex = pl->ex;
    cJSON *r = new_result(pl, s), *grade = NULL, *flags = cJSON_CreateArray();
    char norm[LAB_HASH_HEX], how[128];
    uint64_t seed = fresh_seed();
    lab_err err = LAB_ERR_INIT;
    double t0 = lab_clock_now();
    lab_proc p;

    lab_proc_init(&p);
    p.timeout_s = 3 * ex->build_timeout_s + ex->run_timeout_s + 60;
    p.output_cap = GRADE_OUTPUT_CAP;
    p.cancel = pl->o->cancel;
    p.die_with_parent = true; /* a batch killed by SIGKILL takes its graders along */
    lab_strvec_pushl(&p.argv, pl->o->self, "grade", ex->id, copy, "--json", "--no-record", "--seed",
                     NULL);
    lab_strvec_pushf(&p.argv, "%llu", (unsigned long long)seed);
    lab_strvec_pushf(&p.env, "CUDALAB_SANDBOX=%s", pl->o->sandbox ? "on" : "off");
    if (gpu != NO_GPU && *pl->gpus.gpu[gpu].pin)
        lab_strvec_pushf(&p.env, "CUDA_VISIBLE_DEVICES=%s", pl->gpus.gpu[gpu].pin);
    norm_hash(copy, norm);
    cJSON_AddStringToObject(r, "norm_hash", norm);
    cJSON_AddNumberToObject(r, "seed", (double)seed);
    if (lab_proc_run(&p, &err) < 0) {
        cJSON_AddStringToObject(r, "verdict", "ERROR");
        cJSON_AddStringToObject(r, "message", err.msg);
    } else if (p.cancelled) {
        cJSON_AddStringToObject(r, "verdict", "CANCELLED");
    } else if (!(grade = cJSON_ParseWithLength(p.out.buf, p.out.len)) ||
               !*lab_batch__str(grade, "verdict")) {
        size_t len = strcspn(p.errout.buf, "\n");
        cJSON_AddStringToObject(r, "verdict", "ERROR");
        lab_buf msg = LAB_BUF_INIT;
        lab_buf_printf(&msg, "the grader %s: %.*s", lab_proc_describe(&p, how, sizeof(how)),
                       (int)len, p.errout.buf);
        cJSON_AddStringToObject(r, "message", msg.buf);
        lab_buf_release(&msg);
    } else {
        cJSON_AddStringToObject(r, "verdict", lab_batch__str(grade, "verdict"));
        cJSON_AddStringToObject(r, "message", lab_batch__str(grade, "message"));
        cJSON_AddNumberToObject(r, "points", lab_batch__num(grade, "points"));
        cJSON_AddNumberToObject(r, "median_ns", lab_batch__num(grade, "median_ns"));
        cJSON_AddNumberToObject(r, "speedup", lab_batch__num(grade, "speedup"));
        cJSON_AddNumberToObject(r, "reference_speedup", lab_batch__num(grade, "reference_speedup"));
        cJSON_AddNumberToObject(r, "fraction_of_reference",
                                lab_batch__num(grade, "fraction_of_reference"));
        if (cJSON_GetObjectItemCaseSensitive(grade, "speed_line"))
            cJSON_AddItemToObject(r, "speed_line", cJSON_DetachItemFromObject(grade, "speed_line"));
        cJSON_AddStringToObject(r, "device", lab_batch__str(grade, "device"));
        cJSON_AddStringToObject(r, "compiler_log", lab_batch__str(grade, "compiler_log"));
        if (strcmp(lab_batch__str(grade, "verdict"), "COMPILE_ERROR"))
            ptx_flags(lab_cachedir(pl->l), lab_batch__str(grade, "file_hash"), flags);
        timing_flags(grade, flags);
        record_gpu(pl, gpu, grade, r);
        cJSON_AddItemToObject(r, "report", cJSON_DetachItemFromObject(grade, "report"));
    }
    if (!cJSON_GetObjectItemCaseSensitive(r, "points"))
        cJSON_AddNumberToObject(r, "points", 0);
    cJSON_AddNumberToObject(r, "elapsed_s", lab_clock_now() - t0);
    cJSON_AddItemToObject(r, "flags", flags);
    cJSON_Delete(grade);
    lab_proc_release(&p);
    return r;
}

static void
result_path(const lab_batch_opts *o, const struct sub *s, lab_buf *out)
{
    lab_buf_printf(out, "%s/results/%s.json", o->out, s->safe);
}

/* true when results/<id>.json holds this content graded for this exercise; its verdict into
 * verdict */
static bool
already_graded(const struct pool *pl, const struct sub *s, char *verdict, size_t size)
{
    lab_buf path = LAB_BUF_INIT;
    cJSON *r;
    bool same;

    result_path(pl->o, s, &path);
    r = read_json(path.buf);
    same = r && !strcmp(lab_batch__str(r, "content_hash"), s->hash) &&
           !strcmp(lab_batch__str(r, "exercise"), pl->ex->id) &&
           strcmp(lab_batch__str(r, "verdict"), "CANCELLED") &&
           strcmp(lab_batch__str(r, "verdict"), "ERROR");
    snprintf(verdict, size, "%s", same ? lab_batch__str(r, "verdict") : "");
    cJSON_Delete(r);
    lab_buf_release(&path);
    return same;
}

/* One more submission with verdict (under pl->mu). */
static void
tally(struct pool *pl, const char *verdict)
{
    size_t i;

    for (i = 0; i < pl->nverdicts && strcmp(pl->verdicts[i].verdict, verdict); i++)
        ;
    if (i == pl->nverdicts) {
        if (i == LAB_BATCH_MAX_VERDICTS)
            return; /* more kinds than the lab has verdicts: the gradebook has them all */
        snprintf(pl->verdicts[i].verdict, sizeof(pl->verdicts[i].verdict), "%s", verdict);
        pl->nverdicts++;
    }
    pl->verdicts[i].n++;
}

/* The GPU the next grader goes to (under pl->mu), NO_GPU without any. */
static size_t
take_gpu(struct pool *pl)
{
    size_t k;

    if (!pl->gpus.n)
        return NO_GPU;
    k = lab_batch_gpus_pick(pl->working, pl->given, pl->gpus.n);
    pl->working[k]++;
    pl->given[k]++;
    return k;
}

static void
report_progress(struct pool *pl, const struct sub *s, const char *verdict,
                const lab_batch_gpu *timed_on)
{
    lab_batch_progress p = { 0 };
    size_t left;
    double per;

    p.done = pl->done;
    p.total = pl->nsubs;
    p.skipped = pl->skipped;
    p.graded = pl->graded;
    p.student = s->student;
    p.verdict = verdict;
    p.timed_on = timed_on;
    p.gpus = &pl->gpus;
    p.working = pl->working;
    p.timed = pl->timed;
    p.elapsed_s = lab_clock_now() - pl->t0;
    left = pl->nsubs - pl->done;
    per = pl->graded ? p.elapsed_s / (double)pl->graded : -1;
    p.eta_s = per < 0 ? -1 : per * (double)left;
    if (pl->o->on_progress)
        pl->o->on_progress(&p, pl->o->arg);
}

static void
rebuild(struct pool *pl)
{
    const char *dirs[] = { pl->o->out };
    lab_err err = LAB_ERR_INIT;

    lab_gradebook_write(pl->o->out, dirs, 1, false, NULL, &err);
}

static void *
worker(void *arg)
{
    struct pool *pl = arg;

    for (;;) {
        struct sub *s;
        lab_buf copy = LAB_BUF_INIT, path = LAB_BUF_INIT;
        lab_err err = LAB_ERR_INIT;
        cJSON *r = NULL;
        const lab_batch_gpu *timed_on = NULL;
        char before[32] = ""; /* the verdict of a result kept from an earlier run */
        bool skip = false;
        size_t gpu = NO_GPU;
        int rc = 0;

        pthread_mutex_lock(&pl->mu);
        if (pl->next == pl->nsubs || pl->rc < 0 || (pl->o->cancel && *pl->o->cancel)) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        s = &pl->subs[pl->next++];
        pthread_mutex_unlock(&pl->mu);

        if (!s->problem)
            rc = private_copy(pl->o->out, pl->ex->name, s, &copy, &err);
        if (rc == 0 && !s->problem && !pl->o->force &&
            already_graded(pl, s, before, sizeof(before))) {
            skip = true;
        } else if (rc == 0 && s->problem) {
            r = new_result(pl, s);
            cJSON_AddStringToObject(r, "verdict", "MISSING");
            cJSON_AddStringToObject(r, "message", s->problem);
            cJSON_AddNumberToObject(r, "points", 0);
            cJSON_AddItemToObject(r, "flags", cJSON_CreateArray());
        } else if (rc == 0) {
            pthread_mutex_lock(&pl->mu);
            gpu = take_gpu(pl);
            pthread_mutex_unlock(&pl->mu);
            r = grade_one(pl, s, copy.buf, gpu);
        }
        if (r && strcmp(lab_batch__str(r, "verdict"), "CANCELLED")) {
            result_path(pl->o, s, &path);
            rc = lab_batch__write_json(path.buf, r, &err);
        }
        pthread_mutex_lock(&pl->mu);
        if (gpu != NO_GPU) {
            pl->working[gpu]--;
            if (cJSON_GetObjectItemCaseSensitive(r, "gpu")) {
                pl->timed[gpu]++;
                timed_on = &pl->gpus.gpu[gpu];
            }
        }
        if (rc < 0 && pl->rc == 0) {
            pl->rc = rc;
            pl->err = err;
        }
        if (rc == 0 && (skip || (r && strcmp(lab_batch__str(r, "verdict"), "CANCELLED")))) {
            const char *verdict = skip ? before : lab_batch__str(r, "verdict");

            pl->done++;
            if (skip)
                pl->skipped++;
            else
                pl->graded++;
            if (!strcmp(verdict, "PASS"))
                pl->passed++; /* a submission passed in an earlier run still passed */
            tally(pl, verdict);
            report_progress(pl, s, skip ? "skipped" : verdict, timed_on);
            if (pl->graded && pl->graded % REBUILD_EVERY == 0)
                rebuild(pl);
        }
        pthread_mutex_unlock(&pl->mu);
        cJSON_Delete(r);
        lab_buf_release(&copy);
        lab_buf_release(&path);
    }
}

static void
free_subs(struct sub *subs, size_t n)
{
    for (size_t i = 0; subs && i < n; i++) {
        free(subs[i].path);
        free(subs[i].student);
        free(subs[i].safe);
        free(subs[i].file);
        free(subs[i].dir);
        free(subs[i].name);
        free(subs[i].problem);
    }
    free(subs);
}

/* Resolve every submission and give each a unique file-safe id. */
static int
prepare(struct pool *pl, lab_err *err)
{
    const lab_batch_opts *o = pl->o;

    if (!(pl->subs = calloc(o->nsubs ? o->nsubs : 1, sizeof(*pl->subs))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    pl->nsubs = o->nsubs;
    for (size_t i = 0; i < o->nsubs; i++) {
        struct sub *s = &pl->subs[i];
        lab_buf safe = LAB_BUF_INIT;

        s->path = xstrdup(o->subs[i]);
        resolve(s, pl->ex->name);
        if (!s->student)
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
        lab_batch_id(s->student, &safe);
        for (int n = 2;; n++) {
            bool taken = false;
            for (size_t j = 0; j < i && !taken; j++)
                taken = !strcmp(pl->subs[j].safe, safe.buf);
            if (!taken)
                break;
            lab_buf_reset(&safe);
            lab_batch_id(s->student, &safe);
            lab_buf_printf(&safe, "-%d", n);
        }
        s->safe = lab_buf_detach(&safe);
    }
    return 0;
}

/* The GPUs the graders are spread over (gpus.h), each checked as a grader pinned to it will see
 * it: in the sandbox the graders run in, or not, as they will. */
static int
find_gpus(lab *l, const lab_batch_opts *o, lab_batch_gpus *out, lab_err *err)
{
    int rc;

    if ((rc = lab_batch_gpus_find(l, o->gpus, out, err)) < 0 || !out->n)
        return rc;
    if ((rc = lab_set_sandbox(l, o->sandbox ? LAB_SANDBOX_ON : LAB_SANDBOX_OFF, err)) < 0)
        return rc;
    return lab_batch_gpus_check(l, out, err);
}

/* The summary's order of verdicts: the most frequent first, ties by name. */
static int
by_count(const void *a, const void *b)
{
    const lab_batch_tally *x = a, *y = b;

    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->verdict, y->verdict);
}

/* One batch at a time writes a folder: the lock lives as long as the returned descriptor. */
static int
lock_out(const char *out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    int fd;

    lab_buf_printf(&path, "%s/.lock", out);
    if ((fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0)
        fd = lab_err_set(err, LAB_EIO, "cannot create '%s': %s", path.buf, strerror(errno));
    else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        close(fd);
        fd = e == EWOULDBLOCK
                 ? lab_err_set(err, LAB_EINVAL,
                               "another batch is writing '%s': wait until it ends, "
                               "or give this one another --out",
                               out)
                 : lab_err_set(err, LAB_EIO, "cannot lock '%s': %s", path.buf, strerror(e));
    }
    lab_buf_release(&path);
    return fd;
}

int
lab_batch_run(lab *l, const lab_batch_opts *o, lab_batch_summary *out, lab_err *err)
{
    struct pool pl = { .l = l, .o = o };
    pthread_t *threads = NULL;
    lab_buf dir = LAB_BUF_INIT;
    const char *dirs[] = { o->out };
    int nthreads = 0, lock = -1, rc;

    memset(out, 0, sizeof(*out));
    if (!(pl.ex = lab_catalog_find(lab_catalog_of(l), o->exercise))) {
        const char *why = lab_catalog_why_broken(lab_catalog_of(l), o->exercise);
        return lab_err_set(err, LAB_ENOENT, "%s exercise '%s'%s%s", why ? "broken" : "unknown",
                           o->exercise, why ? ": " : "", why ? why : "");
    }
    lab_buf_printf(&dir, "%s/results", o->out);
    if ((rc = lab_mkdir_p(dir.buf, 0755, err)) < 0 || (rc = lock = lock_out(o->out, err)) < 0 ||
        (rc = prepare(&pl, err)) < 0 || (rc = find_gpus(l, o, &pl.gpus, err)) < 0)
        goto out;
    pthread_mutex_init(&pl.mu, NULL);
    pl.t0 = lab_clock_now();
    if (!(threads = calloc((size_t)(o->jobs > 0 ? o->jobs : 1), sizeof(*threads)))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < (o->jobs > 0 ? o->jobs : 1); i++)
        if (pthread_create(&threads[i], NULL, worker, &pl) == 0)
            nthreads++;
    if (!nthreads)
        worker(&pl);
    for (int i = 0; i < nthreads; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&pl.mu);
    if ((rc = pl.rc) < 0) {
        *err = pl.err;
        goto out;
    }
    out->graded = pl.graded;
    out->skipped = pl.skipped;
    out->passed = pl.passed;
    out->elapsed_s = lab_clock_now() - pl.t0;
    qsort(pl.verdicts, pl.nverdicts, sizeof(pl.verdicts[0]), by_count);
    memcpy(out->verdicts, pl.verdicts, sizeof(pl.verdicts));
    out->nverdicts = pl.nverdicts;
    out->gpus = pl.gpus;
    memcpy(out->timed, pl.timed, sizeof(pl.timed));
    if ((rc = lab_gradebook_write(o->out, dirs, 1, o->gradescope, &out->flagged, err)) < 0)
        goto out;
    if (o->cancel && *o->cancel)
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
out:
    if (lock >= 0) { /* the private copies go unless asked for, while no other batch can start */
        lab_buf_reset(&dir);
        lab_buf_printf(&dir, "%s/.work", o->out);
        if (!o->keep_work)
            lab_remove_tree(dir.buf, NULL);
        close(lock);
    }
    free(threads);
    free_subs(pl.subs, pl.nsubs);
    lab_buf_release(&dir);
    return rc;
}
