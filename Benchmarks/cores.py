#!/usr/bin/env python3
"""How Almanac uses cores, as a user runs it: `convert DIR --jobs N` on a folder of small exports,
beside the same files converted by separate `almanac` processes (one per exporter folder, all at
once) and copied by `cp`; then one large calendar with `--jobs N`. Wall and CPU time (user +
system of the whole process), medians of `--runs`, in tmpfs so that the kernel's file creation on a
disk does not decide the figure.

    python3 Benchmarks/cores.py [--almanac PATH] [--files 10000] [--items 1000000] [--jobs 1,2,4,8,16]

The table it prints is RESULTS.md's many-cores table. On a machine with fewer cores than a row's
jobs, that row shows what the extra threads cost (CPU above the one-job row), not a speed-up.
"""
import argparse, os, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GEN = os.path.join(ROOT, "..", "shared", "bench", "gen.py")

def timed(command, cwd=None):
    """Wall and CPU seconds of `command` and its children (it must succeed or exit 3, a batch with
    a failed file)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    status = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status not in (0, 3):
        sys.exit("cores: %s exited %d" % (" ".join(command), status))
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def median_of(runs, make):
    """Medians of wall and CPU over `runs` runs of the command `make()` returns (a new output each
    time)."""
    results = [timed(make()) for _ in range(runs)]
    return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--almanac", default=os.path.join(ROOT, ".build", "release", "almanac"))
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--items", type=int, default=1000000)
    parser.add_argument("--jobs", default="1,2,4,8,16")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default="/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir())
    args = parser.parse_args()
    jobs = [int(n) for n in args.jobs.split(",")]
    work = tempfile.mkdtemp(prefix="almanac-cores-", dir=args.work)
    try:
        folder = os.path.join(work, "exports")
        subprocess.run([sys.executable, os.path.join(HERE, "ics_folder.py"), str(args.files), folder], check=True,
                       stdout=subprocess.DEVNULL)
        counter = iter(range(1 << 30))
        def fresh():
            path = os.path.join(work, "out-%d" % next(counter))
            return path
        def clean():
            for name in os.listdir(work):
                if name.startswith("out-"):
                    shutil.rmtree(os.path.join(work, name), ignore_errors=True)
        print("%d cores here (os.cpu_count); %d files, %s" % (os.cpu_count(), args.files, args.work))
        print()
        print("| job | jobs | wall | CPU | speed-up over 1 job | CPU over 1 job |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        first = None
        for n in jobs:
            wall, cpu = median_of(args.runs, lambda: [args.almanac, "convert", folder, "--to", "retiretime-backup",
                                                       "-o", fresh(), "--jobs", str(n)])
            clean()
            first = first or (wall, cpu)
            print("| `convert DIR --to retiretime-backup` (%s files) | %d | %.2f s | %.2f s | %.1f× | %.2f× |"
                  % (format(args.files, ","), n, wall, cpu, first[0] / wall, cpu / first[1]), flush=True)
        # The same files, one process per exporter folder, all at once (what a person could do by
        # hand), and a plain copy: the floors a batch in one process is held to.
        subfolders = sorted(os.path.join(folder, name) for name in os.listdir(folder))
        def separately():
            # New output folders each run: a batch skips files already converted.
            return ["sh", "-c", " & ".join("%s convert %s --to retiretime-backup -o %s --jobs 1 >/dev/null 2>&1"
                                           % (args.almanac, sub, fresh()) for sub in subfolders) + " & wait"]
        wall, cpu = median_of(args.runs, separately)
        clean()
        print("| %d separate processes, one per folder | 1 each | %.2f s | %.2f s | %.1f× | %.2f× |"
              % (len(subfolders), wall, cpu, first[0] / wall, cpu / first[1]))
        wall, cpu = median_of(args.runs, lambda: ["cp", "-r", folder, fresh()])
        clean()
        print("| `cp -r` of the folder | | %.2f s | %.2f s | | |" % (wall, cpu))
        big = os.path.join(work, "big.ics")
        subprocess.run([sys.executable, GEN, "ics", str(args.items), big], check=True, stdout=subprocess.DEVNULL)
        first = None
        for n in jobs:
            wall, cpu = median_of(args.runs, lambda: [args.almanac, "convert", big, "--to", "jcal", "-o", fresh() + ".json",
                                                       "--jobs", str(n)])
            for name in os.listdir(work):
                if name.startswith("out-"):
                    os.remove(os.path.join(work, name))
            first = first or (wall, cpu)
            print("| `convert big.ics --to jcal` (%s items) | %d | %.2f s | %.2f s | %.1f× | %.2f× |"
                  % (format(args.items, ","), n, wall, cpu, first[0] / wall, cpu / first[1]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
