#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The watch's last word over many runs (doc/PERFORMANCE.md, "Watching a
# process"): each copy tool is started in the background of this shell
# (which reaps it at once, as an interactive shell does) and watched by
# tach -d PID from its first moment; after a complete copy, the last line
# (the tree's, or dd's input's) must read 100% or say how old its figure
# is.  A short line without its age is a lie, counted as "short".
#
#   contrib/watch-trials.sh [-r RUNS] [TACH]
#   (KINDS="cp tar" for some; under ../shared/tools/busy for load)
set -eu

runs=20
while getopts r: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [TACH]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tach=$(realpath "${1:-build/tach}")
for tool in cp rsync tar dd python3; do
	command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/tach-trials.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
# 600 files of 4 KiB to 1 MiB, in 20 folders; one file of 512 MiB for dd
python3 -c 'import os, random
random.seed(7)
for i in range(600):
    d = "src/d%d" % (i % 20)
    os.makedirs(d, exist_ok=True)
    with open("%s/f%d" % (d, i), "wb") as f:
        f.write(os.urandom(random.randint(4096, 1 << 20)))'
head -c 512M /dev/urandom >big

# KIND: the copy, started in the background; its PID in $copier
start() {
	rm -rf dst dst.tar out
	case $1 in
	cp) cp -r src dst & ;;
	cp-rw) cp -r --reflink=never src dst & ;;
	rsync-slash) mkdir dst; rsync -a src/ dst/ & ;;
	rsync) mkdir dst; rsync -a src dst/ & ;;
	tar) tar cf dst.tar src & ;;
	dd) dd if=big of=out bs=1M status=none & ;;
	esac
	copier=$!
}

# the last line's word: 100, aged, short, or none (no line at all)
verdict() {
	local line
	if [ "$1" = dd ]; then
		line=$(grep '"path":"[^"]*/big"' json | grep '"final":true' | tail -n 1)
	else
		line=$(grep '"whole":true' json | tail -n 1)
	fi
	case $line in
	'') echo none ;;
	*'"percent":100.00'*) echo 100 ;;
	*'"sample_age"'*) echo aged ;;
	*) echo short ;;
	esac
}

printf '%-12s %5s %5s %5s %5s %5s\n' kind runs 100% aged short none
for kind in ${KINDS:-cp cp-rw rsync-slash rsync tar dd}; do
	declare -A n=([100]=0 [aged]=0 [short]=0 [none]=0)
	for ((i = 0; i < runs; i++)); do
		start "$kind"
		# the watch ends with the process; it may have ended first
		"$tach" -d "$copier" --format json 2>json || true
		wait "$copier"
		v=$(verdict "$kind")
		n[$v]=$((n[$v] + 1))
	done
	printf '%-12s %5d %5d %5d %5d %5d\n' "$kind" "$runs" "${n[100]}" \
	    "${n[aged]}" "${n[short]}" "${n[none]}"
	unset n
done
