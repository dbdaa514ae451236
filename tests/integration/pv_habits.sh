# SPDX-License-Identifier: BSD-2-Clause
# covers: pv users' habits: -S stops at the -l size, -E sends unreadable
# blocks as zeros, -W waits for the first byte before drawing, -D delays the
# first draw.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/data" 3000007
gzip -c <"$WORK/data" >"$WORK/data.gz"

# -S: exactly the first -l bytes, exit 0, no message, in every tier.
for opts in "" --no-splice -b4097; do
	for n in 1 4096 1000003; do
		head -c $n "$WORK/data" >"$WORK/want"
		cat "$WORK/data" | "$TACH" -q -S -l $n $opts 2>"$err" | cat >"$out"
		check "-S -l $n $opts, pipe to pipe: exact" cmp -s "$WORK/want" "$out"
		check "-S -l $n $opts, pipe to pipe: no message" empty "$err"
		"$TACH" -q -S -l $n $opts <"$WORK/data" >"$out" 2>"$err"
		status=$?
		check "-S -l $n $opts, file to file: exit 0 (got $status)" [ $status -eq 0 ]
		check "-S -l $n $opts, file to file: exact" cmp -s "$WORK/want" "$out"
		"$TACH" -q -S -l $n $opts -f "$WORK/data" cat >"$out" 2>"$err"
		check "-S -l $n $opts, into cmd: exact" cmp -s "$WORK/want" "$out"
	done
done
head -c 100000 "$WORK/data" >"$WORK/want"
cat "$WORK/data.gz" | "$TACH" -q -z -S -l 100000 >"$out" 2>"$err"
status=$?
check "-S -z from a pipe: exit 0 (got $status)" [ $status -eq 0 ]
check "-S -z from a pipe: exact" cmp -s "$WORK/want" "$out"
check "-S -z from a pipe: no message" empty "$err"
"$TACH" -q -z -S -l 100000 -f "$WORK/data.gz" >"$out" 2>"$err"
check "-S -z from a file: exact" cmp -s "$WORK/want" "$out"
# an endless source, as pv -S is used
"$TACH" -q -S -l 1m </dev/zero >"$out"
check "-S -l 1m </dev/zero: 1 MiB" [ "$(wc -c <"$out")" -eq 1048576 ]
# input shorter than -l: all of it, as without -S
head -c 10 "$WORK/data" | "$TACH" -q -S -l 100 >"$out"
check "-S, input shorter than -l: all of it" [ "$(wc -c <"$out")" -eq 10 ]
"$TACH" -S </dev/null 2>"$err"
check "-S without -l: refused" [ $? -eq 1 ]
check "-S without -l: says so" grep -qF -- "-S needs the length to stop at: -l" "$err"

# -E: an unreadable block of a file is sent as zeros, the rest goes on,
# the ranges are listed and the exit is 1.  The errors are injected: a
# read that fails once is read again in 512-byte pieces (pread) and loses
# nothing; a block stays bad when its preads fail too (the loader's
# preads, counted first, come before tach's own).
if command -v strace >/dev/null; then
	# reads the loader and the locale make before the first data read
	strace -qq -o "$WORK/trace" -e trace=read "$TACH" -q --no-splice \
	    -b 64k <"$WORK/data" >/dev/null 2>&1
	base=$(awk '/, 65536\) = / { print NR - 1; exit }' "$WORK/trace")
	# the loader's preads (two on x86-64, none on i386): tach makes none
	# unless a read fails
	strace -qq -o "$WORK/trace" -e trace=pread64 "$TACH" -q --no-splice \
	    -b 64k <"$WORK/data" >/dev/null 2>&1
	loader=$(grep -c '^pread64(' "$WORK/trace")
	bad_preads="-e inject=pread64:error=EIO:when=$((loader + 1))+"
	# zeroed OFFSET LENGTH: the data with LENGTH zeros at OFFSET
	zeroed() {
		{ head -c "$1" "$WORK/data"; head -c "$2" /dev/zero
		  tail -c +$(($1 + $2 + 1)) "$WORK/data"; } >"$WORK/want"
	}
	# the third read of 64 KiB fails once: read again, nothing lost
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$((base + 3)) \
	    "$TACH" -q -E --no-splice -b 64k <"$WORK/data" >"$out" 2>"$err"
	status=$?
	check "-E, a read failing once: exit 0 (got $status)" [ $status -eq 0 ]
	check "-E, a read failing once: exact" cmp -s "$WORK/data" "$out"
	check "-E, a read failing once: nothing said" empty "$err"
	# and stays bad: only its first 512 bytes fail, so only they are zeros
	# shellcheck disable=SC2086
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$((base + 3)) \
	    -e inject=pread64:error=EIO:when=$((loader + 1)) \
	    "$TACH" -q -E --no-splice -b 64k <"$WORK/data" >"$out" 2>"$err"
	status=$?
	zeroed 131072 512
	check "-E read/write: exit 1 (got $status)" [ $status -eq 1 ]
	check "-E read/write: zeros in place, the rest exact" cmp -s "$WORK/want" "$out"
	check "-E read/write: the range listed ($(cat "$err"))" grep -qxF \
	    "tach: stdin: unreadable, sent as zeros: bytes 131072-131583 (512)" "$err"
	# zero-copy first: copy_file_range fails at 64 KiB, then so does read
	if [ "$TACH_ZEROCOPY" = 1 ]; then
		strace -qq -o /dev/null -e inject=copy_file_range:error=EIO:when=2 \
		    -e inject=read:error=EIO:when=$((base + 1)) \
		    -e inject=pread64:error=EIO:when=$((loader + 1)) \
		    "$TACH" -q -E -b 64k <"$WORK/data" >"$out" 2>"$err"
		status=$?
		zeroed 65536 512
		check "-E copy_file_range: exit 1 (got $status)" [ $status -eq 1 ]
		check "-E copy_file_range: zeros in place, the rest exact" \
		    cmp -s "$WORK/want" "$out"
	fi
	# every read and pread fails from the third on: zeros to the end
	# shellcheck disable=SC2086
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$((base + 3))+ \
	    $bad_preads \
	    "$TACH" -q -E --no-splice -b 64k -f "$WORK/data" >"$out" 2>"$err"
	status=$?
	zeroed 131072 $((3000007 - 131072))
	check "-E to the end: exit 1 (got $status)" [ $status -eq 1 ]
	check "-E to the end: zeros, same size" cmp -s "$WORK/want" "$out"
	check "-E to the end: one range" grep -qxF \
	    "tach: $WORK/data: unreadable, sent as zeros: bytes 131072-3000006 (2868935)" "$err"
	# -S holds over the zeros: the first block fails, 1000 bytes asked
	# shellcheck disable=SC2086
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$((base + 1)) \
	    $bad_preads \
	    "$TACH" -q -E -S -l 1000 --no-splice -b 64k <"$WORK/data" \
	    >"$out" 2>"$err"
	status=$?
	check "-E -S: exit 1 (got $status)" [ $status -eq 1 ]
	check "-E -S: exactly 1000 zeros" sh -c \
	    "head -c 1000 /dev/zero | cmp -s - '$out'"
	# a pipe cannot be skipped over: the error stands
	cat "$WORK/data" | strace -qq -o /dev/null \
	    -e inject=read:error=EIO:when=$((base + 3)) \
	    "$TACH" -q -E --no-splice -b 64k >"$out" 2>"$err"
	status=$?
	check "-E on a pipe: exit 1 (got $status)" [ $status -eq 1 ]
	check "-E on a pipe: the read error" grep -qF "reading stdin: Input/output error" "$err"
fi

# -W: nothing drawn while the input is silent (an ssh password prompt),
# though the redraw timer ticks; the bar once data comes.
if command -v strace >/dev/null; then
	close_gate
	(printf ''; gated; printf abc) | strace -qq -e trace=none \
	    -o "$WORK/ticks" "$TACH" --force -W -i 0.05 -l 6 2>"$err" \
	    >/dev/null &
	pid=$!
	check "-W: the timer ticks" wait_until 60 sh -c \
	    "[ \$(cat '$WORK/ticks' 2>/dev/null | grep -c SIGALRM) -ge 4 ]"
	check "-W: nothing drawn before the first byte" empty "$err"
	open_gate
	wait $pid
	check "-W: drawn once data came" grep -q "50%" "$err"
	lacks "-W: no frame at 0%" "$err" " 0% "
fi

# -D: nothing before the delay, so the first frame's clock says 1 s.
close_gate
rm -f "$err"	# the wait below reads it: nothing stale
(printf abc; gated) | "$TACH" --force -D 1 -i 0.05 2>"$err" >/dev/null &
pid=$!
check "-D 1: drawn after the delay" wait_until 60 size_at_least "$err" 1
open_gate
wait $pid
first=$(tr '\r' '\n' <"$err" | grep -m 1 'avg')
check "-D 1: the first frame is at 0:00:01 or later ($first)" \
    sh -c "echo '$first' | grep -Eq ' 0:00:0[1-9]|[1-9]:[0-9][0-9]:[0-9][0-9]'"
lacks "-D 1: no frame at 0:00:00" "$err" " 0:00:00"
# a copy shorter than the delay draws nothing at all
printf abc | "$TACH" --force -D 60 2>"$err" >/dev/null
check "-D 60: a short copy draws nothing" empty "$err"

# -F: the line holds just the fields asked for; json stays JSON.
# frames FILE: the drawn frames, one a line, without terminal sequences.
frames() {
	tr '\r' '\n' <"$1" | sed 's/\x1b[[(][0-9;?]*[A-Za-z]//g' | grep -v '^$'
}
head -c 3000000 /dev/zero | TERM=dumb "$TACH" --force -F '%b %r' \
    2>"$err" >/dev/null
frames "$err" >"$out"
check "-F '%b %r': frames drawn" [ -s "$out" ]
check "-F '%b %r': bytes and rate, nothing else" sh -c "[ -s '$out' ] &&
    ! grep -Evq '^ *[0-9.]+ [KMGT]?i?B +[0-9.]+ [KMGT]?i?B/s *$' '$out'"
check "-F '%b %r': the count at the end" sh -c "tail -n 1 '$out' | grep -q '^2.86 MiB '"
head -c 1000 /dev/zero | TERM=dumb "$TACH" --force -l 2000 -N img \
    -F '%N:%p|%{average-rate}' -w 60 2>"$err" >/dev/null
check "-F with %N, %p and %{average-rate}" sh -c \
    "tr '\r' '\n' <'$err' | grep -Eq '^img: 50% \[.*\]\| *[0-9.]+ [KMG]?i?B/s *$'"
# -8: bits, SI (pv's --bits test, adapted: its 800b is 800 b here)
head -c 100 /dev/zero | "$TACH" --force -F %b -8 2>"$err" >/dev/null
X
head -c 1000000 /dev/zero | "$TACH" --force -8 -l 1000000 -w 100 2>"$err" >/dev/null
check "-8: the bar in bits" sh -c "tail -n 1 '$err' | grep -Eq ' 8.00 Mb avg +[0-9.]+ [kMG]?b/s '"
head -c 1000000 /dev/zero | "$TACH" -q -8 --stats 2>"$err" >/dev/null
check "-8 --stats: bytes counted, the rate in bits" grep -Eq \
    "^tach: 1000000 bytes in [0-9.]+ s, [0-9.]+ [kMGT]?b/s$" "$err"
head -c 100 /dev/zero | "$TACH" -8 -n -F '%b %p' -l 200 2>"$err" >/dev/null
check "-8 -n -F: bits as numbers, the percentage as it was" [ "$(tail -n 1 "$err")" = "800 50" ]
# SIGUSR1 with -8: the count in bytes, the amount and the rate in bits
mkfifo "$WORK/fifo8"
close_gate
{ head -c 125000 /dev/zero; gated; } >"$WORK/fifo8" &
rm -f "$err"
"$TACH" -q -8 <"$WORK/fifo8" >"$out" 2>"$err" &
pid=$!
check "-8 SIGUSR1: handlers installed" wait_until 60 caught $pid USR1
check "-8 SIGUSR1: the first 125000 bytes through" wait_until 60 size_at_least "$out" 125000
kill -USR1 $pid
check "-8 SIGUSR1: 125000 bytes, 1.00 Mb, a rate in bits" wait_until 60 grep -Eq \
    "^tach: 125000 bytes \(1.00 Mb\) in [0-9.]+ s, [0-9.]+ [kMG]?b/s$" "$err"
open_gate
wait $pid
echo data | "$TACH" -8 --line-mode >"$out" 2>"$err"
check "-8 --line-mode: refused ($?)" [ $? -eq 1 ]
check "-8 --line-mode: says why" grep -qxF "tach: -8 shows bytes as bits: not with --line-mode" "$err"
check "-8 --line-mode: nothing written" empty "$out"

# a frame the same as the last is not written again (pv's --timer test,
# adapted: its 1 s interval gives each time once, tach's 0.05 s would not)
sleep 2 | "$TACH" --force -F %t -i 0.05 2>"$err" >/dev/null
check "--force: a frame at the start" [ "$(head -n 1 "$err" | tr -d ' ')" = 0:00:00 ]
check "--force: a later time at the end" sh -c "tail -n 1 '$err' | grep -Eq '^0:00:0[1-9] *$'"
check "--force: no frame twice in a row" sh -c "[ -z \"\$(uniq -d '$err')\" ]"
# the sleep may take longer on a loaded machine: a frame a second it ran
last=$(tail -n 1 "$err" | sed 's/.*://; s/ *$//; s/^0//')
check "--force: at most one frame a second ($(wc -l <"$err") in ${last}s)" \
    [ "$(wc -l <"$err")" -le $((${last:-0} + 1)) ]
head -c 1000 /dev/zero | "$TACH" -F json 2>"$err" >/dev/null
check "-F json is --format json" sh -c "tail -n 1 '$err' | grep -q '\"final\":true'"
"$TACH" -F '%b %q' </dev/null 2>"$err"
check "-F with an unknown token: refused" [ $? -eq 1 ]
check "-F with an unknown token: says which" grep -qF "format \`%b %q': unknown %q" "$err"

# pv's letters that tach lacks: refused, with tach's name for them
for pair in "-s 1G|-s is -l SIZE" "-B 1m|-B is -b SIZE" "-C|-C is --no-splice" \
    "-v|-v is --stats" "-t|-t is -F %t" "-a|-a is -F %a" \
    "-l|-l is --line-mode" "-f|-f is --force"; do
	opt=${pair%%|*} hint=${pair#*|}
	# shellcheck disable=SC2086
	echo data | "$TACH" $opt >"$out" 2>"$err"
	status=$?
	check "$opt: refused (got $status)" [ $status -eq 1 ]
	check "$opt: nothing written" empty "$out"
	check "$opt: pv's $hint here" grep -qxF "tach: pv's $hint here" "$err"
	check "$opt: usage follows" grep -q "^usage: tach" "$err"
done
echo data | "$TACH" -X 2>"$err"
lacks "-X: no pv hint" "$err" "pv's"
# pv -l followed by another option: -l takes it as a size
echo data | "$TACH" -l -q >"$out" 2>"$err"
status=$?
check "-l -q: refused (got $status)" [ $status -eq 1 ]
check "-l -q: says pv's -l is --line-mode" grep -qxF \
    "tach: input size \`-q': illegal number; pv's -l is --line-mode here" "$err"
check "-l -q: nothing written" empty "$out"
# pv -f (force) followed by another option: -f takes it as a file
echo data | "$TACH" -f -q >"$out" 2>"$err"
status=$?
check "-f -q: refused (got $status)" [ $status -eq 1 ]
check "-f -q: no such file" grep -qxF "tach: -q: No such file or directory" "$err"
check "-f -q: says pv's -f is --force" grep -qxF "tach: pv's -f is --force here" "$err"
check "-f -q: nothing written" empty "$out"

# pv's display switches run together: -p with a prefix of pv's letters
# in one word is refused under the name tach; -p t in two words runs
echo data | "$TACH" -pterb >"$out" 2>"$err"
check "-pterb: refused ($?)" [ $? -eq 1 ]
check "-pterb: says why" grep -qxF "tach: -pterb: pv's display switches run together are the default bar here; for the prefix \"terb\" write -p terb" "$err"
echo data | "$TACH" -p t >"$out" 2>"$err"
check "-p t: runs ($?)" [ $? -eq 0 ]

# -l @FILE, pv's -s @FILE: the length of another file
head -c 40000 "$WORK/data" >"$WORK/forty"
head -c 10000 "$WORK/data" | "$TACH" -n -l "@$WORK/forty" 2>"$err" >/dev/null
check "-l @FILE: 10000 of its 40000 bytes is 25%" [ "$(tail -n 1 "$err")" = 25 ]
"$TACH" -l "@$WORK/no-such" </dev/null 2>"$err"
check "-l @FILE missing: 1 ($?)" [ $? -eq 1 ]
check "-l @FILE missing: named" grep -qxF \
    "tach: input size \`@$WORK/no-such': No such file or directory" "$err"
: >"$WORK/-q"
(cd "$WORK" && echo data | "$TACH" -q -f -q) >"$out" 2>"$err"
check "-f -q, a file named -q: read" [ $? -eq 0 ]
lacks "-f -q, a file named -q: no pv hint" "$err" "pv's"
echo data | "$TACH" -f "$WORK/absent" 2>"$err"
lacks "-f ABSENT: no pv hint" "$err" "pv's"
(cd "$WORK" && echo data | "$TACH" -f -) 2>"$err"
check "-f - (no such file): refused" grep -qxF "tach: -: No such file or directory" "$err"
lacks "-f - (no such file): no pv hint" "$err" "pv's"

# -n with -F, pv's -n -b and -n -t (their tests, adapted): the fields as
# numbers, a line each; the count of lines is bounded from above only,
# since load can only take ticks away
head -c 500 /dev/zero | "$TACH" -l 500 -n -F %b -i 0.1 -L 500 2>"$err" >/dev/null
check "-n -F %b (pv -n -b): numbers only" sh -c "[ -s '$err' ] && ! grep -Evq '^[0-9]+$' '$err'"
check "-n -F %b: the last is 500" [ "$(tail -n 1 "$err")" = 500 ]
check "-n -F %b: never falls" sh -c "sort -n -c '$err'"
check "-n -F %b: at most a line a tick ($(wc -l <"$err"))" [ "$(wc -l <"$err")" -le 14 ]
head -c 100 /dev/zero | "$TACH" -l 100 -n -F '%t %p' -i 0.1 -L 100 2>"$err" >/dev/null
check "-n -F '%t %p' (pv -n -t): seconds and percentage" sh -c \
    "[ -s '$err' ] && ! grep -Evq '^[0-9]+\.[0-9]{4} [0-9]+$' '$err'"
check "-n -F '%t %p': the last is 100%" [ "$(tail -n 1 "$err" | cut -d' ' -f2)" = 100 ]
check "-n -F '%t %p': times never fall" sh -c "cut -d' ' -f1 '$err' | sort -n -c"
# 100 bytes at 100/s: the end comes no sooner than the limit allows
check "-n -F '%t %p': the end at 0.8 s or later ($(tail -n 1 "$err"))" \
    awk '{ t = $1 } END { exit !(t >= 0.8) }' "$err"
seq -w 3 1 100 | "$TACH" --line-mode -n -F %b -i 0.2 -L 100 2>"$err" >"$out"
check "--line-mode -n -F %b (pv -bnl): the last counts all 98 lines" [ "$(tail -n 1 "$err")" = 98 ]
check "--line-mode -n -F %b: the data whole" sh -c "seq -w 3 1 100 | cmp -s - '$out'"
printf abc | "$TACH" -n -F '%e %I %b' 2>"$err" >/dev/null
check "-n -F: a field not known is -" [ "$(tail -n 1 "$err")" = "- - 3" ]
printf abc | "$TACH" -n -F "$(printf 'x\033[2J') %b" -N "$(printf 'n\033]0;t\a')" 2>"$err" >/dev/null
check "-n -F: text escaped" [ "$(tail -n 1 "$err")" = 'x\x1b[2J 3' ]
printf abc | "$TACH" -n -F '%N=%b' -N "$(printf 'n\033]0;t\a')" 2>"$err" >/dev/null
check "-n -F: %N escaped" [ "$(tail -n 1 "$err")" = 'n\x1b]0;t\x07=3' ]

done_testing
