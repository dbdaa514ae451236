# SPDX-License-Identifier: BSD-2-Clause
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

# check DESCRIPTION CONDITION...: runs the condition, records the result;
# its status is the condition's, so "check ... || show-why" works.
check() {
	desc=$1
	shift
	if "$@"; then pass; else fail "$desc"; return 1; fi
}

# lacks DESCRIPTION FILE PATTERN: FILE was written and has no line
# matching the extended regular expression PATTERN.  A plain "! grep"
# would pass on a file that was never written.
lacks() {
	if [ ! -e "$2" ]; then
		fail "$1 ($2 was never written)"
	elif grep -Eaq -- "$3" "$2"; then
		fail "$1 ($(grep -Eam 1 -- "$3" "$2"))"
	else
		pass
	fi
}

# empty FILE: FILE was written, and is empty.
empty() { [ -e "$1" ] && [ ! -s "$1" ]; }

# listening PID: copy PID takes -R requests: its socket is there (on
# Linux an abstract name, elsewhere a file in $TMPDIR/tach-UID)
listening() {
	if [ -r /proc/net/unix ] && [ "$(uname)" = Linux ]; then
		grep -q "@tach-$(id -u)-$1\$" /proc/net/unix
	else
		[ -S "${TMPDIR:-/tmp}/tach-$(id -u)/$1" ]
	fi
}

# Tests wait for conditions, never for a fixed time: a busy machine is
# slow, not wrong.  wait_until SECONDS CMD...: polls CMD until it
# succeeds; fails after SECONDS.
wait_until() {
	_wu_limit=$(($1 * 20))
	shift
	_wu_n=0
	until "$@"; do
		_wu_n=$((_wu_n + 1))
		if [ $_wu_n -ge $_wu_limit ]; then
			echo "gave up waiting for: $*" >&2
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# sigmask PID FIELD SIGNAL: SIGNAL's bit is set in PID's FIELD (SigCgt,
# SigIgn) in /proc.
sigmask() {
	_sm=$(awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null)
	case $3 in
	HUP) _sn=1 ;; INT) _sn=2 ;; USR1) _sn=10 ;; PIPE) _sn=13 ;;
	ALRM) _sn=14 ;; TERM) _sn=15 ;; TSTP) _sn=20 ;; WINCH) _sn=28 ;;
	*) echo "sigmask: add $3" >&2; return 1 ;;
	esac
	[ -n "$_sm" ] && [ $(((0x$_sm >> (_sn - 1)) & 1)) -eq 1 ]
}

# caught PID SIGNAL...: PID has handlers installed for every SIGNAL.
caught() {
	_c_pid=$1
	shift
	for _c_sig; do
		sigmask "$_c_pid" SigCgt "$_c_sig" || return 1
	done
}

# ignores PID SIGNAL: PID has SIGNAL ignored.
ignores() { sigmask "$1" SigIgn "$2"; }

# polling PIDFILE: the process whose pid is in PIDFILE has ended or is
# blocked in poll(2) (x86-64 and i386 system call 7 and 168).
polling() {
	_p=$(cat "$1" 2>/dev/null)
	[ -n "$_p" ] || return 1
	kill -0 "$_p" 2>/dev/null || return 0
	case $(cut -d' ' -f1 "/proc/$_p/syscall" 2>/dev/null) in
	7|168) return 0 ;;
	esac
	return 1
}

# A cmd that notes its input, the pipe from tach, in FILE: run it as
# "$TACH" ... sh -c "$NOTE_INPUT" sh FILE.
NOTE_INPUT='readlink /proc/$$/fd/0 >"$1"; exec cat >/dev/null'

# ended_before_closed TRACE FILE SIGNAL: TRACE (tach under strace -y -e
# trace=kill,close) shows cmd sent SIGNAL before tach closed cmd's input,
# the pipe noted in FILE; closed first, cmd could take its end of input
# for a finish.
ended_before_closed() {
	_k=$(grep -n "^kill([0-9]*, $3)" "$1" | head -n 1 | cut -d: -f1)
	_c=$(grep -nF "<$(cat "$2")>)" "$1" | grep '^[0-9]*:close(' |
	    tail -n 1 | cut -d: -f1)
	[ -n "$_k" ] && [ -n "$_c" ] && [ "$_k" -lt "$_c" ]
}

# size_at_least FILE BYTES: FILE has grown to BYTES.
size_at_least() {
	[ -e "$1" ] && [ "$(wc -c <"$1")" -ge "$2" ]
}

# A gate for producers: "gated" in a pipeline waits until open_gate.
GATE=$WORK/gate
gated() {
	until [ -e "$GATE" ]; do sleep 0.05; done
}
GATED="until [ -e '$GATE' ]; do sleep 0.05; done"	# the same, in a string
open_gate() { : >"$GATE"; }
close_gate() { rm -f "$GATE"; }

# A pipeline for --pipeline's tests, run by sh.
# stages SH: the PIDs of the pipeline sh runs, in its order (its children)
stages() {
	# shellcheck disable=SC2046
	set -- $(cat "/proc/$1/task/$1/children" 2>/dev/null)
	echo "$*"
}
# execd SH N: sh's N children have each become their command: until then
# one may not hold its pipes yet
execd() {
	set -- "$(stages "$1")" "$2"
	[ "$(echo $1 | wc -w)" -eq "$2" ] || return 1
	for pid in $1; do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != sh ] || return 1
	done
}

# -d's tests watch the helper's stepped reader.  start_reader: the
# reader, listening on fd 3 (which the watchers must not hold open: the
# reader ends when the test closes it); its pid in $reader.
start_reader() {
	rm -f "$WORK/ctl" "$WORK/ack"
	mkfifo "$WORK/ctl"
	: >"$WORK/ack"
	"$HELPER" reader <"$WORK/ctl" >"$WORK/ack" &
	reader=$!
	exec 3>"$WORK/ctl"
	acks=0
}
acked() { [ "$(wc -l <"$WORK/ack")" -ge "$1" ]; }
# say COMMAND: tells the reader, and waits until it has done it
say() {
	echo "$*" >&3
	acks=$((acks + 1))
	wait_until 60 acked $acks || fail "the reader did not answer: $*"
}
answer() { tail -n 1 "$WORK/ack"; }

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

# Terminal tests: a 100x30 tmux terminal running bash (or SHELL ARGS...,
# which must prompt with its PS1 of "$ "), gone at exit.
tmux_session() {
	need tmux
	[ $# -gt 0 ] || set -- bash --norc --noprofile
	sock="tach-test-$$"
	trap 'tmx kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
	tmx -f /dev/null new-session -d -x 100 -y 30 \
	    "env -i PATH='$PATH' TERM=screen LC_ALL=C.UTF-8 HOME='$WORK' HISTFILE=/dev/null PS1='$ ' $*"
	wait_for '$' 60 || { echo "tmux: no prompt" >&2; exit 1; }
}
tmx() { tmux -L "$sock" "$@"; }
# fresh_screen: the screen cleared, its history gone and the prompt alone
# on it, so that a wait_for cannot be met by what the last command left
# (its "rc=0"), as it could with "clear; cmd" typed in one line
prompt_alone() { [ "$(tmx capture-pane -p | grep -v '^$')" = '$' ]; }
fresh_screen() {
	run clear
	wait_until 60 prompt_alone || fail "the screen would not clear"
	tmx clear-history
}
screen() { tmx capture-pane -p -J "$@"; }
cursor() { tmx display-message -p '#{cursor_flag}'; }
run() { tmx send-keys -l "$*"; tmx send-keys Enter; }
# snap FILE: the screen, saved in FILE for lacks and grep.
snap() { screen "$@" >"$WORK/snap" && cat "$WORK/snap"; }
# shows TEXT: the screen shows TEXT.
shows() { screen | grep -qF -- "$1"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT (60 s unless
# told).  TEXT must not be in the typed command line itself.  When it
# gives up, the screen is printed, so that a failure says what was shown.
wait_for() {
	wait_until "${2:-60}" shows "$1" && return 0
	echo "the screen instead:" >&2
	screen | sed 's/^/| /' >&2
	return 1
}
# changes TEXT [SECONDS]: the line showing TEXT changes from what it is now.
line_of() { screen | grep -F -- "$1"; }
line_differs() { [ "$(line_of "$1")" != "$2" ]; }
changes() {
	was=$(line_of "$1")
	wait_until "${2:-60}" line_differs "$1" "$was"
}
