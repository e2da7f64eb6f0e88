#!/usr/bin/env python3
"""Run Almanac and its peers on the workloads of ../shared/bench/gen.py, side by side, and print
a table of medians and ratios.

    python3 Benchmarks/compare.py [--runs 5] [--only ics,csv,format,strings,batch] [--write Benchmarks/RESULTS.md]
    python3 Benchmarks/compare.py --check [--runs 3]     # the regression guard CI runs (floors.json)

Needs: swift (release build of Benchmarks/), GNU time, cc and libical-dev, Python's icalendar and
recurring-ical-events. Peers that are missing are reported and skipped. The machine is noisy:
every command runs --runs times and the medians are compared; slow peers (over 20 s) run once.
"""
import argparse, atexit, datetime, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GEN = os.path.join(os.path.dirname(ROOT), "shared", "bench", "gen.py")
WORK = os.path.join(tempfile.gettempdir(), "almanac-bench")

RUNS = os.path.join(WORK, "runs")
run_number = 0

def fresh(name):
    """An output folder that is new at every run: `measure` puts a new name in place of `{run}`.
    A batch job converts a folder of exports into a new folder, as a person does the first time
    (rerunning into the last run's folder with --force measured replacing 2,000 files and keeping
    each old one as NAME.bak). No run deletes anything: the folders are removed when compare.py
    ends. This machine's root file system is ext4 without a journal, whose inode allocator skips,
    one by one, every inode freed in the last 60 s (360 s while its inode table block is not yet
    written): `recently_deleted` in `perf`, more than half of a batch run made after the last
    run's outputs were removed. So the figures still move with what the machine deleted in the
    minutes before (a 500-file batch took 0.087, 0.127 and 0.160 s of CPU in three invocations in
    a row, each removing the one before's folders): `--check` writes its outputs to tmpfs."""
    return os.path.join(RUNS, name + "-{run}")

def clear_runs():
    shutil.rmtree(RUNS, ignore_errors=True)

TIME = "/usr/bin/time"

def measure(command, runs, ok=(0,), stdin=None):
    # fork + exec + wait4 gives the child's CPU time. Its peak RSS comes from GNU time in between:
    # Linux keeps the high-water mark of the memory a process had before exec (exec_mmap), and a
    # child forked from this harness starts with a copy of it, so wait4's ru_maxrss would report
    # the harness (`true` forked from a 200 MB Python measured 210 MB). time is small, and the
    # command it forks starts from its few hundred kilobytes.
    global run_number
    if not os.access(TIME, os.X_OK):
        sys.exit("compare.py needs GNU time at %s for peak memory (Debian: apt-get install time)" % TIME)
    usage_file = os.path.join(WORK, "last-usage.txt")
    results = []
    template = command
    for index in range(runs):
        run_number += 1
        command = [part.replace("{run}", str(run_number)) for part in template]
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            out = os.open(os.path.join(WORK, "last-output.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(os.path.join(WORK, "last-error.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(err, 2)
            if stdin:
                os.dup2(os.open(stdin, os.O_RDONLY), 0)
            try:
                os.execv(TIME, [TIME, "-f", "%M", "-o", usage_file, "--"] + command)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in ok:
            raise RuntimeError("%s failed with status %d" % (" ".join(command), status))
        peak = int(open(usage_file).read().split()[-1])
        results.append((wall, usage.ru_utime + usage.ru_stime, peak / 1024))
        if wall > 20:
            break
    output = open(os.path.join(WORK, "last-output.txt")).read().strip()
    if not output:
        # Commands that report on standard error (almanac convert's summary): its last line.
        lines = open(os.path.join(WORK, "last-error.txt"), errors="replace").read().strip().splitlines()
        output = lines[-1] if lines and lines[-1].startswith("Converted") else ""
    if output.startswith("{") and '"byCheck"' in output:
        import json
        found = json.loads(output)["byCheck"]
        output = " ".join("%s=%d" % kv for kv in sorted(found.items()))
    elif "\n" in output:
        # A report of several lines (inspect): its records line.
        lines = [line.strip() for line in output.splitlines()]
        output = next((line for line in lines if line.startswith("records")), lines[-1])
    return {
        "wall": statistics.median(r[0] for r in results),
        "cpu": statistics.median(r[1] for r in results),
        "rss": max(r[2] for r in results),
        "runs": len(results),
        "output": output,
    }

class Interleaved:
    """Rows measured a group at a time: a named row (Almanac) and the peer rows under it run in
    turn, run after run (A P A P …), so that a slow phase of the machine (this VM's speed moves by
    half within minutes) falls on both sides of a ratio instead of on one row's runs. A row whose
    run took over 20 s runs once, one under two seconds three times as often. `add` returns the
    row's result, filled in when its group ends."""

    quick, quick_factor = 2.0, 3

    def __init__(self, runs, basis=None):
        self.runs, self.basis = runs, basis
        self.rows, self.group = [], []

    def add(self, name, tool, command, ok=(0,), stdin=None, joins=False):
        # A named row starts a group, unless it `joins` the one before (the same command at ten
        # times the input: its scaling ratio is then measured in one phase of the machine too).
        if name and not joins:
            self.flush()
        result = {"basis": self.basis} if self.basis else {}
        self.rows.append((name, tool, result))
        self.group.append((command, ok, stdin, result, []))
        return result

    def flush(self):
        # A row that takes under two seconds runs three times in its turn (A A A P A A A P …):
        # its median was where a scaling ratio's noise came from (a 0.7 s run moved by a third
        # between runs), and its runs stay in the same phases of the machine as its peer's.
        for round in range(self.runs):
            for command, ok, stdin, _, samples in self.group:
                if samples and samples[-1]["wall"] > 20:
                    continue
                samples.append(measure(command, 1, ok=ok, stdin=stdin))
                while samples[-1]["wall"] < self.quick and len(samples) < (round + 1) * self.quick_factor:
                    samples.append(measure(command, 1, ok=ok, stdin=stdin))
        for _, _, _, result, samples in self.group:
            result.update({
                "wall": statistics.median(sample["wall"] for sample in samples),
                "cpu": statistics.median(sample["cpu"] for sample in samples),
                "rss": max(sample["rss"] for sample in samples),
                "runs": len(samples),
                "output": samples[-1]["output"],
            })
        self.group = []

    def finish(self):
        self.flush()
        return self.rows

def workload(kind, size):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "%s-%d.%s" % (kind, size, {"ics": "ics", "csv": "csv"}.get(kind, "d")))
    if not os.path.exists(path):
        subprocess.run([sys.executable, GEN, kind, str(size), path], check=True, stdout=subprocess.DEVNULL)
    return path

def build():
    os.makedirs(WORK, exist_ok=True)
    # swift build prints its errors on standard output: shown when it fails, hidden otherwise.
    result = subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE], capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        result.check_returncode()
    binary = subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE, "--show-bin-path"],
                            check=True, capture_output=True, text=True).stdout.strip()
    bench = os.path.join(binary, "almanac-bench")
    libical = os.path.join(WORK, "libical_bench")
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["cc", "-O2", "-o", libical, os.path.join(HERE, "Peers", "libical_bench.c")] + flags, check=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        libical = None
    return bench, libical

def python_has(module):
    return subprocess.run([sys.executable, "-c", "import " + module], capture_output=True).returncode == 0

def process_rows(runs):
    """The jobs as a user types them: the almanac process, start to finish, beside the peer doing
    the same job. Wall time (DuckDB uses every core), peak memory of the whole process."""
    almanac = almanac_binary()
    csv = workload("csv", 1000000)
    ics = workload("ics", 100000)
    peer = os.path.join(HERE, "Peers", "csv_bench.py")
    out = lambda name: os.path.join(WORK, name)
    interleaved = Interleaved(runs, basis="wall")
    add = interleaved.add
    size = "%.0f MB" % (os.path.getsize(csv) / 1e6)
    add("`convert big.csv --to jsonl` (1,000,000 rows, %s)" % size, "almanac",
        [almanac, "convert", csv, "--to", "jsonl", "-o", out("o.jsonl"), "--force"])
    if python_has("duckdb"):
        add("", "DuckDB COPY … TO (FORMAT JSON)", [sys.executable, peer, "duckdb-json", csv, out("o.json")])
    add("`convert big.csv --to tsv`", "almanac", [almanac, "convert", csv, "--to", "tsv", "-o", out("o.tsv"), "--force"])
    if python_has("duckdb"):
        add("", "DuckDB COPY … TO (DELIMITER tab)", [sys.executable, peer, "duckdb-tsv", csv, out("o-duck.tsv")])
    add("`inspect big.csv`", "almanac", [almanac, "inspect", csv])
    if python_has("duckdb"):
        add("", "DuckDB count(*)", [sys.executable, peer, "duckdb-inspect", csv])
    add("`convert big.csv --via agenda --to csv --locale zh-TW`", "almanac",
        [almanac, "convert", csv, "--via", "agenda", "--to", "csv", "--locale", "zh-TW", "-o", out("o-days.csv"), "--force"])
    add("", "Python csv module, read + write only", [sys.executable, peer, "python-copy", csv])
    ics_size = "%.0f MB" % (os.path.getsize(ics) / 1e6)
    add("`convert big.ics --to ics` (100,000 items, %s)" % ics_size, "almanac",
        [almanac, "convert", ics, "--to", "ics", "-o", out("o.ics"), "--force"])
    add("", "almanac `--to jcal`", [almanac, "convert", ics, "--to", "jcal", "-o", out("o.jcal"), "--force"])
    add("", "almanac `--to xcal`", [almanac, "convert", ics, "--to", "xcal", "-o", out("o.xcs"), "--force"])
    return interleaved.finish()

def command_rows(runs):
    """Every command of the README as a user types it, at 100,000 items and at ten times that,
    beside the peer a user would pick (Python peers at the smaller size only: they take minutes at
    the larger), each group interleaved (`Interleaved`). CPU time: each of these uses one core.
    Returns the rows and the scaling lines."""
    almanac = almanac_binary()
    libical = libical_peer()
    out = lambda name: os.path.join(WORK, name)
    dates = {size: dates_file(size) for size in (100000, 1000000)}
    scaling = []
    interleaved = Interleaved(runs)
    add = interleaved.add
    def scaled(summary, small, large):
        scaling.append("| %s | %.2f s | %.2f s | %.1f× | %.0f → %.0f MB |" % (
            summary, small["cpu"], large["cpu"], large["cpu"] / max(small["cpu"], 1e-6), small["rss"], large["rss"]))
    ics = {size: workload("ics", size) for size in (100000, 1000000)}
    csv = {size: workload("csv", size) for size in (100000, 1000000)}
    results = {}
    for size in (100000, 1000000):
        label = format(size, ",")
        results["expand", size] = add("`expand big.ics --from 2025-01-01 --until 2026-01-01 --json` (%s items)" % label, "almanac",
                                      [almanac, "expand", ics[size], "--from", "2025-01-01", "--until", "2026-01-01", "--json", "--time-zone", "UTC"], joins=size > 100000)
        if libical:
            add("", "libical 3 foreach_recurrence (counts, writes nothing)", [libical, "expand", ics[size], "20250101T000000Z", "20260101T000000Z"])
        if size == 100000 and python_has("recurring_ical_events"):
            add("", "Python icalendar + recurring-ical-events (counts)",
                [sys.executable, os.path.join(HERE, "Peers", "icalendar_bench.py"), "expand", ics[size], "2025-01-01", "2026-01-01"])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["inspect", size] = add("`inspect big.ics` (%s items)" % label, "almanac", [almanac, "inspect", ics[size]], joins=size > 100000)
        if libical:
            add("", "libical 3 icalparser_parse_string", [libical, "parse", ics[size]])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["backup", size] = add("`convert big.ics --to retiretime-backup` (%s items)" % label, "almanac",
                                      [almanac, "convert", ics[size], "--to", "retiretime-backup", "-o", out("o.retiretime-backup.json"), "--force"], joins=size > 100000)
        if size == 100000 and python_has("icalendar"):
            add("", "Python icalendar → JSON", [sys.executable, os.path.join(HERE, "Peers", "icalendar_bench.py"), "json", ics[size], out("o-py.json")])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["ics", size] = add("`convert big.ics --to ics` (%s items)" % label, "almanac",
                                   [almanac, "convert", ics[size], "--to", "ics", "-o", out("o.ics"), "--force"], joins=size > 100000)
        results["jcal", size] = add("", "almanac `--to jcal`", [almanac, "convert", ics[size], "--to", "jcal", "-o", out("o.jcal"), "--force"])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["lunar", size] = add("`lunar - --json` on %s dates (1950–2086)" % label, "almanac", [almanac, "lunar", "-", "--json"], stdin=dates[size], joins=size > 100000)
        if size == 100000 and python_has("lunar_python"):
            add("", "lunar-python Solar.getLunar", [sys.executable, os.path.join(HERE, "Peers", "lunar_bench.py"), dates[size]])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["jsonl", size] = add("`convert big.csv --to jsonl` (%s rows)" % label, "almanac",
                                     [almanac, "convert", csv[size], "--to", "jsonl", "-o", out("o.jsonl"), "--force"], joins=size > 100000)
        if python_has("duckdb"):
            add("", "DuckDB COPY … TO (FORMAT JSON)", [sys.executable, os.path.join(HERE, "Peers", "csv_bench.py"), "duckdb-json", csv[size], out("o.json")])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["csvinspect", size] = add("`inspect big.csv` (%s rows)" % label, "almanac", [almanac, "inspect", csv[size]], joins=size > 100000)
        if python_has("duckdb"):
            add("", "DuckDB count(*)", [sys.executable, os.path.join(HERE, "Peers", "csv_bench.py"), "duckdb-inspect", csv[size]])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["xlsx", size] = add("`convert big.csv --via agenda --to xlsx --locale zh-TW` (%s rows)" % label, "almanac",
                                    [almanac, "convert", csv[size], "--via", "agenda", "--to", "xlsx", "--locale", "zh-TW",
                                     "-o", out("o-%d.xlsx" % size), "--force"], ok=(0, 1), joins=size > 100000)
        if size == 100000 and python_has("openpyxl") and python_has("babel"):
            add("", "openpyxl (write-only) + Babel", [sys.executable, os.path.join(HERE, "Peers", "openpyxl_export.py"), csv[size],
                                                      out("o-py.xlsx"), "zh-TW"])
    for size in (100000, 1000000):
        label = format(size, ",")
        results["xlsxread", size] = add("`convert big.xlsx --to csv` (%s rows, the workbook above)" % label, "almanac",
                                        [almanac, "convert", out("o-%d.xlsx" % size), "--to", "csv", "-o", out("o-xlsx.csv"), "--force"], joins=size > 100000)
        if size == 100000 and python_has("openpyxl"):
            add("", "openpyxl (read-only) → csv", [sys.executable, os.path.join(HERE, "Peers", "openpyxl_import.py"),
                                                   out("o-%d.xlsx" % size), out("o-py-xlsx.csv")])
    add("`locale show zh-TW` (start-up: the whole command)", "almanac", [almanac, "locale", "show", "zh-TW"])
    if python_has("babel"):
        add("", "Babel format_date/time/currency", [sys.executable, os.path.join(HERE, "Peers", "babel_locale.py"), "zh-TW"])
    rows = interleaved.finish()
    for key, summary in [("expand", "expand --json"), ("inspect", "inspect .ics"), ("backup", "ics → retiretime-backup"),
                         ("ics", "ics → ics"), ("jcal", "ics → jcal"), ("lunar", "lunar --json"), ("jsonl", "csv → jsonl"),
                         ("csvinspect", "inspect .csv"), ("xlsx", "csv → xlsx (zh-TW)"), ("xlsxread", "xlsx → csv")]:
        scaled(summary, results[key, 100000], results[key, 1000000])
    return rows, scaling

def dates_file(size):
    """`size` Gregorian dates, one a line, cycling through 1950-01-01 … 2086-11-23."""
    path = os.path.join(WORK, "dates-%d.txt" % size)
    if not os.path.exists(path):
        start = datetime.date(1950, 1, 1)
        with open(path, "w") as f:
            for index in range(size):
                f.write((start + datetime.timedelta(days=index % 50000)).isoformat() + "\n")
    return path

def ics_rows(bench, libical, runs):
    path = workload("ics", 100000)
    rows = []
    ours = measure([bench, "ics-parse", path], runs)
    rows.append(("ics parse to the model (100,000 items, %.0f MB)" % (os.path.getsize(path) / 1e6), "Almanac", ours))
    if libical:
        rows.append(("", "libical 3 icalparser_parse_string", measure([libical, "parse", path], runs)))
    if python_has("icalendar"):
        rows.append(("", "Python icalendar", measure([sys.executable, os.path.join(HERE, "Peers", "icalendar_bench.py"), "parse", path], 1)))
    rows.append(("ics streaming read (items not kept)", "Almanac", measure([bench, "ics-stream", path], runs)))
    rows.append(("ics → csv for zh-TW, streamed in two passes", "Almanac", measure([bench, "ics-csv", path, "zh-TW"], runs)))
    rows.append(("ics expansion, all rules over two years", "Almanac",
                 measure([bench, "ics-expand", path, "2025-01-01", "2027-01-01"], runs)))
    if libical:
        rows.append(("", "libical 3 foreach_recurrence",
                     measure([libical, "expand", path, "20250101T000000Z", "20270101T000000Z"], runs)))
    if python_has("recurring_ical_events"):
        rows.append(("", "recurring-ical-events",
                     measure([sys.executable, os.path.join(HERE, "Peers", "icalendar_bench.py"), "expand", path, "2025-01-01", "2027-01-01"], 1)))
    return rows

def csv_rows(bench, runs):
    path = workload("csv", 1000000)
    peer = os.path.join(HERE, "Peers", "csv_bench.py")
    size = "%.0f MB" % (os.path.getsize(path) / 1e6)
    rows = [("csv field boundaries (1,000,000 rows, %s)" % size, "Almanac", measure([bench, "csv-bounds", path], runs))]
    if python_has("duckdb"):
        rows.append(("", "DuckDB, 1 thread, count(*)", measure([sys.executable, peer, "duckdb-count", path], runs)))
    rows.append(("csv read, every field a string", "Almanac", measure([bench, "csv-read", path], runs)))
    if python_has("duckdb"):
        rows.append(("", "DuckDB, 1 thread, all text", measure([sys.executable, peer, "duckdb", path], runs)))
    if python_has("polars"):
        os.environ["POLARS_MAX_THREADS"] = "1"
        rows.append(("", "polars, 1 thread, all text", measure([sys.executable, peer, "polars", path], runs)))
        del os.environ["POLARS_MAX_THREADS"]
    rows.append(("", "Python csv module", measure([sys.executable, peer, "python-read", path], runs)))
    rows.append(("csv → days → csv for zh-TW, streamed", "Almanac", measure([bench, "csv-convert", path, "zh-TW"], runs)))
    rows.append(("", "Python csv module, read + write only", measure([sys.executable, peer, "python-copy", path], runs)))
    return rows

def strings_rows(runs):
    path = workload("strings", 50000)
    almanac = almanac_binary()
    rows = [("audit of 50,000 keys × 3 locales (gen.py strings)", "Almanac",
             measure([almanac, "audit", path, "--format", "json"], runs, ok=(0, 1)))]
    if python_has("translate.convert.prop2po"):
        rows.append(("", "Translate Toolkit prop2po + pofilter", measure([sys.executable, os.path.join(HERE, "Peers", "translate_toolkit_audit.py"), path], 1)))
    return rows

def format_rows(bench, runs):
    path = workload("csv", 1000000)
    rows = [("per-region formatting: 100,000 dates (long) + TWD amounts for zh-TW", "Almanac (ICU)",
             measure([bench, "format-region", path, "zh-TW", "100000"], runs))]
    if python_has("babel"):
        rows.append(("", "Babel format_date + format_currency",
                     measure([sys.executable, os.path.join(HERE, "Peers", "babel_format.py"), path, "zh-TW", "100000"], 1)))
    return rows

def batch_rows(runs):
    """10,000 small calendar exports → Retire Time backups, one file each, on 1 and 2 cores."""
    folder = os.path.join(WORK, "ics-folder-10000")
    if not os.path.exists(folder):
        subprocess.run([sys.executable, os.path.join(HERE, "ics_folder.py"), "10000", folder, "--corrupt", "4321"], check=True)
    almanac = almanac_binary()
    peer = os.path.join(HERE, "Peers", "icalendar_batch.py")
    rows = []
    for jobs in (1, 2):
        # Each run into a new folder (`fresh`); the planted corrupt file exits 3.
        ours = measure([almanac, "convert", folder, "--to", "retiretime-backup", "-o", fresh("batch-out-%d" % jobs), "--jobs", str(jobs)],
                       runs, ok=(3,))
        ours["basis"] = "wall"
        rows.append(("batch: 10,000 small .ics exports (Google, Outlook, Apple, lunar; one cut off) → backups, %d core%s"
                     % (jobs, "s" if jobs > 1 else ""), "Almanac convert --jobs %d" % jobs, ours))
        if python_has("icalendar"):
            rows.append(("", "Python icalendar, %d process%s, JSON out" % (jobs, "es" if jobs > 1 else ""),
                         measure([sys.executable, peer, folder, fresh("batch-py-%d" % jobs), str(jobs)], 1)))
    return rows

ALMANAC = None  # --almanac: a given binary instead of this checkout's release build

def almanac_binary():
    """The release build as it is installed (README, "Install"): Swift's runtime and Foundation
    linked in (`--static-swift-stdlib`), in `.build-static`. It starts in ~7 ms instead of ~10
    (no symbol lookups against libswiftCore and Foundation at load time) and `inspect` reads ~9 %
    faster (runtime calls are direct). CI times the release tarball's binary instead
    (`--almanac`; Scripts/release.sh links ICU and libxml2 in too)."""
    if ALMANAC:
        return ALMANAC
    build = ["swift", "build", "-c", "release", "--package-path", ROOT, "--static-swift-stdlib",
             "--scratch-path", os.path.join(ROOT, ".build-static")]
    subprocess.run(build + ["--product", "almanac"], check=True, stdout=subprocess.DEVNULL)
    binary = subprocess.run(build + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(binary, "almanac")

# RESULTS.md: what follows this line was measured apart and is kept by --write.
KEPT_MARKER = "<!-- measured apart: kept by compare.py --write -->"

def table(rows):
    lines = ["| workload | tool | wall (median) | CPU | peak memory | runs | output | first row of the workload is |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    reference = None
    for name, tool, result in rows:
        if name:
            reference = result
        ratio = ""
        if reference is not result and reference is not None:
            basis = reference.get("basis", "cpu")
            speed = result[basis] / max(reference[basis], 1e-6)
            memory = result["rss"] / max(reference["rss"], 1e-6)
            ratio = ("%.1f× faster" % speed if speed >= 1 else "%.1f× slower" % (1 / speed)) + ", " + \
                    ("%.1f× less memory" % memory if memory >= 1 else "%.1f× more memory" % (1 / memory))
        lines.append("| %s | %s | %.2f s | %.2f s | %.0f MB | %d | %s | %s |" % (
            name, tool, result["wall"], result["cpu"], result["rss"], result["runs"], result["output"], ratio))
    return "\n".join(lines)

def libical_peer():
    """The libical peer, compiled here (nil without libical-dev)."""
    libical = os.path.join(WORK, "libical_bench")
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["cc", "-O2", "-o", libical, os.path.join(HERE, "Peers", "libical_bench.c")] + flags, check=True)
        return libical
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None

SIZES = {"short": (500, 50000, 10000, 30000), "full": (2000, 100000, 50000, 100000)}

def jobs(almanac, size):
    """The three jobs of the issue's table as a user types them, each beside the peer they would
    pick, with the measure its goal uses (CPU for one-core jobs, wall for the audit, which uses
    every core). The CPU jobs run Almanac on one core (`--jobs 1`), as their single-threaded peers
    run: a second worker makes a large export finish sooner but costs more CPU in all (handing
    rows between cores), which is not what a CPU comparison is about. `short` is the regression
    guard's size, `full` the table's."""
    files, items, keys, rows = SIZES[size]
    folder = os.path.join(WORK, "ics-folder-%d" % files)
    if not os.path.exists(folder):
        subprocess.run([sys.executable, os.path.join(HERE, "ics_folder.py"), str(files), folder], check=True, stdout=subprocess.DEVNULL)
    ics = workload("ics", items)
    strings = workload("strings", keys)
    csv = workload("csv", rows)
    out = lambda name: os.path.join(WORK, name)
    libical = libical_peer()
    return [
        ("batch", "cpu", "batch of %s small .ics exports → Retire Time backups, `--jobs 1`" % format(files, ","),
         [almanac, "convert", folder, "--to", "retiretime-backup", "-o", fresh("job-days"), "--jobs", "1"],
         [sys.executable, os.path.join(HERE, "Peers", "icalendar_batch.py"), folder, fresh("job-py"), "1"], "Python icalendar, JSON out"),
        ("inspect", "cpu", "`inspect` a %s-item calendar (gen.py ics)" % format(items, ","),
         [almanac, "inspect", ics], [libical, "parse", ics] if libical else None, "libical icalparser_parse_string"),
        ("audit", "wall", "`audit` of %s keys × 3 locales (gen.py strings)" % format(keys, ","),
         [almanac, "audit", strings, "--format", "json"],
         [sys.executable, os.path.join(HERE, "Peers", "translate_toolkit_audit.py"), strings]
         if python_has("translate.convert.prop2po") else None, "Translate Toolkit prop2po + pofilter"),
        # 100,000 items at both sizes: at 50,000 the process's fixed start-up is a third of
        # expand's time, and the guard must tell a 2× slowdown from libical's own noise.
        ("expand", "cpu", "`expand` a 100,000-item calendar over 2025 as JSON (gen.py ics)",
         [almanac, "expand", workload("ics", 100000), "--from", "2025-01-01", "--until", "2026-01-01", "--json", "--time-zone", "UTC"],
         [libical, "expand", workload("ics", 100000), "20250101T000000Z", "20260101T000000Z"] if libical else None,
         "libical foreach_recurrence"),
        ("export", "cpu", "per-region export of %s rows (gen.py csv) → a zh-TW CSV, `--jobs 1`" % format(rows, ","),
         [almanac, "convert", csv, "--via", "agenda", "--to", "csv", "--locale", "zh-TW", "-o", out("job-tw.csv"), "--force", "--jobs", "1"],
         [sys.executable, os.path.join(HERE, "Peers", "babel_export.py"), csv, out("job-babel.csv"), "zh-TW"]
         if python_has("babel") else None, "Python csv + Babel"),
    ]

def job_rows(runs):
    """The issue's table: each job at full size beside its peer, in one run, interleaved."""
    interleaved = Interleaved(runs)
    for name, basis, summary, ours, theirs, peer in jobs(almanac_binary(), "full"):
        mine = interleaved.add(summary + " (%s)" % ("CPU" if basis == "cpu" else "wall"), "almanac", ours, ok=(0, 1, 3))
        mine["basis"] = basis
        if theirs:
            interleaved.add("", peer, theirs)
    return interleaved.finish()

def check(runs, floors_path, update):
    """Each job's speed-up over its peer, against the floor in floors.json: fails (exit 1) when one
    falls below, so a 2× slowdown does not land. `--update-floors` writes 70 % of the lower of
    today's ratio and the last measured one."""
    almanac = almanac_binary()
    floors = json.load(open(floors_path)) if os.path.exists(floors_path) else {}
    failures = []
    measured = {}
    print("| job | almanac | peer | ratio | floor |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, basis, summary, ours, theirs, peer in jobs(almanac, "short"):
        if theirs is None:
            failures.append("%s: the peer (%s) is not installed" % (name, peer))
            continue
        floor = floors.get(name, {}).get("floor")
        # A ratio below its floor is measured once more, Almanac and peer again, before it fails:
        # on a shared 2-core runner one slow phase can halve a short job's ratio (the CI run of
        # 2026-11-24 saw inspect at 1.6× where every run before gave 2.3–2.8×), while a real 2×
        # slowdown stays below the floor in both attempts. The better attempt counts.
        ratio = 0.0
        for attempt in range(2 if floor else 1):
            # Almanac and its peer in turn, the ratio of each pair: a slow phase of the machine
            # (this VM's speed moves by half within minutes) falls on both sides of a pair.
            pairs = [(measure(ours, 1, ok=(0, 1, 3)), measure(theirs, 1)) for _ in range(runs)]
            mine = {basis: statistics.median(pair[0][basis] for pair in pairs)}
            other = {basis: statistics.median(pair[1][basis] for pair in pairs)}
            this = statistics.median(pair[1][basis] / max(pair[0][basis], 1e-6) for pair in pairs)
            print("| %s (%s)%s | %.3f s | %.3f s (%s) | %.1f× | %s |" % (
                summary, basis, ", measured again" if attempt else "", mine[basis], other[basis], peer, this,
                "%.1f×" % floor if floor else "none"), flush=True)
            ratio = max(ratio, this)
            if floor is None or ratio >= floor:
                break
        measured[name] = ratio
        if floor is None:
            failures.append("%s: no floor in %s" % (name, os.path.relpath(floors_path, ROOT)))
        elif ratio < floor:
            failures.append("%s: %.1f× its peer, below the floor of %.1f× (a regression, or a much slower machine)" % (name, ratio, floor))
    # Scaling: ten times the calendar costs at most eleven times the CPU (a quadratic step
    # anywhere in expand — reading, expanding, sorting, writing — shows here first).
    small, large = workload("ics", 5000), workload("ics", 50000)
    expand = lambda path: [almanac, "expand", path, "--from", "2025-01-01", "--until", "2026-01-01", "--json", "--time-zone", "UTC"]
    first, second = measure(expand(small), runs), measure(expand(large), runs)
    growth = second["cpu"] / max(first["cpu"], 1e-6)
    print("| `expand` of 50,000 items against 5,000 (cpu) | %.3f s | %.3f s (5,000 items) | %.1f× the time | at most 11× |" % (
        second["cpu"], first["cpu"], growth), flush=True)
    if growth > 11:
        failures.append("expand: ten times the input took %.1f× the time (at most 11×)" % growth)
    if update:
        # 70 % of the lower of this run and the last one: one lucky run does not set a floor that
        # ordinary noise then fails.
        def previous(name):
            value = floors.get(name, {}).get("measured", [])
            return [value[-1]] if isinstance(value, list) and value else [value] if isinstance(value, (int, float)) else []
        written = {}
        for name, ratio in measured.items():
            seen = previous(name) + [round(ratio, 1)]
            written[name] = {"floor": round(min(seen) * 0.7, 1), "measured": seen, "on": datetime.date.today().isoformat()}
        with open(floors_path, "w") as f:
            json.dump(written, f, indent=2, sort_keys=True)
            f.write("\n")
        print("wrote %s" % os.path.relpath(floors_path, ROOT))
        return 0
    for failure in failures:
        print("compare --check: " + failure, file=sys.stderr)
    return 1 if failures else 0

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="jobs,commands,process,ics,csv,format,strings,batch")
    parser.add_argument("--write")
    parser.add_argument("--check", action="store_true",
                        help="the regression guard: short jobs beside their peers, against Benchmarks/floors.json")
    parser.add_argument("--update-floors", action="store_true",
                        help="with --check: write 70 %% of the lower of today's ratio and the last one as the floors")
    parser.add_argument("--almanac", help="time this almanac binary (or wrapper) instead of building one")
    args = parser.parse_args()
    # The regression guard compares the code's speed, not the file system's: its batch outputs go
    # to tmpfs where there is one, out of reach of ext4's inode allocator (see `fresh`); the table
    # measures the disk a user writes to.
    global RUNS
    if args.check and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        RUNS = "/dev/shm/almanac-bench-runs"
    # The last invocation's run folders, if it was stopped before it removed them.
    clear_runs()
    atexit.register(clear_runs)
    global ALMANAC
    ALMANAC = args.almanac and os.path.abspath(args.almanac)
    if args.check:
        sys.exit(check(args.runs, os.path.join(HERE, "floors.json"), args.update_floors))
    # The harness package is built only for its rows (the jobs and process rows time `almanac`).
    bench, libical = build() if {"ics", "csv", "format"} & set(args.only.split(",")) else (None, None)
    rows = []
    if "jobs" in args.only.split(","):
        rows += job_rows(args.runs)
    scaling = []
    if "commands" in args.only.split(","):
        more, scaling = command_rows(args.runs)
        rows += more
    if "process" in args.only.split(","):
        rows += process_rows(args.runs)
    if "ics" in args.only.split(","):
        rows += ics_rows(bench, libical, args.runs)
    if "csv" in args.only.split(","):
        rows += csv_rows(bench, args.runs)
    if "format" in args.only.split(","):
        rows += format_rows(bench, args.runs)
    if "strings" in args.only.split(","):
        rows += strings_rows(args.runs)
    if "batch" in args.only.split(","):
        rows += batch_rows(args.runs)
    text = table(rows)
    if scaling:
        text += ("\n\nTen times the input, as typed (CPU of the almanac process; memory is peak RSS):\n\n"
                 "| command | 100,000 | 1,000,000 | ratio | memory |\n| --- | ---: | ---: | ---: | --- |\n" + "\n".join(scaling))
    print(text)
    if args.write:
        machine = "%s, %s, %d cores" % (platform.platform(), platform.processor() or platform.machine(), os.cpu_count())
        # Sections measured by other scripts (Benchmarks/cores.py, the audit's memory) follow a
        # marker line and are kept as they are when this table is written anew.
        kept = ""
        if os.path.exists(args.write):
            previous = open(args.write, encoding="utf-8").read()
            if KEPT_MARKER in previous:
                kept = "\n" + previous[previous.index(KEPT_MARKER):]
        with open(args.write, "w") as out:
            out.write("# Benchmark results\n\nMeasured %s on %s with `python3 Benchmarks/compare.py --runs %d`.\n"
                      "The first rows are the three jobs (batch imports, `inspect`, audits, per-region exports): the `almanac`\n"
                      "process a user types beside the peer they would pick, by the measure each goal uses (CPU for one-core\n"
                      "jobs, wall for the audit). Then other commands as typed (wall time: DuckDB and Almanac use both cores);\n"
                      "the rows after them time Almanac's pieces inside a harness (profiles, not the figures a user sees).\n"
                      "Ratios compare the first row of each workload with the rows under it, and peak memory; the jobs and\n"
                      "commands run interleaved with their peers (and with themselves at ten times the input), run after run.\n"
                      "`python3 Benchmarks/compare.py --check` is the short version CI runs against `Benchmarks/floors.json`.\n\n%s\n"
                      % (datetime.date.today().isoformat(), machine, args.runs, text) + kept)

if __name__ == "__main__":
    main()
