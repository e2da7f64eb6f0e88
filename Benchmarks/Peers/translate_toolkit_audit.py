#!/usr/bin/env python3
"""The peer for `almanac audit`: Translate Toolkit's prop2po + pofilter over .lproj catalogs.

    translate_toolkit_audit.py DIR [BASE]

Translate Toolkit 3.20 reads UTF-8 .strings as UTF-16 in both its `strings` and `strings-utf8`
personalities (mojibake), so the files are first re-encoded as UTF-16 with a byte order mark,
which it reads correctly. Prints the number of messages pofilter flags, by test.
"""
import collections, os, re, subprocess, sys, tempfile

# The tools run as modules of this Python, so a pip install outside PATH (~/.local/bin) still works.
directory = sys.argv[1]
base = sys.argv[2] if len(sys.argv) > 2 else "en"
locales = sorted(d[:-6] for d in os.listdir(directory) if d.endswith(".lproj"))
counts = collections.Counter()
with tempfile.TemporaryDirectory() as work:
    for locale in locales:
        os.makedirs(os.path.join(work, locale + ".lproj"))
        for name in os.listdir(os.path.join(directory, locale + ".lproj")):
            if name.endswith(".strings"):
                text = open(os.path.join(directory, locale + ".lproj", name), encoding="utf-8").read()
                open(os.path.join(work, locale + ".lproj", name), "w", encoding="utf-16").write(text)
    for locale in locales:
        if locale == base:
            continue
        for name in os.listdir(os.path.join(work, locale + ".lproj")):
            template = os.path.join(work, base + ".lproj", name)
            po = os.path.join(work, locale + ".po")
            out = os.path.join(work, locale + "-flagged.po")
            subprocess.run([sys.executable, "-m", "translate.convert.prop2po", "--personality=strings", "-t", template, os.path.join(work, locale + ".lproj", name), po],
                           check=True, capture_output=True)
            subprocess.run([sys.executable, "-m", "translate.filters.pofilter", po, out], check=True, capture_output=True)
            for test in re.findall(r"\(pofilter\) ([a-z]+)", open(out, encoding="utf-8").read()):
                counts[test] += 1
print("flagged %d %s" % (sum(counts.values()), " ".join("%s=%d" % kv for kv in counts.most_common(6))))
