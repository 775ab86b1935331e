"""Port lines paired with source lines from the rewrites that made the port (portlines).

The pairing used to come from a line diff (difflib, quadratic on repetitive code).  From the
edits it is linear, and it is the diff's pairing wherever the diff is not guessing: the same on
every example and on generated files; on real code the edits also pair a renamed include with
the include it renames (the diff paired it with the line above, which the port dropped).
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from kernelport import backends
from kernelport.errors import KernelportError
from kernelport.portlines import diff_lines, line_starts, source_lines
from kernelport.project_ports import expand
from kernelport.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent


def _port(src: SourceFile, backend: str):
    t = backends.get(backend).translator()(src, backend, True)
    port = t.run()
    return t, port


def _both(src: SourceFile, backend: str) -> tuple[list[int], list[int]]:
    t, port = _port(src, backend)
    return source_lines(t.src.text, port.body, t.rw), diff_lines(t.src.text, port.body)


def _examples() -> list[Path]:
    return sorted((ROOT / "examples").glob("*.cu"))


@pytest.mark.parametrize("backend", ["hip", "metal"])
@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_the_edits_pair_the_examples_lines_as_the_diff_did(path, backend):
    edits, diff = _both(SourceFile.read(path), backend)
    assert edits == diff


def test_the_edits_pair_a_generated_file_as_the_diff_did(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_lint", ROOT / "bench/bench_lint.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.generate(tmp_path, 600, 1)
    src = SourceFile.read(next(tmp_path.iterdir()))
    edits, diff = _both(src, "hip")
    assert edits == diff and len(edits) > 500


def test_a_renamed_include_pairs_with_the_include_it_renames():
    text = "#include <cuda_runtime.h>\n#include <cufft.h>\n__global__ void k(float *a) { a[0] = 1; }\n"
    t, port = _port(SourceFile.from_text(text, "k.cu"), "hip")
    lines = port.body.splitlines()
    j = next(j for j, line in enumerate(lines) if "hipfft" in line)
    assert source_lines(t.src.text, port.body, t.rw)[j] == 2  # from `#include <cufft.h>`
    assert diff_lines(t.src.text, port.body)[j] == 1  # the diff paired it with the dropped include


def _tagged(text: str) -> str:
    """Each line of `text` with a comment naming its line (not where a backslash continues it)."""
    return "\n".join(line if line.endswith("\\") or not line.strip() else f"{line} // kp-line {n}"
                     for n, line in enumerate(text.split("\n"), 1))


def test_real_code_lines_pair_with_the_line_their_tag_names():
    """Every line of a sample of tests/realcorpus tagged with its number, ported to HIP: a port
    line that carries one tag pairs with that line (the edits leave tags in place)."""
    tag = re.compile(r"// kp-line (\d+)$")
    files = expand([ROOT / "tests/realcorpus"])[::6]
    checked, wrong = 0, []
    for f in files:
        src = SourceFile.from_text(_tagged(f.read_text(encoding="utf-8", errors="replace")), str(f))
        try:
            src.check_syntax()
        except KernelportError:
            continue  # bad input: no port
        t, port = _port(src, "hip")
        lines = source_lines(t.src.text, port.body, t.rw)
        for j, line in enumerate(port.body.splitlines()):
            m = tag.search(line)
            if m is not None and line.count("kp-line") == 1:
                checked += 1
                if lines[j] != int(m.group(1)):
                    wrong.append((f.name, j + 1, line))
    assert checked > 5000 and not wrong


@pytest.mark.parametrize("text", [
    "// \u00e9t\u00e9 \u2014 caf\u00e9\nint lane = threadIdx.x % 32;\n// \u00fc\nint w = warpSize;\n",
    "int a;\r\nint lane = threadIdx.x % 32;\r\n\r\nint w = warpSize;\r\n",
    "int a;\x0cint lane = threadIdx.x % 32;\nint w = warpSize;",
    "",
])
def test_characters_and_line_breaks_count_as_splitlines_counts_them(text):
    t, port = _port(SourceFile.from_text(text, "k.cu"), "hip")
    assert len(line_starts(port.body)) == len(port.body.splitlines())
    assert source_lines(t.src.text, port.body, t.rw) == diff_lines(t.src.text, port.body)


def test_a_body_the_rewriter_did_not_make_is_paired_by_the_diff():
    t, port = _port(SourceFile.from_text("int a;\nint b;\n", "k.cu"), "hip")
    body = "int a;\nadded\nmore\nint b;\n"
    assert source_lines(t.src.text, body, t.rw) == diff_lines(t.src.text, body) == [1, 2, 2, 2]
