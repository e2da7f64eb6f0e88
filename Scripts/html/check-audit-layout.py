#!/usr/bin/env python3
"""Checks, in headless Chromium, that an `almanac audit --format html` report stays readable: at a
laptop's width every locale column of the findings table is on screen (for up to five locales; more
scroll inside their box, never the page), and no cell's text runs out of its cell, long keys and
paths included. Writes a screenshot beside the report for a person to look at.

    python3 Scripts/html/check-audit-layout.py REPORT.html [--width 1280] [--screenshot OUT.png]

Exit status 0 when the layout holds, 1 with what does not, 2 when Chromium is missing. Not run by
CI (Chromium is large); the Swift test `htmlReportLayout` checks the page's structure there."""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

MEASURE = """
<script>
window.addEventListener("load", () => {
  const table = document.getElementById("findings");
  const box = table.parentElement.getBoundingClientRect();
  const headers = [...table.querySelectorAll("tr:first-of-type th")];
  const overflowing = [...table.querySelectorAll("td")].filter(td => td.scrollWidth > td.clientWidth + 1)
    .slice(0, 5).map(td => td.textContent.slice(0, 60));
  document.body.setAttribute("data-layout", JSON.stringify({
    viewport: window.innerWidth, pageWidth: document.documentElement.scrollWidth, boxRight: box.right,
    headers: headers.map(th => [th.textContent, Math.round(th.getBoundingClientRect().right)]), overflowing,
  }));
});
</script>
"""

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name): return shutil.which(name)
    return None

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    browser = chromium()
    if not browser:
        print("check-audit-layout: no Chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    page = open(args.report, encoding="utf-8").read()
    with tempfile.TemporaryDirectory() as work:
        measured = os.path.join(work, "measured.html")
        open(measured, "w", encoding="utf-8").write(page.replace("</body>", MEASURE + "</body>"))
        common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=%d,1000" % args.width]
        dom = subprocess.run(common + ["--virtual-time-budget=5000", "--dump-dom", "file://" + measured],
                             capture_output=True, text=True, timeout=120).stdout
        found = re.search(r'data-layout="([^"]*)"', dom)
        if not found:
            print("check-audit-layout: the page did not report its layout", file=sys.stderr)
            return 1
        layout = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        shot = args.screenshot or os.path.splitext(args.report)[0] + ".png"
        subprocess.run(common + ["--screenshot=" + shot, "file://" + os.path.abspath(args.report)], capture_output=True, timeout=120)
    problems = []
    locales = layout["headers"][3:]
    if layout["pageWidth"] > layout["viewport"] + 1:
        problems.append("the page scrolls sideways: %d px wide in a %d px window" % (layout["pageWidth"], layout["viewport"]))
    if len(locales) <= 5:
        for name, right in locales:
            if right > layout["viewport"]:
                problems.append("the %s column ends at %d px, past the %d px window" % (name, right, layout["viewport"]))
    for text in layout["overflowing"]:
        problems.append("a cell's text runs out of it: %r" % text)
    print(json.dumps({"width": args.width, "locales": [name for name, _ in locales], "problems": problems, "screenshot": shot}, ensure_ascii=False))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
