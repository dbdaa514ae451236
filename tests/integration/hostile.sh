# SPDX-License-Identifier: BSD-2-Clause
# covers: hostile input: escape sequences and invalid UTF-8 in -p, huge
# prefixes, numbers at the edges, extreme widths, missing or unknown
# terminals.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/data" 100000

# frames FILE: the drawn frames, one a line, without terminal sequences.
frames() {
	tr '\r' '\n' <"$1" | sed 's/\x1b[[(][0-9;?]*[A-Za-z]//g' | grep -v '^$'
}

# Escapes in the prefix never reach the terminal raw.
TERM=dumb "$TACH" --force -w 200 -p "$(printf '\033]0;pwned\007\033[2J')" \
    <"$WORK/data" 2>"$err" >"$out"
check "escape prefix: data exact" cmp -s "$WORK/data" "$out"
lacks "escape prefix: no raw ESC or BEL" "$err" "$(printf '[\033\007]')"
check "escape prefix: shown escaped" grep -qF '\x1b]0;pwned\x07\x1b[2J' "$err"

# Invalid UTF-8, and a prefix as long as one argument may be (128 KiB).
LC_ALL=C.UTF-8 "$TACH" --force -w 80 -p "$(printf 'a\377\300b')" \
    <"$WORK/data" 2>"$err" >"$out"
check "invalid UTF-8 prefix escaped" grep -qF 'a\xff\xc0b' "$err"
big=$(head -c 131000 /dev/zero | tr '\0' 'p')
TERM=dumb "$TACH" --force -w 80 -p "$big" <"$WORK/data" 2>"$err" >"$out"
check "huge prefix: data exact" cmp -s "$WORK/data" "$out"
# columns: a UTF-8 character's continuation bytes take none
w=$(frames "$err" | LC_ALL=C sed 's/[\x80-\xbf]//g' |
    awk '{ print length($0) }' | sort -n | tail -n 1)
check "huge prefix: frames fit 80 columns ($w)" [ "$w" -eq 80 ]

# Numbers at the edges.
"$TACH" -q -l 9223372036854775807 <"$WORK/data" >"$out"
check "-l 2^63-1 accepted" cmp -s "$WORK/data" "$out"
"$TACH" -l 9223372036854775808 </dev/null 2>"$err"
check "-l 2^63 refused" [ $? -eq 1 ]
check "-l 2^63 message" grep -qF "input size \`9223372036854775808': Result too large" "$err"
"$TACH" -b 4gx4gx4g </dev/null 2>"$err"
check "-b product overflow refused" grep -qF "Result too large" "$err"
"$TACH" -l 8388607t -b 2x2x2x2 --force <"$WORK/data" 2>"$err" >"$out"
check "-l near 2^63 draws 0%" sh -c "frames() { tr '\\r' '\\n' <\"\$1\"; }; frames '$err' | grep -q '  0%'"

# Terminals 1 and 1000 columns wide.
TERM=dumb "$TACH" --force -w 1 <"$WORK/data" 2>"$err" >"$out"
check "-w 1: data exact" cmp -s "$WORK/data" "$out"
check "-w 1: nothing visible drawn" [ -z "$(frames "$err" | tr -d ' ')" ]
LC_ALL=C TERM=dumb "$TACH" --force -w 1000 -i 0.05 -L 400k -l 100000 <"$WORK/data" 2>"$err" >"$out"
w=$(frames "$err" | awk '{ print length($0) }' | sort -n | tail -n 1)
check "-w 1000: frames 1000 columns ($w)" [ "$w" -eq 1000 ]
"$TACH" -w 1001 </dev/null 2>"$err"
check "-w 1001 refused" grep -qF "width 1001 is greater than 1000" "$err"

# No terminal type, or one terminfo does not know.
for t in "-u TERM" "TERM=no-such-terminal-xyz" "TERM=dumb"; do
	env $t "$TACH" --force <"$WORK/data" 2>"$err" >"$out"
	check "$t: exit 0 and exact" cmp -s "$WORK/data" "$out"
	lacks "$t: plain carriage returns" "$err" "$(printf '\033')"
done

# A bad value from an untrusted header (tach -l "$len") is named in its
# message escaped, whatever the option
bad=$(printf 'x\033]0;owned\007y')
for opt in -i -D -m --stall-timeout --write-at --read-at -u -F -x -A -w -l \
    -b -L --read-limit -R -Q -d; do
	"$TACH" "$opt" "$bad" </dev/null >/dev/null 2>"$err"
	check "$opt with escapes: refused ($?)" [ $? -ne 0 ]
	lacks "…no raw ESC or BEL in its message" "$err" "$(printf '[\033\007]')"
	check "…the value shown escaped" grep -qF 'x\x1b]0;owned\x07y' "$err"
done

# -Q's peer is trusted for nothing: a fake copy (this user's, at its own
# PID) whose result word would set the querier's title is shown escaped
if command -v python3 >/dev/null && [ -r /proc/net/unix ]; then
	python3 - "$WORK/fakepid" <<-'PY' &
	import os, socket, sys
	s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
	s.bind("\0tach-%d-%d" % (os.geteuid(), os.getpid()))
	s.listen(1)
	open(sys.argv[1], "w").write("%d\n" % os.getpid())
	c, _ = s.accept()
	c.recv(100)
	c.sendall(b"S 1 1 1 1 0 1 1 1 1 0 0 0 0 1 0 0 \x1b]2;x\x07 -\n")
	c.close()
	PY
	fake=$!
	wait_until 60 test -s "$WORK/fakepid"
	"$TACH" -Q "$(cat "$WORK/fakepid")" >"$out" 2>"$err"
	wait $fake
	lacks "-Q: a fake copy's result word: no raw ESC or BEL" "$err" \
	    "$(printf '[\033\007]')"
	lacks "…nor on stdout" "$out" "$(printf '[\033\007]')"
	check "…the word shown escaped" grep -qF 'the copy ended: \x1b]2;x\x07' "$err"
fi

done_testing
