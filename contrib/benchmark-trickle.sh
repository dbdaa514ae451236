#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A trickle through a buffer: 64-byte writes, a thousand a second for 10 s,
# into each candidate, whose own CPU time is what is measured (wait4's
# rusage, to the microsecond); the candidates alternated round by round,
# medians reported (doc/PERFORMANCE.md, "A trickle").
#
#   contrib/benchmark-trickle.sh [-r ROUNDS] [-o FILE] [TACH]
set -eu

rounds=5
needs="mbuffer pv python3"
. "$(dirname "$0")/benchmark-lib.sh"

# the candidates, one a line: a name, then the command
candidates="cat cat
mbuffer mbuffer -q -m 64M
pv pv -q -B 64M
tach $tach -q
tach-b $tach -q -b 64M"

# CMD...: its CPU milliseconds over the trickle; exits 1 if a byte is lost
trickle='
import os, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE,
    stdout=subprocess.PIPE)
r, w = p.stdout.fileno(), p.stdin.fileno()
os.set_blocking(r, False)
got, due = 0, time.monotonic()
for i in range(10000):
    os.write(w, b"x" * 64)
    due += 0.001
    while time.monotonic() < due:
        try:
            got += len(os.read(r, 1 << 20))
        except BlockingIOError:
            time.sleep(0.0002)
p.stdin.close()
os.set_blocking(r, True)
while (b := os.read(r, 1 << 20)):
    got += len(b)
_, status, use = os.wait4(p.pid, 0)
if got != 640000 or status != 0:
    sys.exit("lost bytes: %d of 640000" % got)
print("%.1f" % ((use.ru_utime + use.ru_stime) * 1000))
'

for round in $(seq "$rounds"); do
	while read -r name cmd; do
		# (stdin is the list: the candidate gets none of it)
		echo "$name $(python3 -c "$trickle" $cmd </dev/null)" >>"$results"
	done <<<"$candidates"
done

awk "$awk_median"'
{ v[$1] = v[$1] " " $2 }
END { for (k in v) printf "%-8s %8.1f ms of CPU\n", k, median(v[k]) }
' "$results" | sort >&4
