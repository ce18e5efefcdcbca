#!/bin/sh
# Installs the Debian packages shelf builds against, if any is missing. Safe to run again.
# Usage: scripts/install-deps.sh [extra-package...]
set -eu
packages="libxml2-dev zlib1g-dev libzip-dev libsqlite3-dev libcurl4-openssl-dev libavformat-dev libavcodec-dev libswresample-dev libavutil-dev libdbus-1-dev libsecret-1-0 libssl-dev libmicrohttpd-dev libseccomp-dev libespeak-ng-dev pkg-config gcc make $*"
missing=""
for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "Installing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
# $sudo and $missing are lists of words on purpose (empty, or several package names).
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
