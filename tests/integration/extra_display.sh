# SPDX-License-Identifier: BSD-2-Clause
# covers: -x, --extra-display (pv 1.9): the progress also in the terminal
# window's title (a status line in terminfo, or xterm's title sequence
# where TERM names an xterm-like terminal) and in the process's title,
# as ps and top show it.  Producers wait at a gate the test opens.
. "$(dirname "$0")/lib.sh"
tmux_session

title() { tmx display-message -p '#{pane_title}'; }
titled() { title | grep -qF -- "$1"; }
cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null; }
shows_as() { cmdline "$1" | grep -qF -- "$2"; }

# The window's title, in tmux (TERM=screen: xterm's sequence)
tmx select-pane -T before
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | '$TACH' -x window -N copy -l 2000000 >/dev/null; echo rc=\$?"
check "the window's title at 50%" wait_until 60 titled "copy: 50% 977 KiB "
check "…and the bar drawn as ever" wait_for "copy:  50% ["
snap >/dev/null
lacks "…no sequence left on the screen" "$WORK/snap" '\]2;|22;2t'
open_gate
check "finishes" wait_for "rc=0"
# tmux keeps xterm's stack of titles: the one before comes back
check "the title as it was before" wait_until 60 titled before
# TERM=tmux-256color: the title by terminfo's status line, the same stack
tmx select-pane -T before
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | TERM=tmux-256color '$TACH' -x window -N tm -l 2000000 >/dev/null; echo rc=\$?"
check "tmux-256color: the title at 50%" wait_until 60 titled "tm: 50%"
open_gate
check "…finishes" wait_for "rc=0"
check "…the title as it was before" wait_until 60 titled before
# a terminal that stopped reading (^S) at the end: the title still put back
tmx select-pane -T before
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | '$TACH' -x window -N held -i 0.05 -l 2000000 >'$WORK/held.out'; echo rc=\$? >'$WORK/held.rc'"
check "^S: the title at 50%" wait_until 60 titled "held: 50%"
tmx send-keys C-s
open_gate
check "…tach ends while the terminal is stopped" wait_until 60 test -s "$WORK/held.rc"
tmx send-keys C-q
check "…the title as it was before" wait_until 60 titled before
check "…the output exact" [ "$(wc -c <"$WORK/held.out")" -eq 2000000 ]
# pv's long name; -q draws no bar, the title still moves
tmx select-pane -T before
close_gate
fresh_screen
run "clear; (head -c 1000000 /dev/zero; $GATED; head -c 1000000 /dev/zero) | '$TACH' -q -x windowtitle:'%b %{name}' -N q >/dev/null; echo rc=\$?"
check "-q: the title only, -F's fields" wait_until 60 titled "977 KiB q"
open_gate
check "finishes" wait_for "rc=0"
snap >/dev/null
lacks "…no bar drawn" "$WORK/snap" 'KiB'
# A background job sets no title, as it draws no bar
tmx select-pane -T before
fresh_screen
run "clear; '$TACH' -x window -f /dev/null & wait; echo rc=\$?"
check "a background job" wait_for "rc=0"
check "…leaves the title alone" [ "$(title)" = before ]
# A terminal with no title to set is sent nothing for one
fresh_screen
run "clear; TERM=vt100 '$TACH' -x window -N plain -l 3000 </dev/null >/dev/null 2>&1; echo rc=\$?"
check "no title on a vt100" wait_for "rc=0"
check "…the title left alone" [ "$(title)" = before ]

# The process's title (Linux: libbsd's setproctitle; /proc to read it)
if [ -r /proc/self/cmdline ]; then
	close_gate
	(head -c 1000000 /dev/zero; gated; head -c 1000000 /dev/zero) |
	    "$TACH" -q -x process -N copy -l 2000000 >/dev/null &
	pid=$!
	check "ps: the process's title at 50%" \
	    wait_until 60 shows_as $pid "tach: copy: 50% 977 KiB "
	open_gate
	wait $pid
	check "…exit 0 ($?)" [ $? -eq 0 ]
	close_gate
	(head -c 1000000 /dev/zero; gated) |
	    "$TACH" -q -x 'proctitle:%b' -N "$(printf 'x\033]2;evil\007')" \
	    >/dev/null &
	pid=$!
	check "-x's format, pv's long name" \
	    wait_until 60 shows_as $pid "tach: 977 KiB"
	open_gate
	wait $pid
	close_gate
	(head -c 1000000 /dev/zero; gated) |
	    "$TACH" -q -x process -N "$(printf 'x\033]2;evil\007')" \
	    >/dev/null &
	pid=$!
	check "a name with controls: escaped" \
	    wait_until 60 shows_as $pid "tach: x\\x1b]2;evil\\x07: "
	open_gate
	wait $pid
	# libbsd moves the arguments: the options must not point at them
	close_gate
	mkfifo "$WORK/fifo"
	(head -c 1000000 /dev/zero; gated) >"$WORK/fifo" &
	"$TACH" -q -x window,process -f "$WORK/fifo" -f /dev/null >"$WORK/out" &
	pid=$!
	check "both, with -f files: their names still whole" \
	    wait_until 60 shows_as $pid "tach: 977 KiB"
	open_gate
	wait $pid
	check "…exact" [ "$(wc -c <"$WORK/out")" -eq 1000000 ]
else
	echo "SKIP: no /proc to read a process's title from" >&2
fi

# ^S at the end: the terminal stops reading before the title is put
# back.  tach as the session's leader (the window opened to run it, as
# tmux and xterm -e do) waits for ^Q and then puts it back: its exit
# would hang the terminal up, and nothing could be written after it.
if command -v python3 >/dev/null; then
	cat >"$WORK/stopped.py" <<-'EOF'
	import os, select, sys, pty
	r, w = os.pipe()
	pid, master = pty.fork()
	if pid == 0:
	    os.dup2(r, 0)
	    os.dup2(os.open("/dev/null", os.O_WRONLY), 1)
	    os.environ["TERM"] = "xterm"
	    os.execv(sys.argv[1], sys.argv[1:])
	os.close(r)
	out = b""
	def read_until(cond):
	    global out
	    while not cond():
	        if select.select([master], [], [], 60)[0] == []:
	            return False
	        try:
	            data = os.read(master, 65536)
	        except OSError:
	            return cond()
	        if not data:
	            return cond()
	        out += data
	    return True
	def waiting():
	    # ended, or blocked writing to the stopped terminal
	    if os.waitpid(pid, os.WNOHANG)[0] == pid:
	        return "exited"
	    with open("/proc/%d/syscall" % pid) as f:
	        call = f.read().split()[0]
	    return "writing" if call in ("1", "4") else None
	os.write(w, b"x" * 100000)
	if not read_until(lambda: b"\x1b[22;2t" in out):
	    sys.exit("no title shown")
	os.write(master, b"\x13")            # ^S
	os.close(w)                            # the input ends: tach ends
	import time
	for _ in range(1200):
	    state = waiting()
	    if state:
	        break
	    time.sleep(0.05)
	print(state)
	os.write(master, b"\x11")            # ^Q
	read_until(lambda: False)
	print("put back" if out.rfind(b"\x1b[23;2t") > out.rfind(b"\x1b[22;2t")
	    else "left pushed")
	EOF
	python3 "$WORK/stopped.py" "$TACH" -x window -i 0.05 >"$WORK/said" 2>&1
	check "^S at the end: tach waits for the terminal ($(head -n 1 "$WORK/said"))" \
	    grep -qx writing "$WORK/said"
	check "…and puts the title back after ^Q" grep -qx "put back" "$WORK/said"
fi

# What -x refuses
"$TACH" -x foo </dev/null 2>"$WORK/err"
check "-x foo: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -x \`foo': not window or process" \
    "$WORK/err"
"$TACH" -x :%b </dev/null 2>"$WORK/err"
check "-x with no place: refused ($?)" [ $? -eq 1 ]
"$TACH" -x window:%Q </dev/null 2>"$WORK/err"
check "-x with a bad format: refused ($?)" [ $? -eq 1 ]
"$TACH" -x window -d 1 </dev/null 2>"$WORK/err"
check "-x with -d: refused ($?)" [ $? -eq 1 ]

done_testing
