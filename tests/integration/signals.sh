# Signals while data moves: floods of SIGWINCH and SIGUSR1, stops and
# continues, and the terminating signals, in filter and command mode.
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
	sleep 0.2	# until tach has its handlers: before, USR1 kills, as dd
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
sleep 0.3
kill -USR1 $pid
wait $pid
check "-q: SIGUSR1 report" grep -Eq "^tach: [0-9]+ bytes \([0-9.]+ [KMG]?i?B\) in 0:00:0[0-9], .*/s$" "$err"
check "-q: SIGUSR1 leaves data exact" [ "$(cksum <"$out")" = "$want" ]

# Terminating signals: the line ends, then tach dies of the signal.
for sig in INT TERM HUP; do
	for mode in filter command; do
		sleep 30 >"$WORK/fifo" &
		feeder=$!
		if [ $mode = filter ]; then
			"$TACH" --force -l 100 <"$WORK/fifo" 2>"$err" >/dev/null &
		else
			"$TACH" --force -e -l 100 sh -c 'echo $$ >"$0"; exec cat' \
			    "$WORK/child" <"$WORK/fifo" 2>"$err" >/dev/null &
		fi
		pid=$!
		sleep 0.5
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

done_testing
