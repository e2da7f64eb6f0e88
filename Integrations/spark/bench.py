#!/usr/bin/env python3
"""Files per second of the same batch on one machine and on Spark, in one run.

    python3 Integrations/spark/bench.py [--files 10000] [--runs 3] [--almanac .build/release/almanac]

`almanac convert DIR -o OUT --jobs 1|2` beside `spark-submit --master local[1]|local[2]
almanac_spark.py` on the same ics_folder.py exports (Retire Time backups), each into a fresh
folder; medians of --runs. Spark's figure is the whole spark-submit, JVM start included, and the
job alone (listing, conversion, report) as the job measures it.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--almanac", default=os.path.join(ROOT, ".build/release/almanac"))
    parser.add_argument("--work", help="folder for the inputs and outputs (default: a new one in the system's temporary folder)")
    args = parser.parse_args()
    almanac = os.path.abspath(args.almanac)
    work = tempfile.mkdtemp(prefix="almanac-spark-bench-", dir=args.work)
    inputs = os.path.join(work, "exports")
    subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/ics_folder.py"), str(args.files), inputs, "--corrupt", "4321"], check=True)
    spark_submit = shutil.which("spark-submit") or os.path.join(os.path.dirname(__import__("pyspark").__file__), "bin", "spark-submit")
    configurations = [
        ("almanac --jobs 1", lambda out: [almanac, "convert", inputs, "-o", out, "--to", "retiretime-backup", "--jobs", "1"]),
        ("almanac --jobs 2", lambda out: [almanac, "convert", inputs, "-o", out, "--to", "retiretime-backup", "--jobs", "2"]),
    ] + [
        (f"spark local[{cores}]", lambda out, cores=cores: [
            spark_submit, "--master", f"local[{cores}]", "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
            os.path.join(HERE, "almanac_spark.py"), "--input", inputs, "--output", out, "--to", "retiretime-backup",
            "--report", out + "-report", "--almanac", almanac])
        for cores in (1, 2)
    ]
    timings = {name: [] for name, _ in configurations}
    job_seconds = {name: [] for name, _ in configurations}
    for run in range(args.runs):
        for name, command in configurations:
            out = os.path.join(work, f"out-{len(timings[name])}-{name.replace(' ', '').replace('[', '').replace(']', '')}")
            started = time.perf_counter()
            result = subprocess.run(command(out), capture_output=True, text=True)
            elapsed = time.perf_counter() - started
            if result.returncode not in (0, 3):
                print(result.stderr[-3000:], file=sys.stderr)
                raise SystemExit(f"{name} failed with status {result.returncode}")
            timings[name].append(elapsed)
            if name.startswith("spark"):
                job_seconds[name].append(json.loads(result.stdout.strip().splitlines()[-1])["seconds"])
            print(f"run {run + 1}: {name}: {elapsed:.2f} s", file=sys.stderr)
    print(f"| {args.files:,} exports → Retire Time backups | wall, median of {args.runs} | files/s | the job alone (Spark started) | files/s |")
    print("| --- | --- | --- | --- | --- |")
    for name, _ in configurations:
        median = statistics.median(timings[name])
        job = f"{statistics.median(job_seconds[name]):.2f} s | {args.files / statistics.median(job_seconds[name]):,.0f}" if job_seconds[name] else "| "
        print(f"| {name} | {median:.2f} s | {args.files / median:,.0f} | {job} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
