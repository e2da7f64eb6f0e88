#!/usr/bin/env python3
"""XLSX written and read by two builds of almanac, the default (zlib) and one with the ISAL trait
(ISA-L), beside openpyxl, in one run: what the ISAL trait buys, and what the default costs.

    swift build -c release --product almanac
    swift build -c release --product almanac --traits ISAL --scratch-path .build-isal
    python3 Benchmarks/deflate.py [--runs 5] [--zlib .build/release/almanac] [--isal .build-isal/release/almanac]

Rows are measured as compare.py measures them (its harness: interleaved runs, medians of wall and
CPU time, peak memory), on the workloads of ../shared/bench/gen.py. Both builds read the same
workbook (the default build's), so the read rows differ only in the inflating library.
"""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

HERE = compare.HERE


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--zlib", default=os.path.join(compare.ROOT, ".build", "release", "almanac"))
    parser.add_argument("--isal", default=os.path.join(compare.ROOT, ".build-isal", "release", "almanac"))
    args = parser.parse_args()
    for binary in (args.zlib, args.isal):
        if not os.access(binary, os.X_OK):
            sys.exit("deflate.py: %s is not built (see --help)" % binary)
    builds = [("almanac (zlib, the default)", args.zlib), ("almanac --traits ISAL (ISA-L)", args.isal)]
    has_peer = compare.python_has("openpyxl") and compare.python_has("babel")
    work = os.path.join(compare.WORK, "deflate")
    os.makedirs(work, exist_ok=True)
    out = lambda name: os.path.join(work, name)
    runs = compare.Interleaved(args.runs)
    csv = {size: compare.workload("csv", size) for size in (100000, 1000000)}
    results = {}
    for size in (100000, 1000000):
        label = format(size, ",")
        for index, (tool, binary) in enumerate(builds):
            results["write", index, size] = runs.add(
                "`convert big.csv --via agenda --to xlsx --locale zh-TW` (%s rows)" % label if index == 0 else "", tool,
                [binary, "convert", csv[size], "--via", "agenda", "--to", "xlsx", "--locale", "zh-TW",
                 "-o", out("o-%d-%d.xlsx" % (index, size)), "--force"], ok=(0, 1))
        if size == 100000 and has_peer:
            runs.add("", "openpyxl (write-only) + Babel", [sys.executable, os.path.join(HERE, "Peers", "openpyxl_export.py"),
                                                          csv[size], out("o-py.xlsx"), "zh-TW"])
    runs.flush()
    for size in (100000, 1000000):
        label = format(size, ",")
        workbook = out("o-0-%d.xlsx" % size)
        for index, (tool, binary) in enumerate(builds):
            results["read", index, size] = runs.add(
                "`convert big.xlsx --to csv` (%s rows, the default build's workbook)" % label if index == 0 else "", tool,
                [binary, "convert", workbook, "--to", "csv", "-o", out("o-%d.csv" % index), "--force"])
        if size == 100000 and compare.python_has("openpyxl"):
            runs.add("", "openpyxl (read-only) → csv", [sys.executable, os.path.join(HERE, "Peers", "openpyxl_import.py"),
                                                       workbook, out("o-py.csv")])
    rows = runs.finish()
    print(compare.table(rows))
    print()
    sizes = {index: [os.path.getsize(out("o-%d-1000000.xlsx" % index))] for index in (0, 1)}
    for job in ("write", "read"):
        for index, (tool, _) in enumerate(builds):
            small, large = results[job, index, 100000], results[job, index, 1000000]
            print("%s %s: 10x the rows, %.1fx the CPU time, %.1fx the wall time" % (
                job, tool, large["cpu"] / small["cpu"], large["wall"] / small["wall"]))
    for index, (tool, _) in enumerate(builds):
        print("%s: the 1,000,000-row workbook is %.1f MB" % (tool, sizes[index][0] / 1e6))


if __name__ == "__main__":
    main()
