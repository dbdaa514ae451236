# SPDX-License-Identifier: BSD-2-Clause
# covers: -A N, --last-written N, and %{previous-line} (pv 1.8): the last
# bytes written and the last whole line, where tach sees the bytes it moves:
# line mode, which counts them on every tier.  Elsewhere they move without a
# copy, and asking for them is refused, saying why.
. "$(dirname "$0")/lib.sh"

seq 1 100000 | sed 's/^/line /' >"$WORK/lines"
for tier in "" "--no-splice" "-b 8M"; do
	# shellcheck disable=SC2086
	"$TACH" --line-mode $tier --force -w 100 -A 12 \
	    -F '%A|%L|%b' -f "$WORK/lines" >"$WORK/out" 2>"$WORK/err"
	check "${tier:-zero-copy}: exact ($?)" cmp -s "$WORK/lines" "$WORK/out"
	check "…the last 12 bytes, its newline a dot" \
	    grep -q '^line 100000\.|' "$WORK/err"
	check "…the last whole line" grep -q '|line 100000| *100k lines' \
	    "$WORK/err"
done

# While it runs: the line written last, not the one being written
close_gate
{ printf 'alpha\nbeta\ngam'; gated; printf 'ma\n'; } |
    "$TACH" --line-mode --force -i 0.05 -F '[%L]' >/dev/null 2>"$WORK/err" &
pid=$!
check "the previous line, a part line after it" \
    wait_until 60 grep -q '\[beta\]' "$WORK/err"
open_gate
wait $pid
check "…then the line it ends ($?)" grep -q '\[gamma\]' "$WORK/err"
# -A in the default line: before the bar, controls as dots
printf 'a\033]2;x\007b\n' | "$TACH" --line-mode --force -A 8 \
    >/dev/null 2>"$WORK/err"
check "-A: the bytes before the bar, controls as dots" \
    grep -q '^.]2;x\.b\.  *1 lines' "$WORK/err"
lacks "…no control reaches the terminal" "$WORK/err" "$(printf '\033')"
# -0: NUL-separated records; %L escapes what the line holds
printf 'one\0tw\033o\0three' | "$TACH" -0 --force -F '<%L>' \
    >/dev/null 2>"$WORK/err"
check "-0: the last whole record, escaped" grep -q '<tw\\x1bo>' "$WORK/err"
# pv's case (Display - --last-written), in line mode: the closing line
# starts with the last 16 bytes, each newline a dot
seq -w 3 1 100 | "$TACH" -q -L 2000 |
    "$TACH" --line-mode --force -A 16 -i 0.2 >/dev/null 2>"$WORK/err"
last=$(tr '\r' '\n' <"$WORK/err" | sed '/^ *$/d' | sed -n '$p')
check "pv's: the last 16 bytes close the run ($last)" \
    [ "${last%% *}" = "097.098.099.100." ]
# -n -F: as text
printf 'x\ny\n' | "$TACH" --line-mode -n -A 2 -F '%A %L' 2>"$WORK/err" \
    >/dev/null
check "-n -F: %A and %L as text" grep -qx 'y\. y' "$WORK/err"

# Refused, saying why
"$TACH" -A 5 </dev/null 2>"$WORK/err"
check "-A outside line mode: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -A needs line mode (--line-mode, -0), \
where tach sees the bytes it moves" "$WORK/err"
"$TACH" -F '%L' </dev/null 2>"$WORK/err"
check "%L outside line mode: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: %L shows the bytes written, which tach \
sees only in line mode (--line-mode, -0); elsewhere they move without a copy" \
    "$WORK/err"
"$TACH" -x 'process:%{previous-line}' </dev/null 2>"$WORK/err"
check "-x's %{previous-line} outside line mode: refused ($?)" [ $? -eq 1 ]
"$TACH" --line-mode -F '%A' </dev/null 2>"$WORK/err"
check "%A without -A: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: %A shows -A's last bytes: give -A N" \
    "$WORK/err"
"$TACH" --line-mode -A 0 </dev/null 2>"$WORK/err"
check "-A 0: refused ($?)" [ $? -eq 1 ]
"$TACH" --line-mode -A 257 </dev/null 2>"$WORK/err"
check "-A 257: refused ($?)" [ $? -eq 1 ]
"$TACH" -d 1 -A 5 </dev/null 2>"$WORK/err"
check "-A with -d: refused ($?)" [ $? -eq 1 ]
check "…as not taken by -d" grep -qx \
    "tach: -d watches another process: -A does not apply" "$WORK/err"
"$TACH" -Q 1 -A 5 </dev/null 2>"$WORK/err"
check "-A with -Q: refused ($?)" [ $? -eq 1 ]
"$TACH" -d 1 -F '%L' </dev/null 2>"$WORK/err"
check "%L with -d: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: %L shows the bytes written: -d sees \
only how far another process has come" "$WORK/err"
"$TACH" -Q 1 -F '%A' </dev/null 2>"$WORK/err"
check "%A with -Q: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: %A shows the bytes written: -Q is sent \
a copy's numbers, not its bytes" "$WORK/err"

# -R: the copy judges a new -F by what it sees
close_gate
{ printf 'alpha\nbeta\n'; gated; } |
    "$TACH" --line-mode --force -i 0.05 -F '%b' >/dev/null 2>"$WORK/err" &
pid=$!
check "-R: the copy in line mode listens" wait_until 60 listening $pid
"$TACH" -R $pid -F '[%L]' 2>"$WORK/rerr"
check "-R -F %L, a copy in line mode: taken ($?)" [ $? -eq 0 ]
check "…and drawn" wait_until 60 grep -q '\[beta\]' "$WORK/err"
"$TACH" -R $pid -F '%A' 2>"$WORK/rerr"
check "-R -F %A, a copy without -A: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: -R $pid: refused: %A shows -A's last bytes: give -A N" "$WORK/rerr"
open_gate
wait $pid
check "…the copy exits 0 ($?)" [ $? -eq 0 ]
close_gate
{ printf 'alpha\n'; gated; } | "$TACH" -q >/dev/null &
pid=$!
check "-R: the copy outside line mode listens" wait_until 60 listening $pid
"$TACH" -R $pid -F '%L' 2>"$WORK/rerr"
check "-R -F %L, a copy outside line mode: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -R $pid: refused: %L shows the bytes \
written, which tach sees only in line mode (--line-mode, -0); elsewhere they \
move without a copy" "$WORK/rerr"
open_gate
wait $pid
check "…the copy exits 0 ($?)" [ $? -eq 0 ]

# -A 256 on an 80-column line: its latest bytes in a third of the line,
# the other fields still drawn
awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "line %d with more text to make it long\n", i }' \
    >"$WORK/long"
"$TACH" --force -w 80 --line-mode -A 256 -l 3000 -f "$WORK/long" \
    2>"$WORK/err" >/dev/null
tr '\r' '\n' <"$WORK/err" | tail -n 1 >"$WORK/last"
check "-A 256 at 80 columns: the latest bytes shown" \
    grep -q 'make it long\. 100% ' "$WORK/last"
check "…and the line's other fields" grep -q '3.00k lines avg' "$WORK/last"

done_testing
