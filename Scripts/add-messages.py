#!/usr/bin/env python3
"""Add messages to Locales/Almanac in all three languages from a JSON file:

    {"comment": {"en": ..., "zh-Hans": ..., "zh-Hant": ...},
     "messages": {"key": {"en": ..., "zh-Hans": ..., "zh-Hant": ...}}}

    python3 Scripts/add-messages.py section.json && python3 Scripts/generate-messages.py
"""
import sys, json
# usage: add_messages.py section.json  -> appends a commented section to each Almanac.strings
data = json.load(open(sys.argv[1]))
import os
root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Locales/Almanac/%s.lproj/Almanac.strings")
for lang in ("en", "zh-Hans", "zh-Hant"):
    path = root % lang
    text = open(path, encoding="utf-8").read()
    out = "\n/* %s */\n" % data["comment"][lang]
    for key, values in data["messages"].items():
        if '"%s" =' % key in text:
            continue
        value = values[lang].replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        out += '"%s" = "%s";\n' % (key, value)
    open(path, "w", encoding="utf-8").write(text.rstrip("\n") + "\n" + out)
