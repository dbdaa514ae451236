# Beyond pv: -L pacing, -n, --format json, --stats with the bottleneck,
# and two -c bars in one terminal.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err

# -L holds within 2% over 10 s, and stays zero-copy.
for opts in "" --no-splice; do
	start=$(date +%s%N)
	head -c 20971520 /dev/zero | "$TACH" -q -L 2m $opts | cat >/dev/null
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	check "-L 2m ($opts): 20 MiB in 10 s +-2% (${ms} ms)" \
	    [ "$ms" -ge 9800 -a "$ms" -le 10200 ]
done
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	head -c 4194304 /dev/zero | strace -qq -o "$WORK/trace" \
	    -e trace=splice,read,write "$TACH" -q -L 8m | cat >/dev/null
	check "-L keeps splice" grep -q "^splice(0, " "$WORK/trace"
	reads=$(grep -c "^read(0, " "$WORK/trace")
	check "-L does not copy (${reads} reads of stdin: the end of input)" \
	    [ "$reads" -le 1 ]
	check "-L does not write" sh -c "! grep -q '^write(1, ' '$WORK/trace'"
fi

# -n: whole percentages, one a line, never falling, ending at 100.
(head -c 1000000 /dev/zero; sleep 0.6; head -c 1000000 /dev/zero) |
    "$TACH" -n -i 0.1 -l 2000000 2>"$err" >/dev/null
check "-n: integers only" sh -c "! grep -vqx '[0-9]*' '$err'"
check "-n: ends at 100" [ "$(tail -n 1 "$err")" = 100 ]
check "-n: shows 50 on the way" grep -qx 50 "$err"
check "-n: never falls" sh -c "sort -n -c '$err'"
check "-n: no bar" sh -c "! grep -q '\[' '$err'"
# the dialog --gauge check from Homebrew's pv formula
printf beer | "$TACH" -n -l 4 2>"$err" >/dev/null
check "-n: 4 bytes of 4 is 100" [ "$(tail -n 1 "$err")" = 100 ]

# --format json: an object an interval, the last one final.
(head -c 1000000 /dev/zero; sleep 0.5) |
    "$TACH" --format json -i 0.1 -l 2000000 2>"$err" >/dev/null
check "json: several objects" [ "$(wc -l <"$err")" -ge 3 ]
check "json: every line an object with the fields" sh -c "! grep -Ev \
    '^\{\"elapsed\":[0-9.]+,\"bytes\":[0-9]+,\"rate\":[0-9.]+,\"average\":[0-9.]+,\"size\":2000000,\"percent\":[0-9.]+,\"eta\":([0-9.]+|null),\"final\":(true|false)\}$' '$err'"
check "json: last is final" sh -c "tail -n 1 '$err' | grep -q '\"final\":true'"
check "json: 50 percent on the way" grep -q '"percent":50.00' "$err"
if command -v jq >/dev/null; then
	check "json: jq parses every line" jq -e . "$err" >/dev/null
fi
"$TACH" --format xml </dev/null 2>"$err"
check "--format xml refused" grep -qF "format \`xml': only json is known" "$err"

# --stats: exact count, rate statistics, and which side waited.
head -c 12345678 /dev/zero | "$TACH" --stats -i 0.1 2>"$err" >/dev/null
check "--stats: exact count, not on a tty" grep -q "^tach: 12345678 bytes in " "$err"
check "--stats: rate summary" grep -Eq "^tach: rate over [0-9]+ intervals: min .*, median .*, mean .*, max .*, stddev .*/s$" "$err"
{ for i in 1 2 3 4 5 6 7 8 9 10; do head -c 10000 /dev/zero; sleep 0.1; done; } |
    "$TACH" --stats -q 2>"$err" >/dev/null
in=$(sed -n 's/.*input-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow producer: input-wait ${in}% >= 80" [ "${in:-0}" -ge 80 ]
head -c 50000000 /dev/zero | "$TACH" --stats -q 2>"$err" | (sleep 1; cat >/dev/null)
out_w=$(sed -n 's/.*output-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow consumer: output-wait ${out_w}% >= 60" [ "${out_w:-0}" -ge 60 ]
head -c 50000000 /dev/zero | "$TACH" --stats -q --no-splice 2>"$err" | (sleep 1; cat >/dev/null)
out_w=$(sed -n 's/.*output-wait \([0-9]*\)%.*/\1/p' "$err")
check "--stats slow consumer, read/write: output-wait ${out_w}% >= 60" [ "${out_w:-0}" -ge 60 ]
# the live line names the bottleneck when there is room
{ head -c 10000 /dev/zero; sleep 1; } | "$TACH" --force --stats -w 200 -i 0.1 2>"$err" >/dev/null
check "--stats: live line shows input-wait" grep -q "input-wait [0-9]*%" "$err"

# Two -c bars in one terminal, each on its own line; nothing left behind.
if command -v tmux >/dev/null; then
	tmux_session
	shm=$(ipcs -m 2>/dev/null | wc -l)
	# each tach runs under strace, to see that it makes no file and no
	# shared memory (strace is optional: without it, no wrapper)
	st=
	command -v strace >/dev/null &&
	    st="env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,open,creat,mkdir,shmget,semget,msgget -o $WORK/trace"
	run "clear; (head -c 1000000 /dev/zero; sleep 2; head -c 1000000 /dev/zero) | ${st:+$st.1} '$TACH' -c -N one -l 2000000 | ${st:+$st.2} '$TACH' -c -N two -l 2000000 >/dev/null; echo rc=\$?"
	check "-c: both bars at 50%" sh -c "sleep 1.5; tmux -L '$sock' capture-pane -p | grep -q 'one:  50%' && tmux -L '$sock' capture-pane -p | grep -q 'two:  50%'"
	check "-c: both finish" wait_for "rc=0" 8
	rows=$(screen | grep -n -e "one: 100%" -e "two: 100%" | cut -d: -f1 | sort -u | wc -l)
	check "-c: two lines of their own ($rows)" [ "$rows" -eq 2 ]
	check "-c: no shared memory left" [ "$(ipcs -m 2>/dev/null | wc -l)" = "$shm" ]
	if [ -n "$st" ]; then
		check "-c: no file created, no IPC object" sh -c \
		    "! grep -hE 'O_CREAT|creat\(|mkdir\(|shmget\(|semget\(|msgget\(' '$WORK'/trace.*"
		check "-c: /dev/tty opened for the lock" grep -q '/dev/tty' "$WORK/trace.1"
	fi
fi

done_testing
