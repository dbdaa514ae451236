# SPDX-License-Identifier: BSD-2-Clause
# covers: which tier moves the bytes, the fallbacks between them under
# injected faults, and descriptors that make the engine wait.
. "$(dirname "$0")/lib.sh"
need strace

out=$WORK/out
err=$WORK/err
random "$WORK/data" 3000007

# calls SYSCALL CMD...: how many times CMD made SYSCALL.
calls() {
	sc=$1
	shift
	strace -f -qq -o "$WORK/trace" -e trace="$sc" "$@"
	grep -c "^[0-9]* *$sc(" "$WORK/trace"
}

if [ "$TACH_ZEROCOPY" = 1 ]; then
	n=$(calls splice sh -c "cat '$WORK/data' | '$TACH' -q | cat >'$out'")
	check "pipe->pipe uses splice ($n calls)" [ "$n" -gt 0 ]
	n=$(calls splice sh -c "'$TACH' -q <'$WORK/data' | cat >'$out'")
	check "file->pipe uses splice ($n calls)" [ "$n" -gt 0 ]
	n=$(calls copy_file_range sh -c "'$TACH' -q <'$WORK/data' >'$out'")
	check "file->file uses copy_file_range ($n calls)" [ "$n" -gt 0 ]
	cmp -s "$WORK/data" "$out"
	check "file->file exact" [ $? -eq 0 ]
	# (fcntl64 on 32-bit systems)
	strace -f -qq -o "$WORK/trace" -e trace=/^fcntl sh -c \
	    "cat '$WORK/data' | '$TACH' -q -b 1m | cat >/dev/null"
	check "pipes grown to the buffer size" \
	    grep -q "F_SETPIPE_SZ, 1048576" "$WORK/trace"
fi
for sc in splice copy_file_range; do
	n=$(calls $sc sh -c "cat '$WORK/data' | '$TACH' -q --no-splice | cat >'$out'")
	check "--no-splice: no $sc on pipes ($n)" [ "$n" -eq 0 ]
	n=$(calls $sc sh -c "'$TACH' -q --no-splice <'$WORK/data' >'$out'")
	check "--no-splice: no $sc on files ($n)" [ "$n" -eq 0 ]
done

# inject SYSCALL ERRNO WHEN MODE [OPTION]: tach with a fault injected.
inject() {
	sc=$1 errno=$2 at=$3 mode=$4 opt=${5:--q}
	rm -f "$out"
	case $mode in
	pipe-pipe) cat "$WORK/data" | strace -f -qq -o /dev/null \
	    -e inject="$sc:error=$errno:when=$at" "$TACH" -q "$opt" 2>"$err" |
	    cat >"$out" ;;
	file-pipe) strace -f -qq -o /dev/null \
	    -e inject="$sc:error=$errno:when=$at" "$TACH" -q "$opt" \
	    <"$WORK/data" 2>"$err" | cat >"$out" ;;
	pipe-file) cat "$WORK/data" | strace -f -qq -o /dev/null \
	    -e inject="$sc:error=$errno:when=$at" "$TACH" -q "$opt" \
	    >"$out" 2>"$err" ;;
	file-file) strace -f -qq -o /dev/null \
	    -e inject="$sc:error=$errno:when=$at" "$TACH" -q "$opt" \
	    <"$WORK/data" >"$out" 2>"$err" ;;
	esac
}

# Not supported, at the first, an early and a late call: the next tier
# takes over with nothing lost or repeated.
if [ "$TACH_ZEROCOPY" = 1 ]; then
	for errno in EINVAL ENOSYS EXDEV EOPNOTSUPP; do
		for when in 1 3 9; do
			for mode in pipe-pipe file-pipe pipe-file; do
				inject splice $errno $when $mode
				check "splice $errno at call $when ($mode) exact" \
				    cmp -s "$WORK/data" "$out"
			done
			inject copy_file_range $errno $when file-file
			check "copy_file_range $errno at call $when exact" \
			    cmp -s "$WORK/data" "$out"
		done
	done
	# Retryable errors: retried.
	for when in 1 4; do
		inject splice EINTR $when pipe-pipe
		check "splice EINTR at $when exact" cmp -s "$WORK/data" "$out"
		inject copy_file_range EINTR $when file-file
		check "copy_file_range EINTR at $when exact" cmp -s "$WORK/data" "$out"
	done
	# Real errors after data moved: a message and exit 1.
	cat "$WORK/data" | strace -f -qq -o /dev/null \
	    -e inject=splice:error=EIO:when=3 "$TACH" -q 2>"$err" >/dev/null
	check "splice EIO: exit 1" [ $? -eq 1 ]
	check "splice EIO: message" grep -q "Input/output error" "$err"
	strace -f -qq -o /dev/null -e inject=copy_file_range:error=ENOSPC:when=2 \
	    "$TACH" -q <"$WORK/data" >"$out" 2>"$err"
	check "copy_file_range ENOSPC: exit 1" [ $? -eq 1 ]
	check "copy_file_range ENOSPC: write message" \
	    grep -qF "writing stdout: No space left" "$err"
fi
# first SYSCALL FD: the number of tach's first SYSCALL on FD, counting
# the dynamic loader's and the locale's calls before it.
first() {
	"$TACH" -q --no-splice <"$WORK/data" >/dev/null 2>&1 &&
	strace -qq -o "$WORK/trace" -e trace="$1" "$TACH" -q --no-splice \
	    <"$WORK/data" >/dev/null
	awk -v call="$1($2," 'index($0, call) == 1 { print NR; exit }' \
	    "$WORK/trace"
}
reads=$(first read 0)
for when in 1 3; do
	for mode in pipe-pipe file-file; do
		inject read EINTR $((reads + when - 1)) $mode --no-splice
		check "read EINTR at $when ($mode) exact" cmp -s "$WORK/data" "$out"
		inject write EINTR $when $mode --no-splice
		check "write EINTR at $when ($mode) exact" cmp -s "$WORK/data" "$out"
	done
done
cat "$WORK/data" | strace -f -qq -o /dev/null \
    -e inject=read:error=EIO:when=$((reads + 2)) \
    "$TACH" -q --no-splice 2>"$err" >/dev/null
check "read EIO: exit 1" [ $? -eq 1 ]
check "read EIO: read message" grep -qF "reading stdin: Input/output error" "$err"
cat "$WORK/data" | strace -f -qq -o /dev/null -e inject=write:error=EIO:when=2 \
    "$TACH" -q --no-splice 2>"$err" >/dev/null
check "write EIO: exit 1" [ $? -eq 1 ]
check "write EIO: write message" grep -qF "writing stdout: Input/output error" "$err"
# A write that returns 0 is an error, never the end.
cat "$WORK/data" | strace -f -qq -o /dev/null \
    -e inject=write:retval=0:when=2 "$TACH" -q --no-splice 2>"$err" >"$out"
check "0-byte write: exit 1" [ $? -eq 1 ]

# Inherited O_NONBLOCK on both ends: EAGAIN waits in poll, never spins.
for opts in "" --no-splice; do
	( sleep 0.3; cat "$WORK/data" ) | "$HELPER" nonblock "$TACH" -q $opts |
	    ( sleep 0.3; cat ) >"$out"
	check "O_NONBLOCK both ends ($opts) exact" cmp -s "$WORK/data" "$out"
	# a spin shows as thousands of failed reads (or splices), or polls
	( sleep 1; printf x ) | strace -f -qq -o "$WORK/trace" \
	    -e trace=read,write,splice,poll,ppoll,select,pselect6 \
	    "$HELPER" nonblock "$TACH" -q $opts | cat >/dev/null
	polls=$(grep -c '^[0-9]* *p*poll(' "$WORK/trace")
	again=$(grep -c '= -1 EAGAIN' "$WORK/trace")
	check "O_NONBLOCK ($opts): no spinning ($polls polls, $again EAGAIN)" \
	    [ $((polls < 20 && again < 20)) -eq 1 ]
done

# A slow producer and a slow consumer: nothing held back, nothing lost.
for opts in "" --no-splice; do
	{ for i in 1 2 3 4 5; do printf 'line %s\n' $i; sleep 0.1; done; } |
	    "$TACH" -q $opts >"$out"
	check "slow producer ($opts)" [ "$(wc -l <"$out")" -eq 5 ]
	"$TACH" -q $opts <"$WORK/data" | {
		dd bs=65536 count=4 iflag=fullblock 2>/dev/null
		sleep 0.5
		dd bs=65536 count=4 iflag=fullblock 2>/dev/null
		sleep 0.5
		cat
	} >"$out"
	check "slow consumer ($opts)" cmp -s "$WORK/data" "$out"
done

# Nothing is held back: the producer writes its second line only after
# the first has come out of tach.  Held back, the first never comes (the
# reader gives up after a minute).
for opts in "" --no-splice; do
	close_gate
	( printf 'first\n'; gated; printf 'second\n' ) | "$TACH" -q $opts | {
		timeout 60 head -n 1 >"$out"
		open_gate
		cat >/dev/null
	}
	check "interactive ($opts): first line before the input ends" \
	    [ "$(cat "$out")" = first ]
done

# A slow reader (xz, ssh) is let drain half its pipe between moves, and a
# stream of small writes too slow to fill half the pipe soon (a
# compressor's output) is let gather for a few milliseconds: each shows as
# pauses of a millisecond or more, and neither changes a byte.
if [ "$TACH_ZEROCOPY" = 1 ] && command -v python3 >/dev/null; then
	random "$WORK/four" 4194304
	for opts in "" "-b 8m"; do
		strace -f -qq -o "$WORK/trace" -e trace=/nanosleep "$TACH" -q \
		    $opts -f "$WORK/four" | python3 -c '
import os, sys, time
with open(sys.argv[1], "wb") as f:
    while (b := os.read(0, 4096)):
        f.write(b)
        time.sleep(0.0005)' "$out"
		check "slow reader ($opts): exact" cmp -s "$WORK/four" "$out"
		check "slow reader ($opts): let drain ($(grep -c nanosleep "$WORK/trace") pauses)" \
		    grep -Eq 'tv_sec=[1-9]|tv_nsec=[0-9]{7,}' "$WORK/trace"
	done
	python3 -c '
import os, sys, time
data = open(sys.argv[1], "rb").read()
for at in range(0, len(data), 8192):
    os.write(1, data[at:at + 8192])
    time.sleep(0.0002)' "$WORK/four" |
	    strace -f -qq -o "$WORK/trace" -e trace=/nanosleep "$TACH" -q >"$out"
	check "small writes: exact" cmp -s "$WORK/four" "$out"
	check "small writes: gathered ($(grep -c nanosleep "$WORK/trace") pauses)" \
	    grep -Eq 'tv_sec=[1-9]|tv_nsec=[0-9]{7,}' "$WORK/trace"
fi

# The portable build (zero-copy off, the BSDs' path) links none of the
# zero-copy calls at all, the buffer's included
if [ "$TACH_ZEROCOPY" = 0 ] && command -v nm >/dev/null; then
	nm -D "$TACH" | grep -E ' U (splice|tee|vmsplice|copy_file_range)(@|$)' \
	    >"$WORK/linked"
	check "portable: no zero-copy call linked ($(tr '\n' ' ' <"$WORK/linked"))" \
	    empty "$WORK/linked"
fi

done_testing
