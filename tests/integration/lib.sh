# Shared by the integration tests: sourced, never run.  TACH and HELPER
# name the binaries under test (CTest sets them).
set -u
: "${TACH:?TACH must name the tach binary}"
: "${HELPER:?HELPER must name tach-test-helper}"
: "${TACH_ZEROCOPY:=1}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tach-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

pass() {
	checks=$((checks + 1))
}

# check DESCRIPTION CONDITION...: runs the condition, records the result.
check() {
	desc=$1
	shift
	if "$@"; then pass; else fail "$desc"; fi
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

need() {
	for tool; do
		command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
	done
}

# random FILE BYTES: FILE filled with BYTES random bytes.
random() {
	head -c "$2" /dev/urandom >"$1"
}

done_testing() {
	echo "$checks passed, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

# LeakSanitizer cannot run under ptrace; the sanitizer build still checks
# leaks everywhere else.
strace() {
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    command strace "$@"
}

# Terminal tests: a 100x30 tmux terminal running bash, gone at exit.
tmux_session() {
	need tmux
	sock="tach-test-$$"
	trap 'tmx kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
	tmx -f /dev/null new-session -d -x 100 -y 30 \
	    "env -i PATH='$PATH' TERM=screen LC_ALL=C.UTF-8 PS1='$ ' bash --norc --noprofile"
	sleep 0.5
}
tmx() { tmux -L "$sock" "$@"; }
screen() { tmx capture-pane -p -J "$@"; }
cursor() { tmx display-message -p '#{cursor_flag}'; }
run() { tmx send-keys -l "$*"; tmx send-keys Enter; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT.  TEXT must not be
# in the typed command line itself.
wait_for() {
	i=0
	while [ $i -lt $((${2:-10} * 10)) ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
