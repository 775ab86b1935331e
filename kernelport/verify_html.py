"""`verify --format html`: one self-contained page (no script, no external file) that CI keeps as
an artifact.  Per file and kernel: every check, the first differing elements of a failure, and a
small inline SVG of |port - reference| against the bound over each output buffer."""
from __future__ import annotations

import math
from html import escape

from .verify import FileReport
from .verify_report import duration, file_summary, timing, where

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;
vertical-align:top}th{background:#f3f3f3}.pass{color:#16702a}.fail{color:#b00020;font-weight:bold}
.skip{color:#8a6d00}code{font-family:ui-monospace,monospace;font-size:.92em}
figure{display:inline-block;margin:.3em 1em .3em 0}figcaption{font-size:.85em;color:#555}
"""
W, H, PAD = 360, 140, 34


def _fmt(v) -> str:
    return escape(repr(v) if not isinstance(v, float) else f"{v:.9g}")


def _plot(name: str, prof: dict, title: str) -> str:
    """|port - reference| (blue) and the bound (grey) per bin of the buffer, on a log scale."""
    diff, bound, index = prof["diff"], prof["bound"], prof["index"]
    pos = [v for v in diff + bound if v > 0 and math.isfinite(v)]
    lo, hi = (min(pos), max(pos)) if pos else (1e-12, 1.0)
    lo, hi = math.log10(lo) - 0.5, math.log10(hi) + 0.5
    n = max(prof["n"] - 1, 1)

    def xy(i: int, v: float) -> str:
        y = lo if v <= 0 else (hi if not math.isfinite(v) else math.log10(v))
        return f"{PAD + (W - PAD - 4) * i / n:.1f},{H - PAD / 2 - (H - PAD) * (y - lo) / (hi - lo):.1f}"

    line_d = " ".join(xy(i, v) for i, v in zip(index, diff))
    line_b = " ".join(xy(i, v) for i, v in zip(index, bound))
    over = "".join(f'<circle cx="{xy(i, d).split(",")[0]}" cy="{xy(i, d).split(",")[1]}" r="2.5" fill="#b00020"/>'
                   for i, d, b in zip(index, diff, bound) if d > b)
    return (f'<figure><svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" '
            f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
            f'<rect x="{PAD}" y="{PAD / 2}" width="{W - PAD - 4}" height="{H - PAD}" fill="#fafafa" stroke="#ccc"/>'
            f'<polyline class="bound" fill="none" stroke="#999" stroke-dasharray="4 2" points="{line_b}"/>'
            f'<polyline class="diff" fill="none" stroke="#1f5fbf" points="{line_d}"/>{over}'
            f'<text x="2" y="{PAD / 2 + 8}" font-size="9">1e{hi:.0f}</text>'
            f'<text x="2" y="{H - PAD / 2}" font-size="9">1e{lo:.0f}</text>'
            f'<text x="{PAD}" y="{H - 3}" font-size="9">0</text>'
            f'<text x="{W - 40}" y="{H - 3}" font-size="9">{prof["n"] - 1}</text></svg>'
            f'<figcaption>{escape(name)}: |port − reference| (blue) and the bound (grey, dashed) over '
            f'{prof["n"]} elements, log scale; red: outside the bound</figcaption></figure>')


def _check_rows(rep: FileReport, checks) -> str:
    rows = []
    for c in checks:
        run = c.backend + (f" wave {c.wave}" if c.wave else "") + (f" ({c.target})" if c.target else "")
        rows.append(f'<tr><td>{escape(c.kind)}</td><td>{escape(run)}</td><td>{escape(c.schedule or "-")}</td>'
                    f'<td class="{c.status}">{escape(c.status)}</td><td>{escape(duration(c.seconds) + timing(c))}</td>'
                    f'<td>{escape(c.detail)}</td></tr>')
    return ("<table><tr><th>check</th><th>backend</th><th>schedule</th><th>status</th><th>time</th><th>detail</th></tr>"
            + "".join(rows) + "</table>")


def _failures(rep: FileReport, checks) -> str:
    out = []
    for c in checks:
        if c.status != "fail" or not c.explain:
            continue
        e = c.explain
        inputs = ", ".join(f"{k}={_fmt(v)}" for k, v in e.get("inputs", {}).items()) or "-"
        out.append(f"<h4>{escape(where(rep, c))}</h4><table class=\"first-difference\"><tr><th>at</th><th>inputs</th>"
                   f"<th>reference</th><th>port</th><th>|port − reference|</th><th>bound</th></tr><tr>"
                   f"<td><code>{escape(str(e['buffer']))}[{e['index']}]</code></td><td>{inputs}</td>"
                   f"<td>{_fmt(e['reference'])}</td><td>{_fmt(e['port'])}</td>"
                   f"<td>{_fmt(abs(float(e['port']) - float(e['reference'])))}</td><td>{_fmt(e['bound'])}</td>"
                   f"</tr></table>")
    return "".join(out)


def _plots(checks) -> str:
    figs = []
    for c in checks:
        if c.kind == "numeric" and c.profile:
            for buf, prof in c.profile.items():
                title = f"{c.backend} wave {c.wave} {c.schedule}: {buf}"
                figs.append(_plot(f"{c.backend} wave {c.wave}, {c.schedule}: {buf}", prof, title))
    return "".join(figs)


def html(reports: list[FileReport]) -> str:
    n_fail = sum(c.status == "fail" for r in reports for c in r.checks) + sum(bool(r.error) for r in reports)
    body = [f"<h1>kernelport verify</h1><p>{len(reports)} file(s), "
            f"{sum(len(r.checks) for r in reports)} checks, {n_fail} failed.</p>"]
    for rep in reports:
        body.append(f'<section class="file"><h2>{escape(rep.path)}</h2><p class="{"fail" if rep.failed else "pass"}">'
                    f"{escape(file_summary(rep))}</p>")
        if rep.error:
            body.append(f'<p class="fail">{escape(rep.error)}</p>')
        shared = [c for c in rep.checks if c.kernel == "*"]
        if shared:
            body.append("<h3>file checks (drift, compile, lint gate)</h3>" + _check_rows(rep, shared))
        for k in rep.kernels:
            mine = [c for c in rep.checks if c.kernel == k]
            body.append(f'<section class="kernel"><h3>kernel <code>{escape(k)}</code></h3>'
                        + _check_rows(rep, mine) + _failures(rep, mine) + _plots(mine) + "</section>")
        body.append("</section>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>kernelport verify</title>'
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
