# SPDX-License-Identifier: BSD-2-Clause
# covers: error paths: bad options, read and write errors, a reader that
# goes away.
. "$(dirname "$0")/lib.sh"

err=$WORK/err
out=$WORK/out

# expect_fail STATUS MESSAGE CMD...: CMD exits STATUS, stderr says MESSAGE.
expect_fail() {
	status=$1 message=$2
	shift 2
	"$@" </dev/null >"$out" 2>"$err"
	got=$?
	check "'$*' exits $status (got $got)" [ "$got" -eq "$status" ]
	check "'$*' says '$message' (said '$(cat "$err")')" \
	    grep -qF -- "$message" "$err"
}

expect_fail 1 "buffer size \`abc': illegal number" "$TACH" -b abc
expect_fail 1 "buffer size 0 is less than 1" "$TACH" -b 0
expect_fail 1 "buffer size -5 is less than 1" "$TACH" -b -5
expect_fail 1 "buffer size \`1x': illegal number" "$TACH" -b 1x
expect_fail 1 "buffer size \`99999999999999999999': Result too large" \
    "$TACH" -b 99999999999999999999
expect_fail 1 "input size \`12q': illegal number" "$TACH" -l 12q
expect_fail 1 "unrecognized option" "$TACH" --bogus
expect_fail 1 "usage: tach" "$TACH" --bogus
expect_fail 1 "invalid option -- 'j'" "$TACH" -j
expect_fail 1 "interval \`0': not a number of seconds" "$TACH" -i 0
expect_fail 1 "width 0 is less than 1" "$TACH" -w 0

# Nothing is read when an option is bad.
printf 'data' | { "$TACH" -b abc 2>/dev/null; cat; } >"$out"
check "bad option reads nothing" [ "$(cat "$out")" = data ]

# A -b no machine can hold is refused with a message, never cut down in
# silence (buffer.sh has the rest).
printf 'abc' | env ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    "$TACH" -q --no-splice -b 8000000000000000000 >"$out" 2>"$err"
check "-b 8e18 refused ($?)" [ $? -eq 1 ]
check "-b 8e18: nothing written" [ ! -s "$out" ]
check "-b 8e18: said" grep -q '^tach: -b: a buffer of 8000000000000000000 bytes' "$err"

# Read errors: a directory on stdin.
"$TACH" -q </ >"$out" 2>"$err"
check "directory: exit 1" [ $? -eq 1 ]
check "directory: message" grep -qF "tach: reading stdin: Is a directory" "$err"
"$TACH" -q -f / >"$out" 2>"$err"
check "-f directory: message" grep -qF "tach: reading /: Is a directory" "$err"

# Write errors: ENOSPC on /dev/full, in each tier.
for opts in "" --no-splice; do
	head -c 100000 /dev/zero | "$TACH" -q $opts >/dev/full 2>"$err"
	check "/dev/full ($opts): exit 1" [ $? -eq 1 ]
	check "/dev/full ($opts): message" \
	    grep -qF "tach: writing stdout: No space left on device" "$err"
done

# A missing -f file.
"$TACH" -q -f "$WORK/missing" >"$out" 2>"$err"
check "missing -f: exit 1" [ $? -eq 1 ]
check "missing -f: message" grep -qF "tach: $WORK/missing: No such file" "$err"

# The reader goes away: quiet, and the status of SIGPIPE.
for opts in "" --no-splice; do
	yes | "$TACH" -q $opts 2>"$err" | head -c 10 >/dev/null
	status=$(yes | { "$TACH" -q $opts 2>"$err"; echo $? >"$WORK/st"; } |
	    head -c 10 >/dev/null; cat "$WORK/st")
	check "EPIPE ($opts): status 141 (got $status)" [ "$status" -eq 141 ]
	check "EPIPE ($opts): no message" empty "$err"
done

# --help and --version succeed and write to stdout.
"$TACH" --help >"$out" 2>"$err"
check "--help exits 0" [ $? -eq 0 ]
check "--help lists -b" grep -q -- "--buffer-size" "$out"
"$TACH" --version >"$out"
check "--version" grep -Eq '^tach [0-9]+\.[0-9]+' "$out"

done_testing
