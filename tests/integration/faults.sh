# SPDX-License-Identifier: BSD-2-Clause
# covers: fault injection: every system call the engine makes, failing with
# each error at the first, an early and a late call, in each mode.
# Retryable and not-supported errors end in exact output and exit 0; EPIPE
# in a quiet death by SIGPIPE (as cat); anything else in a message and exit
# 1. doc/TESTING.md has the same table for reviewers.
. "$(dirname "$0")/lib.sh"
need strace

out=$WORK/out
err=$WORK/err
data=$WORK/data
random "$data" 3000007
errors="EINTR EAGAIN EINVAL ENOSYS EXDEV EOPNOTSUPP EIO ENOSPC EPIPE"

# expected SYSCALL ERRNO MODE: exact, fail, pipe or cmd.
expected() {
	case $2 in EINTR|EAGAIN) echo exact; return ;; esac
	# cmd "stopped reading": its status (cat's 0) wins
	[ "$3" = command ] && [ "$2" = EPIPE ] && [ "$1" != read ] &&
	    { echo cmd; return; }
	case $1 in
	splice|copy_file_range)
		case $2 in
		EINVAL|ENOSYS|EXDEV|EOPNOTSUPP) echo exact ;;
		EPIPE) echo pipe ;;
		*) echo fail ;;
		esac ;;
	write) [ "$2" = EPIPE ] && echo pipe || echo fail ;;
	fcntl) echo exact ;;	# a pipe that cannot grow keeps its size
	*) echo fail ;;
	esac
}

# reads_before ARGS...: how many reads tach makes before its first read of
# data (the loader reads libraries, the locale its files, command mode the
# exec report pipe).
reads_before() {
	strace -qq -o "$WORK/trace" -e trace=read "$TACH" -q --no-splice \
	    -b 64k "$@" <"$data" >/dev/null 2>&1
	awk '/, 65536\) = / { print NR - 1; exit }' "$WORK/trace"
}
read_base=$(reads_before)
read_base_command=$(reads_before -f "$data" cat)

# fault SYSCALL ERRNO WHEN MODE OPTIONS...: tach with the fault injected;
# sets $status.
fault() {
	sc=$1 e=$2 at=$3 mode=$4
	shift 4
	rm -f "$out"
	inj="-qq -o /dev/null -e inject=$sc:error=$e:when=$at"
	case $mode in
	pipe-pipe) { cat "$data" | { strace $inj "$TACH" -q -b 64k "$@" \
	    2>"$err"; echo $? >"$WORK/st"; } | cat >"$out"; } ;;
	file-pipe) { strace $inj "$TACH" -q -b 64k "$@" <"$data" 2>"$err"
	    echo $? >"$WORK/st"; } | cat >"$out" ;;
	pipe-file) cat "$data" | strace $inj "$TACH" -q -b 64k "$@" \
	    >"$out" 2>"$err"; echo $? >"$WORK/st" ;;
	file-file) strace $inj "$TACH" -q -b 64k "$@" <"$data" >"$out" \
	    2>"$err"; echo $? >"$WORK/st" ;;
	command) strace $inj "$TACH" -q -b 64k "$@" -f "$data" cat \
	    >"$out" 2>"$err"; echo $? >"$WORK/st" ;;
	esac
	status=$(cat "$WORK/st")
}

# verdict SYSCALL ERRNO WHEN MODE: checks the outcome against the table.
verdict() {
	what="$1 $2 at call $3, $4"
	case $(expected "$1" "$2" "$4") in
	exact)
		check "$what: exit 0 (got $status)" [ "$status" -eq 0 ]
		check "$what: exact output" cmp -s "$data" "$out" ;;
	pipe)
		check "$what: dies of SIGPIPE (got $status)" [ "$status" -eq 141 ]
		check "$what: no message" empty "$err" ;;
	cmd)
		check "$what: cat's status, 0 (got $status)" [ "$status" -eq 0 ]
		check "$what: no message" empty "$err" ;;
	fail)
		check "$what: exit 1 (got $status)" [ "$status" -eq 1 ]
		check "$what: a message" grep -q "^tach: " "$err" ;;
	esac
}

for e in $errors; do
	for when in 1 2 30; do
		for mode in pipe-pipe file-pipe pipe-file file-file command; do
			base=$read_base
			[ $mode = command ] && base=$read_base_command
			fault read "$e" $((base + when)) $mode --no-splice
			verdict read "$e" $when $mode
			fault write "$e" $when $mode --no-splice
			verdict write "$e" $when $mode
		done
		[ "$TACH_ZEROCOPY" = 1 ] || continue
		for mode in pipe-pipe file-pipe pipe-file command; do
			fault splice "$e" $when $mode
			verdict splice "$e" $when $mode
		done
		fault copy_file_range "$e" $when file-file
		verdict copy_file_range "$e" $when file-file
	done
	if [ "$TACH_ZEROCOPY" = 1 ]; then
		for when in 1 2 3; do
			for mode in pipe-pipe file-pipe; do
				fault fcntl "$e" $when $mode
				verdict fcntl "$e" $when $mode
			done
		done
	fi
done

# poll runs only when an inherited O_NONBLOCK descriptor answers EAGAIN.
# A retryable error fails once; any other fails every call (a splice's
# first poll only probes which side to wait for, and may fail harmlessly).
for e in $errors; do
	case $e in EINTR|EAGAIN) when=1 ;; *) when=1+ ;; esac
	for opts in "" --no-splice; do
		# the data comes once tach waits in poll (or has given up)
		close_gate
		rm -f "$WORK/pid"
		{ gated; cat "$data"; } | { strace -qq -o /dev/null \
		    -e inject=poll:error=$e:when=$when sh -c \
		    'echo $$ >"$0"; exec "$@"' "$WORK/pid" "$HELPER" nonblock \
		    "$TACH" -q $opts 2>"$err"; echo $? >"$WORK/st"; } |
		    cat >"$out" &
		job=$!
		check "poll $e ($opts): tach reached poll" wait_until 60 \
		    polling "$WORK/pid"
		open_gate
		wait $job
		status=$(cat "$WORK/st")
		case $e in
		EINTR|EAGAIN)
			check "poll $e ($opts): exact" cmp -s "$data" "$out"
			check "poll $e ($opts): exit 0" [ "$status" -eq 0 ] ;;
		*)
			check "poll $e ($opts): exit 1 (got $status)" [ "$status" -eq 1 ]
			check "poll $e ($opts): a message" grep -q "^tach: " "$err" ;;
		esac
	done
done

done_testing
