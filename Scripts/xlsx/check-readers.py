#!/usr/bin/env python3
"""Open Almanac's workbooks with readers Almanac did not write: openpyxl (PyPI) and gnumeric's
ssconvert. Each expected cell is checked for its type and number format as a person in Taipei or
New York would see it. Exit 1 on the first difference, printing it.

    python3 Scripts/xlsx/check-readers.py .build/debug/almanac
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile

import openpyxl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALMANAC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "almanac"))
failures = []


def convert(example, locale, out, *options):
    command = [ALMANAC, "convert", os.path.join(ROOT, "Examples", example), "--to", "xlsx", "--locale", locale,
               "--time-zone", "Asia/Taipei", "-o", out, "--option", "today=2025-12-01"]
    for option in options:
        command += ["--option", option]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):  # 1: converted with warnings
        failures.append(f"{' '.join(command)} exited {result.returncode}: {result.stderr}")
    return out


def expect(path, sheet, cell, value, number_format=None):
    for read_only in (False, True):
        workbook = openpyxl.load_workbook(path, read_only=read_only)
        if sheet not in workbook.sheetnames:
            failures.append(f"{path}: no sheet {sheet!r} (has {workbook.sheetnames})")
            return
        found = workbook[sheet][cell]
        if found.value != value or type(found.value) is not type(value):
            failures.append(f"{path} {sheet}!{cell} (read_only={read_only}): {found.value!r}, expected {value!r}")
        if number_format is not None and found.number_format != number_format:
            failures.append(f"{path} {sheet}!{cell}: format {found.number_format!r}, expected {number_format!r}")
        workbook.close()


def main():
    folder = tempfile.mkdtemp(prefix="almanac-xlsx-")
    try:
        taipei = convert("jellysave-backup.json", "zh-TW", os.path.join(folder, "ledger-zh-TW.xlsx"), "sheet=all")
        expect(taipei, "帳戶", "A1", "帳戶")
        expect(taipei, "帳戶", "D2", 1234567.5, '"$"#,##0')
        expect(taipei, "帳戶", "D5", 3200.5, '"US$"#,##0.00')
        expect(taipei, "帳戶", "F2", datetime.datetime(2025, 11, 19), "[$-404]yyyy/m/d")
        expect(taipei, "餘額變動", "D2", -32000, '"$"#,##0')
        expect(taipei, "儲蓄目標", "F2", 0.375, "0.0%")
        expect(taipei, "資產快照", "C2", 1912000, '"$"#,##0')
        workbook = openpyxl.load_workbook(taipei)
        if workbook["帳戶"].freeze_panes != "A2":
            failures.append(f"{taipei}: header row not frozen ({workbook['帳戶'].freeze_panes})")

        new_york = convert("jellysave-backup.json", "en-US", os.path.join(folder, "ledger-en-US.xlsx"), "sheet=all")
        expect(new_york, "Accounts", "D2", 1234567.5, '"NT$"#,##0')
        expect(new_york, "Accounts", "F2", datetime.datetime(2025, 11, 19), "[$-409]m/d/yyyy")

        days = convert("retiretime-backup.json", "zh-TW", os.path.join(folder, "days-zh-TW.xlsx"))
        expect(days, "工作表1", "A2", "媽媽生日")
        expect(days, "工作表1", "B2", datetime.datetime(2025, 10, 6), "[$-404]yyyy/m/d")
        roc = convert("retiretime-backup.json", "zh-TW", os.path.join(folder, "days-roc.xlsx"), "calendar=roc")
        expect(roc, "工作表1", "B2", datetime.datetime(2025, 10, 6), '[$-404]"民國"e/m/d')

        calendar = convert("family-calendar.ics", "en-US", os.path.join(folder, "family-en-US.xlsx"), "relative=yes")
        expect(calendar, "Sheet1", "D5", datetime.time(9, 0), "[$-409]h:mm AM/PM")
        expect(calendar, "Sheet1", "E5", datetime.datetime(2025, 9, 5, 9, 30), "[$-409]m/d/yyyy h:mm AM/PM")

        # gnumeric opens every workbook and reads the same values.
        if shutil.which("ssconvert"):
            for path in (taipei, new_york, days, calendar):
                result = subprocess.run(["ssconvert", "-S", path, path + "-%n.csv"], capture_output=True, text=True)
                if result.returncode != 0 or "CRITICAL" in result.stderr:
                    failures.append(f"ssconvert {path}: {result.returncode} {result.stderr.strip()}")
            with open(taipei + "-0.csv", encoding="utf-8") as handle:
                lines = handle.read().splitlines()
            if not lines[1].startswith("台新活存,現金,TWD,1234567.5,1000000,2025/11/19"):
                failures.append(f"ssconvert {taipei}: second row {lines[1]!r}")
    finally:
        shutil.rmtree(folder)
    for failure in failures:
        print(failure)
    print(f"check-readers: {'FAILED' if failures else 'ok'} (openpyxl {openpyxl.__version__}{', gnumeric' if shutil.which('ssconvert') else ''})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
