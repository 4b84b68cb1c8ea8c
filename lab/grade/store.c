/*
 * store.c - the learner's progress in SQLite (see store.h).
 *
 * lab_store_open makes the missing parent directories; a store that does not
 * exist yet is built complete (WAL mode, schema) under a temporary name and
 * link()ed into place (create_store), because several processes turning one
 * new, empty file into a WAL database at once fail rather than wait.  Then it
 * opens the file, sets the busy timeout before anything that takes a lock,
 * asks for WAL (a no-op once set) and creates the schema if still missing,
 * under BEGIN IMMEDIATE, guarded by PRAGMA user_version.
 *
 * Each attempt is one BEGIN IMMEDIATE ... COMMIT, so a lab killed at any
 * moment loses at most the attempt under way.  Readers run a single SELECT
 * each, which sees one consistent WAL snapshot.  Statements are prepared per
 * call, never cached, so a history callback may call back into the store.
 *
 * All SQL text is constant; every value goes through a bound parameter.
 * Nothing here prints or exits: failures fill a lab_err with SQLite's message.
 */
#include "lab/grade/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <sqlite3.h>

#define STORE_SCHEMA_VERSION 3
#define STORE_BUSY_TIMEOUT_MS 5000
#define STR_(x) #x
#define STR(x) STR_(x)

struct lab_store {
    sqlite3 *db;
    char *path; /* as given to lab_store_open, for messages */
};

/*
 * Version 3 (version 1 lacked predictions, version 2 the settings; every statement is IF NOT
 * EXISTS, so running the whole text again upgrades an older store).  A zero median_ns, speedup or
 * fraction
 * ("none") is stored as NULL so that the view's min/max skip it.  "Correct" means PASS or SLOW.
 */
static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS attempts (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    exercise TEXT NOT NULL,\n"
    "    file TEXT,\n"
    "    file_hash TEXT,\n"
    "    time INTEGER NOT NULL,\n"
    "    backend TEXT,\n"
    "    device TEXT,\n"
    "    verdict TEXT NOT NULL,\n"
    "    message TEXT,\n"
    "    cases_json TEXT,\n"
    "    median_ns REAL,\n"
    "    speedup REAL,\n"
    "    fraction REAL,\n"
    "    points INTEGER\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS attempts_exercise_time ON attempts (exercise, time);\n"
    "CREATE VIEW IF NOT EXISTS best AS\n"
    "SELECT exercise,\n"
    "    count(*) AS attempts,\n"
    "    max(verdict = 'PASS') AS passed,\n"
    "    max(CASE WHEN verdict IN ('PASS', 'SLOW') THEN speedup END) AS best_speedup,\n"
    "    max(CASE WHEN verdict IN ('PASS', 'SLOW') THEN fraction END) AS best_fraction,\n"
    "    min(CASE WHEN verdict IN ('PASS', 'SLOW') AND median_ns > 0 THEN median_ns END)\n"
    "        AS best_median_ns,\n"
    "    max(points) AS best_points\n"
    "FROM attempts GROUP BY exercise;\n"
    "CREATE TABLE IF NOT EXISTS predictions (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    chapter TEXT NOT NULL,\n"
    "    question TEXT NOT NULL,\n"
    "    answer TEXT NOT NULL,\n"
    "    time INTEGER NOT NULL,\n"
    "    held INTEGER,\n" /* 1, 0, or NULL while no run has decided it */
    "    measured TEXT\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS predictions_question ON predictions (chapter, question);\n"
    "CREATE TABLE IF NOT EXISTS settings (\n"
    "    name TEXT PRIMARY KEY,\n"
    "    value TEXT NOT NULL\n"
    ");\n"
    "PRAGMA user_version = " STR(STORE_SCHEMA_VERSION) ";\n";

static const char insert_sql[] =
    "INSERT INTO attempts (exercise, file, file_hash, time, backend, device, verdict, message,"
    " cases_json, median_ns, speedup, fraction, points)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";

/* One statement, so the view and the newest verdict come from the same snapshot. */
static const char progress_sql[] =
    "SELECT attempts, passed, best_speedup, best_fraction, best_median_ns, best_points,"
    " (SELECT verdict FROM attempts WHERE exercise = ?1 ORDER BY id DESC LIMIT 1)"
    " FROM best WHERE exercise = ?1";

static const char history_sql[] =
    "SELECT exercise, file, file_hash, time, backend, device, verdict, message, cases_json,"
    " median_ns, speedup, fraction, points"
    " FROM attempts WHERE exercise = ?1 ORDER BY id";

/* Fill err from db's last error: "cannot WHAT progress store 'PATH': sqlite's message". */
static int
db_fail(sqlite3 *db, int src, const char *what, const char *path, lab_err *err)
{
    int code = (src & 0xff) == SQLITE_NOMEM ? LAB_ENOMEM : LAB_ESTORE;

    return lab_err_set(err, code, "cannot %s progress store '%s': %s", what, path,
                       sqlite3_errmsg(db));
}

/* mkdir -p the directory part of path; new directories get 0700 (XDG base directory spec). */
static int
make_parent_dirs(const char *path, lab_err *err)
{
    lab_buf dir = LAB_BUF_INIT;
    char *slash;
    int rc = 0;

    if (lab_buf_adds(&dir, path) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    slash = strrchr(dir.buf, '/');
    if (slash && slash != dir.buf) { /* not "progress.db" or "/progress.db" */
        *slash = '\0';
        rc = lab_mkdir_p(dir.buf, 0700, err);
    }
    lab_buf_release(&dir);
    return rc;
}

static int
query_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *stmt = NULL;
    int src;

    if ((src = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL)) != SQLITE_OK)
        goto out;
    if ((src = sqlite3_step(stmt)) == SQLITE_ROW) {
        *out = sqlite3_column_int(stmt, 0);
        src = SQLITE_OK;
    }
out:
    sqlite3_finalize(stmt);
    return src;
}

/* Create the schema unless some opener (maybe another process) already has. */
static int
init_schema(sqlite3 *db, const char *path, lab_err *err)
{
    int version = 0;
    int src;

    if ((src = query_int(db, "PRAGMA user_version", &version)) != SQLITE_OK)
        return db_fail(db, src, "open", path, err);
    if (version < STORE_SCHEMA_VERSION) {
        if ((src = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != SQLITE_OK ||
            (src = query_int(db, "PRAGMA user_version", &version)) != SQLITE_OK ||
            (version < STORE_SCHEMA_VERSION &&
             (src = sqlite3_exec(db, schema_sql, NULL, NULL, NULL)) != SQLITE_OK) ||
            (src = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK) {
            int rc = db_fail(db, src, "open", path, err);

            if (!sqlite3_get_autocommit(db))
                sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
    if (version > STORE_SCHEMA_VERSION)
        return lab_err_set(err, LAB_ESTORE,
                           "cannot open progress store '%s': schema version %d is newer than "
                           "this cudalab's (%d)",
                           path, version, STORE_SCHEMA_VERSION);
    return 0;
}

/* Remove a database file and its companions, if there. */
static void
remove_db_files(const char *path)
{
    static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
    lab_buf name = LAB_BUF_INIT;

    for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
        lab_buf_reset(&name);
        if (lab_buf_printf(&name, "%s%s", path, suffixes[i]) == 0)
            unlink(name.buf);
    }
    lab_buf_release(&name);
}

/*
 * Make a new store under a temporary name next to path, complete (WAL mode,
 * schema), and link() it into place.  Several processes switching one new,
 * empty file to WAL at once fail ("database is locked" without waiting, or
 * I/O errors on each other's rollback journal); this way no opener ever sees
 * a half-made store.  Losing the race (EEXIST) is fine: the winner's file is
 * as good.  Returns 1 where the filesystem has no hard links; the caller then
 * creates the store in place.
 */
static int
create_store(const char *path, lab_err *err)
{
    lab_buf tmp = LAB_BUF_INIT;
    sqlite3 *db = NULL;
    int src;
    int rc;

    if ((rc = lab_buf_printf(&tmp, "%s.new.%ld", path, (long)getpid())) < 0) {
        rc = lab_err_set(err, rc, "out of memory");
        goto out;
    }
    remove_db_files(tmp.buf); /* left by a killed process that had our pid */
    if ((src = sqlite3_open_v2(tmp.buf, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) !=
            SQLITE_OK ||
        (src = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL)) != SQLITE_OK) {
        rc = db_fail(db, src, "create", path, err);
        goto out;
    }
    if ((rc = init_schema(db, path, err)) < 0)
        goto out;
    /* the last close checkpoints: everything is in the main file afterwards */
    if ((src = sqlite3_close(db)) != SQLITE_OK) {
        rc = db_fail(db, src, "create", path, err);
        goto out;
    }
    db = NULL;
    if (link(tmp.buf, path) < 0 && errno != EEXIST) {
        if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == ENOSYS)
            rc = 1;
        else
            rc = lab_err_set(err, LAB_EIO, "cannot create progress store '%s': %s", path,
                             strerror(errno));
    }
out:
    sqlite3_close(db);
    if (tmp.len)
        remove_db_files(tmp.buf);
    lab_buf_release(&tmp);
    return rc;
}

int
lab_store_default_path(lab_buf *out, lab_err *err)
{
    const char *env;
    int rc;

    lab_buf_reset(out);
    if ((env = getenv("CUDALAB_DB")) && *env) {
        rc = lab_buf_adds(out, env);
    } else if ((env = getenv("XDG_DATA_HOME")) && env[0] == '/') {
        /* the spec says a relative XDG_DATA_HOME is invalid and to be ignored */
        size_t len = strlen(env);

        while (len > 1 && env[len - 1] == '/')
            len--;
        rc = lab_buf_printf(out, "%.*s/cudalab/progress.db", (int)len, env);
    } else if ((env = getenv("HOME")) && *env) {
        rc = lab_buf_printf(out, "%s/.local/share/cudalab/progress.db", env);
    } else {
        return lab_err_set(err, LAB_ENOENT,
                           "cannot locate the progress store: none of CUDALAB_DB, "
                           "XDG_DATA_HOME and HOME is set");
    }
    if (rc < 0)
        return lab_err_set(err, rc, "out of memory");
    return 0;
}

int
lab_store_open(const char *path, lab_store **out, lab_err *err)
{
    lab_store *st = NULL;
    int src;
    int rc;

    if (!path || !*path)
        return lab_err_set(err, LAB_EINVAL, "cannot open progress store: empty path");
    if (!(st = calloc(1, sizeof(*st))) || !(st->path = strdup(path))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = make_parent_dirs(path, err)) < 0)
        goto out;
    if (access(path, F_OK) < 0) {
        if (errno != ENOENT) {
            rc = lab_err_set(err, LAB_EIO, "cannot open progress store '%s': %s", path,
                             strerror(errno));
            goto out;
        }
        if ((rc = create_store(path, err)) < 0)
            goto out;
    }
    /*
     * sqlite3_open_v2 reads nothing yet: a file that is not a database is
     * found by the first pragma, which then fails with SQLITE_NOTADB and
     * leaves the file alone.  WAL may be refused (a filesystem without shared
     * memory); the rollback journal plus the busy timeout is still safe, only
     * slower, so the mode the pragma returns is not checked.
     */
    if ((src = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) !=
            SQLITE_OK ||
        (src = sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS)) != SQLITE_OK ||
        (src = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL)) != SQLITE_OK ||
        (src = sqlite3_exec(st->db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL)) != SQLITE_OK) {
        rc = db_fail(st->db, src, "open", path, err);
        goto out;
    }
    if ((rc = init_schema(st->db, path, err)) < 0)
        goto out;
    *out = st;
    st = NULL; /* the caller's now */
out:
    lab_store_close(st);
    return rc;
}

void
lab_store_close(lab_store *st)
{
    if (!st)
        return;
    sqlite3_close(st->db); /* every statement is finalized by the call that made it */
    free(st->path);
    free(st);
}

static int
bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
    return s ? sqlite3_bind_text(stmt, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(stmt, i);
}

/* 0 means "none" in lab_attempt and NULL in the table. */
static int
bind_measure(sqlite3_stmt *stmt, int i, double v)
{
    return v != 0 ? sqlite3_bind_double(stmt, i, v) : sqlite3_bind_null(stmt, i);
}

static int
bind_attempt(sqlite3_stmt *stmt, const lab_attempt *a)
{
    int src;

    if ((src = bind_text(stmt, 1, a->exercise)) != SQLITE_OK ||
        (src = bind_text(stmt, 2, a->file)) != SQLITE_OK ||
        (src = bind_text(stmt, 3, a->file_hash)) != SQLITE_OK ||
        (src = sqlite3_bind_int64(stmt, 4, a->time)) != SQLITE_OK ||
        (src = bind_text(stmt, 5, a->backend)) != SQLITE_OK ||
        (src = bind_text(stmt, 6, a->device)) != SQLITE_OK ||
        (src = bind_text(stmt, 7, a->verdict)) != SQLITE_OK ||
        (src = bind_text(stmt, 8, a->message)) != SQLITE_OK ||
        (src = bind_text(stmt, 9, a->cases_json)) != SQLITE_OK ||
        (src = bind_measure(stmt, 10, a->median_ns)) != SQLITE_OK ||
        (src = bind_measure(stmt, 11, a->speedup)) != SQLITE_OK ||
        (src = bind_measure(stmt, 12, a->fraction)) != SQLITE_OK ||
        (src = sqlite3_bind_int(stmt, 13, a->points)) != SQLITE_OK)
        return src;
    return SQLITE_OK;
}

int
lab_store_add_attempt(lab_store *st, const lab_attempt *a, int64_t *id_out, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    int64_t id;
    int src;
    int rc = 0;

    if (!a->exercise || !*a->exercise)
        return lab_err_set(err, LAB_EINVAL, "cannot record an attempt without an exercise");
    /* lab_progress.last_verdict must be able to hold it */
    if (!a->verdict || !*a->verdict ||
        strlen(a->verdict) >= sizeof(((lab_progress *)NULL)->last_verdict))
        return lab_err_set(err, LAB_EINVAL, "cannot record attempt of '%s': bad verdict '%s'",
                           a->exercise, a->verdict ? a->verdict : "");
    if ((src = sqlite3_prepare_v2(st->db, insert_sql, -1, &stmt, NULL)) != SQLITE_OK ||
        (src = bind_attempt(stmt, a)) != SQLITE_OK ||
        (src = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != SQLITE_OK ||
        (src = sqlite3_step(stmt)) != SQLITE_DONE) {
        rc = db_fail(st->db, src, "record an attempt in", st->path, err);
        goto out;
    }
    id = sqlite3_last_insert_rowid(st->db);
    if ((src = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK) {
        rc = db_fail(st->db, src, "record an attempt in", st->path, err);
        goto out;
    }
    if (id_out)
        *id_out = id;
out:
    sqlite3_finalize(stmt);
    if (rc < 0 && !sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL); /* the error to report is above */
    return rc;
}

/* A column as text; SQL NULL reads as "" so callers can print any field. */
static int
column_text(sqlite3_stmt *stmt, int i, const char **out)
{
    const unsigned char *s;

    if (sqlite3_column_type(stmt, i) == SQLITE_NULL) {
        *out = "";
        return SQLITE_OK;
    }
    if (!(s = sqlite3_column_text(stmt, i)))
        return SQLITE_NOMEM;
    *out = (const char *)s;
    return SQLITE_OK;
}

/* sql prepared, with ?1 and ?2 bound to p1 and p2 where they are not NULL; SQLite's code. */
static int
prepare(lab_store *st, const char *sql, sqlite3_stmt **stmt, const char *p1, const char *p2)
{
    int src;

    if ((src = sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL)) == SQLITE_OK && p1 &&
        (src = bind_text(*stmt, 1, p1)) == SQLITE_OK && p2)
        src = bind_text(*stmt, 2, p2);
    return src;
}

/* The end of a read: the statement finalized; rc, or the store's error "cannot WHAT progress
 * store" when src, SQLite's last code, is a failure. */
static int
finish(lab_store *st, sqlite3_stmt *stmt, int src, int rc, const char *what, lab_err *err)
{
    if (src != SQLITE_OK && src != SQLITE_ROW && src != SQLITE_DONE)
        rc = db_fail(st->db, src, what, st->path, err);
    sqlite3_finalize(stmt);
    return rc;
}

int
lab_store_progress(lab_store *st, const char *exercise, lab_progress *out, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    const char *verdict;
    size_t len;
    int src;

    memset(out, 0, sizeof(*out));
    if (!exercise)
        return lab_err_set(err, LAB_EINVAL, "cannot read progress: no exercise");
    /* no row: not started */
    if ((src = prepare(st, progress_sql, &stmt, exercise, NULL)) == SQLITE_OK &&
        (src = sqlite3_step(stmt)) == SQLITE_ROW &&
        (src = column_text(stmt, 6, &verdict)) == SQLITE_OK) {
        out->attempts = sqlite3_column_int(stmt, 0);
        out->passed = sqlite3_column_int(stmt, 1) != 0;
        out->best_speedup = sqlite3_column_double(stmt, 2); /* NULL reads as 0 */
        out->best_fraction = sqlite3_column_double(stmt, 3);
        out->best_median_ns = sqlite3_column_double(stmt, 4);
        out->best_points = sqlite3_column_int(stmt, 5);
        /* lab_store_add_attempt keeps verdicts short enough; cut one written otherwise */
        len = strnlen(verdict, sizeof(out->last_verdict) - 1);
        memcpy(out->last_verdict, verdict, len);
        out->last_verdict[len] = '\0';
    }
    return finish(st, stmt, src, 0, "read", err);
}

static int
read_attempt(sqlite3_stmt *stmt, lab_attempt *a)
{
    int src;

    if ((src = column_text(stmt, 0, &a->exercise)) != SQLITE_OK ||
        (src = column_text(stmt, 1, &a->file)) != SQLITE_OK ||
        (src = column_text(stmt, 2, &a->file_hash)) != SQLITE_OK ||
        (src = column_text(stmt, 4, &a->backend)) != SQLITE_OK ||
        (src = column_text(stmt, 5, &a->device)) != SQLITE_OK ||
        (src = column_text(stmt, 6, &a->verdict)) != SQLITE_OK ||
        (src = column_text(stmt, 7, &a->message)) != SQLITE_OK ||
        (src = column_text(stmt, 8, &a->cases_json)) != SQLITE_OK)
        return src;
    a->time = sqlite3_column_int64(stmt, 3);
    a->median_ns = sqlite3_column_double(stmt, 9);
    a->speedup = sqlite3_column_double(stmt, 10);
    a->fraction = sqlite3_column_double(stmt, 11);
    a->points = sqlite3_column_int(stmt, 12);
    return SQLITE_OK;
}

int
lab_store_history(lab_store *st, const char *exercise, int (*fn)(const lab_attempt *a, void *arg),
                  void *arg, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    lab_attempt a;
    int src;
    int rc = 0;

    if (!exercise)
        return lab_err_set(err, LAB_EINVAL, "cannot read history: no exercise");
    if ((src = prepare(st, history_sql, &stmt, exercise, NULL)) == SQLITE_OK)
        while ((src = sqlite3_step(stmt)) == SQLITE_ROW &&
               (src = read_attempt(stmt, &a)) == SQLITE_OK && (rc = fn(&a, arg)) == 0)
            ;
    return finish(st, stmt, src, rc, "read", err);
}

int
lab_store_check(lab_store *st, lab_buf *problems, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    int src;

    lab_buf_reset(problems);
    if ((src = prepare(st, "PRAGMA quick_check", &stmt, NULL, NULL)) == SQLITE_OK)
        while ((src = sqlite3_step(stmt)) == SQLITE_ROW) {
            const char *line = (const char *)sqlite3_column_text(stmt, 0);
            if (line && strcmp(line, "ok"))
                lab_buf_printf(problems, "%s%s", problems->len ? "; " : "", line);
        }
    for (size_t i = 0; i < problems->len; i++) /* one line: SQLite's report has several */
        if (problems->buf[i] == '\n')
            problems->buf[i] = ' ';
    return finish(st, stmt, src, problems->len ? 1 : 0, "check", err);
}

const char *
lab_store_path(const lab_store *st)
{
    return st->path;
}

/* --- predictions --------------------------------------------------------------- */

/* One statement in its own transaction (sqlite's implicit one); ?1..?6 are p's fields in order
 * (a statement need not use them all). */
static int
exec_bound(lab_store *st, const char *sql, const lab_prediction *p, const char *what, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    int src;
    int rc = 0;

    if ((src = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL)) != SQLITE_OK ||
        (src = bind_text(stmt, 1, p->chapter)) != SQLITE_OK ||
        (src = bind_text(stmt, 2, p->question)) != SQLITE_OK ||
        (src = bind_text(stmt, 3, p->answer)) != SQLITE_OK ||
        (src = sqlite3_bind_int64(stmt, 4, p->time)) != SQLITE_OK ||
        (src = (p->held < 0 ? sqlite3_bind_null(stmt, 5) : sqlite3_bind_int(stmt, 5, p->held))) !=
            SQLITE_OK ||
        (src = bind_text(stmt, 6, p->measured)) != SQLITE_OK ||
        (src = sqlite3_step(stmt)) != SQLITE_DONE)
        rc = db_fail(st->db, src, what, st->path, err);
    sqlite3_finalize(stmt);
    return rc;
}

int
lab_store_add_prediction(lab_store *st, const lab_prediction *p, lab_err *err)
{
    if (!p->chapter || !p->question || !p->answer)
        return lab_err_set(err, LAB_EINVAL, "cannot record a prediction without its question");
    return exec_bound(st,
                      "INSERT INTO predictions (chapter, question, answer, time, held, measured)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      p, "record a prediction in", err);
}

int
lab_store_judge_prediction(lab_store *st, const lab_prediction *p, lab_err *err)
{
    return exec_bound(st,
                      "UPDATE predictions SET held = ?5, measured = ?6 WHERE id = (SELECT max(id)"
                      " FROM predictions WHERE chapter = ?1 AND question = ?2 AND answer = ?3)",
                      p, "judge a prediction in", err);
}

int
lab_store_prediction(lab_store *st, const char *chapter, const char *question, lab_prediction *out,
                     lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    const char *answer, *measured;
    int src;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->held = -1;
    /* no row: not answered */
    if ((src = prepare(st,
                       "SELECT answer, time, held, measured FROM predictions"
                       " WHERE chapter = ?1 AND question = ?2 ORDER BY id DESC LIMIT 1",
                       &stmt, chapter, question)) == SQLITE_OK &&
        (src = sqlite3_step(stmt)) == SQLITE_ROW &&
        (src = column_text(stmt, 0, &answer)) == SQLITE_OK &&
        (src = column_text(stmt, 3, &measured)) == SQLITE_OK) {
        snprintf(out->answer_buf, sizeof(out->answer_buf), "%s", answer);
        snprintf(out->measured_buf, sizeof(out->measured_buf), "%s", measured);
        out->chapter = chapter;
        out->question = question;
        out->answer = out->answer_buf;
        out->measured = out->measured_buf;
        out->time = sqlite3_column_int64(stmt, 1);
        out->held = sqlite3_column_type(stmt, 2) == SQLITE_NULL ? -1 : sqlite3_column_int(stmt, 2);
        rc = 1;
    }
    return finish(st, stmt, src, rc, "read predictions from", err);
}

int
lab_store_prediction_score(lab_store *st, const char *chapter, int *right, int *judged,
                           lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    int src;

    *right = *judged = 0;
    /* the newest answer to each question counts */
    if ((src = prepare(st,
                       "SELECT count(held), coalesce(sum(held), 0) FROM predictions p WHERE"
                       " chapter = ?1 AND id = (SELECT max(id) FROM predictions q WHERE"
                       " q.chapter = p.chapter AND q.question = p.question)",
                       &stmt, chapter, NULL)) == SQLITE_OK &&
        (src = sqlite3_step(stmt)) == SQLITE_ROW) {
        *judged = sqlite3_column_int(stmt, 0);
        *right = sqlite3_column_int(stmt, 1);
    }
    return finish(st, stmt, src, 0, "read predictions from", err);
}

/* --- settings ------------------------------------------------------------------ */

int
lab_store_setting(lab_store *st, const char *name, lab_buf *out, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    const char *value;
    int src;
    int rc = 0;

    lab_buf_reset(out);
    if ((src = prepare(st, "SELECT value FROM settings WHERE name = ?1", &stmt, name, NULL)) ==
            SQLITE_OK &&
        (src = sqlite3_step(stmt)) == SQLITE_ROW &&
        (src = column_text(stmt, 0, &value)) == SQLITE_OK)
        rc = lab_buf_adds(out, value) < 0 ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 1;
    return finish(st, stmt, src, rc, "read a setting from", err);
}

int
lab_store_set_setting(lab_store *st, const char *name, const char *value, lab_err *err)
{
    sqlite3_stmt *stmt = NULL;
    int src;

    /* an empty value removes the setting: the lab's default applies again */
    src = prepare(st,
                  *value ? "INSERT OR REPLACE INTO settings (name, value) VALUES (?1, ?2)"
                         : "DELETE FROM settings WHERE name = ?1",
                  &stmt, name, *value ? value : NULL);
    if (src == SQLITE_OK)
        src = sqlite3_step(stmt);
    return finish(st, stmt, src, 0, "write a setting to", err);
}

int
lab_store_hints_seen(lab_store *st, const char *exercise, size_t *out, lab_err *err)
{
    lab_buf name = LAB_BUF_INIT, value = LAB_BUF_INIT;
    unsigned long n = 0;
    int rc;

    *out = 0;
    if (lab_buf_printf(&name, "hints:%s", exercise) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    else if ((rc = lab_store_setting(st, name.buf, &value, err)) == 1 &&
             sscanf(value.buf, "%lu", &n) == 1)
        *out = n;
    lab_buf_release(&name);
    lab_buf_release(&value);
    return rc < 0 ? rc : 0;
}

int
lab_store_set_hints_seen(lab_store *st, const char *exercise, size_t n, lab_err *err)
{
    lab_buf name = LAB_BUF_INIT;
    char value[32];
    int rc;

    snprintf(value, sizeof(value), "%zu", n);
    if (lab_buf_printf(&name, "hints:%s", exercise) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    else
        rc = lab_store_set_setting(st, name.buf, n ? value : "", err);
    lab_buf_release(&name);
    return rc;
}
