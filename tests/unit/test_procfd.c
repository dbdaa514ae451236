/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * procfd_match, the one rule every system's procfd_find applies: a
 * process counts when its command name, as the system cut it, is one of
 * the names asked for.  procfd_take, the rule by which FreeBSD's, NetBSD's
 * and macOS's tables of descriptors are read, on tables shaped as those
 * systems give them (their structures exist only in their headers, so
 * the field-by-field copy into procfd_entry is checked by the cross
 * builds, not here).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <errno.h>

#include "tach/procfd.h"

static const char *const copy_names[] = { "cp", "dd",
    "a-name-longer-than-fifteen" };

static size_t
match(struct procfd_named **found, size_t *n, size_t *room, pid_t pid,
    const char *comm, size_t cut)
{
	assert_int_equal(procfd_match(found, n, room, pid, comm, cut,
	    copy_names, 3), 0);
	return *n;
}

static void
exact_names_only(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	assert_int_equal(match(&found, &n, &room, 100, "cp", 15), 1);
	assert_int_equal(found[0].pid, 100);
	assert_string_equal(found[0].name, "cp");
	/* neither a prefix nor a longer name */
	assert_int_equal(match(&found, &n, &room, 101, "c", 15), 1);
	assert_int_equal(match(&found, &n, &room, 102, "cpio", 15), 1);
	assert_int_equal(match(&found, &n, &room, 103, "dd", 15), 2);
	assert_int_equal(found[1].pid, 103);
	assert_string_equal(found[1].name, "dd");
	free(found);
}

static void
cut_names(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	/* Linux keeps 15 bytes, FreeBSD 19: each cut matches the long name */
	assert_int_equal(match(&found, &n, &room, 200,
	    "a-name-longer-t", 15), 1);
	assert_string_equal(found[0].name, "a-name-longer-than-fifteen");
	assert_int_equal(match(&found, &n, &room, 201,
	    "a-name-longer-than-", 19), 2);
	/* a name of the cut's length that is not cut: no match */
	assert_int_equal(match(&found, &n, &room, 202,
	    "a-name-longer-t", 19), 2);
	/* shorter than the cut: the system kept it whole */
	assert_int_equal(match(&found, &n, &room, 203, "a-name", 15), 2);
	free(found);
}

static void
not_this_process(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	assert_int_equal(match(&found, &n, &room, getpid(), "cp", 15), 0);
	assert_int_equal(match(&found, &n, &room, 0, "cp", 15), 0);
	assert_int_equal(match(&found, &n, &room, -1, "cp", 15), 0);
	free(found);
}

static void
grows(void **state)
{
	struct procfd_named *found = NULL;
	size_t n = 0, room = 0;

	(void)state;
	for (pid_t pid = 1000; pid < 1100; pid++)
		match(&found, &n, &room, pid, pid % 2 ? "cp" : "dd", 15);
	assert_int_equal(n, 100);
	assert_true(room >= n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(found[i].pid, 1000 + (pid_t)i);
		assert_string_equal(found[i].name, i % 2 ? "cp" : "dd");
	}
	free(found);
}

/*
 * cp's table on FreeBSD as kinfo_getfile gives it: the cwd, root and text
 * (fd < 0), stdin a tty, the source read, the destination written, a
 * socket, a disk opened read-write.
 */
static const struct procfd_entry cp_table[] = {
	{ -1, PROCFD_OTHER, "/home/u", 1, 2, 0, 0, true, false },
	{ -1, PROCFD_OTHER, "/", 1, 3, 0, 0, true, false },
	{ 0, PROCFD_DISK, "/dev/pts/0", 5, 9, 0, 0, true, true },
	{ 3, PROCFD_REGULAR, "/src/a", 1, 40, 1048576, 3000000, true, false },
	{ 4, PROCFD_REGULAR, "/dst/a", 1, 41, 524288, 524288, false, true },
	{ 5, PROCFD_OTHER, "", 0, 0, 0, 0, true, true },
	{ 6, PROCFD_DISK, "/dev/ada1", 5, 12, -1, 0, true, true },
};
#define CP_TABLE_N	(sizeof(cp_table) / sizeof(cp_table[0]))

static void
take_all(void **state)
{
	struct procfd_file *files = NULL;
	size_t n = 0, room = 0;
	bool found = false;

	(void)state;
	for (size_t i = 0; i < CP_TABLE_N; i++)
		assert_int_equal(procfd_take(&files, &n, &room, &cp_table[i],
		    -1, &found), 0);
	/* the descriptors to files and disks only, in the table's order */
	assert_int_equal(n, 4);
	assert_false(found);
	assert_int_equal(files[0].fd, 0);
	assert_int_equal(files[1].fd, 3);
	assert_string_equal(files[1].path, "/src/a");
	assert_int_equal(files[1].offset, 1048576);
	assert_int_equal(files[1].size, 3000000);
	assert_false(files[1].writing);
	assert_false(files[1].writable);
	assert_int_equal(files[1].ino, 40);
	/* written only: the destination */
	assert_int_equal(files[2].fd, 4);
	assert_true(files[2].writing);
	assert_true(files[2].writable);
	/* a disk: no size asked for, an unknown offset as 0, read-write */
	assert_int_equal(files[3].fd, 6);
	assert_int_equal(files[3].size, 0);
	assert_int_equal(files[3].offset, 0);
	assert_false(files[3].writing);
	assert_true(files[3].writable);
	procfd_free(files, n);
}

static void
take_one(void **state)
{
	struct procfd_file *files = NULL;
	size_t n = 0, room = 0;
	bool found;
	int error;

	(void)state;
	/* -d PID:4: that one only, found */
	found = false;
	for (size_t i = 0; i < CP_TABLE_N; i++)
		assert_int_equal(procfd_take(&files, &n, &room, &cp_table[i],
		    4, &found), 0);
	assert_true(found);
	assert_int_equal(n, 1);
	assert_string_equal(files[0].path, "/dst/a");
	procfd_free(files, n);
	/* -d PID:5, a socket: not a file */
	files = NULL;
	n = room = 0;
	found = false;
	error = 0;
	for (size_t i = 0; i < CP_TABLE_N && error == 0; i++)
		error = procfd_take(&files, &n, &room, &cp_table[i], 5, &found);
	assert_int_equal(error, PROCFD_NOT_FILE);
	assert_true(found);
	assert_int_equal(n, 0);
	/* -d PID:9, not in the table: not found, for EBADF */
	found = false;
	for (size_t i = 0; i < CP_TABLE_N; i++)
		assert_int_equal(procfd_take(&files, &n, &room, &cp_table[i],
		    9, &found), 0);
	assert_false(found);
	assert_int_equal(n, 0);
	free(files);
}

static void
take_no_path(void **state)
{
	/* NetBSD's /proc may name no path: "" then */
	const struct procfd_entry e = { 3, PROCFD_REGULAR, NULL, 0, 7, 10, 20,
	    true, false };
	struct procfd_file *files = NULL;
	size_t n = 0, room = 0;
	bool found = false;

	(void)state;
	assert_int_equal(procfd_take(&files, &n, &room, &e, -1, &found), 0);
	assert_int_equal(n, 1);
	assert_string_equal(files[0].path, "");
	procfd_free(files, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_names_only),
		cmocka_unit_test(cut_names),
		cmocka_unit_test(not_this_process),
		cmocka_unit_test(grows),
		cmocka_unit_test(take_all),
		cmocka_unit_test(take_one),
		cmocka_unit_test(take_no_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
