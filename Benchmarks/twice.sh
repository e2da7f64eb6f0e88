#!/usr/bin/env bash
# A planted 2× slowdown, to show that the regression guard catches one: runs the almanac given in
# ALMANAC (default: the release build compare.py makes) twice on the same arguments, the first
# time writing its output (-o PATH) beside the real one as PATH.first, so that both runs do the
# whole job (a batch into the same folder twice would skip every file the second time).
#   python3 Benchmarks/compare.py --check --almanac Benchmarks/twice.sh     # must fail
almanac=${ALMANAC:-$(dirname "$0")/../.build-static/release/almanac}
first=("$@")
for index in "${!first[@]}"; do
    if [ "${first[$index]}" = "-o" ] && [ $((index + 1)) -lt ${#first[@]} ]; then
        first[$((index + 1))]="${first[$((index + 1))]}.first"
    fi
done
"$almanac" "${first[@]}" >/dev/null 2>&1
exec "$almanac" "$@"
