# SPDX-License-Identifier: BSD-2-Clause
# covers: honest numbers and a display that holds in daily use: -n's last
# line, JSON's name and result, --stats' partial interval and waits, the
# hint for "tach FILE", and in tmux: -c on a full screen, -w wider than the
# terminal, Unicode in -p, and -L after ^Z.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err

# -n: the last line is the real percentage.
head -c 100 /dev/zero | "$TACH" -n -l 200 2>"$err" >/dev/null
check "-n: 100 of 200 bytes ends at 50 ($(tail -n 1 "$err"))" \
    [ "$(tail -n 1 "$err")" = 50 ]
: >"$WORK/empty"
"$TACH" -n -f "$WORK/empty" 2>"$err" >/dev/null
check "-n: an empty file ends at 100 ($(tail -n 1 "$err"))" \
    [ "$(tail -n 1 "$err")" = 100 ]
"$TACH" -n --format json </dev/null >/dev/null 2>"$err"
check "-n with --format json: refused" [ $? -eq 1 ]
check "-n with --format json: says so" grep -qF -- "-n and --format json" "$err"
head -c 1000 /dev/zero | "$TACH" -q -n -l 1000 2>"$err" >/dev/null
check "-q leaves -n alone" [ "$(tail -n 1 "$err")" = 100 ]

# --format json: the -N name, and how the run ended.
head -c 100 /dev/zero | "$TACH" --format json -N 'raw "disk"' -l 200 \
    2>"$err" >/dev/null
named=$(grep -cF '{"name":"raw \"disk\"",' "$err")
check "json: the name, escaped, on every object ($named)" \
    [ "$named" -ge 2 -a "$named" -eq "$(wc -l <"$err")" ]
check "json: a complete run" sh -c "tail -n 1 '$err' | grep -qF '\"final\":true,\"result\":\"complete\"}'"
check "json: the real percent at the end" sh -c "tail -n 1 '$err' | grep -qF '\"percent\":50.00'"
head -c 100000 /dev/zero | "$TACH" --format json 2>"$err" >/dev/full
check "json: a failed run, with its reason" sh -c "grep '\"final\":true' '$err' | grep -qF '\"result\":\"failed\",\"reason\":\"writing stdout: No space left on device\"}'"
check "json: its message an object too" grep -qxF \
    '{"message":"writing stdout: No space left on device"}' "$err"
# every line on stderr is JSON: a message, a failed -f, a failed cmd
head -c 100 /dev/zero | "$TACH" --format json -f /nonexistent -f /dev/stdin \
    2>"$err" >/dev/null
check "json: an unreadable -f is a message object" grep -qxF \
    '{"message":"/nonexistent: No such file or directory"}' "$err"
check "json: the run's reason is that message" grep -qF \
    '"result":"failed","reason":"/nonexistent: No such file or directory"}' "$err"
head -c 100000 /dev/zero | "$TACH" --format json -q -f /dev/stdin sh -c \
    'cat >/dev/null; exit 3' 2>"$err"
check "json: cmd's status is the reason" grep -qF \
    '"result":"failed","reason":"sh exited with status 3"}' "$err"
# a SIGUSR1 line after the failure informs: the reason stays the failure
rm -f "$WORK/hold"
mkfifo "$WORK/hold"
"$TACH" --format json -q -f "$WORK/missing" -f "$WORK/hold" 2>"$err" \
    >/dev/null &
copy=$!
exec 5>"$WORK/hold"
wait_until 60 caught $copy USR1
kill -USR1 $copy
check "json: SIGUSR1's line is an object" wait_until 60 grep -q \
    '^{"message":"0 bytes (0 B) in ' "$err"
exec 5>&-
wait $copy
check "json: the reason is the failure, not SIGUSR1's line" grep -qF \
    "\"result\":\"failed\",\"reason\":\"$WORK/missing: No such file or directory\"}" \
    "$err"
"$TACH" --format json -n </dev/null 2>"$err"
check "json: an option's complaint is an object too" grep -qxF \
    '{"message":"-n and --format json both write to stderr: choose one"}' "$err"
mkfifo "$WORK/fifo"
sleep 600 >"$WORK/fifo" &
feeder=$!
"$TACH" --format json -q <"$WORK/fifo" 2>"$err" >/dev/null &
pid=$!
check "json: handlers in" wait_until 60 caught $pid TERM
kill -TERM $pid
wait $pid
kill $feeder
check "json: an interrupted run" sh -c "tail -n 1 '$err' | grep -qF '\"result\":\"interrupted\"}'"

# --stats: data that came late still counts, in the last partial interval.
close_gate
rm -f "$err"	# the waits below read it: nothing stale
{ gated; head -c 1000000 /dev/zero; } |
    "$TACH" --stats --format json -i 0.5 2>"$err" >/dev/null &
pid=$!
# the first object and two redraws without data: 0 B/s intervals
check "--stats: two empty intervals" wait_until 60 sh -c \
    "[ \$(grep -c elapsed '$err') -ge 3 ]"
open_gate
wait $pid
max=$(sed -n 's/.*max \([^,]*\)\/s,.*/\1/p' "$err")
check "--stats: late data, the maximum is not 0 ($max)" \
    [ -n "$max" -a "$max" != "0 B" ]
printf x | "$TACH" --stats 2>"$err" >/dev/null
check "--stats: a run shorter than an interval: not measured" \
    grep -qF "rate not measured" "$err"
lacks "--stats: no summary of zeros" "$err" "rate over"
# a file from the page cache to /dev/null waits for nothing
random "$WORK/big" 50000000
# file to file: neither side is ever waited for, and --stats says so
"$TACH" --stats -q -f "$WORK/big" -o "$WORK/copy" 2>"$err"
check "--stats, file to file: the waits not applicable" grep -qx \
    "tach: input-wait n/a, output-wait n/a (files: none is waited for)" "$err"
rm -f "$WORK/copy"
cat "$WORK/big" >/dev/null
for opts in "" --no-splice; do
	"$TACH" --stats -q $opts -f "$WORK/big" 2>"$err" >/dev/null
	in=$(sed -n 's/.*input-wait \([0-9]*\)%.*/\1/p' "$err")
	check "--stats ($opts): page cache to /dev/null is not input-wait (${in}%)" \
	    [ "${in:-100}" -le 10 ]
done

# -L after a stall: at most the documented half second of credit, on
# tach's own clock.  The source stalls for over a second at the gate.
close_gate
rm -f "$err"
{ head -c 10000 /dev/zero; gated; head -c 300000 /dev/zero; } |
    "$TACH" -L 100k --format json -i 0.1 2>"$err" >/dev/null &
pid=$!
check "-L stall: over a second without data" wait_until 60 sh -c \
    "tail -n 1 '$err' | awk -F'[:,]' '{ exit !(\$2 >= 1.2) }'"
open_gate
wait $pid
ahead=$(sed 's/.*"elapsed":\([0-9.]*\),"bytes":\([0-9]*\),.*/\1 \2/' "$err" |
    awk '{ x = $2 - 102400 * $1; if (x > m) m = x } END { print int(m) }')
check "-L stall: at most half a second of credit ($ahead bytes ahead)" \
    [ "${ahead:-999999}" -le $((51200 + 5120)) ]

# pv users type "tach FILE": say how to read it.
random "$WORK/data.img" 1000
(cd "$WORK" && "$TACH" data.img </dev/null 2>"$err")
check "tach FILE, not in PATH: 127" [ $? -eq 127 ]
check "tach FILE, not in PATH: taken as a command, the hint" grep -qxF \
    "tach: data.img: taken as a command, and no command of that name was found; to read the file use -f data.img" "$err"
lacks "tach FILE: never \"No such file\" for a file that is there" "$err" \
    "No such file"
"$TACH" "$WORK/data.img" </dev/null 2>"$err"
check "tach ./FILE, not executable: 126" [ $? -eq 126 ]
check "tach ./FILE, not executable: the hint" grep -qxF \
    "tach: $WORK/data.img: taken as a command, and it is not executable; to read the file use -f $WORK/data.img" "$err"
"$TACH" no-such-command-tach </dev/null 2>"$err"
lacks "a missing command: no hint" "$err" "to read a file"

# progress(1)'s help shows cmd as required.
ln -s "$TACH" "$WORK/progress"
"$WORK/progress" --help >"$out"
check "progress --help: cmd required" grep -q "^usage: progress \[-ez\] .* cmd \[args ...\]$" "$out"

if ! command -v tmux >/dev/null; then
	done_testing
fi
tmux_session
cols() { while IFS= read -r l; do printf '%s' "$l" | wc -m; done; }

# -c with the prompt on the last row of a full screen: three instances,
# one line each, and every final line stays, once.
close_gate
fresh_screen
run "clear; seq 1 100"
wait_for "100"
run "(head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | '$TACH' -c -N raw -l 2000000 | '$TACH' -c -N mid -l 2000000 | '$TACH' -c -N gz -l 2000000 >/dev/null; echo rc=\$?"
for n in raw mid gz; do
	check "-c full screen: $n at 50%" wait_for "$n:  50%"
done
open_gate
check "-c full screen: done" wait_for "rc=0"
snap >/dev/null
for n in raw mid gz; do
	check "-c full screen: $n's final line, once" \
	    [ "$(grep -c "^$n: 100%" "$WORK/snap")" -eq 1 ]
done
lacks "-c full screen: no line left at 0% or 50%" "$WORK/snap" "^(raw|mid|gz): +(0|50)%"

# -w wider than the terminal is clamped to it.
close_gate
fresh_screen
run "clear; (head -c 1000 /dev/zero; $GATED) | '$TACH' -w 300 -l 2000 -p wide: >/dev/null; echo rc=\$?"
check "-w 300: drawn" wait_for "wide:  50%"
w=$(screen | grep -F "wide:" | cols | head -n 1)
check "-w 300 on 100 columns: fits ($w)" [ "${w:-300}" -le 99 ]
open_gate
wait_for "rc=0"

# Unicode in -p and -N: text, not escapes.
close_gate
fresh_screen
run "clear; (head -c 1000 /dev/zero; $GATED) | '$TACH' -l 2000 -N 'cafe$(printf '\314\201')' -p 'a$(printf '\342\200\213')b' >/dev/null; echo rc=\$?"
check "unicode: drawn" wait_for "$(printf 'cafe\314\201'): a"
snap >/dev/null
lacks "unicode: nothing escaped" "$WORK/snap" '\\x'
check "unicode: the combining mark is text" grep -qF "$(printf 'cafe\314\201')" "$WORK/snap"
open_gate
wait_for "rc=0"

# -L after ^Z and fg: the stop earns no burst.  On tach's own clock (JSON
# elapsed leaves the stop out) it is never more than a chunk ahead.
: >"$WORK/json"
fresh_screen
run "clear; head -c 400000 /dev/zero | '$TACH' -L 100k --format json -i 0.1 2>'$WORK/json' >/dev/null"
check "-L ^Z: under way" wait_until 60 grep -q '"bytes":[1-9]' "$WORK/json" 2>/dev/null
tmx send-keys C-z
check "-L ^Z: stopped" wait_for "Stopped"
t0=$(date +%s)
wait_until 60 sh -c "[ \$((\$(date +%s) - $t0)) -ge 2 ]"
run "fg"
check "-L ^Z: finishes" wait_until 120 grep -q '"final":true' "$WORK/json"
ahead=$(sed 's/.*"elapsed":\([0-9.]*\),"bytes":\([0-9]*\),.*/\1 \2/' "$WORK/json" |
    awk '{ x = $2 - 102400 * $1; if (x > m) m = x } END { print int(m) }')
check "-L ^Z: never a chunk ahead of the limit ($ahead bytes)" \
    [ "${ahead:-999999}" -le 5120 ]

done_testing
