# SPDX-License-Identifier: BSD-2-Clause
# covers: -d PID[:FD]: another process's files watched from outside, to the
# exact end.  The watched process is the helper's stepped reader: it reads
# only when told, so every position the test waits for is exact.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the watch test reads /proc (Linux)"

random "$WORK/a" 3000000
random "$WORK/b" 1000000

# seen FILE FD PATH BYTES [MORE]: a JSON object for fd PATH at BYTES
seen() {
	grep -q "\"fd\":$2,\"path\":\"$3\",\"elapsed\":[0-9.]*,\"bytes\":$4,${5:-}" "$1"
}
running() { kill -0 "$1" 2>/dev/null; }

# A file read to its end, a second file opened mid-run and closed, then
# the process's exit: exit 0, and the final position exact.
start_reader
say "open $WORK/a"
fda=$(answer)
rm -f "$WORK/json"
"$TACH" -d "$reader" --format json -i 0.05 2>"$WORK/json" 3>&- &
watcher=$!
check "the file is seen at its start" \
    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 0
say "read $fda 1000000"
check "the position follows the reader" \
    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
check "with its size and percentage" \
    seen "$WORK/json" "$fda" "$WORK/a" 1000000 '.*"size":3000000,"percent":33.33'
say "open $WORK/b"
fdb=$(answer)
check "a file opened mid-run is watched too" \
    wait_until 60 seen "$WORK/json" "$fdb" "$WORK/b" 0
say "read $fda 2000000"
check "read to its end: 100%" wait_until 60 seen "$WORK/json" "$fda" \
    "$WORK/a" 3000000 '.*"size":3000000,"percent":100.00'
say "read $fdb 400000"
wait_until 60 seen "$WORK/json" "$fdb" "$WORK/b" 400000
say "close $fdb"
# (the last position sampled: the test waited for it before the close)
check "a closed file's last object says so" wait_until 60 seen \
    "$WORK/json" "$fdb" "$WORK/b" 400000 '.*"final":true,"result":"closed"'
check "the watcher goes on after a file closes" running "$watcher"
exec 3>&-
wait "$watcher"
check "the process's exit ends the watch with 0 ($?)" [ $? -eq 0 ]
check "the final object has the exact end" seen "$WORK/json" "$fda" \
    "$WORK/a" 3000000 '.*"final":true,"result":"exited"'
check "every object names the process" sh -c \
    '! grep -v "^{\"pid\":$1,\"fd\":" "$2" | grep -q .' sh "$reader" "$WORK/json"
wait "$reader"

# -d PID:FD follows one descriptor; it ends, with 0, when that one closes.
# -n gives its percentage alone; --stats its totals, of what moved while
# watched (the file was a third read before).
start_reader
say "open $WORK/a"
fda=$(answer)
say "read $fda 1000000"
rm -f "$WORK/num"
"$TACH" -d "$reader:$fda" -n --stats -i 0.05 2>"$WORK/num" 3>&- &
watcher=$!
at_line() { grep -qx "$1" "$WORK/num" 2>/dev/null; }
check "-n: the percentage alone" wait_until 60 at_line 33
say "read $fda 500000"
check "-n: 50" wait_until 60 at_line 50
say "read $fda 1500000"
check "-n: 100" wait_until 60 at_line 100
say "close $fda"
wait "$watcher"
check "the descriptor's close ends the watch with 0 ($?)" [ $? -eq 0 ]
check "the reader still runs" running "$reader"
check "--stats: the file's totals" \
    grep -q "^tach: fd $fda ($WORK/a): 2000000 bytes in .*, at 3000000$" "$WORK/num" ||
    cat "$WORK/num" >&2
check "--stats: its rates, named" grep -q "^tach: .*: rate over [0-9]* intervals" "$WORK/num"

# -n with every file: the descriptor before each number.
say "open $WORK/b"
fdb=$(answer)
rm -f "$WORK/num"
"$TACH" -d "$reader" -n -i 0.05 2>"$WORK/num" 3>&- &
watcher=$!
check "-n with several files: fd, then the number" \
    wait_until 60 at_line "$fdb 0"
wait_until 60 caught "$watcher" USR1
kill -USR1 "$watcher"
check "SIGUSR1: where each file is" wait_until 60 grep -qx \
    "tach: fd $fdb ($WORK/b): at 0 of 1000000 bytes" "$WORK/num"
kill "$watcher"
wait "$watcher" 2>/dev/null
check "a signal ends the watch as it ends a copy ($?)" [ $? -eq 143 ]

# -8: a watch shows bits too (-n -F %b: 400000 bytes are 3200000 bits)
say "read $fdb 400000"
rm -f "$WORK/num"
"$TACH" -d "$reader:$fdb" -8 -n -F %b -i 0.05 2>"$WORK/num" 3>&- &
watcher=$!
check "-8 -n -F %b: the position in bits" wait_until 60 at_line 3200000
kill "$watcher"
wait "$watcher" 2>/dev/null

# -D: nothing at all before the delay, not even the last objects.
rm -f "$WORK/quiet"
"$TACH" -d "$reader" -D 86400 --format json -i 0.05 2>"$WORK/quiet" 3>&- &
quiet=$!
check "-D: the watch runs" wait_until 60 caught "$quiet" ALRM
kill "$quiet"
wait "$quiet" 2>/dev/null
check "-D: nothing was written" empty "$WORK/quiet"

# What cannot be watched: a message naming it, and 1.
"$TACH" -d "$reader:0" 2>"$WORK/err"
check "a descriptor that is not a file: 1 ($?)" [ $? -eq 1 ]
check "…named" grep -qx "tach: process $reader: fd 0: not a regular file or disk" "$WORK/err"
"$TACH" -d "$reader:77" 2>"$WORK/err"
check "a descriptor that is not open: 1 ($?)" [ $? -eq 1 ]
check "…named" grep -qx "tach: process $reader: fd 77: Bad file descriptor" "$WORK/err"
sh -c 'echo $$ >"$1"' sh "$WORK/gone"
gone=$(cat "$WORK/gone")
"$TACH" -d "$gone" 2>"$WORK/err"
check "a process that does not exist: 1 ($?)" [ $? -eq 1 ]
check "…named" grep -qx "tach: process $gone: No such process" "$WORK/err"
# as nobody, from a copy nobody may run: $WORK (mode 700) may be in /root
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null &&
    shared=$(mktemp -d /tmp/tach-nobody.XXXXXX) &&
    chmod 755 "$shared" && cp "$TACH" "$shared/tach" &&
    runuser -u nobody -- "$shared/tach" --version >/dev/null 2>&1; then
	runuser -u nobody -- "$shared/tach" -d "$reader" 2>"$WORK/err"
	check "another user's process: 1 ($?)" [ $? -eq 1 ]
	check "…with the reason" grep -qx "tach: process $reader: its files may not be inspected: it runs as another user: Permission denied" "$WORK/err"
else
	echo "skipped: another user's process (not root, or nobody cannot run tach)" >&2
fi
[ -z "${shared:-}" ] || rm -rf "$shared"
for opt in -q "-L 1k" "-S -l 5" -z -Y "-f $WORK/a" --line-mode -0 \
    "-b 1m" -W -E --no-splice; do
	# shellcheck disable=SC2086
	"$TACH" -d "$reader" $opt 2>"$WORK/err"
	check "-d refuses $opt ($?)" [ $? -eq 1 ]
	check "…saying so" grep -q "^tach: -d watches another process: .* does not apply$" "$WORK/err"
done
# -l with -d names the tree a copy reads, nothing else
for opt in "-l 5" "-l @$WORK/a"; do
	# shellcheck disable=SC2086
	"$TACH" -d "$reader" $opt 2>"$WORK/err"
	check "-d refuses $opt ($?)" [ $? -eq 1 ]
	check "…saying so" grep -qx "tach: -d: -l takes @DIR, the tree the process copies" "$WORK/err"
done
"$TACH" -d "$reader" cat 2>"$WORK/err"
check "-d refuses a command" grep -qx "tach: -d watches another process: a command does not apply" "$WORK/err"
for bad in 0 -5 x "$reader:" "$reader:x" ":3"; do
	"$TACH" -d "$bad" 2>"$WORK/err"
	check "-d '$bad' is refused ($?)" [ $? -eq 1 ]
done

# Faults while reading /proc: the process's directory cannot be read, an
# error and 1; one descriptor's link cannot be read, that one is passed
# over and the watch goes on (-d PID:FD has only that one: an error).
if command -v strace >/dev/null; then
	(exec 3>&-; strace -f -qq -o /dev/null -P "/proc/$reader/fd" \
	    -e trace=openat -e inject=openat:error=EIO \
	    "$TACH" -d "$reader" 2>"$WORK/err")
	check "/proc/PID/fd unreadable: 1 ($?)" [ $? -eq 1 ]
	check "…with the error" grep -qx \
	    "tach: process $reader: Input/output error" "$WORK/err"
	(exec 3>&-; strace -f -qq -o /dev/null -e trace=readlink,readlinkat \
	    -e inject=readlink,readlinkat:error=ESTALE \
	    "$TACH" -d "$reader:$fdb" 2>"$WORK/err")
	check "one descriptor's link unreadable: 1 ($?)" [ $? -eq 1 ]
	check "…with the error" grep -qx \
	    "tach: process $reader: fd $fdb: Stale file handle" "$WORK/err"
	rm -f "$WORK/stale"
	(exec 3>&-; strace -f -o "$WORK/stale" -P "/proc/$reader/fd/$fdb" \
	    -e trace=readlink,readlinkat \
	    -e inject=readlink,readlinkat:error=ESTALE \
	    "$TACH" -d "$reader" -n -i 0.05 2>"$WORK/num") &
	watcher=$!
	twice() {
		n=$(grep -c ESTALE "$WORK/stale" 2>/dev/null)
		[ "${n:-0}" -ge 2 ]
	}
	check "…passed over in a listing: the watch goes on" wait_until 60 twice
	check "…and still watches the others (its stdout)" grep -q "^1 " "$WORK/num"
	lacks "…but not that one" "$WORK/num" "^$fdb "
	kill "$watcher" 2>/dev/null
	pkill -f -- "-d $reader -n -i 0.05"
	wait "$watcher" 2>/dev/null
fi

# Nothing is done to the watched process: no tracing, no signal, nothing
# of it opened for writing, none of its descriptors taken.  A pidfd is
# held only to tell it from a later process given its PID.
if command -v strace >/dev/null; then
	rm -f "$WORK/trace"
	# (a redirection on a function call leaves a saved copy of fd 3 open)
	(exec 3>&-; strace -f -o "$WORK/trace" -e trace=openat,open,ptrace,kill,tgkill,process_vm_writev,pidfd_send_signal,pidfd_getfd \
	    "$TACH" -d "$reader" --format json -i 0.05 2>/dev/null) &
	watcher=$!
	say "read $fdb 1000"
	sampled() { grep -q "/proc/$reader/fdinfo/$fdb" "$WORK/trace" 2>/dev/null; }
	wait_until 60 sampled
	exec 3>&-
	wait "$watcher"
	lacks "the watcher only reads /proc" "$WORK/trace" \
	    "open.*/proc/.*O_(WRONLY|RDWR)|ptrace\\(|process_vm_writev|kill\\($reader|pidfd_send_signal|pidfd_getfd"
fi
wait "$reader"

# GNU cp copies up to 2 GiB in one copy_file_range call: its source's
# offset stays put while the destination grows.  The reader made to look
# so (its answers through a pipe, so it holds one file read and one
# written, nothing else regular): the source is shown where the
# destination has got, up to its own size.
# piped_reader: the helper's reader answering through a pipe, so that it
# holds no regular file but those it is told to open; its pid in $reader
piped_reader() {
	rm -f "$WORK/ctl" "$WORK/ack" "$WORK/rpid" "$WORK/dst"
	mkfifo "$WORK/ctl"
	: >"$WORK/ack"
	sh -c 'echo $$ >"$1"; exec "$2" reader' sh "$WORK/rpid" "$HELPER" \
	    <"$WORK/ctl" | cat >"$WORK/ack" &
	exec 3>"$WORK/ctl"
	acks=0
	wait_until 60 test -s "$WORK/rpid"
	reader=$(cat "$WORK/rpid")
}
# cp_watched WHAT: the reader has a open to read and dst to write, as
# cp has; a watcher started (with $watch_env in its environment), which
# sees a at 0
watch_env=
cp_watched() {
	say "open $WORK/a"
	fda=$(answer)
	say "create $WORK/dst"
	fdd=$(answer)
	rm -f "$WORK/json"
	env $watch_env "$TACH" -d "$reader" --format json -i 0.05 \
	    2>"$WORK/json" 3>&- &
	watcher=$!
	check "$1: the source seen at 0" \
	    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 0
}
piped_reader
cp_watched "cp's copy"
for amount in 1000000 2000000; do
	say "write $fdd 1000000"
	check "cp's copy: the source shown at $amount, where the output is" \
	    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" $amount
done
exec 3>&-
wait "$watcher"
# (the reader exited at 2000000 of 3000000: its last line says how old)
check "a file ended short of its end: its sample's age in JSON" grep -q \
    "\"fd\":$fda,.*\"final\":true,\"result\":\"exited\",\"sample_age\":[0-9.]*}" \
    "$WORK/json"

# The same with another file open for writing beside the copy's, which
# does not grow (cp a b >log 2>&1, nohup.out, a lock): the growing one is
# still followed.
piped_reader
say "create $WORK/log"
cp_watched "cp's copy beside a log"
say "write $fdd 1000000"
check "…then where the growing output is" \
    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
exec 3>&-
wait "$watcher"

# The bytes a write adds show in the file before its count in
# /proc/PID/io does: one look may see the output grown and nothing
# written, the next the count and no growth.  tests/procshim.c makes
# every count a look late: the growth is followed all the same.
if [ -n "${PROCSHIM_LIB:-}" ]; then
	piped_reader
	watch_env="LD_PRELOAD=$PROCSHIM_LIB PROCSHIM=late-count"
	cp_watched "cp's copy, its count a look late"
	watch_env=
	say "write $fdd 1000000"
	check "…then where the output is" \
	    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
	exec 3>&-
	wait "$watcher"
fi

# An output another process grows, not the one watched (a log it
# inherited: under ctest every test's processes hold ctest's own log
# open for writing): the source stands where it is.  The reader waits
# on its control pipe, in no call on the output, and writes nothing.
piped_reader
cp_watched "an output grown by another process"
head -c 1000000 /dev/zero >>"$WORK/dst"
# looks_past N: the source has had N+3 lines, three looks more
looks_past() {
	[ "$(grep -c "\"fd\":$fda,\"path\":\"$WORK/a\"" "$WORK/json")" -ge \
	    $(($1 + 3)) ]
}
check "…looked at again" wait_until 60 looks_past \
    "$(grep -c "\"fd\":$fda,\"path\":\"$WORK/a\"" "$WORK/json")"
lacks "…the source still at 0" "$WORK/json" \
    "\"fd\":$fda,\"path\":\"$WORK/a\",\"elapsed\":[0-9.]*,\"bytes\":[1-9]"
exec 3>&-
wait "$watcher"

# A thread in one call copying a to dst (GNU cp's copy_file_range, or
# sendfile), held at its entry by strace, dst grown by then: nothing
# counted as written yet, as in a real copy until its call returns; the
# growth is still the copy's.
held_reader() {
	rm -f "$WORK/ctl" "$WORK/ack" "$WORK/tracer" "$WORK/dst"
	mkfifo "$WORK/ctl"
	: >"$WORK/ack"
	sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$WORK/tracer" \
	    strace -qq -o /dev/null -e trace=copy_file_range,/^sendfile \
	    -e inject=copy_file_range,/^sendfile:delay_enter=600000000 \
	    "$HELPER" reader <"$WORK/ctl" | cat >"$WORK/ack" &
	exec 3>"$WORK/ctl"
	acks=0
	say pid
	reader=$(answer)
}
# held ARGS: the reader is in a call whose first arguments are ARGS
held() { grep -q "^[0-9]* $1 " "/proc/$reader/syscall"; }
if command -v strace >/dev/null; then
	for call in copy sendfile; do
		held_reader
		cp_watched "$call held"
		a=$(printf '%#x' "$fda") d=$(printf '%#x' "$fdd")
		if [ $call = copy ]; then
			echo "copy $fda $fdd 1000000" >&3
			check "$call held: in its call" \
			    wait_until 60 held "$a 0x[0-9a-f]* $d"
		else
			echo "sendfile $fdd $fda 1000000" >&3
			check "$call held: in its call" \
			    wait_until 60 held "$d $a"
		fi
		check "$call held: the source shown where the output is" \
		    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
		# strace delays with fatal signals blocked; its death lets go
		kill -KILL "$(cat "$WORK/tracer")"
		exec 3>&-
		wait "$watcher"
	done
fi

# --once on such a copy: one look sees the source at 0; tach looks again
# (a tenth of a second apart) until the destination grows, and shows the
# source where the destination is.  The copier: Python holding the
# source read at 0 and a destination it writes 4 KiB to every 10 ms.
if command -v python3 >/dev/null; then
	rm -f "$WORK/dst" "$WORK/ready" "$WORK/stop"
	python3 -c 'import os, sys, time
src = open(sys.argv[1], "rb")
dst = open(sys.argv[2], "wb")
open(sys.argv[3], "w").close()
while not os.path.exists(sys.argv[4]):
    if dst.tell() < 2900000:
        dst.write(b"\0" * 4096)
        dst.flush()
    time.sleep(0.01)' "$WORK/a" "$WORK/dst" "$WORK/ready" "$WORK/stop" \
	    </dev/null >/dev/null 2>&1 &
	copier=$!
	wait_until 60 test -e "$WORK/ready"
	wait_until 60 size_at_least "$WORK/dst" 100000
	"$TACH" -d "$copier" --once --format json 2>"$WORK/json" 3>&-
	check "--once on cp's copy: exit 0 ($?)" [ $? -eq 0 ]
	n=$(grep -o "\"path\":\"$WORK/a\",\"elapsed\":[0-9.]*,\"bytes\":[0-9]*" \
	    "$WORK/json" | sed 's/.*://')
	check "…the source shown where the destination is, not at 0 (${n:-none})" \
	    [ "${n:-0}" -ge 100000 ]
	: >"$WORK/stop"
	wait "$copier"
fi

# Several -d: every process given is watched, each block named by its
# PID; one that exits leaves, the others go on.  (Each holds a file at a
# known offset: dd read exactly that much of it.)
holder() {
	sh -c 'exec 4<"$1"; dd bs="$2" count=1 <&4 >/dev/null 2>&1
	    exec sleep 300' sh "$1" "$2" 3>&- &
}
at() { grep -q "^pos:[[:space:]]*$2\$" /proc/"$1"/fdinfo/4 2>/dev/null; }
holder "$WORK/a" 1000
h1=$!
holder "$WORK/b" 2000
h2=$!
wait_until 60 at $h1 1000 && wait_until 60 at $h2 2000
rm -f "$WORK/json"
"$TACH" -d $h1 -d $h2 -d $h1 --format json -i 0.05 2>"$WORK/json" 3>&- &
watcher=$!
both() {
	grep -q "^{\"pid\":$h1,\"fd\":4,\"path\":\"$WORK/a\",.*\"bytes\":1000," \
	    "$WORK/json" &&
	grep -q "^{\"pid\":$h2,\"fd\":4,\"path\":\"$WORK/b\",.*\"bytes\":2000," \
	    "$WORK/json"
}
check "several -d: each process's file watched" wait_until 60 both
kill $h1
check "…one that exits ends its own lines" wait_until 60 grep -q \
    "^{\"pid\":$h1,.*\"final\":true,\"result\":\"exited\"" "$WORK/json"
check "…the others go on" running $watcher
lines=$(grep -c "^{\"pid\":$h2," "$WORK/json")
check "…and are still drawn" wait_until 60 sh -c \
    "[ \$(grep -c '^{\"pid\":$h2,' '$WORK/json') -gt $lines ]"
# (twice, each tick would have two objects of its file at one elapsed)
once_a_tick() {
	grep "^{\"pid\":$h1,\"fd\":4," "$WORK/json" | grep -v '"final":true' |
	    cut -d, -f4 | sort | uniq -d >"$WORK/twice"
	[ ! -s "$WORK/twice" ] && [ "$(grep -c "^{\"pid\":$h1,\"fd\":4," \
	    "$WORK/json")" -gt 1 ]
}
check "…a PID given twice watched once" once_a_tick
kill $h2
wait $watcher
check "…the last one's exit ends the watch with 0 ($?)" [ $? -eq 0 ]
# the bar names each block by its PID
holder "$WORK/a" 1000
h1=$!
holder "$WORK/b" 2000
h2=$!
wait_until 60 at $h1 1000 && wait_until 60 at $h2 2000
"$TACH" -d $h1 -d $h2 --force -w 100 -i 0.05 2>"$WORK/bar" 3>&- &
watcher=$!
named() { grep -q "$h1: .*/a " "$WORK/bar" && grep -q "$h2: .*/b " "$WORK/bar"; }
check "…each line named by its PID" wait_until 60 named
kill $h1 $h2
wait $watcher

# --once: one look at everything watched, and exit 0; 1, saying why,
# when there is nothing to show.
holder "$WORK/a" 1000
h1=$!
wait_until 60 at $h1 1000
"$TACH" -d $h1 --once --format json 2>"$WORK/json" 3>&-
check "--once: exit 0 ($?)" [ $? -eq 0 ]
check "…the file where it is" grep -q \
    "^{\"pid\":$h1,\"fd\":4,\"path\":\"$WORK/a\",.*\"bytes\":1000,.*\"size\":3000000," \
    "$WORK/json"
check "…once" [ "$(grep -c "\"fd\":4," "$WORK/json")" -eq 1 ]
check "…the process still running" running $h1
"$TACH" -d $h1 --once --force -w 100 2>"$WORK/bar" 3>&-
check "--once drawn: its line left" grep -q "$WORK/a .*1000 B" "$WORK/bar"
# (as watch(1) runs it: stderr a pipe, no --force)
"$TACH" -d $h1 --once -w 100 2>&1 3>&- | cat >"$WORK/bar"
check "--once, stderr not a terminal: its line all the same" \
    grep -q "$WORK/a .*1000 B" "$WORK/bar"
lacks "…no rate from one look" "$WORK/bar" "avg|B/s"
kill $h1
# at 80 columns, a file deep in long directories: the command, its PID
# and the file's name are kept whole, the directories' middle elided
long=$WORK/a-directory-with-a-rather-long-name/and-another-one-below-it-too
mkdir -p "$long"
random "$long/file.bin" 100000
holder "$long/file.bin" 1000
h1=$!
wait_until 60 at $h1 1000
"$TACH" -d $h1 --once --force -w 80 2>"$WORK/bar" 3>&-
check "80 columns: command, PID and file name whole" \
    grep -q "^[a-z]* $h1: /.*….*/file\.bin .* 1000 B" "$WORK/bar"
kill $h1
sleep 300 </dev/null >/dev/null 2>&1 3>&- &
idle=$!
# (until it is sleep, it is a copy of this shell, with this script open)
wait_until 60 grep -qx sleep /proc/$idle/comm
"$TACH" -d $idle --once 2>"$WORK/err" 3>&-
check "--once, no file open: exit 1 ($?)" [ $? -eq 1 ]
check "…saying so" grep -q "^tach: -d: nothing to show" "$WORK/err"
kill $idle
for opt in "" "-d x --wait-for" "-d x -D 1" "-d x --stats"; do
	# shellcheck disable=SC2086
	"$TACH" $opt --once 2>"$WORK/err" 3>&-
	check "--once ${opt:-without -d}: refused ($?)" [ $? -eq 1 ]
done

# rsync's receiving file (".NAME.XXXXXX"), written with no end of its
# own: where the file NAME is read (by the sender), its size is the end.
start_reader
say "open $WORK/a"
mkdir -p "$WORK/recv"
say "create $WORK/recv/.a.Xy12Zq"
fdt=$(answer)
say "write $fdt 1000000"
: >"$WORK/json"
"$TACH" -d "$reader" --once --format json 2>"$WORK/json" 3>&-
check "rsync's temporary file: the sender's file's size its end" \
    grep -q "\"fd\":$fdt,\"path\":\"$WORK/recv/.a.Xy12Zq\",.*\"bytes\":1000000,.*\"size\":3000000,\"percent\":33.33" \
    "$WORK/json"
say "create $WORK/recv/.b.Xy12Zq"
fdu=$(answer)
say "write $fdu 1000"
"$TACH" -d "$reader" --once --format json 2>"$WORK/json" 3>&-
check "…none where no such file is read" \
    grep -q "\"fd\":$fdu,\"path\":\"$WORK/recv/.b.Xy12Zq\",.*\"size\":null" "$WORK/json"
exec 3>&-
wait "$reader"

# A file read to its end and closed between two looks (dd's end, an rsync
# sender's each file): the one file its process read, which read at least
# what was left of it since the last look: its last line says 100%, not
# where that look saw it.  One closed after less keeps that position and
# its age.  (Two commands at once: no look between them.)
tell() {
	for c; do echo "$c" >&3; done
	acks=$((acks + $#))
	wait_until 60 acked $acks || fail "the reader did not answer: $*"
}
start_reader
say "open $WORK/a"
fda=$(answer)
say "read $fda 1000000"
: >"$WORK/json"
"$TACH" -d "$reader" --format json -i 5 2>"$WORK/json" 3>&- &
watcher=$!
wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
tell "read $fda 2000000" "close $fda"
check "read to its end between two looks: 100% as it closes" \
    wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 3000000 \
    '.*"percent":100.00,"eta":null,"final":true,"result":"closed"\(,"between_samples":true\)\{0,1\}}'
say "open $WORK/b"
fdb=$(answer)
say "read $fdb 200000"
wait_until 60 seen "$WORK/json" "$fdb" "$WORK/b" 200000
tell "read $fdb 300000" "close $fdb"
check "…one closed short: its last look's position, and its age" \
    wait_until 60 seen "$WORK/json" "$fdb" "$WORK/b" 200000 \
    '.*"final":true,"result":"closed",\("between_samples":true,\)\{0,1\}"sample_age":[0-9.]*}'
kill "$watcher"
wait "$watcher" 2>/dev/null
exec 3>&-
wait "$reader"

# -d PATH: the file watched by its path, whoever has it open (the reader,
# and a second holder); the watch ends when the last closes it;
# --wait-for waits for one to open it.  A missing path is refused.
start_reader
say "open $WORK/a"
fda=$(answer)
say "read $fda 1000000"
sleep 3600 <"$WORK/a" &
holder=$!
holds() { [ "$(readlink "/proc/$1/fd/0")" = "$2" ]; }
wait_until 60 holds "$holder" "$WORK/a"
"$TACH" -d "$WORK/a" --once --format json 2>"$WORK/json" 3>&-
check "-d PATH --once: exit 0 ($?)" [ $? -eq 0 ]
check "-d PATH: the reader's descriptor, where it is" grep -q \
    "^{\"pid\":$reader,\"fd\":$fda,\"path\":\"$WORK/a\",.*\"bytes\":1000000," "$WORK/json"
check "-d PATH: the other holder's too" grep -q \
    "^{\"pid\":$holder,\"fd\":0,\"path\":\"$WORK/a\"," "$WORK/json"
kill "$holder"
wait "$holder" 2>/dev/null
: >"$WORK/json"
"$TACH" -d "$WORK/a" --format json -i 0.05 2>"$WORK/json" 3>&- &
watcher=$!
wait_until 60 seen "$WORK/json" "$fda" "$WORK/a" 1000000
say "close $fda"
wait "$watcher"
check "-d PATH: the watch ends with its close, 0 ($?)" [ $? -eq 0 ]
: >"$WORK/json"
"$TACH" -d "$WORK/b" --wait-for --format json -i 0.05 2>"$WORK/json" 3>&- &
watcher=$!
wait_until 60 caught "$watcher" ALRM
say "open $WORK/b"
fdb=$(answer)
check "-d PATH --wait-for: found once opened" \
    wait_until 60 seen "$WORK/json" "$fdb" "$WORK/b" 0
kill "$watcher"
wait "$watcher" 2>/dev/null
exec 3>&-
wait "$reader"
"$TACH" -d "$WORK/missing" --once 2>"$WORK/err"
check "-d PATH missing: 1, and why" sh -c \
    '[ $1 -eq 1 ] && grep -qx "tach: -d $2: No such file or directory" "$3"' \
    sh $? "$WORK/missing" "$WORK/err"
"$TACH" -d "$WORK/b" --once 2>"$WORK/err"
check "-d PATH nobody holds: 1, and why" grep -qx \
    "tach: -d $WORK/b: no process of yours has it open (--wait-for waits for one)" \
    "$WORK/err"

done_testing
