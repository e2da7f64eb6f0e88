#!/usr/bin/env bash
# Writes almanac.1, the man page, from a built almanac's own help: swift-argument-parser's
# generate-manual tool (what its GenerateManual plugin runs), built here in release mode.
#
#     Scripts/generate-manual.sh BINARY OUTPUT-DIRECTORY [SCRATCH-PATH]
#
# generate-manual drops every character outside ASCII (its escaping keeps ASCII only), which would
# take 知习 out of the description. The help it reads goes through a filter that writes each such
# character as an ASCII marker, and the page gets them back as roff's \[uXXXX] escapes, which
# groff and mandoc both render.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
output=$2
scratch=${3:-.build-tools}

# --disable-sandbox: Homebrew builds inside its own sandbox, where SwiftPM cannot start one of its own.
swift build --disable-sandbox -c release --product generate-manual --scratch-path "$scratch" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tool generate-manual runs: the binary, its help's non-ASCII characters as @@UXXXX@@.
cat > "$work/almanac" <<WRAPPER
#!/bin/sh
"$binary" "\$@" | perl -CS -pe 's/([^\x00-\x7F])/sprintf("\@\@U%04X\@\@", ord(\$1))/ge'
WRAPPER
chmod +x "$work/almanac"
# The commit's day (GNU and BSD date differ; perl is on both).
date=$(perl -MPOSIX -e 'print strftime("%Y-%m-%d", gmtime(shift))' "$(git log -1 --format=%ct 2>/dev/null || date +%s)")
"$scratch/release/generate-manual" "$work/almanac" --section 1 --authors "The Almanac authors" \
    --date "$date" --output-directory "$work" >&2
perl -pe 's/\@\@U([0-9A-F]{4,6})\@\@/\\[u$1]/g' "$work/almanac.1" > "$work/almanac.1.part"
if grep -q '@@U' "$work/almanac.1.part"; then
    echo "generate-manual.sh: a character marker was not restored in almanac.1" >&2
    exit 1
fi
mkdir -p "$output"
mv "$work/almanac.1.part" "$output/almanac.1"
