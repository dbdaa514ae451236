# SPDX-License-Identifier: BSD-2-Clause
# covers: --line-mode and --null: the bytes move exact and zero-copy, the
# counts, rates, -l, -S, -n, JSON and --stats are in records.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
seq 1 300000 >"$WORK/lines"
printf 'no newline at the end' >>"$WORK/lines"
random "$WORK/binary" 2000003
nlines=$(wc -l <"$WORK/lines")

# the final JSON object's field NAME
final() {
	sed -n 's/.*"final":true.*/&/p' "$err" | tail -n 1 |
	    sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p"
}

for data in lines binary; do
	want=$(wc -l <"$WORK/$data")
	for opts in "" --no-splice -b4097 -b61; do
		# shellcheck disable=SC2086
		cat "$WORK/$data" | "$TACH" --line-mode --format json $opts \
		    2>"$err" | cat >"$out"
		check "$data $opts pipe to pipe: exact" cmp -s "$WORK/$data" "$out"
		check "$data $opts pipe to pipe: $want lines (got $(final lines))" \
		    [ "$(final lines)" = "$want" ]
		# shellcheck disable=SC2086
		"$TACH" --line-mode --format json $opts <"$WORK/$data" \
		    >"$out" 2>"$err"
		check "$data $opts file to file: exact" cmp -s "$WORK/$data" "$out"
		check "$data $opts file to file: $want lines" \
		    [ "$(final lines)" = "$want" ]
		check "$data $opts file to file: bytes too" \
		    [ "$(final bytes)" = "$(wc -c <"$WORK/$data")" ]
		# shellcheck disable=SC2086
		"$TACH" --line-mode --format json $opts -f "$WORK/$data" \
		    2>"$err" | cat >"$out"
		check "$data $opts file to pipe: $want lines" \
		    [ "$(final lines)" = "$want" ]
		check "$data $opts file to pipe: exact" cmp -s "$WORK/$data" "$out"
		# shellcheck disable=SC2086
		cat "$WORK/$data" | "$TACH" --line-mode --format json $opts \
		    >"$out" 2>"$err"
		check "$data $opts pipe to file: $want lines" \
		    [ "$(final lines)" = "$want" ]
		check "$data $opts pipe to file: exact" cmp -s "$WORK/$data" "$out"
	done
done

# a one-byte buffer: every record still counted once
head -c 20000 "$WORK/lines" >"$WORK/short"
for opts in "" --no-splice; do
	# shellcheck disable=SC2086
	cat "$WORK/short" | "$TACH" --line-mode --format json -b1 $opts \
	    2>"$err" | cat >"$out"
	check "-b1 $opts: exact" cmp -s "$WORK/short" "$out"
	check "-b1 $opts: the lines" [ "$(final lines)" = "$(wc -l <"$WORK/short")" ]
done

# the data stays zero-copy: taken into a pipe of tach's own, counted from
# a tee(2) of it, and spliced on from it to stdout
# to_stdout TRACE: the bytes splice moved to fd 1
to_stdout() {
	awk -F'= ' '/^splice\([0-9]+, NULL, 1,/ { n += $NF } END { print n + 0 }' \
	    "$1"
}
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	cat "$WORK/lines" | strace -qq -o "$WORK/trace" \
	    -e trace=tee,splice,write "$TACH" -q --line-mode | cat >"$out"
	check "pipe input: counted from tee(2)" grep -q '^tee(' "$WORK/trace"
	moved=$(to_stdout "$WORK/trace")
	check "pipe input: splice moved all ($moved bytes)" \
	    [ "$moved" -eq "$(wc -c <"$WORK/lines")" ]
	lacks "pipe input: no write(2) of the data" "$WORK/trace" '^write\(1,'
	check "pipe input under strace: exact" cmp -s "$WORK/lines" "$out"
	strace -qq -o "$WORK/trace" -e trace=splice,write \
	    "$TACH" -q --line-mode <"$WORK/lines" >"$out"
	moved=$(to_stdout "$WORK/trace")
	check "file input: splice moved all ($moved bytes)" \
	    [ "$moved" -eq "$(wc -c <"$WORK/lines")" ]
	lacks "file input: no write(2) of the data" "$WORK/trace" '^write\(1,'

	# a second reader on the input pipe: what is counted is what moved,
	# and -S ends on a line boundary (it took some lines, never half)
	seq 1 2000000 >"$WORK/many"
	for i in 1 2 3 4 5; do
		# a background job's stdin is /dev/null unless redirected
		cat "$WORK/many" | {
			"$TACH" --line-mode -S -l 300000 -L 2000000 \
			    --format json <&3 >"$out" 2>"$err" &
			# small bites all the while tach runs
			while dd bs=1k count=1 of=/dev/null status=none <&3 &&
			    kill -0 $! 2>/dev/null; do :; done &
			wait
		} 3<&0
		check "second reader $i: the count is wc -l's" \
		    [ "$(final lines)" = "$(wc -l <"$out")" ]
		check "second reader $i: 300000 lines" [ "$(final lines)" = 300000 ]
		check "second reader $i: ends on a line" \
		    [ "$(tail -c 1 "$out" | od -An -c | tr -d ' ')" = '\n' ]
	done
	# the same through the output that will not take a splice (O_APPEND):
	# the bytes the hold had are written by the read/write loop
	: >"$out"
	cat "$WORK/lines" | "$TACH" -q --line-mode --format json \
	    >>"$out" 2>"$err"
	check "O_APPEND output: exact" cmp -s "$WORK/lines" "$out"
	check "O_APPEND output: the lines" [ "$(final lines)" = "$nlines" ]
	# with --stats the splices do not block: EAGAIN waits, counts stay
	cat "$WORK/lines" | "$TACH" --line-mode --stats -q 2>"$err" |
	    cat >"$out"
	check "--stats: exact" cmp -s "$WORK/lines" "$out"
	check "--stats: says the lines" grep -qF "tach: $nlines lines in" "$err"
fi

# --null: NUL-terminated records, as find -print0 writes them
printf 'a b\0c\nd\0\0last' >"$WORK/nul"
"$TACH" -0 --format json <"$WORK/nul" 2>"$err" | cat >"$out"
check "--null: 3 records" [ "$(final lines)" = 3 ]
check "--null: exact" cmp -s "$WORK/nul" "$out"
"$TACH" --null --format json <"$WORK/lines" >"$out" 2>"$err"
check "--null on text: 0 records" [ "$(final lines)" = 0 ]

# -S -l N in line mode: exactly the first N lines, the rest left unread
for opts in "" --no-splice -b7; do
	# shellcheck disable=SC2086
	seq 1 100000 | "$TACH" -q --line-mode -S -l 1000 $opts 2>"$err" |
	    cat >"$out"
	seq 1 1000 >"$WORK/want"
	check "-S -l 1000 lines $opts, from a pipe: exact" \
	    cmp -s "$WORK/want" "$out"
	check "-S -l 1000 lines $opts: no message" empty "$err"
	# shellcheck disable=SC2086
	{ "$TACH" -q --line-mode -S -l 10 $opts >"$out"; cat >"$WORK/rest"; } \
	    <"$WORK/lines"
	seq 1 10 >"$WORK/want"
	check "-S -l 10 lines $opts, from a file: exact" \
	    cmp -s "$WORK/want" "$out"
	tail -n +11 "$WORK/lines" >"$WORK/want"
	check "-S -l 10 lines $opts, from a file: the rest left" \
	    cmp -s "$WORK/want" "$WORK/rest"
done
# across several files: the count, not the bytes, says when to stop
seq 1 10 >"$WORK/ten"
"$TACH" -q --line-mode -S -l 15 -f "$WORK/ten" -f "$WORK/ten" -f "$WORK/ten" \
    >"$out"
{ seq 1 10; seq 1 5; } >"$WORK/want"
check "-S -l 15 lines over three files of 10: exact" cmp -s "$WORK/want" "$out"
seq 1 10 | gzip -c >"$WORK/ten.gz"
"$TACH" -q -z --line-mode -S -l 10 -f "$WORK/ten.gz" -f "$WORK/ten.gz" >"$out"
status=$?
check "-z -S -l 10 lines over two files: exit 0 (got $status)" [ $status -eq 0 ]
check "-z -S -l 10 lines over two files: the first whole" \
    cmp -s "$WORK/ten" "$out"
printf 'a\0b\0c\0d\0' | "$TACH" -q -0 -S -l 2 >"$out"
check "-0 -S -l 2: two records" [ "$(printf 'a\0b\0' | cmp - "$out"; echo $?)" = 0 ]

# -l counts lines: the percentage, -n and the ETA run in lines
seq 1 1000 | "$TACH" --line-mode -l 1000 -n >/dev/null 2>"$err"
check "--line-mode -l -n: ends at 100" [ "$(tail -n 1 "$err")" = 100 ]
seq 1 1000 | "$TACH" --line-mode -l 2000 -n >/dev/null 2>"$err"
check "--line-mode -l 2000 -n, 1000 lines: ends at 50" \
    [ "$(tail -n 1 "$err")" = 50 ]
seq 1 1000 | "$TACH" --line-mode -n >/dev/null 2>"$err"
check "--line-mode -n, size unknown: the line count" \
    [ "$(tail -n 1 "$err")" = 1000 ]
# a file's length is in bytes, so it does not become the size in lines
"$TACH" --line-mode --format json <"$WORK/lines" >/dev/null 2>"$err"
check "--line-mode on a file without -l: size unknown" \
    [ "$(final size)" = null ]
"$TACH" --line-mode --format json -l "$nlines" <"$WORK/lines" \
    >/dev/null 2>"$err"
check "--line-mode -l lines: size and unit" \
    grep -q "\"unit\":\"lines\".*\"size\":$nlines,\"percent\":100.00" "$err"

# the bar and --stats speak of lines
seq 1 100000 | "$TACH" --line-mode --force -w 100 >/dev/null 2>"$err"
check "the bar counts lines" grep -qF "100k lines" "$err"
check "the bar's rate is in lines" grep -qF "lines/s" "$err"
lacks "the bar shows no bytes" "$err" "[0-9] (B|KiB|MiB)"
seq 1 1000 | "$TACH" --line-mode --stats -q >/dev/null 2>"$err"
check "--stats: the line total" grep -qF "tach: 1000 lines in" "$err"
check "--stats: the rates in lines" grep -q "rate .*lines/s\|rate not measured" \
    "$err"

# SIGUSR1 reports the lines as well as the bytes, mid-run
mkfifo "$WORK/fifo"
{ seq 1 1000; gated; seq 1001 2000; } >"$WORK/fifo" &
rm -f "$err"
"$TACH" -q --line-mode <"$WORK/fifo" >"$out" 2>"$err" &
pid=$!
check "SIGUSR1 in line mode: handlers installed" wait_until 60 caught $pid USR1
check "SIGUSR1 in line mode: the first 1000 lines through" \
    wait_until 60 size_at_least "$out" "$(seq 1 1000 | wc -c)"
kill -USR1 $pid
check "SIGUSR1 in line mode: reports 1000 lines" \
    wait_until 60 grep -qE "^tach: 1000 lines, [0-9]+ bytes" "$err"
open_gate
wait $pid
check "SIGUSR1 in line mode: exact" [ "$(seq 1 2000 | cksum)" = "$(cksum <"$out")" ]

# -z: the decompressed lines
gzip -c "$WORK/lines" >"$WORK/lines.gz"
"$TACH" -z --line-mode --format json -f "$WORK/lines.gz" >"$out" 2>"$err"
check "-z --line-mode: exact" cmp -s "$WORK/lines" "$out"
check "-z --line-mode: the lines" [ "$(final lines)" = "$nlines" ]

# -L in line mode counts lines, as pv -l -L does: 200 lines of 1000 bytes
# at 100 lines a second take at least 1.95 s (load cannot make them
# faster), and far less than the 2000 s that 100 bytes a second would;
# never more than a step (5 lines) ahead on tach's own clock.  A byte
# unit (1KiB) still limits bytes.
awk 'BEGIN { for (i = 0; i < 200; i++) printf "%0999d\n", i }' >"$WORK/wide"
for how in pipe file --no-splice; do
	start=$(date +%s%N)
	case $how in
	pipe) cat "$WORK/wide" | "$TACH" --line-mode --format json -i 0.1 \
	    -L 100 2>"$err" | cat >"$out" ;;
	file) "$TACH" --line-mode --format json -i 0.1 -L 100 <"$WORK/wide" \
	    2>"$err" >"$out" ;;
	*) cat "$WORK/wide" | "$TACH" --line-mode --format json -i 0.1 \
	    -L 100 $how 2>"$err" | cat >"$out" ;;
	esac
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	check "-L 100 lines ($how): exact" cmp -s "$WORK/wide" "$out"
	check "-L 100 lines ($how): 200 lines take at least 1.95 s (${ms} ms)" \
	    [ "$ms" -ge 1950 ]
	check "-L 100 lines ($how): counted in lines, not bytes (${ms} ms)" \
	    [ "$ms" -le 60000 ]
	ahead=$(sed 's/.*"elapsed":\([0-9.]*\),"bytes":[0-9]*,"lines":\([0-9]*\),.*/\1 \2/' "$err" |
	    awk '{ x = $2 - 100 * $1; if (x > m) m = x } END { print int(m) }')
	check "-L 100 lines ($how): at most a step ahead (${ahead} lines)" \
	    [ "${ahead:-999}" -le 5 ]
done
head -c 2048 "$WORK/wide" >"$WORK/wide2k"
start=$(date +%s%N)
"$TACH" -q --line-mode -L 1KiB <"$WORK/wide2k" >"$out"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "-L 1KiB in line mode: exact" cmp -s "$WORK/wide2k" "$out"
check "-L 1KiB in line mode: bytes, 2 KiB take at least 1.95 s (${ms} ms)" \
    [ "$ms" -ge 1950 ]

done_testing
