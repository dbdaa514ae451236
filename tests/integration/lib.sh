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
