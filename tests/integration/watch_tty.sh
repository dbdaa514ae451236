# SPDX-License-Identifier: BSD-2-Clause
# covers: -d on a real terminal, through tmux: one line per file, stacked,
# the block redrawn in place as files open and close, the last lines kept.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the watch test reads /proc (Linux)"
tmux_session

random "$WORK/one" 3000000
random "$WORK/two" 1000000
start_reader
# rows TEXT: how many rows of the screen show TEXT
rows() { screen | grep -cF -- "$1"; }
one_row() { [ "$(rows "$1")" -eq 1 ]; }
no_row() { [ "$(rows "$1")" -eq 0 ]; }

say "open $WORK/one"
fda=$(answer)
# the watch's own stdout (the ack file) is a file the reader has open too
fresh_screen
run "clear; '$TACH' -d $reader -i 0.05 3>&-; echo rc=\$?"
# (each line starts with the command and PID, the path's middle elided
# where the row is short: the file's name is matched)
check "the file's line, the command and PID first" wait_for "tach-test-helper $reader: "
check "the file's line" wait_for "/one   0%"
say "read $fda 1500000"
check "the line follows the reader" wait_for "/one  50%"
say "open $WORK/two"
fdb=$(answer)
check "a second file gets a line of its own" wait_for "/two   0%"
check "the first line is still there, once" one_row "/one  50%"
check "the lines are stacked, a above b" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -F -e '/one' -e '/two' | head -n 1 | grep -qF '/one'"
say "read $fda 1500000"
check "the block is redrawn in place" wait_for "/one 100%"
check "no stale copy of a line is left" one_row "/one"
check "nor of the other" one_row "/two"
check "the cursor is not hidden while the block is drawn" [ "$(cursor)" = 1 ]
say "close $fdb"
check "a closed file's line goes" wait_until 60 no_row "/two"
check "the other stays" one_row "/one 100%"
exec 3>&-
check "the process's exit ends the watch with 0" wait_for "rc=0"
check "the last line stays on the screen" one_row "/one 100%"
check "with the status on the next row" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -A1 -F '/one 100%' | tail -n 1 | grep -q '^rc=0'"
check "the cursor is back" [ "$(cursor)" = 1 ]
wait "$reader"

# TERM=dumb: no way up, so the first line only while it runs, said once,
# and every file's last line at the end.
start_reader
say "open $WORK/one"
say "open $WORK/two"
fresh_screen
run "clear; TERM=dumb '$TACH' -d $reader -i 0.05 3>&-; echo rc=\$?"
check "dumb: says only one line can be shown" \
    wait_for "cannot move the cursor up: one line is shown"
check "dumb: said once" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p -J | grep -c 'cannot move the cursor up') -eq 1 ]"
# the reader's files: its stdout (the ack file), one, two
check "dumb: the first file's line" wait_for "/ack "
check "dumb: not the others'" sh -c \
    "! tmux -L '$sock' capture-pane -p | grep -q -e '/one' -e '/two'"
exec 3>&-
check "dumb: done" wait_for "rc=0"
check "dumb: every file's last line at the end" sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -A1 -F '/one   0%' | tail -n 1 | grep -qF '/two   0%'"
# each kept its note, the reason it stands short of its end
check "dumb: …each with its note" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p -J | grep -c '/[ot][nw][eo]   0%.* as seen [0-9.]* s before the end') -eq 2 ]"
wait "$reader"

# Watched by name: a process that ends while another goes on leaves its
# last line on the screen, and the other's block goes on below it.
cp "$(command -v sleep)" "$WORK/slp"
"$WORK/slp" 300 3<"$WORK/one" &
first=$!
"$WORK/slp" 300 3<"$WORK/two" &
second=$!
fresh_screen
run "clear; '$TACH' -d slp -i 0.05; echo rc=\$?"
check "by name: both lines" wait_until 60 sh -c \
    "tmux -L '$sock' capture-pane -p | grep -q 'slp $second: .*/two ' &&
    tmux -L '$sock' capture-pane -p | grep -q 'slp $first: .*/one '"
kill $first
wait $first
check "…one ended: the other still drawn" wait_for "slp $second: "
check "…the ended one's last line left" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -q 'slp $first: .*/one '"
check "…above the block that goes on" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -e 'slp $first:' -e 'slp $second:' |
    head -n 1 | grep -q 'slp $first:'"
kill $second
wait $second
check "…the watch ends 0" wait_for "rc=0"
check "…both last lines stay" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p | grep -c -e 'slp $first: .*/one ' -e 'slp $second: .*/two ') -eq 2 ]"

# A watched file renamed, once open, to a name that sets the title and
# clears the screen: the line shows it escaped, the screen is untouched.
start_reader
say "open $WORK/one"
hostile=$WORK/$(printf 'h\033]0;owned\007\033[2Jx')
mv "$WORK/one" "$hostile"
title=$(tmx display-message -p '#{pane_title}')
fresh_screen
run "clear; echo marker-before; '$TACH' -d $reader -i 0.05 3>&-; echo rc=\$?"
check "hostile path: drawn escaped (its end)" wait_for '\x07\x1b[2Jx'
exec 3>&-
check "hostile path: done" wait_for "rc=0"
check "hostile path: the screen was not cleared" shows "marker-before"
check "hostile path: the title is unchanged" \
    [ "$(tmx display-message -p '#{pane_title}')" = "$title" ]
wait "$reader"

done_testing
