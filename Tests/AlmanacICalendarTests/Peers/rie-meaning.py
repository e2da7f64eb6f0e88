#!/usr/bin/env python3
"""Whether calendars mean the same, as recurring-ical-events expands them.

    rie-meaning.py MANIFEST.json

MANIFEST is a list of {"name": N, "original": PATH, "variants": {LABEL: PATH, ...}}. Each file is
read with icalendar, X-WR-TIMEZONE applied as the x-wr-timezone tool does (Almanac's reader does
the same by default), and expanded by recurring-ical-events: the first 300 occurrences of every
VEVENT and VJOURNAL from 1900 on (its VTODO expansion can loop without end on to-dos that have no
DTSTART, so to-dos are left to Almanac's own tests), each as (UID, start, end) with UTC instants, floating
times and dates told apart. Prints one JSON object: {N: {"status": "same" | "differs" |
"original-unreadable", "detail": TEXT}}. An original the peer cannot read (or expand within 20
seconds) is not compared.
"""
import datetime, itertools, json, signal, sys, warnings
import icalendar, recurring_ical_events, x_wr_timezone

warnings.simplefilter("ignore")  # icalendar's notes on vendor TZIDs, not results
LIMIT = 300
SECONDS = 20


class PeerTimeout(Exception):
    pass


def timed_out(*_):
    raise PeerTimeout("more than %d seconds" % SECONDS)
EARLIEST = datetime.date(1900, 1, 1)


def form(value):
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return "F:" + value.strftime("%Y%m%dT%H%M%S")
        return "U:" + value.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return "D:" + value.isoformat()


def occurrences(path):
    signal.alarm(SECONDS)
    try:
        return expand(path)
    finally:
        signal.alarm(0)


def expand(path):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    calendar = x_wr_timezone.to_standard(calendar)
    query = recurring_ical_events.of(calendar, components=["VEVENT", "VJOURNAL"])
    found = []
    for component in itertools.islice(query.after(EARLIEST), LIMIT):
        start = component.get("DTSTART")
        end = component.get("DTEND") or component.get("DUE")
        found.append((str(component.get("UID", "")), form(start.dt if start else None), form(end.dt if end else None)))
    return sorted(found, key=lambda row: tuple(part or "" for part in row))


def main():
    signal.signal(signal.SIGALRM, timed_out)
    with open(sys.argv[1], encoding="utf-8") as handle:
        manifest = json.load(handle)
    results = {}
    for entry in manifest:
        name = entry["name"]
        try:
            reference = occurrences(entry["original"])
        except Exception as error:  # the peer's own limits: not a comparison
            results[name] = {"status": "original-unreadable", "detail": "%s: %s" % (type(error).__name__, error)}
            continue
        # Items without a UID get a stable one from Almanac: compare such files without UIDs.
        anonymous = any(row[0] == "" for row in reference)
        if anonymous:
            reference = sorted((("",) + row[1:] for row in reference), key=str)
        problems = []
        for label, path in sorted(entry["variants"].items()):
            try:
                found = occurrences(path)
            except Exception as error:
                problems.append("%s unreadable: %s: %s" % (label, type(error).__name__, error))
                continue
            if anonymous:
                found = sorted((("",) + row[1:] for row in found), key=str)
            if found != reference:
                missing = [row for row in reference if row not in found][:3]
                extra = [row for row in found if row not in reference][:3]
                problems.append("%s: %d vs %d occurrences; missing %s; extra %s" % (label, len(found), len(reference), missing, extra))
        results[name] = {"status": "differs" if problems else "same", "detail": "; ".join(problems), "count": len(reference)}
    json.dump(results, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
