# SPDX-License-Identifier: BSD-2-Clause
# Shared by the packaging tests (tests/integration/packaging.sh and
# tests/packaging/build.sh): sourced after lib.sh, never run.  One build
# of tach serves every layout: the install's directories and switches do
# not reach the compiler, so reconfiguring for each compiles nothing again.
: "${SOURCE_DIR:?SOURCE_DIR must name the source tree}"
contrib=$SOURCE_DIR/contrib
layout_build=$WORK/build-layout

# configure_install PREFIX MANDIR LINKS [CMAKE-ARGS...]: the shared build,
# set up for that install (each setting given anew: the cache keeps the
# last call's otherwise) and built.
configure_install() {
	_c_prefix=$1 _c_mandir=$2 _c_links=$3
	shift 3
	cmake -S "$SOURCE_DIR" -B "$layout_build" -DBUILD_TESTING=OFF \
	    -DCMAKE_INSTALL_BINDIR=bin -DTACH_INSTALL_DOCS=ON \
	    -DCMAKE_INSTALL_PREFIX="$_c_prefix" \
	    -DCMAKE_INSTALL_MANDIR="$_c_mandir" \
	    -DTACH_PROGRESS_LINKS="$_c_links" "$@" >/dev/null &&
	    cmake --build "$layout_build" >/dev/null
}

# layout PREFIX MANDIR LINKS [CMAKE-ARGS...]: the files an install lays
# out, one a line.
layout() {
	# (called in $(...): a counter would not outlive the call)
	_l_root=$(mktemp -d "$WORK/layout.XXXXXX")
	configure_install "$@" &&
	    DESTDIR="$_l_root" cmake --install "$layout_build" >/dev/null &&
	    (cd "$_l_root$1" && find . \( -type f -o -type l \) |
	    sed 's|^\./||' | sort)
}

# same NAME EXPECTED ACTUAL: the two lists are equal.
same() {
	if [ "$2" = "$3" ]; then
		pass
	else
		fail "$1 file list differs from cmake --install:"
		printf '%s\n' "$2" >"$WORK/want"
		printf '%s\n' "$3" >"$WORK/got"
		diff -u "$WORK/want" "$WORK/got" >&2
	fi
}

# The RPM's files: a /usr install without the docs, which %license and
# %doc take from the source tree.
rpm_layout() {
	{ layout /usr share/man OFF -DTACH_INSTALL_DOCS=OFF
	    echo share/licenses/tach/LICENSE; echo share/doc/tach/README.md; } |
	    sort
}

# makepkg_usable: makepkg can run here; makepkg without pacman is a
# clear skip outside CI, a failure in it
makepkg_usable() {
	command -v makepkg >/dev/null && command -v bsdtar >/dev/null ||
	    return 1
	command -v pacman >/dev/null && return 0
	if [ "${CI:-}" = true ]; then
		fail "makepkg is here but pacman is not (contrib/deps.sh --test installs it)"
	else
		echo "skipped: no pacman, so makepkg cannot run" >&2
	fi
	return 1
}

# release_tarball DIR: contrib/release-checksums run in a clone at DIR,
# which it leaves with the tarball's sums in its recipes; the tarball is
# DIR.dist/tach-0.1.0.tar.gz.
release_tarball() {
	git clone -q "$SOURCE_DIR" "$1" &&
	    (cd "$1" && contrib/release-checksums -o "$1.dist" >/dev/null)
}
