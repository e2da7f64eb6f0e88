#!/usr/bin/env python3
"""recurring-ical-events as a peer for Almanac's tests.

    rie-peer.py FILE FROM UNTIL    every occurrence in [FROM, UNTIL) with overrides applied,
                                   one "UID<TAB>START" line each, START written as libical-peer does
                                   (D: dates, F: floating, U: UTC instants). FROM/UNTIL: YYYY-MM-DD.
"""
import datetime, sys
import icalendar, recurring_ical_events

def form(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return "F:" + value.strftime("%Y%m%dT%H%M%S")
        return "U:" + value.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return "D:" + value.isoformat()

calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
start = datetime.date.fromisoformat(sys.argv[2])
end = datetime.date.fromisoformat(sys.argv[3])
for event in recurring_ical_events.of(calendar, components=["VEVENT"]).between(start, end):
    print("%s\t%s" % (event["UID"], form(event["DTSTART"].dt)))
