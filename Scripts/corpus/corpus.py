#!/usr/bin/env python3
"""The real-app catalog corpus: public apps' en / zh-Hans / zh-Hant catalogs, split by app before anyone looks.

    python3 Scripts/corpus/corpus.py discover OWNER/NAME [--mirror DIR]   # a manifest entry from a repository's HEAD
    python3 Scripts/corpus/corpus.py fetch [--only REPO,...]              # the manifest's files into the cache
    python3 Scripts/corpus/corpus.py audit ALMANAC [--half H]             # almanac audit per app, findings saved
    python3 Scripts/corpus/corpus.py sample [--half H] [--per-check N]    # unjudged findings appended to judged.tsv
    python3 Scripts/corpus/corpus.py precision [--half H]                 # per-check precision from judged.tsv
    python3 Scripts/corpus/corpus.py drafts ALMANAC [--half H] [--list N] # zh-Hant drafts beside OpenCC s2twp / s2tw
    python3 Scripts/corpus/corpus.py fixes ALMANAC [--half H] [--sample N] # audit --fix on a copy: fixed, new, sample to judge
    python3 Scripts/corpus/corpus.py memory ALMANAC [--half H] [--folds K] # drafts that learn the app, k-fold, beside s2twp

The manifest, apps.json, names each app's repository, commit, licence, half and catalog files. Halves were
assigned (a seeded shuffle of the repositories, Scripts/corpus/README.md) before any finding was read: tune on
"tuning", report on "measuring", and when the measuring half shows a class of error, fix the class and measure
again on apps of a later half ("fresh-1", ...), never on the ones that showed it.

Files come from a mirror of each repository (a bare or normal git directory at MIRRORS/OWNER+NAME/repo, as
the session tools' `fetch` leaves them; ALMANAC_CORPUS_MIRRORS, default /work/.mirror), or, where none is
there, from `git clone --filter=blob:none` of github.com (network needed). They go into the cache
(ALMANAC_CORPUS_CACHE, default ~/.cache/almanac-corpus), never into this repository: the apps' licences
differ (apps.json says each), and CI does not fetch.
"""
import argparse, collections, hashlib, json, os, random, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from corpusfiles import append_judged, read_judged as read_judged_file  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
MANIFEST = os.path.join(HERE, "apps.json")
JUDGED = os.path.join(HERE, "judged.tsv")
MIRRORS = os.environ.get("ALMANAC_CORPUS_MIRRORS", "/work/.mirror")
CACHE = os.environ.get("ALMANAC_CORPUS_CACHE", os.path.expanduser("~/.cache/almanac-corpus"))

# Locale folder names, lower-cased, with - and _ alike: Taiwan's Traditional Chinese, Simplified Chinese, the
# base languages. Hong Kong's (zh-HK, zh-Hant-HK) is not Taiwan's and stays out.
TAIWAN = {"zh-hant", "zh-hant-tw", "zh-tw"}
SIMPLIFIED = {"zh-hans", "zh-hans-cn", "zh-cn", "zh"}
BASES = {"en", "en-us", "base", "english"}
SKIP_DIRS = re.compile(r"(^|/)(Pods|Carthage|ThirdParty|Third-Party|Vendor|vendor|node_modules|External|Tests?|\w+Tests)/")
XCSTRINGS_TAIWAN = {"zh-Hant", "zh-Hant-TW", "zh-TW"}


def folder_locale(name):
    return name[:-len(".lproj")].lower().replace("_", "-") if name.endswith(".lproj") else None


def git(repo_dir, *args, binary=False):
    out = subprocess.run(["git", "-C", repo_dir, *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode("utf-8")


def mirror_of(repo):
    path = os.path.join(MIRRORS, repo.replace("/", "+"), "repo")
    return path if os.path.isdir(path) else None


def load_manifest():
    with open(MANIFEST, encoding="utf-8") as file:
        return json.load(file)


def apps(half=None, only=None):
    chosen = load_manifest()["apps"]
    if half:
        chosen = [app for app in chosen if app["half"] in half.split(",")]
    if only:
        chosen = [app for app in chosen if app["repo"] in only.split(",")]
    return chosen


def app_dir(app):
    return os.path.join(CACHE, app["repo"].replace("/", "+"))


# --- discover ---------------------------------------------------------------------------------------------

def catalog_paths(repo_dir, commit):
    """The catalog files at `commit` worth auditing: .strings/.stringsdict in the base and Chinese .lproj
    folders of a folder that has a Taiwan one, the interface files a Chinese locale localizes itself there (a
    table's .xib), and every .xcstrings with a Taiwan localization."""
    names = git(repo_dir, "ls-tree", "-r", "--name-only", commit).splitlines()
    names = [n for n in names if not SKIP_DIRS.search(n)]
    lproj_files = collections.defaultdict(list)  # parent folder -> [(locale, path)]
    interfaces = collections.defaultdict(list)  # parent folder -> [path of an .xib, .storyboard or .nib in an .lproj]
    chosen = []
    for name in names:
        parts = name.split("/")
        if name.endswith(".xcstrings"):
            try:
                data = json.loads(git(repo_dir, "show", f"{commit}:{name}", binary=True).decode("utf-8"))
            except (subprocess.CalledProcessError, ValueError):
                continue
            locales = {locale for entry in data.get("strings", {}).values() for locale in entry.get("localizations", {})}
            if locales & XCSTRINGS_TAIWAN:
                chosen.append(name)
        elif name.endswith((".strings", ".stringsdict")) and len(parts) >= 2:
            locale = folder_locale(parts[-2])
            if locale in TAIWAN | SIMPLIFIED | BASES:
                lproj_files["/".join(parts[:-2])].append((locale, name))
        elif name.endswith((".xib", ".storyboard", ".nib")) and len(parts) >= 2 and folder_locale(parts[-2]):
            interfaces["/".join(parts[:-2])].append(name)
    for parent, files in lproj_files.items():
        if any(locale in TAIWAN for locale, _ in files):
            chosen += [name for _, name in files]
            # A Chinese locale that localizes a table's interface file itself (zh_CN.lproj/MainMenu.xib
            # beside the base's MainMenu.strings): the audit reads that the file is there.
            tables = {os.path.splitext(os.path.basename(name))[0].lower() for locale, name in files if locale in BASES}
            for name in interfaces.get(parent, []):
                locale = folder_locale(name.split("/")[-2])
                if locale in TAIWAN | SIMPLIFIED and os.path.splitext(os.path.basename(name))[0].lower() in tables:
                    chosen.append(name)
    return sorted(chosen)


def discover(args):
    repo_dir = args.mirror or mirror_of(args.repo)
    if not repo_dir:
        sys.exit(f"no mirror of {args.repo} under {MIRRORS}: fetch it first, or pass --mirror")
    commit = git(repo_dir, "rev-parse", "HEAD").strip()
    entry = {"repo": args.repo, "commit": commit, "date": git(repo_dir, "log", "-1", "--format=%cs", commit).strip(),
             "licence": args.licence or "?", "half": args.half or "?", "paths": catalog_paths(repo_dir, commit)}
    interfaces = interface_paths(repo_dir, commit, entry["paths"])
    if interfaces:
        entry["interfaces"] = interfaces
    print(json.dumps(entry, ensure_ascii=False, indent=2))


def interface_paths(repo_dir, commit, paths):
    """The base's storyboards and xibs (`Base.lproj/Main.storyboard`) of tables the catalog files hold
    (`zh-Hans.lproj/Main.strings`): the audit reads their object ids, as it does in an app's tree."""
    tables = {(os.path.dirname(os.path.dirname(p)), os.path.splitext(os.path.basename(p))[0].lower()) for p in paths}
    result = []
    for path in git(repo_dir, "ls-tree", "-r", "--name-only", commit).splitlines():
        folder = os.path.basename(os.path.dirname(path))
        name, extension = os.path.splitext(os.path.basename(path))
        if folder in ("Base.lproj", "en.lproj") and extension in (".storyboard", ".xib") \
                and (os.path.dirname(os.path.dirname(path)), name.lower()) in tables:
            result.append(path)
    return sorted(result)


# --- fetch ------------------------------------------------------------------------------------------------

def fetch(args):
    for app in apps(args.half, args.only):
        target = app_dir(app)
        stamp = os.path.join(target, ".commit")
        if os.path.exists(stamp) and open(stamp).read().strip() == app["commit"]:
            continue
        repo_dir = mirror_of(app["repo"])
        temporary = None
        if repo_dir is None:
            temporary = tempfile.mkdtemp()
            repo_dir = os.path.join(temporary, "repo")
            subprocess.run(["git", "clone", "--quiet", "--bare", "--filter=blob:none",
                            f"https://github.com/{app['repo']}.git", repo_dir], check=True)
        for path in app["paths"] + app.get("interfaces", []):
            data = git(repo_dir, "show", f"{app['commit']}:{path}", binary=True)
            destination = os.path.join(target, path)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with open(destination, "wb") as file:
                file.write(data)
        with open(stamp, "w") as file:
            file.write(app["commit"] + "\n")
        if temporary:
            subprocess.run(["rm", "-rf", temporary], check=True)
        print(f"{app['repo']}: {len(app['paths']) + len(app.get('interfaces', []))} files", file=sys.stderr)


# --- audit ------------------------------------------------------------------------------------------------

def findings_path(app):
    return os.path.join(CACHE, "findings", app["repo"].replace("/", "+") + ".json")


def audit(args):
    os.makedirs(os.path.join(CACHE, "findings"), exist_ok=True)
    totals = collections.Counter()
    for app in apps(args.half, args.only):
        folder = app_dir(app)
        run = subprocess.run([args.almanac, "audit", folder, "--base", "en", "--locales", "zh-Hans,zh-Hant",
                              "--format", "json"], capture_output=True)
        if run.returncode not in (0, 1):
            print(f"{app['repo']}: audit failed ({run.returncode}): {run.stderr.decode()[:500]}", file=sys.stderr)
            continue
        report = json.loads(run.stdout)
        for finding in report["findings"]:
            finding["file"] = os.path.relpath(finding["file"], folder) if finding.get("file") else ""
        with open(findings_path(app), "w", encoding="utf-8") as file:
            json.dump(report, file, ensure_ascii=False, indent=1)
        counts = collections.Counter(f["severity"] for f in report["findings"])
        totals.update(counts)
        print(f"{app['repo']:40} {app['half']:10} errors {counts['error']:4}  warnings {counts['warning']:4}  "
              f"notes {counts['note']:4}", file=sys.stderr)
    print(f"total: {dict(totals)}", file=sys.stderr)


# --- judging ----------------------------------------------------------------------------------------------

COLUMNS = ["id", "half", "app", "check", "severity", "file", "key", "locale", "text", "message", "verdict", "reason"]


def finding_id(app, finding):
    """Stable over reruns: the app, the check, where, and what the message says."""
    raw = "|".join([app["repo"], finding["check"], finding.get("file", ""), finding.get("key") or "",
                    finding.get("locale") or "", finding["message"]])
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:12]


def read_verdicts(path, columns):
    """A judging file's rows by id (`#` lines are comments; missing cells are empty)."""
    return read_judged_file(path, columns)


def read_judged():
    return read_verdicts(JUDGED, COLUMNS)


def one_line(text, limit=160):
    text = (text or "").replace("\t", " ").replace("\r", " ").replace("\n", "⏎")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def value_of(folder, finding):
    """The text the finding is about, and the base's, for the judge."""
    value, base = finding.get("value") or "", finding.get("base") or ""
    return value + ("  ‖ base: " + base if base else "")


def load_findings(app):
    path = findings_path(app)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as file:
        return json.load(file)["findings"]


def sample(args):
    judged = read_judged()
    rng = random.Random(args.seed)
    new_rows = []
    for half in args.half.split(","):
        by_check = collections.defaultdict(list)
        for app in apps(half):
            for finding in load_findings(app):
                if finding["severity"] == "note" and not args.notes:
                    continue
                by_check[finding["check"]].append((app, finding))
        for check, items in sorted(by_check.items()):
            items.sort(key=lambda item: finding_id(*item))
            already = [item for item in items if finding_id(*item) in judged]
            todo = [item for item in items if finding_id(*item) not in judged]
            rng.shuffle(todo)
            for app, finding in todo[:max(0, args.per_check - len(already))]:
                new_rows.append({"id": finding_id(app, finding), "half": half, "app": app["repo"], "check": check,
                                 "severity": finding["severity"], "file": finding.get("file", ""),
                                 "key": one_line(finding.get("key"), 80), "locale": finding.get("locale") or "",
                                 "text": one_line(value_of(app_dir(app), finding), 300),
                                 "message": one_line(finding["message"], 400), "verdict": "", "reason": ""})
    append_judged(JUDGED, COLUMNS, new_rows, "findings")


def precision(args):
    judged = read_judged()
    halves = args.half.split(",")
    table = collections.defaultdict(lambda: collections.Counter())
    current = {}
    for app in apps(args.half):
        for finding in load_findings(app):
            current[finding_id(app, finding)] = (app, finding)
            table[(finding["check"], finding["severity"])]["found"] += 1
    for row in judged.values():
        if row["half"] not in halves or row["verdict"] not in ("true", "false"):
            continue
        if row["id"] not in current:
            table[(row["check"], row["severity"])]["gone-" + row["verdict"]] += 1
            continue
        app, finding = current[row["id"]]
        table[(finding["check"], finding["severity"])][row["verdict"]] += 1
    print(f"{'check':28} {'severity':8} {'found':>6} {'judged':>6} {'true':>5} {'precision':>9}   gone since judged (true/false)")
    all_true = all_judged = 0
    for (check, severity), counts in sorted(table.items(), key=lambda item: (-item[1]["found"], item[0])):
        judged_here = counts["true"] + counts["false"]
        all_true += counts["true"]
        all_judged += judged_here
        share = f"{100 * counts['true'] / judged_here:.1f} %" if judged_here else "—"
        gone = f"{counts['gone-true']}/{counts['gone-false']}" if counts["gone-true"] + counts["gone-false"] else ""
        print(f"{check:28} {severity:8} {counts['found']:6} {judged_here:6} {counts['true']:5} {share:>9}   {gone}")
    if all_judged:
        print(f"{'all':28} {'':8} {'':6} {all_judged:6} {all_true:5} {100 * all_true / all_judged:8.1f} %")


# --- drafts -----------------------------------------------------------------------------------------------

STRINGS_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')
HAN = re.compile(r"[\u3400-\u9fff]")


def read_strings_file(path):
    raw = open(path, "rb").read()
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        return {}
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    return {key: value for key, value in STRINGS_PAIR.findall(text)}


def pairs_of(app):
    """(where, zh-Hans text, zh-Hant text) for every key both locales translate, from the app's files."""
    folder = app_dir(app)
    pairs = []
    tables = collections.defaultdict(dict)  # (parent, table) -> {locale-kind: path}
    for path in app["paths"]:
        full = os.path.join(folder, path)
        if path.endswith(".xcstrings"):
            with open(full, encoding="utf-8") as file:
                data = json.load(file)
            for key, entry in data.get("strings", {}).items():
                locs = entry.get("localizations", {})
                hans = next((locs[l] for l in ("zh-Hans", "zh-Hans-CN", "zh-CN", "zh") if l in locs), None)
                hant = next((locs[l] for l in ("zh-Hant", "zh-Hant-TW", "zh-TW") if l in locs), None)
                if hans and hant and "stringUnit" in hans and "stringUnit" in hant:
                    pairs.append((f"{path}:{key}", hans["stringUnit"].get("value", ""), hant["stringUnit"].get("value", "")))
        elif path.endswith(".strings"):
            parts = path.split("/")
            kind = folder_locale(parts[-2])
            kind = "hant" if kind in TAIWAN else "hans" if kind in SIMPLIFIED else None
            if kind:
                tables[("/".join(parts[:-2]), parts[-1].lower())][kind] = full
    for (parent, table), files in sorted(tables.items()):
        if "hans" in files and "hant" in files:
            hans, hant = read_strings_file(files["hans"]), read_strings_file(files["hant"])
            pairs += [(f"{parent}/{table}:{key}", hans[key], hant[key]) for key in hans if key in hant]
    unescape = lambda text: text.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
    return [(where, unescape(source), unescape(target)) for where, source, target in pairs
            if HAN.search(source) and HAN.search(target)]


def almanac_drafts(almanac, texts):
    """Almanac's drafts, through the command a user types (compare-drafts.py's, shared)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("compare_drafts", os.path.join(ROOT, "Scripts/opencc/compare-drafts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.almanac_drafts(almanac, texts)


def similarity(a, b):
    """Characters in common, as 1 - edit distance / the longer length."""
    if a == b:
        return 1.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return 1 - previous[-1] / max(len(a), len(b))


def converted_by_machine(pairs, converters):
    """Whether an app's zh-Hant looks made by OpenCC from its zh-Hans (then it measures OpenCC, not people)."""
    if not pairs:
        return False
    same = sum(any(convert(source) == target for convert in converters) for _, source, target in pairs)
    return same / len(pairs) >= 0.9


def aligned_positions(reference, text):
    """For each index of `reference`, the index of the same character in `text` where difflib aligns
    them one to one (equal runs, and replaced runs of equal length); None elsewhere."""
    import difflib
    mapping = [None] * len(reference)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, reference, text, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for offset in range(i2 - i1):
                mapping[i1 + offset] = j1 + offset
    return mapping


def decided_characters(sources, humans, systems, forms, s2t):
    """Per system, how many characters with two or more Traditional forms it wrote in the human's form,
    and how many such characters were compared (where the human and every system wrote one of the forms)."""
    counts = collections.Counter()
    judged = 0
    for index, (source, human) in enumerate(zip(sources, humans)):
        ambiguous = [i for i, c in enumerate(source) if len(forms.get(c, ())) > 1]
        if not ambiguous:
            continue
        plain = s2t(source)
        if len(plain) != len(source):
            continue
        to_human = aligned_positions(plain, human)
        to_system = {name: aligned_positions(plain, output[index]) for name, output in systems.items()}
        for i in ambiguous:
            j = to_human[i]
            if j is None or human[j] not in forms[source[i]] or any(
                    to_system[name][i] is None or systems[name][index][to_system[name][i]] not in forms[source[i]]
                    for name in systems):
                continue
            judged += 1
            for name, output in systems.items():
                counts[name] += output[index][to_system[name][i]] == human[j]
    return counts, judged


def drafts(args):
    import opencc
    s2twp, s2tw, s2t = opencc.OpenCC("s2twp"), opencc.OpenCC("s2tw"), opencc.OpenCC("s2t")
    converters = [s2twp.convert, s2tw.convert, s2t.convert]
    rows, skipped = [], []
    for app in apps(args.half, args.only):
        pairs = pairs_of(app)
        if converted_by_machine(pairs, converters):
            skipped.append(app["repo"])
            continue
        rows += [(app["repo"], *pair) for pair in pairs]
    if skipped:
        print(f"left out, zh-Hant made by OpenCC from zh-Hans (≥ 90 % identical): {', '.join(skipped)}")
    sources = [source for _, _, source, _ in rows]
    systems = {"almanac": almanac_drafts(args.almanac, sources),
               "s2twp": [s2twp.convert(text) for text in sources],
               "s2tw": [s2tw.convert(text) for text in sources]}
    per_app = collections.Counter(repo for repo, *_ in rows)
    print(f"{len(rows)} texts from {len(per_app)} apps (half {args.half})")
    for name, output in systems.items():
        exact = sum(draft == target for draft, (_, _, _, target) in zip(output, rows))
        similar = sum(similarity(draft, target) for draft, (_, _, _, target) in zip(output, rows)) / len(rows)
        print(f"  {name:8} exact {exact:5} ({100 * exact / len(rows):5.1f} %)   character similarity {100 * similar:5.1f} %")
    # Where OpenCC's phrase tables decide a character (its s2t differs from a character-by-character
    # reading with each character's first form), Almanac must not be behind s2twp.
    forms = {}
    for line in open(os.path.join(ROOT, "Scripts/opencc/STCharacters.txt"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            key, values = line.rstrip("\n").split("\t", 1)
            forms[key] = values.split(" ")
    decided = [index for index, source in enumerate(sources)
               if s2t.convert(source) != "".join(forms[c][0] if c in forms else c for c in source)]
    if decided:
        cells = "   ".join(f"{name} {sum(output[i] == rows[i][3] for i in decided)}" for name, output in systems.items())
        print(f"  where OpenCC's phrases decide a character ({len(decided)} texts), exact: {cells}")
    # The same, character by character: each Simplified character with two or more Traditional forms
    # where the human translation and every system wrote one of them (a word written otherwise,
    # 發送/傳送, is a word choice, not a character's), and whether each wrote the human's form.
    counts, judged = decided_characters(sources, [row[3] for row in rows], systems, forms, s2t.convert)
    if judged:
        cells = "   ".join(f"{name} {counts[name]} ({100 * counts[name] / judged:.1f} %)" for name in systems)
        print(f"  characters with two Traditional forms that the human text decides ({judged}), right: {cells}")
    if args.list:
        differ = [(row, a, p) for row, a, p in zip(rows, systems["almanac"], systems["s2twp"]) if a != p]
        random.Random(1).shuffle(differ)
        better = sum(a == row[3] for row, a, p in differ)
        worse = sum(p == row[3] for row, a, p in differ)
        print(f"Almanac and s2twp differ on {len(differ)}: Almanac matches the human text on {better}, s2twp on {worse}")
        for (repo, where, source, target), a, p in differ[:args.list]:
            mark = "A" if a == target else "P" if p == target else "-"
            print(f"{mark} {one_line(source, 60)}\n    human  {one_line(target, 60)}\n    almanac {one_line(a, 60)}\n    s2twp  {one_line(p, 60)}")


# --- drafts that learn the app (#68) -----------------------------------------------------------------------

def fold_drafts(almanac, pairs, folds, learn=True):
    """Each pair's zh-Hant drafted from a catalog of the app that holds every other fold's human zh-Hant (k-fold
    leave-out: the draft of a text may learn from the app's other translations, never from its own), through the
    command a user types; `learn=False` drafts with --option learn=no."""
    drafts = [None] * len(pairs)
    fold_of = [int(hashlib.sha1(where.encode()).hexdigest(), 16) % folds for where, _, _ in pairs]
    with tempfile.TemporaryDirectory() as folder:
        for fold in range(folds):
            if fold not in fold_of:
                continue
            strings = {}
            for index, (where, source, target) in enumerate(pairs):
                units = {"zh-Hans": {"stringUnit": {"state": "translated", "value": source}}}
                if fold_of[index] != fold:
                    units["zh-Hant"] = {"stringUnit": {"state": "translated", "value": target}}
                strings["k%06d" % index] = {"localizations": units}
            source_path, output = os.path.join(folder, "in.xcstrings"), os.path.join(folder, "out.xcstrings")
            with open(source_path, "w", encoding="utf-8") as file:
                json.dump({"sourceLanguage": "en", "version": "1.0", "strings": strings}, file, ensure_ascii=False)
            command = [almanac, "convert", source_path, "--to", "xcstrings", "--to-locale", "zh-Hant", "-o", output, "--force"]
            if not learn:
                command += ["--option", "learn=no"]
            run = subprocess.run(command, capture_output=True)
            if run.returncode != 0:
                raise SystemExit(f"{' '.join(command)}: {run.stderr.decode()[:500]}")
            with open(output, encoding="utf-8") as file:
                written = json.load(file)["strings"]
            for index in range(len(pairs)):
                if fold_of[index] == fold:
                    drafts[index] = written["k%06d" % index]["localizations"]["zh-Hant"]["stringUnit"]["value"]
    return drafts


def memory(args):
    """Drafts that learn the app, measured as a reviewer would: for each app, every human zh-Hant text drafted from
    a catalog holding the app's other translations (k-fold), exact match with the human text beside the same
    drafts without learning and OpenCC's s2twp; apps whose zh-Hant OpenCC made are left out."""
    import opencc
    s2twp, s2tw, s2t = opencc.OpenCC("s2twp"), opencc.OpenCC("s2tw"), opencc.OpenCC("s2t")
    converters = [s2twp.convert, s2tw.convert, s2t.convert]
    totals = collections.Counter()
    examples = []
    drafted = []   # (app, where, source, human, learned, s2twp) for the judged sample
    print(f"{'app':40} {'texts':>6} {'learned':>8} {'general':>8} {'s2twp':>8}")
    for app in apps(args.half, args.only):
        pairs = pairs_of(app)
        if not pairs or converted_by_machine(pairs, converters):
            continue
        learned = fold_drafts(args.almanac, pairs, args.folds, learn=True)
        general = fold_drafts(args.almanac, pairs, args.folds, learn=False)
        opencc_drafts = [s2twp.convert(source) for _, source, _ in pairs]
        counts = collections.Counter()
        for (where, source, target), l, g, o in zip(pairs, learned, general, opencc_drafts):
            counts["texts"] += 1
            counts["learned"] += l == target
            counts["general"] += g == target
            counts["s2twp"] += o == target
            if l != g:
                examples.append((app["repo"], source, target, g, l))
            drafted.append((app["repo"], where, source, target, l, o))
        totals.update(counts)
        share = lambda name: f"{100 * counts[name] / counts['texts']:7.1f}%"
        print(f"{app['repo']:40} {counts['texts']:6} {share('learned')} {share('general')} {share('s2twp')}")
    if totals["texts"]:
        share = lambda name: f"{100 * totals[name] / totals['texts']:7.1f}%"
        print(f"{'all':40} {totals['texts']:6} {share('learned')} {share('general')} {share('s2twp')}")
    better = sum(l == t for _, _, t, g, l in examples)
    worse = sum(g == t for _, _, t, g, l in examples)
    print(f"learning changed {len(examples)} drafts: now the human text {better}, was the human text {worse}")
    if args.sample:
        append_draft_sample(drafted, args.sample, args.seed, args.half)
    random.Random(args.seed).shuffle(examples)
    for repo, source, target, general, learned in examples[:args.list]:
        mark = "+" if learned == target else "-" if general == target else " "
        print(f"{mark} {repo}: {one_line(source, 60)}\n    human   {one_line(target, 60)}\n    general {one_line(general, 60)}\n    learned {one_line(learned, 60)}")


DRAFT_COLUMNS = ["id", "half", "app", "source", "human", "almanac", "s2twp", "almanac_verdict", "s2twp_verdict", "reason"]
DRAFTS_JUDGED = os.path.join(HERE, "drafts-judged.tsv")


def append_draft_sample(drafted, size, seed, half):
    """A seeded sample of drafts (Almanac's, learning from the app, and s2twp's of the same texts) appended to
    drafts-judged.tsv for judging: each `accept` (as it is), `edit` (one small edit: a word or a mark) or `reject`."""
    judged = read_verdicts(DRAFTS_JUDGED, DRAFT_COLUMNS)
    pool = sorted(drafted, key=lambda row: hashlib.sha1("|".join(row[:3]).encode()).hexdigest())
    random.Random(seed).shuffle(pool)
    rows = []
    for repo, where, source, human, learned, opencc_draft in pool[:size]:
        ident = hashlib.sha1("|".join([repo, where, source]).encode()).hexdigest()[:12]
        if ident in judged:
            continue
        rows.append({"id": ident, "half": half, "app": repo, "source": one_line(source, 200), "human": one_line(human, 200),
                     "almanac": one_line(learned, 200), "s2twp": one_line(opencc_draft, 200), "almanac_verdict": "", "s2twp_verdict": "",
                     "reason": ""})
    append_judged(DRAFTS_JUDGED, DRAFT_COLUMNS, rows, "drafts")


def drafts_verdicts(args):
    """The judged sample's shares: drafts accepted as they are, with one small edit, rejected; Almanac beside s2twp."""
    judged = [row for row in read_verdicts(DRAFTS_JUDGED, DRAFT_COLUMNS).values() if row["half"] in args.half.split(",")]
    for system in ("almanac", "s2twp"):
        counts = collections.Counter(row[system + "_verdict"] for row in judged)
        total = sum(counts[v] for v in ("accept", "edit", "reject"))
        if total:
            print(f"{system:8} {total} judged: accept {counts['accept']}, one small edit {counts['edit']}, reject {counts['reject']}; "
                  f"accept or one edit {100 * (counts['accept'] + counts['edit']) / total:.1f} %")


# --- audit --fix -----------------------------------------------------------------------------------------

FIX_COLUMNS = ["id", "half", "app", "check", "file", "key", "locale", "variant", "before", "after", "verdict", "reason"]
FIXES_JUDGED = os.path.join(HERE, "fixes-judged.tsv")


def read_fixes_judged():
    return read_verdicts(FIXES_JUDGED, FIX_COLUMNS)


def fixes(args):
    """`almanac audit --fix` on a copy of each app: per check, the findings before, those fixed (gone after), the
    findings new after; files that were left alone and why; every changed file's lines outside fixed values; and
    a sample of fixes appended to fixes-judged.tsv for judging."""
    import shutil
    judged = read_fixes_judged()
    before_by, fixed_by, new_by, revealed = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
    files_changed = stray_lines = 0
    left_alone = collections.Counter()
    candidates = collections.defaultdict(list)
    # Every fix is measured, those --fix applies only when named (`suggest` in --list-checks) too.
    listing = subprocess.run([args.almanac, "audit", "--list-checks", "--lang", "en"], capture_output=True, text=True).stdout
    fixable = [line.split()[0] for line in listing.splitlines() if len(line.split()) > 2 and line.split()[2] in ("fix", "suggest")]
    for app in apps(args.half, args.only):
        folder = app_dir(app)
        with tempfile.TemporaryDirectory() as work:
            copy = os.path.join(work, "app")
            shutil.copytree(folder, copy, symlinks=True)
            common = ["--base", "en", "--locales", "zh-Hans,zh-Hant", "--format", "json"]
            before = json.loads(subprocess.run([args.almanac, "audit", copy] + common, capture_output=True).stdout)
            run = subprocess.run([args.almanac, "audit", copy, "--fix=" + ",".join(fixable)] + common, capture_output=True)
            if run.returncode not in (0, 1):
                print(f"{app['repo']}: audit --fix failed ({run.returncode}): {run.stderr.decode()[:500]}", file=sys.stderr)
                continue
            after = json.loads(run.stdout)
            for line in run.stderr.decode().splitlines():
                match = re.search(r"\[(audit\.fix-[a-z-]+)\]", line)
                if match:
                    left_alone[match.group(1)] += 1
                    if args.verbose and match.group(1) != "audit.fix-no-file": print(f"  left alone: {line[:200]}", file=sys.stderr)
            def ident(finding):
                # A text holds several mainland words, each its own finding; other checks find one per text
                # (whose message may hold a count: untranslated-locale).
                return (finding["fingerprint"], finding["message"] if finding["check"] == "mainland-vocabulary" else "")
            fixable = set(args.checks.split(","))
            was = {ident(f): f for f in before["findings"] if f["severity"] != "note"}
            now = {ident(f): f for f in after["findings"] if f["severity"] != "note"}
            for key, finding in was.items():
                if finding["check"] in fixable:
                    before_by[finding["check"]] += 1
                    if key not in now: fixed_by[finding["check"]] += 1
            had_script = {(f["table"], f["key"], f["locale"], f.get("variant")) for f in before["findings"] if f["check"] == "simplified-in-hant"}
            for key, finding in now.items():
                if key not in was:
                    # A mainland word the vocabulary check did not look for while the text had Simplified characters.
                    if finding["check"] == "mainland-vocabulary" and (finding["table"], finding["key"], finding["locale"], finding.get("variant")) in had_script:
                        revealed[finding["check"]] += 1
                        continue
                    new_by[finding["check"]] += 1
                    if args.verbose: print(f"  new after: {finding['check']} {finding['key']!r} {finding['locale']}: {finding['message']}", file=sys.stderr)
            changed = {}
            for fix in after.get("fixes", []):
                changed.setdefault(fix["file"], []).append(fix)
                fix_id = hashlib.sha1("|".join([app["repo"], fix["check"], os.path.relpath(fix["file"], copy), fix["key"], fix["locale"],
                                               fix["variant"], fix.get("before") or "", fix["after"]]).encode()).hexdigest()[:12]
                candidates[fix["check"]].append((fix_id, app, os.path.relpath(fix["file"], copy), fix))
            # Lines of a changed file that differ although they hold no fixed text.
            for path, made in changed.items():
                files_changed += 1
                old = open(os.path.join(folder, os.path.relpath(path, copy)), "rb").read()
                new = open(path, "rb").read()
                stray_lines += stray(old, new, made)
        print(f"{app['repo']:40} {app['half']:10} fixes {len(after.get('fixes', [])):4}", file=sys.stderr)
    print(f"\n{'check':24} {'findings':>8} {'fixed':>6} {'share':>6}   new after")
    for check in args.checks.split(","):
        total = before_by[check]
        share = f"{100 * fixed_by[check] / total:5.1f}%" if total else "    —"
        print(f"{check:24} {total:8} {fixed_by[check]:6} {share}   {new_by[check]}")
    others = {check: count for check, count in new_by.items() if check not in args.checks.split(",")}
    print(f"new findings of other checks: {others or 'none'}; revealed (a mainland word in a text that had Simplified characters): {sum(revealed.values())}")
    print(f"files changed: {files_changed}; changed lines holding no fixed text: {stray_lines}; files left alone: {dict(left_alone) or 'none'}")
    # A sample to judge, per check, seeded: appended unjudged.
    rng = random.Random(args.seed)
    added = 0
    with open(FIXES_JUDGED, "a", encoding="utf-8") as out:
        if os.path.getsize(FIXES_JUDGED) == 0:
            out.write("# " + "\t".join(FIX_COLUMNS) + "\n")
        for check in sorted(candidates):
            pool = sorted(candidates[check], key=lambda item: item[0])
            rng.shuffle(pool)
            for fix_id, app, path, fix in pool[:args.sample]:
                if fix_id in judged: continue
                cells = [fix_id, app["half"], app["repo"], check, path, one_line(fix["key"], 80), fix["locale"], fix["variant"],
                         one_line(fix.get("before") or "∅", 200), one_line(fix["after"], 200), "", ""]
                out.write("\t".join(cells) + "\n")
                added += 1
    judged = read_fixes_judged()
    verdicts = collections.Counter((row["check"], row["verdict"]) for row in judged.values() if row["half"] in (args.half or "").split(",") or not args.half)
    print(f"sample: {added} added to {os.path.relpath(FIXES_JUDGED, ROOT)}")
    for check in sorted({check for check, _ in verdicts}):
        right, wrong = verdicts[(check, "true")], verdicts[(check, "false")]
        print(f"judged {check:24} right {right:4} wrong {wrong:3} unjudged {verdicts[(check, '')]:3}")


def stray(old, new, made):
    """Lines that differ between two versions of a file although no fixed text (before or after) is on them."""
    def text(data):
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"): return data.decode("utf-16")
        return data.decode("utf-8", "replace")
    def escapes(value):
        # As the formats write a text on its line: JSON and .strings escapes, XML's entities.
        forms = {value, json.dumps(value, ensure_ascii=False)[1:-1], value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"),
                 value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")}
        return [part for form in forms for part in form.split("\n") if part.strip()]
    texts = [form for fix in made for value in (fix.get("before") or "", fix["after"]) if value for form in escapes(value)]
    count = 0
    # GNU diff: difflib's heuristics treat a String Catalog's frequent lines as junk and report moves that are not there.
    with tempfile.TemporaryDirectory() as work:
        for name, data in (("old", old), ("new", new)):
            with open(os.path.join(work, name), "w", encoding="utf-8") as file:
                file.write(text(data))
        run = subprocess.run(["diff", "-U0", os.path.join(work, "old"), os.path.join(work, "new")], capture_output=True)
    lines = [line for line in run.stdout.decode("utf-8", "replace").splitlines() if not line.startswith(("---", "+++", "@@", "\\"))]
    # A line removed in one place and added in another (how difflib aligns an entry added among alike ones) moved nothing.
    removed = collections.Counter(line[1:] for line in lines if line.startswith("-"))
    added = collections.Counter(line[1:] for line in lines if line.startswith("+"))
    for line in lines:
        body = line[1:]
        both = removed if line.startswith("-") else added
        other = added if line.startswith("-") else removed
        if other[body] > 0:
            other[body] -= 1
            both[body] -= 1
            continue
        if not body.strip() or any(form in body for form in texts): continue
        # A drafted entry's own lines (its comment, a String Catalog's unit around the value).
        squeezed = body.replace(" ", "")
        if line.startswith("+") and ("Needs review" in body or squeezed in ("},", "}", '"stringUnit":{', '"state":"needs_review",')
                                     or squeezed.startswith(('"zh-Hant":{', '"zh_TW":{'))):
            continue
        count += 1
        print(f"  stray line: {line[:160]}", file=sys.stderr)
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("discover")
    p.add_argument("repo")
    p.add_argument("--mirror")
    p.add_argument("--licence")
    p.add_argument("--half")
    p.set_defaults(run=discover)
    p = commands.add_parser("fetch")
    p.add_argument("--half")
    p.add_argument("--only")
    p.set_defaults(run=fetch)
    p = commands.add_parser("audit")
    p.add_argument("almanac")
    p.add_argument("--half")
    p.add_argument("--only")
    p.set_defaults(run=audit)
    p = commands.add_parser("sample")
    p.add_argument("--half", required=True)
    p.add_argument("--per-check", type=int, default=40)
    p.add_argument("--notes", action="store_true")
    p.add_argument("--seed", default="almanac")
    p.set_defaults(run=sample)
    p = commands.add_parser("precision")
    p.add_argument("--half", default="measuring")
    p.set_defaults(run=precision)
    p = commands.add_parser("drafts")
    p.add_argument("almanac")
    p.add_argument("--half", default="measuring")
    p.add_argument("--only")
    p.add_argument("--list", type=int, default=0)
    p.set_defaults(run=drafts)
    p = commands.add_parser("memory")
    p.add_argument("almanac")
    p.add_argument("--half", default="tuning")
    p.add_argument("--only")
    p.add_argument("--folds", type=int, default=10)
    p.add_argument("--list", type=int, default=0)
    p.add_argument("--seed", default="almanac-memory")
    p.add_argument("--sample", type=int, default=0)
    p.set_defaults(run=memory)
    p = commands.add_parser("drafts-verdicts")
    p.add_argument("--half", default="measuring")
    p.set_defaults(run=drafts_verdicts)
    p = commands.add_parser("fixes")
    p.add_argument("almanac")
    p.add_argument("--half")
    p.add_argument("--only")
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--seed", default="almanac-fixes")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--checks", default="simplified-in-hant,traditional-in-hans,mainland-vocabulary,quote-style,halfwidth-punctuation,"
                                        "ellipsis,whitespace-mismatch,newline-mismatch,missing-key")
    p.set_defaults(run=fixes)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
