# SPDX-License-Identifier: BSD-2-Clause
# covers: A terminal shared with other programs: the bar never goes into
# data, -c's lines never cover anyone's output (tar -v, warnings, the
# shell's job lines, a resize), -c with several lines (-d --pipeline's
# stages) a row each beside another instance, tach's messages start on a line of their
# own, the cursor is never hidden, nothing is ever read from the terminal,
# and a dumb or hostile terminal gets plain lines.
. "$(dirname "$0")/lib.sh"
need tmux strace
random "$WORK/data" 1000000
mkdir "$WORK/tree"
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	random "$WORK/tree/file$i" 200000
done

# --force in command mode: cmd's output is data, so the bar goes to stderr.
"$TACH" --force -f "$WORK/data" cat >"$WORK/out" 2>"$WORK/err"
check "--force cmd: exit 0 ($?)" [ $? -eq 0 ]
check "--force cmd: cmd's output exact" cmp -s "$WORK/data" "$WORK/out"
check "--force cmd: the bar on stderr" grep -q "100%" "$WORK/err"

# --force to a file: plain lines, no terminfo sequence, whatever TERM says.
TERM=xterm "$TACH" --force -i 0.05 -l 1000000 <"$WORK/data" >/dev/null \
    2>"$WORK/err"
lacks "--force to a file: no escape sequence" "$WORK/err" "$(printf '\033')"
lacks "--force to a file: no carriage return" "$WORK/err" "$(printf '\r')"
check "--force to a file: the last line ends" sh -c \
    "tail -c 1 '$WORK/err' | od -An -c | grep -q '\\\\n'"
check "--force to a file: a line a frame, the last 100%" sh -c \
    "tail -n 1 '$WORK/err' | grep -q '^100%'"

tmux_session
screen_all() { tmx capture-pane -p -J -S -; }
# count TEXT: lines of the screen and its history showing TEXT
count() { screen_all | grep -cF -- "$1"; }
seen() { [ "$(count "$1")" -ge 1 ]; }
once() { [ "$(count "$1")" -eq 1 ]; }
prompt_last() {
	[ "$(tmx capture-pane -p | grep -v '^$' | tail -n 1)" = '$' ]
}

# Stacked -c under tar -v on a full 100x14 screen: every name stays, in
# the screen or its history, and each bar leaves one final line.
tmx resize-window -x 100 -y 14
fresh_screen
run "clear; seq -f 'filler %g' 1 30; cd '$WORK' && tar cvf - tree | '$TACH' -c -N raw -L 2m | gzip -1 | '$TACH' -c -N gz >x.tgz; echo rc=\$?; cd /"
check "stacked -c: done" wait_for "rc=0" 120
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	once "tree/file$i" || fail "stacked -c: tar's tree/file$i is lost"
done
check "stacked -c: the filler is all there" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p -J -S - | grep -c '^filler ') -eq 30 ]"
check "stacked -c: one raw line left" once "raw: "
check "stacked -c: one gz line left" once "gz: "
check "stacked -c: no live line left over" [ "$(count ETA)$(count '<=>')" = 00 ]
check "stacked -c: the archive is whole" tar tzf "$WORK/x.tgz" >/dev/null
# (-[c]: a pattern that does not match the sh -c running pgrep itself)
check "stacked -c: no janitor left" wait_until 60 sh -c \
    "! pgrep -f 'janitor for -[c] of pid' >/dev/null"

# Six warnings written to stderr while two -c bars are up are all kept.
fresh_screen
close_gate
run "seq -f 'filler %g' 1 30; ($GATED; for i in 1 2 3 4 5 6; do echo warning \$i >&2; done; cat '$WORK/data') | '$TACH' -c -N one -L 2m | '$TACH' -c -N two >/dev/null; echo rc=\$?"
wait_for "one: " && wait_for "two: "
open_gate
check "warnings: done" wait_for "rc=0" 120
for i in 1 2 3 4 5 6; do
	once "warning $i" || fail "warnings: warning $i is lost"
done
check "warnings: the bars left one line each" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p -J -S - | grep -c -e '^one: ' -e '^two: ') -eq 2 ]"

# -c with -d --pipeline: a row a stage, beside another instance's row,
# none drawn over another; at the end each leaves its last lines, once.
if [ "$(uname)" = Linux ] && command -v gzip >/dev/null; then
	rm -f "$WORK/feed"
	mkfifo "$WORK/feed"
	sh -c "'$TACH' -q <'$WORK/feed' | gzip -1 | cat >/dev/null" &
	runner=$!
	exec 7>"$WORK/feed"	# after tmux's server: it must not hold it
	wait_until 60 execd "$runner" 3
	set -- $(stages "$runner")
	fresh_screen
	close_gate
	run "($GATED; cat '$WORK/data') | '$TACH' -c -N other | { '$TACH' -c -w 90 -d $2 --pipeline </dev/null; cat >/dev/null; }; echo rc=\$?"
	check "-c --pipeline: the other's row" wait_for "other: "
	check "…a row a stage" wait_until 60 sh -c \
	    'tmux -L "$1" capture-pane -p | grep -q "^2 cat $2 "' sh "$sock" "$3"
	# bottom PIDS: the four rows at the bottom are the other's and the
	# stages', each once
	bottom() {
		[ "$(tmx capture-pane -p | grep -v '^$' | tail -n 4 |
		    grep -c -e "^other: " -e "^0 tach $1 " -e "^1 gzip $2 " \
		    -e "^2 cat $3 ")" -eq 4 ]
	}
	check "…the four rows at the bottom, each once" \
	    wait_until 60 bottom "$@"
	random "$WORK/fed" 300000
	cat "$WORK/fed" >&7
	exec 7>&-
	wait "$runner"
	open_gate
	check "-c --pipeline: done" wait_for "rc=0" 120
	for line in "other: " "0 tach $1 " "1 gzip $2 " "2 cat $3 "; do
		once "$line" || fail "-c --pipeline: '$line' left $(count "$line") times"
	done
fi

# Keys typed while -c draws are the shell's: tach never reads the
# terminal (no cursor query), so nothing is swallowed or left queued.
fresh_screen
close_gate
run "($GATED; cat '$WORK/data') | env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,write,read -e signal=none -x -o '$WORK/trace' '$TACH' -c -N typed >/dev/null"
wait_for "typed: "
run 'echo typed ahead $((6 * 7))'
open_gate
check "typed ahead: the shell ran it" wait_for "typed ahead 42"
grep -v 'write(1, ' "$WORK/trace" >"$WORK/trace.tty"	# not the data
lacks "typed ahead: no cursor query written" "$WORK/trace.tty" \
    '\\x1b\[6n'
# reads, by the process that opened /dev/tty, of that descriptor
tty_reads() {
	awk '/openat\(.*"\/dev\/tty"/ { fd[$1] = $NF } ($1 in fd) &&
	    index($0, "read(" fd[$1] ", ") { n++ } END { exit n > 0 }' "$1"
}
check "typed ahead: /dev/tty opened (for the locks)" grep -q '"/dev/tty"' "$WORK/trace"
check "typed ahead: nothing read from it" tty_reads "$WORK/trace"

# ^Z and fg: the job lines stay, and the bars come back below them.
fresh_screen
close_gate
run "(cat '$WORK/data'; $GATED; cat '$WORK/data') | '$TACH' -c -N za -l 2000000 | '$TACH' -c -N zb -l 2000000 >/dev/null"
wait_for "za:  50%" && wait_for "zb:  50%"
tmx send-keys C-z
check "^Z: the job stops" wait_for "Stopped"
check "^Z: the bars give their rows back" wait_until 60 sh -c \
    "! tmux -L '$sock' capture-pane -p | grep -q -e '^za: ' -e '^zb: '"
run "fg; echo rc=\$?"
wait_for "za:  50%" && wait_for "zb:  50%"
# fg_echo: the line after "$ fg; ...", the job's command as fg echoes it
fg_echo() { screen | grep -A1 '^\$ fg; echo' | tail -n 1 | grep -q '^( *cat'; }
check "fg: the job line is intact" sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -q '^\[1\]+ *Stopped *( *cat'"
check "fg: the command fg echoes is intact" fg_echo
open_gate
check "fg: done" wait_for "rc=0"
check "fg: one final line each" sh -c "[ \$(tmux -L '$sock' capture-pane -p -J | grep -c -e '^za: 100%' -e '^zb: 100%') -eq 2 ]"

# A resize while -c draws: the terminal reflows, and no piece of a live
# line is left anywhere, least of all on the prompt's row.
fresh_screen
close_gate
run "(cat '$WORK/data'; $GATED; cat '$WORK/data') | '$TACH' -c -N ra -l 2000000 | '$TACH' -c -N rb -l 2000000 >/dev/null; echo rc=\$?"
wait_for "ra:  50%" && wait_for "rb:  50%"
tmx resize-window -x 60 -y 10
narrow() { tmx capture-pane -p | grep -F "ra:" | awk 'length($0) > 59 { n++ } END { exit n }'; }
check "resize: the lines fit the new width" wait_until 60 narrow
open_gate
check "resize: done" wait_for "rc=0"
check "resize: the prompt's row is clean" wait_until 60 prompt_last
check "resize: no piece of a live line" [ "$(count ETA)" = 0 ]
tmx resize-window -x 100 -y 30

# tach's own messages start on a line of their own, after the bar.
fresh_screen
mkfifo "$WORK/fifo"
run "'$TACH' -f '$WORK/fifo' -f '$WORK/nosuch' -l 2000000 >/dev/null; echo rc=\$?"
head -c 1000000 "$WORK/data" >"$WORK/fifo" &
check "message: the bar is up" wait_for " 50%"
wait
check "message: at the start of a line" wait_until 60 sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -q '^tach: .*nosuch: No such file or directory'"
check "message: status 1" wait_for "rc=1"
fresh_screen
close_gate
run "(cat '$WORK/data'; $GATED) | '$TACH' -l 2000000 -N usr1 >/dev/null; echo rc=\$?"
wait_for "usr1:  50%"
pkill -USR1 -f -- "-N usr1"
check "SIGUSR1: the line at the start of a line" wait_until 60 sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -q '^tach: usr1: 1000000 bytes'"
check "SIGUSR1: the bar goes on below it" wait_until 60 sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -A1 '^tach: usr1: 1000000 bytes' | tail -n 1 | grep -q '^usr1:  50%'"
open_gate
wait_for "rc=0"

# Command mode: what cmd writes at its end goes below the bar, not after.
fresh_screen
run "clear; '$TACH' -f '$WORK/data' -N sum sha256sum; echo rc=\$?"
check "cmd's output: done" wait_for "rc=0"
check "cmd's output: on a line of its own" sh -c \
    "tmux -L '$sock' capture-pane -p -J | grep -qx '[0-9a-f]\\{64\\}  -'"

# The cursor is never hidden, not while drawing, not after kill -9.
fresh_screen
run "clear; sleep 600 | '$TACH' -N k9 -l 1000"
wait_for "k9:   0%"
check "cursor: shown while drawing" [ "$(cursor)" = 1 ]
pkill -KILL -f -- "-N k9"
check "cursor: shown after kill -9" wait_until 60 sh -c "[ \"\$(tmux -L '$sock' display-message -p '#{cursor_flag}')\" = 1 ]"
tmx send-keys C-c

# kill -9 of a -c instance: its janitor resets the scrolling region and
# clears the row, so the shell has the whole window again.
fresh_screen
run "clear; sleep 600 | '$TACH' -c -N k9c -l 1000"
wait_for "k9c:   0%"
check "-c: a janitor, named as one" wait_until 60 pgrep -f "janitor for -[c] of pid" >/dev/null
check "-c: kill -9" pkill -KILL -f -- "^$TACH -c -N k9c"
# ^C before tmux has read the janitor's bytes would have the tty flush
# them (ISIG without NOFLSH): the row must be clear before it is typed
check "kill -9: the janitor clears the row" wait_until 60 sh -c \
    "! tmux -L '$sock' capture-pane -p | grep -q k9c:"
tmx send-keys C-c
wait_until 60 prompt_last
fresh_screen
run "clear; seq 1 60"
last_row() { [ "$(tmx capture-pane -p | tail -n 1)" = '$' ]; }
check "kill -9: the prompt on the last row again" wait_until 60 last_row
check "kill -9: the row above it is the output's" sh -c \
    "[ \"\$(tmux -L '$sock' capture-pane -p | tail -n 2 | head -n 1)\" = 60 ]"
check "kill -9: no stale line" sh -c "! tmux -L '$sock' capture-pane -p | grep -q k9c"
check "kill -9: the janitor is gone" wait_until 60 sh -c \
    "! pgrep -f 'janitor for -[c] of pid' >/dev/null"

# TERM=dumb: -c falls back to the plain line, for one instance only, and
# no escape sequence at all is written.
fresh_screen
close_gate
# LeakSanitizer cannot run under ptrace (the sanitizer build)
st="env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=write -e signal=none -x -o $WORK/dumb"
run "(cat '$WORK/data'; $GATED; cat '$WORK/data') | TERM=dumb $st.1 '$TACH' -c -N d1 -l 2000000 | TERM=dumb $st.2 '$TACH' -c -N d2 -l 2000000 >/dev/null; echo rc=\$?"
check "dumb: one line drawn" wait_until 60 sh -c \
    "tmux -L '$sock' capture-pane -p | grep -q -e '^d1:  50%' -e '^d2:  50%'"
check "dumb: only one" sh -c \
    "[ \$(tmux -L '$sock' capture-pane -p | grep -c -e '^d1: ' -e '^d2: ') -eq 1 ]"
open_gate
check "dumb: done" wait_for "rc=0"
# (strace -x writes a line with UTF-8 in it all in hex: d1: is \x64\x31\x3a)
check "dumb: the lines were written" sh -c \
    "cat '$WORK/dumb.1' '$WORK/dumb.2' | grep -q -e 'write(2, .*d[12]: ' \
    -e 'write(2, .*\\\\x64\\\\x3[12]\\\\x3a\\\\x20'"
# the terminal's writes only (the data may hold any byte)
cat "$WORK/dumb.1" "$WORK/dumb.2" | grep 'write(2, ' >"$WORK/dumb"
lacks "dumb: no escape sequence" "$WORK/dumb" '\\x1b'

# Names that could drive the terminal: a title sequence, a screen clear
# and a newline, in -f, -N, -p, a missing file, "input file is output
# file" and -E's list.  Each is shown escaped; the title and the screen
# stay as they were.
cat >"$WORK/names.sh" <<'EOF'
h=$(printf 'h\033]0;owned\007\033[2J\nx')
cd "$1" && cp data "$h" || exit 1
echo marker-before
"$TACH" -f "$h" -f "$h.missing" -N "$h" -p "$h" -l 2000000 >/dev/null
echo "rc1=$?"
"$TACH" -f "$h" >>"$h"
echo "rc2=$?"
# its first block cannot be read (the failing-disk shim)
LD_PRELOAD=$BADBLOCKS TACH_BAD_FILE=$PWD/$h TACH_BAD_RANGES=0-4096 \
    "$TACH" -E -q -f "$h" >/dev/null
echo "rc3=$?"
EOF
fresh_screen
title=$(tmx display-message -p '#{pane_title}')
run "TACH='$TACH' BADBLOCKS='${BADBLOCKS:-}' sh '$WORK/names.sh' '$WORK'"
check "names: all three ran" wait_for "rc3="
check "names: the screen was not cleared" shows "marker-before"
check "names: the title is unchanged" \
    [ "$(tmx display-message -p '#{pane_title}')" = "$title" ]
h='h\x1b]0;owned\x07\x1b[2J\x0ax'
# the label, too long for the line, keeps its start and its end
check "names: the bar shows the label's start escaped" shows "h\\x1b]0;o"
check "names: the bar shows the label's end escaped" shows '\x1b[2J\x0ax '
check "names: the bar was cut in the middle" shows "…"
check "names: the missing file, escaped" shows "tach: $h.missing: No such file"
check "names: input file is output file, escaped" \
    shows "tach: $h: input file is output file"
[ -z "${BADBLOCKS:-}" ] || check "names: -E's list, escaped" \
    shows "tach: $h: unreadable, sent as zeros: bytes 0-4095"

# A terminfo entry whose cup, csr and setaf take strings: tach must not
# pass numbers for them (it would crash); -c falls back, colour goes.
mkdir "$WORK/ti"
cat >"$WORK/hostile.src" <<'EOF'
hostile|string parameters where numbers go,
	am, colors#8, cols#100, lines#30,
	cr=\r, cuu1=\E[A, el=\E[K, ed=\E[J, sc=\E7, rc=\E8, ind=\n,
	cup=\E[%p1%s;%p2%sH, csr=\E[%p1%s;%p2%sr, setaf=\E[3%p1%sm, sgr0=\E[m,
EOF
if command -v tic >/dev/null && tic -o "$WORK/ti" "$WORK/hostile.src" 2>/dev/null; then
	fresh_screen
	run "cat '$WORK/data' | TERMINFO='$WORK/ti' TERM=hostile '$TACH' -c -N hos -L 2m >'$WORK/out'; echo rc=\$?"
	check "hostile terminfo: exit 0" wait_for "rc=0"
	check "hostile terminfo: data exact" cmp -s "$WORK/data" "$WORK/out"
	check "hostile terminfo: a final line" wait_for "hos: "
else
	echo "skipped: no tic to build a terminfo entry (ncurses-bin)" >&2
fi

done_testing
