#!/bin/sh
# Builds shelf_VERSION_ARCH.deb from a finished build (`make deb` runs it; the tests run it on the debug build), and
# shelf-plugin-dev_VERSION_ARCH.deb: the ABI headers, libshelf-plugin (static), shelf-plugin.pc, shelf-plugin-host.
#
#   packaging/build-deb.sh BUILD_DIR OUT_DIR
#
# BUILD_DIR holds `shelf` and the libshelf-*.so plugins (.build/release or .build/debug). The package installs to
# /usr: shelf, plugins in /usr/lib/shelf/plugins, the browser app in /usr/share/shelf/web, the man pages and
# completions shelf writes from its command table, the desktop entry, MIME types, AppStream metainfo and icon.
# Debian ships no Swift runtime, so the Swift libraries shelf and its plugins link are carried in
# /usr/lib/shelf/swift and found through RUNPATHs relative to $ORIGIN, never the toolchain's folder.
# Depends: comes from the libraries the files link (dpkg-shlibdeps) and those shelf opens with dlopen (their
# sonames read from the binaries, resolved by ldconfig and dpkg -S).
#
# DEB_COMPRESSION (xz by default) is handed to dpkg-deb -Z; the tests use gzip, which is faster.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)

for tool in patchelf dpkg-shlibdeps dpkg-gencontrol ldconfig strip; do
    command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool is missing (make deb installs it)" >&2; exit 69; }
done

version=$("$build/shelf" --version | awk '{ print $2 }')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=$work/debian/shelf

# The Swift runtime's folder, as the build links it.
toolchain=$(ldd "$build/shelf" | awk '$1 == "libswiftCore.so" { print $3 }')
toolchain=$(dirname "$toolchain")

install -d "$pkg/usr/bin" "$pkg/usr/lib/shelf/plugins" "$pkg/usr/lib/shelf/swift" "$pkg/usr/share/shelf" \
    "$pkg/usr/share/doc/shelf"
install -m 0755 "$build/shelf" "$pkg/usr/bin/shelf"
install -m 0644 "$build"/libshelf-*.so "$pkg/usr/lib/shelf/plugins/"
# The confined process third-party plugins run in (C, no Swift runtime); shelf looks for it in <prefix>/lib/shelf.
install -m 0755 "$build/shelf-plugin-sandbox" "$pkg/usr/lib/shelf/"
cp -R "$here/../web" "$pkg/usr/share/shelf/web"
find "$pkg/usr/share/shelf/web" -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +

# The Swift libraries any of them loads from the toolchain, and nothing else of it.
for file in "$build/shelf" "$build"/libshelf-*.so; do ldd "$file"; done \
    | awk -v dir="$toolchain/" 'index($3, dir) == 1 { print $3 }' | sort -u \
    | while read -r library; do install -m 0644 "$library" "$pkg/usr/lib/shelf/swift/"; done

# Stripped as dh_strip would, then each file finds the runtime relative to itself.
strip --remove-section=.comment --remove-section=.note "$pkg/usr/bin/shelf" "$pkg/usr/lib/shelf/shelf-plugin-sandbox"
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
    "$pkg"/usr/lib/shelf/plugins/*.so "$pkg"/usr/lib/shelf/swift/*.so
# $ORIGIN is for the dynamic loader, not the shell: the single quotes keep it.
# shellcheck disable=SC2016
patchelf --set-rpath '$ORIGIN/../lib/shelf/swift' "$pkg/usr/bin/shelf"
# The sandbox is C, but SwiftPM links it with the Swift core library: the carried one, beside it.
# shellcheck disable=SC2016
patchelf --set-rpath '$ORIGIN/swift' "$pkg/usr/lib/shelf/shelf-plugin-sandbox"
# shellcheck disable=SC2016
for plugin in "$pkg"/usr/lib/shelf/plugins/*.so; do patchelf --set-rpath '$ORIGIN/../swift' "$plugin"; done
# shellcheck disable=SC2016
for library in "$pkg"/usr/lib/shelf/swift/*.so; do patchelf --set-rpath '$ORIGIN' "$library"; done

# Man pages, completions and desktop integration.
"$here/install-data.sh" "$build/shelf" "$pkg" /usr --debian

# The changelog of a native package, and the copyright.
git_commit=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$here/.." log -1 --format=%ct 2>/dev/null || date +%s)}")
cat > "$work/debian/changelog" <<EOF
shelf ($version) unstable; urgency=medium

  * Built from commit $git_commit.

 -- The shelf developers <shelf@shelfreader.org>  $date
EOF
gzip -9n < "$work/debian/changelog" > "$pkg/usr/share/doc/shelf/changelog.gz"
install -m 0644 "$here/debian/copyright" "$pkg/usr/share/doc/shelf/copyright"
chmod 0644 "$pkg/usr/share/doc/shelf/changelog.gz"

# The libraries shelf opens with dlopen: every soname the binaries name that they do not link. Sonames with one
# stem (libcurl.so.4, libcurl-gnutls.so.4) are alternatives of one another; those this system lacks are left out.
dlopened=$(
    for file in "$pkg/usr/bin/shelf" "$pkg"/usr/lib/shelf/plugins/*.so; do
        linked=$(readelf -d "$file" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
        strings -a "$file" | grep -E '^lib[A-Za-z0-9_+-]+\.so\.[0-9]+$' | while read -r soname; do
            echo "$linked" | grep -qxF "$soname" || echo "$soname"
        done
    done | awk '!seen[$0]++' | while read -r soname; do
        path=$(ldconfig -p | awk -v name="$soname" '$1 == name && /x86-64|AArch64/ { print $NF; exit }')
        [ -n "$path" ] || continue
        package=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null) || continue
        package=${package%%:*}
        stem=$(echo "$soname" | sed 's/[-.].*//')
        echo "$stem $package"
    done | awk '{ if (!($1 in deps)) { order[++n] = $1; deps[$1] = $2 } else if (index(deps[$1], $2) == 0) deps[$1] = deps[$1] " | " $2 }
                END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? ", " : ""), deps[order[i]] }'
)

install -m 0644 "$here/debian/control" "$work/debian/control"
cd "$work"
install -d "$pkg/DEBIAN"
# Its warnings about the Swift libraries' unversioned names are expected: they are private, found by RUNPATH.
dpkg-shlibdeps -Tdebian/shelf.substvars -e debian/shelf/usr/bin/shelf -e debian/shelf/usr/lib/shelf/shelf-plugin-sandbox \
    debian/shelf/usr/lib/shelf/plugins/*.so \
    debian/shelf/usr/lib/shelf/swift/*.so 2> "$work/shlibdeps.log" || { cat "$work/shlibdeps.log" >&2; exit 70; }
dpkg-gencontrol -pshelf -Tdebian/shelf.substvars -Pdebian/shelf "-Vshelf:Dlopened=$dlopened" -Vmisc:Depends=
find "$pkg" -type d -exec chmod 0755 {} +
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$pkg" "$out" >/dev/null

# shelf-plugin-dev: the plugin kit as `make install-plugin-kit` installs it, with the static library only (a plugin
# carries it inside itself, so no shared library package is needed) and the multiarch folder for the library and
# shelf-plugin.pc.
dev=$work/debian/shelf-plugin-dev
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
make -s -C "$here/../Sources/PluginAPI" install PREFIX=/usr DESTDIR="$dev" BUILD="$work/plugin-sdk" >/dev/null
install -d "$dev/usr/lib/$multiarch/pkgconfig" "$dev/usr/share/man/man1" "$dev/usr/share/doc/shelf-plugin-dev" "$dev/DEBIAN"
mv "$dev/usr/lib/libshelf-plugin.a" "$dev/usr/lib/$multiarch/"
# ${libdir} is pkg-config's variable, matched as written: the single quotes keep it.
# shellcheck disable=SC2016
sed -e "s|^libdir=.*|libdir=\${prefix}/lib/$multiarch|" -e 's| -Wl,-rpath,${libdir}||' \
    "$dev/usr/lib/pkgconfig/shelf-plugin.pc" > "$dev/usr/lib/$multiarch/pkgconfig/shelf-plugin.pc"
rm -r "$dev/usr/lib/pkgconfig" "$dev"/usr/lib/libshelf-plugin.so*
strip --strip-debug "$dev/usr/lib/$multiarch/libshelf-plugin.a"
strip --remove-section=.comment --remove-section=.note "$dev/usr/bin/shelf-plugin-host"
echo '.so man7/shelf-plugin.7' | gzip -9n > "$dev/usr/share/man/man1/shelf-plugin-host.1.gz"
cp "$pkg/usr/share/doc/shelf/copyright" "$pkg/usr/share/doc/shelf/changelog.gz" "$dev/usr/share/doc/shelf-plugin-dev/"
find "$dev" -type f ! -path '*/bin/*' -exec chmod 0644 {} +
dpkg-shlibdeps -Tdebian/shelf-plugin-dev.substvars -e "$dev/usr/bin/shelf-plugin-host" 2> "$work/shlibdeps.log" \
    || { cat "$work/shlibdeps.log" >&2; exit 70; }
dpkg-gencontrol -pshelf-plugin-dev -Tdebian/shelf-plugin-dev.substvars -P"$dev" -Vmisc:Depends=
find "$dev" -type d -exec chmod 0755 {} +
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$dev" "$out" >/dev/null

arch=$(dpkg --print-architecture)
echo "$out/shelf_${version}_${arch}.deb"
echo "$out/shelf-plugin-dev_${version}_${arch}.deb"
