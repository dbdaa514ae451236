# SPDX-License-Identifier: BSD-2-Clause
# covers: the bar's other terminals and modes, through tmux: TERM=dumb and
# unset, colour and NO_COLOR, ^Z and fg, SIGTERM, and command mode's stdout.
# Producers and commands wait at a gate that the test opens.
. "$(dirname "$0")/lib.sh"
tmux_session
half="(head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero)"

# Patterns waited for must not be in the typed command line itself.

# Colour where the terminal has it, none with NO_COLOR.
close_gate
fresh_screen
run "clear; $half | '$TACH' -l 2000000 -p c1: >/dev/null; echo rc=\$?"
wait_for "c1:  50%"
check "colour on a colour terminal" sh -c "tmux -L '$sock' capture-pane -p -e | grep 'c1:' | grep -q '\[32m'"
open_gate
wait_for "rc=0"
close_gate
fresh_screen
run "clear; $half | NO_COLOR=1 '$TACH' -l 2000000 -p c2: >/dev/null; echo rc=\$?"
wait_for "c2:  50%"
snap -e >/dev/null
check "no colour with NO_COLOR: drawn" grep -q "c2:" "$WORK/snap"
lacks "no colour with NO_COLOR" "$WORK/snap" "$(printf '\033')\\[32m"
open_gate
wait_for "rc=0"

# TERM=dumb and no TERM: carriage return and padding, still one line.
for term in "TERM=dumb" "-u TERM"; do
	close_gate
	fresh_screen
	run "clear; $half | env $term '$TACH' -l 2000000 -p t: >/dev/null; echo rc=\$?"
	check "$term: draws" wait_for "t:  50%"
	open_gate
	check "$term: ends" wait_for "rc=0"
	check "$term: one line, then the next command" sh -c "tmux -L '$sock' capture-pane -p | grep -A1 't: 100%' | tail -n 1 | grep -q '^rc=0'"
done

# ^Z stops tach with the cursor shown; fg resumes; the stop is not
# counted as transfer time.  Stopped for at least 3 s by tach's own
# clock would show as 0:00:03 or more.
close_gate
fresh_screen
run "clear; $half | '$TACH' -l 2000000 -p z: >/dev/null"
wait_for "z:  50%"
tmx send-keys C-z
check "^Z: job stopped" wait_for "Stopped"
check "^Z: cursor visible while stopped" [ "$(cursor)" = 1 ]
open_gate
t0=$(date +%s)
wait_until 60 sh -c "[ \$((\$(date +%s) - $t0)) -ge 4 ]"
run "fg"
check "fg: finishes" wait_for "z: 100%"
final=$(screen | grep "z: 100%")
check "stopped time not counted ($final)" sh -c "echo '$final' | grep -Eq '0:00:0[0-2]( |$)'"

# SIGTERM mid-transfer: line ended, cursor back, status 143.  tach reads
# the terminal, so no other process keeps the job alive.
fresh_screen
run "clear; sh -c 'echo \$\$ >$WORK/pid; exec \"$TACH\" -l 1000 -p term: >/dev/null'"
wait_for "term:   0%"
kill -TERM "$(cat "$WORK/pid")"
wait_for '$ '
run 'echo rc=$?'
check "SIGTERM: status 143" wait_for "rc=143"
check "SIGTERM: cursor visible" [ "$(cursor)" = 1 ]
check "SIGTERM: status on its own line" sh -c "tmux -L '$sock' capture-pane -p | grep -q '^rc=143'"

# Command mode draws on stdout, or on stderr with -e.
head -c 2000000 /dev/urandom >"$WORK/data"
slow="sh -c 'head -c 500000 >/dev/null; : >$WORK/read; $GATED; cat >/dev/null'"
close_gate
fresh_screen
run "clear; '$TACH' -f '$WORK/data' -p out: $slow; echo rc=\$?"
check "command mode: bar on stdout" wait_for "out:  "
open_gate
wait_for "rc=0"
close_gate
rm -f "$WORK/read"
fresh_screen
run "clear; '$TACH' -f '$WORK/data' -p hidden: $slow >/dev/null; echo rc=\$?"
# the command has read its first 500000 bytes: tach had its chance to draw
check "command mode, stdout not a tty: data flows" wait_until 60 test -e "$WORK/read"
snap >/dev/null
lacks "command mode, stdout not a tty: nothing" "$WORK/snap" "hidden:  "
open_gate
wait_for "rc=0"
close_gate
fresh_screen
run "clear; '$TACH' -e -f '$WORK/data' -p err: $slow >/dev/null; echo rc=\$?"
check "command mode -e: bar on stderr" wait_for "err:  "
open_gate
wait_for "rc=0"

done_testing
