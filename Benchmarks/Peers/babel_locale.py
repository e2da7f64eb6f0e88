"""Babel (PyPI `babel`) doing what `almanac locale show zh-TW` does: a date in full and short
forms, a time, a TWD amount in the locale's currency format, a number and a percentage."""
import datetime, sys
from babel import Locale
from babel.dates import format_date, format_time
from babel.numbers import format_currency, format_decimal, format_percent

locale = Locale.parse(sys.argv[1].replace("-", "_"))
now = datetime.datetime(2025, 3, 5, 14, 30)
print(format_date(now, "full", locale=locale))
print(format_date(now, "short", locale=locale))
print(format_time(now, "short", locale=locale))
print(format_currency(1234567.5, "TWD", locale=locale))
print(format_decimal(1234567.891, locale=locale))
print(format_percent(0.256, locale=locale))
