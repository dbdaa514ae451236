# SPDX-License-Identifier: BSD-2-Clause
# covers: several -f: copied in order as cat copies them, every byte exact,
# the size their sum, the line naming the file being read; a file that
# cannot be read is reported and the rest still copied, with exit 1.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/a" 1000003
random "$WORK/b" 4096
: >"$WORK/empty"
random "$WORK/c" 3000001
cat "$WORK/a" "$WORK/b" "$WORK/empty" "$WORK/c" >"$WORK/want"
files="-f $WORK/a -f $WORK/b -f $WORK/empty -f $WORK/c"

# exact bytes through every tier and to every kind of output
for opts in "" --no-splice -b4097; do
	# shellcheck disable=SC2086
	"$TACH" -q $opts $files >"$out" 2>"$err"
	status=$?
	check "several -f $opts to a file: exit 0 (got $status)" [ $status -eq 0 ]
	check "several -f $opts to a file: exact" cmp -s "$WORK/want" "$out"
	check "several -f $opts to a file: no message" empty "$err"
	# shellcheck disable=SC2086
	"$TACH" -q $opts $files | cat >"$out"
	check "several -f $opts to a pipe: exact" cmp -s "$WORK/want" "$out"
	# shellcheck disable=SC2086
	"$TACH" -q $opts $files cat >"$out"
	check "several -f $opts into cmd: exact" cmp -s "$WORK/want" "$out"
done

# zero-copy stays on for each file: copy_file_range moves all of it
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	# shellcheck disable=SC2086
	strace -qq -o "$WORK/trace" -e trace=copy_file_range,read \
	    "$TACH" -q $files >"$out"
	moved=$(awk -F'= ' '/^copy_file_range/ { n += $NF } END { print n + 0 }' \
	    "$WORK/trace")
	check "several -f: copy_file_range moved all ($moved bytes)" \
	    [ "$moved" -eq "$(wc -c <"$WORK/want")" ]
	check "several -f: exact by copy_file_range" cmp -s "$WORK/want" "$out"
	# shellcheck disable=SC2086
	strace -qq -f -o "$WORK/trace" -e trace=splice "$TACH" -q $files | \
	    cat >"$out"
	moved=$(awk -F'= ' '/splice\(/ { n += $NF } END { print n + 0 }' \
	    "$WORK/trace")
	check "several -f to a pipe: splice moved all ($moved bytes)" \
	    [ "$moved" -eq "$(wc -c <"$WORK/want")" ]
fi

# cat's rule: missing files and a directory are reported, the rest copied
"$TACH" -q -f "$WORK/missing" -f "$WORK/a" -f "$WORK" -f "$WORK/b" \
    -f "$WORK/missing2" >"$out" 2>"$err"
status=$?
cat "$WORK/a" "$WORK/b" >"$WORK/want2"
check "unreadable among several: exit 1 (got $status)" [ $status -eq 1 ]
check "unreadable among several: the rest exact" cmp -s "$WORK/want2" "$out"
check "unreadable among several: the missing one named" \
    grep -qF "$WORK/missing: No such file or directory" "$err"
check "unreadable among several: the last missing one named" \
    grep -qF "$WORK/missing2: No such file or directory" "$err"
check "unreadable among several: the directory named" \
    grep -qF "reading $WORK: Is a directory" "$err"
check "unreadable among several: three messages" \
    [ "$(wc -l <"$err")" -eq 3 ]
# cat says the same and also exits 1
cat "$WORK/missing" "$WORK/a" "$WORK" "$WORK/b" >/dev/null 2>&1
check "cat agrees: exit 1" [ $? -eq 1 ]
"$TACH" -q -f "$WORK/missing" -f "$WORK/missing2" cat >"$out" 2>"$err"
status=$?
check "none readable: exit 1 (got $status)" [ $status -eq 1 ]
check "none readable: nothing out" empty "$out"
# the output among the inputs: refused, the others copied
cp "$WORK/b" "$WORK/self"
"$TACH" -q -f "$WORK/a" -f "$WORK/self" >>"$WORK/self" 2>"$err"
status=$?
check "output among the inputs: exit 1 (got $status)" [ $status -eq 1 ]
check "output among the inputs: says so" \
    grep -qF "$WORK/self: input file is output file" "$err"
cat "$WORK/b" "$WORK/a" >"$WORK/want3"
check "output among the inputs: the others copied" \
    cmp -s "$WORK/want3" "$WORK/self"

# the size is the sum: JSON's size, and -n ends at 100 after rising
total=$(wc -c <"$WORK/want")
# shellcheck disable=SC2086
"$TACH" --format json $files >/dev/null 2>"$err"
check "several -f: the size is the sum" \
    grep -q "\"size\":$total,\"percent\":100.00,.*\"final\":true" "$err"
# shellcheck disable=SC2086
"$TACH" -n $files >/dev/null 2>"$err"
check "several -f -n: ends at 100" [ "$(tail -n 1 "$err")" = 100 ]
check "several -f -n: never falls" \
    awk 'NR > 1 && $1 < last { exit 1 } { last = $1 }' "$err"
# a FIFO among them: its length is unknown, so the total is
mkfifo "$WORK/fifo"
cat "$WORK/b" >"$WORK/fifo" &
"$TACH" --format json -f "$WORK/a" -f "$WORK/fifo" >"$out" 2>"$err"
wait
check "a FIFO among several: size unknown" \
    grep -q '"size":null.*"final":true' "$err"
cat "$WORK/a" "$WORK/b" >"$WORK/want2"
check "a FIFO among several: exact" cmp -s "$WORK/want2" "$out"

# Measuring the inputs never opens a FIFO: that would let its writer go
# on, and closing it again would break the writer's pipe.  f2's writer
# must wait, blocked in open(2), until tach has read all of f1.
mkfifo "$WORK/f1" "$WORK/f2"
( exec 3>"$WORK/f2"; cat "$WORK/b" >&3 ) &
writer=$!
"$TACH" -q -f "$WORK/f1" -f "$WORK/f2" >"$out" 2>"$err" &
tach=$!
exec 4>"$WORK/f1"	# tach is past measuring: it has opened f1
# f2's writer is blocked in openat (x86-64 257, arm64 56) or, wrongly, gone
waiting_or_gone() {
	kill -0 $writer 2>/dev/null || return 0
	case $(cut -d' ' -f1 "/proc/$writer/syscall" 2>/dev/null) in
	257|56|2) return 0 ;;
	esac
	return 1
}
wait_until 60 waiting_or_gone
cat "$WORK/a" >&4
exec 4>&-
wait $writer
wstatus=$?
# a broken writer left tach waiting for another: give it an empty one
[ $wstatus -eq 0 ] || { exec 5>"$WORK/f2"; exec 5>&-; }
wait $tach
status=$?
check "a FIFO's writer is not broken by the measuring (got $wstatus)" \
    [ $wstatus -eq 0 ]
check "two FIFOs: exit 0 (got $status)" [ $status -eq 0 ]
cat "$WORK/a" "$WORK/b" >"$WORK/want2"
check "two FIFOs: exact" cmp -s "$WORK/want2" "$out"

# a later FIFO waits for its writer while the display's timer ticks: the
# ticks interrupt open(2), which is tried again, not reported
if command -v strace >/dev/null; then
	mkfifo "$WORK/f3"
	strace -qq -o "$WORK/trace" -e trace=openat "$TACH" --force -i 0.01 \
	    -f "$WORK/a" -f "$WORK/f3" >"$out" 2>"$err" &
	tach=$!
	check "a later FIFO: its open is interrupted by a tick" \
	    wait_until 60 grep -q "f3.*ERESTART" "$WORK/trace"
	cat "$WORK/b" >"$WORK/f3"
	wait $tach
	status=$?
	check "a later FIFO with ticks: exit 0 (got $status)" [ $status -eq 0 ]
	cat "$WORK/a" "$WORK/b" >"$WORK/want2"
	check "a later FIFO with ticks: exact" cmp -s "$WORK/want2" "$out"
	lacks "a later FIFO with ticks: no message" "$err" "Interrupted"
fi
# ^C while tach waits for a FIFO's writer, first or later: death by SIGINT.
# The shell catches SIGINT too, so the forked job counts only once it
# runs tach.
mkfifo "$WORK/f4"
tach_caught() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = tach ] && caught "$@"; }
for first in "" "-f $WORK/a"; do
	# a shell starts background jobs with SIGINT ignored
	# shellcheck disable=SC2086
	env --default-signal=INT "$TACH" -q $first -f "$WORK/f4" >"$out" \
	    2>"$err" &
	tach=$!
	check "^C waiting for a FIFO ($first): handlers" \
	    wait_until 60 tach_caught $tach INT
	[ -n "$first" ] && wait_until 60 size_at_least "$out" 1000003
	kill -INT $tach
	wait $tach
	status=$?
	check "^C waiting for a FIFO ($first): status 130 (got $status)" \
	    [ $status -eq 130 ]
	lacks "^C waiting for a FIFO ($first): no message" "$err" "."
done

# the line names the file being read: the first at the start (a FIFO held
# open until a frame is drawn), the last at the end
rm -f "$WORK/fa"
mkfifo "$WORK/fa"
total=$(cat "$WORK/a" "$WORK/c" | wc -c)
"$TACH" --force -w 100 -i 0.05 -l "$total" -f "$WORK/fa" -f "$WORK/c" \
    >/dev/null 2>"$err" &
exec 7>"$WORK/fa"
cat "$WORK/a" >&7
wait_until 60 grep -qF "$WORK/fa" "$err"
exec 7>&-
wait
tr '\r' '\n' <"$err" | grep -F '%' >"$WORK/frames"
check "the first frame names the first file" \
    sh -c 'head -n 1 "$1" | grep -qF "$2/fa "' sh "$WORK/frames" "$WORK"
check "the last frame names the last file" \
    sh -c 'tail -n 1 "$1" | grep -qF "$2/c 100%"' sh "$WORK/frames" "$WORK"
"$TACH" --force -w 100 -N job -p 'p:' -f "$WORK/a" -f "$WORK/c" \
    >/dev/null 2>"$err"
check "-N, the file and -p, in that order" grep -qF "job: $WORK/c p:" "$err"
"$TACH" --force -w 100 -f "$WORK/a" >/dev/null 2>"$err"
lacks "one -f: the line names no file" "$err" "$WORK/a"

# -S across files: the length may end inside a later file
head -c 1004000 "$WORK/want" >"$WORK/want2"
# shellcheck disable=SC2086
"$TACH" -q -S -l 1004000 $files >"$out"
check "-S across several -f: exact" cmp -s "$WORK/want2" "$out"

# errors in a later file (injected): -E names that file and its offsets;
# without -E the error is reported and the files after it still copied
if command -v strace >/dev/null; then
	random "$WORK/e1" 200000
	random "$WORK/e2" 300000
	strace -qq -o "$WORK/trace" -e trace=read "$TACH" -q --no-splice \
	    -b 64k -f "$WORK/e1" -f "$WORK/e2" >/dev/null 2>&1
	# e1's end of file is the first empty 64 KiB read; e2's second read
	# comes two reads after it
	second=$(awk '/, 65536\) += 0$/ { print NR + 2; exit }' "$WORK/trace")
	# a read that fails once is read again, piece by piece: nothing lost
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$second \
	    "$TACH" -q -E --no-splice -b 64k -f "$WORK/e1" -f "$WORK/e2" \
	    >"$out" 2>"$err"
	status=$?
	check "-E, a read failing once in the second file: exit 0 (got $status)" \
	    [ $status -eq 0 ]
	check "-E, a read failing once in the second file: exact" sh -c \
	    "cat '$WORK/e1' '$WORK/e2' | cmp -s - '$out'"
	# a block that stays bad (the failing-disk shim): named by its file
	if [ -n "${BADBLOCKS:-}" ]; then
		LD_PRELOAD=$BADBLOCKS TACH_BAD_FILE=$WORK/e2 \
		    TACH_BAD_RANGES=65536-69632 "$TACH" -q -E -b 64k \
		    -f "$WORK/e1" -f "$WORK/e2" >"$out" 2>"$err"
		status=$?
		{ cat "$WORK/e1"; head -c 65536 "$WORK/e2"; head -c 4096 /dev/zero
		  tail -c +$((65536 + 4096 + 1)) "$WORK/e2"; } >"$WORK/want2"
		check "-E in the second file: exit 1 (got $status)" [ $status -eq 1 ]
		check "-E in the second file: zeros in place, the rest exact" \
		    cmp -s "$WORK/want2" "$out"
		check "-E in the second file: names it and its offsets" \
		    grep -qF "$WORK/e2: unreadable, sent as zeros: bytes 65536-69631 (4096)" \
		    "$err"
	fi
	strace -qq -o /dev/null -e inject=read:error=EIO:when=$second \
	    "$TACH" -q --no-splice -b 64k -f "$WORK/e1" -f "$WORK/e2" \
	    -f "$WORK/b" >"$out" 2>"$err"
	status=$?
	{ cat "$WORK/e1"; head -c 65536 "$WORK/e2"; cat "$WORK/b"; } \
	    >"$WORK/want2"
	check "a read error in the second file: exit 1 (got $status)" \
	    [ $status -eq 1 ]
	check "a read error in the second file: says so" \
	    grep -qF "reading $WORK/e2: Input/output error" "$err"
	check "a read error in the second file: the next still copied" \
	    cmp -s "$WORK/want2" "$out"
fi

# -z: each file decompressed in turn, progress in compressed bytes
gzip -c "$WORK/a" >"$WORK/a.gz"
xz -c "$WORK/c" >"$WORK/c.xz" 2>/dev/null || gzip -c "$WORK/c" >"$WORK/c.xz"
"$TACH" -z --format json -f "$WORK/a.gz" -f "$WORK/c.xz" >"$out" 2>"$err"
cat "$WORK/a" "$WORK/c" >"$WORK/want2"
check "-z several -f: exact" cmp -s "$WORK/want2" "$out"
zsize=$(($(wc -c <"$WORK/a.gz") + $(wc -c <"$WORK/c.xz")))
check "-z several -f: the size is the compressed sum" \
    grep -q "\"size\":$zsize,\"percent\":100.00.*\"final\":true" "$err"

# progress(1) reads only the last -f
ln -s "$TACH" "$WORK/progress"
"$WORK/progress" -f "$WORK/a" -f "$WORK/b" cat >"$out"
check "progress: the last -f wins" cmp -s "$WORK/b" "$out"

done_testing
