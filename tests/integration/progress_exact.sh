# SPDX-License-Identifier: BSD-2-Clause
# covers: tach invoked as progress, against NetBSD progress(1) 1.25: the
# differential.  Each line of the first table is a progress(1) command
# line with the exit status and output that progress(1) gives (read off
# its source: ../shared/reference/netbsd-progress.md); tach must give the
# same.  Each line of the second is a known difference: progress(1)'s
# result, tach's, and the words of tach(1)'s COMPATIBILITY section that
# name it, so that a difference nobody wrote down fails here.  Then what
# a signal does, per name.
. "$(dirname "$0")/lib.sh"

ln -s "$TACH" "$WORK/progress"
cd "$WORK" || exit 1
random d 100003
random d2 7777
gzip -c d >d.gz
wc -c <d >d.count

# expected WHAT: the output a line expects.  data: the input, unchanged;
# d2: the second file; first10: its first 10 bytes; count: wc -c's count
# of the input; empty: nothing; text: some text (compared elsewhere).
expected() {
	case $1 in
	data) cat d ;;
	d2) cat d2 ;;
	first10) head -c 10 d ;;
	count) cat d.count ;;
	empty|text) ;;
	esac
}

# row STATUS OUTPUT STDERR INPUT ARGS: runs progress ARGS with INPUT on
# stdin, stdout and stderr to files; compares the status, the output's
# bytes, and (unless -) that stderr matches STDERR.
row() {
	_status=$1 _out=$2 _err=$3 _in=$4
	shift 4
	./progress "$@" <"$_in" >got 2>err
	_got=$?
	expected "$_out" >want
	check "progress $*: exit $_status (got $_got: $(head -c 200 err))" \
	    [ "$_got" -eq "$_status" ]
	[ "$_out" = text ] || check "progress $*: the output is $_out" \
	    cmp -s want got
	[ "$_err" = - ] || check "progress $*: stderr says '$_err'" \
	    grep -q -- "$_err" err
	[ "$_err" != - ] || check "progress $*: nothing on stderr" \
	    [ ! -s err ]
}

# What progress(1) gives.  Its bar goes to stdout only when that is a
# terminal: none here, so stdout is cmd's alone.  Its numbers are base
# 10 and x multiplies, so -l 0x10 is 0 times 10.
while IFS='|' read -r status out err in args; do
	[ -n "$status" ] || continue
	eval "set -- $args"
	row "$status" "$out" "$err" "$in" "$@"
done <<'EOF'
0|data|-|d|cat
0|data|-|d|-b 1 cat
0|data|-|d|-b 4097 cat
0|data|-|d|-b 2x64k cat
0|data|-|d|-b 1k -b 8k cat
0|data|-|d|-b1m cat
0|data|-|d|-e cat
0|data|-|d|-p 'copy: ' cat
0|data|-|d|-p '' cat
0|data|-|d|-l 0 cat
0|data|-|d|-l 3 cat
0|data|-|d|-l 1g cat
0|data|-|d|-l 2x1m cat
0|data|-|d|-l 12w cat
0|data|-|d|-l ' 5' cat
0|data|-|d|-l 0x10 cat
0|data|-|d|-l +5 cat
0|data|-|/dev/null|-f d cat
0|d2|-|/dev/null|-f d -f d2 cat
0|data|-|/dev/null|-zf d.gz cat
0|data|-|d.gz|-z cat
0|data|-|/dev/null|-ez -p x -f d.gz cat
0|data|-|/dev/null|-ezfd.gz cat
0|data|-|d|-- cat
0|count|-|d|wc -c
0|count|-|/dev/null|-f d wc -c
0|empty|-|/dev/null|cat
3|empty|-|d|sh -c 'cat >/dev/null; exit 3'
0|empty|-|d|sh -c 'cat >/dev/null'
1|empty|^usage: progress \[-ez\]|d|
1|empty|^usage: progress|d|-e
1|empty|^usage: progress|d|-b
1|empty|^usage: progress|d|-S -l 3 cat
1|empty|^usage: progress|d|-x cat
1|empty|^usage: progress|d|-q cat
1|empty|^usage: progress|d|-c cat
1|empty|^usage: progress|d|-n cat
1|empty|^usage: progress|d|-W cat
1|empty|^usage: progress|d|-E cat
1|empty|^usage: progress|d|-Y cat
1|empty|^usage: progress|d|-0 cat
1|empty|^usage: progress|d|-D 1 cat
1|empty|^usage: progress|d|-d 1
1|empty|^usage: progress|d|-i 1 cat
1|empty|^usage: progress|d|-L 1k cat
1|empty|^usage: progress|d|-N x cat
1|empty|^usage: progress|d|-w 20 cat
1|empty|^usage: progress|d|-F %p cat
1|empty|^usage: progress|d|--quiet cat
1|empty|^usage: progress|d|--force cat
1|empty|^usage: progress|d|--stats cat
1|empty|^usage: progress|d|--line-mode cat
1|empty|^usage: progress|d|--no-splice cat
1|empty|^usage: progress|d|--size=3 cat
1|empty|^usage: progress|d|--file=d cat
1|empty|^usage: progress|d|--format json cat
1|empty|^progress: buffer size `abc': illegal number$|d|-b abc cat
1|empty|^progress: input size `1q': illegal number$|d|-l 1q cat
1|empty|^progress: input size `1kk': illegal number$|d|-l 1kk cat
1|empty|^progress: input size `2x': illegal number$|d|-l 2x cat
1|empty|^progress: missing: No such file or directory$|d|-f missing cat
1|empty|^progress: -: No such file or directory$|d|-f - cat
EOF

# The known differences: progress(1)'s result, then tach's, then the
# words of COMPATIBILITY that say so.  (A cmd killed by a signal kills
# tach too; "Terminated" is the test shell's word for it.)
mandoc -Tascii -O width=1000 "$SOURCE_DIR/doc/tach.1" 2>/dev/null | col -b |
    sed -n '/^COMPATIBILITY/,/^SEE ALSO/p' | tr -s ' \t' '  ' >compat
check "COMPATIBILITY rendered" grep -q "It differs from progress" compat
while IFS='|' read -r theirs status out err in words args; do
	[ -n "$status" ] || continue
	eval "set -- $args"
	row "$status" "$out" "$err" "$in" "$@"
	check "progress $*: COMPATIBILITY says '$words' (progress(1): $theirs)" \
	    grep -qF -- "$words" compat
done <<'EOF'
exit 15|143|empty|Terminated|d|makes tach die of N, so the shell sees 128+N|sh -c 'cat >/dev/null; kill -TERM $$'
dies of SIGPIPE, 141|0|first10|-|d|exits with cmd's status (0 for head -c 10)|head -c 10
exit 0, nothing copied|1|empty|buffer size 0 is less than 1|d|-b 0 is an error instead of copying nothing|-b 0 cat
illegal number, exit 1|0|data|-|d|accept upper-case suffixes and `iB' (1K, 1KiB, 1M)|-l 1K cat
illegal number, exit 1|0|data|-|d|accept upper-case suffixes and `iB' (1K, 1KiB, 1M)|-l 1KiB cat
illegal number, exit 1|0|data|-|d|accept upper-case suffixes and `iB' (1K, 1KiB, 1M)|-b 1M cat
"is less than 0."|1|empty|^progress: input size -1 is less than 0$|d|without progress's full stop|-l -1 cat
"input size: Result too large"|1|empty|^progress: input size `99999999999999999999': Result too large$|d|names the number that is too large|-l 99999999999999999999 cat
usage, exit 1|0|text|-|d|--help and --version print|--help
usage, exit 1|0|text|-|d|--help and --version print|--version
exit 1 or 141|127|empty|no-such-cmd-tach|d|exits 127 if cmd cannot be found|no-such-cmd-tach
EOF
# --help and --version wrote to stdout, which row() compared with nothing:
./progress --help >got
check "progress --help: progress's options only" sh -c \
    'grep -q "^usage: progress \[-ez\] \[-b buffersize\] \[-f file\] \[-l length\] \[-p prefix\] cmd \[args ...\]$" got &&
    ! grep -q -- "--force\|-q\b\|--stats" got'
./progress --version >got
check "progress --version" grep -q "^tach " got

# -z with no gzip in PATH: stopped before cmd starts (progress(1) runs
# cmd on an empty input and exits 1).
mkdir bin
PATH=$WORK/bin "$WORK/progress" -z /bin/sh -c ': >started' <d.gz 2>err
check "no gzip: exit 1 ($?)" [ $? -eq 1 ]
check "no gzip: cmd never started" [ ! -e started ]
check "no gzip: named" grep -q "gzip" err
check "COMPATIBILITY: no gzip" grep -qF "stops before cmd starts" compat
for words in "reading data.img: Input/output error" \
    "a -b of 4 MiB or more is a buffer between the input and cmd" \
    "SIGUSR1" "up to 1 MiB ahead of a slow cmd" \
    "cmd sees its end of input and finishes"; do
	check "COMPATIBILITY says '$words'" grep -qF -- "$words" compat
done

# -b of 4 MiB or more: a buffer, as tach's (exact); one past what memory
# holds refused before cmd starts
"$WORK/progress" -b 128m -f d cat >got 2>err
check "progress -b 128m: exact ($?)" cmp -s d got
"$WORK/progress" -b 1t -f d sh -c ': >started; cat' >got 2>err
check "progress -b 1t: refused ($?)" [ $? -eq 1 ]
check "…before cmd starts" [ ! -e started ]
check "…saying why" grep -q "^progress: -b: a buffer of 1099511627776 bytes: more than" err

# A terminating signal.  Under the name progress, cmd sees its end of
# input and finishes (it writes "finished"), and the signal is then
# progress's own (143); under the name tach, cmd gets the signal too.
# The input: a FIFO that this shell holds open, so it never ends.
mkfifo in
exec 4<>in
for name in progress tach; do
	[ $name = tach ] && prog=$TACH || prog=./progress
	rm -f finished
	$prog sh -c 'cat >/dev/null; echo finished >finished' <in 2>/dev/null &
	pid=$!
	check "$name: handlers in place" wait_until 60 caught "$pid" TERM
	# (the handlers come first of all: a signal before cmd has started
	# ends tach without it)
	check "$name: cmd runs" wait_until 60 pgrep -P "$pid" >/dev/null
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	check "$name TERM: dies of it, 143 (got $status)" [ "$status" -eq 143 ]
	if [ $name = progress ]; then
		check "progress TERM: cmd saw its end and finished" [ -e finished ]
	else
		check "tach TERM: cmd got the signal" [ ! -e finished ]
	fi
done
# Under the name tach the signal reaches cmd before its end of input.
if command -v strace >/dev/null; then
	rm -f pipe
	# env: strace itself, not lib.sh's function, is the job
	env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    strace -qq -y -o trace -e trace=kill,close \
	    "$TACH" sh -c "$NOTE_INPUT" sh pipe <in 2>/dev/null &
	spid=$!
	# cmd runs: tach has its handlers
	check "order: cmd runs" wait_until 60 test -s pipe
	kill -TERM "$(pgrep -P $spid)"
	wait $spid
	status=$?
	check "order: tach dies of it, 143 (got $status)" [ "$status" -eq 143 ]
	check "order: cmd is sent it before its input is closed" \
	    ended_before_closed trace pipe SIGTERM
else
	echo "SKIP: strace: the order of tach's kill and close"
fi
# Under the name progress, a cmd that does not finish at its end of
# input: progress waits for it, and a second signal reaches it.
# waiting PID: asleep until a signal (cmd's end, or another signal)
waiting() {
	case $(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null) in
	130|179) return 0 ;;	# rt_sigsuspend on x86-64, on i386
	esac
	return 1
}
./progress sh -c 'exec sleep 601' <in 2>/dev/null &
pid=$!
check "second signal: handlers in place" wait_until 60 caught "$pid" TERM
check "second signal: cmd runs" wait_until 60 sh -c \
    'pgrep -f "^sleep 601$" >/dev/null'
kill -TERM "$pid"
check "second signal: progress waits on cmd" wait_until 60 waiting "$pid"
# (sh may not have become sleep yet under load: waited for)
check "second signal: cmd still runs" wait_until 60 sh -c \
    'pgrep -f "^sleep 601$" >/dev/null'
kill -TERM "$pid"
wait "$pid"
status=$?
check "second signal: 143 (got $status)" [ "$status" -eq 143 ]
# (the signal is passed on; cmd's death may come just after tach's)
check "second signal: cmd is gone" wait_until 60 sh -c \
    '! pgrep -f "^sleep 601$" >/dev/null'
exec 4>&-

done_testing
