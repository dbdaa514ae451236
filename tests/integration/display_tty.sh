# The bar on a real terminal, through tmux: its fields, a resize, a stall,
# ^C, a background job, and silence when stderr is not a terminal.
. "$(dirname "$0")/lib.sh"
tmux_session

# Nothing reaches a non-terminal unless asked for.
head -c 3000000 /dev/zero | "$TACH" -l 3000000 2>"$WORK/err" >/dev/null
check "stderr to a file stays empty" [ ! -s "$WORK/err" ]
head -c 3000000 /dev/zero | "$TACH" --force -l 3000000 2>"$WORK/err" >/dev/null
check "--force draws to a file" grep -q "100%" "$WORK/err"


# Half the input, then a pause: the bar stands at 50% and keeps moving.
run "clear; (head -c 1000000 /dev/zero; sleep 5; head -c 1000000 /dev/zero) | '$TACH' -l 2000000 -p 'half: ' >/dev/null; echo rc=\$?"
check "bar at 50%" wait_for "half:  50% [" 5
line=$(screen | grep -F "half:")
check "bar shows bytes ($line)" sh -c "echo '$line' | grep -q '977 KiB'"
check "bar shows ETA" sh -c "echo '$line' | grep -q 'ETA'"
check "bar has eighth blocks in UTF-8" sh -c "echo '$line' | grep -q '█'"
check "cursor hidden while drawing" [ "$(cursor)" = 0 ]
first=$(screen | grep -F "half:")
sleep 1.2
second=$(screen | grep -F "half:")
check "line keeps moving during a stall" [ "$first" != "$second" ]
check "stalled mark" wait_for "stalled" 5
check "finishes" wait_for "rc=0" 10
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
run "clear; (head -c 1000000 /dev/zero; sleep 3) | '$TACH' -l 2000000 >/dev/null"
wait_for " 50%" 5
tmx resize-window -x 60 2>/dev/null || tmx resize-pane -x 60
sleep 0.8
width=$(screen | grep -F "50%" | cols | head -n 1)
check "after a resize the line fits 60 columns ($width)" [ "${width:-99}" -le 59 ]
wait_for "100%" 6
tmx resize-window -x 100 2>/dev/null || tmx resize-pane -x 100

# A stalled consumer: the line keeps changing.
run "clear; head -c 100000000 /dev/zero | '$TACH' -l 100000000 | sleep 3"
wait_for "%" 5
a=$(screen | grep -F "%")
sleep 1.2
b=$(screen | grep -F "%")
check "stalled consumer: line still changes" [ "$a" != "$b" ]
wait_for '$' 10
sleep 3.5

# ^C: the line ends cleanly, the cursor comes back, the status is 130.
run "clear; sleep 30 | '$TACH' -l 1000"
wait_for "0%" 5
tmx send-keys C-c
sleep 0.5
run 'echo rc=$?'
check "^C ends with status 130" wait_for "rc=130" 5
check "^C: cursor visible again" [ "$(cursor)" = 1 ]
check "^C: status on its own line" sh -c "tmux -L '$sock' capture-pane -p | grep -q '^rc=130'"

# A background job draws nothing and is not stopped; fg brings the bar.
run "clear; stty tostop; (sleep 2; head -c 1000 /dev/zero) | '$TACH' -l 2000 -p bg: >/dev/null &"
sleep 1
check "background job draws nothing" sh -c "! tmux -L '$sock' capture-pane -p | grep -q 'bg:'"
run "fg"
check "after fg the bar is drawn" wait_for "bg:" 5
run "stty -tostop"

done_testing
