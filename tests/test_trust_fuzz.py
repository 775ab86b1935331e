"""Fuzz: mutated examples, fixtures and corpus files through lint and translate never give an
internal error (exit 3, a traceback, a rule that failed): every failure is a located diagnostic.

Short in CI (derandomized, KP_FUZZ_EXAMPLES inputs, default 25); bench/fuzz_cli.py is the long
run.  Deep nesting (slow near the bound) is tested on its own: below and in tests/test_trust_depth.py."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from fuzz_mutations import MUTATIONS, mutate  # noqa: E402
from trust_support import kp_inproc  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/corpus/*.cu*"), *ROOT.glob("tests/corpus2/*.cu*"),
                  *ROOT.glob("tests/fixtures/lint/src/**/*.cu*")])
SHALLOW = [m for m in MUTATIONS if m != "deep_nesting"]
EXAMPLES = int(os.environ.get("KP_FUZZ_EXAMPLES", "25"))


def _check(tmp: Path, name: str, data: bytes) -> None:
    f = tmp / name
    f.write_bytes(data)
    for args in (("lint", f, "--format", "concise", "-j", "1"),
                 ("translate", f, "--to", "hip,metal", "-o", tmp / "out", "--force")):
        rc, out, err = kp_inproc(*args)
        text = out + err
        assert rc in (0, 1, 2) and "internal error" not in text and "KP006" not in text, (args[0], rc, text[-2000:])


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(source=st.sampled_from(SOURCES), seed=st.integers(0, 2 ** 32 - 1))
def test_mutated_inputs_give_located_diagnostics(tmp_path, source, seed):
    text, _ = mutate(source.read_text(encoding="utf-8"), random.Random(seed), SHALLOW)
    _check(tmp_path, source.name, text.encode("utf-8", errors="surrogateescape"))


@pytest.mark.parametrize("value", ["ceil_div(n, 0)", "ceil_div(n)", "min(n)", "1 << -1", "1e400",
                                   "1 << 100000000000", "1<<62", "2147483648", "64 // 2", "1 if 1 else 2",
                                   "normal(0,-1)", "uniform(0,1e400)", "0x1p99999"])
def test_bad_annotation_values_in_every_example(tmp_path, value):
    """Issue 16's annotation reproducers, in every annotation line of two examples."""
    import re
    for ex in ("saxpy.cu", "block_reduce.cu"):
        text = (ROOT / "examples" / ex).read_text()
        for m in re.finditer(r"^(// @kp \w+\s+)(.*)$", text, re.M):
            _check(tmp_path, ex, (text[:m.start(2)] + value + text[m.end(2):]).encode())


@pytest.mark.parametrize("kind", ["parens", "ifs", "braces"])
def test_deep_nesting_is_handled_or_diagnosed(tmp_path, kind):
    body = {"parens": "x[0] = " + "(" * 1000 + "1" + ")" * 1000 + ";",
            "ifs": "if (x[0] > 0) " * 1000 + "x[0] = 1;",
            "braces": "{" * 1000 + "x[0] = 1;" + "}" * 1000}[kind]
    _check(tmp_path, "deep.cu", f"__global__ void k(float* x) {{ {body} }}\n".encode())


def test_helper_without_device_qualifier_is_diagnosed_for_metal(tmp_path):
    """Found by bench/fuzz_cli.py (it raised KeyError in the Metal translator): the helper is host
    code now, and its call from the kernel is KP223 (tests/test_metal_realcode.py)."""
    src = next(ROOT.glob("tests/corpus*/ggml_norm.cu")).read_text()
    text = src.replace("static __device__ __forceinline__ float warp_reduce_sum", "static  __forceinline__ float "
                       "warp_reduce_sum", 1)
    assert text != src
    _check(tmp_path, "ggml_norm.cu", text.encode())
