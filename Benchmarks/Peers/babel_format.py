#!/usr/bin/env python3
"""The per-region formatting peer: the first N rows' dates (long style) and TWD amounts with Babel.

    babel_format.py FILE LOCALE N
"""
import csv, datetime, sys
from babel.dates import format_date
from babel.numbers import format_currency

path, locale, limit = sys.argv[1], sys.argv[2].replace("-", "_"), int(sys.argv[3])
rows = characters = 0
with open(path, newline="", encoding="utf-8") as f:
    for record in csv.DictReader(f):
        if rows >= limit:
            break
        day = datetime.date.fromisoformat(record["date"])
        characters += len(format_date(day, format="long", locale=locale))
        characters += len(format_currency(int(record["amount_twd"]), "TWD", locale=locale))
        rows += 1
print("rows %d characters %d" % (rows, characters))
