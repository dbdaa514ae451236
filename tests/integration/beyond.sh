# SPDX-License-Identifier: BSD-2-Clause
# covers: beyond pv: -L pacing, -n, --format json, --stats with the
# bottleneck, and two -c bars in one terminal.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err

# -L: no faster than the limit, which load cannot change, on the wall
# clock and, interval by interval, on tach's own (the JSON objects).  The
# precise figures are in contrib/benchmark.sh, not here.
for opts in "" --no-splice; do
	start=$(date +%s%N)
	head -c 4194304 /dev/zero |
	    "$TACH" --format json -i 0.1 -L 2m $opts 2>"$err" | cat >/dev/null
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	# the last 50 ms chunk may go at once: (4 MiB - 2 MiB/20) / 2 MiB/s
	check "-L 2m ($opts): 4 MiB take at least 1.95 s (${ms} ms)" \
	    [ "$ms" -ge 1950 ]
	check "-L 2m ($opts): and are not held back for long (${ms} ms)" \
	    [ "$ms" -le 60000 ]
	ahead=$(sed 's/.*"elapsed":\([0-9.]*\),"bytes":\([0-9]*\),.*/\1 \2/' "$err" |
	    awk '{ x = $2 - 2097152 * $1; if (x > m) m = x } END { print int(m) }')
	check "-L 2m ($opts): never more than a chunk ahead on tach's clock (${ahead} bytes)" \
	    [ "${ahead:-999999999}" -le 104858 ]
done
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	head -c 4194304 /dev/zero | strace -qq -o "$WORK/trace" \
	    -e trace=splice,read,write "$TACH" -q -L 8m | cat >/dev/null
	check "-L keeps splice" grep -q "^splice(0, " "$WORK/trace"
	reads=$(grep -c "^read(0, " "$WORK/trace")
	check "-L does not copy (${reads} reads of stdin: the end of input)" \
	    [ "$reads" -le 1 ]
	lacks "-L does not write" "$WORK/trace" '^write\(1, ' 
fi

# -n: whole percentages, one a line, never falling, ending at 100.  The
# second half waits until the first has been reported.
close_gate
rm -f "$err"	# the waits below read it: nothing stale
(head -c 1000000 /dev/zero; gated; head -c 1000000 /dev/zero) |
    "$TACH" -n -i 0.1 -l 2000000 2>"$err" >/dev/null &
pid=$!
check "-n: shows 50 on the way" wait_until 60 grep -qx 50 "$err"
open_gate
wait $pid
lacks "-n: integers only" "$err" '[^0-9]'
check "-n: ends at 100" [ "$(tail -n 1 "$err")" = 100 ]
check "-n: never falls" sh -c "sort -n -c '$err'"
lacks "-n: no bar" "$err" '\['
# the dialog --gauge check from Homebrew's pv formula
printf beer | "$TACH" -n -l 4 2>"$err" >/dev/null
check "-n: 4 bytes of 4 is 100" [ "$(tail -n 1 "$err")" = 100 ]

# --format json: an object an interval, the last one final.
close_gate
rm -f "$err"
(head -c 1000000 /dev/zero; gated) |
    "$TACH" --format json -i 0.1 -l 2000000 2>"$err" >/dev/null &
pid=$!
check "json: 50 percent on the way" wait_until 60 grep -q '"percent":50.00' "$err"
check "json: several objects" wait_until 60 sh -c "[ \$(wc -l <'$err') -ge 3 ]"
open_gate
wait $pid
check "json: every line an object with the fields" sh -c "[ -s '$err' ] && ! grep -Ev \
    '^\{\"elapsed\":[0-9.]+,\"bytes\":[0-9]+,\"rate\":[0-9.]+,\"average\":[0-9.]+,\"size\":2000000,\"percent\":[0-9.]+,\"eta\":([0-9.]+|null),\"final\":(true,\"result\":\"complete\"|false)\}$' '$err'"
check "json: last is final" sh -c "tail -n 1 '$err' | grep -q '\"final\":true'"
if command -v jq >/dev/null; then
	check "json: jq parses every line" jq -e . "$err" >/dev/null
fi
"$TACH" --format xml </dev/null 2>"$err"
check "--format xml refused" grep -qF "format \`xml': neither json nor a line with a %-field" "$err"

# --stats: exact count, rate statistics, and which side waited.
# the second half waits until two intervals have passed
close_gate
rm -f "$err"
{ head -c 6000000 /dev/zero; gated; head -c 6345678 /dev/zero; } |
    "$TACH" --stats --format json -i 0.1 2>"$err" >/dev/null &
pid=$!
wait_until 60 sh -c "[ \$(grep -c elapsed '$err') -ge 3 ]"
open_gate
wait $pid
check "--stats: exact count, not on a tty" grep -q '^{"message":"12345678 bytes in ' "$err"
check "--stats: rate summary" grep -Eq '^\{"message":"rate over [0-9]+ intervals: min .*, median .*, mean .*, max .*, stddev .*/s"\}$' "$err"
check "--stats under --format json: every line an object" sh -c \
    "! grep -qv '^{.*}\$' '$err'"
# The waits: a side held back by a tach of its own with -L (1 s of data
# at its rate), so the share measured does not hang on a sleep's length.
head -c 100000 /dev/zero >"$WORK/z100k"
"$TACH" -q -L 100k -f "$WORK/z100k" | "$TACH" --stats -q 2>"$err" >/dev/null
in=$(sed -n 's/.*input-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow producer: input-wait ${in}% >= 50" [ "${in:-0}" -ge 50 ]
head -c 50000000 /dev/zero | "$TACH" --stats -q 2>"$err" |
    "$TACH" -q -L 50m >/dev/null
out_w=$(sed -n 's/.*output-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow consumer: output-wait ${out_w}% >= 40" [ "${out_w:-0}" -ge 40 ]
head -c 50000000 /dev/zero | "$TACH" --stats -q --no-splice 2>"$err" |
    "$TACH" -q -L 50m >/dev/null
out_w=$(sed -n 's/.*output-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow consumer, read/write: output-wait ${out_w}% >= 40" [ "${out_w:-0}" -ge 40 ]
# a paced consumer, bytes copied rather than spliced: the writes that
# block partway, once a pipe's room is used, are waiting too
head -c 20000000 /dev/zero >"$WORK/z20"
"$TACH" --stats -q --no-splice -f "$WORK/z20" 2>"$err" | "$TACH" -q -L 40m >/dev/null
out_w=$(sed -n 's/.*output-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats paced consumer, copied: output-wait ${out_w}% >= 60" [ "${out_w:-0}" -ge 60 ]
# the closing line names the bottleneck when there is room: the input
# held at the gate until a few lines are drawn
close_gate
rm -f "$err"
{ head -c 10000 /dev/zero; gated; } |
    "$TACH" --force --stats -w 200 -i 0.1 2>"$err" >/dev/null &
pid=$!
wait_until 60 sh -c "[ \$(tr '\r' '\n' <'$err' | grep -c 'KiB/s') -ge 5 ]"
open_gate
wait $pid
check "--stats: the closing line shows input-wait" \
    sh -c "tr '\r' '\n' <'$err' | grep -q 'avg .* input-wait [0-9]*%\$'"

# Two -c bars in one terminal, each on its own line; nothing left behind.
if command -v tmux >/dev/null; then
	tmux_session
	shm=$(ipcs -m 2>/dev/null | wc -l)
	# each tach runs under strace, to see that it makes no file and no
	# shared memory (strace is optional: without it, no wrapper)
	st=
	command -v strace >/dev/null &&
	    st="env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,open,creat,mkdir,shmget,semget,msgget -o $WORK/trace"
	close_gate
	fresh_screen
	run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | ${st:+$st.1} '$TACH' -c -N one -l 2000000 | ${st:+$st.2} '$TACH' -c -N two -l 2000000 >/dev/null; echo rc=\$?"
	check "-c: first bar at 50%" wait_for "one:  50%"
	check "-c: second bar at 50%" wait_for "two:  50%"
	open_gate
	check "-c: both finish" wait_for "rc=0"
	rows=$(screen | grep -n -e "one: 100%" -e "two: 100%" | cut -d: -f1 | sort -u | wc -l)
	check "-c: two lines of their own ($rows)" [ "$rows" -eq 2 ]
	check "-c: no shared memory left" [ "$(ipcs -m 2>/dev/null | wc -l)" = "$shm" ]
	if [ -n "$st" ]; then
		for t in 1 2; do
			lacks "-c: no file created, no IPC object ($t)" \
			    "$WORK/trace.$t" 'O_CREAT|creat\(|mkdir\(|shmget\(|semget\(|msgget\('
		done
		check "-c: /dev/tty opened for the lock" grep -q '/dev/tty' "$WORK/trace.1"
	fi
fi

done_testing
