# SPDX-License-Identifier: BSD-2-Clause
# covers: what `cmake --install` lays out, against every packaging recipe's
# file list and rules; the progress links, the install hints and
# reproducible builds; the man page's lint; each distribution's package
# built from the release tarball, where its tool is here.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_DIR:?SOURCE_DIR must name the source tree}"
contrib=$SOURCE_DIR/contrib
# The distributions' builds use the system compiler, whatever this build
# is: run-all's sanitizer, portable and 32-bit-on-64 builds leave them to
# the default one.
distro_builds=yes
if [ "${TACH_SANITIZE:-OFF}" = ON ] || [ "$TACH_ZEROCOPY" != 1 ] ||
    [ "$((${TACH_POINTER_BYTES:-8} * 8))" -ne "$(getconf LONG_BIT)" ]; then
	distro_builds=no
	echo "the distributions' packages are built by the default build only" >&2
fi

# layout PREFIX MANDIR LINKS [CMAKE-ARGS...]: the files an install lays
# out, one a line.
layout() {
	b=$WORK/build-$3-$(echo "$1$2${4:-}" | tr / _)
	_l_prefix=$1 _l_mandir=$2 _l_links=$3
	shift 3
	cmake -S "$SOURCE_DIR" -B "$b" -DBUILD_TESTING=OFF \
	    -DCMAKE_INSTALL_PREFIX="$_l_prefix" -DCMAKE_INSTALL_MANDIR="$_l_mandir" \
	    -DTACH_PROGRESS_LINKS="$_l_links" "$@" >/dev/null &&
	cmake --build "$b" >/dev/null &&
	DESTDIR="$b/root" cmake --install "$b" >/dev/null &&
	(cd "$b/root$_l_prefix" && find . \( -type f -o -type l \) |
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
b=$WORK/build-nodocs
cmake -S "$SOURCE_DIR" -B "$b" -DBUILD_TESTING=OFF -DTACH_INSTALL_DOCS=OFF \
    -DCMAKE_INSTALL_PREFIX=/usr/local -DTACH_PROGRESS_LINKS=OFF >/dev/null &&
    cmake --build "$b" >/dev/null && DESTDIR="$b/root" cmake --install "$b" >/dev/null
got=$(cd "$b/root/usr/local" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort)
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
rpm_layout=$( { layout /usr share/man OFF -DTACH_INSTALL_DOCS=OFF
    echo share/licenses/tach/LICENSE; echo share/doc/tach/README.md; } | sort)
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
# makepkg without pacman: a clear skip outside CI, a failure in it
have_makepkg=no
if command -v makepkg >/dev/null && command -v bsdtar >/dev/null; then
	if command -v pacman >/dev/null; then
		have_makepkg=yes
	elif [ "${CI:-}" = true ]; then
		fail "makepkg is here but pacman is not (contrib/deps.sh --test installs it)"
	else
		echo "skipped: no pacman, so makepkg cannot run" >&2
	fi
fi
if [ $have_makepkg = yes ]; then
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
b=$WORK/build-default
cmake -S "$SOURCE_DIR" -B "$b" -DBUILD_TESTING=OFF >/dev/null &&
    cmake --build "$b" >/dev/null && DESTDIR="$b/root" cmake --install "$b" >/dev/null
check "no progress link by default" \
    sh -c '! ls "$1"/root/usr/local/bin/progress 2>/dev/null' sh "$b"
b=$WORK/build-links
cmake -S "$SOURCE_DIR" -B "$b" -DBUILD_TESTING=OFF -DTACH_PROGRESS_LINKS=ON \
    -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_BINDIR=/opt/tach/bin \
    -DCMAKE_INSTALL_MANDIR=/usr/share/man >/dev/null &&
    cmake --build "$b" >/dev/null && DESTDIR="$b/root" cmake --install "$b" >/dev/null
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
# same binary.
for d in "$WORK/repro-a" "$WORK/repro-b/deeper"; do
	mkdir -p "$d"
	(cd "$SOURCE_DIR" && tar cf - --exclude='./build*' --exclude=./.git .) |
	    (cd "$d" && tar xf -)
	(cd "$d" && cmake -S . -B build -DBUILD_TESTING=OFF >/dev/null &&
	    cmake --build build >/dev/null)
done
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

# installed TREE: the files under TREE/usr, as layout prints them
installed() {
	(cd "$1/usr" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort)
}

# recipes_build TARBALL RECIPES: each recipe (in RECIPES, with the
# tarball's checksums) whose tool is here builds the release tarball the
# way its distribution does, its check (ctest -L quick) included, and
# packages what cmake --install lays out.
recipes_build() {
	recipes=$2
	usr_layout=$(layout /usr share/man OFF)
	# RPM: rpmbuild -ba, with Fedora's cmake macros supplied (Debian's rpm
	# has none) and without the BuildRequires check (its database is empty)
	if command -v rpmbuild >/dev/null; then
		mkdir -p "$WORK/rpm/SOURCES"
		cp "$1" "$WORK/rpm/SOURCES/"
		rpmbuild -ba --nodeps --define "_topdir $WORK/rpm" \
		    --load "$SOURCE_DIR/tests/packaging/cmake.macros" \
		    "$recipes/rpm/tach.spec" >"$WORK/rpm.log" 2>&1
		check "rpmbuild -ba succeeds, %check included" [ $? -eq 0 ] ||
		    { grep -E 'Failed|FAIL|error' "$WORK/rpm.log" | head -n 20
		      tail -n 20 "$WORK/rpm.log"; } >&2
		check "rpmbuild ran the quick tests" \
		    grep -q 'tests passed, 0 tests failed' "$WORK/rpm.log"
		rpm=$(ls "$WORK"/rpm/RPMS/*/tach-0.1.0-*.rpm 2>/dev/null | head -n 1)
		check "rpmbuild made the source package" \
		    sh -c 'ls "$1"/rpm/SRPMS/tach-0.1.0-*.src.rpm >/dev/null' sh "$WORK"
		if [ -n "$rpm" ]; then
			# less the build-id links rpm adds by itself, and its
			# directories
			rpm -qlvp "$rpm" >"$WORK/rpm.list" 2>/dev/null
			same "RPM package" "$rpm_layout" \
			    "$(awk '$1 !~ /^d/ { print $(NF - 1) == "->" ? $(NF - 2) : $NF }' "$WORK/rpm.list" |
			    sed -e 's|^/usr/||' -e 's/\.gz$//' |
			    grep -v '^lib/\.build-id' | sort)"
			check "RPM: the package owns its doc directory" \
			    grep -q '^d.* /usr/share/doc/tach$' "$WORK/rpm.list"
		fi
	else
		echo "no rpmbuild: the RPM is not built" >&2
	fi
	# Arch: makepkg, which will not run as root; pacman's database is
	# empty here, so the dependencies are not checked
	if [ $have_makepkg = yes ]; then
		arch=$(mktemp -d /tmp/tach-makepkg.XXXXXX)
		cp "$recipes/arch/PKGBUILD" "$1" "$arch/"
		if [ "$(id -u)" -eq 0 ]; then
			chown -R nobody "$arch"
			as_builder="runuser -u nobody --"
		else
			as_builder=
		fi
		(cd "$arch" && $as_builder env HOME="$arch" makepkg --nodeps \
		    --noconfirm >"$WORK/makepkg.log" 2>&1)
		check "makepkg verifies the checksum and builds, check() included" \
		    [ $? -eq 0 ] ||
		    tail -n 20 "$WORK/makepkg.log" >&2
		check "makepkg ran the quick tests" \
		    grep -q 'tests passed, 0 tests failed' "$WORK/makepkg.log"
		# plus the licence where Arch keeps licences
		same "Arch package" "$( { echo "$usr_layout"
		    echo share/licenses/tach/LICENSE; } | sort)" \
		    "$(installed "$arch/pkg/tach" | sed 's/\.gz$//')"
		rm -rf "$arch"
	else
		echo "no makepkg and pacman: the Arch package is not built" >&2
	fi
	# Alpine: no abuild off Alpine, so its phases run as abuild runs them
	# (in builddir, with srcdir and pkgdir set), here against glibc; the
	# musl build itself is tests/cross-build's x86_64-linux-musl target
	alpine=$WORK/alpine
	mkdir -p "$alpine/src" "$alpine/pkg"
	tar xzf "$1" -C "$alpine/src"
	(startdir=$recipes/alpine srcdir=$alpine/src pkgdir=$alpine/pkg/tach
	    . "$recipes/alpine/APKBUILD" &&
	    echo "$sha512sums" | grep . | (cd "$(dirname "$1")" && sha512sum -c) &&
	    cd "${builddir:-$srcdir/$pkgname-$pkgver}" &&
	    build && check && package) >"$WORK/apk.log" 2>&1
	check "the APKBUILD builds, checks and packages" [ $? -eq 0 ] ||
	    tail -n 20 "$WORK/apk.log" >&2
	same "Alpine package" "$usr_layout" "$(installed "$alpine/pkg/tach")"
	check "Alpine: libbsd, as in the musl cross build" \
	    grep -q '^makedepends=".*libbsd-dev' "$recipes/alpine/APKBUILD"
	# Debian: the release tarball as the orig tarball of a 3.0 (quilt)
	# source package; the quick tests run in the build
	if command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null; then
		mkdir -p "$WORK/deb"
		cp "$1" "$WORK/deb/tach_0.1.0.orig.tar.gz"
		tar xzf "$1" -C "$WORK/deb"
		cp -r "$recipes/debian" "$WORK/deb/tach-0.1.0/debian"
		(cd "$WORK/deb/tach-0.1.0" && dpkg-buildpackage -us -uc \
		    >"$WORK/deb.log" 2>&1)
		check "dpkg-buildpackage (source and binary) succeeds" [ $? -eq 0 ] ||
		    tail -n 20 "$WORK/deb.log" >&2
		check "dpkg-buildpackage ran the quick tests" \
		    grep -q 'tests passed, 0 tests failed' "$WORK/deb.log"
		check "the source package is built, with its orig tarball" sh -c \
		    'ls "$1"/deb/tach_0.1.0-1.dsc "$1"/deb/tach_0.1.0-1.debian.tar.* >/dev/null' \
		    sh "$WORK"
		deb=$(ls "$WORK"/deb/tach_*.deb 2>/dev/null | head -n 1)
		if [ -n "$deb" ]; then
			got=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' |
			    sed -e 's|^\./usr/||' -e 's/\.gz$//' |
			    grep -v -e '^share/doc/tach/changelog' \
			    -e '^share/doc/tach/copyright' \
			    -e '^share/lintian/overrides/tach$' | sort)
			# the licence is in the copyright file; zsh's own directory
			want=$(echo "$usr_layout" |
			    grep -vx 'share/doc/tach/LICENSE' |
			    sed 's|^share/zsh/site-functions/|share/zsh/vendor-completions/|' |
			    sort)
			same Debian "$want" "$got"
		fi
		if command -v lintian >/dev/null; then
			lintian --pedantic "$WORK"/deb/tach_*.changes >"$WORK/lintian" 2>&1
			# a lintian older than the current policy knows no newer one
			standards=$(sed -n 's/^Standards-Version: //p' "$recipes/debian/control")
			grep -q "\"$standards" /usr/share/lintian/data/debian-policy/releases.json 2>/dev/null ||
			    sed -i "/newer-standards-version $standards/d" "$WORK/lintian"
			lacks "lintian --pedantic: no error or warning" "$WORK/lintian" \
			    '^[EW]: '
		fi
	else
		echo "no dpkg-buildpackage: the .deb is not built" >&2
	fi
}

# The release step: contrib/release-checksums archives the tree and writes
# the tarball's checksums into every recipe, the same bytes each time.
if command -v git >/dev/null && git -C "$SOURCE_DIR" rev-parse HEAD >/dev/null 2>&1; then
	git clone -q "$SOURCE_DIR" "$WORK/rel"
	(cd "$WORK/rel" && contrib/release-checksums -o "$WORK/dist" >/dev/null)
	check "release-checksums: runs" [ $? -eq 0 ]
	tarball=$WORK/dist/tach-0.1.0.tar.gz
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
	[ $distro_builds = no ] || recipes_build "$tarball" "$WORK/rel/contrib"
fi

# The man page is clean under mandoc's lint.
if command -v mandoc >/dev/null; then
	lint=$(mandoc -Tlint -Wwarning "$SOURCE_DIR/doc/tach.1" 2>&1)
	check "mandoc -Tlint is quiet ($lint)" [ -z "$lint" ]
fi

done_testing
