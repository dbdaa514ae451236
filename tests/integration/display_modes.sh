# The bar's other terminals and modes, through tmux: TERM=dumb and unset,
# colour and NO_COLOR, ^Z and fg, SIGTERM, and command mode's stdout.
. "$(dirname "$0")/lib.sh"
tmux_session
half="(head -c 1000000 /dev/zero; sleep 2; head -c 1000000 /dev/zero)"

# Patterns waited for must not be in the typed command line itself.

# Colour where the terminal has it, none with NO_COLOR.
run "clear; $half | '$TACH' -l 2000000 -p c1: >/dev/null"
wait_for "c1:  50%" 5
check "colour on a colour terminal" sh -c "tmux -L '$sock' capture-pane -p -e | grep 'c1:' | grep -q '\[32m'"
wait_for "100%" 5
run "clear; $half | NO_COLOR=1 '$TACH' -l 2000000 -p c2: >/dev/null"
wait_for "c2:  50%" 5
check "no colour with NO_COLOR" sh -c "! tmux -L '$sock' capture-pane -p -e | grep 'c2:' | grep -q '\[32m'"
wait_for "100%" 5

# TERM=dumb and no TERM: carriage return and padding, still one line.
for term in "TERM=dumb" "-u TERM"; do
	run "clear; $half | env $term '$TACH' -l 2000000 -p t: >/dev/null; echo rc=\$?"
	check "$term: draws" wait_for "t:  50%" 5
	check "$term: ends" wait_for "rc=0" 6
	check "$term: one line, then the next command" sh -c "tmux -L '$sock' capture-pane -p | grep -A1 't: 100%' | tail -n 1 | grep -q '^rc=0'"
done

# ^Z stops tach with the cursor shown; fg resumes; the stop is not
# counted as transfer time.
run "clear; (head -c 1000000 /dev/zero; sleep 1; head -c 1000000 /dev/zero) | '$TACH' -l 2000000 -p z: >/dev/null"
wait_for "z:  50%" 5
tmx send-keys C-z
sleep 0.5
check "^Z: cursor visible while stopped" [ "$(cursor)" = 1 ]
check "^Z: job stopped" wait_for "Stopped" 3
sleep 3
run "fg"
check "fg: finishes" wait_for "z: 100%" 6
final=$(screen | grep "z: 100%")
check "stopped time not counted ($final)" sh -c "echo '$final' | grep -Eq '0:00:0[0-2]( |$)'"

# SIGTERM mid-transfer: line ended, cursor back, status 143.  tach reads
# the terminal, so no other process keeps the job alive.
run "clear; sh -c 'echo \$\$ >$WORK/pid; exec \"$TACH\" -l 1000 -p term: >/dev/null'"
wait_for "term:   0%" 5
kill -TERM "$(cat "$WORK/pid")"
sleep 0.5
run 'echo rc=$?'
check "SIGTERM: status 143" wait_for "rc=143" 5
check "SIGTERM: cursor visible" [ "$(cursor)" = 1 ]
check "SIGTERM: status on its own line" sh -c "tmux -L '$sock' capture-pane -p | grep -q '^rc=143'"

# Command mode draws on stdout, or on stderr with -e.
head -c 2000000 /dev/urandom >"$WORK/data"
slow="sh -c 'head -c 500000 >/dev/null; sleep 2; cat >/dev/null'"
run "clear; '$TACH' -f '$WORK/data' -p out: $slow"
check "command mode: bar on stdout" wait_for "out:  " 5
wait_for '$ ' 5
run "clear; '$TACH' -f '$WORK/data' -p hidden: $slow >/dev/null; echo rc=\$?"
wait_for "rc=0" 6
check "command mode, stdout not a tty: nothing" sh -c "! tmux -L '$sock' capture-pane -p | grep -q 'hidden:  '"
run "clear; '$TACH' -e -f '$WORK/data' -p err: $slow >/dev/null"
check "command mode -e: bar on stderr" wait_for "err:  " 5
wait_for '$ ' 5

done_testing
