# -d on a real terminal, through tmux: one line per file, stacked, the
# block redrawn in place as files open and close, the last lines kept.
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
run "clear; '$TACH' -d $reader -i 0.05 3>&-; echo rc=\$?"
check "the file's line" wait_for "$WORK/one   0%"
say "read $fda 1500000"
check "the line follows the reader" wait_for "$WORK/one  50%"
say "open $WORK/two"
fdb=$(answer)
check "a second file gets a line of its own" wait_for "$WORK/two   0%"
check "the first line is still there, once" one_row "$WORK/one  50%"
check "the lines are stacked, a above b" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -F -e '$WORK/one' -e '$WORK/two' | head -n 1 | grep -qF '$WORK/one'"
say "read $fda 1500000"
check "the block is redrawn in place" wait_for "$WORK/one 100%"
check "no stale copy of a line is left" one_row "$WORK/one"
check "nor of the other" one_row "$WORK/two"
check "the cursor is hidden while the block is drawn" [ "$(cursor)" = 0 ]
say "close $fdb"
check "a closed file's line goes" wait_until 60 no_row "$WORK/two"
check "the other stays" one_row "$WORK/one 100%"
exec 3>&-
check "the process's exit ends the watch with 0" wait_for "rc=0"
check "the last line stays on the screen" one_row "$WORK/one 100%"
check "with the status on the next row" sh -c \
    "tmux -L '$sock' capture-pane -p | grep -A1 -F '$WORK/one 100%' | tail -n 1 | grep -q '^rc=0'"
check "the cursor is back" [ "$(cursor)" = 1 ]
wait "$reader"

done_testing
