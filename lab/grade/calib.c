/*
 * calib.c - the calibration table in the progress database (see calib.h).
 */
#include "lab/grade/calib.h"

#include <sqlite3.h>
#include <stdlib.h>

#define BUSY_TIMEOUT_MS 5000

struct lab_calib {
    sqlite3 *db;
};

static const char schema_sql[] = "CREATE TABLE IF NOT EXISTS calibration (\n"
                                 "    device TEXT NOT NULL,\n"
                                 "    sm_clock_khz INTEGER NOT NULL,\n"
                                 "    mem_clock_khz INTEGER NOT NULL,\n"
                                 "    exercise TEXT NOT NULL,\n"
                                 "    reference_speedup REAL NOT NULL,\n"
                                 "    min_speedup REAL NOT NULL,\n"
                                 "    measured_at INTEGER NOT NULL,\n"
                                 "    PRIMARY KEY (device, sm_clock_khz, mem_clock_khz, exercise)\n"
                                 ")";

static const char put_sql[] =
    "INSERT OR REPLACE INTO calibration (device, sm_clock_khz, mem_clock_khz, exercise,"
    " reference_speedup, min_speedup, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

static const char get_sql[] =
    "SELECT reference_speedup, min_speedup, measured_at FROM calibration"
    " WHERE device = ?1 AND sm_clock_khz = ?2 AND mem_clock_khz = ?3 AND exercise = ?4";

double
lab_calib_threshold(double manifest_min_speedup, double reference_speedup)
{
    double t = 1 + (reference_speedup - 1) / 2;

    if (t > manifest_min_speedup)
        t = manifest_min_speedup;
    return t < LAB_CALIB_FLOOR ? LAB_CALIB_FLOOR : t;
}

static int
fail(sqlite3 *db, const char *what, lab_err *err)
{
    return lab_err_set(err, LAB_ESTORE, "cannot %s the calibration: %s", what,
                       db ? sqlite3_errmsg(db) : "out of memory");
}

int
lab_calib_open(const char *db_path, lab_calib **out, lab_err *err)
{
    lab_calib *c = calloc(1, sizeof(*c));

    *out = NULL;
    if (!c)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (sqlite3_open_v2(db_path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(c->db, BUSY_TIMEOUT_MS) != SQLITE_OK ||
        sqlite3_exec(c->db, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
        int rc = fail(c->db, "open", err);
        lab_calib_close(c);
        return rc;
    }
    *out = c;
    return 0;
}

void
lab_calib_close(lab_calib *c)
{
    if (!c)
        return;
    sqlite3_close(c->db);
    free(c);
}

static int
bind_key(sqlite3_stmt *st, const lab_calib_key *k, const char *exercise)
{
    return sqlite3_bind_text(st, 1, k->device, -1, SQLITE_TRANSIENT) |
           sqlite3_bind_int64(st, 2, k->sm_clock_khz) |
           sqlite3_bind_int64(st, 3, k->mem_clock_khz) |
           sqlite3_bind_text(st, 4, exercise, -1, SQLITE_TRANSIENT);
}

int
lab_calib_put(lab_calib *c, const lab_calib_key *k, const char *exercise, const lab_calib_entry *e,
              lab_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;

    if (sqlite3_prepare_v2(c->db, put_sql, -1, &st, NULL) != SQLITE_OK ||
        bind_key(st, k, exercise) != SQLITE_OK ||
        sqlite3_bind_double(st, 5, e->reference_speedup) != SQLITE_OK ||
        sqlite3_bind_double(st, 6, e->min_speedup) != SQLITE_OK ||
        sqlite3_bind_int64(st, 7, e->measured_at) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE)
        rc = fail(c->db, "store", err);
    sqlite3_finalize(st);
    return rc;
}

int
lab_calib_get(lab_calib *c, const lab_calib_key *k, const char *exercise, lab_calib_entry *out,
              bool *found, lab_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0, step;

    *found = false;
    if (sqlite3_prepare_v2(c->db, get_sql, -1, &st, NULL) != SQLITE_OK ||
        bind_key(st, k, exercise) != SQLITE_OK) {
        rc = fail(c->db, "read", err);
    } else if ((step = sqlite3_step(st)) == SQLITE_ROW) {
        out->reference_speedup = sqlite3_column_double(st, 0);
        out->min_speedup = sqlite3_column_double(st, 1);
        out->measured_at = sqlite3_column_int64(st, 2);
        *found = true;
    } else if (step != SQLITE_DONE) {
        rc = fail(c->db, "read", err);
    }
    sqlite3_finalize(st);
    return rc;
}
