/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * /proc's stat and fdinfo text, as -d reads them on Linux.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tach/procparse.h"

static void
stat_line(void **state)
{
	uint64_t started = 0;

	(void)state;
	assert_int_equal(procparse_stat("1234 (sleep) S 1 1234 1234 34816 "
	    "1234 4194304 90 0 0 0 0 0 0 0 20 0 1 0 8812345 8601600 200\n",
	    &started), 0);
	assert_int_equal(started, 8812345);
	/* a command name with ") " and spaces: the last ')' counts */
	assert_int_equal(procparse_stat("7 (a) S b) R 1 7 7 0 -1 0 0 0 0 0 "
	    "0 0 0 0 20 0 1 0 42 0 0\n", &started), 0);
	assert_int_equal(started, 42);
	/* a zombie or a dead process has closed its files */
	assert_int_equal(procparse_stat("7 (z) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 42 0 0\n", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (x) X", NULL), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R", NULL), 0);
	/* one in exit(2) (PF_EXITING) closes its files at any moment */
	assert_int_equal(procparse_stat("7 (e) R 1 7 7 0 -1 4194308 0 0 0 "
	    "0 0 0 0 0 20 0 1 0 42 0 0\n", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (e) D 1 7 7 0 -1 4", NULL), ESRCH);
}

static void
stat_refused(void **state)
{
	uint64_t started = 99;

	(void)state;
	assert_int_equal(procparse_stat("", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (no paren", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r)", &started), ESRCH);
	/* too few fields, a sign, a number too large */
	assert_int_equal(procparse_stat("7 (r) R 1 2 3", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 -42 0 0", &started), ESRCH);
	assert_int_equal(procparse_stat("7 (r) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 "
	    "0 20 0 1 0 99999999999999999999 0", &started), ESRCH);
	assert_int_equal(started, 99);
}

static void
fdinfo(void **state)
{
	uint64_t pos = 0;
	int flags = 0;

	(void)state;
	assert_true(procparse_fdinfo("pos:\t1048576\nflags:\t0100002\n"
	    "mnt_id:\t29\n", &pos, &flags));
	assert_int_equal(pos, 1048576);
	assert_int_equal(flags, 0100002);
	/* flags missing: 0; the order does not matter */
	assert_true(procparse_fdinfo("mnt_id: 1\npos: 5\n", &pos, &flags));
	assert_int_equal(pos, 5);
	assert_int_equal(flags, 0);
	/* "pos:" only at a line's start, and a number */
	assert_false(procparse_fdinfo("xpos: 5\n", &pos, &flags));
	assert_false(procparse_fdinfo("pos: x\n", &pos, &flags));
	assert_false(procparse_fdinfo("", &pos, &flags));
}

static void
io(void **state)
{
	uint64_t rchar = 0, wchar = 0;

	(void)state;
	assert_true(procparse_io("rchar: 123456\nwchar: 7\nsyscr: 3\n",
	    &rchar, NULL));
	assert_int_equal(rchar, 123456);
	assert_false(procparse_io("wchar: 7\n", &rchar, NULL));
	assert_false(procparse_io("rchar: x\n", &rchar, NULL));
	assert_true(procparse_io("rchar: 10\nwchar: 42\n", NULL, &wchar));
	assert_int_equal(wchar, 42);
	assert_false(procparse_io("rchar: 10\n", NULL, &wchar));
	assert_true(procparse_io("rchar: 5\nwchar: 6\n", &rchar, &wchar));
	assert_true(rchar == 5 && wchar == 6);
	/* both asked, one missing: neither is set */
	rchar = wchar = 0;
	assert_false(procparse_io("wchar: 9\n", &rchar, &wchar));
	assert_true(rchar == 0 && wchar == 0);
}

/* Each argument's kind, as one letter: o option, s operand, t, b. */
static void
kinds(const char *want, int argc, ...)
{
	const char *argv[16];
	enum procparse_arg kind[16];
	char got[17];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, const char *);
	va_end(ap);
	procparse_sources(argv, argc, kind);
	for (int i = 0; i < argc; i++)
		got[i] = "ostb"[kind[i]];
	got[argc] = '\0';
	assert_string_equal(got, want);
}

static void
sources(void **state)
{
	(void)state;
	/* cp's and rsync's last operand is where the copy goes */
	kinds("ooosst", 6, "cp", "-r", "-a", "a", "b", "c");
	kinds("oost", 4, "/bin/cp", "-r", "a", "dst");
	kinds("ost", 3, "rsync", "src/", "dst/");
	kinds("oots", 4, "cp", "-t", "dst", "a");
	kinds("oos", 3, "cp", "--target-directory=dst", "a");
	kinds("oosots", 6, "mv", "-v", "dst", "--target-directory", "a",
	    "b");
	/* after "--", a name that starts with - is an operand */
	kinds("oosst", 5, "cp", "--", "-a", "b", "c");
	/* tar's and zip's operands are all sources; -C moves them */
	kinds("oossob", 6, "tar", "-cf", "out.tar", "a", "-C", "/x");
	kinds("oosob", 5, "bsdtar", "-c", "a", "--directory", "b");
	kinds("ooss", 4, "zip", "-r", "out.zip", "dir");
	/* stdin's "-" is an operand; a -t with nothing after it is none */
	kinds("os", 2, "tar", "-");
	kinds("oo", 2, "cp", "-t");
	kinds("", 0);
}

static void
parent(void **state)
{
	pid_t ppid = 0;

	(void)state;
	assert_true(procparse_parent("1234 (sleep) S 77 1234 1234 0\n",
	    &ppid));
	assert_int_equal(ppid, 77);
	/* a zombie's too, and a name holding ") S 9 " */
	assert_true(procparse_parent("8 (a) S 9 ) Z 1 8 8", &ppid));
	assert_int_equal(ppid, 1);
	assert_false(procparse_parent("8 (a) S", &ppid));
	assert_false(procparse_parent("8 (a) S x", &ppid));
	assert_false(procparse_parent("8 (a) S 99999999999 1", &ppid));
	assert_false(procparse_parent("8 a S 1 2", &ppid));
}

static void
environment(void **state)
{
	static const char env[] = "HOME=/root\0PWDX=/no\0PWD=/tmp/src\0"
	    "TERM=xterm";
	const char *v;

	(void)state;
	v = procparse_env(env, sizeof(env), "PWD");
	assert_non_null(v);
	assert_string_equal(v, "/tmp/src");
	v = procparse_env(env, sizeof(env), "TERM");
	assert_non_null(v);
	assert_string_equal(v, "xterm");
	assert_null(procparse_env(env, sizeof(env), "PW"));
	assert_null(procparse_env(env, sizeof(env), "SHELL"));
	/* a name at the text's very end, with no room for its value */
	assert_null(procparse_env("A=1\0PWD", 8, "PWD"));
}

static void
cpu(void **state)
{
	uint64_t ticks = 0;
	char st = 0;

	(void)state;
	/* utime 5 and stime 3, fields 14 and 15 */
	assert_true(procparse_cpu("1234 (x z) R 1 1234 1234 0 -1 4194304 90 "
	    "0 0 0 5 3 0 0 20 0 1 0 88 0 0\n", &st, &ticks));
	assert_int_equal(st, 'R');
	assert_int_equal(ticks, 8);
	assert_true(procparse_cpu("9 (a) S 1 9 9 0 -1 0 0 0 0 0 7 1", &st,
	    &ticks));
	assert_int_equal(ticks, 8);
	assert_false(procparse_cpu("9 (a) S 1 9 9 0 -1 0 0 0 0 0 7", &st,
	    &ticks));
	assert_false(procparse_cpu("9 (a) S 1 9 9 0 -1 0 0 0 0 0 x 1", &st,
	    &ticks));
	assert_false(procparse_cpu("9 a S 1", &st, &ticks));
}

static void
waits(void **state)
{
	(void)state;
	assert_int_equal(procparse_wchan("anon_pipe_read"), PROCPARSE_PIPE_IN);
	assert_int_equal(procparse_wchan("pipe_read"), PROCPARSE_PIPE_IN);
	assert_int_equal(procparse_wchan("pipe_wait_readable"),
	    PROCPARSE_PIPE_IN);
	assert_int_equal(procparse_wchan("anon_pipe_write"),
	    PROCPARSE_PIPE_OUT);
	assert_int_equal(procparse_wchan("pipe_wait_writable"),
	    PROCPARSE_PIPE_OUT);
	assert_int_equal(procparse_wchan("do_wait"), PROCPARSE_ELSEWHERE);
	assert_int_equal(procparse_wchan("0"), PROCPARSE_ELSEWHERE);
}

static void
calls(void **state)
{
	enum procparse_call call = PROCPARSE_RUNNING;
	uint64_t arg[3] = { 9, 9, 9 };

	(void)state;
	/* read(0, buf, 4096), asleep: the first three arguments */
	assert_true(procparse_syscall("0 0x0 0x7ffd5aa133d0 0x1000 0x0 0x0 "
	    "0x0 0x7ffd5aa133b8 0x7f36e2e90503\n", &call, arg));
	assert_int_equal(call, PROCPARSE_IN_CALL);
	assert_true(arg[0] == 0 && arg[1] == 0x7ffd5aa133d0 && arg[2] == 4096);
	/* copy_file_range(3, NULL, 4, …), no newline at the end */
	assert_true(procparse_syscall("326 0x3 0x0 0x4 0x0 0x7fffc000 0x0 "
	    "0x7ffe10 0x7f01", &call, arg));
	assert_true(call == PROCPARSE_IN_CALL && arg[0] == 3 && arg[2] == 4);
	assert_true(procparse_syscall("running\n", &call, arg));
	assert_int_equal(call, PROCPARSE_RUNNING);
	assert_true(procparse_syscall("-1 0x7ffe10 0x7f01\n", &call, arg));
	assert_int_equal(call, PROCPARSE_NO_CALL);
	/* not one: short, long, not hexadecimal, a bad number, empty */
	assert_false(procparse_syscall("0 0x0 0x1 0x2\n", &call, arg));
	assert_false(procparse_syscall("-1 0x1 0x2 0x3\n", &call, arg));
	assert_false(procparse_syscall("0 0x0 0x1 0x2 0x3 0x4 0x5 0x6 7\n",
	    &call, arg));
	assert_false(procparse_syscall("0 0x0 0x1 0x2 0x3 0x4 0x5 0x6 0x\n",
	    &call, arg));
	assert_false(procparse_syscall("0 0x 1 0x1 0x2 0x3 0x4 0x5 0x6 0x7",
	    &call, arg));
	assert_false(procparse_syscall("-2 0x1 0x2\n", &call, arg));
	assert_false(procparse_syscall("x 0x1 0x2\n", &call, arg));
	assert_false(procparse_syscall(" -1 0x1 0x2\n", &call, arg));
	assert_false(procparse_syscall("", &call, arg));
	assert_false(procparse_syscall("runnin", &call, arg));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_line),
		cmocka_unit_test(stat_refused),
		cmocka_unit_test(fdinfo),
		cmocka_unit_test(io),
		cmocka_unit_test(sources),
		cmocka_unit_test(parent),
		cmocka_unit_test(environment),
		cmocka_unit_test(cpu),
		cmocka_unit_test(waits),
		cmocka_unit_test(calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
