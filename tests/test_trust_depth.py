"""Deep nesting (issue 16): past depth.MAX_DEPTH levels every command gives one located "too
deeply nested" diagnostic (exit 2; lint: a KP001 finding, and the run goes on), and at exactly
the bound every command really works (the analyses recurse, on a big stack)."""
from __future__ import annotations

import re

import pytest

from kernelport import depth
from kernelport.source import SourceFile
from trust_support import kp_inproc

HEAD = ("// @kp kernel k\n// @kp grid 1\n// @kp block 32\n// @kp why one warp\n"
        "// @kp arg x inout float[32] uniform(0, 1)\n// @kp reference k_ref(x)\n")
TAIL = "void k_ref(float* x) { x[0] = 1; }\n"


def body(kind: str, n: int) -> str:
    return {"parens": "x[0] = " + "(" * n + "1" + ")" * n + ";",
            "ifs": "if (x[0] > 0) " * n + "x[0] = 1;",
            "braces": "{" * n + "x[0] = 1;" + "}" * n,
            "flat": "x[0] = " + " + ".join(["1"] * n) + " - " + str(n - 1) + ";"}[kind]


def source(kind: str, n: int) -> str:
    return HEAD + f"__global__ void k(float* x) {{ {body(kind, n)} }}\n" + TAIL


def tree_depth(text: str) -> int:
    hit = depth.too_deep(SourceFile.from_text(text).tree, 0)
    return hit[0] if hit else 0


def at_bound(kind: str) -> str:
    """The source of this construct whose syntax tree is exactly MAX_DEPTH levels deep."""
    extra = tree_depth(source(kind, 10)) - 10  # levels the kernel around the construct adds
    text = source(kind, depth.MAX_DEPTH - extra)
    assert tree_depth(text) == depth.MAX_DEPTH
    return text


KINDS = ["parens", "ifs", "braces", "flat"]


@pytest.mark.parametrize("kind", KINDS)
def test_measure_is_iterative_and_locates_where_the_bound_is_crossed(kind):
    text = source(kind, 100_000)
    src = SourceFile.from_text(text, "deep.cu")
    err = src.nesting_error()
    assert err is not None and f"kernelport supports {depth.MAX_DEPTH}" in err.message
    assert int(re.search(r"\((\d+) levels", err.message).group(1)) > 100_000
    assert err.location.line == text.count("\n", 0, text.index("__global__")) + 1  # the kernel's line
    # the look-alike: the same construct at exactly the bound is not an error
    assert SourceFile.from_text(at_bound(kind)).nesting_error() is None
    over = source(kind, depth.MAX_DEPTH)  # a little past it (the kernel adds levels) is
    assert SourceFile.from_text(over).nesting_error() is not None


@pytest.mark.parametrize("n", [10_000, 100_000])
@pytest.mark.parametrize("kind", KINDS)
def test_past_the_bound_every_command_gives_a_located_diagnostic(tmp_path, kind, n):
    f = tmp_path / "deep.cu"
    f.write_text(source(kind, 2 * n if kind == "flat" else n))  # 20k and the 200k-term flat expression
    line = re.escape(f"{f}:7:")
    for args in (("translate", f, "--to", "hip,metal,portable", "--stdout"), ("verify", f, "--no-cache")):
        rc, out, err = kp_inproc(*args)
        text = out + err
        assert rc == 2 and "internal error" not in text, (args[0], text[-1500:])
        assert re.search(line + r"\d+: error: too deeply nested \(\d+ levels; kernelport supports 1000\)", text)
    ok = tmp_path / "ok.cu"  # lint reports the file and goes on with the next one
    ok.write_text(source(kind, 3))
    rc, out, err = kp_inproc("lint", f, ok, "--format", "concise", "-j", "1")
    assert rc == 2 and "internal error" not in out + err, (out + err)[-1500:]
    assert re.search(line + r"\d+: KP001 too deeply nested", out)
    assert "ok.cu" not in out  # linted, and clean


@pytest.mark.parametrize("kind", KINDS)
def test_at_the_bound_lint_and_translate_work(tmp_path, kind):
    f = tmp_path / "deep.cu"
    f.write_text(at_bound(kind))
    rc, out, err = kp_inproc("lint", f, "--format", "concise", "-j", "1")
    assert rc in (0, 1) and "KP001" not in out and "KP006" not in out and "internal" not in err, (out + err)[-1500:]
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "--stdout")
    assert rc == 0 and "__global__ void k(" in out, (out + err)[-1500:]
    # The Metal port is translated too; where brackets nest deeper than clang's 256 (the checker's
    # clang, and Apple's Metal compiler is clang) its own type check stops it at the source line.
    rc, out, err = kp_inproc("translate", f, "--to", "metal", "--stdout")
    if kind in ("parens", "braces"):
        assert rc == 1 and "internal" not in err, (out + err)[-1500:]
        assert re.search(re.escape(f"{f}:") + r"\d+:\d+: error: KP224 .*nesting level exceeded", err), err[-1500:]
    else:
        assert rc == 0 and "kernel void k(" in out, (out + err)[-1500:]


def test_at_the_bound_verify_runs_the_emulator(tmp_path):
    f = tmp_path / "deep.cu"
    f.write_text(at_bound("ifs"))  # x[0] > 0 holds for uniform(0, 1) inputs: every if is taken
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--schedules", "block", "--format", "json")
    import json
    rows = json.loads(out)
    numeric = [c for fr in rows for c in fr["checks"] if c["kind"] == "numeric"]
    assert numeric and all(c["status"] == "pass" for c in numeric), (out + err)[-2000:]


def test_big_stack_returns_and_raises_like_a_call():
    assert depth.on_big_stack(lambda a, b=0: a + b, 1, b=2) == 3
    with pytest.raises(ZeroDivisionError):
        depth.on_big_stack(lambda: 1 // 0)

    def recurse(n):
        return 0 if n == 0 else 1 + recurse(n - 1)
    assert depth.on_big_stack(recurse, depth.MAX_DEPTH * 20) == depth.MAX_DEPTH * 20


def test_at_the_bound_lint_from_stdin_works(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "kernelport", "lint", "-", "--stdin-filename", "k.cu", "--format",
                        "concise"], input=at_bound("ifs"), capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode in (0, 1) and "KP001" not in r.stdout and "internal" not in r.stderr, r.stdout + r.stderr


def test_no_macro_repair_on_a_file_nested_past_the_bound(monkeypatch):
    """A too-deep file with a parse error elsewhere (a fuzz reproducer: 10,000 nested ifs in a
    real file) is refused for its nesting; the macro repair, whose cost grows with the error's
    line, is not tried on it (it took 90 s before the KP001)."""
    from kernelport import macro_repair
    calls = []
    monkeypatch.setattr(macro_repair, "repair", lambda *a: calls.append(a) or (a[1], a[2], ()))
    broken = "void f( { }\n"  # a parse error outside the deep kernel
    deep = SourceFile.from_text(broken + source("ifs", 10_000), "deep.cu")
    assert calls == [] and deep.nesting_error() is not None
    SourceFile.from_text(broken + source("ifs", 10), "shallow.cu")  # the look-alike: repaired
    assert len(calls) == 1


def test_macro_repair_tries_a_bounded_window_on_one_long_line(monkeypatch):
    """The candidates at one error are the nearest tokens, at most _MAX_WINDOW_TOKENS of them
    per role, however long the error's line is (one 140k-character line cost minutes)."""
    from kernelport import macro_repair
    seen = []
    real = macro_repair.Repair._shape
    monkeypatch.setattr(macro_repair.Repair, "_shape", lambda self, i, kind: seen.append(i) or real(self, i, kind))
    stmts = " ".join(f"x[{i % 7}] = f{i}(x);" for i in range(5000))
    text = f"__global__ void k(float* x) {{ {stmts} MYMACRO(x) y = 1; {stmts} }}\n"
    src = SourceFile.from_text(text, "long.cu")
    assert seen and len(set(seen)) <= 2 * macro_repair._MAX_WINDOW_TOKENS
    # the bound still reaches the macro in the way: it is masked and the parse is whole
    assert [text[m.start:m.end] for m in src.masks] == ["MYMACRO(x)"] and not src.root.has_error
