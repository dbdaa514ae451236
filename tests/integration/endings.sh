# SPDX-License-Identifier: BSD-2-Clause
# covers: the last instant of a run.  An error a call reports once is
# final: a socket's reset and a pty's hangup end every mode (plain, -b,
# --hash, several -o, -X, cmd, -M out) in a message and exit 1, never in
# a clean end; a write that takes nothing ends its output (several -o),
# never spins, and the relay's own failed write into the fanout's pipe
# is named as that pipe; the count said for a failed or stalled output
# is what it holds (a full tmpfs in a mount namespace of its own, a FIFO
# whose reader stops), with -b, --output-block and several outputs.
. "$(dirname "$0")/lib.sh"
need python3
random "$WORK/in" 20000000

# prefix FILE: FILE is the input's first bytes: cut short, never changed
prefix() { cmp -s -n "$(wc -c <"$1")" "$1" "$WORK/in"; }

# A pty's master as the input: its slave side writes FILE, then hangs up
# (the master then reads EIO).
cat >"$WORK/pty-in.py" <<'EOF'
import os, subprocess, sys, tty
master, slave = os.openpty()
tty.setraw(slave)
if os.fork() == 0:
    os.close(master)
    data = memoryview(open(sys.argv[1], "rb").read())
    while data:
        data = data[os.write(slave, data[:65536]):]
    os._exit(0)
os.close(slave)
status = subprocess.call(sys.argv[2:], stdin=master)
os.wait()
sys.exit(status)
EOF

# cut_short KIND WHAT MODE...: tach in MODE reads an input of KIND
# (reset: a TCP connection reset by its peer; pty: a pty hung up) that
# fails with WHAT: exit 1, WHAT said, every output a prefix, no digest.
cut_short() {
	_kind=$1 _what=$2
	shift 2
	rm -f "$WORK/out" "$WORK/a" "$WORK/b"
	case $_kind in
	reset) "$HELPER" reset-in "$WORK/in" "$TACH" -q "$@" \
	    >"$WORK/out" 2>"$WORK/err" ;;
	pty) python3 "$WORK/pty-in.py" "$WORK/small" "$TACH" -q "$@" \
	    >"$WORK/out" 2>"$WORK/err" ;;
	esac
	_st=$?
	check "$_kind, $*: exit 1 ($_st)" [ $_st -eq 1 ] || cat "$WORK/err" >&2
	check "…said: $_what" grep -q "$_what" "$WORK/err"
	for _f in "$WORK/out" "$WORK/a" "$WORK/b"; do
		[ ! -e "$_f" ] || check "…$(basename "$_f"): a prefix" prefix "$_f"
	done
	lacks "…no digest of a stream cut short" "$WORK/err" '^[0-9a-f]{32} '
}
head -c 2000000 "$WORK/in" >"$WORK/small"
for kind in reset pty; do
	case $kind in
	reset) what='reset by peer' ;;
	pty) what='Input/output error' ;;
	esac
	for buffer in "" "-b 16M"; do
		# shellcheck disable=SC2086
		{
		cut_short $kind "$what" $buffer
		cut_short $kind "$what" $buffer --no-splice
		cut_short $kind "$what" $buffer --hash md5
		cut_short $kind "$what" $buffer -o "$WORK/a" -o "$WORK/b"
		cut_short $kind "$what" $buffer -X
		cut_short $kind "$what" $buffer cat
		}
	done
	cut_short $kind "$what" -M out cat
done
# tach's own message names the input, in each tier
"$HELPER" reset-in "$WORK/in" "$TACH" -q -b 16M >/dev/null 2>"$WORK/err"
check "-b: the reset named as the input's" \
    grep -qx 'tach: reading stdin: Connection reset by peer' "$WORK/err"

# A write that takes nothing ends that output (ENOSPC, as one -o does),
# never spins: a device that takes no more past 100000 bytes (the shim,
# every write into it 0 from then on), among two outputs, with and
# without -b and zero-copy; its count what it holds, the other exact.
if [ -n "${BADBLOCKS:-}" ]; then
	for mode in --no-splice "" "-b 16M" "-b 16M --no-splice"; do
		rm -f "$WORK/a" "$WORK/b"
		# shellcheck disable=SC2086
		# (the shim for tach alone: timeout is not a sanitizer build's)
		timeout 30 env LD_PRELOAD="$BADBLOCKS" TACH_ZERO_FILE="$WORK/b" \
		    TACH_ZERO_AT=100000 "$TACH" -q $mode -o "$WORK/a" \
		    -o "$WORK/b" <"$WORK/small" 2>"$WORK/err"
		st=$?
		check "a write of 0 ($mode): ends, exit 1 ($st)" [ $st -eq 1 ]
		check "…the output named with what it holds" grep -qx \
		    "tach: writing $WORK/b: No space left on device (100000 bytes written)" \
		    "$WORK/err" || cat "$WORK/err" >&2
		check "…the other exact" cmp -s "$WORK/a" "$WORK/small"
	done
fi
# The relay's own write into the fanout's pipe failing is named as that
# pipe, not as an output (strace counts each thread's writes apart: the
# relay's 2nd is its second into the pipe).
if command -v strace >/dev/null; then
	env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -o /dev/null \
	    -e inject=write:error=EIO:when=2 "$TACH" -q --no-splice \
	    -o "$WORK/a" -o "$WORK/b" <"$WORK/small" 2>"$WORK/err"
	check "the relay's write into the outputs' pipe fails: exit 1 ($?)" \
	    [ $? -eq 1 ]
	check "…named as that pipe" grep -q \
	    "^tach: writing the outputs' pipe: Input/output error" "$WORK/err" ||
	    cat "$WORK/err" >&2
fi

# said FILE NAME: the count the messages in FILE give for output NAME
said() {
	sed -n -e "s#^tach: writing $2: .* (\([0-9]*\) bytes \(written\|delivered\).*#\1#p" \
	    -e "s|^tach: $2: \([0-9]*\) bytes written\$|\1|p" "$1" | head -n 1
}

# A full tmpfs (10 MiB, its own mount namespace): the count said is what
# each output holds, a partial write's bytes included.
if unshare -m true 2>/dev/null; then
	cat >"$WORK/full.sh" <<-'EOF'
	mount -t tmpfs -o size=10m tmpfs "$1" || exit 99
	dir=$1 in=$2 out=$3
	shift 3
	"$TACH" -q "$@" <"$in" 2>"$out/err"
	echo $? >"$out/status"
	for f in "$dir"/*; do
		wc -c <"$f" >"$out/size-$(basename "$f")"
	done
	EOF
	mkdir -p "$WORK/mnt" "$WORK/res"
	for mode in "-b 16M --output-block 3M -o MNT/a" "--output-block 3M -o MNT/a" \
	    "-b 16M -o MNT/a" "-b 16M -o MNT/a -o MNT/b" "-o MNT/a -o MNT/b" \
	    "--hash md5 -o MNT/a"; do
		rm -f "$WORK/res"/*
		# shellcheck disable=SC2046
		unshare -m sh "$WORK/full.sh" "$WORK/mnt" "$WORK/in" \
		    "$WORK/res" $(echo "$mode" | sed "s|MNT|$WORK/mnt|g")
		check "full, $mode: exit 1 ($(cat "$WORK/res/status"))" \
		    [ "$(cat "$WORK/res/status")" -eq 1 ]
		for f in a b; do
			[ -e "$WORK/res/size-$f" ] || continue
			n=$(said "$WORK/res/err" "$WORK/mnt/$f")
			check "…$f: the count said ($n) is what it holds" \
			    [ "$n" = "$(cat "$WORK/res/size-$f")" ] ||
			    cat "$WORK/res/err" >&2
		done
	done
fi

# Several outputs with -b, one stalled (a FIFO whose reader stops after
# 1 MB and holds it open): each one's count said, the FIFO's the bytes its
# writes put in (all its reader gets once it reads on), the file's its
# size.
mkfifo "$WORK/fifo"
close_gate
sh -c 'head -c 1000000 >"$1"; until [ -e "$2" ]; do sleep 0.05; done
    cat >>"$1"' sh "$WORK/got" "$GATE" <"$WORK/fifo" &
reader=$!
"$TACH" -q -b 16M --stall-timeout 1 -o "$WORK/a" -o "$WORK/fifo" \
    <"$WORK/in" 2>"$WORK/err"
check "a stalled output of two: exit 1 ($?)" [ $? -eq 1 ]
open_gate
wait "$reader"
n=$(said "$WORK/err" "$WORK/fifo")
check "…the FIFO's count ($n) is what its reader got" \
    [ "$n" = "$(wc -c <"$WORK/got")" ] || cat "$WORK/err" >&2
n=$(said "$WORK/err" "$WORK/a")
check "…the file's count ($n) is its size" \
    [ "$n" = "$(wc -c <"$WORK/a")" ] || cat "$WORK/err" >&2

# The last frame, and its newline, before the output's reader sees its
# end: what that reader prints then (wc's count, dd's summary) lands on a
# line of its own.  Under strace: no close of stdout before the frame's
# last write.
# frame_first TRACE: TRACE's last write to fd 2 comes before any close(1)
frame_first() {
	awk '/^[0-9]+ +write\(2,/ { w = NR } /^[0-9]+ +close\(1\)/ && !c { c = NR }
	    END { exit !(w > 0 && (c == 0 || c > w)) }' "$1"
}
if command -v strace >/dev/null; then
	for mode in "" "-o - -o $WORK/a" "--line-mode" "-b 16M"; do
		# shellcheck disable=SC2086
		head -c 3000000 "$WORK/in" | env ASAN_OPTIONS=detect_leaks=0 \
		    strace -f -qq -o "$WORK/trace" -e trace=write,close \
		    "$TACH" --force -w 80 $mode 2>/dev/null | wc -c >"$WORK/count"
		check "$mode: the last frame before stdout's end" \
		    frame_first "$WORK/trace"
		check "…and every byte through ($(cat "$WORK/count"))" \
		    [ "$(cat "$WORK/count")" -eq 3000000 ]
	done
fi

# A failed run's last line says so: a full output, a digest not the one
# given.
"$TACH" --force -w 100 <"$WORK/small" >/dev/full 2>"$WORK/err"
check "a full output: exit 1 ($?)" [ $? -eq 1 ]
check "…its last line says failed" sh -c \
    'grep "avg" "$1" | tail -n 1 | grep -q " failed\$"' sh "$WORK/err"
"$TACH" --force -w 100 --hash md5:00000000000000000000000000000000 \
    <"$WORK/small" >/dev/null 2>"$WORK/err"
check "a digest not the one given: exit 1 ($?)" [ $? -eq 1 ]
check "…its last line says failed" sh -c \
    'grep "avg" "$1" | tail -n 1 | grep -q " failed\$"' sh "$WORK/err"
"$TACH" --force -w 100 <"$WORK/small" >/dev/null 2>"$WORK/err"
lacks "a whole copy's does not" "$WORK/err" 'failed'

# The first instant: SIGUSR1 (safe, tach(1) says) is caught before
# anything else is done, the locale's files read or another handler
# installed; the loader alone comes before it (and in a sanitizer build
# the sanitizer's runtime, which installs handlers and maps its shadow
# memory before main: not there).
sanitized=no
[ "${TACH_SANITIZE:-OFF}" = ON ] && sanitized=yes
if command -v strace >/dev/null && [ $sanitized = no ]; then
	echo x | env ASAN_OPTIONS=detect_leaks=0 strace -qq -o "$WORK/trace" \
	    -e trace=rt_sigaction,openat,read "$TACH" -q >/dev/null
	first=$(grep -n 'rt_sigaction(SIGUSR1, {sa_handler=0x' "$WORK/trace" |
	    head -n 1 | cut -d: -f1)
	check "SIGUSR1 caught" [ -n "$first" ]
	check "…before any other handler" [ "$(grep -n \
	    'rt_sigaction(SIG[A-Z0-9]*, {sa_handler=' "$WORK/trace" |
	    head -n 1 | cut -d: -f1)" = "$first" ]
	check "…before the locale is read" [ "$(grep -n 'locale' \
	    "$WORK/trace" | head -n 1 | cut -d: -f1)" -gt "${first:-0}" ]
	check "…before stdin is read" [ "$(grep -n '^read(0' \
	    "$WORK/trace" | head -n 1 | cut -d: -f1)" -gt "${first:-0}" ]
fi
# …and before it only the dynamic loader and the C library's start run,
# and the mask that holds a signal until its handler is there: no other
# call of tach's own, no file but the libraries, and no library that
# only some runs need (libcrypto comes with --hash).  A signal can come
# before this point only while the loader works, as for every program;
# sending one at random to find it would test the scheduler, not tach.
if command -v strace >/dev/null && [ $sanitized = no ]; then
	echo x | strace -qq -o "$WORK/trace" "$TACH" -q >/dev/null
	awk '/^rt_sigaction\(SIGUSR1, \{sa_handler=0x/ { exit }
	    { name = substr($0, 1, index($0, "(") - 1) }
	    name !~ /^(execve|brk|mmap2?|munmap|mprotect|access|close|read|pread64|(new)?fstatat|fstat(64)?|statx|stat64|arch_prctl|set_thread_area|set_tid_address|set_robust_list|rseq|prlimit64|ugetrlimit|getrandom|openat|rt_sigprocmask)$/ ||
	    (name == "rt_sigprocmask" && $0 !~ /SIG_BLOCK/) ||
	    (name == "openat" && $0 !~ /ld\.so\.cache|\.so[.0-9]*"/) ||
	    /libcrypto/' "$WORK/trace" >"$WORK/before"
	check "nothing but the loader before SIGUSR1's handler: $(head -n 3 "$WORK/before")" \
	    [ ! -s "$WORK/before" ]
	check "…which loaded the libraries" grep -q 'openat(.*\.so' "$WORK/trace"
fi
# Where the build loads terminfo on demand (config.h names it), a run that
# draws no bar never maps it, as a loop over many small files would pay
# for it each time; a run drawn on a terminal loads it for the bar.
lib=$(sed -n 's/^#define TACH_TERMINFO_LIBRARY "\(.*\)"$/\1/p' \
    "$(dirname "$TACH")/config.h" 2>/dev/null || :)
if [ -n "$lib" ] && command -v strace >/dev/null &&
    command -v script >/dev/null && [ $sanitized = no ]; then
	echo x | strace -qq -e trace=openat -o "$WORK/trace" "$TACH" \
	    >/dev/null 2>"$WORK/err"
	check "no terminal: $lib not loaded" [ "$(grep -c "$lib" \
	    "$WORK/trace")" -eq 0 ]
	check "…and the run well" [ ! -s "$WORK/err" ]
	TERM=xterm script -qec "echo x | strace -qq -e trace=openat \
	    -o '$WORK/trace' '$TACH' >/dev/null" /dev/null >/dev/null
	check "a terminal: $lib loaded for the bar" grep -q "$lib" \
	    "$WORK/trace"
fi

done_testing
