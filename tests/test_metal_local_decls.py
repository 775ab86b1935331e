"""The Metal translator finds a function's local declarations with one walk of its body, not one walk
per question (issue 15): its address-space passes ask `_local_decl` about every call of a name that is
not a helper (`sinf(x)`: a functor `F sinf;`?) and every identifier they place, so a walk per question
made a translation quadratic in a function's size (heldout48's fractal_renderer.cu: 35 CPU-s on main,
most of it `_local_decl`'s walks).  Counted, never timed: the nodes `walk` yields in spaces.py grow
linearly with the body."""
from __future__ import annotations

from kernelport.backends.metal import spaces
from kernelport.source import SourceFile, walk
from kernelport.translate import translate


def _helper(n: int) -> str:
    lines = ["__device__ float mix(float x) {", "    float a0 = x;"]
    lines += [f"    float a{i} = sinf(a{i - 1}) + cosf(x);" for i in range(1, n)]
    lines += [f"    return a{n - 1};", "}",
              "__global__ void k(float* out) { out[threadIdx.x] = mix(out[threadIdx.x]); }", ""]
    return "\n".join(lines)


def _walked(monkeypatch, text: str) -> tuple[int, str]:
    count = [0]

    def counted(node, descend=None):
        for n in walk(node, descend):
            count[0] += 1
            yield n
    monkeypatch.setattr(spaces, "walk", counted)
    port, out = translate(SourceFile.from_text(text, "w.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    return count[0], out


def test_local_declarations_cost_one_walk_per_body(monkeypatch):
    small, _ = _walked(monkeypatch, _helper(20))
    large, out = _walked(monkeypatch, _helper(80))
    # 4x the statements: about 4x the nodes walked (a walk per call, as on main, gives ~16x)
    assert large < 6 * small, (small, large)
    assert "return a79;" in out, out


def test_what_the_declarations_answer_is_unchanged(monkeypatch):
    # the look-alike: a local functor's call (its operator() gets the caller's spaces) and a local
    # pointer into threadgroup memory (a helper's overload for it), each found by its declaration
    text = (
        "struct Twice { __device__ float operator()(const float* v) const { return 2.f * v[0]; } };\n"
        "__device__ float first(const float* q) { return q[0]; }\n"
        "__global__ void k(float* out) {\n"
        "    __shared__ float s[32];\n"
        "    s[threadIdx.x] = out[threadIdx.x];\n"
        "    const float* t = s;\n"
        "    Twice twice;\n"
        "    out[threadIdx.x] = twice(out) + first(t) + first(out);\n"
        "}\n")
    _, out = _walked(monkeypatch, text)
    assert "float first(const threadgroup float* q)" in out and "float first(const device float* q)" in out, out
    assert "const threadgroup float* t = s;" in out, out
    assert "operator()(const device float* v) const" in out, out
