#!/usr/bin/env python3
"""The per-region workbook peer: what a person would write with openpyxl (write-only mode, its
fastest) and Babel instead of `almanac convert days.csv --via agenda --to xlsx --locale zh-TW` —
read gen.py's CSV, write a sheet for a reader in the locale: headers in Traditional Chinese,
dates as date cells in the locale's short date format (from Babel's pattern), the rest as text.

    openpyxl_export.py IN OUT LOCALE
"""
import csv, datetime, sys
from babel.dates import get_date_format
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell

source, target, locale = sys.argv[1], sys.argv[2], sys.argv[3].replace("-", "_")
# Babel's short date pattern (y/M/d in Taipei) as an Excel number format.
pattern = get_date_format("short", locale=locale).pattern
excel = pattern.replace("yyyy", "y").replace("y", "yyyy").replace("M", "m")
workbook = Workbook(write_only=True)
sheet = workbook.create_sheet("工作表1")
sheet.freeze_panes = "A2"
sheet.append(["名稱", "日期", "類型", "分類", "備註", "金額"])
rows = 0
with open(source, newline="", encoding="utf-8") as f:
    for record in csv.DictReader(f):
        day = WriteOnlyCell(sheet, value=datetime.date.fromisoformat(record["date"]))
        day.number_format = excel
        sheet.append([record["name"], day, record["type"], record["category"], record["notes"], record["amount_twd"]])
        rows += 1
workbook.save(target)
print("rows %d" % rows)
