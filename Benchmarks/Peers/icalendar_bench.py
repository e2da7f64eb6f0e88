"""Python icalendar on the benchmark workloads: parse (Calendar.from_ical) or expand with
recurring-ical-events."""
import sys
import icalendar
calendar = icalendar.Calendar.from_ical(open(sys.argv[2], "rb").read())
if sys.argv[1] == "parse":
    print("items", len(calendar.walk("VEVENT")) + len(calendar.walk("VTODO")))
else:
    import datetime, recurring_ical_events
    start = datetime.date.fromisoformat(sys.argv[3]); end = datetime.date.fromisoformat(sys.argv[4])
    print("occurrences", len(list(recurring_ical_events.of(calendar, components=["VEVENT", "VTODO"]).between(start, end))))
