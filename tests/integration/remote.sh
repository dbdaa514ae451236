# SPDX-License-Identifier: BSD-2-Clause
# covers: -R: a running copy changed from another shell, over a socket only
# its user can reach; -P: the PID file that finds it.
. "$(dirname "$0")/lib.sh"

# The sockets: on Linux abstract names, tach-UID-PID, that no file backs;
# elsewhere files in $TMPDIR/tach-UID, here this test's own.
export TMPDIR=$WORK
dir=$WORK/tach-$(id -u)
abstract=no
[ -r /proc/net/unix ] && [ "$(uname)" = Linux ] && abstract=yes
# finish_copy WHAT INPUT: the copy's limit lifted, it ends 0 and exact
finish_copy() {
	"$TACH" -R $copy -L 1g
	wait $copy
	check "$1: the copy exits 0" [ $? -eq 0 ]
	check "$1: the output is exact" cmp -s "$2" "$WORK/out"
}

# A copy limited to 100k/s would take 500 s for 50 MB; -R -L 1g ends it
# at once, exact.
random "$WORK/big" 50000000
: >"$WORK/out"
"$TACH" -q -L 100k <"$WORK/big" >"$WORK/out" &
copy=$!
check "-L: the copy listens" wait_until 60 listening $copy
if [ $abstract = yes ]; then
	check "-L: no file is made for the socket" [ ! -e "$dir" ]
else
	check "-L: the directory is private" sh -c \
	    "[ \"\$(stat -c %a '$dir')\" = 700 ]"
fi
"$TACH" -R $copy -L 1g 2>"$WORK/err"
check "-L: -R exits 0 ($(cat "$WORK/err"))" [ $? -eq 0 ]
# 60 s, where 100k/s would need 500: the new limit holds
check "-L: the copy ends soon after" wait_until 60 sh -c "! kill -0 $copy 2>/dev/null"
wait $copy
check "-L: the copy exits 0" [ $? -eq 0 ]
check "-L: the output is exact" cmp -s "$WORK/big" "$WORK/out"
check "-L: the socket is gone at the end" eval "! listening $copy"

# Lowered: what moved counts as paid, the new rate holds from now on.  A
# copy at -L 1g has 40 MB out when -R -L 1m comes: its next megabyte
# follows within seconds, not after the 40 s those 40 MB would have cost
# at the new rate.
close_gate
: >"$WORK/out"
{ head -c 40000000 "$WORK/big"; gated; tail -c +40000001 "$WORK/big"; } |
    "$TACH" -q -L 1g >"$WORK/out" &
copy=$!
check "lowered: the copy listens" wait_until 60 listening $copy
check "lowered: 40 MB out" wait_until 60 size_at_least "$WORK/out" 40000000
"$TACH" -R $copy -L 1m
open_gate
check "lowered: the next megabyte within 20 s, not 40" \
    wait_until 20 size_at_least "$WORK/out" 41000000
finish_copy lowered "$WORK/big"

# --read-limit: a buffer's input, changed the same way; a copy without a
# buffer refuses it, saying why.
: >"$WORK/out"
"$TACH" -q -b 8M --read-limit 1 <"$WORK/big" >"$WORK/out" &
copy=$!
check "--read-limit: the copy listens" wait_until 60 listening $copy
"$TACH" -R $copy --read-limit 1g 2>"$WORK/err"
check "--read-limit: -R exits 0 ($(cat "$WORK/err"))" [ $? -eq 0 ]
# a byte a second would take a year
check "--read-limit: the copy ends soon after" wait_until 60 sh -c \
    "! kill -0 $copy 2>/dev/null"
wait $copy
check "--read-limit: the copy exits 0" [ $? -eq 0 ]
check "--read-limit: the output is exact" cmp -s "$WORK/big" "$WORK/out"
: >"$WORK/out"
"$TACH" -q -L 100k <"$WORK/big" >"$WORK/out" &
copy=$!
wait_until 60 listening $copy
"$TACH" -R $copy --read-limit 1m 2>"$WORK/err"
check "--read-limit, no buffer: refused ($?)" [ $? -eq 1 ]
check "…said" grep -qx "tach: -R $copy: refused: --read-limit: this copy has no buffer, -L limits it" "$WORK/err"
# A peer of the test's own, not -R: a value the options refuse is refused
# by the copy too, within the same bounds (-i from 0.01 s to a day).
if [ $abstract = yes ]; then	# python3: contrib/deps.sh --test
	for rec in 'i 0' 'i 0.009' 'i 86401' 'i x' 'w 0' 'L 0' 'i 86400'; do
		python3 - $copy "$rec" >"$WORK/said" <<'PY'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("\0tach-%d-%s" % (os.geteuid(), sys.argv[1]))
s.sendall(sys.argv[2].encode() + b"\0")
s.shutdown(socket.SHUT_WR)
print(s.makefile().readline(), end="")
PY
		if [ "$rec" = 'i 86400' ]; then
			check "a peer's '$rec': taken" grep -qx ok "$WORK/said"
		else
			check "a peer's '$rec': refused ($(cat "$WORK/said"))" \
			    grep -qxF -- "-${rec%% *} \`${rec#* }': not a value it takes" \
			    "$WORK/said"
		fi
	done
fi
finish_copy "--read-limit refused" "$WORK/big"

# -N, -p, -w and -i on a drawn line (--force: plain lines in a file).
random "$WORK/data" 3000000
"$TACH" --force -L 100k -i 3600 -N old -P "$WORK/pid" <"$WORK/data" \
    >"$WORK/out" 2>"$WORK/log" &
copy=$!
check "-P: the PID file" wait_until 60 sh -c "[ \"\$(cat '$WORK/pid' 2>/dev/null)\" = $copy ]"
check "-P: the file is readable" sh -c "[ \"\$(stat -c %a '$WORK/pid')\" = \
    \"\$(printf %o \$((0666 & ~0$(umask))))\" ]"
check "-N: the copy listens" wait_until 60 listening $copy
check "-i 3600: one line so far" [ "$(grep -c . "$WORK/log")" -le 1 ]
"$TACH" -R "$(cat "$WORK/pid")" -N new -p 'pre: ' -w 50 -i 0.05
check "-N -p -w -i: -R exits 0" [ $? -eq 0 ]
check "-i: lines come every 0.05 s now" wait_until 60 sh -c \
    "[ \$(grep -c . '$WORK/log') -ge 5 ]"
check "-N -p: the new name and prefix" wait_until 60 grep -q "^new: pre: " \
    "$WORK/log"
# as wide as a line drawn with -w 50 from the start
columns() { printf %s "$1" | LC_ALL=C.UTF-8 wc -m; }
line=$(grep "^new: pre: " "$WORK/log" | head -n 1)
"$TACH" --force -w 50 -N new -p 'pre: ' -l 3000000 </dev/null 2>&1 \
    >/dev/null | head -n 1 >"$WORK/w50"
check "-w: as -w 50 draws ($line)" [ "$(columns "$line")" -eq \
    "$(columns "$(cat "$WORK/w50")")" ]
"$TACH" --force -N new -p 'pre: ' -l 3000000 </dev/null 2>&1 >/dev/null |
    head -n 1 >"$WORK/wide"
check "-w: narrower than before" [ "$(columns "$line")" -lt \
    "$(columns "$(cat "$WORK/wide")")" ]
finish_copy -R "$WORK/data"
check "-P: removed at the end" [ ! -e "$WORK/pid" ]
ls "$WORK" >"$WORK/names"
lacks "-P: no temporary file left" "$WORK/names" "^pid\\."

# Thirty requests in a row, as fast as they come, into a command: every
# one answered, none lost, the data exact; the last name is the last sent.
: >"$WORK/out"
: >"$WORK/log"
"$TACH" --force -L 2m -N n0 -f "$WORK/big" cat >"$WORK/out" 2>"$WORK/log" &
copy=$!
check "many: the copy listens" wait_until 60 listening $copy
ok=0
for i in $(seq 1 30); do
	"$TACH" -R $copy -N n$i && ok=$((ok + 1))
done
check "many: 30 answered ok ($ok)" [ $ok -eq 30 ]
finish_copy many "$WORK/big"
check "many: the last line has the last name" sh -c \
    "tail -n 1 '$WORK/log' | grep -q '^n30: '"

# pv's own tests of -R, adapted: the layout changed remotely changes the
# line ("Transfer - --remote"); a copy adjusted again and again stays
# exact ("Integrity - When adjusted remotely").
"$TACH" --force -L 1m -i 0.05 -P "$WORK/pid" -f "$WORK/data" >"$WORK/out" \
    2>"$WORK/log" &
copy=$!
check "-F: the copy listens" wait_until 60 listening $copy
"$TACH" -R $copy -F '%a'
check "-F: -R exits 0" [ $? -eq 0 ]
check "-F: the new layout drawn" wait_until 60 grep -q '^ *[0-9.]* [KMG]\?i\?B/s *$' "$WORK/log"
ok=0
for i in 1 2 3; do
	for change in "-F %a%p%t%e%r%b" "-p x" "-N test" "-F %e" "-N ."; do
		# shellcheck disable=SC2086
		"$TACH" -R "$(cat "$WORK/pid")" $change && ok=$((ok + 1))
	done
done
check "adjusted 15 times: all taken ($ok)" [ $ok -eq 15 ]
finish_copy adjusted "$WORK/data"
check "-F: more than one line length seen" [ "$(tr '\r' '\n' <"$WORK/log" |
    awk '{ print length($0) }' | sort -u | wc -l)" -gt 1 ]
"$TACH" -R 1 -F json 2>"$WORK/err"
check "-R -F json: refused (in JSON, as asked)" grep -qF '{"message":"-R changes a running copy: --format json does not apply"}' "$WORK/err"

# A stopped copy answers when it is continued.
: >"$WORK/out"
"$TACH" -q -L 100k <"$WORK/data" >"$WORK/out" &
copy=$!
check "stopped: the copy listens" wait_until 60 listening $copy
kill -STOP $copy
"$TACH" -R $copy -L 1g 2>"$WORK/err" &
sender=$!
echo $sender >"$WORK/sender"
check "stopped: the sender waits for the answer" wait_until 60 polling \
    "$WORK/sender"
check "stopped: not answered yet" kill -0 $sender
kill -CONT $copy
wait $sender
check "stopped: answered once continued ($(cat "$WORK/err"))" [ $? -eq 0 ]
wait $copy
check "stopped: exact" cmp -s "$WORK/data" "$WORK/out"

# Stopped past the sender's 10 s: -R says nothing changed, and once the
# copy is continued nothing has (-N would show in its lines).
: >"$WORK/out"
: >"$WORK/log"
"$TACH" --force -i 0.05 -L 100k <"$WORK/data" >"$WORK/out" 2>"$WORK/log" &
copy=$!
check "stopped long: the copy listens" wait_until 60 listening $copy
kill -STOP $copy
"$TACH" -R $copy -N changed 2>"$WORK/err"
check "stopped long: -R exits 1 ($?)" [ $? -eq 1 ]
check "…saying nothing changed" grep -qx "tach: -R $copy: no answer in 10 s: the copy is stopped or has ended; nothing changed" "$WORK/err"
kill -CONT $copy
finish_copy "stopped long" "$WORK/data"
lacks "…the change not made" "$WORK/log" changed

# Peers that connect and say nothing cost the copy nothing: 30 of them
# held open through a copy whose --stall-timeout is 3 s.
if command -v python3 >/dev/null; then
	"$TACH" -q --stall-timeout 3 -L 2m <"$WORK/data" >"$WORK/out" \
	    2>"$WORK/err" &
	copy=$!
	wait_until 60 listening $copy
	python3 - $copy "$WORK/idle" <<-'PY' &
	import os, socket, sys, time
	name = "\0tach-%d-%s" % (os.geteuid(), sys.argv[1])
	peers = []
	for i in range(30):
	    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
	    s.connect(name)
	    peers.append(s)
	open(sys.argv[2], "w").write("connected\n")
	time.sleep(600)
	PY
	idle=$!
	wait_until 60 test -s "$WORK/idle"
	wait $copy
	check "30 idle peers: the copy ends 0 ($?, $(cat "$WORK/err"))" [ $? -eq 0 ]
	check "…exact" cmp -s "$WORK/data" "$WORK/out"
	check "…while they were still connected" kill -0 $idle
	kill $idle
	wait $idle
fi

# A PID namespace: the abstract name is the network namespace's, so the
# copy that is PID 1 in its own PID namespace is not process 1 here.
if [ "$(id -u)" -eq 0 ] && [ $abstract = yes ] && unshare -p -f true 2>/dev/null; then
	unshare -p -f "$TACH" -q -L 100k -f "$WORK/data" -o "$WORK/out" &
	ns=$!
	check "PID namespace: the copy listens as PID 1" wait_until 60 listening 1
	"$TACH" -R 1 -N x 2>"$WORK/err"
	check "…-R 1 from here: refused ($?)" [ $? -eq 1 ]
	check "…saying why" grep -qx "tach: -R 1: the copy listening under that PID is not process 1 here (another PID namespace's): nothing sent" "$WORK/err"
	"$TACH" -Q 1 2>"$WORK/err" >/dev/null
	check "…-Q 1 too ($?)" [ $? -eq 1 ]
	pkill -TERM -P $ns
	wait $ns
fi

# Refusals: nothing listens, nothing to send, options -R does not take.
sleep 600 </dev/null >/dev/null 2>&1 &
sleeper=$!
"$TACH" -R $sleeper -L 1m 2>"$WORK/err"
check "not a copy: exit 1 ($?)" [ $? -eq 1 ]
check "not a copy: says so" grep -q "^tach: -R $sleeper: no copy of this user's with that PID is listening" "$WORK/err"
"$TACH" -d $sleeper -i 0.05 2>/dev/null &
watcher=$!
wait_until 60 caught $watcher TERM
"$TACH" -R $watcher -N x 2>"$WORK/err"
check "a watch does not listen" grep -q "no copy of this user's" "$WORK/err"
kill $sleeper $watcher 2>/dev/null
wait $watcher
"$TACH" -R 1 2>"$WORK/err"
check "nothing to send: exit 1" [ $? -eq 1 ]
check "nothing to send: says so" grep -qF "tach: -R needs a change to send: -L, --read-limit, -N, -p, -i, -w or -F" "$WORK/err"
for opt in -q -S -c -n --stats -z "-f x" "-l 1" "-d 1" "-P x"; do
	# shellcheck disable=SC2086
	"$TACH" -R 1 -L 1m $opt 2>"$WORK/err"
	check "-R $opt: refused" grep -q "^tach: -R changes a running copy: .* does not apply$" "$WORK/err"
done
"$TACH" -R 1x -L 1m 2>"$WORK/err"
check "-R 1x: not a process id" grep -qF "tach: -R \`1x': not a process id" "$WORK/err"
"$TACH" -R 1 -L 1q 2>"$WORK/err"
check "-R -L 1q: the number's message" grep -qF "rate limit \`1q': illegal number" "$WORK/err"

# A copy killed with -9 leaves its socket; -R finds nobody there.
"$TACH" -q -L 100k <"$WORK/data" >/dev/null &
copy=$!
wait_until 60 listening $copy
kill -9 $copy
wait $copy
"$TACH" -R $copy -L 1m 2>"$WORK/err"
check "killed: nobody listens" grep -q "no copy of this user's" "$WORK/err"

# Elsewhere, the directory must be private: not, and nothing listens or
# is sent.
if [ $abstract = no ]; then
	chmod 755 "$dir"
	"$TACH" -R 1 -L 1m 2>"$WORK/err"
	check "open directory: refused" grep -qF "tach: -R 1: $dir: not a directory of this user's that only it may enter" "$WORK/err"
	: >"$WORK/out"
	"$TACH" -q -L 100k <"$WORK/data" >"$WORK/out" &
	copy=$!
	check "open directory: the copy runs" wait_until 60 caught $copy TERM
	check "open directory: no socket" [ ! -e "$dir/$copy" ]
	kill $copy
	wait $copy
	chmod 700 "$dir"
fi

# README's -R example, as written there (its paths moved into $WORK):
# the pidfile appears once the copy listens, so -R is always heard.
sed -n '/^tach -P \/tmp\/t.pid/,/tach -R/p' "$SOURCE_DIR/README.md" |
    sed "s|/tmp/t.pid|$WORK/t.pid|g; s|<a >b|<'$WORK/data' >'$WORK/b'|" \
    >"$WORK/example.sh"
echo wait >>"$WORK/example.sh"		# the copy's end, for cmp
check "README's -R example found" grep -q 'tach -R' "$WORK/example.sh"
for i in 1 2 3 4 5; do
	rm -f "$WORK/t.pid"
	PATH=$(dirname "$TACH"):$PATH sh "$WORK/example.sh" 2>"$WORK/err"
	check "README's -R example, run $i: heard ($(cat "$WORK/err"))" \
	    [ $? -eq 0 ]
	check "README's -R example, run $i: exact" cmp -s "$WORK/data" "$WORK/b"
done

# Another user cannot change it: shut out without an answer.  And a name
# another user took is not trusted by the sender.
if [ $abstract = yes ] && [ "$(id -u)" -eq 0 ] &&
    command -v setpriv >/dev/null && [ -x /usr/bin/python3 ]; then
	: >"$WORK/log"
	"$TACH" --force -L 100k -N mine <"$WORK/data" >/dev/null 2>"$WORK/log" &
	copy=$!
	wait_until 60 listening $copy
	setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect("\0tach-0-" + sys.argv[1])
# shut out: closed on us, before or after what we sent
try:
    s.sendall(b"N theirs\0")
    s.shutdown(socket.SHUT_WR)
    sys.exit(3 if s.recv(100) == b"" else 0)
except (ConnectionResetError, BrokenPipeError):
    sys.exit(3)
' $copy
	check "another user: shut out ($?)" [ $? -eq 3 ]
	"$TACH" -R $copy -L 1g
	wait $copy
	lacks "another user: the name is unchanged" "$WORK/log" "theirs"
	# a flood of another user's connections costs nothing visible: the
	# log has the first frame, the one -R's change draws, and the last
	"$TACH" --force -i 100 -L 100k <"$WORK/data" >/dev/null \
	    2>"$WORK/log" &
	copy=$!
	wait_until 60 listening $copy
	setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c '
import socket, sys
for i in range(300):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect("\0tach-0-" + sys.argv[1])
        s.recv(10)
    except OSError:
        pass
    s.close()
' $copy
	"$TACH" -R $copy -L 1g
	wait $copy
	check "a flood of refused connections: no frames ($(wc -l <"$WORK/log") lines)" \
	    [ "$(wc -l <"$WORK/log")" -le 3 ]
	# nobody takes the name of a copy that is not there
	setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind("\0tach-0-999999999")
s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
c.sendall(b"ok\n")
c.recv(100)
' >"$WORK/squat" &
	squatter=$!
	check "squatter: listening" wait_until 60 grep -q ready "$WORK/squat"
	"$TACH" -R 999999999 -N x 2>"$WORK/err"
	check "squatter: refused (exit $?)" [ $? -eq 1 ]
	check "squatter: says why" grep -qF "tach: -R 999999999: the socket is not this user's copy's: nothing sent" "$WORK/err"
	kill $squatter 2>/dev/null
	wait $squatter
fi

# -P: removed however tach ends, and only by the one that wrote it.
"$TACH" -q -P "$WORK/pid" -f "$WORK/missing" 2>/dev/null
check "-P: removed after an error" [ ! -e "$WORK/pid" ]
"$TACH" -q -P "$WORK/pid" no-such-command-tach </dev/null 2>/dev/null
check "-P: removed when cmd is not found" [ ! -e "$WORK/pid" ]
yes | "$TACH" -q -P "$WORK/pid" | head -c 1 >/dev/null
check "-P: removed after SIGPIPE" [ ! -e "$WORK/pid" ]
mkfifo "$WORK/fifo"
exec 4<>"$WORK/fifo"
"$TACH" -q -P "$WORK/pid" <"$WORK/fifo" >/dev/null &
copy=$!
check "-P: written" wait_until 60 sh -c "[ \"\$(cat '$WORK/pid' 2>/dev/null)\" = $copy ]"
wait_until 60 caught $copy TERM
kill -TERM $copy
wait $copy
check "-P: removed after SIGTERM" [ ! -e "$WORK/pid" ]
# Another instance took the name: the first leaves it alone.
"$TACH" -q -P "$WORK/pid" <"$WORK/fifo" >/dev/null &
first=$!
wait_until 60 sh -c "[ \"\$(cat '$WORK/pid' 2>/dev/null)\" = $first ]"
"$TACH" -q -P "$WORK/pid" <"$WORK/fifo" >/dev/null &
second=$!
wait_until 60 sh -c "[ \"\$(cat '$WORK/pid' 2>/dev/null)\" = $second ]"
wait_until 60 caught $first TERM
kill -TERM $first
wait $first
check "-P: the other's file is kept" [ "$(cat "$WORK/pid")" = $second ]
wait_until 60 caught $second TERM
kill -TERM $second
wait $second
check "-P: the other removes its own" [ ! -e "$WORK/pid" ]
exec 4>&-
"$TACH" -q -P "$WORK/no/such/dir/pid" </dev/null 2>"$WORK/err"
check "-P: an unwritable file: exit 1" [ $? -eq 1 ]
check "-P: names it" grep -qF "tach: -P $WORK/no/such/dir/pid: No such file or directory" "$WORK/err"

# Once the copy has ended, while cmd finishes: the socket is gone, and a
# late -R says so at once, not after waiting for an answer.
printf data | "$TACH" -q sh -c 'cat >/dev/null; exec sleep 601' &
copy=$!
check "ended: cmd runs on" wait_until 60 pgrep -P $copy -x sleep
check "ended: the socket goes with the copy's end" wait_until 60 eval "! listening $copy"
"$TACH" -R $copy -L 1g 2>"$WORK/err"
check "ended: -R refused ($?)" [ $? -eq 1 ]
check "ended: -R says nobody listens" grep -q "^tach: -R $copy: no copy of this user's with that PID is listening" "$WORK/err"
check "ended: tach still waits for cmd" kill -0 $copy
pkill -P $copy -x sleep
wait $copy
check "ended: cmd's end is tach's (143: $?)" [ $? -eq 143 ]

done_testing
