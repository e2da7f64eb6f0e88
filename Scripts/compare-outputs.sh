#!/bin/bash
# Runs every fixture and example through two almanac binaries and says which runs differ: the check
# of a refactoring that must not change what users see (code-form rounds).
#
#   Scripts/compare-outputs.sh OLD_ALMANAC NEW_ALMANAC [WORK_DIR]
#
# Each file under Tests/**/Fixtures and Examples goes through `inspect --json`, `convert --to X -o -`
# for 14 targets and `--to csv --locale zh-TW --lang zh-Hans`, and `expand` (text, and JSON in zh-Hant)
# when it may be a calendar; then `lunar` both ways with bad dates, `audit` of each audit fixture and
# of Locales (JSON, and zh-Hant text), `formats --json`. Standard output, standard error and the exit
# status of each run are kept in WORK_DIR/{old,new}; the summary counts identical runs and lists the
# others (a backup's exportedAt, the time of the run, is told apart). About 8,800 runs: 10 minutes
# for two release builds, 40 for debug ones, on two cores.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_ALMANAC NEW_ALMANAC [WORK_DIR]" >&2
  exit 2
fi
OLD=$(realpath "$1"); NEW=$(realpath "$2"); WORK=${3:-$(mktemp -d)}
cd "$(dirname "$0")/.."

snapshot() {
  local bin=$1 out=$2
  rm -rf "$out"; mkdir -p "$out"
  run() { local name=$1; shift; TZ=Asia/Taipei LANG=C.UTF-8 "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo $? >"$out/$name.rc"; }
  find Tests Examples \( -path '*Fixtures*' -o -path 'Examples/*' \) -type f ! -name '*.swift' | sort | while read -r f; do
    n=$(echo "$f" | tr '/ ' '__')
    run "$n.inspect" inspect --json "$f"
    case "$f" in
      *.ics|*.jcal*|*.xcal*|*.xcs|*.json)
        run "$n.expand" expand "$f" --from 2020-01-01 --until 2031-01-01
        run "$n.expandj" expand "$f" --from 2024-01-01 --until 2027-01-01 --json --lang zh-Hant ;;
    esac
    for to in ics jcal xcal csv agenda-json retiretime-backup table-json ledger-json catalog-json xcstrings strings xliff jsonl; do
      run "$n.to-$to" convert "$f" --to $to -o -
    done
    run "$n.to-csv-tw" convert "$f" --to csv --locale zh-TW --lang zh-Hans -o -
  done
  run lunar lunar 2025-01-29 2025-07-25 2033-12-22 2099-12-31 1900-01-31 2024-02-30 bad
  run lunarg lunar --to-gregorian 2025-06L-01 2025-01-01 2025-13-01 2025-06L-31 x --json
  run lunarh lunar 2025-01-29 --script hans --json
  for d in Tests/AlmanacAuditTests/Fixtures/* Locales; do
    n=$(echo "$d" | tr '/ ' '__')
    run "audit.$n" audit "$d" --format json
    run "audit-text.$n" audit "$d" --lang zh-Hant
  done
  run formats formats --json
}

snapshot "$OLD" "$WORK/old"
snapshot "$NEW" "$WORK/new"
python3 - "$WORK" <<'EOF'
import os, re, sys, filecmp
work = sys.argv[1]
runs = sorted({re.sub(r"\.(out|err|rc)$", "", name) for name in os.listdir(os.path.join(work, "old"))})
same, timestamps, differ = 0, [], []
for run in runs:
    changed = [part for part in ("out", "err", "rc")
               if not filecmp.cmp(os.path.join(work, "old", run + "." + part), os.path.join(work, "new", run + "." + part), shallow=False)]
    if not changed:
        same += 1
        continue
    old = open(os.path.join(work, "old", run + ".out"), encoding="utf-8", errors="replace").read()
    new = open(os.path.join(work, "new", run + ".out"), encoding="utf-8", errors="replace").read()
    strip = lambda text: re.sub(r'"exportedAt": "[^"]*"', "", text)
    (timestamps if changed == ["out"] and strip(old) == strip(new) else differ).append(run + " (" + ", ".join(changed) + ")")
print("%d runs: %d identical, %d differ only in exportedAt, %d differ (outputs in %s)" % (len(runs), same, len(timestamps), len(differ), work))
for run in differ:
    print("  " + run)
EOF
