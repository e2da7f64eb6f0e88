#!/usr/bin/env bash
# Runs the repository's pre-commit hook as a user's project would: Examples/StudyKit in a git
# repository of its own, with a .pre-commit-config.yaml naming this repository at a commit.
#   Scripts/pre-commit/check-hook.sh ALMANAC_BIN_DIR [HOOK_ID] [REV]
# ALMANAC_BIN_DIR holds an `almanac` (for almanac-audit-system); HOOK_ID defaults to
# almanac-audit-system; REV to HEAD (commit first: pre-commit clones the repository at REV).
# Checks: a commit that touches no catalog passes without running the hook; a commit that changes
# the zh-Hans strings fails with the missing key planted in zh-Hant, named with file and line
# (the whole table is audited, not the one file); a commit that fixes it passes. For a fixing hook
# (almanac-audit-fix-system): the hook fixes the change in place, the commit stops once, then passes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin_dir=$(cd "$1" && pwd)
hook=${2:-almanac-audit-system}
rev=${3:-$(git -C "$repo" rev-parse HEAD)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$bin_dir:$PATH" PRE_COMMIT_HOME="$work/cache"
cp -R "$repo/Examples/StudyKit" "$work/app"
cd "$work/app"
rm -rf .build
git init -q
git config user.email ci@example.com
git config user.name ci
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: $hook
        args: [--base, zh-Hans]
YAML
git add -A
git commit -q --no-verify -m "The app as it is"
python3 -m pre_commit install >/dev/null

fail() { echo "check-hook: $*" >&2; exit 1; }
strings=Sources/StudyKit/Resources
if [[ $hook == *-fix* ]]; then
    # The fixing hook: a zh-Hans change with half-width punctuation and the key planted missing in
    # zh-Hant. The hook drafts the zh-Hant key in place (marked for review) and suggests the comma
    # (halfwidth-punctuation is applied only when named: AuditFixer.suggestedOnly), so the commit
    # stops as pre-commit stops on a changed file; the change added, the commit goes through.
    printf '\n"memory.rate.note" = "复习笔记, 每天一次";\n' >> "$strings/zh-Hans.lproj/Localizable.strings"
    printf '\n"memory.rate.note" = "Review notes, once a day";\n' >> "$strings/en.lproj/Localizable.strings"
    git add -A
    if git commit -q -m "A zh-Hans change" >"$work/out" 2>&1; then cat "$work/out"; fail "a commit the hook fixed went through unchanged"; fi
    cat "$work/out"
    grep -q "Fixed" "$work/out" || fail "the hook did not say what it fixed"
    grep -q '"memory.rate.note" = "复习笔记, 每天一次";' "$strings/zh-Hans.lproj/Localizable.strings" || fail "the suggested-only comma was changed"
    grep -q 'suggested: 复习笔记，每天一次' "$work/out" || fail "the comma's fix was not suggested"
    grep -q 'Needs review: drafted by almanac audit --fix' "$strings/zh-Hant.lproj/Localizable.strings" || fail "zh-Hant's missing key was not drafted"
    git add -A
    git commit -q -m "Fixed by the hook" >"$work/out" 2>&1 || { cat "$work/out"; fail "the fixed catalogs were refused"; }
    echo "check-hook: $hook passed (fixed in place, the commit stopped once, then went through)"
    exit 0
fi
# 1. No catalog changed: the hook is skipped and the commit goes through.
echo "// touched" >> Sources/StudyKit/StudyKit.swift
git add -A
git commit -q -m "Code only" >"$work/out" 2>&1 || { cat "$work/out"; fail "a commit without catalogs was refused"; }
grep -q "no files to check" "$work/out" || { cat "$work/out"; fail "the hook ran on a commit without catalogs"; }
# 2. zh-Hans changed: its table is audited whole, and zh-Hant's missing key fails the commit.
printf '\n"memory.rate.note" = "复习笔记";\n' >> "$strings/zh-Hans.lproj/Localizable.strings"
git add -A
if git commit -q -m "A zh-Hans change" >"$work/out" 2>&1; then cat "$work/out"; fail "the planted missing key did not fail the commit"; fi
cat "$work/out"
grep -q "zh-Hans.lproj/Localizable.strings" "$work/out" || fail "the finding does not name the file"
grep -Eq '^ +22:1 +error +missing-key .*memory\.rate\.hard.* is missing in zh-Hant' "$work/out" \
    || fail "the finding does not give the line and the key"
# 3. The key added in zh-Hant (and en, where the new one is missing too): the commit goes through.
printf '\n"memory.rate.hard" = "困難";\n"memory.rate.note" = "複習筆記";\n' >> "$strings/zh-Hant.lproj/Localizable.strings"
printf '\n"memory.rate.note" = "Review notes";\n' >> "$strings/en.lproj/Localizable.strings"
git add -A
git commit -q -m "Fixed" >"$work/out" 2>&1 || { cat "$work/out"; fail "the fixed catalogs were refused"; }
echo "check-hook: $hook passed (skipped without catalogs, failed on the missing key with file and line, passed once fixed)"
