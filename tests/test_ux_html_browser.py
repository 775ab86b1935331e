"""`verify --format html` rendered in a real browser (Debian's headless Chromium) and its screenshot
checked by pixel: the page is not blank, the check table is there (long 1px runs of its #ccc
border), and under it the plots (the #fafafa plot area holding the red #b00020 outside-bound dots
and the grey #999 bound line).  Look-alikes: the same report with its <svg>s stripped must fail
the plot check, and a blank page every check.  PNG is decoded with zlib + numpy only."""
from __future__ import annotations

import re
import struct
import subprocess
import zlib

import numpy as np
import pytest
from conftest import require_tool
from test_ux_html import failing_saxpy_report

WINDOW = (1200, 2000)
BORDER, HEADER, PLOT_BG = (204, 204, 204), (243, 243, 243), (250, 250, 250)  # verify_html._CSS / _plot


def decode_png(data: bytes) -> np.ndarray:
    """8-bit RGB/RGBA non-interlaced PNG -> (h, w, channels) uint8, every row filter undone."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    assert head is not None
    w, h, depth, color, _, _, interlace = head
    assert depth == 8 and color in (2, 6) and interlace == 0, head
    bpp = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w * bpp + 1)
    out = np.zeros((h, w * bpp), np.int64)
    prev = np.zeros(w * bpp, np.int64)
    for y in range(h):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int64)
        if f == 0:
            row = line
        elif f == 1:  # Sub: a running sum per channel
            row = np.cumsum(line.reshape(w, bpp), axis=0).reshape(-1) % 256
        elif f == 2:  # Up
            row = (line + prev) % 256
        else:  # Average / Paeth depend on the byte just decoded: byte by byte
            r, p = line.tolist(), prev.tolist()
            for i in range(len(r)):
                a, b = (r[i - bpp] if i >= bpp else 0), p[i]
                c = p[i - bpp] if i >= bpp else 0
                if f == 3:
                    r[i] = (r[i] + (a + b) // 2) % 256
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    r[i] = (r[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) % 256
            row = np.array(r, np.int64)
        out[y], prev = row, row
    return out.astype(np.uint8).reshape(h, w, bpp)[:, :, :3]


def screenshot(html_path, png_path, tmp) -> np.ndarray:
    chromium = require_tool("chromium")
    cmd = [chromium.path, "--headless", "--no-sandbox", "--disable-gpu", "--force-device-scale-factor=1",
           f"--user-data-dir={tmp / 'chromium-profile'}", "--host-resolver-rules=MAP * ~NOTFOUND",  # no network
           f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars", f"--screenshot={png_path}",
           html_path.resolve().as_uri()]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and png_path.exists(), r.stderr[-2000:]
    img = decode_png(png_path.read_bytes())
    assert img.shape[:2] == (WINDOW[1], WINDOW[0])
    return img


def _longest_runs(mask: np.ndarray) -> np.ndarray:
    """Per row, the longest run of True."""
    best = np.zeros(mask.shape[0], np.int64)
    for y in np.flatnonzero(mask.any(axis=1)):
        edges = np.diff(np.concatenate(([0], mask[y].astype(np.int8), [0])))
        best[y] = (np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)).max()
    return best


def not_blank(img) -> bool:
    return (img < 250).any(axis=2).mean() > 0.02


def table_rows(img) -> np.ndarray:
    """Rows where a table border (1px #ccc) runs at least 600px: the check tables, not a 322px plot frame."""
    return np.flatnonzero(_longest_runs((img == BORDER).all(axis=2)) >= 600)


def has_table(img) -> bool:
    header = _longest_runs((img == HEADER).all(axis=2)) >= 600
    return len(table_rows(img)) >= 10 and header.sum() >= 10


def plot_pixels(img) -> tuple[int, int]:
    """(red outside-bound dot pixels, grey bound-line pixels) inside the plot areas below the last table row."""
    rows = table_rows(img)
    below = np.zeros(img.shape[0], bool)
    below[(rows.max() + 1) if len(rows) else 0:] = True
    bg = (img == PLOT_BG).all(axis=2) & below[:, None]
    band = bg.sum(axis=1) >= 200  # rows crossing a plot area
    cols = bg[band].sum(axis=0) >= 20  # its columns (the frame's antialiased edge has no #fafafa)
    inside = band[:, None] & cols[None, :]
    px = img.astype(np.int64)
    r, g, b = px[:, :, 0], px[:, :, 1], px[:, :, 2]
    red = (r > 140) & (g < 50) & (b > 10) & (b < 70)
    grey = (abs(r - g) <= 2) & (abs(g - b) <= 2) & (r >= 120) & (r <= 215)
    return int((red & inside).sum()), int((grey & inside).sum())


def has_plot(img) -> bool:
    red, grey = plot_pixels(img)
    return red >= 50 and grey >= 50


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return failing_saxpy_report(tmp_path_factory.mktemp("report"))


def test_report_screenshot_shows_table_and_plot(report, tmp_path):
    page = tmp_path / "verify.html"
    page.write_text(report)
    img = screenshot(page, tmp_path / "verify.png", tmp_path)
    assert not_blank(img)
    assert has_table(img), table_rows(img)
    red, grey = plot_pixels(img)
    assert red >= 50 and grey >= 50, (red, grey)


def test_screenshot_checks_fail_without_plot_or_content(report, tmp_path):
    stripped = tmp_path / "noplot.html"
    stripped.write_text(re.sub(r"<svg\b.*?</svg>", "", report, flags=re.S))
    img = screenshot(stripped, tmp_path / "noplot.png", tmp_path)
    assert not_blank(img) and has_table(img)  # the same page, tables and all...
    assert not has_plot(img), plot_pixels(img)  # ...but no plot
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html>\n<html><body></body></html>\n")
    img = screenshot(blank, tmp_path / "blank.png", tmp_path)
    assert not not_blank(img) and not has_table(img) and not has_plot(img)

