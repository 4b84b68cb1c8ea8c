/*
 * test-store.c - lab/grade/store against real SQLite files.
 *
 * Every test gets a fresh directory (mkdtemp) with its own HOME and
 * XDG_DATA_HOME inside it and no CUDALAB_DB, so nothing touches the user's
 * progress.  The concurrency and crash tests fork real processes that write
 * through their own lab_store_open; what they leave is then checked both
 * through the store and with sqlite3 directly (row counts, PRAGMA
 * integrity_check).
 */
#include "lab/grade/store.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WRITERS 4
#define PER_WRITER 50
#define KILL_ROUNDS 3
#define KILL_AFTER 20 /* attempts a looping child commits before the parent may kill it */
#define PAD_LEN 3000  /* cases_json padding, so an attempt spans several pages */
#define STR_(x) #x
#define STR(x) STR_(x)

static lab_buf tmpdir = LAB_BUF_INIT; /* this test's directory */

static int
remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)type;
    (void)ftw;
    return remove(path);
}

static void
setup(void)
{
    lab_buf b = LAB_BUF_INIT;

    cr_assert_eq(lab_buf_adds(&tmpdir, "/tmp/cudalab-test-store-XXXXXX"), 0);
    cr_assert_not_null(mkdtemp(tmpdir.buf), "mkdtemp: %s", strerror(errno));
    umask(022);
    cr_assert_eq(setenv("HOME", tmpdir.buf, 1), 0);
    cr_assert_eq(lab_buf_printf(&b, "%s/data", tmpdir.buf), 0);
    cr_assert_eq(setenv("XDG_DATA_HOME", b.buf, 1), 0);
    cr_assert_eq(unsetenv("CUDALAB_DB"), 0);
    lab_buf_release(&b);
}

static void
teardown(void)
{
    nftw(tmpdir.buf, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    lab_buf_release(&tmpdir);
}

TestSuite(store, .init = setup, .fini = teardown);

/* tmpdir/rel into out. */
static void
tmp_path(lab_buf *out, const char *rel)
{
    lab_buf_reset(out);
    cr_assert_eq(lab_buf_printf(out, "%s/%s", tmpdir.buf, rel), 0);
}

static lab_store *
open_ok(const char *path)
{
    lab_err err = LAB_ERR_INIT;
    lab_store *st = NULL;

    cr_assert_eq(lab_store_open(path, &st, &err), 0, "open '%s': %s", path, err.msg);
    cr_assert_not_null(st);
    return st;
}

static lab_attempt
attempt(const char *exercise, const char *verdict)
{
    lab_attempt a = {
        .exercise = exercise,
        .file = "kernel.cu",
        .file_hash = "0123abcd",
        .time = 1700000000,
        .backend = "sim",
        .device = "",
        .verdict = verdict,
        .message = "",
        .cases_json = "[]",
    };
    return a;
}

static int64_t
add_ok(lab_store *st, const lab_attempt *a)
{
    lab_err err = LAB_ERR_INIT;
    int64_t id = -1;

    cr_assert_eq(lab_store_add_attempt(st, a, &id, &err), 0, "add: %s", err.msg);
    cr_assert_gt(id, 0);
    return id;
}

/* The first column of the first row of sql, run on path with sqlite3 itself. */
static sqlite3_int64
sql_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    sqlite3_int64 v;

    cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK, "%s: %s", sql,
                 sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(stmt), SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
    v = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return v;
}

static void
sql_text(const char *path, const char *sql, lab_buf *out)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    const unsigned char *s;

    cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK, "%s: %s", sql,
                 sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(stmt), SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
    s = sqlite3_column_text(stmt, 0);
    lab_buf_reset(out);
    cr_assert_eq(lab_buf_adds(out, s ? (const char *)s : "(null)"), 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

static bool
exists(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0;
}

Test(store, default_path_prefers_cudalab_db)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;

    cr_assert_eq(setenv("CUDALAB_DB", "/srv/lab/my.db", 1), 0);
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    cr_assert_str_eq(path.buf, "/srv/lab/my.db");
    lab_buf_release(&path);
}

Test(store, default_path_uses_xdg_data_home)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;
    lab_buf want = LAB_BUF_INIT;

    cr_assert_eq(setenv("CUDALAB_DB", "", 1), 0); /* empty is unset */
    cr_assert_eq(setenv("XDG_DATA_HOME", "/xdg/data/", 1), 0);
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    cr_assert_str_eq(path.buf, "/xdg/data/cudalab/progress.db");

    /* a relative XDG_DATA_HOME is invalid (XDG base directory spec): HOME wins */
    cr_assert_eq(setenv("XDG_DATA_HOME", "rel/data", 1), 0);
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    tmp_path(&want, ".local/share/cudalab/progress.db");
    cr_assert_str_eq(path.buf, want.buf);
    lab_buf_release(&path);
    lab_buf_release(&want);
}

Test(store, default_path_falls_back_to_home_and_creates_nothing)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;
    lab_buf want = LAB_BUF_INIT;

    cr_assert_eq(unsetenv("XDG_DATA_HOME"), 0);
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    tmp_path(&want, ".local/share/cudalab/progress.db");
    cr_assert_str_eq(path.buf, want.buf);
    tmp_path(&want, ".local");
    cr_assert_not(exists(want.buf), "default_path must not create '%s'", want.buf);
    lab_buf_release(&path);
    lab_buf_release(&want);
}

Test(store, default_path_without_any_variable_fails)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;

    cr_assert_eq(unsetenv("XDG_DATA_HOME"), 0);
    cr_assert_eq(unsetenv("HOME"), 0);
    cr_assert_eq(lab_store_default_path(&path, &err), LAB_ENOENT);
    cr_assert_eq(err.code, LAB_ENOENT);
    cr_assert_not_null(strstr(err.msg, "CUDALAB_DB"), "%s", err.msg);
    lab_buf_release(&path);
}

Test(store, open_creates_directories_and_schema)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;
    lab_buf dir = LAB_BUF_INIT;
    lab_buf text = LAB_BUF_INIT;
    lab_store *st;
    struct stat sb;

    /* through the default path: $XDG_DATA_HOME/cudalab/progress.db */
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    tmp_path(&dir, "data/cudalab");
    cr_assert_not(exists(dir.buf));
    st = open_ok(path.buf);
    lab_store_close(st);

    cr_assert_eq(stat(dir.buf, &sb), 0);
    cr_assert(S_ISDIR(sb.st_mode));
    cr_assert_eq(sb.st_mode & 07777, 0700, "mode %o", (unsigned)(sb.st_mode & 07777));
    cr_assert(exists(path.buf));
    lab_buf_reset(&text);
    cr_assert_eq(lab_buf_printf(&text, "%s.new.%ld", path.buf, (long)getpid()), 0);
    cr_assert_not(exists(text.buf), "the temporary '%s' is left", text.buf);

    cr_assert_eq(sql_int(path.buf, "PRAGMA user_version"), 3);
    sql_text(path.buf, "PRAGMA journal_mode", &text);
    cr_assert_str_eq(text.buf, "wal");
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                                   " AND name = 'attempts'"),
                 1);
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"
                                   " AND name = 'best'"),
                 1);
    sql_text(path.buf,
             "SELECT group_concat(name) FROM pragma_index_info("
             " (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attempts'))",
             &text);
    cr_assert_str_eq(text.buf, "exercise,time");

    /* a second open finds the schema and changes nothing */
    st = open_ok(path.buf);
    lab_store_close(st);
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM sqlite_master"),
                 7); /* predictions and its index, the settings and their key, too */
    cr_assert_eq(sql_int(path.buf, "PRAGMA user_version"), 3);

    /* deeper missing directories, from CUDALAB_DB */
    tmp_path(&path, "a/b/c/cudalab/progress.db");
    cr_assert_eq(setenv("CUDALAB_DB", path.buf, 1), 0);
    lab_buf_reset(&path);
    cr_assert_eq(lab_store_default_path(&path, &err), 0, "%s", err.msg);
    st = open_ok(path.buf);
    lab_store_close(st);
    cr_assert(exists(path.buf));

    lab_buf_release(&path);
    lab_buf_release(&dir);
    lab_buf_release(&text);
}

Test(store, open_under_a_file_fails_cleanly)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf path = LAB_BUF_INIT;
    lab_store *st = NULL;

    tmp_path(&path, "plain");
    cr_assert_eq(lab_write_file(path.buf, "x", 1, &err), 0, "%s", err.msg);
    tmp_path(&path, "plain/cudalab/progress.db");
    cr_assert_lt(lab_store_open(path.buf, &st, &err), 0);
    cr_assert_null(st);
    cr_assert_not_null(strstr(err.msg, "cannot create directory"), "%s", err.msg);
    lab_buf_release(&path);
}

static int
count_cb(const lab_attempt *a, void *arg)
{
    (void)a;
    (*(int *)arg)++;
    return 0;
}

Test(store, reopen_keeps_every_field)
{
    lab_buf path = LAB_BUF_INIT;
    lab_attempt a = attempt("reduction/neighbored", "PASS");
    lab_err err = LAB_ERR_INIT;
    lab_progress p;
    lab_store *st;
    int64_t id1, id2;
    int n = 0;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);
    a.file = "/home/me/neighbored.cu";
    a.file_hash = "deadbeef";
    a.time = 1712345678;
    a.backend = "cuda";
    a.device = "NVIDIA H100 80GB HBM3";
    a.message = "all sizes correct";
    a.cases_json = "[{\"n\":1024,\"ok\":true}]";
    a.median_ns = 12345.5;
    a.speedup = 2.25;
    a.fraction = 0.75;
    a.points = 7;
    id1 = add_ok(st, &a);
    a.verdict = "WRONG";
    id2 = add_ok(st, &a);
    cr_assert_gt(id2, id1);
    lab_store_close(st);

    st = open_ok(path.buf);
    cr_assert_eq(lab_store_progress(st, "reduction/neighbored", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, 2);
    cr_assert_eq(lab_store_history(st, "reduction/neighbored", count_cb, &n, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(n, 2);
    lab_store_close(st);

    cr_assert_eq(sql_int(path.buf,
                         "SELECT count(*) FROM attempts WHERE exercise = 'reduction/neighbored'"
                         " AND file = '/home/me/neighbored.cu' AND file_hash = 'deadbeef'"
                         " AND time = 1712345678 AND backend = 'cuda'"
                         " AND device = 'NVIDIA H100 80GB HBM3' AND message = 'all sizes correct'"
                         " AND cases_json = '[{\"n\":1024,\"ok\":true}]' AND median_ns = 12345.5"
                         " AND speedup = 2.25 AND fraction = 0.75 AND points = 7"),
                 2);
    lab_buf_release(&path);
}

Test(store, progress_counts_only_correct_results)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_attempt a;
    lab_progress p;
    lab_store *st;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);

    /* a wrong kernel is fast and scores nothing: its numbers must not count */
    a = attempt("scan/blelloch", "WRONG");
    a.speedup = 50.0;
    a.fraction = 9.0;
    a.median_ns = 10.0;
    add_ok(st, &a);
    a = attempt("scan/blelloch", "SLOW");
    a.speedup = 1.5;
    a.fraction = 0.3;
    a.median_ns = 4000.0;
    a.points = 3;
    add_ok(st, &a);

    cr_assert_eq(lab_store_progress(st, "scan/blelloch", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, 2);
    cr_assert_not(p.passed, "SLOW is correct but not a pass");
    cr_assert_float_eq(p.best_speedup, 1.5, 1e-12);
    cr_assert_float_eq(p.best_median_ns, 4000.0, 1e-9);
    cr_assert_str_eq(p.last_verdict, "SLOW");

    a = attempt("scan/blelloch", "PASS");
    a.speedup = 3.0;
    a.fraction = 0.8;
    a.median_ns = 2000.0;
    a.points = 10;
    add_ok(st, &a);
    a = attempt("scan/blelloch", "PASS"); /* slower than the best pass */
    a.speedup = 2.0;
    a.fraction = 0.5;
    a.median_ns = 3000.0;
    a.points = 8;
    add_ok(st, &a);
    a = attempt("scan/blelloch", "COMPILE_ERROR");
    add_ok(st, &a);
    a = attempt("scan/other", "TIMEOUT");
    add_ok(st, &a);

    cr_assert_eq(lab_store_progress(st, "scan/blelloch", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, 5);
    cr_assert(p.passed);
    cr_assert_float_eq(p.best_speedup, 3.0, 1e-12);
    cr_assert_float_eq(p.best_fraction, 0.8, 1e-12);
    cr_assert_float_eq(p.best_median_ns, 2000.0, 1e-9);
    cr_assert_eq(p.best_points, 10);
    cr_assert_str_eq(p.last_verdict, "COMPILE_ERROR");

    cr_assert_eq(lab_store_progress(st, "scan/other", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, 1);
    cr_assert_not(p.passed);
    cr_assert_eq(p.best_speedup, 0.0);
    cr_assert_eq(p.best_median_ns, 0.0);
    cr_assert_str_eq(p.last_verdict, "TIMEOUT");

    memset(&p, 0x5a, sizeof(p));
    cr_assert_eq(lab_store_progress(st, "never/tried", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, 0);
    cr_assert_not(p.passed);
    cr_assert_eq(p.best_speedup, 0.0);
    cr_assert_eq(p.best_points, 0);
    cr_assert_str_eq(p.last_verdict, "");

    lab_store_close(st);
    lab_buf_release(&path);
}

Test(store, add_rejects_missing_fields)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_attempt a;
    lab_store *st;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);
    a = attempt(NULL, "PASS");
    cr_assert_eq(lab_store_add_attempt(st, &a, NULL, &err), LAB_EINVAL);
    a = attempt("x/y", NULL);
    cr_assert_eq(lab_store_add_attempt(st, &a, NULL, &err), LAB_EINVAL);
    a = attempt("x/y", "A_VERDICT_FAR_TOO_LONG_TO_BE_ONE_OF_OURS");
    cr_assert_eq(lab_store_add_attempt(st, &a, NULL, &err), LAB_EINVAL);
    cr_assert_eq(err.code, LAB_EINVAL);
    a = attempt("x/y", "PASS");
    a.file = NULL; /* optional fields may be absent */
    a.device = NULL;
    cr_assert_eq(lab_store_add_attempt(st, &a, NULL, &err), 0, "%s", err.msg);
    lab_store_close(st);
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM attempts"), 1);
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM attempts WHERE file IS NULL"), 1);
    lab_buf_release(&path);
}

struct seen {
    int calls;
    int stop_at; /* return 7 on this call (1-based); 0 never */
    lab_buf got; /* the message of each attempt seen */
};

static int
record_cb(const lab_attempt *a, void *arg)
{
    struct seen *s = arg;

    s->calls++;
    cr_assert_str_eq(a->exercise, "hist/a");
    cr_assert_eq(lab_buf_adds(&s->got, a->message), 0);
    return s->calls == s->stop_at ? 7 : 0;
}

Test(store, history_is_in_order_and_stops_early)
{
    static const char *const msgs[] = { "1", "2", "3", "4", "5" };
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    struct seen s = { 0, 0, LAB_BUF_INIT };
    lab_attempt a;
    lab_store *st;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);
    for (size_t i = 0; i < ARRAY_SIZE(msgs); i++) {
        a = attempt("hist/a", "FAIL");
        a.message = msgs[i];
        /* times run backwards: history follows the order of recording */
        a.time = 2000000000 - (int64_t)i;
        add_ok(st, &a);
        a = attempt("hist/b", "PASS");
        add_ok(st, &a);
    }

    cr_assert_eq(lab_store_history(st, "hist/a", record_cb, &s, &err), 0, "%s", err.msg);
    cr_assert_eq(s.calls, 5);
    cr_assert_str_eq(s.got.buf, "12345");

    s.calls = 0;
    s.stop_at = 3;
    lab_buf_reset(&s.got);
    cr_assert_eq(lab_store_history(st, "hist/a", record_cb, &s, &err), 7);
    cr_assert_eq(s.calls, 3);
    cr_assert_str_eq(s.got.buf, "123");

    s.calls = 0;
    cr_assert_eq(lab_store_history(st, "hist/none", record_cb, &s, &err), 0, "%s", err.msg);
    cr_assert_eq(s.calls, 0);

    lab_store_close(st);
    lab_buf_release(&s.got);
    lab_buf_release(&path);
}

/* A forked writer: wait for the start signal (EOF on go_fd), add PER_WRITER attempts, exit. */
static void
writer_child(const char *path, int w, int go_fd)
{
    lab_buf file = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st = NULL;
    char c;

    while (read(go_fd, &c, 1) < 0 && errno == EINTR)
        ;
    if (lab_store_open(path, &st, &err) < 0) {
        fprintf(stderr, "writer %d: %s\n", w, err.msg);
        _exit(1);
    }
    for (int i = 0; i < PER_WRITER; i++) {
        lab_attempt a = attempt("race/ex", i % 3 ? "PASS" : "FAIL");

        lab_buf_reset(&file);
        if (lab_buf_printf(&file, "w%d/%d", w, i) < 0)
            _exit(2);
        a.file = file.buf;
        a.time = time(NULL);
        a.points = w;
        if (lab_store_add_attempt(st, &a, NULL, &err) < 0) {
            fprintf(stderr, "writer %d, attempt %d: %s\n", w, i, err.msg);
            _exit(1);
        }
    }
    lab_store_close(st);
    lab_buf_release(&file);
    _exit(0);
}

Test(store, concurrent_writers_lose_nothing)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    pid_t pids[WRITERS];
    lab_progress p;
    lab_store *st;
    int go[2];

    /* the file does not exist yet: the writers also race to create the schema */
    tmp_path(&path, "data/cudalab/progress.db");
    cr_assert_eq(pipe(go), 0);
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        cr_assert_neq(pids[w], -1, "fork: %s", strerror(errno));
        if (pids[w] == 0) {
            close(go[1]);
            writer_child(path.buf, w, go[0]);
        }
    }
    close(go[0]);
    close(go[1]); /* all start at once */
    for (int w = 0; w < WRITERS; w++) {
        int status;

        while (waitpid(pids[w], &status, 0) < 0)
            cr_assert_eq(errno, EINTR);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d: status %#x", w,
                  status);
    }

    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM attempts"), WRITERS * PER_WRITER);
    cr_assert_eq(sql_int(path.buf, "SELECT count(DISTINCT file) FROM attempts"),
                 WRITERS * PER_WRITER);
    cr_assert_eq(sql_int(path.buf, "SELECT count(*) FROM (SELECT points FROM attempts"
                                   " GROUP BY points HAVING count(*) = " STR(PER_WRITER) ")"),
                 WRITERS);
    st = open_ok(path.buf);
    cr_assert_eq(lab_store_progress(st, "race/ex", &p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.attempts, WRITERS * PER_WRITER);
    cr_assert(p.passed);
    lab_store_close(st);
    lab_buf_release(&path);
}

/*
 * A forked writer that never stops: attempt number seq carries seq in every
 * field, so a torn attempt would show.  After KILL_AFTER attempts it writes a
 * byte to ready_fd; the parent then kills it.
 */
static void
looping_child(const char *path, int first, int ready_fd)
{
    lab_buf file = LAB_BUF_INIT;
    lab_buf msg = LAB_BUF_INIT;
    lab_buf cases = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st = NULL;

    if (lab_store_open(path, &st, &err) < 0) {
        fprintf(stderr, "looping writer: %s\n", err.msg);
        _exit(1);
    }
    for (int seq = first;; seq++) {
        lab_attempt a = attempt("crash/ex", "PASS");

        lab_buf_reset(&file);
        lab_buf_reset(&msg);
        lab_buf_reset(&cases);
        if (lab_buf_printf(&file, "f-%d", seq) < 0 || lab_buf_printf(&msg, "m-%d", seq) < 0 ||
            lab_buf_printf(&cases, "{\"seq\":%d,\"pad\":\"%0*d\"}", seq, PAD_LEN, 0) < 0)
            _exit(2);
        a.file = file.buf;
        a.message = msg.buf;
        a.cases_json = cases.buf;
        a.points = seq;
        a.median_ns = seq + 1;
        if (lab_store_add_attempt(st, &a, NULL, &err) < 0) {
            fprintf(stderr, "looping writer, attempt %d: %s\n", seq, err.msg);
            _exit(1);
        }
        if (seq == first + KILL_AFTER && write(ready_fd, "x", 1) != 1)
            _exit(3);
    }
}

Test(store, writer_killed_midway_leaves_whole_attempts)
{
    static const long delays_us[KILL_ROUNDS] = { 0, 3000, 11000 };
    lab_buf path = LAB_BUF_INIT;
    lab_buf text = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    sqlite3_int64 n = 0;
    lab_progress p;
    lab_store *st;

    tmp_path(&path, "progress.db");
    for (int round = 0; round < KILL_ROUNDS; round++) {
        struct timespec ts = { 0, delays_us[round] * 1000 };
        int ready[2];
        int status;
        pid_t pid;
        char c;

        cr_assert_eq(pipe(ready), 0);
        pid = fork();
        cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
        if (pid == 0) {
            close(ready[0]);
            looping_child(path.buf, (int)n, ready[1]);
        }
        close(ready[1]);
        cr_assert_eq(read(ready[0], &c, 1), 1, "the looping writer died early");
        close(ready[0]);
        nanosleep(&ts, NULL);
        cr_assert_eq(kill(pid, SIGKILL), 0);
        while (waitpid(pid, &status, 0) < 0)
            cr_assert_eq(errno, EINTR);
        cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %#x", status);

        /* the store opens (recovering the WAL) and sees whole attempts only */
        st = open_ok(path.buf);
        cr_assert_eq(lab_store_progress(st, "crash/ex", &p, &err), 0, "%s", err.msg);
        lab_store_close(st);

        sql_text(path.buf, "PRAGMA integrity_check", &text);
        cr_assert_str_eq(text.buf, "ok");
        cr_assert_gt(p.attempts, n + KILL_AFTER);
        n = sql_int(path.buf, "SELECT count(*) FROM attempts");
        cr_assert_eq(p.attempts, n);
        /* numbered 0..n-1 with no gap, each with every field written */
        cr_assert_eq(sql_int(path.buf, "SELECT count(DISTINCT points) FROM attempts"), n);
        cr_assert_eq(sql_int(path.buf, "SELECT min(points) FROM attempts"), 0);
        cr_assert_eq(sql_int(path.buf, "SELECT max(points) FROM attempts"), n - 1);
        cr_assert_eq(sql_int(path.buf,
                             "SELECT count(*) FROM attempts WHERE file = 'f-' || points"
                             " AND message = 'm-' || points AND median_ns = points + 1"
                             " AND verdict = 'PASS' AND time = 1700000000"
                             " AND cases_json LIKE '{\"seq\":' || points || ',\"pad\":\"%\"}'"
                             " AND length(cases_json) = length(points) + 17 + " STR(PAD_LEN)),
                     n);
    }
    lab_buf_release(&path);
    lab_buf_release(&text);
}

Test(store, garbage_file_is_not_a_database)
{
    static const size_t sizes[] = { 5, 100, 8192 };
    lab_buf path = LAB_BUF_INIT;
    lab_buf junk = LAB_BUF_INIT;
    lab_buf back = LAB_BUF_INIT;
    lab_buf want = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    tmp_path(&path, "progress.db");
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        lab_store *st = NULL;

        lab_buf_reset(&junk);
        for (size_t k = 0; k < sizes[i]; k++)
            cr_assert_eq(lab_buf_addch(&junk, (char)("not sqlite\n"[k % 11] ^ (k & 0x40))), 0);
        cr_assert_eq(lab_write_file(path.buf, junk.buf, junk.len, &err), 0, "%s", err.msg);

        err = (lab_err)LAB_ERR_INIT;
        cr_assert_eq(lab_store_open(path.buf, &st, &err), LAB_ESTORE, "size %zu: %s", sizes[i],
                     err.msg);
        cr_assert_null(st);
        cr_assert_eq(err.code, LAB_ESTORE);
        lab_buf_reset(&want);
        cr_assert_eq(lab_buf_printf(&want,
                                    "cannot open progress store '%s': file is not a database",
                                    path.buf),
                     0);
        cr_assert_str_eq(err.msg, want.buf);

        /* and the user's file is left as it was */
        lab_buf_reset(&back);
        cr_assert_eq(lab_buf_read_file(&back, path.buf, &err), 0, "%s", err.msg);
        cr_assert_eq(back.len, junk.len);
        cr_assert_eq(memcmp(back.buf, junk.buf, junk.len), 0);
    }
    lab_buf_release(&path);
    lab_buf_release(&junk);
    lab_buf_release(&back);
    lab_buf_release(&want);
}

Test(store, newer_schema_is_refused)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st = NULL;
    sqlite3 *db = NULL;

    tmp_path(&path, "progress.db");
    cr_assert_eq(sqlite3_open(path.buf, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA user_version = 4", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    cr_assert_eq(lab_store_open(path.buf, &st, &err), LAB_ESTORE);
    cr_assert_null(st);
    cr_assert_not_null(strstr(err.msg, "schema version 4"), "%s", err.msg);
    lab_store_close(st); /* NULL: does nothing */
    lab_buf_release(&path);
}

/* quick_check: a healthy store is 0; an index page whose cell pointers point
 * nowhere is 1, with SQLite's findings on one line. */
Test(store, check_finds_a_damaged_index)
{
    static const unsigned char bad_header[] = { 0x0d, 0x00, 0x00, 0x00, 0x05, 0x0f, 0xff };
    lab_buf path = LAB_BUF_INIT, problems = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;
    sqlite3_int64 root, page_size;
    FILE *fp;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);
    for (int i = 0; i < 5; i++) {
        lab_attempt a = attempt("reduction/neighbored", "PASS");
        add_ok(st, &a);
    }
    cr_assert_eq(lab_store_check(st, &problems, &err), 0, "%s", err.msg);
    cr_assert_eq(problems.len, 0);
    cr_assert_str_eq(lab_store_path(st), path.buf);
    lab_store_close(st);

    root = sql_int(path.buf, "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = "
                             "'attempts_exercise_time'");
    page_size = sql_int(path.buf, "PRAGMA page_size");
    cr_assert_gt(root, 1);
    cr_assert_not_null(fp = fopen(path.buf, "r+b"));
    cr_assert_eq(fseek(fp, (long)((root - 1) * page_size), SEEK_SET), 0);
    cr_assert_eq(fwrite(bad_header, 1, sizeof(bad_header), fp), sizeof(bad_header));
    cr_assert_eq(fclose(fp), 0);

    st = open_ok(path.buf);
    cr_assert_eq(lab_store_check(st, &problems, &err), 1, "%s", err.msg);
    cr_assert_not_null(strstr(problems.buf, "*** in database main ***"), "%s", problems.buf);
    cr_assert_null(strchr(problems.buf, '\n'), "%s", problems.buf);
    lab_store_close(st);
    lab_buf_release(&path);
    lab_buf_release(&problems);
}

/* A setting (the language the menu chose): unset, set, replaced, removed by an empty value. */
Test(store, settings_are_remembered_and_removed)
{
    lab_buf path = LAB_BUF_INIT, value = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_store *st;

    tmp_path(&path, "progress.db");
    st = open_ok(path.buf);
    cr_assert_eq(lab_store_setting(st, "lang", &value, &err), 0, "%s", err.msg);
    cr_assert_eq(lab_store_set_setting(st, "lang", "ko", &err), 0, "%s", err.msg);
    cr_assert_eq(lab_store_set_setting(st, "lang", "zh_CN", &err), 0, "%s", err.msg);
    lab_store_close(st);
    st = open_ok(path.buf);
    cr_assert_eq(lab_store_setting(st, "lang", &value, &err), 1, "%s", err.msg);
    cr_expect_str_eq(value.buf, "zh_CN");
    cr_assert_eq(lab_store_set_setting(st, "lang", "", &err), 0, "%s", err.msg);
    cr_expect_eq(lab_store_setting(st, "lang", &value, &err), 0, "%s", err.msg);
    cr_expect_str_eq(value.buf, "");
    lab_store_close(st);
    lab_buf_release(&value);
    lab_buf_release(&path);
}
