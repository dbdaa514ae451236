# SPDX-License-Identifier: BSD-2-Clause
# covers: --log FILE: a CSV row each interval (elapsed, bytes, lines, rate,
# average, size, percent, eta, buffered, rate_in, final) for gnuplot or a
# spreadsheet, whatever is drawn; a file that is the data's input or
# output refused before it is emptied; a log that stops taking rows says
# so, the copy goes on exact, and the exit is 1.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 3000000
out=$WORK/out
log=$WORK/log.csv
header="elapsed,bytes,lines,rate,average,size,percent,eta,buffered,rate_in,final"

"$TACH" -q -L 6M -i 0.05 --log "$log" <"$WORK/data" >"$out"
check "a log: exit 0 ($?)" [ $? -eq 0 ]
check "…the data exact" cmp -s "$WORK/data" "$out"
check "…the header first" [ "$(head -n 1 "$log")" = "$header" ]
check "…rows while it ran, each of 11 columns" sh -c '
    [ "$(sed 1d "$1" | grep -c "^[0-9.]*,[0-9]*,,[0-9.]*,[0-9.]*,3000000,[0-9.]*,[0-9.]*,,,0$")" -ge 3 ]' sh "$log"
check "…a row an instant, in order" sh -c '
    sed 1d "$1" | cut -d, -f1 | sort -c -u -n' sh "$log"
check "…the last: all of it, 100%, final" \
    [ "$(tail -n 1 "$log" | cut -d, -f2,6,7,8,11)" = "3000000,3000000,100.00,,1" ]
check "…only one final row" [ "$(grep -c ',1$' "$log")" -eq 1 ]

# Rows drawn many times a millisecond (SIGWINCH flooding): still one row
# an instant, to the millisecond a row is written in
"$TACH" -q -L 2M -i 0.05 --log "$log" <"$WORK/data" >"$out" &
tach=$!
while kill -WINCH "$tach" 2>/dev/null; do :; done
wait "$tach"
check "redrawn at every instant: exit 0 ($?)" [ $? -eq 0 ]
check "…exact" cmp -s "$WORK/data" "$out"
check "…a row an instant" sh -c '
    sed 1d "$1" | cut -d, -f1 | sort -c -u -n' sh "$log"
check "…one final row, the last" [ "$(grep -n ',1$' "$log" | cut -d: -f1)" = \
    "$(wc -l <"$log" | tr -d ' ')" ]
# a clock in 500 ms steps, ticks every 10: the end falls in the instant
# of a tick's row, and the last row still has an instant of its own
if [ -n "${COARSECLOCK:-}" ]; then
	LD_PRELOAD=$COARSECLOCK "$TACH" -q -L 6M -i 0.01 --log "$log" \
	    <"$WORK/data" >"$out"
	check "a coarse clock: exit 0 ($?)" [ $? -eq 0 ]
	check "…a row an instant" sh -c '
	    sed 1d "$1" | cut -d, -f1 | sort -c -u -n' sh "$log"
	check "…the final row written" [ "$(grep -c ',1$' "$log")" -eq 1 ]
fi

# with a buffer: its fill and the input's rate; line mode: the lines
"$TACH" -q -b 8M --log "$log" <"$WORK/data" >"$out"
check "a buffer: the fill and rate_in in the last row" sh -c '
    tail -n 1 "$1" | grep -q "^[0-9.]*,3000000,,[0-9.]*,[0-9.]*,3000000,100.00,,0,[0-9.]*,1$"' \
    sh "$log"
seq 1 100000 >"$WORK/lines"
"$TACH" -q --line-mode --log "$log" <"$WORK/lines" >"$out"
check "line mode: the lines counted" sh -c '
    tail -n 1 "$1" | grep -q "^[0-9.]*,588895,100000,"' sh "$log"
check "…exact" cmp -s "$WORK/lines" "$out"
# -U: the store's rows, then the sending's, its size known
cat "$WORK/data" | "$TACH" -q -U - --log "$log" >"$out"
check "-U: two runs, each with its final row" \
    [ "$(grep -c ',1$' "$log")" -eq 2 ]
check "…the store's size unknown, the sending's known" sh -c '
    grep ",1$" "$1" | cut -d, -f6 | tr "\n" " " | grep -qx " 3000000 "' \
    sh "$log"
check "…exact" cmp -s "$WORK/data" "$out"
# drawn or not: -D and --force do not change the rows' start
"$TACH" --force -D 60 --log "$log" <"$WORK/data" >"$out" 2>"$WORK/err"
check "-D: rows all the same" [ "$(tail -n 1 "$log" | cut -d, -f11)" = 1 ]
check "…nothing drawn" empty "$WORK/err"

# A log that is the data: refused before it is emptied
cp "$WORK/data" "$WORK/same"
"$TACH" -q --log "$WORK/same" <"$WORK/same" >"$out" 2>"$WORK/err"
check "the log stdin's file: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: --log $WORK/same: is stdin, which it would corrupt" "$WORK/err"
check "…the file kept" cmp -s "$WORK/data" "$WORK/same"
"$TACH" -q -f "$WORK/same" --log "$WORK/same" >"$out" 2>"$WORK/err"
check "the log an -f: refused ($?)" [ $? -eq 1 ]
check "…the file kept" cmp -s "$WORK/data" "$WORK/same"
"$TACH" -q -f "$WORK/data" --log "$WORK/same" >"$WORK/same" 2>"$WORK/err"
check "the log stdout's file: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: --log $WORK/same: is stdout, which it would corrupt" "$WORK/err"
"$TACH" -q -f "$WORK/data" -o "$out" --log "$out" 2>"$WORK/err"
check "the log -o's file: refused ($?)" [ $? -eq 1 ]
check "…naming it" grep -qx \
    "tach: --log $out: is $out, which it would corrupt" "$WORK/err"
"$TACH" -q --log /dev/stdout <"$WORK/data" 2>"$WORK/err" | cat >"$out"
check "the log the output pipe: refused" grep -qx \
    "tach: --log /dev/stdout: is stdout, which it would corrupt" "$WORK/err"
check "…nothing written" empty "$out"
"$TACH" -q --log /dev/null <"$WORK/data" >"$out"
check "/dev/null: taken, exit 0 ($?)" [ $? -eq 0 ]
"$TACH" -q --log "$WORK/none/log" <"$WORK/data" >"$out" 2>"$WORK/err"
check "a missing directory: refused ($?)" [ $? -eq 1 ]
check "…nothing written" empty "$out"
"$TACH" -q --log "" </dev/null 2>"$WORK/err"
check "no name: refused ($?)" [ $? -eq 1 ]
"$TACH" -d 1 --log "$log" 2>"$WORK/err"
check "with -d: refused ($?)" [ $? -eq 1 ]

# A log that fails before a byte moves (a full disk: /dev/full) ends the
# run then; one whose reader leaves mid-run (a FIFO) says so, the copy
# goes on, exact, and exits 1
"$TACH" -q --log /dev/full <"$WORK/data" >"$out" 2>"$WORK/err"
check "/dev/full: exit 1 ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: --log /dev/full: No space left on device" "$WORK/err"
check "…before a byte moved" empty "$out"
mkfifo "$WORK/fifo"
head -n 2 <"$WORK/fifo" >"$WORK/taken" &
reader=$!
# the second half waits until the log's reader is gone
gone() { ! kill -0 $reader 2>/dev/null; }
{ head -c 1000000 "$WORK/data"; wait_until 60 gone;
    tail -c +1000001 "$WORK/data"; } |
    "$TACH" -q -i 0.05 --log "$WORK/fifo" >"$out" 2>"$WORK/err"
check "a log's reader gone: exit 1 ($?)" [ $? -eq 1 ]
wait $reader
check "…saying so, once" [ "$(grep -c \
    "^tach: --log $WORK/fifo: Broken pipe$" "$WORK/err")" -eq 1 ]
check "…the data exact" cmp -s "$WORK/data" "$out"
check "…the reader had the header" grep -qx "$header" "$WORK/taken"

# progress(1) has no such option
ln -s "$TACH" "$WORK/progress"
"$WORK/progress" --log "$log" cat </dev/null >/dev/null 2>&1
check "progress: refused ($?)" [ $? -eq 1 ]

# A FIFO whose reader stops a while: the redraw timer cuts the blocked
# write short (EINTR) and the row goes on, whole, once it reads again;
# the copy ends 0 with nothing said.  (The FIFO's pipe made one page, by
# a holder that keeps it open, so that it fills at once.)
if command -v python3 >/dev/null; then
	mkfifo "$WORK/logfifo"
	python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, 1031, 4096)	# F_SETPIPE_SZ
open(sys.argv[2], "w").close()
time.sleep(600)' "$WORK/logfifo" "$WORK/sized" &
	holder=$!
	wait_until 60 test -e "$WORK/sized"
	cat "$WORK/logfifo" >"$WORK/logged" &
	reader=$!
	kill -STOP $reader
	# (the input held at a gate, so the copy cannot end before its rows
	# fill the log's pipe)
	close_gate
	(head -c 1000 "$WORK/data"; eval "$GATED"; tail -c +1001 "$WORK/data") |
	    "$TACH" -q -i 0.01 --log "$WORK/logfifo" >"$out" 2>"$WORK/err" &
	copy=$!
	check "a stopped FIFO reader: the log's write waits" wait_until 60 \
	    grep -Eq 'pipe_(wait_)?writ' "/proc/$copy/wchan"
	kill -CONT $reader
	open_gate
	wait $copy
	check "…then goes on: exit 0 ($?)" [ $? -eq 0 ]
	check "…nothing said ($(head -c 200 "$WORK/err"))" empty "$WORK/err"
	check "…exact" cmp -s "$WORK/data" "$out"
	kill $holder
	wait $reader
	check "…every row whole" awk -F, 'NF != 11 { exit 1 }' "$WORK/logged"
	check "…the last one final" sh -c "tail -n 1 '$WORK/logged' | grep -q ',1$'"
fi

# SIGUSR1 while -o waits for a FIFO's reader: said at once
mkfifo "$WORK/ofifo"
"$TACH" -q -o "$WORK/ofifo" <"$WORK/data" 2>"$WORK/err" &
copy=$!
wait_until 60 caught $copy USR1
check "-o waiting for a FIFO's reader" wait_until 60 grep -Eq "fifo|partner" "/proc/$copy/wchan"
kill -USR1 $copy
check "…SIGUSR1 answered" wait_until 60 grep -qx \
    "tach: -o $WORK/ofifo: waiting for a reader; 0 bytes so far" "$WORK/err"
cat "$WORK/ofifo" >"$out"
wait $copy
check "…then exact ($?)" cmp -s "$WORK/data" "$out"

# A log that fails while -U stores the input says so once: the sending
# that follows does not write it again, and the run exits 1
mkfifo "$WORK/lfifo"
head -c 1 "$WORK/lfifo" >/dev/null &
leaver=$!
close_gate
(head -c 1000 "$WORK/data"; eval "$GATED"; tail -c +1001 "$WORK/data") |
    "$TACH" -q -i 0.02 -U - --log "$WORK/lfifo" >"$out" 2>"$WORK/err" &
copy=$!
wait $leaver
check "-U: the log's reader gone while storing: said" \
    wait_until 60 grep -q "^tach: --log $WORK/lfifo: Broken pipe" "$WORK/err"
open_gate
wait $copy
check "…exit 1 ($?)" [ $? -eq 1 ]
check "…said once" [ "$(grep -c -- '--log' "$WORK/err")" -eq 1 ]
check "…the data exact all the same" cmp -s "$WORK/data" "$out"

done_testing
