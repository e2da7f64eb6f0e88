#!/usr/bin/env bash
# A planted 2× slowdown, to show that the regression guard catches one: runs the almanac given in
# ALMANAC (default: this checkout's release build) twice on the same arguments.
#   python3 Benchmarks/compare.py --check --almanac Benchmarks/twice.sh     # must fail
almanac=${ALMANAC:-$(dirname "$0")/../.build/release/almanac}
"$almanac" "$@" >/dev/null 2>&1
exec "$almanac" "$@"
