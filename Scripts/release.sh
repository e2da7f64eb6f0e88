#!/usr/bin/env bash
# Builds the release people download: almanac-<version>-linux-<arch>.tar.gz and its .sha256.
#
#     Scripts/release.sh [--version 1.2.0] [--output DIR] [--traits ISAL] [--scratch-path DIR]
#
# The binary carries the Swift runtime and Foundation (--static-swift-stdlib) and, linked
# statically from Debian's archives, ICU with its data, libxml2, zlib and liblzma (libxml2's), so
# it needs only glibc's libraries, libstdc++ and libgcc_s. Beside it: shell completions for bash,
# zsh and fish, a man page (swift-argument-parser's generate-manual), LICENSE, the licences of
# what is linked in, and the README.
#
# The version is the git tag at HEAD (v1.2.0 gives 1.2.0), passed to the compiler so that
# `almanac --version`, SARIF reports and the PRODID of calendars say it; on a commit without a tag
# it is what `git describe` says (0.1.0-4-gabc1234, or 0.0.0-dev+abc1234 where no tag exists),
# and the script says it is not a release. Needs: Swift, python3, pkg-config, libicu-dev, libxml2-dev,
# zlib1g-dev and liblzma-dev (the static archives); with --traits ISAL, libisal-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

version=""
output="dist"
traits=""
scratch=".build-release"
while [ $# -gt 0 ]; do
    case "$1" in
        --version) version="$2"; shift 2 ;;
        --output) output="$2"; shift 2 ;;
        --traits) traits="$2"; shift 2 ;;
        --scratch-path) scratch="$2"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "release.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

if [ -z "$version" ]; then
    if tag=$(git describe --tags --exact-match HEAD 2>/dev/null); then
        version=${tag#v}
        # A release's Homebrew formula builds the same tag (Formula/almanac.rb: `tag:` and `version`).
        if ! grep -q "tag: \"$tag\"" Formula/almanac.rb || ! grep -q "^  version \"$version\"" Formula/almanac.rb; then
            echo "release.sh: Formula/almanac.rb does not build $tag; set its tag: and version, commit, and tag again" >&2
            exit 1
        fi
    elif described=$(git describe --tags --dirty 2>/dev/null); then
        version=${described#v}
        echo "release.sh: HEAD has no tag; building $version, which is not a release" >&2
    else
        version="0.0.0-dev+$(git describe --always --dirty 2>/dev/null || echo unknown)"
        echo "release.sh: the repository has no tags; building $version, which is not a release" >&2
    fi
fi
# The version becomes a C string literal and part of a file name: letters, digits, . + - only.
if ! [[ "$version" =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]]; then
    echo "release.sh: '$version' is not a version (letters, digits, '.', '+', '-')" >&2
    exit 2
fi

arch=$(uname -m)
name="almanac-$version-linux-$arch"
libdir=$(pkg-config --variable=libdir icu-uc)
multiarch=$(gcc -print-multiarch 2>/dev/null || true)

# The static archives, alone in a folder, and pkg-config files of our own that name that folder and
# each library's own dependencies, in the order a static link reads them (libxml2 before liblzma,
# zlib and ICU; ICU before libstdc++): SwiftPM reads the system libraries' flags from pkg-config,
# and the system's files put the folder of the shared libraries first.
static=$(mktemp -d)
trap 'rm -rf "$static"' EXIT
archives=(icui18n icuuc icudata xml2 lzma z)
isal=false
[[ ",$traits," == *",ISAL,"* ]] && { isal=true; archives+=(isal); }
for archive in "${archives[@]}"; do
    found=""
    for dir in "$libdir" "/usr/lib/$multiarch" /usr/lib /usr/local/lib; do
        if [ -f "$dir/lib$archive.a" ]; then found="$dir/lib$archive.a"; break; fi
    done
    if [ -z "$found" ]; then
        echo "release.sh: lib$archive.a not found; on Debian or Ubuntu: apt-get install libicu-dev libxml2-dev zlib1g-dev liblzma-dev$($isal && echo ' libisal-dev')" >&2
        exit 1
    fi
    ln -s "$found" "$static/lib$archive.a"
done
mkdir "$static/pkgconfig"
pc() {  # name, pkg-config module to copy the version and compiler flags from, libraries
    printf 'Name: %s\nDescription: %s, linked statically by release.sh\nVersion: %s\nCflags: %s\nLibs: -L%s %s\n' \
        "$1" "$1" "$(pkg-config --modversion "$2")" "$(pkg-config --cflags "$2")" "$static" "$3" > "$static/pkgconfig/$1.pc"
}
pc icu-i18n icu-i18n "-licui18n -licuuc -licudata -lstdc++ -lm -ldl -lpthread"
pc libxml-2.0 libxml-2.0 "-lxml2 -llzma -lz -lm -licui18n -licuuc -licudata -lstdc++ -ldl -lpthread"
$isal && pc libisal libisal "-lisal"

build=(env PKG_CONFIG_LIBDIR="$static/pkgconfig" PKG_CONFIG_PATH="$static/pkgconfig"
       swift build -c release --product almanac --static-swift-stdlib --scratch-path "$scratch"
       -Xcc "-DALMANAC_VERSION=\"$version\"")
[ -n "$traits" ] && build+=(--traits "$traits")
echo "release.sh: building almanac $version for linux-$arch" >&2
"${build[@]}" >&2
binary="$scratch/release/almanac"

# Only glibc's libraries, the C++ runtime and libgcc_s may be loaded from the system.
allowed='^(linux-vdso\.so|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libutil\.so|ld-linux[^ ]*\.so|libstdc\+\+\.so|libgcc_s\.so)'
unexpected=$(ldd "$binary" | awk '{print $1}' | sed 's|^.*/||' | grep -Ev "$allowed" || true)
if [ -n "$unexpected" ]; then
    echo "release.sh: the binary loads more than glibc, libstdc++ and libgcc_s:" >&2
    echo "$unexpected" >&2
    exit 1
fi
reported=$("$binary" --version)
if [ "$reported" != "$version" ]; then
    echo "release.sh: the binary says it is '$reported', not '$version'" >&2
    exit 1
fi

stage="$static/$name"
mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
         "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d" "$stage/share/doc/almanac"
install -m 755 "$binary" "$stage/bin/almanac"
# The build folder keeps the copy with symbols. Two builds of one commit differ only in
# .swift_modhash (the compiler's note for incremental code generation, which nothing reads at run
# time) and the build ID the linker hashed it into: the section goes, and the ID becomes a hash of
# the rest, so that a release can be rebuilt byte for byte.
strip --strip-unneeded --remove-section=.swift_modhash "$stage/bin/almanac"
python3 Scripts/build-id.py "$stage/bin/almanac"
"$binary" --generate-completion-script bash > "$stage/share/bash-completion/completions/almanac"
"$binary" --generate-completion-script zsh > "$stage/share/zsh/site-functions/_almanac"
"$binary" --generate-completion-script fish > "$stage/share/fish/vendor_completions.d/almanac.fish"

# The man page, from the binary's own help (swift-argument-parser's generate-manual).
Scripts/generate-manual.sh "$binary" "$static/man" "$scratch-tools"
install -m 644 "$static/man/almanac.1" "$stage/share/man/man1/almanac.1"

install -m 644 LICENSE README.md "$stage/"
install -m 644 Examples/family-calendar.ics "$stage/share/doc/almanac/"
{
    echo "Almanac $version links these statically; their licences follow."
    echo
    echo "== OpenCC's conversion tables (Apache License 2.0) =="
    cat Scripts/opencc/LICENSE
    echo
    echo "== The Swift runtime and Foundation (Apache License 2.0 with Runtime Library Exception, https://swift.org/LICENSE.txt) =="
    for package in libicu-dev libxml2-dev zlib1g-dev liblzma-dev $($isal && echo libisal-dev); do
        echo
        echo "== $package (Debian's copyright file) =="
        cat "/usr/share/doc/$package/copyright"  # a licence missing stops the release (set -e)
    done
} > "$stage/THIRD-PARTY-LICENSES"

mkdir -p "$output"
tarball="$output/$name.tar.gz"
# Reproducible: files sorted, owned by root, dated by the commit.
mtime="@$(git log -1 --format=%ct 2>/dev/null || date +%s)"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$mtime" -C "$static" -cf - "$name" | gzip -n -9 > "$tarball.part"
mv "$tarball.part" "$tarball"
(cd "$output" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
size=$(du -h "$tarball" | cut -f1)
echo "release.sh: $tarball ($size), $(cut -d' ' -f1 "$tarball.sha256")" >&2
echo "$tarball"
