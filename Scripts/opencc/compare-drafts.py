#!/usr/bin/env python3
"""Measure zh-Hant drafts: Almanac's `convert --to-locale zh-Hant` beside OpenCC's s2twp, in one run.

    python3 Scripts/opencc/compare-drafts.py [path/to/almanac]

Two measures:
  1. the regression set Tests/AlmanacCatalogsTests/Fixtures/Drafts/zh-Hans-to-Taiwan.tsv (source,
     expected, where the case comes from): how many drafts equal the expected text;
  2. the reviewed translations in Locales/ and Examples/StudyKit: each zh-Hans text drafted and
     compared with the zh-Hant text a person wrote for the same key (a draft is a starting point, so
     this counts how often it needs no edit at all).
OpenCC comes from PyPI (`pip install opencc`). Exits 1 when Almanac is wrong on a case of the set.
"""
import glob, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SET = os.path.join(ROOT, "Tests/AlmanacCatalogsTests/Fixtures/Drafts/zh-Hans-to-Taiwan.tsv")
STRINGS = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)";', re.M)
HAN = re.compile(r"[\u4e00-\u9fff]")


def almanac_drafts(almanac, texts):
    """Draft every text through the command a user types, in one process."""
    catalog = {"sourceLanguage": "zh-Hans", "version": "1.0", "strings": {
        "k%06d" % i: {"localizations": {"zh-Hans": {"stringUnit": {"state": "translated", "value": text}}}}
        for i, text in enumerate(texts)}}
    with tempfile.TemporaryDirectory() as folder:
        source, output = os.path.join(folder, "in.xcstrings"), os.path.join(folder, "out.xcstrings")
        with open(source, "w", encoding="utf-8") as file:
            json.dump(catalog, file, ensure_ascii=False)
        subprocess.run([almanac, "convert", source, "--to", "xcstrings", "--to-locale", "zh-Hant", "-o", output],
                       check=True, capture_output=True)
        with open(output, encoding="utf-8") as file:
            strings = json.load(file)["strings"]
    return [strings["k%06d" % i]["localizations"]["zh-Hant"]["stringUnit"]["value"] for i in range(len(texts))]


def reviewed_pairs():
    pairs = []
    for hans in sorted(glob.glob(os.path.join(ROOT, "Locales/*/zh-Hans.lproj/*.strings"))
                       + glob.glob(os.path.join(ROOT, "Examples/StudyKit/Sources/StudyKit/Resources/zh-Hans.lproj/*.strings"))):
        hant = hans.replace("zh-Hans.lproj", "zh-Hant.lproj")
        if not os.path.exists(hant):
            continue
        source = dict(STRINGS.findall(open(hans, encoding="utf-8").read()))
        target = dict(STRINGS.findall(open(hant, encoding="utf-8").read()))
        pairs += [(source[key], target[key]) for key in source if key in target and HAN.search(source[key])]
    return pairs


def main():
    import opencc
    almanac = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/almanac")
    s2twp = opencc.OpenCC("s2twp")
    cases = [line.rstrip("\n").split("\t") for line in open(SET, encoding="utf-8")
             if line.strip() and not line.startswith("#")]
    drafts = almanac_drafts(almanac, [source for source, _, _ in cases])
    wrong = 0
    opencc_right = 0
    for (source, expected, origin), draft in zip(cases, drafts):
        theirs = s2twp.convert(source)
        opencc_right += theirs == expected
        if draft != expected:
            wrong += 1
            print("almanac wrong: %s → %s, expected %s (%s)" % (source, draft, expected, origin))
    print("regression set: %d cases; Almanac right on %d, OpenCC s2twp %s on %d"
          % (len(cases), len(cases) - wrong, opencc.__version__ if hasattr(opencc, "__version__") else "", opencc_right))
    pairs = reviewed_pairs()
    drafts = almanac_drafts(almanac, [source for source, _ in pairs])
    ours = sum(draft == reviewed for draft, (_, reviewed) in zip(drafts, pairs))
    theirs = sum(s2twp.convert(source) == reviewed for source, reviewed in pairs)
    print("reviewed translations: %d texts; a draft needs no edit: Almanac %d, OpenCC s2twp %d" % (len(pairs), ours, theirs))
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
