# SPDX-License-Identifier: BSD-2-Clause
# covers: -d's whole copy: one line for a tree's copy above its files
# (cp -r, tar), its bytes over every file against the tree's size, files
# done of the total, never stepping back; with -l @DIR and without, with
# --once, several -d, -d NAME and --wait-for.  The copy is held by gates:
# FIFOs among cp's operands, which --copy-contents opens and reads, so cp
# waits in open(2) at each until the test lets it through, and each step
# of the copy is seen.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the whole copy reads /proc/PID/io (Linux)"
cp --help 2>/dev/null | grep -q -- --copy-contents ||
    skip "cp without --copy-contents (GNU cp): no gate to hold it"

# tree DIR N BYTES: N files of BYTES random bytes in DIR and a subfolder.
tree() {
	mkdir -p "$1/sub"
	i=0
	while [ "$i" -lt "$2" ]; do
		if [ $((i % 2)) -eq 0 ]; then
			random "$1/f$i" "$3"
		else
			random "$1/sub/f$i" "$3"
		fi
		i=$((i + 1))
	done
}
# size_of DIR...: the regular files' bytes, as du -sb --apparent-size
# counts them less the directories
size_of() { find "$@" -type f -printf '%s\n' | awk '{ n += $1 } END { print n }'; }
# wholes FILE: each whole object's bytes, in order
wholes() { grep '"whole":true' "$1" | sed 's/.*"bytes":\([0-9]*\),.*/\1/'; }
never_back() { wholes "$1" | awk 'NR > 1 && $1 < last { exit 1 } { last = $1 }'; }
last_whole() { grep '"whole":true' "$1" | tail -n 1; }
has() { grep -q -- "$2" "$1"; }
at_least() { [ "$(wholes "$1" | tail -n 1)" -ge "$2" ]; }
# blocked PID: waiting in open(2) at a gate
blocked() { [ "$(cat "/proc/$1/wchan" 2>/dev/null)" = wait_for_partner ]; }
pass_gate() { : >"$1"; }

tree "$WORK/s1" 14 100000
tree "$WORK/s2" 13 150000
tree "$WORK/s3" 13 50000
mkfifo "$WORK/g1" "$WORK/g2" "$WORK/g3"
s1=$(size_of "$WORK/s1")
s12=$(size_of "$WORK/s1" "$WORK/s2")
all=$(size_of "$WORK/s1" "$WORK/s2" "$WORK/s3")

# A cp -r of three trees, 40 files, watched from its start to its end:
# its sources are its command line's directories, the last (where it
# copies to) left out.
mkdir "$WORK/d1"
cp -r --copy-contents "$WORK/g1" "$WORK/s1" "$WORK/g2" "$WORK/s2" \
    "$WORK/g3" "$WORK/s3" "$WORK/d1" &
copier=$!
wait_until 60 blocked "$copier"
# (each watch's JSON emptied before it starts: its redirection may come
# after the test's first look, which would read the run before's)
: >"$WORK/json"
"$TACH" -d "$copier" --format json -i 0.05 2>"$WORK/json" &
watcher=$!
check "the whole copy's line, at 0, before any file is open" \
    wait_until 60 has "$WORK/json" "\"pid\":$copier,\"path\":\"$WORK/s1\",\"whole\":true,\"files\":0,\"files_total\":40,\"elapsed\":[0-9.]*,\"bytes\":0,"
check "its size is the three trees' files' ($all)" \
    has "$WORK/json" "\"whole\":true.*\"size\":$all,\"percent\":0.00"
pass_gate "$WORK/g1"
check "the first tree's bytes counted once cp waits at the next gate" \
    wait_until 60 at_least "$WORK/json" "$s1"
wait_until 60 blocked "$copier"
check "and its 14 files" wait_until 60 has "$WORK/json" '"files":14,'
pass_gate "$WORK/g2"
check "then the second's" wait_until 60 at_least "$WORK/json" "$s12"
wait_until 60 blocked "$copier"
pass_gate "$WORK/g3"
wait "$copier"
wait "$watcher"
check "the watch ends with cp, 0 ($?)" [ $? -eq 0 ]
check "the last whole line: every byte and every file" sh -c \
    "tail -n 100 '$WORK/json' | grep -q '\"whole\":true,\"files\":40,\"files_total\":40,\"elapsed\":[0-9.]*,\"bytes\":$all,.*\"percent\":100.00,.*\"final\":true,\"result\":\"exited\"'"
check "the whole line never stepped back" never_back "$WORK/json"
check "and climbed through the copy" \
    [ "$(wholes "$WORK/json" | sort -un | wc -l)" -ge 3 ]
check "the copy is whole" diff -r "$WORK/s2" "$WORK/d1/s2"

# Watched from mid-copy (its files before the watch not known), with no
# sample due before cp's end (-i 60): cp's exit wakes the watch (its
# pidfd), which reads cp's last I/O count before cp is reaped: 100%.
# Here cp's parent reaps it only once the watch has ended, so that is
# certain.  (Before, the last line kept the last sample's figure, short.)
# mid_copy DIR REAP [WRAPPER...]: cp -r copying into DIR, its PID in
# $copier, held by a parent that reaps it at once (REAP now) or once the
# watch has ended (later); the watch's JSON in $WORK/json, run under
# WRAPPER; its last whole line in $WORK/last
mid_copy() {
	_m_dir=$1
	rm -f "$WORK/reap" "$WORK/pid" "$WORK/reap.status"
	# a gate of its own
	mkfifo "$_m_dir.gate"
	[ "$2" = later ] || : >"$WORK/reap"
	shift 2
	mkdir "$_m_dir"
	python3 -c 'import os, subprocess, sys, time
p = subprocess.Popen(sys.argv[3:])
open(sys.argv[1], "w").write("%d\n" % p.pid)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
open(sys.argv[2] + ".status", "w").write("%d\n" % p.wait())' "$WORK/pid" "$WORK/reap" cp -r --copy-contents "$WORK/s1" \
	    "$_m_dir.gate" "$WORK/s2" "$WORK/s3" "$_m_dir" &
	reaper=$!
	wait_until 60 test -s "$WORK/pid"
	copier=$(cat "$WORK/pid")
	wait_until 60 blocked "$copier"
	: >"$WORK/json"
	"$@" "$TACH" -d "$copier" --format json -i 60 2>"$WORK/json" &
	watcher=$!
	wait_until 60 has "$WORK/json" '"whole":true'
	pass_gate "$_m_dir.gate"
	wait "$watcher"
	_m_status=$?
	check "mid-copy: the watch ends with cp, 0 ($_m_status)" \
	    [ $_m_status -eq 0 ] || tail -n 3 "$WORK/json" >&2
	: >"$WORK/reap"
	wait "$reaper"
	last_whole "$WORK/json" >"$WORK/last"
}
if command -v python3 >/dev/null; then
	mid_copy "$WORK/dmid" later
	check "mid-copy: the last line is cp's last count, 100% ($(cat "$WORK/last"))" \
	    grep -q "\"percent\":100.00,.*\"final\":true" "$WORK/last"
	lacks "…and needs no age" "$WORK/last" '"sample_age"'
	# the watch woken late (strace holds its ppoll 0.5 s), cp reaped
	# meanwhile by a parent that does not wait for the watch: the last
	# line says how old its figure is
	if command -v strace >/dev/null; then
		mid_copy "$WORK/dlate" now strace -f -qq -o /dev/null \
		    -e inject=ppoll:delay_exit=500000
		check "reaped first: the last line says its age ($(cat "$WORK/last"))" \
		    grep -q '"sample_age":[0-9.]*' "$WORK/last"
	fi
fi

# -l @DIR names the tree: here one of cp's sources, its line alone.
mkdir "$WORK/d2"
cp -r --copy-contents "$WORK/g1" "$WORK/s2" "$WORK/d2" &
copier=$!
wait_until 60 blocked "$copier"
: >"$WORK/json"
"$TACH" -d "$copier" -l "@$WORK/s2" --format json -i 0.05 2>"$WORK/json" &
watcher=$!
wait_until 60 has "$WORK/json" '"whole":true'
s2=$(size_of "$WORK/s2")
check "-l @DIR: that tree's size" \
    has "$WORK/json" "\"path\":\"$WORK/s2\",\"whole\":true.*\"size\":$s2,"
pass_gate "$WORK/g1"
wait "$copier"
wait "$watcher"
check "-l @DIR: to its end" sh -c "last_whole() { grep '\"whole\":true' \"\$1\" | tail -n 1; }; last_whole '$WORK/json' | grep -q '\"files\":13,\"files_total\":13,.*\"bytes\":$s2,'"
check "-l @DIR: never back" never_back "$WORK/json"

# 2000 small files read and closed between two samples: none is missed.
mkdir -p "$WORK/small/a" "$WORK/small/b" "$WORK/d3"
i=0
while [ $i -lt 2000 ]; do
	printf '%0*d' $((100 + i % 50)) "$i" >"$WORK/small/$([ $((i % 3)) -eq 0 ] && echo a || echo b)/$i"
	i=$((i + 1))
done
small=$(size_of "$WORK/small")
cp -r --copy-contents "$WORK/g1" "$WORK/small" "$WORK/d3" &
copier=$!
wait_until 60 blocked "$copier"
: >"$WORK/json"
"$TACH" -d "$copier" --format json -i 0.5 2>"$WORK/json" &
watcher=$!
wait_until 60 has "$WORK/json" '"whole":true'
pass_gate "$WORK/g1"
wait "$copier"
wait "$watcher"
check "2000 small files: every one counted, every byte ($small)" \
    has "$WORK/json" "\"whole\":true,\"files\":2000,\"files_total\":2000,\"elapsed\":[0-9.]*,\"bytes\":$small,.*\"final\":true" ||
    last_whole "$WORK/json" >&2

# --once: one look, the files done before it not known; exit 0.
mkdir -p "$WORK/d4"
cp -r --copy-contents "$WORK/s1" "$WORK/g1" "$WORK/s3" "$WORK/d4" &
copier=$!
wait_until 60 blocked "$copier"
"$TACH" -d "$copier" --once --format json 2>"$WORK/json"
check "--once: exit 0 ($?)" [ $? -eq 0 ]
s13=$(size_of "$WORK/s1" "$WORK/s3")
check "--once: files done not known, of 27" \
    has "$WORK/json" "\"whole\":true,\"files\":null,\"files_total\":27,.*\"size\":$s13,"
# (watched late, what cp read as it started counts too: a few KiB)
check "--once: where the copy is: the first tree" sh -c \
    "[ \$(grep -o '\"whole\":true.*\"bytes\":[0-9]*' '$WORK/json' | sed 's/.*://') -ge $s1 ] &&
    [ \$(grep -o '\"whole\":true.*\"bytes\":[0-9]*' '$WORK/json' | sed 's/.*://') -lt $((s1 + 65536)) ]"
"$TACH" -d "$copier" --once -w 80 --force 2>"$WORK/line"
# (at 80 columns the tree's middle is elided; cp, its PID and the end not)
check "--once: the line says what it is" \
    grep -q "^cp $copier: all of /.*/s1 +1, 27 files " "$WORK/line"

# Several -d, each its own whole line; -d NAME finds cp by name.
mkdir -p "$WORK/d5"
cp -r --copy-contents "$WORK/g2" "$WORK/s2" "$WORK/d5" &
second=$!
wait_until 60 blocked "$second"
"$TACH" -d "$copier" -d "$second" --once --format json 2>"$WORK/json"
check "several -d: a whole line each" sh -c \
    "grep -q '\"pid\":$copier,\"path\":\"$WORK/s1\",\"whole\":true' '$WORK/json' &&
    grep -q '\"pid\":$second,\"path\":\"$WORK/s2\",\"whole\":true' '$WORK/json'"
"$TACH" -d cp --once --format json 2>"$WORK/json"
check "-d NAME: cp's whole copy, named" \
    has "$WORK/json" "\"pid\":$second,\"command\":\"cp\",\"path\":\"$WORK/s2\",\"whole\":true"
pass_gate "$WORK/g1"
pass_gate "$WORK/g2"
wait "$copier" "$second"

# --wait-for: a cp started after tach is found, and its tree with it.
: >"$WORK/json"
"$TACH" -d cp --wait-for --format json -i 0.05 2>"$WORK/json" &
watcher=$!
mkdir -p "$WORK/d6"
cp -r --copy-contents "$WORK/g3" "$WORK/s3" "$WORK/d6" &
copier=$!
check "--wait-for: the new cp's whole line" wait_until 60 has "$WORK/json" \
    "\"pid\":$copier,\"command\":\"cp\",\"path\":\"$WORK/s3\",\"whole\":true"
pass_gate "$WORK/g3"
wait "$copier"
s3=$(size_of "$WORK/s3")
check "--wait-for: to its end" wait_until 60 has "$WORK/json" \
    "\"pid\":$copier,.*\"whole\":true.*\"bytes\":$s3,.*\"final\":true"
kill -TERM "$watcher"
wait "$watcher"

# tar c reads the same tree: -C's operands are under it, its archive (a
# FIFO here, which holds tar in open(2)) is no source.
mkfifo "$WORK/g4"
tar -cf "$WORK/g4" -C "$WORK" s1 s3 &
archiver=$!
wait_until 60 blocked "$archiver"
"$TACH" -d "$archiver" --once --format json 2>"$WORK/json"
check "tar -C DIR: its operands under DIR" \
    has "$WORK/json" "\"path\":\"$WORK/s1\",\"whole\":true.*\"size\":$s13,"
cat "$WORK/g4" >/dev/null
wait "$archiver"

# rsync -a, both spellings of its source, relative, started in $WORK:
# its sender moves into "r/" (and its receiver into rdst/) before it
# copies, so the operands are resolved where it started (its PWD).  Its
# three processes name the same source; the sender's line alone is the
# tree's (its receiver reads the sender's pipe).  Each held stopped until
# the watch has seen the tree; --bwlimit keeps the copy long enough to be
# stopped.  The sender's files, each closed between two looks, end at
# 100%.
# children PID: its child processes
children() {
	# shellcheck disable=SC2046
	set -- $(cat "/proc/$1/task/$1/children" 2>/dev/null)
	echo "$*"
}
three() {
	_t_recv=$(children "$1")
	[ -n "$_t_recv" ] && [ -n "$(children "$_t_recv")" ]
}
if command -v rsync >/dev/null && [ -e "/proc/$$/task/$$/children" ]; then
	tree "$WORK/r" 8 200000
	for source in r/ r; do
		rm -rf "$WORK/rdst"
		(cd "$WORK" && export PWD && exec rsync -a --bwlimit=400 \
		    "$source" rdst/) &
		sender=$!
		wait_until 60 three "$sender"
		receiver=$(children "$sender")
		generator=$(children "$receiver")
		kill -STOP "$sender" "$receiver" "$generator"
		: >"$WORK/json"
		"$TACH" -d "$sender" -d "$receiver" -d "$generator" \
		    --format json -i 0.05 2>"$WORK/json" &
		watcher=$!
		check "rsync $source: its tree seen where it started" \
		    wait_until 60 has "$WORK/json" \
		    "\"path\":\"$WORK/r/*\",\"whole\":true"
		kill -CONT "$sender" "$receiver" "$generator"
		wait "$sender"
		wait "$watcher"
		check "rsync $source: the sender's line alone" sh -c \
		    '! grep "\"whole\":true" "$1" | grep -qv "^{\"pid\":$2,"' \
		    sh "$WORK/json" "$sender"
		check "rsync $source: 100% at its end" has "$WORK/json" \
		    '"whole":true.*"percent":100.00,"eta":null,"final":true,"result":"exited"}'
		grep "^{\"pid\":$sender,\"fd\":[0-9]*,\"path\":\"$WORK/r/.*\"final\":true" \
		    "$WORK/json" >"$WORK/sent"
		check "rsync $source: each file it sent at 100% at its end" sh -c \
		    '[ -s "$1" ] && ! grep -qv "\"percent\":100.00" "$1"' sh "$WORK/sent"
		case $source in
		*/) dest=$WORK/rdst ;;
		*) dest=$WORK/rdst/r ;;
		esac
		check "rsync $source: the copy is whole" diff -r "$WORK/r" "$dest"
	done
	# started with no PWD (as by a program that set none): no tree
	# line, and a word why
	rm -rf "$WORK/rdst"
	(cd "$WORK" && exec env -u PWD rsync -a --bwlimit=400 r/ rdst/) &
	sender=$!
	wait_until 60 three "$sender"
	kill -STOP "$sender"
	"$TACH" -d "$sender" --once 2>"$WORK/err"
	check "rsync without PWD: why there is no tree line" grep -q \
	    "^tach: -d: process $sender: no line for its whole copy: r/ is not in its working directory, and where it started is not known$" \
	    "$WORK/err"
	kill -CONT "$sender"
	wait "$sender"
fi

# -l with -d is a tree's: a number or a file is refused.
check "-d -l N refused" sh -c \
    "! '$TACH' -d 1 -l 100 2>'$WORK/err' && grep -q 'takes @DIR' '$WORK/err'"
check "-d -l @FILE refused" sh -c \
    "! '$TACH' -d 1 -l '@$WORK/s1/f0' 2>'$WORK/err' && grep -q 'takes @DIR' '$WORK/err'"

done_testing
