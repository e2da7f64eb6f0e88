#!/usr/bin/env python3
"""Checks the module graph ARCHITECTURE.md describes, from `swift package describe --type json`:

- codec families (iCalendar, CSV, workbooks, catalogs, backups, Android) never depend on one
  another; they meet in the models (AlmanacCore) and the calendar engine (AlmanacCalendar);
- the zip container (AlmanacZip) reaches no library but its DEFLATE one (zlib, or ISA-L with the
  ISAL trait): no ICU, no libxml2, no Almanac module;
- the calendar engine depends on Core and the ICU bridge only;
- the StringAccessors plugin's tool and AlmanacStrings reach no system library or shim (a Mac
  builds them with nothing installed);
- no product reaches the tests' own targets (CXMLReference, libxml2's push parser that the
  hand-written XML scanner is held to).

    swift package describe --type json | python3 Scripts/check-dependencies.py
"""
import json, sys

CODECS = {"AlmanacICalendar", "AlmanacCSV", "AlmanacXLSX", "AlmanacCatalogs", "AlmanacBackups", "AlmanacAndroid"}
ZIP = ("AlmanacZip", {"CZlib", "CISAL"})
ENGINE = ("AlmanacCalendar", {"AlmanacCore", "AlmanacICU"})

description = json.load(sys.stdin)
targets = {target["name"]: target for target in description["targets"]}


def closure(name):
    seen, stack = set(), [name]
    while stack:
        for dependency in targets.get(stack.pop(), {}).get("target_dependencies", []):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


problems = []
for codec in sorted(CODECS):
    others = closure(codec) & (CODECS - {codec})
    if others:
        problems.append("%s depends on the codec module(s) %s" % (codec, ", ".join(sorted(others))))
NO_SYSTEM_LIBRARIES = ["almanac-strings-gen", "AlmanacStrings", "AlmanacBytes"]
SYSTEM = {"CICU", "CICUShim", "CLibXML2", "CXMLShim", "CXMLReference", "CISAL", "CZlib"}
# The tests' own targets, which no product may reach.
TEST_ONLY = {"CXMLReference", "AlmanacTestSupport"}

engine, allowed = ENGINE
direct = set(targets[engine].get("target_dependencies", []))
if direct - allowed:
    problems.append("%s depends on %s (only %s allowed)" % (engine, ", ".join(sorted(direct - allowed)), ", ".join(sorted(allowed))))
for name in NO_SYSTEM_LIBRARIES:
    reached = closure(name) & SYSTEM
    if reached:
        problems.append("%s reaches %s; it must build with nothing installed" % (name, ", ".join(sorted(reached))))
zip_module, zip_allowed = ZIP
if closure(zip_module) - zip_allowed:
    problems.append("%s reaches %s (only %s allowed)" % (zip_module, ", ".join(sorted(closure(zip_module) - zip_allowed)),
                                                         ", ".join(sorted(zip_allowed))))
# What the tests keep for themselves (libxml2's push parser, the reference XMLScanner is held to)
# ships in no product.
for product in description.get("products", []):
    for target in product.get("targets", []):
        if target in TEST_ONLY - {product["name"]}:
            continue
        reached = (closure(target) | {target}) & (TEST_ONLY - {product["name"]})
        if reached:
            problems.append("the product %s reaches %s, which is the tests' own" % (product["name"], ", ".join(sorted(reached))))
# The byte tools sit below everything: they depend on nothing.
if targets.get("AlmanacBytes", {}).get("target_dependencies"):
    problems.append("AlmanacBytes depends on %s; it must depend on nothing" % ", ".join(targets["AlmanacBytes"]["target_dependencies"]))
for problem in problems:
    print("check-dependencies: " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
