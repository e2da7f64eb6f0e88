#!/usr/bin/env python3
"""The peers' versions: what `.ci/run` pins beside the newest release on PyPI (and the libical
Debian would install), so that the guard compares with the peers as people install them today.
Run it when you touch the guard (Benchmarks/README.md); it needs the network and is not part of CI,
which must give the same answer whatever PyPI published since.

    python3 Benchmarks/peer-versions.py           # a table; exit 1 when a pin is behind
"""
import json, os, re, subprocess, sys, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def pins():
    """`name==version` from the `pip_packages=(…)` list of .ci/run."""
    text = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    found = re.search(r"pip_packages=\(([^)]*)\)", text)
    if not found:
        sys.exit("peer-versions: no pip_packages=(…) list in .ci/run")
    return [tuple(item.split("==", 1)) for item in found.group(1).split() if "==" in item]

def newest(name):
    """The newest release on PyPI that is not a pre-release, or None when PyPI cannot be asked."""
    try:
        with urllib.request.urlopen("https://pypi.org/pypi/%s/json" % name, timeout=30) as response:
            return json.load(response)["info"]["version"]
    except Exception as error:  # no network, or PyPI's answer changed: say so, do not guess
        print("peer-versions: %s: %s" % (name, error), file=sys.stderr)
        return None

def debian(package):
    """The candidate version apt would install (None without apt)."""
    try:
        policy = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    found = re.search(r"Candidate:\s*(\S+)", policy)
    return found.group(1) if found else None

def main():
    behind = []
    print("| peer | pinned in .ci/run | newest on PyPI |")
    print("| --- | --- | --- |")
    for name, pinned in pins():
        latest = newest(name)
        mark = "" if latest in (None, pinned) else " ← behind"
        if mark:
            behind.append(name)
        print("| %s | %s | %s%s |" % (name, pinned, latest or "(not asked)", mark))
    print("| libical (Debian, not pinned) | %s | |" % (debian("libical-dev") or "(no apt)"))
    if behind:
        print("peer-versions: pinned behind PyPI: %s — move the pins, then rerun compare.py --check --update-floors"
              % ", ".join(behind), file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
