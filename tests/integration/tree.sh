# SPDX-License-Identifier: BSD-2-Clause
# covers: the source tree's own rules: an SPDX line at the top of every
# source, header, script and CMakeLists.txt, and a covers: line naming
# what each integration script holds; no function in src/ over 60 lines,
# its type's line to its closing brace (KNF: both at the line's start);
# no function name defined in two files, each system's twins aside;
# every file that calls what the compat layer supplies (reallocarray,
# missing from macOS) includes its header
. "$(dirname "$0")/lib.sh"

cd "$SOURCE_DIR"
find CMakeLists.txt src include tests contrib -name corpus -prune -o \
    -type f \( -name '*.[ch]' -o -name '*.in' -o -name '*.sh' \
    -o -name CMakeLists.txt -o -name '*.bash' -o -name '*.fish' \
    -o -name '_tach' -o -name '_progress' \) -print >"$WORK/files"
for f in tests/run-all tests/mutants tests/cross-build tests/fresh-root \
    contrib/deps.sh contrib/tach-sweep contrib/release-checksums; do
	[ -e "$f" ] && echo "$f"
done >>"$WORK/files"
check "the tree has sources to look at" [ "$(wc -l <"$WORK/files")" -gt 100 ]
while read -r f; do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-2-Clause' ||
	    echo "$f"
done <"$WORK/files" >"$WORK/no-spdx"
check "an SPDX line in every file: $(tr '\n' ' ' <"$WORK/no-spdx")" \
    [ ! -s "$WORK/no-spdx" ]

for f in tests/integration/*.sh; do
	[ "$f" = tests/integration/lib.sh ] && continue
	sed -n 2p "$f" | grep -q '^# covers: .' || echo "$f"
done >"$WORK/no-covers"
check "a covers: line in every script: $(tr '\n' ' ' <"$WORK/no-covers")" \
    [ ! -s "$WORK/no-covers" ]

find src -name '*.c' -exec awk '
    FNR == 1 { name = "" }
    /^[A-Za-z_][A-Za-z0-9_]*\(/ {
	name = FILENAME ":" FNR ":" substr($0, 1, index($0, "(") - 1)
	start = FNR - 1
    }
    /^}/ && name != "" {
	if (FNR - start + 1 > 60)
		print name " (" FNR - start + 1 " lines)"
	name = ""
    }' {} + >"$WORK/long"
check "functions found to measure" [ "$(find src -name '*.c' -exec grep -c '^{' {} + |
    awk -F: '{ n += $NF } END { print (n > 400) }')" = 1 ]
check "no function over 60 lines: $(tr '\n' ' ' <"$WORK/long")" \
    [ ! -s "$WORK/long" ]

# each system's twins: compat/'s files, watch/'s procfd_*.c and
# procpipe_*.c, one built; and engine/digest*.c, one built as libcrypto
# is there or not
find src -name '*.c' -exec awk '
    /^[A-Za-z_][A-Za-z0-9_]*\(/ {
	twin = FILENAME ~ /compat\/|procfd_|procpipe_|engine\/digest/
	print substr($0, 1, index($0, "(") - 1), FILENAME, twin
    }' {} + | sort | awk '
    $1 == last && !(twin && $3) { print $1 " (" file ", " $2 ")" }
    { last = $1; file = $2; twin = $3 }' >"$WORK/twice"
check "no function name defined in two files: $(tr '\n' ' ' <"$WORK/twice")" \
    [ ! -s "$WORK/twice" ]

# Linux and the BSDs declare reallocarray in stdlib.h: only macOS's
# cross build would see a file that forgets compat.h
grep -rl 'reallocarray(' src | grep -v '^src/compat/' |
    xargs grep -L '#include "tach/compat.h"' >"$WORK/no-compat" || :
check "compat.h where reallocarray is called: $(tr '\n' ' ' <"$WORK/no-compat")" \
    [ ! -s "$WORK/no-compat" ]

done_testing
