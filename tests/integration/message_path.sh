# SPDX-License-Identifier: BSD-2-Clause
# covers: one message path: no source writes a warning or an error but
# through the reporter (message.c), which ends the bar's line first and,
# under --format json, writes an object.  err(3), warn(3) and their kin, and
# perror, may appear nowhere else; stderr is written directly only by the
# reporter, the usage text and the child's last words before exec.
. "$(dirname "$0")/lib.sh"

src=$SOURCE_DIR/src
calls=$(grep -nE '(^|[^_[:alnum:]])(err|errx|errc|warn|warnx|warnc|verr|verrx|vwarn|vwarnx|perror)\(' \
    "$src"/*.c "$src"/*/*.c | grep -v '^[^:]*/message\.c:' || true)
check "no err(3) or warn(3) call outside the reporter: ${calls:-none}" \
    [ -z "$calls" ]
direct=$(grep -nE 'f(printf|puts)\(stderr|putc\([^,]*, *stderr' "$src"/*.c "$src"/*/*.c |
    grep -vE '^[^:]*/(message|report|help)\.c:' || true)
check "stderr written only by the reporter and the usage: ${direct:-none}" \
    [ -z "$direct" ]

# the path works: a message under --format json is an object, and plain
# it is "tach: " and the text
"$TACH" --format json -f "$WORK/missing" 2>"$WORK/err"
check "a message under --format json is an object" grep -qxF \
    "{\"message\":\"$WORK/missing: No such file or directory\"}" "$WORK/err"
"$TACH" -f "$WORK/missing" 2>"$WORK/err"
check "a plain message" grep -qxF \
    "tach: $WORK/missing: No such file or directory" "$WORK/err"

done_testing
