#!/usr/bin/env python3
"""The workbook-reading peer: what a person would write with openpyxl (read-only mode, its
fastest) instead of `almanac convert days.xlsx --to csv` — read the first sheet's rows, dates as
ISO dates, everything else as text, and write them as CSV.

    openpyxl_import.py IN.xlsx OUT.csv
"""
import csv, datetime, sys
from openpyxl import load_workbook

source, target = sys.argv[1], sys.argv[2]
workbook = load_workbook(source, read_only=True)
rows = 0
with open(target, "w", newline="", encoding="utf-8-sig") as out:
    writer = csv.writer(out)
    for row in workbook.worksheets[0].iter_rows(values_only=True):
        writer.writerow(["" if value is None else value.date().isoformat() if isinstance(value, datetime.datetime) and value.time() == datetime.time()
                         else value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else value for value in row])
        rows += 1
print("rows %d" % rows)
