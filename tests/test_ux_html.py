"""`verify --format html`: one self-contained page, parsed: per kernel its checks, the first
differing element of a failure, and an SVG of |port - reference| against the bound per buffer
whose points sit under the bound exactly where the check passed.  (The same page rendered
in headless Chromium, screenshot checked by pixel: test_ux_html_browser.py.)"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def failing_saxpy_report(tmp_path) -> str:
    """The HTML report of saxpy whose HIP port subtracts instead of adding: both HIP runs fail."""
    for p in (ROOT / "examples").glob("saxpy.*"):
        shutil.copy(p, tmp_path / p.name)
    hip = tmp_path / "saxpy.hip"
    hip.write_text(hip.read_text().replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] - y[i];"))
    r = subprocess.run([sys.executable, "-m", "kernelport", "verify", "saxpy.cu", "--schedules", "block",
                        "--format", "html"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    return r.stdout


def test_html_report(tmp_path):
    page = failing_saxpy_report(tmp_path)
    assert page.startswith("<!DOCTYPE html>")
    for external in ("<script", "<link", "src=", "http://", "https://"):  # self-contained
        assert external not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    root = ET.fromstring(page.split("\n", 1)[1])
    kernel = next(s for s in root.iter("section") if s.get("class") == "kernel")
    rows = [[("".join(td.itertext())) for td in tr.findall("td")] for tr in kernel.find("table").findall("tr")[1:]]
    numeric = {(r[1], r[2]): r[3] for r in rows if r[0] == "numeric"}
    assert numeric == {("cuda wave 32 (sm_80)", "block"): "pass", ("hip wave 64 (gfx90a)", "block"): "fail",
                       ("hip wave 32 (gfx1030)", "block"): "fail", ("metal wave 32 (apple)", "block"): "pass"}
    firsts = [t for t in kernel.iter("table") if t.get("class") == "first-difference"]
    assert len(firsts) == 2
    cells = ["".join(td.itertext()) for td in firsts[0].findall("tr")[1].findall("td")]
    assert cells[0].startswith("y[") and cells[1].startswith("x=")
    ref, port, diff, bound = map(float, cells[2:])
    assert abs(abs(port - ref) - diff) <= 1e-6 * max(1.0, diff) and diff > bound
    svgs = list(kernel.iter(f"{SVG}svg"))
    assert len(svgs) == 4
    for svg in svgs:
        title = svg.find(f"{SVG}title").text
        lines = {p.get("class"): [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
                 for p in svg.iter(f"{SVG}polyline")}
        assert len(lines["diff"]) == len(lines["bound"]) == 240  # 2^18 elements in 240 bins
        above = [d[1] < b[1] for d, b in zip(lines["diff"], lines["bound"])]  # SVG y grows downwards
        outside = list(svg.iter(f"{SVG}circle"))
        if title.startswith("hip"):
            assert all(above) and len(outside) == 240, title
        else:
            assert not any(above) and not outside, title
