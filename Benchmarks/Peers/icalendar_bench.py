"""Python icalendar on the benchmark workloads: parse (Calendar.from_ical), expand with
recurring-ical-events, or json (the events and to-dos written as JSON, what a person writes with
icalendar to get an app's backup: icalendar_batch.py's record for one large file)."""
import json, sys
import icalendar
calendar = icalendar.Calendar.from_ical(open(sys.argv[2], "rb").read())
if sys.argv[1] == "parse":
    print("items", len(calendar.walk("VEVENT")) + len(calendar.walk("VTODO")))
elif sys.argv[1] == "json":
    from icalendar_batch import records
    items = records(calendar)
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        json.dump({"items": items}, f, ensure_ascii=False, indent=2, sort_keys=True)
    print("records", len(items))
else:
    import datetime, recurring_ical_events
    start = datetime.date.fromisoformat(sys.argv[3]); end = datetime.date.fromisoformat(sys.argv[4])
    print("occurrences", len(list(recurring_ical_events.of(calendar, components=["VEVENT", "VTODO"]).between(start, end))))
