/*
 * test-dirlist.c - the files of one folder by suffix (lab/util/dirlist.h): sorted, hidden files
 * and other suffixes left out, with or without the folder, and a folder that is not there.
 */
#include "lab/util/dirlist.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const files[] = { "b.ini", "a.ini", ".hidden.ini", "notes.txt", ".ini" };

static void
make_dir(char *dir)
{
    cr_assert_not_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[512];
        FILE *fp;
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        cr_assert_not_null(fp = fopen(path, "w"));
        fclose(fp);
    }
}

static void
remove_dir(const char *dir)
{
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

Test(dirlist, names_sorted_without_the_suffix)
{
    char dir[] = "/tmp/cudalab-test-dirlist.XXXXXX";
    lab_strvec names = LAB_STRVEC_INIT;

    make_dir(dir);
    lab_strvec_push(&names, "kept");
    cr_assert_eq(lab_dirlist(dir, ".ini", false, &names), 0);
    cr_assert_eq(names.n, 3, "the entry there was, then a and b: no hidden file, no bare '.ini'");
    cr_expect_str_eq(names.v[0], "kept");
    cr_expect_str_eq(names.v[1], "a");
    cr_expect_str_eq(names.v[2], "b");
    lab_strvec_release(&names);
    remove_dir(dir);
}

Test(dirlist, paths_with_the_folder)
{
    char dir[] = "/tmp/cudalab-test-dirlist.XXXXXX", want[512];
    lab_strvec paths = LAB_STRVEC_INIT;

    make_dir(dir);
    cr_assert_eq(lab_dirlist(dir, ".txt", true, &paths), 0);
    cr_assert_eq(paths.n, 1);
    snprintf(want, sizeof(want), "%s/notes.txt", dir);
    cr_expect_str_eq(paths.v[0], want);
    lab_strvec_release(&paths);
    remove_dir(dir);
    cr_assert_eq(lab_dirlist(dir, ".txt", true, &paths), 0, "a folder that is not there: none");
    cr_expect_eq(paths.n, 0);
}
