#!/usr/bin/env python3
"""Fuzz every decoder with libFuzzer (address sanitizer on), seeded with the repository's fixtures.

    python3 Scripts/fuzz.py [--seconds 600] [--runs N] [--only ics,csv,…] [--jobs 2]

Builds Fuzz/ with -sanitize=fuzzer,address, seeds a corpus per format (every fixture with the
format's extensions, plus Almanac's own conversions of the examples into the format), and runs
`almanac-fuzz` for each format until --seconds pass or --runs inputs were tried. An input slower
than 10 s counts as a hang. Crashes, hangs and sanitizer reports are saved under
Fuzz/artifacts/FORMAT/ and the script exits 1; reproduce one with

    ALMANAC_FUZZ_CODEC=FORMAT Fuzz/.build/release/almanac-fuzz Fuzz/artifacts/FORMAT/crash-…

and add the file to the format's test fixtures once fixed. The corpus is kept in
$TMPDIR/almanac-fuzz/FORMAT (or $ALMANAC_FUZZ_WORK/FORMAT) between runs.
"""
import argparse, concurrent.futures, json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("ALMANAC_FUZZ_WORK") or os.path.join(tempfile.gettempdir(), "almanac-fuzz")
SKIP = {".build", ".git", "artifacts", ".swiftpm"}

# Inputs converted into every format a corpus needs, so formats without fixtures start from
# something real.
SAMPLES = {
    "agenda": ["Examples/family-calendar.ics"],
    "ledger": ["Examples/jellysave-backup.json"],
    "catalog": ["Locales/Shared"],
    "table": ["Examples/retire-time-days.csv"],
    "backup": [],
}


def run(command, **kwargs):
    return subprocess.run(command, cwd=ROOT, **kwargs)


def build():
    run(["swift", "build", "--product", "almanac", "--product", "almanac-codec-android"], check=True, stdout=subprocess.DEVNULL)
    # Optimized code with the address sanitizer: about twice the inputs per second of a debug build.
    run(["swift", "build", "-c", "release", "--package-path", "Fuzz", "-Xswiftc", "-sanitize=fuzzer,address",
         "-Xswiftc", "-parse-as-library"], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, "Fuzz/.build/release/almanac-fuzz"), os.path.join(ROOT, ".build/debug/almanac")


def repository_files():
    for folder, folders, names in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in SKIP and not name.startswith(".")]
        for name in names:
            yield os.path.join(folder, name)


def seed(format, almanac, corpus):
    os.makedirs(corpus, exist_ok=True)
    count = 0
    for path in repository_files():
        name = os.path.basename(path).lower()
        matches = any(name.endswith(ext) for ext in format["extensions"])
        if not matches and format["model"] == "backup" and name.endswith(".json"):
            with open(path, "rb") as f:
                matches = ('"format": "%s"' % format["id"]).encode() in f.read(4096)
        if matches and os.path.getsize(path) < 1_000_000:
            shutil.copy(path, os.path.join(corpus, "seed-%03d-%s" % (count, os.path.basename(path))))
            count += 1
    if format["canWrite"]:
        for sample in SAMPLES.get(format["model"], []):
            out = os.path.join(corpus, "converted-%s" % os.path.basename(sample))
            env = dict(os.environ, PATH=os.path.dirname(almanac) + ":" + os.environ["PATH"])
            result = run([almanac, "convert", sample, "--to", format["id"], "-o", out, "--force"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            count += result.returncode == 0
    return count


def fuzz(binary, format, corpus, seconds, runs, seed=None):
    artifacts = os.path.join(ROOT, "Fuzz/artifacts", format) + "/"
    os.makedirs(artifacts, exist_ok=True)
    # Inputs saved by earlier runs stay for whoever is fixing them; only this run's are reported.
    earlier = set(os.listdir(artifacts))
    began = time.monotonic()
    command = [binary, corpus, "-timeout=10", "-rss_limit_mb=2048", "-max_len=262144", "-print_final_stats=1",
               "-artifact_prefix=" + artifacts, "-max_total_time=%d" % seconds]
    if runs:
        command.append("-runs=%d" % runs)
    if seed is not None:
        command.append("-seed=%d" % seed)
    # The Swift runtime's backtracer waits on a crashed process and keeps its pipes open; libFuzzer
    # and the sanitizer print the stack themselves.
    env = dict(os.environ, ALMANAC_FUZZ_CODEC=format, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1",
               SWIFT_BACKTRACE="enable=no")
    result = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace")
    wall = time.monotonic() - began
    log = result.stdout + result.stderr
    with open(os.path.join(WORK, format + ".log"), "w") as f:
        f.write(log)
    executed = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    elapsed = re.findall(r"Done \d+ runs in (\d+) second", log)
    found = sorted(name for name in os.listdir(artifacts) if name not in earlier)
    if not os.listdir(artifacts):
        shutil.rmtree(artifacts, ignore_errors=True)
    # libFuzzer prints "Done N runs in S second(s)" only when it finishes; after a crash, the wall time.
    return {"format": format, "status": result.returncode, "runs": int(executed[-1]) if executed else 0,
            "seconds": int(elapsed[-1]) if elapsed else round(wall), "artifacts": found}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--runs", type=int)
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, help="libFuzzer's -seed, for a repeatable run (CI)")
    args = parser.parse_args()
    binary, almanac = build()
    env = dict(os.environ, PATH=os.path.dirname(almanac) + ":" + os.environ["PATH"])
    formats = json.loads(run([almanac, "formats", "--json"], env=env, check=True, capture_output=True, text=True).stdout)
    formats = [f for f in formats if f["canRead"] and (not args.only or f["id"] in args.only.split(","))]
    if args.only:  # in the order given: the most exposed formats first when time is short
        formats.sort(key=lambda f: args.only.split(",").index(f["id"]))
    os.makedirs(WORK, exist_ok=True)
    for format in formats:
        print("%-20s %d seeds" % (format["id"], seed(format, almanac, os.path.join(WORK, format["id"]))), flush=True)
    failed = False
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda f: fuzz(binary, f["id"], os.path.join(WORK, f["id"]), args.seconds, args.runs, args.seed), formats)
        for result in results:
            ok = result["status"] == 0 and not result["artifacts"]
            failed |= not ok
            print("%-20s %-8s %9d inputs in %s s%s" % (result["format"], "ok" if ok else "FAILED", result["runs"], result["seconds"],
                                                     "" if ok else "  " + " ".join(result["artifacts"])), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
