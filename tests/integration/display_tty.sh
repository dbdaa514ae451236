# SPDX-License-Identifier: BSD-2-Clause
# covers: the bar on a real terminal, through tmux: its fields, a resize, a
# stall, ^C, a background job, and silence when stderr is not a terminal.
# Producers wait at a gate that the test opens, so nothing depends on how
# fast the machine is.
. "$(dirname "$0")/lib.sh"
tmux_session

# Nothing reaches a non-terminal unless asked for.
head -c 3000000 /dev/zero | "$TACH" -l 3000000 2>"$WORK/err" >/dev/null
check "stderr to a file stays empty" empty "$WORK/err"
head -c 3000000 /dev/zero | "$TACH" --force -l 3000000 2>"$WORK/err" >/dev/null
check "--force draws to a file" grep -q "100%" "$WORK/err"

# Another program's message as the pipeline starts (ssh's refusal) gets
# a row of its own: the first frame waits for the first tick.
row_starts() { screen | grep -q "^$1"; }
no_row() { ! screen | grep -qF -- "$1"; }
close_gate
fresh_screen
run "clear; (echo 'ssh: connect to host h port 22: Connection refused' >&2; $GATED) | '$TACH' -i 3600 -l 100 -p 'first: ' >/dev/null; echo rc=\$?"
check "a message at the start" wait_for "Connection refused"
check "…on a row of its own" row_starts 'ssh: connect'
check "…no frame drawn before the first tick" no_row 'first:'
open_gate
check "…the closing line after it" wait_for "rc=0"
check "…on its own row" row_starts 'first: '
close_gate
fresh_screen
run "clear; (head -c 50 /dev/zero; $GATED) | '$TACH' -i 0.05 -l 100 -p 'ticked: ' >/dev/null; echo rc=\$?"
check "the first tick draws the first frame" wait_for "ticked:  50%"
open_gate
check "…and ends" wait_for "rc=0"

# Half the input, then a stall at the gate: the bar stands at 50% and
# keeps moving.
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | '$TACH' -l 2000000 -p 'half: ' >/dev/null; echo rc=\$?"
check "bar at 50%" wait_for "half:  50% ["
line=$(screen | grep -F "half:")
check "bar shows bytes ($line)" sh -c "echo '$line' | grep -q '977 KiB'"
check "bar shows ETA" sh -c "echo '$line' | grep -q 'ETA'"
check "bar has eighth blocks in UTF-8" sh -c "echo '$line' | grep -q '█'"
check "cursor never hidden (pv does not hide it either)" [ "$(cursor)" = 1 ]
check "line keeps moving during a stall" changes "half:"
check "stalled mark" wait_for "stalled"
open_gate
check "finishes" wait_for "rc=0"
final=$(screen | grep -F "half:")
check "final line stays with 100% ($final)" sh -c "echo '$final' | grep -q '100%'"
check "final line has the average" sh -c "echo '$final' | grep -q 'avg'"
check "final line ends with a newline" sh -c "tmux -L '$sock' capture-pane -p -J | grep -A1 -F 'half:' | tail -n 1 | grep -q '^rc=0'"
check "cursor visible after the end" [ "$(cursor)" = 1 ]
# columns, not bytes: the bar's blocks take three bytes each
cols() { while IFS= read -r l; do printf '%s' "$l" | wc -m; done; }
width=$(screen | grep -F "half:" | cols)
check "line fits 100 columns ($width)" [ "$width" -le 99 ]

# A resize: the next frames fit the new width.
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED) | '$TACH' -l 2000000 -p rs: >/dev/null; echo rc=\$?"
wait_for "rs:  50%"
tmx resize-window -x 60 2>/dev/null || tmx resize-pane -x 60
narrow() {
	w=$(screen | grep -F "rs:" | cols | head -n 1)
	[ "${w:-100}" -le 59 ]
}
check "after a resize the line fits 60 columns" wait_until 60 narrow
open_gate
wait_for "rc=0"
tmx resize-window -x 100 2>/dev/null || tmx resize-pane -x 100

# A stalled consumer: the line keeps changing.
close_gate
fresh_screen
run "clear; head -c 100000000 /dev/zero | '$TACH' -l 100000000 -p sc: | ($GATED; cat >/dev/null); echo rc=\$?"
wait_for "sc:"
check "stalled consumer: line still changes" changes "sc:"
open_gate
wait_for "rc=0"

# ^C: the line ends cleanly, the cursor comes back, the status is 130.
fresh_screen
run "clear; sleep 600 | '$TACH' -l 1000 -p ci:"
wait_for "ci:   0%"
tmx send-keys C-c
wait_for '$ '
run 'echo rc=$?'
check "^C ends with status 130" wait_for "rc=130"
check "^C: cursor visible again" [ "$(cursor)" = 1 ]
check "^C: status on its own line" sh -c "tmux -L '$sock' capture-pane -p | grep -q '^rc=130'"

# A background job draws nothing and is not stopped; fg brings the bar.
# The job holds its data at the gate until the screen has been read.
close_gate
fresh_screen
run "clear; stty tostop; ($GATED; head -c 1000 /dev/zero) | '$TACH' -l 2000 -p bg: >/dev/null &"
check "background job started" wait_for "[1]"
# the job's tach has drawn its first frame by the time it reads stdin;
# its handlers are a sign it got that far
wait_until 60 pgrep -f -- "-p bg:" >/dev/null
bgpid=$(pgrep -n -f -- "-p bg:")
check "background tach running" wait_until 60 caught "$bgpid" ALRM
snap >/dev/null
lacks "background job draws nothing" "$WORK/snap" "bg:"
run "fg"
check "after fg the bar is drawn" wait_for "bg:"
open_gate
run "stty -tostop"

# --stats on a terminal: the rates' shape as a sparkline under the numbers
# (the first half at 8 MiB/s, the rest at 2: full bars, then low ones);
# to a file, only the numbers.
head -c 4000000 /dev/zero >"$WORK/zeros"
fresh_screen
run "clear; (head -c 2000000 | '$TACH' -q -L 8M; '$TACH' -q -L 2M) <'$WORK/zeros' | '$TACH' -q --stats -i 0.05 >/dev/null"
check "--stats: a sparkline on a terminal" wait_for "rate over the run: "
spark=$(screen | grep -F "rate over the run: " | sed 's/.*rate over the run: //')
# (the top early, the last cells low: a slow start, or a loaded machine,
# may blur the edge between)
check "…full bars, then low ones ($spark)" sh -c \
    'printf "%s\n" "$1" |
    LC_ALL=C.UTF-8 grep -q "^.\{0,6\}█.*[▁▂▃ ]\{4\}$"' sh "$spark"
"$TACH" -q --stats -i 0.05 -L 20M <"$WORK/zeros" >/dev/null 2>"$WORK/err"
check "…none to a file" sh -c '! grep -q "rate over the run" "$1" &&
    grep -q "rate over .* intervals" "$1"' sh "$WORK/err"

done_testing
