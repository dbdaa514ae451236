# What `cmake --install` lays out, against every packaging recipe's file
# list; the man page's lint; the Debian package when it can be built.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_DIR:?SOURCE_DIR must name the source tree}"
contrib=$SOURCE_DIR/contrib
# The distributions' builds use the system compiler, whatever this build
# is: run-all's sanitizer and portable builds leave them to the default one.
distro_builds=yes
if [ "${TACH_SANITIZE:-OFF}" = ON ] || [ "$TACH_ZEROCOPY" != 1 ]; then
	distro_builds=no
	echo "the distributions' packages are built by the default build only" >&2
fi

# layout PREFIX MANDIR LINKS: the files an install lays out, one a line.
layout() {
	b=$WORK/build-$3-$(echo "$1$2" | tr / _)
	cmake -S "$SOURCE_DIR" -B "$b" -DBUILD_TESTING=OFF \
	    -DCMAKE_INSTALL_PREFIX="$1" -DCMAKE_INSTALL_MANDIR="$2" \
	    -DTACH_PROGRESS_LINKS="$3" >/dev/null &&
	cmake --build "$b" >/dev/null &&
	DESTDIR="$b/root" cmake --install "$b" >/dev/null &&
	(cd "$b/root$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort)
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

# pkgsrc: PLIST, with man pages under PKGMANDIR (man).
got=$(layout /usr/pkg man ON)
want=$(grep -v '^@comment' "$contrib/pkgsrc/PLIST" | sort)
same pkgsrc "$want" "$got"

# RPM: %files with the macros expanded for prefix /usr.
got=$(layout /usr share/man OFF)
want=$(sed -n '/^%files/,/^%changelog/p' "$contrib/rpm/tach.spec" |
    grep -v -e '^%files' -e '^%changelog' -e '^$' |
    sed -e 's/^%license //' -e 's/^%doc //' \
	-e 's|%{_docdir}|share/doc|' -e 's|%{_bindir}|bin|' \
	-e 's|%{_mandir}|share/man|' -e 's|%{_datadir}|share|' \
	-e 's|%{name}|tach|g' -e 's/\*$//' | sort)
same RPM "$want" "$got"

# Arch and Homebrew install whatever cmake lays out; they must not ask for
# progress links, which Debian's and Arch's own progress packages own.
check "PKGBUILD turns the progress links off" \
    grep -q -- "-DTACH_PROGRESS_LINKS=OFF" "$contrib/arch/PKGBUILD"
check "Homebrew turns the progress links off" \
    grep -q -- "-DTACH_PROGRESS_LINKS=OFF" "$contrib/homebrew/tach.rb"
check "the progress links point at tach" \
    [ "$(readlink "$WORK"/build-ON-_usr_pkgman/root/usr/pkg/bin/progress)" = tach ]

# Homebrew: brew audit's rules, as far as they can be checked without
# Homebrew (tests/packaging/formula-audit.rb); a formula that breaks one fails.
if command -v ruby >/dev/null; then
	check "Homebrew: the formula passes the audit" \
	    ruby "$SOURCE_DIR/tests/packaging/formula-audit.rb" \
	    "$contrib/homebrew/tach.rb"
	sed 's/uses_from_macos "ncurses"/depends_on "ncurses"/' \
	    "$contrib/homebrew/tach.rb" >"$WORK/tach.rb"
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
		    tail -n 20 "$WORK/rpm.log" >&2
		check "rpmbuild ran the quick tests" \
		    grep -q 'tests passed, 0 tests failed' "$WORK/rpm.log"
		rpm=$(ls "$WORK"/rpm/RPMS/*/tach-0.1.0-*.rpm 2>/dev/null | head -n 1)
		check "rpmbuild made the source package" \
		    sh -c 'ls "$1"/rpm/SRPMS/tach-0.1.0-*.src.rpm >/dev/null' sh "$WORK"
		if [ -n "$rpm" ]; then
			# less the build-id links rpm adds by itself
			same "RPM package" "$usr_layout" \
			    "$(rpm -qlp "$rpm" 2>/dev/null | sed -e 's|^/usr/||' \
			    -e 's/\.gz$//' | grep -v '^lib/\.build-id' | sort)"
		fi
	else
		echo "no rpmbuild: the RPM is not built" >&2
	fi
	# Arch: makepkg, which will not run as root; pacman's database is
	# empty here, so the dependencies are not checked
	if command -v makepkg >/dev/null && command -v bsdtar >/dev/null; then
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
		echo "no makepkg: the Arch package is not built" >&2
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

# Debian: build the package and compare its files.
if [ $distro_builds = no ]; then
	:
elif command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null; then
	src=$WORK/deb/tach-0.1.0
	mkdir -p "$src"
	(cd "$SOURCE_DIR" && tar cf - --exclude='./build*' --exclude=./.git .) |
	    (cd "$src" && tar xf -)
	cp -r "$src/contrib/debian" "$src/debian"
	(cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc \
	    >"$WORK/deb.log" 2>&1)
	check "dpkg-buildpackage (source and binary) succeeds" [ $? -eq 0 ] ||
	    tail -n 20 "$WORK/deb.log" >&2
	check "the source package is built" \
	    sh -c 'ls "$1"/deb/tach_0.1.0.dsc "$1"/deb/tach_0.1.0.tar.* >/dev/null' \
	    sh "$WORK"
	deb=$(ls "$WORK"/deb/tach_*.deb 2>/dev/null | head -n 1)
	if [ -n "$deb" ]; then
		got=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' |
		    sed -e 's|^\./usr/||' -e 's/\.gz$//' |
		    grep -v -e '^share/doc/tach/changelog' \
		    -e '^share/doc/tach/copyright' | sort)
		# the licence is in the copyright file; zsh's own directory
		want=$(layout /usr share/man OFF |
		    grep -vx 'share/doc/tach/LICENSE' |
		    sed 's|^share/zsh/site-functions/|share/zsh/vendor-completions/|' |
		    sort)
		same Debian "$want" "$got"
	fi
	if command -v lintian >/dev/null; then
		lintian --pedantic "$WORK"/deb/tach_*.changes >"$WORK/lintian" 2>&1
		lacks "lintian --pedantic: no error or warning" "$WORK/lintian" \
		    '^[EW]: '
	fi
else
	echo "no dpkg-buildpackage: the .deb is not built" >&2
fi

done_testing
