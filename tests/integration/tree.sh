# SPDX-License-Identifier: BSD-2-Clause
# covers: the source tree's own rules: an SPDX line at the top of every
# source, header, script and CMakeLists.txt, and a covers: line naming
# what each integration script holds
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

done_testing
