#!/usr/bin/env python3
"""The batch peer: what a person would write with Python's icalendar instead of almanac convert —
walk a folder, parse each calendar, write its events and to-dos as JSON beside the others.

    icalendar_batch.py INDIR OUTDIR JOBS
"""
import json, os, sys
from multiprocessing import Pool
import icalendar


def records(calendar):
    """A calendar's events and to-dos as the JSON records a person would write."""
    items = []
    for component in calendar.walk():
        if component.name in ("VEVENT", "VTODO"):
            start = component.get("DTSTART") or component.get("DUE")
            items.append({"uid": str(component.get("UID", "")), "title": str(component.get("SUMMARY", "")),
                          "date": start.dt.isoformat() if start else None,
                          "rule": component.get("RRULE").to_ical().decode() if component.get("RRULE") else None})
    return items


def convert(job):
    source, target = job
    try:
        with open(source, "rb") as f:
            calendar = icalendar.Calendar.from_ical(f.read())
        items = records(calendar)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target + ".tmp", "w", encoding="utf-8") as f:
            json.dump({"items": items}, f, ensure_ascii=False, indent=2)
            f.flush()
            os.fsync(f.fileno())
        os.replace(target + ".tmp", target)
        return len(items), None
    except Exception as error:  # one bad file fails alone
        return 0, "%s: %s" % (source, error)


def main():
    indir, outdir, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    work = []
    for folder, _, names in os.walk(indir):
        for name in sorted(names):
            if name.endswith(".ics"):
                source = os.path.join(folder, name)
                work.append((source, os.path.join(outdir, os.path.relpath(source, indir))[:-4] + ".json"))
    with Pool(jobs) as pool:
        results = pool.map(convert, work, chunksize=64)
    failed = [error for _, error in results if error]
    print("files %d records %d failed %d" % (len(work) - len(failed), sum(count for count, _ in results), len(failed)))


if __name__ == "__main__":
    main()
