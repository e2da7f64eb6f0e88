#!/usr/bin/env bash
# The install claims, checked by hand on fresh Debian 12 roots made with debootstrap (needs root and
# Debian's mirror; CI has neither). Roots go under .build-roots/ (ignored by git).
#
#     sudo Scripts/check-fresh-debian.sh source        # the README's two commands, card's packages only
#     sudo Scripts/check-fresh-debian.sh release TARBALL  # the release binary with no ICU, libxml2 or Swift
#
# source: a minbase root with Swift's own documented prerequisites for Debian 12 (which already
#   include libicu-dev, libxml2-dev and pkg-config) and zlib1g-dev — nothing else, no ISA-L — and
#   the toolchain of this machine bound read-only at /opt/swift; a clean clone of HEAD runs
#   `swift run almanac expand …` (checked against the README's lines) and `swift test`.
# release: a minbase root (no ICU, no libxml2, no Swift) runs the tarball's almanac on the example
#   it carries, and `--version`.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?"source or release (see the top of this script)"}
roots=$PWD/.build-roots
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

base() {  # a minbase Debian 12 root at $1, made once
    if [ ! -x "$1/usr/bin/apt-get" ]; then
        mkdir -p "$1"
        debootstrap --variant=minbase bookworm "$1" "$mirror"
    fi
    mountpoint -q "$1/proc" || mount -t proc proc "$1/proc"
}

expect_readme_lines() {
    grep -q '2025年10月6日 週一  全天      媽媽生日（八月十五）' <<<"$1"
    grep -q '2025年9月12日 週五  上午9:00  打電話給阿嬤' <<<"$1"
}

case "$mode" in
source)
    root=$roots/swift
    base "$root"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # Swift's prerequisites for Debian 12 (swift.org's install page and the swift-docker image:
    # libicu-dev, libxml2-dev and pkg-config are among them), zlib1g-dev as the card says.
    chroot "$root" env DEBIAN_FRONTEND=noninteractive bash -c "apt-get update -qq && apt-get install -y -qq \
        --no-install-recommends binutils binutils-gold gcc git gnupg2 libc6-dev libcurl4-openssl-dev libedit-dev \
        libgcc-12-dev libncurses-dev libpython3-dev libsqlite3-dev libstdc++-12-dev libxml2-dev libz3-dev uuid-dev \
        pkg-config tzdata unzip zlib1g-dev ca-certificates libicu-dev"
    if chroot "$root" dpkg -s libisal-dev >/dev/null 2>&1; then echo "check: the root has libisal-dev" >&2; exit 1; fi
    for dir in /opt/swift /opt/swift-packages; do
        [ -d "$dir" ] || continue
        mkdir -p "$root$dir"
        mountpoint -q "$root$dir" || { mount --bind "$dir" "$root$dir"; mount -o remount,bind,ro "$root$dir"; }
    done
    [ -f /etc/gitconfig ] && cp /etc/gitconfig "$root/etc/gitconfig"  # where the packages resolve from here
    rm -rf "$root/src"
    git clone -q "$PWD" "$root/src"
    first=$(chroot "$root" env -i HOME=/root PATH=/opt/swift/usr/bin:/usr/bin:/bin bash -c "cd /src && swift run almanac \
        expand Examples/family-calendar.ics --from 2025-09-01 --until 2026-03-01 --lang zh-Hant --time-zone Asia/Taipei")
    echo "$first"
    expect_readme_lines "$first"
    chroot "$root" env -i HOME=/root PATH=/opt/swift/usr/bin:/usr/bin:/bin bash -c "cd /src && swift test" 2>&1 | tail -3
    ;;
release)
    tarball=$(realpath "${2:?"the tarball Scripts/release.sh made"}")
    root=$roots/minimal
    base "$root"
    for library in libicuuc libxml2 libswiftCore libisal; do
        if [ -n "$(find "$root/usr/lib" -name "$library.so*")" ]; then echo "check: the root has $library" >&2; exit 1; fi
    done
    rm -rf "$root/opt/almanac" && mkdir -p "$root/opt/almanac"
    tar xzf "$tarball" -C "$root/opt/almanac" --strip-components 1
    first=$(chroot "$root" env -i PATH=/usr/bin:/bin /opt/almanac/bin/almanac expand \
        /opt/almanac/share/doc/almanac/family-calendar.ics --from 2025-09-01 --until 2026-03-01 --lang zh-Hant --time-zone Asia/Taipei)
    echo "$first"
    expect_readme_lines "$first"
    chroot "$root" /opt/almanac/bin/almanac --version
    ;;
*)
    echo "check-fresh-debian.sh: source or release (see the top of this script)" >&2
    exit 2
    ;;
esac
echo "check: passed ($mode)"
