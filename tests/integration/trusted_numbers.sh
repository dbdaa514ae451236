# Numbers and ends a user acts on: -F %T stays a percentage, -z keeps
# one descriptor a file, a child's crash is not dumped as tach's core, a
# decompressor that fails is named, the magic is read whole, and a
# stray SIGALRM does not kill a copy.
. "$(dirname "$0")/lib.sh"
random "$WORK/data" 3000000

# %T: the input waiting, as a share of the buffer, 0 to 100 for a file
# (whose FIONREAD is all that is left of it) and for a pipe.
"$TACH" --force -F '%T' -b 64k -i 0.01 -f "$WORK/data" 2>"$WORK/err" >/dev/null
tr '\r' '\n' <"$WORK/err" | grep -o '[0-9-]*%' >"$WORK/pct"
check "%T from a file: drawn" [ -s "$WORK/pct" ]
lacks "%T from a file: 0 to 100" "$WORK/pct" '^(-|[0-9]{4,}|[2-9][0-9][0-9]|1[1-9][0-9]|10[1-9])'
"$TACH" --force -F '%T' -b 64k -i 0.01 <"$WORK/data" 2>"$WORK/err" >/dev/null
tr '\r' '\n' <"$WORK/err" | grep -o '[0-9-]*%' >"$WORK/pct"
lacks "%T from a redirected file: 0 to 100" "$WORK/pct" '^(-|[0-9]{4,}|[2-9][0-9][0-9]|1[1-9][0-9]|10[1-9])'

# JSON for an empty file: its size, 0, is known from the first object.
: >"$WORK/empty"
"$TACH" --format json -f "$WORK/empty" 2>"$WORK/json" >/dev/null
check "JSON, empty file: objects written" [ -s "$WORK/json" ]
lacks "JSON, empty file: never a null size" "$WORK/json" '"size":null'
check "JSON, empty file: the last is 100%" sh -c \
    "tail -n 1 '$WORK/json' | grep -q '\"size\":0,\"percent\":100.00'"

# -n: the last line is the real percentage and never above 100 (dialog
# --gauge reads it), even past a -l that was too small.
head -c 100 "$WORK/data" | "$TACH" -n -l 50 2>"$WORK/n" >/dev/null
check "-n past -l: ends at 100" [ "$(tail -n 1 "$WORK/n")" = 100 ]
lacks "-n past -l: never above 100" "$WORK/n" '^([2-9][0-9][0-9]|1[0-9][1-9]|1[1-9][0-9]|[0-9]{4,})$'
head -c 100 "$WORK/data" | "$TACH" -n -l 200 2>"$WORK/n" >/dev/null
check "-n short input: ends at its real 50" [ "$(tail -n 1 "$WORK/n")" = 50 ]

# -z over many files: each compressed file is closed when its
# decompressor is done, so 100 files fit in 40 descriptors.
if command -v gzip >/dev/null; then
	i=0
	set --
	while [ $i -lt 100 ]; do
		printf 'file %d\n' $i | gzip -c >"$WORK/z$i.gz"
		set -- "$@" -f "$WORK/z$i.gz"
		i=$((i + 1))
	done
	(ulimit -n 40 && "$TACH" -q -z "$@" >"$WORK/out" 2>"$WORK/err")
	check "-z, 100 files under ulimit -n 40: exit 0" [ $? -eq 0 ]
	check "-z, 100 files: every one decompressed" \
	    [ "$(wc -l <"$WORK/out")" -eq 100 ]
	check "-z, 100 files: in order" sh -c \
	    "tail -n 1 '$WORK/out' | grep -qx 'file 99'"
	empty "$WORK/err" || fail "-z, 100 files: a message ($(head -n 1 "$WORK/err"))"

	# a decompressor that fails is named with its status
	head -c 1000 "$WORK/data" | gzip -c | head -c 500 >"$WORK/cut.gz"
	"$TACH" -q -z -f "$WORK/cut.gz" >/dev/null 2>"$WORK/err"
	check "failing decompressor: exit 1 ($?)" [ $? -eq 1 ]
	check "failing decompressor: named, with its status" grep -qF \
	    "tach: gzip -dc (reading $WORK/cut.gz) exited with status 1" "$WORK/err"
fi
if command -v lz4 >/dev/null; then
	# lz4 fails on trailing bytes without a word of its own
	{ printf x | lz4 -c; printf 'trailing'; } >"$WORK/t.lz4" 2>/dev/null
	"$TACH" -q -z -f "$WORK/t.lz4" >/dev/null 2>"$WORK/err"
	status=$?
	if [ $status -ne 0 ]; then
		check "silent lz4: named" grep -q "tach: lz4 -dc .* exited with status $status" "$WORK/err"
	fi
fi

# The magic is read until it is whole: an EINTR on its read is retried.
if command -v xz >/dev/null && command -v strace >/dev/null; then
	xz -c <"$WORK/data" >"$WORK/data.xz"
	strace -qq -o "$WORK/trace" -e trace=pread64 "$TACH" -q -z \
	    <"$WORK/data.xz" >/dev/null
	n=$(awk '/, 6, 0\) += 6$/ { print NR; exit }' "$WORK/trace")
	strace -qq -o /dev/null -e inject=pread64:error=EINTR:when=${n:-1} \
	    "$TACH" -q -z <"$WORK/data.xz" >"$WORK/out" 2>"$WORK/err"
	check "magic read interrupted: exit 0 ($?)" [ $? -eq 0 ]
	check "magic read interrupted: xz still chosen, exact" \
	    cmp -s "$WORK/data" "$WORK/out"
fi

# A command that dies of SIGSEGV: tach dies of it too, without dumping
# a core of its own (RLIMIT_CORE set to 0 first).
if command -v strace >/dev/null; then
	# (in a shell of its own, whose "Segmentation fault" is not ours)
	sh -c 'ASAN_OPTIONS=detect_leaks=0 strace -qq -f -o "$1" -e trace=prlimit64,setrlimit \
	    -e signal=none "$2" -q sh -c "kill -SEGV \$\$" </dev/null
	    echo $? >"$1.status"' sh "$WORK/trace" "$TACH" 2>/dev/null
	check "child's SIGSEGV: tach dies of it" \
	    [ "$(cat "$WORK/trace.status")" -eq 139 ]
	check "child's SIGSEGV: no core of tach's own" grep -q \
	    'RLIMIT_CORE, *{rlim_cur=0, rlim_max=0}' "$WORK/trace"
fi

# SIGALRM from outside, with nothing drawn: the copy goes on.
close_gate
(head -c 1000000 "$WORK/data"; gated; tail -c +1000001 "$WORK/data") |
    "$TACH" -q >"$WORK/out" 2>"$WORK/err" &
wait_until 60 pgrep -f -- "$TACH -q\$" >/dev/null
pid=$(pgrep -n -f -- "$TACH -q\$")
check "SIGALRM: caught" wait_until 60 caught "$pid" ALRM
kill -ALRM "$pid"
open_gate
wait $!
check "SIGALRM: exit 0 ($?)" [ $? -eq 0 ]
check "SIGALRM: exact" cmp -s "$WORK/data" "$WORK/out"

done_testing
