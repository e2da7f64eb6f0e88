"""lunar-python (PyPI `lunar-python`) on a file of Gregorian dates, one a line: each date's lunar
year, month (leap or not), day and Chinese name, as `almanac lunar - --json` gives them."""
import json, sys
from lunar_python import Solar

rows = []
for line in open(sys.argv[1]):
    year, month, day = map(int, line.split("-"))
    lunar = Solar.fromYmd(year, month, day).getLunar()
    rows.append({"gregorian": line.strip(), "year": lunar.getYear(), "month": abs(lunar.getMonth()), "leap": lunar.getMonth() < 0,
                 "day": lunar.getDay(), "written": lunar.getMonthInChinese() + "月" + lunar.getDayInChinese(),
                 "yearName": lunar.getYearInGanZhi() + "年", "zodiac": lunar.getYearShengXiao()})
json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
