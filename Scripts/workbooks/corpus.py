#!/usr/bin/env python3
"""The public workbook corpus: .xlsx files from other projects' test suites, read by Almanac beside openpyxl
and python-calamine, split by project before anyone looked.

    python3 Scripts/workbooks/corpus.py discover              # the manifest from the mirrors (a new list; halves kept)
    python3 Scripts/workbooks/corpus.py fetch [--half H]       # the manifest's files into the cache
    python3 Scripts/workbooks/corpus.py run ALMANAC [--half H] [--only REPO,...] [--jobs N]
    python3 Scripts/workbooks/corpus.py report [--half H] [--list N]
    python3 Scripts/workbooks/corpus.py sample [--half H] [--per-class N]   # unjudged differences into judged.tsv

The manifest, workbooks.json, names each project (repository, commit, licence, half) and each workbook (path,
git blob, size, the writer its docProps/app.xml or its parts name). Halves were assigned by a seeded shuffle of
the projects (README.md) and committed before Almanac read any file: tune on "tuning", report on "measuring".

`run` reads every sheet of every workbook three ways — `almanac convert FILE --to table-json --option sheet=NAME`,
openpyxl (data_only: the cached values of formulas, as Almanac reads them) and python-calamine — and compares
each cell by meaning: a number by its double (and, separately, whether Almanac's text is the shortest that reads
back to it), a date or time to the second, a duration, a boolean, an error, a text exactly. Almanac's documented
layout is set aside: its table starts at the header (the first row with a value, after any title rows it names),
rows with no value are not rows, and a header cell filled from a merged cell is not compared. Results go into
the cache (ALMANAC_CORPUS_CACHE, default ~/.cache/almanac-corpus/workbooks), never into this repository: the
files' licences differ (the manifest says each), and CI does not fetch.
"""
import collections, datetime, hashlib, io, json, math, os, random, re, subprocess
import sys, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from corpusfiles import append_judged, fetch_files, one_line, read_judged as read_judged_file  # noqa: E402
from corpusfiles import blobs, load_manifest as load_manifest_file, main as corpus_main, run_all, select  # noqa: E402
from corpusfiles import load_results as load_results_files, sample_rows  # noqa: E402
MANIFEST = os.path.join(HERE, "workbooks.json")
JUDGED = os.path.join(HERE, "judged.tsv")
CACHE = os.path.join(os.environ.get("ALMANAC_CORPUS_CACHE", os.path.expanduser("~/.cache/almanac-corpus")), "workbooks")
SEED = "almanac-workbooks-2026-11-28"

# Projects whose test suites hold workbooks, with their licence (the files stay under it, in the cache only).
PROJECTS = {
    "GNOME/gnumeric": "GPL-2.0 or GPL-3.0",
    "ToucanToco/fastexcel": "MIT",
    "aVadim483/fast-excel-reader": "MIT",
    "apache/drill": "Apache-2.0",
    "apache/hop": "Apache-2.0",
    "bradbase/xlcalculator": "MIT",
    "catamphetamine/read-excel-file": "MIT",
    "ChrisHodges/LightweightExcelReader": "AGPL-3.0 (or commercial)",
    "crealytics/spark-excel": "Apache-2.0",
    "dgorissen/pycel": "GPL-3.0",
    "dilshod/xlsx2csv": "MIT",
    "dimastbk/python-calamine": "MIT",
    "doy/spreadsheet-parsexlsx": "Perl (Artistic-1.0 or GPL-1.0+)",
    "dromara/hutool": "MulanPSL-2.0",
    "duckdb/duckdb-excel": "MIT",
    "frictionlessdata/frictionless-py": "MIT",
    "gristlabs/grist-core": "Apache-2.0",
    "hongjr03/typst-rexllent": "MIT",
    "ironcalc/IronCalc": "MIT or Apache-2.0",
    "jazzband/tablib": "MIT",
    "jeecgboot/autopoi": "Apache-2.0",
    "jqnatividad/qsv": "MIT or Unlicense",
    "jsonkenl/xlsxir": "MIT",
    "justkawal/excel": "MIT",
    "liaochong/myexcel": "Apache-2.0",
    "mganss/ExcelMapper": "MIT",
    "mgcrea/node-xlsx": "Apache-2.0",
    "microsoft/markitdown": "MIT",
    "ozlerhakan/poiji": "MIT",
    "PydPiper/pylightxl": "MIT",
    "pythonicrubyist/creek": "MIT",
    "qrilka/xlsx": "MIT",
    "tfussell/xlnt": "MIT",
    "theorchard/openpyxl": "MIT",
    "Unstructured-IO/unstructured": "Apache-2.0",
    "vinci1it2000/formulas": "EUPL-1.1",
    "wireservice/csvkit": "MIT",
    "woahdae/simple_xlsx_reader": "MIT",
    "ycphs/openxlsx": "MIT",
}
# Left out whole, before anything was read: projects whose test files are, at least in part, copies of a
# held-out project's (../shared/HELD-OUT.md), so that the outside check stays independent.
LEFT_OUT_PROJECTS = {
    "nacnudus/tidyxl": "shares test workbooks with tidyverse/readxl (held out)",
    "pjfanning/excel-streaming-reader": "test workbooks named after Apache POI's bugs, likely apache/poi's (held out)",
    "dhatim/fastexcel": "test workbooks copied from apache/poi's test data (held out)",
}
WORKBOOK = re.compile(r"\.(xlsx|xlsm)$", re.IGNORECASE)


def load_manifest():
    return load_manifest_file(MANIFEST)


def workbooks(manifest, half=None, only=None):
    return select(manifest, "workbooks", half, only)


def cache_path(workbook):
    return os.path.join(CACHE, "files", workbook["blob"] + os.path.splitext(workbook["path"])[1].lower())


# --- discover ---------------------------------------------------------------------------------------------

def writer_of(data):
    """Which program wrote a workbook, from docProps/app.xml, docProps/core.xml's creator, the workbook's
    fileVersion, or the parts' order (Google Sheets writes no docProps and starts with its drawings)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        return "not a zip", ""
    names = archive.namelist()

    def read(name):
        try:
            return archive.read(name).decode("utf-8", "replace")
        except (KeyError, zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, OSError):
            return ""
    app = read("docProps/app.xml")
    application = re.search(r"<(?:\w+:)?Application>([^<]*)<", app)
    version = re.search(r"<(?:\w+:)?AppVersion>([^<]*)<", app)
    raw = ((application.group(1) if application else "") + (" " + version.group(1) if version else "")).strip()
    creator = re.search(r"<dc:creator>([^<]*)<", read("docProps/core.xml"))
    creator = creator.group(1).lower() if creator else ""
    workbook_part = next((n for n in names if n.lower().endswith("workbook.xml")), None)
    file_version = re.search(r'<(?:\w+:)?fileVersion[^>]*appName="([^"]*)"', read(workbook_part) if workbook_part else "")
    name = application.group(1) if application else ""
    if name.startswith("OpenOffice"):
        return "OpenOffice.org", raw
    if name.startswith("LibreOffice") or (file_version and file_version.group(1) == "Calc"):
        return "LibreOffice", raw
    # Apple Numbers writes an empty extended-properties element and its parts in one fixed order.
    if re.search(r"<Properties [^>]*/>\s*$", app) and names[:4] == ["_rels/.rels", "docProps/core.xml", "docProps/app.xml",
                                                                     "xl/workbook.xml"]:
        return "Apple Numbers", "empty docProps/app.xml, Numbers' part order"
    if "openpyxl" in name.lower() or creator == "openpyxl":
        return "openpyxl", raw
    if creator == "xlsxwriter":
        return "XlsxWriter", raw
    if creator == "axlsx":
        return "caxlsx", raw
    known = {"Microsoft Macintosh Excel": "Excel for Mac", "Microsoft Excel Online": "Excel Online",
             "Excel Android": "Excel for Android", "WPS 表格": "WPS Office", "WPS Spreadsheets": "WPS Office",
             "Apache POI": "Apache POI", "NPOI": "NPOI", "SheetJS": "SheetJS", "gnumeric": "Gnumeric",
             "Microsoft Access": "Microsoft Access", "IronCalc Sheets": "IronCalc"}
    if name in known:
        return known[name], raw
    if name.startswith("Microsoft") and "PowerPoint" in name:
        return "PowerPoint (not a workbook)", raw
    if name.startswith("ONLYOFFICE"):
        return "ONLYOFFICE", raw
    if name.startswith("JasperReports"):
        return "JasperReports", raw
    if name == "Microsoft Excel":
        # Excel itself writes an AppVersion of 12.0000 or later; older numbers are libraries that claim Excel.
        major = version.group(1).split(".")[0] if version else ""
        return ("Microsoft Excel" if major.isdigit() and int(major) >= 12 else "a library writing as Excel"), raw
    if file_version and file_version.group(1).startswith("SpreadsheetGear"):
        return "SpreadsheetGear", file_version.group(1)
    if not app and any("worksheetdrawing" in n for n in names[:6]) or (not app and names[:1] == ["xl/drawings/drawing1.xml"]):
        return "Google Sheets", "no docProps; drawings first"
    if file_version and file_version.group(1) == "xl":
        return "Microsoft Excel", "fileVersion appName=xl"
    return "unknown", raw


def discover(args):
    old = load_manifest() if os.path.exists(MANIFEST) else {"projects": [], "workbooks": []}
    old_halves = {p["repo"]: p["half"] for p in old["projects"]}
    projects, entries, left_out, seen = [], [], [], {}
    for repo in sorted(PROJECTS, key=str.lower):
        commit, date, found = blobs(repo, WORKBOOK, seen, left_out)
        for path, blob, size, data in found:
            writer, application = writer_of(data)
            entries.append({"repo": repo, "path": path, "blob": blob, "size": size, "writer": writer, "application": application})
        projects.append({"repo": repo, "commit": commit, "date": date, "licence": PROJECTS[repo],
                         "half": old_halves.get(repo, "?"), "workbooks": len(found)})
    if any(p["half"] == "?" for p in projects) and not old["projects"]:
        # The split, by project, before any file is read by Almanac.
        order = sorted(p["repo"] for p in projects)
        random.Random(SEED).shuffle(order)
        half_of = {repo: ("tuning" if index % 2 == 0 else "measuring") for index, repo in enumerate(order)}
        for project in projects:
            project["half"] = half_of[project["repo"]]
    manifest = {"seed": SEED, "left_out_projects": LEFT_OUT_PROJECTS, "projects": projects, "workbooks": entries,
                "left_out": left_out}
    with open(MANIFEST, "w", encoding="utf-8") as file:
        json.dump(manifest, file, ensure_ascii=False, indent=1)
        file.write("\n")
    writers = collections.Counter(e["writer"] for e in entries)
    halves = collections.Counter(p["half"] for p in projects for _ in range(p["workbooks"]))
    print(f"{len(entries)} workbooks from {len(projects)} projects, {len(writers)} writers; halves {dict(halves)}",
          file=sys.stderr)
    for writer, count in writers.most_common():
        print(f"  {count:4}  {writer}", file=sys.stderr)


# --- fetch ------------------------------------------------------------------------------------------------

def fetch(args):
    manifest = load_manifest()
    fetch_files(manifest["projects"], workbooks(manifest, args.half, args.only), cache_path)


# --- reading: the peers and Almanac -----------------------------------------------------------------------

def meaning(value):
    """A peer's cell as (kind, value) by meaning."""
    if value is None or value == "":
        return ("empty", None)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", float(value))
    if isinstance(value, datetime.datetime):
        return ("datetime", value.replace(tzinfo=None).isoformat(timespec="microseconds"))
    if isinstance(value, datetime.date):
        return ("datetime", datetime.datetime(value.year, value.month, value.day).isoformat(timespec="microseconds"))
    if isinstance(value, datetime.time):
        return ("time", value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6)
    if isinstance(value, datetime.timedelta):
        return ("duration", value.total_seconds())
    return ("text", str(value))


def read_openpyxl(path):
    import openpyxl, warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
        sheets = []
        for sheet in workbook.worksheets:
            cells = {}
            for r, row in enumerate(sheet.iter_rows(values_only=False), start=1):
                for cell in row:
                    if not hasattr(cell, "column") or cell.value is None:
                        continue
                    kind = meaning(cell.value)
                    if kind[0] != "empty":
                        cells[f"{cell.row},{cell.column}"] = kind
            sheets.append({"name": sheet.title, "cells": cells})
        workbook.close()
    return sheets


def read_calamine(path):
    import python_calamine
    workbook = python_calamine.CalamineWorkbook.from_path(path)
    sheets = []
    for metadata in workbook.sheets_metadata:
        if str(metadata.typ).split(".")[-1] != "WorkSheet":
            continue
        sheet = workbook.get_sheet_by_name(metadata.name)
        cells = {}
        for r, row in enumerate(sheet.to_python(skip_empty_area=False), start=1):
            for c, value in enumerate(row, start=1):
                kind = meaning(value)
                if kind[0] != "empty":
                    cells[f"{r},{c}"] = kind
        sheets.append({"name": metadata.name, "cells": cells})
    return sheets


def peer(reader, path):
    try:
        return {"ok": True, "sheets": reader(path)}
    except Exception as error:  # a peer's refusal, whatever it raises, is its answer
        return {"ok": False, "error": f"{type(error).__name__}: {str(error)[:300]}"}


NOTE = re.compile(r":(\d+): note: .*\[xlsx\.title-row\]")


def read_almanac(almanac, path, sheet):
    command = [almanac, "convert", path, "--to", "table-json", "-o", "-"]
    if sheet is not None:
        command += ["--option", f"sheet={sheet}"]
    run = subprocess.run(command, capture_output=True, timeout=300)
    stderr = run.stderr.decode("utf-8", "replace")
    if run.returncode not in (0, 1):
        return {"ok": False, "status": run.returncode, "error": stderr.strip()[-600:]}
    try:
        table = json.loads(run.stdout)
    except ValueError as error:
        return {"ok": False, "status": run.returncode, "error": f"output is no JSON: {error}"}
    titles = [int(m.group(1)) for m in NOTE.finditer(stderr)]
    codes = sorted(set(re.findall(r"\[([a-z0-9.-]+)\]$", stderr, re.MULTILINE)))
    return {"ok": True, "columns": table.get("columns", []), "rows": table.get("rows", []), "titles": titles,
            "codes": codes, "messages": [line for line in stderr.splitlines() if line.strip()][:20]}


# --- comparing ----------------------------------------------------------------------------------------------

ISO_DATE = re.compile(r"^(-?\d{4,})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d))?$")
CLOCK = re.compile(r"^(-?)(\d+):(\d\d):(\d\d)$")


def significant_digits(text):
    mantissa = re.split(r"[eE]", text.lstrip("+-"))[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if "." in mantissa:
        return len(digits.rstrip("0")) or 1
    return len(digits.rstrip("0")) or 1


def shortest(value):
    return significant_digits(repr(value)) if math.isfinite(value) else 0


def agrees(text, kind):
    """Whether Almanac's text has the peer's meaning: (agree, note)."""
    what, value = kind
    if what == "empty":
        return text == "", None
    if what == "text":
        return text == value, None
    if what == "bool":
        return text == ("TRUE" if value else "FALSE"), None
    if what == "number":
        try:
            number = float(text)
        except ValueError:
            return False, None
        if number != value:
            return False, None
        return True, ("long-number" if significant_digits(text) > shortest(value) else None)
    if what == "datetime":
        match = ISO_DATE.match(text)
        if not match:
            return False, None
        year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3))
        hour, minute, second = (int(match.group(i)) if match.group(i) else 0 for i in (4, 5, 6))
        try:
            mine = datetime.datetime(year, month, day, hour, minute, second)
        except ValueError:
            return False, None
        theirs = datetime.datetime.fromisoformat(value)
        return abs((mine - theirs).total_seconds()) <= 0.5, None
    if what in ("time", "duration"):
        match = CLOCK.match(text)
        if not match:
            return False, None
        seconds = int(match.group(2)) * 3600 + int(match.group(3)) * 60 + int(match.group(4))
        seconds = -seconds if match.group(1) else seconds
        return abs(seconds - value) <= 0.5, None
    return False, None


def column_name(number):
    name = ""
    while number:
        number, rest = divmod(number - 1, 26)
        name = chr(65 + rest) + name
    return name


def compare_sheet(almanac, peers):
    """Cell by cell. Returns counts and the differences (each with its cell and the three readings)."""
    reference = next((p for p in peers.values() if p is not None), None)
    counts = collections.Counter()
    differences = []
    if reference is None:
        return counts, differences
    # The rows with a value, as the peers see them (a row either peer has a value in).
    columns_of = collections.defaultdict(set)
    for p in peers.values():
        for key in p or ():
            row, column = key.split(",")
            columns_of[int(row)].add(int(column))
    rows = sorted(r for r in columns_of if r not in almanac["titles"])
    table = ([almanac["columns"]] if almanac["columns"] else []) + almanac["rows"]
    if len(table) != len(rows):
        counts["row-count"] += 1
        differences.append({"cell": "", "class": "row-count",
                            "almanac": f"{len(table)} rows", "peers": f"{len(rows)} rows with a value"})
    for index, (row, fields) in enumerate(zip(rows, table)):
        width = max(list(columns_of[row]) + [len(fields)])
        for column in range(1, width + 1):
            text = fields[column - 1] if column <= len(fields) else ""
            readings = {name: (p.get(f"{row},{column}", ("empty", None)) if p is not None else None)
                        for name, p in peers.items()}
            if all(kind is None or kind[0] == "empty" for kind in readings.values()) and text == "":
                continue
            counts["cells"] += 1
            verdicts = {name: agrees(text, kind) for name, kind in readings.items() if kind is not None}
            if index == 0 and almanac["columns"] and all(k is None or k[0] == "empty" for k in readings.values()):
                counts["layout"] += 1  # a header cell named from a merged cell
                continue
            if any(ok for ok, _ in verdicts.values()):
                counts["agree"] += 1
                if any(note == "long-number" for ok, note in verdicts.values() if ok):
                    counts["long-number"] += 1
                    differences.append({"cell": f"{column_name(column)}{row}", "class": "long-number",
                                         "almanac": text, "peers": {n: k for n, k in readings.items()}})
                continue
            counts["differ"] += 1
            kinds = {k[0] for k in readings.values() if k is not None}
            differences.append({"cell": f"{column_name(column)}{row}", "class": "value:" + "/".join(sorted(kinds)),
                                "almanac": text, "peers": {n: k for n, k in readings.items()}})
    return counts, differences


def run_one(almanac, workbook):
    path = cache_path(workbook)
    result = {"id": f"{workbook['repo']}:{workbook['path']}", "repo": workbook["repo"], "writer": workbook["writer"]}
    peers = {"openpyxl": peer(read_openpyxl, path), "calamine": peer(read_calamine, path)}
    result["peers"] = {name: (p["ok"] if p["ok"] else p["error"]) for name, p in peers.items()}
    opened = [p for p in peers.values() if p["ok"]]
    names = []
    for p in opened:
        for sheet in p["sheets"]:
            if sheet["name"] not in names:
                names.append(sheet["name"])
    first = read_almanac(almanac, path, None)
    result["almanac"] = True if first["ok"] else {"status": first["status"], "error": first["error"]}
    result["sheets"] = []
    if not first["ok"]:
        return result
    for number, name in enumerate(names, start=1):
        reading = first if number == 1 else read_almanac(almanac, path, name)
        sheet_peers = {}
        for peer_name, p in peers.items():
            sheet_peers[peer_name] = next((s["cells"] for s in p["sheets"] if s["name"] == name), None) if p["ok"] else None
        if not reading["ok"]:
            result["sheets"].append({"name": name, "almanac": {"status": reading["status"], "error": reading["error"]}})
            continue
        counts, differences = compare_sheet(reading, sheet_peers)
        result["sheets"].append({"name": name, "counts": counts, "differences": differences[:200],
                                 "codes": reading["codes"]})
    return result


def results_path(workbook):
    return os.path.join(CACHE, "results", workbook["blob"] + ".json")


def run(args):
    manifest = load_manifest()
    chosen = workbooks(manifest, args.half, args.only)
    run_all(chosen, run_one, os.path.abspath(args.almanac), args.jobs, cache_path, results_path, every=50)
    report(args)


# --- report and judging -------------------------------------------------------------------------------------

COLUMNS = ["id", "half", "workbook", "sheet", "cell", "class", "almanac", "peers", "verdict", "reason"]


def difference_id(result, sheet, difference):
    raw = "|".join([result["id"], sheet, difference["cell"], difference["class"]])
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:12]


def read_judged():
    return read_judged_file(JUDGED, COLUMNS)


def load_results(manifest, half):
    return load_results_files(workbooks(manifest, half), results_path)


def report(args):
    manifest = load_manifest()
    judged = read_judged()
    halves = (args.half or "tuning,measuring").split(",")
    for half in halves:
        results = load_results(manifest, half)
        totals = collections.Counter()
        refusals, classes = [], collections.Counter()
        judged_counts = collections.Counter()
        for result in results:
            if "crash" in result:
                totals["runner crashed"] += 1
                continue
            peers_open = [name for name, ok in result["peers"].items() if ok is True]
            totals["workbooks"] += 1
            if peers_open:
                totals["a peer opens"] += 1
                if result["almanac"] is True:
                    totals["Almanac reads (of those)"] += 1
                else:
                    refusals.append((result["id"], result["almanac"]["error"].splitlines()[-1] if result["almanac"]["error"] else ""))
            elif result["almanac"] is True:
                totals["Almanac reads where no peer opens"] += 1
            for sheet in result.get("sheets", []):
                if "counts" not in sheet:
                    totals["sheets Almanac refuses"] += 1
                    refusals.append((result["id"] + " / " + sheet["name"], sheet["almanac"]["error"].splitlines()[-1]))
                    continue
                totals["sheets"] += 1
                for key, value in sheet["counts"].items():
                    totals[key] += value
                for difference in sheet["differences"]:
                    classes[difference["class"]] += 1
                    verdict = judged.get(difference_id(result, sheet["name"], difference), {}).get("verdict", "")
                    judged_counts[verdict or "unjudged"] += 1
                    if difference["class"].startswith("value:") and verdict in ("almanac-right", "accepted"):
                        totals["judged right"] += 1
        cells = totals["cells"] - totals["layout"]
        print(f"== {half}: {totals['workbooks']} workbooks")
        for key in ("a peer opens", "Almanac reads (of those)", "Almanac reads where no peer opens", "runner crashed",
                    "sheets", "sheets Almanac refuses", "row-count"):
            if totals[key]:
                print(f"  {key:36} {totals[key]}")
        if cells:
            print(f"  cells compared {cells}, agree {totals['agree']} ({100 * totals['agree'] / cells:.3f} %), "
                  f"differ {totals['differ']}; header cells from merges set aside {totals['layout']}; "
                  f"numbers whose text is longer than the shortest {totals['long-number']}")
            print(f"  cells agreeing, judged cases accepted: {100 * (totals['agree'] + totals['judged right']) / cells:.4f} %")
        for name, count in classes.most_common():
            print(f"  class {name:30} {count}")
        print(f"  differences judged: {dict(judged_counts)}")
        for name, error in refusals[:args.list]:
            print(f"  refused: {name}: {one_line(error, 240)}")


def sample(args):
    manifest = load_manifest()

    def differences(half):
        for result in load_results(manifest, half):
            for sheet in result.get("sheets", []):
                for difference in sheet.get("differences", []):
                    yield difference["class"], {
                        "id": difference_id(result, sheet["name"], difference), "workbook": result["id"], "sheet": sheet["name"],
                        "cell": difference["cell"], "class": difference["class"], "almanac": one_line(difference["almanac"]),
                        "peers": one_line(json.dumps(difference["peers"], ensure_ascii=False, default=str))}
    append_judged(JUDGED, COLUMNS, sample_rows(args.half.split(","), differences, read_judged(), args.per_class, args.seed))


def main():
    corpus_main(__doc__, {"discover": discover, "fetch": fetch, "run": run, "report": report, "sample": sample},
                "almanac-workbooks-judging")


if __name__ == "__main__":
    main()
