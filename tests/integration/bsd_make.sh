# SPDX-License-Identifier: BSD-2-Clause
# covers: contrib/bsd/Makefile: tach built as a BSD source tree builds it,
# with bsd.prog.mk (Debian's bmake and its mk files), in an object directory
# of the test's own: it builds, copies exactly, and lists every source the
# CMake build compiles for this system but the zero-copy tier.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the Makefile's Linux branch is what runs here"
need bmake pkg-config cc

mkdir "$WORK/obj"
MAKEOBJDIR=$WORK/obj bmake -C "$SOURCE_DIR/contrib/bsd" \
    TACHSRC="$SOURCE_DIR" >"$WORK/log" 2>&1
check "bmake builds tach ($(tail -n 3 "$WORK/log" | tr '\n' ' '))" \
    [ -x "$WORK/obj/tach" ]
check "nothing is left in contrib/bsd" sh -c \
    "[ \"\$(ls '$SOURCE_DIR/contrib/bsd')\" = Makefile ]"

random "$WORK/data" 3000007
"$WORK/obj/tach" -q <"$WORK/data" | cat >"$WORK/out"
check "it copies exactly" cmp -s "$WORK/data" "$WORK/out"
check "its version is the CMake build's" [ "$("$WORK/obj/tach" --version)" = \
    "$("$TACH" --version)" ]

# every source of the program: all of src/ but the other systems' files
# and the zero-copy tier
srcs=$(MAKEOBJDIR=$WORK/obj bmake -C "$SOURCE_DIR/contrib/bsd" \
    TACHSRC="$SOURCE_DIR" -V SRCS)
missing=
for f in "$SOURCE_DIR"/src/*.c "$SOURCE_DIR"/src/*/*.c; do
	f=${f##*/}
	case $f in
	zerocopy_linux.c|compat_pipes_linux.c|procfd_freebsd.c|procfd_netbsd.c|procfd_darwin.c|\
	procfd_none.c|compat_darwin.c|compat_unix.c|compat_reallocarray.c|\
	digest_none.c|procfd_nowhole.c|procpipe_none.c) continue ;;
	esac
	case " $srcs " in *" $f "*) ;; *) missing="$missing $f" ;; esac
done
check "SRCS lists every source (missing:${missing:- none})" [ -z "$missing" ]
# and each BSD's branch names files that are there
for os in FreeBSD NetBSD Darwin; do
	absent=
	for f in $(bmake -C "$SOURCE_DIR/contrib/bsd" TACHSRC="$SOURCE_DIR" \
	    OPSYS=$os -V SRCS); do
		set -- "$SOURCE_DIR"/src/$f "$SOURCE_DIR"/src/*/$f
		[ -f "$1" ] || [ -f "$2" ] || absent="$absent $f"
	done
	check "$os's SRCS are all there (absent:${absent:- none})" [ -z "$absent" ]
done

done_testing
