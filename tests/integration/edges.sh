# SPDX-License-Identifier: BSD-2-Clause
# covers: the edges a fourth round of faults found (issue 32): what tach
# must never destroy, hang on, or miscount.  Whatever touches /dev runs in a
# private mount namespace with a tmpfs /dev of its own.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/data" 300000

# --- -P only ever replaces or removes a regular file of its own ---------

# kind PATH: what stat says PATH is, without following a link
kind() { stat -c %F "$1" 2>/dev/null || echo missing; }

mkfifo "$WORK/fifo"
ln -s "$WORK/target" "$WORK/link"
mkdir "$WORK/dir"
for p in fifo link dir; do
	before=$(kind "$WORK/$p")
	"$TACH" -P "$WORK/$p" <"$WORK/data" >"$out" 2>"$err"
	check "-P $p: refused, exit 1" [ $? -eq 1 ]
	check "-P $p: no byte moved" empty "$out"
	check "-P $p: says why" grep -q "^tach: -P .*$p: a .*, not replaced" "$err"
	check "-P $p: left as it was" [ "$(kind "$WORK/$p")" = "$before" ]
done
check "-P link: its target not made" [ ! -e "$WORK/target" ]

# as root, in a /dev of its own: a device node is never replaced
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	cat >"$WORK/dev.sh" <<'SH'
mount --make-rprivate / && mount -t tmpfs none /dev || exit 77
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 || exit 77
for d in /dev/null /dev/full; do
	"$TACH" -P "$d" </dev/null >/dev/null 2>>"$ERR" && echo "$d taken"
	[ -c "$d" ] || echo "$d is gone"
done
exit 0
SH
	ERR=$err TACH=$TACH unshare -m sh "$WORK/dev.sh" >"$out"
	st=$?
	if [ $st -eq 77 ]; then
		echo "skipped: -P on devices (no tmpfs /dev here)" >&2
	else
		check "-P device: both refused, both still devices ($(cat "$out"))" \
		    sh -c "[ $st -eq 0 ] && [ ! -s '$out' ]"
		check "-P device: says so" grep -q '^tach: -P /dev/full: a device' "$err"
	fi
else
	echo "skipped: -P on devices (needs root and unshare -m)" >&2
fi

# a regular file is replaced, and removed at the end
echo old >"$WORK/pid"
"$TACH" -P "$WORK/pid" <"$WORK/data" >"$out"
check "-P regular file: replaced, copy exact" cmp -s "$WORK/data" "$out"
check "-P regular file: removed at the end" [ ! -e "$WORK/pid" ]

# a FIFO or another file put at the path during the run is left alone,
# and the exit does not hang on the FIFO
pidfile_swapped() {	# $1: what to put there (fifo, file)
	rm -f "$WORK/pid" "$WORK/hold"
	mkfifo "$WORK/hold"
	"$TACH" -P "$WORK/pid" <"$WORK/hold" >/dev/null &
	exec 5>"$WORK/hold"	# an input that never speaks
	wait_until 60 test -s "$WORK/pid"
	tpid=$(cat "$WORK/pid")
	rm -f "$WORK/pid"
	case $1 in
	fifo) mkfifo "$WORK/pid" ;;
	file) echo "$tpid" >"$WORK/pid" ;;	# another's, though it says us
	esac
	kill -TERM "$tpid"
	wait_until 60 sh -c "! kill -0 $tpid 2>/dev/null"
	check "-P swapped for a $1: tach ended" sh -c "! kill -0 $tpid 2>/dev/null"
	check "-P swapped for a $1: left in place" [ -e "$WORK/pid" ]
	exec 5>&-
	kill "$tpid" 2>/dev/null
	wait
}
pidfile_swapped fifo
pidfile_swapped file
check "-P: another's file with our PID is kept" [ "$(cat "$WORK/pid")" = "$tpid" ]
rm -f "$WORK/pid"

# killed SIG CMD...: CMD (tach, its input a FIFO held open here) once its
# -P file (and, with -U, its unfinished store) is there, sent SIG; it dies
# of SIG and leaves neither behind
killed() {
	sig=$1
	shift
	rm -f "$WORK/pid" "$WORK/hold"
	mkfifo "$WORK/hold"
	"$@" <"$WORK/hold" >/dev/null 2>"$err" &
	exec 5>"$WORK/hold"
	printf abc >&5
	case "$*" in
	*-U*) wait_until 60 sh -c "test -s '$WORK/pid' && ls -A '$WORK' | grep -q '^\.store\.'" ;;
	*) wait_until 60 test -s "$WORK/pid" ;;
	esac
	kill -"$sig" "$(cat "$WORK/pid")"
	wait $!
	st=$?
	exec 5>&-
	check "SIG$sig: tach died of it ($st)" [ $st -eq $((128 + $(bash -c "kill -l $sig"))) ]
	check "SIG$sig: -P's file removed" [ ! -e "$WORK/pid" ]
	check "SIG$sig: no unfinished store left" \
	    [ -z "$(ls -A "$WORK" | grep '^\.store')" ]
}
# every catchable signal that ends tach removes the file first (a
# shell's background job starts with INT and QUIT ignored)
for sig in INT TERM HUP QUIT USR2 XCPU XFSZ VTALRM PROF PWR SYS TRAP; do
	killed $sig env --default-signal=INT,QUIT "$TACH" -P "$WORK/pid"
done
# the faults too (a crash, abort(3), or sent): -P's file and -U's
# unfinished store removed, then tach dies of the fault itself
for sig in SEGV BUS ABRT FPE ILL; do
	killed $sig sh -c 'ulimit -c 0; exec "$@"' sh "$TACH" -P "$WORK/pid" \
	    -U "$WORK/store"
done
# a write past ulimit -f (SIGXFSZ from the kernel, not from kill)
rm -f "$WORK/pid"
(ulimit -f 64; "$TACH" -P "$WORK/pid" <"$WORK/data" >"$out" 2>"$err")
check "ulimit -f: not exit 0" [ $? -ne 0 ]
check "ulimit -f: -P's file removed" [ ! -e "$WORK/pid" ]

# --- -l @DIR: the files' bytes, or a refusal; never a made-up size ------
mkdir -p "$WORK/tree/a/b" "$WORK/tree/c"
random "$WORK/tree/a/x" 12345
random "$WORK/tree/c/y" 7000
ln "$WORK/tree/a/x" "$WORK/tree/a/b/x2"	# a second name counts once
ln -s x "$WORK/tree/a/s"		# a link is not followed
# du -sb counts each file once, and the directories and links tach leaves
not_files=$(find "$WORK/tree" ! -type f -printf '%s\n' |
    awk '{ n += $1 } END { print n }')
want=$(($(du -sb "$WORK/tree" | cut -f1) - not_files))
"$TACH" --format json -l @"$WORK/tree" </dev/null 2>"$err" >/dev/null
check "-l @DIR: du -sb's without directories, $want" \
    grep -q "\"size\":$want," "$err"
check "-l @DIR: the two files' bytes, the second name not again" \
    [ "$want" -eq $((12345 + 7000)) ]
"$TACH" -l @"$WORK/nothing" </dev/null >"$out" 2>"$err"
check "-l @missing: exit 1" [ $? -eq 1 ]
check "-l @missing: says so" grep -q "@$WORK/nothing': No such file" "$err"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$WORK"
	chmod 000 "$WORK/tree/c"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$TACH" -l @"$WORK/tree" </dev/null >"$out" 2>"$err"
	check "-l @DIR with a part unreadable: exit 1" [ $? -eq 1 ]
	check "-l @DIR with a part unreadable: names it" \
	    grep -q "tree/c: Permission denied" "$err"
	chmod 755 "$WORK/tree/c"
	chmod 700 "$WORK"
fi

# --- memory: taken before the first byte moves, or not at all ----------
# (AddressSanitizer reserves terabytes of address space: not under it).
# Below about 10 MB the loader cannot map libc and libcrypto: tach never
# runs there.
random "$WORK/five" 5000000
exact_somewhere=no
limits="10000 11000 12000 20000"
[ "${TACH_SANITIZE:-OFF}" = ON ] && { limits=; exact_somewhere=yes; }
for v in $limits; do
	cat "$WORK/five" | (ulimit -v $v; exec "$TACH" -q 2>"$err") | cat >"$out"
	if cmp -s "$WORK/five" "$out"; then
		exact_somewhere=yes
		check "ulimit -v $v: exact, no message" empty "$err"
	else
		check "ulimit -v $v: nothing moved ($(wc -c <"$out") bytes)" empty "$out"
		check "ulimit -v $v: says why" grep -q "^tach: " "$err"
	fi
done
check "ulimit -v: some limit copies exactly" [ $exact_somewhere = yes ]

# --- -W: a reader downstream still at its password prompt --------------
if command -v strace >/dev/null; then
	random "$WORK/four" 4000000	# more than the pipe holds
	close_gate
	rm -f "$WORK/ticks"
	strace -qq -e trace=none -o "$WORK/ticks" "$TACH" --force -W \
	    -i 0.05 <"$WORK/four" 2>"$err" | { gated; cat >"$out"; } &
	pid=$!
	check "-W downstream: the timer ticks" wait_until 60 sh -c \
	    "[ \$(cat '$WORK/ticks' 2>/dev/null | grep -c SIGALRM) -ge 6 ]"
	check "-W downstream: nothing drawn while nothing is read" empty "$err"
	open_gate
	wait $pid
	check "-W downstream: exact" cmp -s "$WORK/four" "$out"
	check "-W downstream: drawn once read" grep -q "100%" "$err"
fi

# --- the line keeps its fields and their places -------------------------
# columns_of MARK FILE: each frame's column of MARK, a UTF-8 character
# one column
columns_of() {
	tr '\r' '\n' <"$2" | LC_ALL=C sed 's/[\x80-\xbf]//g' |
	    awk -v m="$1" 'index($0, m) { print index($0, m) }' | sort -u
}
# past -l the time left is not known, but ETA and the bar's end stay put
head -c 3000000 /dev/zero | "$TACH" --force -w 80 -i 0.02 -L 4m -l 500k \
    2>"$err" >/dev/null
tr '\r' '\n' <"$err" | grep -v '^$' | sed '$d' >"$WORK/live"
check "past -l: live frames were drawn" [ "$(wc -l <"$WORK/live")" -ge 5 ]
check "past -l: ']' in one column ($(columns_of ']' "$WORK/live" | tr '\n' ' '))" \
    [ "$(columns_of ']' "$WORK/live" | wc -l)" -eq 1 ]
check "past -l: every live frame has its ETA" \
    [ "$(grep -c ' ETA ' "$WORK/live")" -eq "$(wc -l <"$WORK/live")" ]

# a --force log's end: one 100% line, its bar as wide as the live ones',
# and no trailing blanks (an unknown size's last line was padded)
for i in 1 2 3; do
	head -c 3000000 /dev/zero | "$TACH" --force -w 80 -i 0.02 -L 6m \
	    -l 3000000 2>"$err" >/dev/null
	check "log $i: one 100% line" [ "$(grep -c '100%' "$err")" -eq 1 ]
	check "log $i: the bar's end in one column" \
	    [ "$(columns_of ']' "$err" | wc -l)" -eq 1 ]
done
# the size reached, then many ticks before the input ends: still one
# 100% line (under load the end can come several ticks late)
if command -v strace >/dev/null; then
	close_gate
	rm -f "$WORK/ticks"
	{ head -c 3000000 /dev/zero; gated; } | strace -qq -e trace=none \
	    -o "$WORK/ticks" "$TACH" --force -w 80 -i 0.02 -l 3000000 \
	    2>"$err" >/dev/null &
	pid=$!
	check "log, the end late: the timer ticks at 100%" wait_until 60 sh -c \
	    "[ \$(cat '$WORK/ticks' 2>/dev/null | grep -c SIGALRM) -ge 10 ]"
	open_gate
	wait $pid
	check "log, the end late: one 100% line ($(grep -c '100%' "$err"))" \
	    [ "$(grep -c '100%' "$err")" -eq 1 ]
fi
head -c 3000000 /dev/zero | "$TACH" --force -w 80 -i 0.02 -L 6m \
    2>"$err" >/dev/null
lacks "log, size unknown: no trailing blanks" "$err" ' $'
check "log, size unknown: the last line is the total" \
    grep -q '^2.86 MiB avg .*/s 0:00:0[0-9]$' "$err"

# a long -f path is shortened in its middle; no field is dropped
mkdir -p "$WORK/a/rather/long/directory/path/that/goes/on"
long=$WORK/a/rather/long/directory/path/that/goes/on/the-image.iso
cp "$WORK/data" "$long"
"$TACH" --force -w 80 -i 0.02 -L 1m -N copy -f "$long" -f "$WORK/data" \
    2>"$err" >/dev/null
tr '\r' '\n' <"$err" | grep -v '^$' | grep -v '100%' >"$WORK/live"
check "long name: every live frame has the bar, rate, avg and ETA" \
    [ "$(grep -Ec '\] .*/s avg .* ETA ' "$WORK/live")" -eq "$(wc -l <"$WORK/live")" ]
check "long name: its start kept" grep -q '^co' "$WORK/live"
check "long name: cut in the middle" grep -q '…' "$WORK/live"

# --- two named copies tell their reports apart (-N) ---------------------
"$TACH" -q -N "bk up" --stats <"$WORK/data" 2>"$err" >/dev/null
check "--stats -N: every line named" \
    [ "$(grep -c '^tach: bk up: ' "$err")" -eq "$(wc -l <"$err")" ]
check "--stats -N: three lines" [ "$(wc -l <"$err")" -eq 3 ]
rm -f "$WORK/hold"
mkfifo "$WORK/hold"
"$TACH" -q -N "bk up" <"$WORK/hold" 2>"$err" >/dev/null &
exec 5>"$WORK/hold"
wait_until 60 caught $! USR1
kill -USR1 $!
check "SIGUSR1 -N: the report named" \
    wait_until 60 grep -q '^tach: bk up: 0 bytes (0 B) in ' "$err"
exec 5>&-
wait

# --- a terminfo entry that demands padding never delays the copy -------
if command -v tic >/dev/null && command -v script >/dev/null &&
    command -v strace >/dev/null; then
	mkdir "$WORK/ti"
	cat >"$WORK/ti/slow.src" <<'TI'
slowterm|capabilities that demand a second of padding each,
	am, npc, cols#80, lines#24,
	cr=\r$<1000/>, el=\E[K$<1000/>, ed=\E[J$<1000/>, cuu1=\E[A$<1000/>,
	sc=\E7$<1000/>, rc=\E8$<1000/>, cup=\E[%i%p1%d;%p2%dH$<1000/>,
	csr=\E[%i%p1%d;%p2%dr$<1000/>, ind=\n,
TI
	tic -o "$WORK/ti" "$WORK/ti/slow.src"
	for opt in -c -w70; do
		TERMINFO=$WORK/ti TERM=slowterm script -qec "strace -f -qq \
		    -o '$WORK/trace' -e trace=nanosleep,clock_nanosleep,select,pselect6 \
		    '$TACH' $opt <'$WORK/data' >'$out'" "$WORK/typescript" \
		    >/dev/null
		check "padded terminfo $opt: exact" cmp -s "$WORK/data" "$out"
		check "padded terminfo $opt: a bar was drawn" \
		    grep -q '100%' "$WORK/typescript"
		lacks "padded terminfo $opt: no padding written" "$WORK/typescript" '\$<'
		lacks "padded terminfo $opt: never slept" "$WORK/trace" 'sleep|select'
	done
fi

done_testing
