# SPDX-License-Identifier: BSD-2-Clause
# covers: holes.  Without -O an input file's holes are kept where the output
# is a regular file (as cp's --sparse=auto); -O, --sparse (pv 1.9): blocks
# of zeros in data become holes too.  The output ends at its full size; an
# input file's holes are skipped unread (SEEK_DATA).  The output is exact on
# every path, a hole is never made where the file held other bytes, and what
# cannot take holes is refused before a byte moves.
. "$(dirname "$0")/lib.sh"

# blocks FILE: the 512-byte blocks FILE takes on disk
blocks() { stat -c %b "$1"; }
size() { stat -c %s "$1"; }

# A file of 64 MiB: data at 0, 20 MiB and its last 4 bytes, holes between
in=$WORK/in
truncate -s 64M "$in"
random "$WORK/a" 100000
random "$WORK/b" 300000
dd if="$WORK/a" of="$in" conv=notrunc 2>/dev/null
dd if="$WORK/b" of="$in" bs=1M seek=20 conv=notrunc 2>/dev/null
printf tail >>"$in"
[ "$(blocks "$in")" -lt 4096 ] || skip "this file system keeps no holes"

out=$WORK/out
"$TACH" -q -O -f "$in" -o "$out"
check "a sparse file: exact ($?)" cmp -s "$in" "$out"
check "…its holes kept ($(blocks "$out") blocks)" [ "$(blocks "$out")" -lt 4096 ]
# without -O: the input's holes kept on every way of naming the files,
# through every tier but -b's buffer; zeros that are data stay data
for how in "-f in -o out" "<in >out" "--no-splice -f in -o out" \
    "-f in -f in -o out" "-U store -f in -o out"; do
	rm -f "$out" "$WORK/store"
	(cd "$WORK" && eval "'$TACH' -q $how")
	case $how in
	*"-f in -f in"*) cat "$in" "$in" >"$WORK/want" ;;
	*) cp "$in" "$WORK/want" ;;
	esac
	check "without -O ($how): exact ($?)" cmp -s "$WORK/want" "$out"
	check "…the input's holes kept ($(blocks "$out") blocks)" \
	    [ "$(blocks "$out")" -lt 8192 ]
done
check "…and -U's store, exact, its holes kept" sh -c \
    "cmp -s '$in' '$WORK/store' && [ \$(stat -c %b '$WORK/store') -lt 4096 ]"
head -c 8M /dev/zero >"$WORK/zeros"
"$TACH" -q -f "$WORK/zeros" -o "$out"
check "without -O zeros that are data stay data" [ "$(blocks "$out")" -ge 16384 ]
"$TACH" -q -O -f "$WORK/zeros" -o "$out"
check "…with -O they become holes" [ "$(blocks "$out")" -lt 1024 ]
cat "$in" | "$TACH" -q >"$out"
check "without -O, from a pipe: exact, written whole" sh -c \
    "cmp -s '$in' '$out' && [ \$(stat -c %b '$out') -ge 131072 ]"
"$TACH" -q -f "$in" >>"$out.app" 2>"$WORK/err"
check "without -O, to append (>>): exact, no message" sh -c \
    "cmp -s '$in' '$out.app' && [ ! -s '$WORK/err' ]"

# The input's holes are not read: a 1 GiB hole takes a handful of reads
truncate -s 1G "$WORK/hole"
strace -e trace=/^open,read -o "$WORK/trace" "$TACH" -q -O \
    -f "$WORK/hole" -o "$out"
fd=$(sed -n 's/^open.*hole", O_RDONLY.* = \([0-9]*\)$/\1/p' "$WORK/trace")
reads=$(grep -c "^read(${fd:-none}," "$WORK/trace")
check "a 1 GiB hole: exact, a hole" \
    [ "$(size "$out")" -eq 1073741824 ] && [ "$(blocks "$out")" -eq 0 ]
check "…skipped, not read ($reads reads)" [ "$reads" -lt 10 ]

# From a pipe: read, and its zeros become holes; a hole at the end is
# still the file's length
{ cat "$WORK/a"; head -c 8388608 /dev/zero; cat "$WORK/b"
  head -c 5000000 /dev/zero; } >"$WORK/flat"
cat "$WORK/flat" | "$TACH" -O --format json >"$out" 2>"$WORK/json"
check "from a pipe, ending in zeros: exact ($?)" cmp -s "$WORK/flat" "$out"
check "…holes made" [ "$(blocks "$out")" -lt 4000 ]
# 100000 bytes of data end inside the 25th 4 KiB block; the holes are
# the whole blocks of zeros after it, to 8 MiB + 100000 and from the
# last block of b to the end
expected=$(( (8388608 + 100000) / 4096 * 4096 - 102400 ))
expected=$(( expected + 8388608 + 100000 + 300000 + 5000000 - \
    (8388608 + 100000 + 300000 + 4095) / 4096 * 4096 ))
check "…counted as holes, byte for byte" \
    grep -q "\"holes\":$expected,.*\"final\":true" "$WORK/json"
cat "$WORK/flat" | "$TACH" -O -b 8M -q >"$out"
check "with a buffer: exact ($?)" cmp -s "$WORK/flat" "$out"
check "…holes made" [ "$(blocks "$out")" -lt 4000 ]
"$TACH" -q -O -f "$in" -f "$WORK/flat" -f "$in" >"$out"
cat "$in" "$WORK/flat" "$in" >"$WORK/cat"
check "several -f: exact ($?)" cmp -s "$WORK/cat" "$out"
check "…holes made" [ "$(blocks "$out")" -lt 10000 ]

# A file written over in place (1<>, as dd conv=notrunc): its zeros are
# written where it held data; holes only past its end
head -c 30000000 /dev/urandom >"$out"
cp "$out" "$WORK/old"
"$TACH" -q -O -f "$WORK/flat" 1<>"$out"
check "over a longer file: the input's bytes, exact ($?)" \
    cmp -s -n "$(size "$WORK/flat")" "$WORK/flat" "$out"
check "…and what lies after them kept" \
    cmp -s -i "$(size "$WORK/flat")" "$WORK/old" "$out"
head -c 9000000 /dev/urandom >"$out"
"$TACH" -q -O -f "$WORK/flat" 1<>"$out"
check "over a shorter file: exact ($?)" cmp -s "$WORK/flat" "$out"
check "…holes past its old end" [ "$(blocks "$out")" -lt 20000 ]

# -S in a hole: the file ends at the size
"$TACH" -q -O -S -l 30000000 -f "$in" -o "$out"
check "-S in a hole: the length ($?)" [ "$(size "$out")" -eq 30000000 ]
check "…exact" cmp -s -n 30000000 "$in" "$out"
# -0 counts the zeros of a hole as records: they are read
truncate -s 1M "$WORK/nul"
printf 'a\0b\0' >>"$WORK/nul"
"$TACH" -O -0 --format json -f "$WORK/nul" >"$out" 2>"$WORK/json"
check "-0: exact ($?)" cmp -s "$WORK/nul" "$out"
check "…every NUL a record" grep -q '"lines":1048578,.*"final":true' \
    "$WORK/json"
"$TACH" -O --line-mode --format json -f "$in" >"$out" 2>"$WORK/json"
check "--line-mode: exact ($?)" cmp -s "$in" "$out"
lines=$(tr -cd '\n' <"$in" | wc -c)
check "…its lines counted ($lines)" \
    grep -q "\"lines\":$lines,.*\"final\":true" "$WORK/json"

# Seen: the holes on the line and in --stats
"$TACH" -O --force --stats -f "$in" -o "$out" 2>"$WORK/err"
check "the bar shows the holes" grep -q 'holes  *6[34].[0-9] MiB' "$WORK/err"
check "--stats: written and holes" grep -q \
    '^tach: sparse: [0-9.]* KiB written, 6[34].[0-9] MiB left as holes (99%)$' \
    "$WORK/err"

# What cannot take a hole: refused before a byte moves
printf keep >"$out"
"$TACH" -q -O -f "$in" >>"$out" 2>"$WORK/err"
check "-O to a file opened to append: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: -O: stdout is open to append (>>): holes need an offset to move" \
    "$WORK/err"
check "…the file kept" [ "$(cat "$out")" = keep ]
"$TACH" -q -O -f "$in" 2>"$WORK/err" | cat >/dev/null
check "-O to a pipe: refused" \
    grep -qx "tach: -O: stdout is not a file: no holes can be made in it" \
    "$WORK/err"
"$TACH" -q -O -f "$in" -o /dev/null 2>"$WORK/err"
check "-O to a device: refused ($?)" [ $? -eq 1 ]
check "…naming it" grep -q "^tach: -O: /dev/null is not a file" "$WORK/err"
"$TACH" -q -O -f "$in" cat >/dev/null 2>"$WORK/err"
check "-O with a command: refused ($?)" [ $? -eq 1 ]
"$TACH" -q -O -X -f "$in" 2>"$WORK/err"
check "-O with -X: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -O makes holes in a file: -X writes nothing" \
    "$WORK/err"
ln -s "$(command -v "$TACH")" "$WORK/progress" 2>/dev/null ||
    cp "$TACH" "$WORK/progress"
"$WORK/progress" -O -f "$in" cat >/dev/null 2>"$WORK/err"
check "as progress: -O is not an option ($?)" [ $? -eq 1 ]

# The file's end that fails is a failed copy, saying so
strace -f -e inject=/^ftruncate:error=EFBIG -o /dev/null \
    "$TACH" -q -O -f "$WORK/hole" -o "$out" 2>"$WORK/err"
check "the file's length not set: exit 1 ($?)" [ $? -eq 1 ]
check "…saying why" grep -q "File too large" "$WORK/err"
strace -f -e 'inject=/^(_llseek|lseek)$:error=EIO:when=6+' -o /dev/null \
    "$TACH" -q -O -f "$WORK/flat" -o "$out" 2>"$WORK/err"
check "a hole not made: exit 1 ($?)" [ $? -eq 1 ]
check "…saying why" grep -q "Input/output error" "$WORK/err"

done_testing
