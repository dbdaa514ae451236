# SPDX-License-Identifier: BSD-2-Clause
# covers: exact bytes through every descriptor combination, every tier,
# several buffer sizes, and the sizes around page and buffer boundaries.
. "$(dirname "$0")/lib.sh"

# The default buffers for pipes (st_blksize 4096): 1 MiB with splice,
# 256 KiB with read/write; 64 KiB is a pipe's own size.
mkdir "$WORK/in"
for n in 0 1 4095 4096 4097 65535 65536 65537 262143 262144 262145 \
    1048575 1048576 1048577 $((9 * 1048576 + 3)); do
	random "$WORK/in/$n" "$n"
done

out=$WORK/out
# through MODE FILE ARGS...: FILE through tach in MODE into $out.
through() {
	mode=$1 file=$2
	shift 2
	rm -f "$out"
	case $mode in
	pipe-pipe) cat "$file" | "$TACH" "$@" | cat >"$out" ;;
	file-pipe) "$TACH" "$@" <"$file" | cat >"$out" ;;
	pipe-file) cat "$file" | "$TACH" "$@" >"$out" ;;
	file-file) "$TACH" "$@" <"$file" >"$out" ;;
	socket-pipe) "$HELPER" socket-in "$file" "$TACH" "$@" | cat >"$out" ;;
	file-socket) "$HELPER" socket-out "$out" "$TACH" "$@" <"$file" ;;
	esac
}

for opts in "" "--no-splice" "-b 1" "-b 4097" "-b 64k" "-b 2x64k" "-b 1m"; do
	for f in "$WORK"/in/*; do
		n=$(basename "$f")
		# one byte a call is slow; the small sizes say all it can
		case "$opts" in "-b 1") [ "$n" -gt 300000 ] && continue ;; esac
		for mode in pipe-pipe file-pipe pipe-file file-file \
		    socket-pipe file-socket; do
			# shellcheck disable=SC2086
			through $mode "$f" -q $opts
			check "$mode $n bytes, options '$opts'" cmp -s "$f" "$out"
		done
	done
done

# /dev/zero into a pipe, cut by head: exact bytes.
head -c 5000003 /dev/zero >"$WORK/zero"
for opts in "" "--no-splice" "-b 4097"; do
	# shellcheck disable=SC2086
	"$TACH" -q $opts </dev/zero | head -c 5000003 >"$out"
	check "/dev/zero -> pipe, options '$opts'" cmp -s "$WORK/zero" "$out"
done

# Appending to a file: copy_file_range cannot, the fallback must.
printf 'head\n' >"$out"
"$TACH" -q <"$WORK/in/4097" >>"$out"
{ printf 'head\n'; cat "$WORK/in/4097"; } | cmp -s - "$out"
check "append to a file" [ $? -eq 0 ]

# Reading from the middle of a file starts where the offset is.
( head -c 1000 >/dev/null; "$TACH" -q >"$out" ) <"$WORK/in/4097"
tail -c +1001 "$WORK/in/4097" | cmp -s - "$out"
check "input offset respected" [ $? -eq 0 ]

done_testing
