"""Snapshots of every output format, and SARIF validated against the official 2.1.0 schema."""
from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

from kernelport.lint.engine import lint_text
from kernelport.lint.formats import render, sarif, statistics, summary

CODE = ("__global__ void k(float* x) {\n"
        "    int lane = threadIdx.x % 32;\n"
        "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + (lane == 0);\n"
        "}\n")
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def findings():
    return lint_text(CODE, "k.cu", targets=["hip-cdna"])


def out(fmt, findings):
    s = io.StringIO()
    render(fmt, findings, {"k.cu": CODE}, s, color=False)
    return s.getvalue()


def test_concise(findings):
    assert out("concise", findings).splitlines() == [
        # short: what and where; the hardware explanation is in --format full and `kernelport rule`
        "k.cu:2:30: WS002 `threadIdx.x % 32` computes a lane index from a hardcoded 32 (it feeds a leader or lane "
        "test in warp-level code); use `warpSize` (`% warpSize`, `& (warpSize - 1)`)",
        "k.cu:3:39: WS007 32-bit full mask `0xffffffff` passed to `__shfl_down_sync`; in the HIP port use "
        "the mask-less `__shfl_down` (as `kernelport translate` does)",
    ]


def test_full_has_excerpt_carets_fix_and_help(findings):
    """Re-pinned in stop 49: `k` is launched nowhere in the run, so the explanation says where its block would
    come from (kernelport/lint/unseen_launches.py); the concise line above keeps what and where only."""
    text = out("full", findings[:1])
    assert text.splitlines()[1:7] == [
        "  |",
        "2 |     int lane = threadIdx.x % 32;",
        "  |                              ^^",
        "  = why: on AMD CDNA (gfx9, MI100-MI300: 64-wide waves), lanes 32-63 alias lanes 0-31 (`k` is launched in "
        "no file of this run, its block taken as whole 64-lane waves: a block of at most 32 threads (or rows of 32) "
        "would keep these 32 lanes, so lint the file that launches it with this one or state the bound with "
        "`__launch_bounds__(32)`)",
        "  = fix: replace `32` with `warpSize` (kernelport lint --fix)",
        "  = help: kernelport rule WS002",
    ]
    assert text.startswith("k.cu:2:30: error WS002 [lane-index-from-32] `threadIdx.x % 32` computes")
    assert "\x1b[" not in text


def test_github(findings):
    lines = out("github", findings).splitlines()
    assert lines[0].startswith("::error file=k.cu,line=2,col=30,endLine=2,endColumn=32,"
                               "title=WS002 lane-index-from-32::WS002 `threadIdx.x %25 32` computes")
    assert lines[1].startswith("::warning file=k.cu,line=3,col=39,endLine=3,endColumn=49,title=WS007 full-mask-32-bit::")
    info = lint_text(CODE, "a,b:c.cu", targets=["metal", "cuda"], select=["WS007"])
    assert out("github", info).startswith("::notice file=a%2Cb%3Ac.cu,line=3,col=39,")


def test_json_contract(findings):
    data = json.loads(out("json", findings))
    assert data[0] == {
        "path": "k.cu", "line": 2, "column": 30, "end_line": 2, "end_column": 32, "code": "WS002",
        "name": "lane-index-from-32", "severity": "error", "message": data[0]["message"],
        "fix": {"applicability": "safe", "message": "replace `32` with `warpSize`",
                "edits": [{"line": 2, "column": 30, "end_line": 2, "end_column": 32, "content": "warpSize"}]},
        "related": [],
    }
    assert data[1]["code"] == "WS007" and data[1]["severity"] == "warning" and data[1]["fix"] is None


def test_sarif_is_valid_2_1_0_with_stable_rule_ids(findings):
    log = sarif(findings)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert ids == sorted(ids) and "WS002" in ids and "SY001" in ids
    for r in rules:
        assert r["help"]["text"] and r["shortDescription"]["text"] and r["defaultConfiguration"]["level"]
    res = run["results"][0]
    assert res["ruleId"] == "WS002" and ids[res["ruleIndex"]] == "WS002" and res["level"] == "error"
    assert res["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "k.cu", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 2, "startColumn": 30, "endLine": 2, "endColumn": 32}}
    assert res["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"] == {"text": "warpSize"}
    assert run["results"][1]["level"] == "warning"


def test_sarif_with_related_locations_and_no_results_is_valid():
    code = "#define WARP_SIZE 32\n__global__ void k(float* x) { x[threadIdx.x % WARP_SIZE] = __shfl_sync(0xffffffff, x[0], 0); }\n"
    schema = json.loads(SCHEMA.read_text())
    log = sarif(lint_text(code, "/abs/path/w.cu"))
    jsonschema.validate(log, schema)
    ws001 = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "WS001")
    assert ws001["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert ws001["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "file:///abs/path/w.cu"}
    jsonschema.validate(sarif([]), schema)
    with pytest.raises(jsonschema.ValidationError):  # the schema really is checked
        bad = sarif(lint_text(CODE, "k.cu"))
        bad["runs"][0]["results"][0]["level"] = "fatal"
        jsonschema.validate(bad, schema)


def test_statistics_and_summary(findings):
    s = io.StringIO()
    statistics(findings + findings[:1], s)
    assert s.getvalue() == "    2\tWS002\t[*] lane-index-from-32\n    1\tWS007\t    full-mask-32-bit\n"
    assert summary(findings, 1) == ("Found 2 findings in 1 file: 1 error, 1 warning; 1 fixable with "
                                    "`kernelport lint --fix`.")
    assert summary([], 3) == "All checks passed (3 files)."


def _through_rich(findings, texts) -> str:
    """The full format as rich prints it uncoloured (what kernelport printed before its plain path)."""
    from rich.console import Console

    from kernelport.lint.formats import full
    s = io.StringIO()
    console = Console(file=s, highlight=False, soft_wrap=True, emoji=False, force_terminal=False, no_color=True,
                      width=200)
    for f in findings:
        full(console, f, texts.get(f.path))
    return s.getvalue()


WIDE = ("// 漢字のコメント, ünïcode\n"
        "__global__ void k(float* x) {\n"
        "    float v = x[threadIdx.x]; float " + "a" * 150 + " = 0; float b" + "c" * 150 + " = 1; "
        "v += __shfl_down_sync(0xffffffff, v, 16); /* " + "漢字" * 60 + " */\n"
        "    if (threadIdx.x % 32 == 0) x[threadIdx.x / 32] = v;\n"
        "}\n")


@pytest.mark.parametrize("code", [CODE, WIDE])
def test_the_uncoloured_full_format_is_rich_s_without_rich(code):
    """A pipe (a pre-commit hook, CI) gets the full format written without importing rich: the same
    bytes rich printed, long lines and wide characters included."""
    from kernelport.lint.formats import plain_full
    findings = lint_text(code, "k.cu", targets=["hip-cdna"])
    assert findings
    plain = plain_full(findings, {"k.cu": code})
    assert plain is not None and plain == _through_rich(findings, {"k.cu": code}) == out_text("full", findings, code)


def out_text(fmt, findings, code):
    s = io.StringIO()
    render(fmt, findings, {"k.cu": code}, s, color=False)
    return s.getvalue()


@pytest.mark.parametrize("odd", ["\t", "\x07", "\x1b[1m", "\u200b", " " * 30])
def test_a_line_rich_would_print_differently_goes_through_rich(odd):
    """A tab (rich expands it), a control or invisible character, trailing spaces on a long line (rich
    trims past its width): the plain path declines and rich prints it, as before."""
    from dataclasses import replace

    from kernelport.lint.formats import plain_full
    code = WIDE.replace(" */\n", " */" + odd + "\n")  # the end of the line the finding shows
    findings = lint_text(code, "k.cu", targets=["hip-cdna"])
    if odd == "\t":  # a source line's tabs are printed as spaces: a tab reaches the output in a message
        findings = [replace(f, message=f.message + "\tx") for f in findings]
    assert findings and plain_full(findings, {"k.cu": code}) is None
    assert out_text("full", findings, code) == _through_rich(findings, {"k.cu": code})
    assert plain_full(findings[:0], {}) == ""  # (no finding: nothing to print)
