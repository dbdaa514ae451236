# SPDX-License-Identifier: BSD-2-Clause
# covers: command mode, progress(1)'s way: feed cmd, pass its exit status
# on, decompress with -z, and all of it again through a "progress" link.
. "$(dirname "$0")/lib.sh"

out=$WORK/out
err=$WORK/err
random "$WORK/data" 2000003
ln -s "$TACH" "$WORK/progress"

for prog in "$TACH" "$WORK/progress"; do
	name=$(basename "$prog")
	q=-q
	[ "$name" = progress ] && q=-e	# progress(1) has no -q; stderr is no tty
	# Exact bytes into cmd, from -f and from stdin, in each tier.
	for opts in "" --no-splice -b4097; do
		[ "$name" = progress ] && [ "$opts" = --no-splice ] && continue
		$prog $q $opts -f "$WORK/data" cat >"$out" 2>"$err"
		check "$name $opts: -f into cmd exact" cmp -s "$WORK/data" "$out"
		$prog $q $opts cat <"$WORK/data" >"$out" 2>"$err"
		check "$name $opts: stdin file into cmd exact" cmp -s "$WORK/data" "$out"
		cat "$WORK/data" | $prog $q $opts cat >"$out" 2>"$err"
		check "$name $opts: stdin pipe into cmd exact" cmp -s "$WORK/data" "$out"
	done
	# Options after cmd are cmd's.
	printf 'a\nb\n' | $prog $q cat -n >"$out"
	check "$name: options after cmd go to cmd" \
	    [ "$(cat "$out")" = "$(printf '     1\ta\n     2\tb')" ]
	# cmd's exit status.
	printf x | $prog $q sh -c 'cat >/dev/null; exit 3'
	check "$name: exit status of cmd" [ $? -eq 3 ]
	# cmd killed by a signal: tach dies of it (128+N in the shell).
	printf x | $prog $q sh -c 'cat >/dev/null; kill -TERM $$'
	check "$name: cmd killed by SIGTERM gives 143" [ $? -eq 143 ]
	# cmd stops reading early and then succeeds: its status, 0, after
	# it is reaped (progress(1) dies of SIGPIPE here).
	yes | $prog $q sh -c 'head -c 10 >/dev/null; exec 0<&-; sleep 0.5; echo done >"$0"' "$WORK/marker"
	status=$?
	check "$name: early stop, cmd exits 0, gives 0 (got $status)" [ $status -eq 0 ]
	check "$name: cmd reaped before tach ended" [ -f "$WORK/marker" ]
	rm -f "$WORK/marker"
	# Not found and not executable.
	$prog $q no-such-command-tach </dev/null 2>"$err"
	check "$name: not found gives 127" [ $? -eq 127 ]
	check "$name: not found names it" grep -qF "no-such-command-tach" "$err"
	printf '#!/bin/sh\n' >"$WORK/noexec"
	chmod 644 "$WORK/noexec"
	$prog $q "$WORK/noexec" </dev/null 2>"$err"
	check "$name: not executable gives 126" [ $? -eq 126 ]
	# a path through a file, not a directory: not found (ENOTDIR)
	$prog $q "$WORK/noexec/cmd" </dev/null 2>"$err"
	check "$name: a path through a file gives 127 ($?)" [ $? -eq 127 ]
	check "…and names it" grep -qF "$WORK/noexec/cmd" "$err"
	# A missing -f file: message, exit 1, cmd never started.
	$prog $q -f "$WORK/missing" touch "$WORK/started" 2>"$err"
	check "$name: missing -f exits 1" [ $? -eq 1 ]
	check "$name: missing -f: cmd not started" [ ! -e "$WORK/started" ]
	check "$name: missing -f: message" grep -qF "$WORK/missing" "$err"
	# progress(1)'s number messages.
	$prog -b abc cat </dev/null 2>"$err"
	check "$name: -b abc exits 1" [ $? -eq 1 ]
	check "$name: -b abc message" \
	    grep -qF "$name: buffer size \`abc': illegal number" "$err"
	$prog -l 1q cat </dev/null 2>"$err"
	check "$name: -l 1q message" grep -qF "input size \`1q': illegal number" "$err"
	# No descriptor of tach's leaks into cmd: it sees what tach was given.
	want=$(ls /proc/self/fd </dev/null | tr '\n' ' ')
	fds=$($prog $q -f "$WORK/data" ls /proc/self/fd | tr '\n' ' ')
	check "$name: no descriptor leaks into cmd ($fds vs $want)" \
	    [ "$fds" = "$want" ]
	# cmd stays in tach's process group, and starts with default signal
	# dispositions (the same ignored set as without tach).
	pg=$($prog $q sh -c 'cut -d" " -f5 /proc/$$/stat; cut -d" " -f5 /proc/$PPID/stat' </dev/null | uniq | wc -l)
	check "$name: cmd in tach's process group" [ "$pg" -eq 1 ]
	want=$(grep SigIgn /proc/self/status)
	force=--force
	[ "$name" = progress ] && force=	# progress(1) has no --force
	got=$($prog $force -e grep SigIgn /proc/self/status </dev/null 2>/dev/null)
	check "$name: signal dispositions reset ($got)" [ "$got" = "$want" ]
done

# progress requires cmd; tach does not.
"$WORK/progress" </dev/null >"$out" 2>"$err"
check "progress without cmd exits 1" [ $? -eq 1 ]
check "progress without cmd prints usage" grep -q "usage: progress" "$err"

# -z: every format whose tool is here, from a file and from a pipe.
for tool in gzip bzip2 xz zstd lz4; do
	command -v $tool >/dev/null || { echo "no $tool: not tested" >&2; continue; }
	$tool -c <"$WORK/data" >"$WORK/data.$tool"
	for prog in "$TACH" "$WORK/progress"; do
		name=$(basename "$prog")
		$prog -e -zf "$WORK/data.$tool" cat >"$out" 2>"$err"
		check "$name -zf .$tool exact" cmp -s "$WORK/data" "$out"
		cat "$WORK/data.$tool" | $prog -e -z cat >"$out" 2>"$err"
		check "$name -z .$tool from a pipe exact" cmp -s "$WORK/data" "$out"
	done
	"$TACH" -q -z <"$WORK/data.$tool" >"$out"
	check "tach -z .$tool as a filter exact" cmp -s "$WORK/data" "$out"
	cat "$WORK/data.$tool" | "$TACH" -q -z >"$out"
	check "tach -z .$tool as a filter from a pipe exact" cmp -s "$WORK/data" "$out"
done
# Short or empty input still reaches gzip, which says what is wrong.
printf 'ab' | "$TACH" -q -z >"$out" 2>"$err"
check "-z on 2 bytes of junk fails" [ $? -ne 0 ]
check "-z on junk: gzip says why" grep -q "gzip" "$err"
# A corrupt stream: the decompressor's failure is tach's.
head -c 1000 "$WORK/data.gzip" | "$TACH" -q -z cat >"$out" 2>"$err"
check "-z truncated gzip fails" [ $? -ne 0 ]

# A missing decompressor: a clear message, cmd's data untouched.
mkdir "$WORK/bin"
ln -s "$(command -v cat)" "$WORK/bin/cat"
xz -c <"$WORK/data" >"$WORK/data.xz" 2>/dev/null || printf '\3757zXZ\0junk' >"$WORK/data.xz"
PATH=$WORK/bin "$TACH" -q -zf "$WORK/data.xz" cat >"$out" 2>"$err"
check "missing decompressor exits non-zero" [ $? -ne 0 ]
check "missing decompressor is named" grep -qF "xz" "$err"

# A file name a shell would run: tach never runs a shell.
cp "$WORK/data.gzip" "$WORK/in;touch PWNED;x.gz"
(cd "$WORK" && "$TACH" -q -zf 'in;touch PWNED;x.gz' cat >"$out" 2>"$err")
check "no shell ran the file name" [ ! -e "$WORK/PWNED" ]
check "the oddly named file decompressed" cmp -s "$WORK/data" "$out"
(cd "$WORK" && ./progress -e -zf 'in;touch PWNED;x.gz' cat >"$out" 2>"$err")
check "progress: no shell ran the file name" [ ! -e "$WORK/PWNED" ]

# A parent that ignores SIGCHLD (bash's trap '' CHLD, passed on by exec):
# the children are still waited for, cmd's status and -z's end are kept,
# and cmd gets the parent's choice back.
gzip -c <"$WORK/data" >"$WORK/data.gz"
bash -c "trap '' CHLD; exec \"\$0\" -q -f \"\$1\" sh -c 'cat >/dev/null; exit 3'" \
    "$TACH" "$WORK/data" 2>"$err"
check "SIGCHLD ignored: cmd's status, 3 ($?)" [ $? -eq 3 ]
lacks "SIGCHLD ignored: no message" "$err" "waitpid"
bash -c "trap '' CHLD; exec \"\$0\" -q -z -f \"\$1\"" "$TACH" "$WORK/data.gz" \
    >"$out" 2>"$err"
check "SIGCHLD ignored: -z exits 0 ($?)" [ $? -eq 0 ]
check "SIGCHLD ignored: -z exact" cmp -s "$WORK/data" "$out"
mask=$(bash -c "trap '' CHLD; exec \"\$0\" -q -f /dev/null grep SigIgn /proc/self/status" \
    "$TACH" | awk '{ print $2 }')
check "SIGCHLD ignored: so it stays in cmd ($mask)" \
    [ $(( 0x${mask:-0} & (1 << 16) )) -ne 0 ]	# SIGCHLD, 17 on Linux
# Those tach catches only for a bar (read at the start, not caught): the
# parent's choice reaches cmd all the same.
mask=$(bash -c "trap '' WINCH TSTP; exec \"\$0\" -q -f /dev/null grep SigIgn /proc/self/status" \
    "$TACH" | awk '{ print $2 }')
check "SIGWINCH and SIGTSTP ignored: so they stay in cmd ($mask)" \
    [ $(( 0x${mask:-0} & (1 << 27 | 1 << 19) )) -eq $(( 1 << 27 | 1 << 19 )) ]

done_testing
