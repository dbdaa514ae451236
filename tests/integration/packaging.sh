# SPDX-License-Identifier: BSD-2-Clause
# covers: what `cmake --install` lays out, against every packaging recipe's
# file list and rules; the progress links, the install hints and
# reproducible builds; the release checksums; the man page's lint.  Each
# distribution's package is built from the release tarball by
# tests/packaging/build.sh, a test of its own (package_rpm, package_arch,
# package_alpine, package_deb).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../packaging/common.sh"

# FreeBSD: pkg-plist plus the PROGRESS option's files; man pages get .gz.
got=$(layout /usr/local share/man ON)
want=$( { sed -e 's/%%PORTDOCS%%//' -e 's|%%DOCSDIR%%|share/doc/tach|' \
    "$contrib/freebsd/pkg-plist"
    awk '/^PROGRESS_PLIST_FILES=/ { on = 1; sub(/^[^=]*=/, "") }
	on { more = sub(/\\$/, ""); print; if (!more) on = 0 }' \
	"$contrib/freebsd/Makefile" | tr -s ' \t' '\n' | grep -v '^$'; } |
    sed 's/\.gz$//' | sort)
same FreeBSD "$want" "$got"
# FreeBSD with DOCS off: the %%PORTDOCS%% lines are not installed
got=$(layout /usr/local share/man OFF -DTACH_INSTALL_DOCS=OFF)
want=$(grep -v '%%PORTDOCS%%' "$contrib/freebsd/pkg-plist" | sed 's/\.gz$//' | sort)
same "FreeBSD, DOCS off" "$want" "$got"
check "FreeBSD: PROGRESS is not a default option" \
    sh -c '! grep -q "^OPTIONS_DEFAULT=.*PROGRESS" "$1"' sh "$contrib/freebsd/Makefile"
check "FreeBSD: PROGRESS conflicts with sysutils/progress" \
    grep -q '^PROGRESS_VARS=.*CONFLICTS_INSTALL=progress' "$contrib/freebsd/Makefile"

# pkgsrc: PLIST, with man pages under PKGMANDIR (man), no progress links
# (NetBSD's own progress is in base); cmake/build.mk takes
# CMAKE_CONFIGURE_ARGS and must come before any buildlink3.mk.
mk=$contrib/pkgsrc/Makefile
got=$(layout /usr/pkg man OFF)
want=$(grep -v '^@comment' "$contrib/pkgsrc/PLIST" | sort)
same pkgsrc "$want" "$got"
check "pkgsrc: CMAKE_CONFIGURE_ARGS, not CMAKE_ARGS" \
    sh -c '! grep -q "^CMAKE_ARGS" "$1" && grep -q "^CMAKE_CONFIGURE_ARGS" "$1"' sh "$mk"
check "pkgsrc: cmake/build.mk before any buildlink3.mk" [ \
    "$(grep -n -e 'cmake/build.mk' -e 'buildlink3.mk' "$mk" | head -n 1 |
    grep -c cmake/build.mk)" -eq 1 ]
check "pkgsrc: the man directory set once" \
    [ "$(grep -c CMAKE_INSTALL_MANDIR "$mk")" -eq 1 ]
check "pkgsrc: terminfo through terminfo.buildlink3.mk" \
    grep -q '^\.include "../../mk/terminfo.buildlink3.mk"' "$mk"
lacks "pkgsrc: no progress links" "$mk" 'PROGRESS_LINKS=ON'

# RPM: %files with the macros expanded for prefix /usr; %license and %doc
# take the files from the source tree.
spec=$contrib/rpm/tach.spec
rpm_layout=$(rpm_layout)
want=$(sed -n '/^%files/,/^%changelog/p' "$spec" |
    grep -v -e '^%files' -e '^%changelog' -e '^$' |
    sed -e 's|^%license |share/licenses/tach/|' -e 's|^%doc |share/doc/tach/|' \
	-e 's|%{_bindir}|bin|' -e 's|%{_mandir}|share/man|' \
	-e 's|%{bash_completions_dir}|share/bash-completion/completions|' \
	-e 's|%{zsh_completions_dir}|share/zsh/site-functions|' \
	-e 's|%{fish_completions_dir}|share/fish/vendor_completions.d|' \
	-e 's/\*$//' | sort)
same RPM "$want" "$rpm_layout"
check "RPM: Source0 is a URL" grep -q '^Source0: *%{url}releases/' "$spec"
check "RPM: the completions go where the distribution's macros say" sh -c \
    'grep -q "^%{bash_completions_dir}/" "$1" && grep -q "^%{zsh_completions_dir}/" "$1" && grep -q "^%{fish_completions_dir}/" "$1"' sh "$spec"

# Arch: glibc is a dependency; a real source URL; .SRCINFO as makepkg
# prints it.  Alpine: a maintainer.
check "Arch: glibc in depends" grep -q "^depends=(.*'glibc'" "$contrib/arch/PKGBUILD"
check "Arch: the source is a URL" \
    grep -q '^source=("https://.*/$pkgname-$pkgver.tar.gz")' "$contrib/arch/PKGBUILD"
check "Alpine: maintainer=" grep -q '^maintainer="[^"]* <[^>]*@[^>]*>"$' \
    "$contrib/alpine/APKBUILD"
# srcinfo DIR: makepkg --printsrcinfo for DIR's PKGBUILD (not as root)
srcinfo() {
	_s_dir=$(mktemp -d /tmp/tach-srcinfo.XXXXXX)
	cp "$1/PKGBUILD" "$_s_dir/"
	if [ "$(id -u)" -eq 0 ]; then
		chown -R nobody "$_s_dir"
		(cd "$_s_dir" && runuser -u nobody -- env HOME="$_s_dir" \
		    makepkg --printsrcinfo)
	else
		(cd "$_s_dir" && makepkg --printsrcinfo)
	fi
	rm -rf "$_s_dir"
}
if makepkg_usable; then
	same "Arch .SRCINFO" "$(srcinfo "$contrib/arch")" \
	    "$(cat "$contrib/arch/.SRCINFO")"
fi

# Debian: quilt with an upstream version, the quick tests in
# override_dh_auto_test, a current Standards-Version.
check "Debian: 3.0 (quilt)" grep -qx '3.0 (quilt)' "$contrib/debian/source/format"
check "Debian: an upstream version and a Debian revision" \
    grep -q '^tach ([0-9.]*-[0-9]*) ' "$contrib/debian/changelog"
check "Debian: the tests run in override_dh_auto_test" sh -c \
    'sed -n "/^override_dh_auto_test:/,/^\$/p" "$1" | grep -q "ctest .*quick"' \
    sh "$contrib/debian/rules"
check "Debian: Standards-Version 4.7 or later" \
    grep -qE '^Standards-Version: 4\.([7-9]|[1-9][0-9])\.' "$contrib/debian/control"

# Arch and Homebrew install whatever cmake lays out; they must not ask for
# progress links, which Debian's and Arch's own progress packages own.
check "PKGBUILD turns the progress links off" \
    grep -q -- "-DTACH_PROGRESS_LINKS=OFF" "$contrib/arch/PKGBUILD"
check "Homebrew turns the progress links off" \
    grep -q -- "-DTACH_PROGRESS_LINKS=OFF" "$contrib/homebrew/tach.rb"

# The progress links: off unless asked for; then relative links to tach,
# with absolute install directories too, listed in install_manifest.txt,
# and never over a progress that is not tach's.
cmake -S "$SOURCE_DIR" -B "$WORK/build-fresh" -DBUILD_TESTING=OFF >/dev/null
check "no progress link by default" \
    grep -qx 'TACH_PROGRESS_LINKS:BOOL=OFF' "$WORK/build-fresh/CMakeCache.txt"
b=$layout_build
configure_install /usr /usr/share/man ON -DCMAKE_INSTALL_BINDIR=/opt/tach/bin &&
    DESTDIR="$b/root" cmake --install "$b" >/dev/null
check "absolute install directories: bin/progress links to tach" \
    [ "$(readlink "$b/root/opt/tach/bin/progress")" = tach ]
check "…and progress.1 to tach.1" \
    [ "$(readlink "$b/root/usr/share/man/man1/progress.1")" = tach.1 ]
check "the links are in install_manifest.txt" sh -c \
    'grep -qx /opt/tach/bin/progress "$1" && grep -qx /usr/share/man/man1/progress.1 "$1"' \
    sh "$b/install_manifest.txt"
DESTDIR="$b/root" cmake --install "$b" >/dev/null 2>&1
check "installing again over its own links works ($?)" [ $? -eq 0 ]
rm "$b/root/opt/tach/bin/progress"
printf '#!/bin/sh\n' >"$b/root/opt/tach/bin/progress"
DESTDIR="$b/root" cmake --install "$b" >/dev/null 2>"$WORK/err"
check "another progress is not overwritten: the install fails ($?)" [ $? -ne 0 ]
check "…and names it" sh -c \
    'tr -s "\n " "  " <"$1" | grep -q "progress exists and is not tach.s"' sh "$WORK/err"
check "…which is unchanged" [ "$(cat "$b/root/opt/tach/bin/progress")" = "#!/bin/sh" ]

# A missing dependency is named with its package, not a stock CMake error.
# hint WHAT CMAKE-ARGS...: configuring with WHAT hidden says how to get it
hint() {
	_h_what=$1
	shift
	rm -rf "$WORK/build-hint"
	"$@" -S "$SOURCE_DIR" -B "$WORK/build-hint" -DBUILD_TESTING=OFF \
	    >"$WORK/hint" 2>&1
	check "without $_h_what, cmake fails" [ $? -ne 0 ]
	check "…saying which package has it" \
	    grep -q "$_h_what not found: install .* (Debian" "$WORK/hint"
}
hint pkg-config cmake -DPKG_CONFIG_EXECUTABLE=/nonexistent/pkg-config
hint libbsd env PKG_CONFIG_LIBDIR=/nonexistent cmake
hint ncurses cmake -DCMAKE_FIND_ROOT_PATH=/nonexistent \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY

# Reproducible: the same source built in two other directories gives the
# same binary (the two built side by side).
for d in "$WORK/repro-a" "$WORK/repro-b/deeper"; do
	mkdir -p "$d"
	(cd "$SOURCE_DIR" && tar cf - --exclude='./build*' --exclude=./.git .) |
	    (cd "$d" && tar xf -)
	(cd "$d" && cmake -S . -B build -DBUILD_TESTING=OFF >/dev/null &&
	    cmake --build build >/dev/null) &
done
wait
check "two builds in different directories give the same binary" \
    cmp -s "$WORK/repro-a/build/tach" "$WORK/repro-b/deeper/build/tach"
lacks "…naming neither directory" "$WORK/repro-a/build/tach" "$WORK/repro-a"

# Homebrew: brew audit's rules, as far as they can be checked without
# Homebrew (tests/packaging/formula-audit.rb); a formula that breaks one fails.
if command -v ruby >/dev/null; then
	check "Homebrew: the formula passes the audit" \
	    ruby "$SOURCE_DIR/tests/packaging/formula-audit.rb" \
	    "$contrib/homebrew/tach.rb"
	sed 's/^  desc "/  desc "A /' "$contrib/homebrew/tach.rb" >"$WORK/tach.rb"
	check "Homebrew: the audit catches a broken formula" \
	    sh -c '! ruby "$1" "$2" >/dev/null' sh \
	    "$SOURCE_DIR/tests/packaging/formula-audit.rb" "$WORK/tach.rb"
fi

# The release step: contrib/release-checksums archives the tree and writes
# the tarball's checksums into every recipe, the same bytes each time.
if command -v git >/dev/null && git -C "$SOURCE_DIR" rev-parse HEAD >/dev/null 2>&1; then
	release_tarball "$WORK/rel"
	check "release-checksums: runs" [ $? -eq 0 ]
	tarball=$WORK/rel.dist/tach-0.1.0.tar.gz
	sha=$(sha256sum "$tarball" | cut -d' ' -f1)
	check "release-checksums: the tarball holds the tree" \
	    sh -c 'tar tzf "$1" | grep -qx tach-0.1.0/CMakeLists.txt' sh "$tarball"
	check "release-checksums: FreeBSD distinfo" grep -qx \
	    "SHA256 (tach-0.1.0.tar.gz) = $sha" "$WORK/rel/contrib/freebsd/distinfo"
	check "release-checksums: FreeBSD size" grep -qx \
	    "SIZE (tach-0.1.0.tar.gz) = $(wc -c <"$tarball" | tr -d ' ')" \
	    "$WORK/rel/contrib/freebsd/distinfo"
	check "release-checksums: pkgsrc distinfo" grep -qx \
	    "SHA512 (tach-0.1.0.tar.gz) = $(sha512sum "$tarball" | cut -d' ' -f1)" \
	    "$WORK/rel/contrib/pkgsrc/distinfo"
	check "release-checksums: PKGBUILD" grep -qx "sha256sums=('$sha')" \
	    "$WORK/rel/contrib/arch/PKGBUILD"
	check "release-checksums: Homebrew" grep -qx "  sha256 \"$sha\"" \
	    "$WORK/rel/contrib/homebrew/tach.rb"
	check "release-checksums: Alpine" grep -qx \
	    "$(sha512sum "$tarball" | cut -d' ' -f1)  tach-0.1.0.tar.gz" \
	    "$WORK/rel/contrib/alpine/APKBUILD"
	if command -v ruby >/dev/null; then
		check "Homebrew: the formula passes the audit, with its checksum" \
		    ruby "$SOURCE_DIR/tests/packaging/formula-audit.rb" \
		    "$WORK/rel/contrib/homebrew/tach.rb" --release
	fi
	(cd "$WORK/rel" && git checkout -q -- contrib &&
	    contrib/release-checksums -o "$WORK/dist2" >/dev/null)
	check "release-checksums: the same bytes again" \
	    cmp -s "$tarball" "$WORK/dist2/tach-0.1.0.tar.gz"
fi

# The man page is clean under mandoc's lint.
if command -v mandoc >/dev/null; then
	lint=$(mandoc -Tlint -Wwarning "$SOURCE_DIR/doc/tach.1" 2>&1)
	check "mandoc -Tlint is quiet ($lint)" [ -z "$lint" ]
fi

done_testing
