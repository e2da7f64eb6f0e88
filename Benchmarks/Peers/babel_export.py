#!/usr/bin/env python3
"""The per-region export peer: what a person would write with Python's csv module and Babel instead
of `almanac convert days.csv --via agenda --to csv --locale zh-TW` — read gen.py's CSV, write
it for a reader in the locale: dates in the locale's medium style, amounts as TWD, headers in
Traditional Chinese.

    babel_export.py IN OUT LOCALE
"""
import csv, datetime, sys
from babel.dates import format_date
from babel.numbers import format_currency

source, target, locale = sys.argv[1], sys.argv[2], sys.argv[3].replace("-", "_")
rows = 0
with open(source, newline="", encoding="utf-8") as f, open(target, "w", newline="", encoding="utf-8-sig") as out:
    writer = csv.writer(out)
    writer.writerow(["名稱", "日期", "類型", "分類", "備註", "金額"])
    for record in csv.DictReader(f):
        day = datetime.date.fromisoformat(record["date"])
        writer.writerow([record["name"], format_date(day, format="medium", locale=locale), record["type"], record["category"],
                         record["notes"], format_currency(int(record["amount_twd"]), "TWD", locale=locale)])
        rows += 1
print("rows %d" % rows)
