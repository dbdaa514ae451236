# SPDX-License-Identifier: BSD-2-Clause
# covers: files over 4 GiB, which a 32-bit build without 64-bit offsets
# cannot open, size or watch: a 5 GiB sparse file (no disk space used)
# through -f, -l @FILE, stdin, -d PID and -d PID:FD, in every build variant.
. "$(dirname "$0")/lib.sh"

big=$WORK/big
truncate -s 5G "$big" || skip "no sparse files here"
five=5368709120
err=$WORK/err

# final FIELD: the last JSON object's FIELD
final() {
	tail -n 1 "$err" | sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p"
}

"$TACH" -q --format json -f "$big" >/dev/null 2>"$err"
check "-f 5 GiB: exit 0 ($(head -c 200 "$err"))" [ $? -eq 0 ]
check "-f 5 GiB: every byte" [ "$(final bytes)" = $five ]
check "-f 5 GiB: its size" [ "$(final size)" = $five ]
check "-f 5 GiB: complete" [ "$(final result)" = '"complete"' ]

"$TACH" --format json -l @"$big" </dev/null >/dev/null 2>"$err"
check "-l @5 GiB: the size" [ "$(final size)" = $five ]

"$TACH" --format json <"$big" 2>"$err" | cksum >"$WORK/sum"
check "stdin 5 GiB: the size" [ "$(final size)" = $five ]
check "stdin 5 GiB: every byte" [ "$(final bytes)" = $five ]
head -c $five /dev/zero | cksum >"$WORK/want"
check "stdin 5 GiB: exact" cmp -s "$WORK/want" "$WORK/sum"

# -d: a reader 4.5 GiB into the file (past 2^32), by PID and by PID:FD
if [ "$(uname)" = Linux ]; then
	start_reader
	say "open $big"
	fd=$(answer)
	say "read $fd 4831838208"
	for target in "$reader" "$reader:$fd"; do
		rm -f "$err"
		"$TACH" -d "$target" --format json -i 0.05 2>"$err" 3>&- &
		watcher=$!
		check "-d $target: 4.5 GiB in, of 5" wait_until 60 grep -q \
		    "\"fd\":$fd,\"path\":\"$big\",.*\"bytes\":4831838208,.*\"size\":$five,\"percent\":90.00" \
		    "$err"
		kill -TERM $watcher
		wait $watcher
	done
	exec 3>&-
	wait "$reader"
fi

done_testing
