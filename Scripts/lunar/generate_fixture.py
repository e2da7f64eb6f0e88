#!/usr/bin/env python3
"""Write Tests/AlmanacICUTests/Fixtures/lunar-hko.txt from lunardate (Hong Kong Observatory table).

    pip install lunardate==0.3.0
    python3 Scripts/lunar/generate_fixture.py > Tests/AlmanacICUTests/Fixtures/lunar-hko.txt

One line per lunar month from 1900 to 2099: the Gregorian date of its first day, the lunar year,
the month number with an L for a leap month, and its length. The test walks every day of
1901-01-01...2099-12-31 through these months and compares with ChineseCalendar.
"""
import datetime
from lunardate import LunarDate

print("# lunar months from lunardate 0.3.0 (Hong Kong Observatory data): first-day year month[L] days")
start = datetime.date(1900, 1, 31)
end = datetime.date(2100, 2, 1)
day = start
current = None
length = 0
while day <= end:
    try:
        lunar = LunarDate.from_solar_date(day.year, day.month, day.day)
    except ValueError:  # past the end of lunardate's table
        break
    if lunar.day == 1:
        if current:
            print("%s %d %d%s %d" % (current[0].isoformat(), current[1], current[2], "L" if current[3] else "", length))
        current = (day, lunar.year, lunar.month, lunar.isLeapMonth)
        length = 0
    length += 1
    day += datetime.timedelta(days=1)
