#!/usr/bin/env python3
"""Write a folder of small calendar exports shaped like the real ones, deterministically.

    ics_folder.py N OUTDIR [--corrupt K]

N files in OUTDIR/<exporter>/<year>/, 3–12 items each, in the four shapes users bring:
Google (X-WR-TIMEZONE, UTC times, lunar birthdays as RSCALE rules), Outlook (Windows zone names
with their VTIMEZONE, CRLF, folded lines), Apple (TZID=Asia/Taipei with VTIMEZONE, VALARMs,
to-dos) and a Chinese calendar app (all-day lunar festivals, zh-Hant text). With --corrupt K,
file number K (0-based) is cut in the middle of a component and given an invalid date, as a
truncated mail attachment would be. The same arguments always give the same bytes.
"""
import os
import random
import sys

TITLES_EN = ["Team sync", "Dentist", "Pay rent", "Call Mom", "Gym", "Flight to Taipei", "Book club", "Project review",
             "Pick up parcel", "Car service", "Piano lesson", "Quarterly taxes"]
TITLES_ZH = ["媽媽生日", "繳房貸", "中秋節烤肉", "回診", "家庭聚餐", "繳信用卡費", "阿嬤生日", "尾牙", "除夕團圓飯", "清明掃墓"]
ZONES = [("Asia/Taipei", "Taipei Standard Time", "+0800"), ("America/New_York", "Eastern Standard Time", "-0500"),
         ("Asia/Shanghai", "China Standard Time", "+0800")]


def fold(line):
    """RFC 5545 folding at 75 octets, as Outlook writes it."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return [line]
    out, current = [], b""
    for ch in line:
        b = ch.encode("utf-8")
        if len(current) + len(b) > (75 if not out else 74):
            out.append(current.decode("utf-8"))
            current = b""
        current += b
    out.append(current.decode("utf-8"))
    return [out[0]] + [" " + part for part in out[1:]]


def stamp(rng):
    return "2025%02d%02dT%02d%02d00Z" % (rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.choice([0, 15, 30, 45]))


def google(rng, index):
    zone = ZONES[index % len(ZONES)][0]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", "X-WR-CALNAME:Family %d" % index, "X-WR-TIMEZONE:" + zone]
    for item in range(rng.randint(3, 12)):
        lines += ["BEGIN:VEVENT", "DTSTART:%s" % stamp(rng), "DTEND:%s" % stamp(rng), "DTSTAMP:%s" % stamp(rng),
                  "UID:%08x%04x@google.com" % (rng.getrandbits(32), item), "CREATED:%s" % stamp(rng),
                  "SUMMARY:" + rng.choice(TITLES_EN), "STATUS:CONFIRMED", "TRANSP:OPAQUE"]
        if rng.random() < 0.3:
            lines.append("RRULE:FREQ=WEEKLY;BYDAY=%s;COUNT=%d" % (rng.choice(["MO", "TU", "WE", "TH", "FR"]), rng.randint(2, 20)))
        if rng.random() < 0.2:
            lines.append("RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=%d;BYMONTHDAY=%d;SKIP=FORWARD" % (rng.randint(1, 12), rng.randint(1, 29))
                         if not lines[-1].startswith("RRULE") else "DESCRIPTION:lunar")
        lines.append("END:VEVENT")
    return lines + ["END:VCALENDAR"]


def outlook(rng, index):
    zone, windows, offset = ZONES[index % len(ZONES)]
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0", "METHOD:PUBLISH",
             "X-MS-OLK-FORCEINSPECTOROPEN:TRUE", "BEGIN:VTIMEZONE", "TZID:" + windows, "BEGIN:STANDARD", "DTSTART:16010101T000000",
             "TZOFFSETFROM:" + offset, "TZOFFSETTO:" + offset, "END:STANDARD", "END:VTIMEZONE"]
    for item in range(rng.randint(3, 12)):
        day = "2025%02d%02d" % (rng.randint(1, 12), rng.randint(1, 28))
        hour = rng.randint(8, 18)
        lines += ["BEGIN:VEVENT", "CLASS:PUBLIC", "CREATED:%s" % stamp(rng),
                  "DESCRIPTION:" + "Agenda: " + ", ".join(rng.sample(TITLES_EN, 4)) + ". Join from the meeting room or online.\\n",
                  "DTEND;TZID=\"%s\":%sT%02d3000" % (windows, day, hour), "DTSTAMP:%s" % stamp(rng),
                  "DTSTART;TZID=\"%s\":%sT%02d0000" % (windows, day, hour), "LOCATION:Room %d" % rng.randint(100, 999),
                  "PRIORITY:5", "SEQUENCE:0", "SUMMARY;LANGUAGE=en-us:" + rng.choice(TITLES_EN), "TRANSP:OPAQUE",
                  "UID:040000008200E00074C5B7101A82E00800000000%016x" % rng.getrandbits(64),
                  "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "X-MICROSOFT-CDO-IMPORTANCE:1", "END:VEVENT"]
    return [folded for line in lines + ["END:VCALENDAR"] for folded in fold(line)]


def apple(rng, index):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//macOS 15.1//EN", "CALSCALE:GREGORIAN",
             "BEGIN:VTIMEZONE", "TZID:Asia/Taipei", "BEGIN:STANDARD", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800",
             "TZNAME:GMT+8", "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"]
    for item in range(rng.randint(3, 12)):
        day = "2025%02d%02d" % (rng.randint(1, 12), rng.randint(1, 28))
        if rng.random() < 0.4:
            lines += ["BEGIN:VTODO", "UID:%08X-%04X-%04X-%04X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                                                      rng.getrandbits(16), rng.getrandbits(48)),
                      "DTSTAMP:%s" % stamp(rng), "SUMMARY:" + rng.choice(TITLES_ZH + TITLES_EN), "DUE;VALUE=DATE:" + day,
                      "PRIORITY:%d" % rng.choice([0, 1, 5, 9]), "STATUS:NEEDS-ACTION", "END:VTODO"]
            continue
        lines += ["BEGIN:VEVENT", "UID:%08X-%04X-4%03X-A%03X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                                       rng.getrandbits(12), rng.getrandbits(48)),
                  "DTSTAMP:%s" % stamp(rng), "DTSTART;TZID=Asia/Taipei:%sT%02d0000" % (day, rng.randint(7, 20)),
                  "DTEND;TZID=Asia/Taipei:%sT%02d0000" % (day, 21), "SUMMARY:" + rng.choice(TITLES_ZH), "SEQUENCE:0",
                  "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT%dM" % rng.choice([5, 15, 30, 60]),
                  "X-WR-ALARMUID:%08X" % rng.getrandbits(32), "END:VALARM", "END:VEVENT"]
    return lines + ["END:VCALENDAR"]


def chinese(rng, index):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Lunar Calendar//zh-Hant//TW", "X-WR-CALNAME:農曆節日"]
    for item in range(rng.randint(3, 12)):
        month, day = rng.randint(1, 12), rng.randint(1, 29)
        lines += ["BEGIN:VEVENT", "UID:lunar-%d-%d@calendar.example.tw" % (index, item), "DTSTAMP:%s" % stamp(rng),
                  "DTSTART;VALUE=DATE:2025%02d%02d" % (rng.randint(1, 12), rng.randint(1, 28)),
                  "RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=%d;BYMONTHDAY=%d" % (month, day),
                  "SUMMARY:" + rng.choice(TITLES_ZH) + "（農曆%d月%d日）" % (month, day), "CATEGORIES:家庭,節日", "END:VEVENT"]
    return lines + ["END:VCALENDAR"]


SHAPES = [("google", google), ("outlook", outlook), ("apple", apple), ("lunar", chinese)]


def main():
    args = sys.argv[1:]
    corrupt = None
    if "--corrupt" in args:
        at = args.index("--corrupt")
        corrupt = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    count, out = int(args[0]), args[1]
    rng = random.Random(20261122)
    for index in range(count):
        name, shape = SHAPES[index % len(SHAPES)]
        lines = shape(rng, index)
        if index == corrupt:
            lines = lines[: len(lines) // 2] + ["DTSTART:2025-13-45", "BEGIN:VEVENT"]
        folder = os.path.join(out, name, str(2020 + index % 6))
        os.makedirs(folder, exist_ok=True)
        newline = "\r\n" if name != "lunar" else "\n"
        with open(os.path.join(folder, "%s-%05d.ics" % (name, index)), "w", encoding="utf-8", newline="") as f:
            f.write(newline.join(lines) + newline)


if __name__ == "__main__":
    main()
