# SPDX-License-Identifier: BSD-2-Clause
# covers: nothing silent: every process tach starts has its failure
# reported, cmd's status wins when it stops reading, and an input that is
# the output file is refused before a byte moves.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/a" 300000
random "$WORK/b" 200000
cat "$WORK/a" "$WORK/b" >"$WORK/ab"
name=$(basename "$TACH")

# expect STATUS MESSAGE DESCRIPTION: the last run's $status and $err.
expect() {
	check "$3: exit $1 (got $status)" [ "$status" -eq "$1" ]
	check "$3: says '$2' (said '$(cat "$err")')" grep -qF -- "$2" "$err"
}

# -z from a pipe: the process that feeds the decompressor dies just after
# the decompressor has read a whole first member or frame, so it ends
# cleanly.  tach must not call that a success.
#
# consumed PRODUCER_DONE FEEDER DECOMPRESSOR: the producer has written the
# first member and waits at the gate, and the feeder and the decompressor
# are both asleep reading empty pipes: all of the member has gone
# through.  (x86-64 system calls: read 0, splice 275, with fd 0 as 0x0;
# xz waits in poll 7, and zstd reads in a thread of its own; i386's are
# read 3, splice 313, poll 168 and ppoll 309.)
reading_stdin() {
	for task in /proc/$1/task/*; do
		# asleep: a task just woken by data still shows the read, but runs
		sleeping "$task" || continue
		set -- $(cat "$task/syscall" 2>/dev/null)
		# x86-64's numbers, then i386's (the 32-bit build's feeder)
		case ${1:-} in
		0|275|3|313) [ "${2:-}" = 0x0 ] && return 0 ;;
		7|271|168|309) return 0 ;;
		esac
	done
	return 1
}
sleeping() {
	_st=$(cat "$1/stat" 2>/dev/null)
	_st=${_st##*) }
	[ "${_st%% *}" = S ]
}
consumed() {
	[ -e "$1" ] && reading_stdin "$2" && reading_stdin "$3"
}
# consumed, and still so a moment later: a wake-up in flight between the
# two processes' snapshots cannot pass both looks
settled() {
	consumed "$@" && sleep 0.05 && consumed "$@"
}
# start_at_boundary TOOL OPTS...: tach -z with the TOOL members a and b
# from a pipe, the second held at the gate; sets pid, dpid (TOOL) and fpid
# (the feeder) once the first member has gone through.
start_at_boundary() {
	tool=$1
	shift
	close_gate
	rm -f "$WORK/sent"
	{ cat "$WORK/a.$tool"; : >"$WORK/sent"; gated; cat "$WORK/b.$tool"; } |
	    "$TACH" -q -z "$@" >"$out" 2>"$err" &
	pid=$!
	wait_until 60 pgrep -P $pid -x $tool >/dev/null
	dpid=$(pgrep -P $pid -x $tool)
	fpid=$(pgrep -P $pid -x "$name")
	check "-z $tool $*: the decompressor read the first member" \
	    wait_until 60 settled "$WORK/sent" "$fpid" "$dpid"
}
for tool in gzip bzip2 xz zstd lz4; do
	command -v $tool >/dev/null || { echo "no $tool: not tested" >&2; continue; }
	$tool -c <"$WORK/a" >"$WORK/a.$tool"
	$tool -c <"$WORK/b" >"$WORK/b.$tool"
	cat "$WORK/a.$tool" "$WORK/b.$tool" | "$TACH" -q -z >"$out"
	check "-z $tool: two members decompress exactly" cmp -s "$WORK/ab" "$out"
	for opts in "" --no-splice; do
		start_at_boundary $tool $opts
		kill -KILL "$fpid"
		open_gate
		wait $pid
		status=$?
		expect 137 "copying stdin into $tool: Killed" \
		    "-z $tool $opts, feeder killed at a member boundary"
	done
done

# The feeder's read error, injected once the first member has gone
# through: a message naming the input, exit 1.
if command -v strace >/dev/null; then
	for opts in "" --no-splice; do
		# the portable build has no splice to fail
		[ -z "$opts" ] && [ "$TACH_ZEROCOPY" != 1 ] && continue
		case $opts in
		"") call=splice want="copying stdin into gzip: Input/output error" ;;
		*) call=read want="reading stdin: Input/output error" ;;
		esac
		start_at_boundary gzip $opts
		strace -qq -o /dev/null -p "$fpid" \
		    -e inject=$call:error=EIO:when=1 &
		tracer=$!
		# attached, or already done: the blocked call is restarted
		# under strace and fails at once
		check "-z $opts: strace attached to the feeder" wait_until 60 \
		    sh -c "! grep -q '^TracerPid:[[:space:]]*0$' /proc/$fpid/status 2>/dev/null"
		open_gate
		wait $pid
		status=$?
		wait $tracer
		expect 1 "$want" "-z $opts, the feeder's $call fails"
	done

	# --no-splice holds for every process tach starts.
	cat "$WORK/a.gzip" | strace -f -qq -o "$WORK/trace" \
	    -e trace=splice,copy_file_range,read "$TACH" -q -z --no-splice >"$out"
	check "-z --no-splice: exact" cmp -s "$WORK/a" "$out"
	check "-z --no-splice: the feeder read" grep -q "read(0, " "$WORK/trace"
	lacks "-z --no-splice: no zero-copy call in any process" \
	    "$WORK/trace" "^[0-9]+ +(splice|copy_file_range)\("
fi

# The decompressor killed by a signal: a message, then tach dies of it.
close_gate
{ cat "$WORK/a.gzip"; gated; } | "$TACH" -q -z >"$out" 2>"$err" &
pid=$!
wait_until 60 pgrep -P $pid -x gzip >/dev/null
kill -KILL "$(pgrep -P $pid -x gzip)"
open_gate
wait $pid
status=$?
expect 137 "gzip: Killed" "-z, decompressor killed"

# Command mode: cmd's status wins when it stops reading early.
random "$WORK/big" 20000000
"$TACH" -q -f "$WORK/big" sh -c 'exit 3'
status=$?
check "cmd exits 3 without reading: 3 (got $status)" [ $status -eq 3 ]
"$TACH" -q -f "$WORK/big" head -c 10 >"$out"
status=$?
check "head -c 10: 0 (got $status)" [ $status -eq 0 ]
check "head -c 10: its 10 bytes" [ "$(wc -c <"$out")" -eq 10 ]
"$TACH" -q -f "$WORK/big" sh -c 'head -c 1000 >/dev/null; kill -USR2 $$'
status=$?
check "cmd killed by SIGUSR2 after a partial read: 140 (got $status)" \
    [ $status -eq 140 ]
"$TACH" -q --no-splice -f "$WORK/big" sh -c 'head -c 1000 >/dev/null; exit 5'
status=$?
check "--no-splice, cmd exits 5 after a partial read: 5 (got $status)" \
    [ $status -eq 5 ]

# A failing splice between two pipes names no side it cannot know.
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	cat "$WORK/a" | { strace -qq -o /dev/null -e inject=splice:error=EIO:when=2 \
	    "$TACH" -q 2>"$err"; echo $? >"$WORK/st"; } | cat >/dev/null
	status=$(cat "$WORK/st")
	expect 1 "splicing stdin to stdout: Input/output error" "pipe to pipe EIO"
	lacks "pipe to pipe EIO: blames no side" "$err" "reading|writing"
	strace -qq -o /dev/null -e inject=splice:error=EIO:when=2 \
	    "$TACH" -q <"$WORK/a" 2>"$err" | cat >/dev/null
	check "file to pipe EIO: the file is read" grep -qF "reading stdin: Input/output error" "$err"
	# pipe to a file: an EIO may be a page spliced into the pipe that
	# could not be read upstream, or the file's device: no side blamed
	cat "$WORK/a" | strace -qq -o /dev/null -e inject=splice:error=EIO:when=2 \
	    "$TACH" -q -o "$WORK/o" 2>"$err"
	status=$?
	expect 1 "splicing stdin to $WORK/o: Input/output error" "pipe to file EIO"
	lacks "pipe to file EIO: blames no side" "$err" "reading|writing"
	# …while a full disk is the file's
	cat "$WORK/a" | strace -qq -o /dev/null -e inject=splice:error=ENOSPC:when=2 \
	    "$TACH" -q -o "$WORK/o" 2>"$err"
	check "pipe to file ENOSPC: the file named" \
	    grep -qF "writing $WORK/o: No space left on device" "$err"
fi

# --help and --version check that they were written.
for opt in --help --version; do
	"$TACH" $opt >/dev/full 2>"$err"
	status=$?
	expect 1 "stdout: No space left on device" "$opt >/dev/full"
done

# SIGPIPE ignored by the parent: "Broken pipe" and exit 1, as cat.
for opts in "" --no-splice; do
	(trap '' PIPE; yes | { "$TACH" -q $opts 2>"$err"; echo $? >"$WORK/st"; } |
	    head -c 10 >/dev/null)
	status=$(cat "$WORK/st")
	expect 1 "writing stdout: Broken pipe" "SIGPIPE ignored ($opts)"
done

# The input file is the output file: refused, nothing written.
cp "$WORK/a" "$WORK/f"
gzip -c <"$WORK/a" >"$WORK/f.gz"
for how in "<f >>f" "-f f >>f" "<f 1<>f" "-z -f f.gz >>f.gz"; do
	(cd "$WORK" && eval "'$TACH' -q $how" 2>"$err")
	status=$?
	expect 1 "input file is output file" "tach $how"
	check "tach $how: f untouched" cmp -s "$WORK/a" "$WORK/f"
	check "tach $how: f.gz untouched" sh -c "gzip -dc <'$WORK/f.gz' | cmp -s '$WORK/a' -"
done
(cd "$WORK" && "$TACH" -q <f >>g)
check "another file is fine" cmp -s "$WORK/a" "$WORK/g"
"$TACH" -q </dev/null >/dev/null
check "/dev/null to itself is fine" [ $? -eq 0 ]

# Closed standard descriptors: the message names the closed side.
"$TACH" -q -f "$WORK/a" >&- 2>"$err"
status=$?
expect 1 "writing stdout: Bad file descriptor" "stdout closed"
"$TACH" -q <&- >"$out" 2>"$err"
status=$?
expect 1 "reading stdin: Bad file descriptor" "stdin closed"
"$TACH" -q -f "$WORK/a" >"$out" 2>&-
check "stderr closed: exact" cmp -s "$WORK/a" "$out"
"$TACH" -q -f "$WORK/a" cat <&- >"$out"
check "stdin closed, command mode: exact" cmp -s "$WORK/a" "$out"

# A command whose descriptors cannot be set up is reported as one that
# cannot be run.
if command -v strace >/dev/null; then
	strace -f -qq -o /dev/null -e inject=dup2:error=EMFILE:when=1 \
	    "$TACH" -q -f "$WORK/a" cat >"$out" 2>"$err"
	status=$?
	expect 126 "cat: Too many open files" "dup2 fails in the child"
fi

done_testing
