#!/bin/sh
# Installs what shelf needs besides its binaries: the man pages and shell completions it writes from its command
# table (`shelf generate`), the desktop entry, MIME types, AppStream metainfo and icon. `make install` and
# packaging/build-deb.sh run it.
#
#   packaging/install-data.sh SHELF DESTDIR PREFIX [--debian]
#
# --debian follows Debian's places and rules: man pages compressed with gzip -9n, zsh completions in
# vendor-completions (elsewhere site-functions).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
shelf=$1
root=$2$3
debian=${4:-}

install -d "$root/share/man/man1" "$root/share/man/man7" "$root/share/bash-completion/completions" \
    "$root/share/fish/vendor_completions.d" "$root/share/applications" "$root/share/mime/packages" \
    "$root/share/metainfo" "$root/share/icons/hicolor/scalable/apps"

if [ "$debian" = --debian ]; then
    "$shelf" generate shelf.1 | gzip -9n > "$root/share/man/man1/shelf.1.gz"
    "$shelf" generate shelf-plugin.7 | gzip -9n > "$root/share/man/man7/shelf-plugin.7.gz"
    chmod 0644 "$root/share/man/man1/shelf.1.gz" "$root/share/man/man7/shelf-plugin.7.gz"
    zsh_folder=$root/share/zsh/vendor-completions
else
    "$shelf" generate shelf.1 > "$root/share/man/man1/shelf.1"
    "$shelf" generate shelf-plugin.7 > "$root/share/man/man7/shelf-plugin.7"
    zsh_folder=$root/share/zsh/site-functions
fi
install -d "$zsh_folder"
"$shelf" generate bash > "$root/share/bash-completion/completions/shelf"
"$shelf" generate zsh > "$zsh_folder/_shelf"
"$shelf" generate fish > "$root/share/fish/vendor_completions.d/shelf.fish"

install -m 0644 "$here/org.shelfreader.Shelf.desktop" "$root/share/applications/"
install -m 0644 "$here/shelf-mime.xml" "$root/share/mime/packages/shelf.xml"
install -m 0644 "$here/org.shelfreader.Shelf.metainfo.xml" "$root/share/metainfo/"
install -m 0644 "$here/org.shelfreader.Shelf.svg" "$root/share/icons/hicolor/scalable/apps/"
find "$root/share/man" "$root/share/bash-completion" "$zsh_folder" "$root/share/fish" -type f -exec chmod 0644 {} +
