"""Screenshots of a report in headless Chromium, as a designer first sees it (issue 35).

    python bench/screenshots.py REPORT.html [--out DIR] [--size 1400x900] [--ids fig-a,fig-b]

Writes DIR/first.png (the first screen at --size) and, for each id in ``--ids``, DIR/<id>.png of the
screen scrolled to that element (a figure's id is ``fig-<name>``; a folded section is opened first).
Needs chromium and chromium-driver (Debian) and selenium.
"""
import argparse
import os
import sys


def driver(width, height):
    from selenium import webdriver

    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
              "--hide-scrollbars"):
        opts.add_argument(a)
    import shutil

    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        opts.binary_location = binary
    drv = shutil.which("chromedriver")       # the Debian driver: no download
    return webdriver.Chrome(options=opts, service=Service(drv) if drv else None)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--out", default="screenshots")
    ap.add_argument("--size", default="1400x900")
    ap.add_argument("--ids", default="")
    a = ap.parse_args(argv)
    w, h = (int(x) for x in a.size.split("x"))
    os.makedirs(a.out, exist_ok=True)
    d = driver(w, h)
    try:
        d.set_window_size(w, h)
        d.get("file://" + os.path.abspath(a.report))
        inner = d.execute_script("return [window.innerWidth, window.innerHeight]")
        if inner != [w, h]:          # the window's frame: make the page's viewport the size asked
            d.set_window_size(2 * w - inner[0], 2 * h - inner[1])
        d.save_screenshot(os.path.join(a.out, "first.png"))
        for i in filter(None, a.ids.split(",")):
            ok = d.execute_script(
                "var e=document.getElementById(arguments[0]); if(!e) return false;"
                "for(var p=e; p; p=p.parentElement){ if(p.tagName=='DETAILS') p.open=true; }"
                "e.scrollIntoView(); return true;", i)
            if not ok:
                print(f"no element {i}", file=sys.stderr)
                continue
            d.save_screenshot(os.path.join(a.out, f"{i}.png"))
    finally:
        d.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
