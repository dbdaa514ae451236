# SPDX-License-Identifier: BSD-2-Clause
# covers: signals while data moves: floods of SIGWINCH and SIGUSR1, stops
# and continues, and the terminating signals, in filter and command mode.
. "$(dirname "$0")/lib.sh"

data=$WORK/data
out=$WORK/out
err=$WORK/err
random "$data" 16777216
# stream: the 16 MiB file 12 times over, slowly enough to be signalled.
stream() {
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cat "$data"; sleep 0.05; done
}
want=$(stream | cksum)
mkfifo "$WORK/fifo"

# flood PID SIGNAL...: sends the signals round and round until PID ends.
flood() {
	pid=$1
	shift
	while kill -0 "$pid" 2>/dev/null; do
		for sig; do kill -s "$sig" "$pid" 2>/dev/null; done
	done
}

for opts in "" --no-splice; do
	stream >"$WORK/fifo" &
	"$TACH" --force -i 0.05 $opts <"$WORK/fifo" 2>"$err" >"$out" &
	pid=$!
	# until tach has its handlers: before, USR1 kills, as dd
	check "flood ($opts): handlers installed" wait_until 60 caught $pid USR1 WINCH
	flood $pid WINCH USR1 &
	wait $pid
	status=$?
	wait
	check "WINCH+USR1 flood ($opts): exit 0 (got $status)" [ $status -eq 0 ]
	check "WINCH+USR1 flood ($opts): exact" [ "$(cksum <"$out")" = "$want" ]
	check "WINCH+USR1 flood ($opts): counts reported" \
	    grep -Eq "tach: [0-9]+ bytes \(" "$err"

	stream >"$WORK/fifo" &
	"$TACH" -q $opts <"$WORK/fifo" >"$out" &
	pid=$!
	( while kill -0 $pid 2>/dev/null; do
		kill -STOP $pid 2>/dev/null; sleep 0.01; kill -CONT $pid 2>/dev/null
		sleep 0.01
	done ) &
	wait $pid
	status=$?
	wait
	check "STOP/CONT ($opts): exit 0 (got $status)" [ $status -eq 0 ]
	check "STOP/CONT ($opts): exact" [ "$(cksum <"$out")" = "$want" ]
done

# SIGUSR1 reports, on stderr, even with -q; the data is untouched.
stream >"$WORK/fifo" &
"$TACH" -q <"$WORK/fifo" 2>"$err" >"$out" &
pid=$!
check "-q: handlers installed" wait_until 60 caught $pid USR1
kill -USR1 $pid
wait $pid
check "-q: SIGUSR1 report, in seconds to the millisecond" grep -Eq "^tach: [0-9]+ bytes \([0-9.]+ [KMG]?i?B\) in [0-9]+\.[0-9]{3} s, .*/s$" "$err"
check "-q: SIGUSR1 leaves data exact" [ "$(cksum <"$out")" = "$want" ]

# Terminating signals: the line ends, then tach dies of the signal.
for sig in INT TERM HUP; do
	for mode in filter command; do
		sleep 600 >"$WORK/fifo" &
		feeder=$!
		# a stale $err would pass the first-frame wait at once
		rm -f "$WORK/child" "$err"
		# a shell starts background jobs with SIGINT ignored, and
		# tach keeps what it was given: give it the default
		if [ $mode = filter ]; then
			env --default-signal=INT "$TACH" --force -l 100 \
			    <"$WORK/fifo" 2>"$err" >/dev/null &
		else
			env --default-signal=INT "$TACH" --force -e -l 100 \
			    sh -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"; exec cat' \
			    "$WORK/child" <"$WORK/fifo" 2>"$err" >/dev/null &
		fi
		pid=$!
		# the first frame is drawn once the handlers are in
		check "SIG$sig ($mode): first frame" wait_until 60 \
		    size_at_least "$err" 1
		[ $mode = filter ] || check "SIG$sig: cmd started" \
		    wait_until 60 test -s "$WORK/child"
		kill -s $sig $pid
		wait $pid
		status=$?
		kill $feeder 2>/dev/null
		wait $feeder 2>/dev/null
		case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; esac
		check "SIG$sig ($mode): status $((128 + n)) (got $status)" \
		    [ $status -eq $((128 + n)) ]
		check "SIG$sig ($mode): the line was ended" \
		    sh -c "tail -c 20 '$err' | od -c | grep -q '\\\\n'"
		if [ $mode = command ]; then
			child=$(cat "$WORK/child")
			check "SIG$sig: cmd $child did not outlive tach" \
			    sh -c "! kill -0 $child 2>/dev/null"
		fi
	done
done

# Signals the parent ignored stay ignored, in tach and in cmd: nohup's
# SIGHUP, and a shell's SIGINT for background jobs.
sleep 600 >"$WORK/fifo" &
feeder=$!
(trap '' HUP; exec "$TACH" --force -l 100 -e sh -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"; exec cat' "$WORK/child2" \
    <"$WORK/fifo" 2>"$err" >/dev/null) &
pid=$!
check "ignored HUP: cmd started" wait_until 60 test -s "$WORK/child2"
check "ignored HUP: cmd keeps it ignored" ignores "$(cat "$WORK/child2")" HUP
check "ignored HUP: tach keeps it ignored" ignores $pid HUP
check "ignored HUP: USR1 caught" wait_until 60 caught $pid USR1
# USR1 after HUP: the report proves HUP did not end tach
kill -HUP $pid
kill -USR1 $pid
check "ignored HUP: tach lives on to report" wait_until 60 grep -q "bytes (" "$err"
check "ignored HUP: still running" kill -0 $pid
kill -TERM $pid
wait $pid
status=$?
check "then SIGTERM: 143 (got $status)" [ $status -eq 143 ]
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null

# pkill -USR1 tach reaches every process named tach: the -z feeder, a
# copy of tach, ignores it and the parent reports once
need gzip
gzip -c "$data" >"$WORK/data.gz"
rm -f "$err"
{ cat "$WORK/data.gz"; gated; } | "$TACH" -q -z 2>"$err" >"$out" &
pid=$!
feeder_of() {
	for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
		[ "$(cat "/proc/$c/comm" 2>/dev/null)" = tach ] && echo "$c" &&
		    return 0
	done
	return 1
}
has_feeder() { feeder_of >/dev/null; }
check "-z feeder: started" wait_until 60 has_feeder
child=$(feeder_of)
check "-z feeder: it ignores USR1" wait_until 60 ignores "$child" USR1
check "-z: tach catches USR1" wait_until 60 caught $pid USR1
kill -USR1 "$pid" "$child"
check "-z: one report" wait_until 60 grep -q "bytes (" "$err"
open_gate
wait $pid
status=$?
check "-z with USR1 to both: exit 0 (got $status)" [ $status -eq 0 ]
check "-z with USR1 to both: exact" cmp -s "$data" "$out"
check "-z with USR1 to both: a single report" \
    [ "$(grep -c "bytes (" "$err")" -eq 1 ]

done_testing
