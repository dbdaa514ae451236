# SPDX-License-Identifier: BSD-2-Clause
# covers: the terminal's edges (issue 32): a terminal that stops reading
# never holds the data or the exit; ^C, long names, a size passed and cmd's
# end leave tidy lines.  In a tmux terminal, 100x30.
. "$(dirname "$0")/lib.sh"
tmux_session

random "$WORK/data" 20000000
out=$WORK/out

# ended NAME: the command line run with NAME has finished
ended() { [ -e "$WORK/ended-$1" ]; }
started() { [ -e "$WORK/started-$1" ]; }

# ^S: the terminal stops reading; the copy, and tach's exit, go on.  The
# command is running (its input a FIFO not yet fed) before the ^S: bash
# itself would block echoing what is typed.
mkfifo "$WORK/feed"
for form in filter cursor command; do
	case $form in
	filter)  cmd="'$TACH' -i 0.05 <'$WORK/feed' >'$out'" ;;
	cursor)  cmd="'$TACH' -c -i 0.05 <'$WORK/feed' >'$out'" ;;
	command) cmd="'$TACH' -i 0.05 -f '$WORK/feed' cp /dev/stdin '$out'" ;;
	esac
	rm -f "$out"
	fresh_screen
	run "touch '$WORK/started-$form'; $cmd; touch '$WORK/ended-$form'"
	wait_until 60 started $form
	tmx send-keys C-s
	cat "$WORK/data" >"$WORK/feed"
	check "^S, $form: tach ended while the terminal was stopped" \
	    wait_until 60 ended $form
	tmx send-keys C-q
	check "^S, $form: exact" cmp -s "$WORK/data" "$out"
	wait_for '$'
done

# command mode ends in one line when cmd wrote nothing to the terminal
random "$WORK/small" 3000000
fresh_screen
run "'$TACH' -i 0.05 -L 4m -f '$WORK/small' cp /dev/stdin '$out'; echo rc=\$?"
check "command mode: done" wait_for "rc=0"
snap >/dev/null
check "command mode: one line of the bar ($(grep -c '%' "$WORK/snap"))" \
    [ "$(grep -c '%' "$WORK/snap")" -eq 1 ]
check "command mode: it is the last one" grep -q '100%.* avg ' "$WORK/snap"

# -c and ^C: the last line starts at the row's start, over the echoed ^C,
# and fits the width: it does not wrap onto a second row
fresh_screen
run "sleep 600 | '$TACH' -c -l 1000 -N cc"
wait_for "cc:   0%"
tmx send-keys C-c
# (bash drops the rest of a command line that ^C ended: wait for "$ ")
prompt_back() { screen | grep -v '^$' | tail -n 1 | grep -qx '\$ *'; }
check "-c ^C: the prompt is back" wait_until 60 prompt_back
snap >/dev/null
check "-c ^C: the last line at a row's start" grep -q '^cc:   0%' "$WORK/snap"
check "-c ^C: one line of it" [ "$(grep -c 'cc:' "$WORK/snap")" -eq 1 ]
w=$(LC_ALL=C sed 's/[\x80-\xbf]//g' "$WORK/snap" | awk '{ sub(/ +$/, "") }
    { print length($0) }' | sort -n | tail -n 1)
check "-c ^C: nothing wrapped (widest $w)" [ "$w" -le 100 ]

# --wait-for with nothing to watch yet, ended by ^C: no blank rows above
# the prompt (the empty block was drawn as one)
fresh_screen
run "'$TACH' -d tach-edges-none --wait-for"
wait_for "waiting for a process named tach-edges-none"
tmx send-keys C-c
check "--wait-for ^C: the prompt is back" wait_until 60 prompt_back
snap >/dev/null
# the message, ^C's echo, the prompt: nothing blank between
check "--wait-for ^C: no blank row above the prompt ($(head -n 4 "$WORK/snap" | tr '\n' '|'))" \
    [ "$(sed -n '/waiting for/,/^\$/p' "$WORK/snap" | grep -c '^ *$')" -eq 0 ]

done_testing
