"""What the file corpora (Scripts/workbooks, Scripts/calendars) share: reading a repository from the session tools'
mirrors (or a blobless clone), fetching a manifest's files into the cache by blob, the judged file, and the commands.

Files come from a mirror of each repository (a bare or normal git directory at MIRRORS/OWNER+NAME/repo, as the
session tools' `fetch` leaves them; ALMANAC_CORPUS_MIRRORS, default /work/.mirror), or, where none is there, from
`git clone --filter=blob:none` of github.com (network needed). They go into the cache, never into this repository.
"""
import argparse, collections, json, os, random, subprocess, sys, tempfile

MIRRORS = os.environ.get("ALMANAC_CORPUS_MIRRORS", "/work/.mirror")


def git(repo_dir, *args, binary=False):
    out = subprocess.run(["git", "-C", repo_dir, *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode("utf-8")


def mirror_of(repo):
    path = os.path.join(MIRRORS, repo.replace("/", "+"), "repo")
    if os.path.isdir(os.path.join(path, ".git")):
        return os.path.join(path, ".git")
    return path if os.path.isdir(path) else None


def fetch_files(projects, entries, cache_path):
    """Each entry's bytes (repo, path) at its project's commit into `cache_path(entry)`, those not there yet."""
    commits = {p["repo"]: p["commit"] for p in projects}
    by_repo = collections.defaultdict(list)
    for entry in entries:
        if not os.path.exists(cache_path(entry)):
            by_repo[entry["repo"]].append(entry)
    for repo, missing in by_repo.items():
        repo_dir, temporary = mirror_of(repo), None
        if repo_dir is None:
            temporary = tempfile.mkdtemp()
            repo_dir = os.path.join(temporary, "repo")
            subprocess.run(["git", "clone", "--quiet", "--bare", "--filter=blob:none",
                            f"https://github.com/{repo}.git", repo_dir], check=True)
        for entry in missing:
            os.makedirs(os.path.dirname(cache_path(entry)), exist_ok=True)
            with open(cache_path(entry), "wb") as file:
                file.write(git(repo_dir, "show", f"{commits[repo]}:{entry['path']}", binary=True))
        if temporary:
            subprocess.run(["rm", "-rf", temporary], check=True)
        print(f"{repo}: {len(missing)} files", file=sys.stderr)


def read_judged(path, columns):
    """A judged file's rows by id (`#` lines are comments; missing cells are empty)."""
    rows = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.startswith("#") or not line.strip():
                    continue
                cells = line.rstrip("\n").split("\t")
                row = dict(zip(columns, cells + [""] * (len(columns) - len(cells))))
                rows[row["id"]] = row
    return rows


def append_judged(path, columns, rows, what="differences"):
    new_file = not os.path.exists(path)
    with open(path, "a", encoding="utf-8") as file:
        if new_file:
            file.write("# " + "\t".join(columns) + "\n")
        for row in rows:
            file.write("\t".join(row[c] for c in columns) + "\n")
    print(f"{len(rows)} {what} to judge appended to {os.path.relpath(path)}", file=sys.stderr)


def one_line(text, limit=200):
    text = str(text).replace("\t", " ").replace("\r", "␍").replace("\n", "⏎")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def main(doc, commands, seed):
    """The commands every corpus has: discover, fetch, run ALMANAC, report, sample."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("discover")
    for name in ("fetch", "run", "report", "sample"):
        command = sub.add_parser(name)
        if name == "run":
            command.add_argument("almanac")
            command.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
        command.add_argument("--half", default=None if name != "sample" else "tuning")
        command.add_argument("--only")
        command.add_argument("--list", type=int, default=40)
        command.add_argument("--per-class", type=int, default=20)
        command.add_argument("--seed", default=seed)
    args = parser.parse_args()
    commands[args.command](args)


def load_manifest(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def select(manifest, key, half=None, only=None):
    """The manifest's `key` entries (workbooks, calendars) of the halves in `half` and the repositories in `only`."""
    halves = {p["repo"]: p["half"] for p in manifest["projects"]}
    chosen = manifest[key]
    if half:
        chosen = [entry for entry in chosen if halves[entry["repo"]] in half.split(",")]
    if only:
        chosen = [entry for entry in chosen if entry["repo"] in only.split(",")]
    return chosen


def blobs(repo, pattern, seen, left_out, skip=None):
    """A repository's files at its mirror's HEAD whose path matches `pattern` (and not `skip`): (commit, [(path,
    blob, size, bytes)]); a file the snapshot lacks, or with the bytes of one already `seen`, goes to `left_out`."""
    repo_dir = mirror_of(repo)
    if repo_dir is None:
        sys.exit(f"no mirror of {repo} under {MIRRORS}: fetch it first")
    commit = git(repo_dir, "rev-parse", "HEAD").strip()
    found = []
    for line in git(repo_dir, "ls-tree", "-r", "-l", commit).splitlines():
        meta, path = line.split("\t", 1)
        if not pattern.search(path) or (skip is not None and skip.search(path)):
            continue
        _, kind, blob, size = meta.split()
        if kind != "blob":
            continue
        if not size.isdigit():
            left_out.append({"repo": repo, "path": path, "reason": "not in the snapshot (4 MiB or more)"})
            continue
        if blob in seen:
            left_out.append({"repo": repo, "path": path, "reason": "the same bytes as " + seen[blob]})
            continue
        seen[blob] = f"{repo}:{path}"
        found.append((path, blob, int(size), git(repo_dir, "cat-file", "blob", blob, binary=True)))
    return commit, git(repo_dir, "log", "-1", "--format=%cs").strip(), found


def run_all(entries, run_one, almanac, jobs, cache_path, results_path, every=50):
    """`run_one(almanac, entry)` for every entry on `jobs` processes, each result written as JSON to
    `results_path(entry)`; a runner's own crash is recorded as the entry's result."""
    import concurrent.futures
    os.makedirs(os.path.dirname(results_path(entries[0])) if entries else ".", exist_ok=True)
    missing = [entry for entry in entries if not os.path.exists(cache_path(entry))]
    if missing:
        sys.exit(f"{len(missing)} files are not in the cache: run fetch first")
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_one, almanac, entry): entry for entry in entries}
        for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
            entry = futures[future]
            try:
                result = future.result()
            except Exception as error:  # the runner's, not a reader's: kept as the result
                result = {"id": f"{entry['repo']}:{entry['path']}", "crash": repr(error)}
            with open(results_path(entry), "w", encoding="utf-8") as file:
                json.dump(result, file, ensure_ascii=False, indent=1, default=str)
            if done % every == 0:
                print(f"{done} of {len(entries)}", file=sys.stderr)


def load_results(entries, results_path):
    """The results `run` wrote for `entries` (those it has run)."""
    out = []
    for entry in entries:
        if os.path.exists(results_path(entry)):
            with open(results_path(entry), encoding="utf-8") as file:
                out.append(json.load(file))
    return out


def sample_rows(halves, differences_of_half, judged, per_class, seed):
    """Rows to judge: per half and class, up to `per_class` differences not judged yet, picked by a seeded
    shuffle. `differences_of_half(half)` yields (class, row), each row with its stable "id"."""
    rng = random.Random(seed)
    rows = []
    for half in halves:
        by_class = collections.defaultdict(list)
        for name, row in differences_of_half(half):
            by_class[name].append(row)
        for _, items in sorted(by_class.items()):
            todo = [row for row in items if row["id"] not in judged]
            rng.shuffle(todo)
            rows += [dict(row, half=half, verdict="", reason="") for row in todo[:per_class]]
    return rows
