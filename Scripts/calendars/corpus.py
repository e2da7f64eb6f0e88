#!/usr/bin/env python3
"""The public calendar corpus: .ics files from other projects' test suites and real exports, expanded by Almanac
beside recurring-ical-events and libical, split by project before anyone looked.

    python3 Scripts/calendars/corpus.py discover              # the manifest from the mirrors (halves kept)
    python3 Scripts/calendars/corpus.py fetch [--half H]       # the manifest's files into the cache
    python3 Scripts/calendars/corpus.py run ALMANAC [--half H] [--only REPO,...] [--jobs N]
    python3 Scripts/calendars/corpus.py report [--half H] [--list N]
    python3 Scripts/calendars/corpus.py sample [--half H] [--per-class N]   # unjudged differences into judged.tsv

For each calendar, `run` finds a window (the year of its earliest DTSTART, four years long, from 1900 on) and
lists every occurrence of every event in it three ways: `almanac expand FILE --json` (in UTC), recurring-ical-events
on python-icalendar (X-WR-TIMEZONE applied by x-wr-timezone, as Almanac applies it), and libical 3 (its
recurrence sets; compared only on events without overrides, in files without X-WR-TIMEZONE, which libical does not
read). Occurrences are compared per UID as sets of starts: a date, a floating time, or a UTC instant. Then the
meaning is checked through Almanac's own writers: its `--to ics` and `--to jcal` outputs must expand to the same
occurrences in Almanac, and its `--to ics` output to the same occurrences in recurring-ical-events.

Results go into the cache (ALMANAC_CORPUS_CACHE, default ~/.cache/almanac-corpus/calendars), never into this
repository: the files' licences differ (the manifest says each), and CI does not fetch.
"""
import collections, datetime, hashlib, json, os, random, re, signal, subprocess, sys
import tempfile, warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from corpusfiles import append_judged, fetch_files, read_judged as read_judged_file  # noqa: E402
from corpusfiles import blobs, load_manifest as load_manifest_file, main as corpus_main, run_all, select  # noqa: E402
from corpusfiles import load_results as load_results_files, sample_rows  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
MANIFEST = os.path.join(HERE, "calendars.json")
JUDGED = os.path.join(HERE, "judged.tsv")
CACHE = os.path.join(os.environ.get("ALMANAC_CORPUS_CACHE", os.path.expanduser("~/.cache/almanac-corpus")), "calendars")
LIBICAL_PEER = os.path.join(ROOT, "Tests", "AlmanacICalendarTests", "Peers", "libical-peer.c")
SEED = "almanac-calendars-2026-11-28"
WINDOW_YEARS = 4
PEER_SECONDS = 20

# Projects whose test suites or samples hold calendars, with their licence (the files stay under it, in the cache).
PROJECTS = {
    "KDE/kcalendarcore": "LGPL-2.0-or-later (test data BSD-3-Clause / CC0 per REUSE)",
    "mangstadt/biweekly": "BSD-2-Clause",
    "py-vobject/vobject": "Apache-2.0",
    "icalendar/icalendar": "Ruby or BSD-2-Clause",
    "GNOME/evolution-data-server": "LGPL-2.0",
    "Peltoche/ical-rs": "Apache-2.0",
    "hoodie/icalendar-rs": "Apache-2.0 or MIT",
    "nextcloud/calendar": "AGPL-3.0",
    "cyrusimap/cyrus-imapd": "BSD-style (CMU)",
    "fullcalendar/fullcalendar": "MIT",
    "sebbo2002/ical-generator": "MIT",
    "PuloV/ics-golang": "MIT",
    # Already in Almanac's tests before this corpus (../shared/HELD-OUT.md): tuned on, so always "tuning".
    "collective/icalendar": "BSD-2-Clause",
    "niccokunzmann/python-recurring-ical-events": "LGPL-3.0",
    "pimutils/khal": "MIT",
    "kewisch/ical.js": "MPL-2.0",
    "libical/libical": "LGPL-2.1 or MPL-2.0",
    "ical4j/ical4j": "BSD-3-Clause",
    "stalwartlabs/calcard": "Apache-2.0 or MIT",
}
TUNED_BEFORE = {"collective/icalendar", "niccokunzmann/python-recurring-ical-events", "pimutils/khal", "kewisch/ical.js",
                "libical/libical", "ical4j/ical4j", "stalwartlabs/calcard"}
CALENDAR = re.compile(r"\.(ics|ical)$", re.IGNORECASE)
# Time zone databases written as VTIMEZONEs are not calendars people exchange.
SKIP = re.compile(r"(^|/)(zoneinfo[^/]*|tzdata[^/]*)/", re.IGNORECASE)


def load_manifest():
    return load_manifest_file(MANIFEST)


def calendars(manifest, half=None, only=None):
    return select(manifest, "calendars", half, only)


def cache_path(entry):
    return os.path.join(CACHE, "files", entry["blob"] + ".ics")


def producer_of(data):
    """The PRODID's product, to say which programs wrote the corpus (`-//Google Inc//Google Calendar 70.9054//EN`)."""
    match = re.search(rb"^PRODID[^:\r\n]*:([^\r\n]*)", data, re.MULTILINE)
    if not match:
        return ""
    parts = [p for p in match.group(1).decode("utf-8", "replace").split("//") if p and p != "-"]
    return " / ".join(parts[:2])[:80]


# --- discover ---------------------------------------------------------------------------------------------

def discover(args):
    old = load_manifest() if os.path.exists(MANIFEST) else {"projects": [], "calendars": []}
    old_halves = {p["repo"]: p["half"] for p in old["projects"]}
    projects, entries, left_out, seen = [], [], [], {}
    for repo in sorted(PROJECTS, key=str.lower):
        commit, date, found = blobs(repo, CALENDAR, seen, left_out, skip=SKIP)
        for path, blob, size, data in found:
            entries.append({"repo": repo, "path": path, "blob": blob, "size": size, "producer": producer_of(data)})
        projects.append({"repo": repo, "commit": commit, "date": date, "licence": PROJECTS[repo],
                         "half": old_halves.get(repo, "?"), "calendars": len(found)})
    if not old["projects"]:
        # The split, by project, before any file is read by Almanac: projects already in Almanac's tests are
        # tuned on; the others alternate after a seeded shuffle.
        order = sorted(p["repo"] for p in projects if p["repo"] not in TUNED_BEFORE)
        random.Random(SEED).shuffle(order)
        half_of = {repo: ("tuning" if index % 2 == 0 else "measuring") for index, repo in enumerate(order)}
        for project in projects:
            project["half"] = "tuning" if project["repo"] in TUNED_BEFORE else half_of[project["repo"]]
    manifest = {"seed": SEED, "tuned_before": sorted(TUNED_BEFORE), "projects": projects, "calendars": entries,
                "left_out": left_out}
    with open(MANIFEST, "w", encoding="utf-8") as file:
        json.dump(manifest, file, ensure_ascii=False, indent=1)
        file.write("\n")
    halves = collections.Counter(p["half"] for p in projects for _ in range(p["calendars"]))
    print(f"{len(entries)} calendars from {len(projects)} projects; halves {dict(halves)}; left out {len(left_out)}",
          file=sys.stderr)


# --- fetch ------------------------------------------------------------------------------------------------

def fetch(args):
    manifest = load_manifest()
    fetch_files(manifest["projects"], calendars(manifest, args.half, args.only), cache_path)


# --- the peers ----------------------------------------------------------------------------------------------

class PeerTimeout(Exception):
    pass


def form(value):
    """A start as the peers and Almanac are compared: D: a date, F: a floating time, U: a UTC instant."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return "F:" + value.strftime("%Y%m%dT%H%M%S")
        return "U:" + value.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return "D:" + value.isoformat()


def window_of(data):
    """Four years from the start of the year of the earliest DTSTART (1900 at the earliest)."""
    years = [int(y) for y in re.findall(rb"^DTSTART[^:\r\n]*:(\d{4})\d{4}", data, re.MULTILINE)]
    years = [y for y in years if 1900 <= y <= 2200] or [2024]
    first = min(years)
    return datetime.date(first, 1, 1), datetime.date(first + WINDOW_YEARS, 1, 1)


def expand_rie(path, start, end):
    import icalendar, recurring_ical_events, x_wr_timezone

    def timed_out(*_):
        raise PeerTimeout(f"more than {PEER_SECONDS} seconds")
    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(PEER_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with open(path, "rb") as handle:
                calendar = icalendar.Calendar.from_ical(handle.read())
            calendar = x_wr_timezone.to_standard(calendar)
            found = collections.defaultdict(list)
            for component in recurring_ical_events.of(calendar, components=["VEVENT"]).between(start, end):
                value = component.get("DTSTART")
                if value is None:
                    continue
                found[str(component.get("UID", ""))].append(form(value.dt))
            return {uid: sorted(starts) for uid, starts in found.items()}
    finally:
        signal.alarm(0)


def libical_binary():
    binary = os.path.join(CACHE, "libical-peer")
    if not os.path.exists(binary):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], capture_output=True, text=True, check=True).stdout.split()
        subprocess.run(["cc", "-O2", "-o", binary, LIBICAL_PEER] + flags, check=True)
    return binary


def expand_libical(path, start, end):
    run = subprocess.run([libical_binary(), "expand", path, start.strftime("%Y%m%dT000000Z"), end.strftime("%Y%m%dT000000Z")],
                         capture_output=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.decode("utf-8", "replace")[-300:] or f"exit {run.returncode}")
    found = collections.defaultdict(list)
    for line in run.stdout.decode("utf-8", "replace").splitlines():
        uid, _, start_form = line.partition("\t")
        found[uid].append(start_form)
    return {uid: sorted(starts) for uid, starts in found.items()}


def expand_almanac(almanac, path, start, end):
    run = subprocess.run([almanac, "expand", path, "--from", start.isoformat(), "--until", end.isoformat(), "--json",
                          "--time-zone", "UTC", "--limit", "100000"], capture_output=True, timeout=300)
    stderr = run.stderr.decode("utf-8", "replace")
    if run.returncode not in (0, 1):
        raise RuntimeError(stderr.strip()[-600:] or f"exit {run.returncode}")
    found = collections.defaultdict(list)
    for occurrence in json.loads(run.stdout or b"[]"):
        found[occurrence.get("uid", "")].append(almanac_form(occurrence))
    codes = sorted(set(re.findall(r"\[([a-z0-9.-]+)\]$", stderr, re.MULTILINE)))
    return {uid: sorted(starts) for uid, starts in found.items()}, codes


def almanac_form(occurrence):
    if occurrence.get("allDay"):
        return "D:" + occurrence["start"][:10]
    instant = occurrence.get("startUTC") or occurrence["start"]
    return "U:" + instant.replace("-", "").replace(":", "")


def comparable(forms):
    """Floating times compared as UTC instants: Almanac expands in UTC, so a floating 09:00 is 09:00Z."""
    return sorted(("U:" + f[2:] + "Z") if f.startswith("F:") else f for f in forms)


def keyed(found):
    """Occurrences by UID as compared: surrounding spaces dropped, libical's "(null)" for no UID read as ""."""
    out = collections.defaultdict(list)
    for uid, starts in found.items():
        key = uid.strip()
        out["" if key == "(null)" else key] += starts
    return out


def compare(almanac, peer, only=None):
    """UIDs whose sets differ: {uid: (almanac's extra, peer's extra)}; `only` limits the UIDs."""
    almanac, peer = keyed(almanac), keyed(peer)
    differences = {}
    for uid in sorted(set(almanac) | set(peer)):
        if only is not None and uid not in only:
            continue
        mine, theirs = comparable(almanac.get(uid, [])), comparable(peer.get(uid, []))
        if mine != theirs:
            extra = sorted((collections.Counter(mine) - collections.Counter(theirs)).elements())
            missing = sorted((collections.Counter(theirs) - collections.Counter(mine)).elements())
            differences[uid] = {"almanac only": extra[:5], "peer only": missing[:5], "counts": [len(mine), len(theirs)]}
    return differences


def attempt(function, *args):
    try:
        return True, function(*args)
    except Exception as error:  # a reader's refusal, whatever it raises, is its answer
        return False, f"{type(error).__name__}: {str(error)[:300]}"


def event_uids(data):
    """The UIDs of the file's VEVENTs: the peers are asked for events only (recurring-ical-events loops on some
    to-dos without DTSTART), so Almanac's to-dos and journals are left out of the comparison."""
    uids, other = set(), set()
    for kind, body in re.findall(rb"^BEGIN:(VEVENT|VTODO|VJOURNAL)\r?\n(.*?)^END:\1", data, re.MULTILINE | re.DOTALL):
        match = re.search(rb"^UID[^:\r\n]*:([^\r\n]*)", body, re.MULTILINE)
        uid = match.group(1).decode("utf-8", "replace").strip() if match else ""
        (uids if kind == b"VEVENT" else other).add(uid)
    return uids, other - uids


def run_one(almanac, entry):
    path = cache_path(entry)
    with open(path, "rb") as file:
        data = file.read()
    start, end = window_of(data)
    result = {"id": f"{entry['repo']}:{entry['path']}", "repo": entry["repo"], "window": [start.isoformat(), end.isoformat()]}
    rie_ok, rie = attempt(expand_rie, path, start, end)
    libical_ok, libical = attempt(expand_libical, path, start, end)
    almanac_ok, almanac_result = attempt(expand_almanac, almanac, path, start, end)
    result["peers"] = {"rie": True if rie_ok else rie, "libical": True if libical_ok else libical}
    if not almanac_ok:
        result["almanac"] = almanac_result
        return result
    mine, codes = almanac_result
    # An event without a UID gets one from Almanac (`almanac-…`, documented); the peers call it "".
    anonymous = [uid for uid in mine if uid.startswith("almanac-") and uid.encode() not in data]
    for uid in anonymous:
        mine.setdefault("", [])
        mine[""] = sorted(mine[""] + mine.pop(uid))
    result["almanac"] = True
    result["codes"] = codes
    _, not_events = event_uids(data)
    for uid in list(mine):
        if uid.strip() in not_events:
            mine.pop(uid)
    result["occurrences"] = sum(len(v) for v in mine.values())
    if rie_ok:
        result["rie"] = compare(mine, rie)
    # libical: no overrides, no X-WR-TIMEZONE.
    overridden = set(re.findall(rb"^UID:([^\r\n]*)", data, re.MULTILINE)) if re.search(rb"^RECURRENCE-ID", data, re.MULTILINE) else set()
    if libical_ok and not re.search(rb"^X-WR-TIMEZONE", data, re.MULTILINE) and not overridden:
        # libical's walk lists to-dos and journals too: left out, as on Almanac's side.
        result["libical"] = compare(mine, {uid: starts for uid, starts in libical.items() if uid.strip() not in not_events})
    # Meaning through Almanac's own writers.
    with tempfile.TemporaryDirectory() as folder:
        round_trip = {}
        for target in ("ics", "jcal"):
            out = os.path.join(folder, "out." + target)
            convert = subprocess.run([almanac, "convert", path, "--to", target, "-o", out], capture_output=True, timeout=300)
            if convert.returncode not in (0, 1) or not os.path.exists(out):
                round_trip[target] = "not written: " + convert.stderr.decode("utf-8", "replace").strip()[-300:]
                continue
            ok, again = attempt(expand_almanac, almanac, out, start, end)
            if not ok:
                round_trip[target] = "not read back: " + again
                continue
            for uid in [u for u in again[0] if u.startswith("almanac-") and u.encode() not in data]:
                again[0][""] = sorted(again[0].get("", []) + again[0].pop(uid))
            for uid in [u for u in again[0] if u.strip() in not_events]:
                again[0].pop(uid)
            differences = compare(mine, again[0])
            round_trip[target] = "same" if not differences else differences
            if target == "ics" and rie_ok:
                ok, theirs = attempt(expand_rie, out, start, end)
                if ok:
                    for uid in [u for u in theirs if u.startswith("almanac-") and u.encode() not in data]:
                        theirs[""] = sorted(theirs.get("", []) + theirs.pop(uid))
                round_trip["ics-rie"] = ("same" if not compare(rie, theirs) else compare(rie, theirs)) if ok else "rie cannot read it: " + theirs
        result["round trip"] = round_trip
    return result


def results_path(entry):
    return os.path.join(CACHE, "results", entry["blob"] + ".json")


def run(args):
    manifest = load_manifest()
    chosen = calendars(manifest, args.half, args.only)
    libical_binary()
    run_all(chosen, run_one, os.path.abspath(args.almanac), args.jobs, cache_path, results_path, every=100)
    report(args)


# --- report and judging -------------------------------------------------------------------------------------

COLUMNS = ["id", "half", "calendar", "class", "uid", "almanac", "peer", "verdict", "reason"]


def difference_id(result, kind, uid):
    return hashlib.sha1("|".join([result["id"], kind, uid]).encode("utf-8")).hexdigest()[:12]


def read_judged():
    return read_judged_file(JUDGED, COLUMNS)


def load_results(manifest, half):
    return load_results_files(calendars(manifest, half), results_path)


def differences_of(result):
    """(kind, uid, detail) for every disagreement in a result."""
    found = []
    if result.get("almanac") is not True and result.get("peers", {}).get("rie") is True:
        found.append(("refused", "", result.get("almanac")))
    for kind in ("rie", "libical"):
        for uid, detail in (result.get(kind) or {}).items():
            found.append((kind, uid, detail))
    for target, outcome in (result.get("round trip") or {}).items():
        if outcome != "same":
            if isinstance(outcome, dict):
                for uid, detail in outcome.items():
                    found.append(("round-trip-" + target, uid, detail))
            else:
                found.append(("round-trip-" + target, "", outcome))
    return found


def one_line(text, limit=300):
    text = json.dumps(text, ensure_ascii=False) if not isinstance(text, str) else text
    text = text.replace("\t", " ").replace("\r", "␍").replace("\n", "⏎")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def report(args):
    manifest = load_manifest()
    judged = read_judged()
    for half in (args.half or "tuning,measuring").split(","):
        results = load_results(manifest, half)
        totals = collections.Counter()
        classes = collections.Counter()
        verdicts = collections.Counter()
        refused = []
        for result in results:
            totals["calendars"] += 1
            if "crash" in result:
                totals["runner crashed"] += 1
                continue
            peer_reads = result["peers"]["rie"] is True or result["peers"]["libical"] is True
            if peer_reads:
                totals["a peer reads"] += 1
                if result["almanac"] is True:
                    totals["Almanac reads (of those)"] += 1
                else:
                    refused.append((result["id"], result["almanac"]))
            if result["almanac"] is not True:
                continue
            if "rie" in result:
                totals["compared with recurring-ical-events"] += 1
                if not result["rie"]:
                    totals["  same occurrences"] += 1
            if "libical" in result:
                totals["compared with libical"] += 1
                if not result["libical"]:
                    totals["  same occurrences (libical)"] += 1
            trip = result.get("round trip", {})
            if trip:
                totals["round trips"] += 1
                if all(v == "same" for v in trip.values()):
                    totals["  meaning kept (ics, jcal, ics read by rie)"] += 1
            file_differences = differences_of(result)
            judged_ok = all(judged.get(difference_id(result, k, u), {}).get("verdict") in ("almanac-right", "accepted")
                            for k, u, _ in file_differences if k == "rie")
            if "rie" in result and (not result["rie"] or judged_ok):
                totals["  agree with rie, judged cases accepted"] += 1
            for kind, uid, _ in file_differences:
                classes[kind] += 1
                verdicts[judged.get(difference_id(result, kind, uid), {}).get("verdict") or "unjudged"] += 1
        print(f"== {half}: {totals['calendars']} calendars")
        for key, value in totals.items():
            if key != "calendars":
                print(f"  {key:48} {value}")
        compared = totals["compared with recurring-ical-events"]
        if compared:
            print(f"  files agreeing with rie: {100 * totals['  same occurrences'] / compared:.1f} % "
                  f"({100 * totals['  agree with rie, judged cases accepted'] / compared:.1f} % with judged cases accepted)")
        for name, count in classes.most_common():
            print(f"  differences {name:28} {count}")
        print(f"  verdicts: {dict(verdicts)}")
        for name, error in refused[:args.list]:
            print(f"  refused: {name}: {one_line(error, 240)}")


def sample(args):
    manifest = load_manifest()

    def differences(half):
        for result in load_results(manifest, half):
            for kind, uid, detail in differences_of(result):
                almanac_side = detail.get("almanac only") if isinstance(detail, dict) else detail
                peer_side = detail.get("peer only") if isinstance(detail, dict) else ""
                yield kind, {"id": difference_id(result, kind, uid), "calendar": result["id"], "class": kind,
                             "uid": one_line(uid, 80), "almanac": one_line(almanac_side), "peer": one_line(peer_side)}
    append_judged(JUDGED, COLUMNS, sample_rows(args.half.split(","), differences, read_judged(), args.per_class, args.seed))


def main():
    corpus_main(__doc__, {"discover": discover, "fetch": fetch, "run": run, "report": report, "sample": sample},
                "almanac-calendars-judging")


if __name__ == "__main__":
    main()
