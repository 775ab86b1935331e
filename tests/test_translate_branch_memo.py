"""Each preprocessor conditional is judged once per translation and per lint context, not once per node
asked about inside it (issue 15: translate's per-function work).

translate asks whether a node is compiled on no AMD pass (`cuda_only_region`) or no NVIDIA pass
(`amd_only_region`) for every function, API use, macro and wave site, and lint's rules ask each
finding's platform side (`Context.side_of`); each question walked the node's enclosing `#if`s and
evaluated their tests on every pass again.  Now the answer is kept by the branches around the node
(their test nodes and sides), so a file of N functions inside the same two conditionals evaluates
those tests a fixed number of times: counted, not timed.  The ports are byte-identical
(bench/port_hashes.py over tests/realcorpus and examples, hip, metal and portable).
"""
from __future__ import annotations

import textwrap

from kernelport import guards
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

_UNIT = textwrap.dedent("""\
    __device__ float wsum_{i}(float v) {{
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        return v;
    }}
    __global__ void k_{i}(const float* x, float* out, int n) {{
        float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
        out[threadIdx.x] = wsum_{i}(v) + (float)cudaSuccess;
    }}
    """)


def _code(n: int) -> str:
    return "#ifdef __CUDACC__\n#if !defined(NO_GPU)\n" + "".join(_UNIT.format(i=i) for i in range(n)) + \
        "#endif\n#endif\n"


def _tests_evaluated(monkeypatch, work) -> int:
    count = [0]
    real = guards.holds

    def counted(*a, **k):
        count[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(guards, "holds", counted)
    work()
    monkeypatch.undo()
    return count[0]


def test_translate_judges_each_conditional_once_whatever_the_functions_inside(monkeypatch):
    def run(n):
        def work():
            port, _ = translate(SourceFile.from_text(_code(n), f"memo{n}.cu"), "hip", allow_unported=True)
            assert "__shfl_down" in port.body and "hipSuccess" in port.body  # ported, its API renamed
        return _tests_evaluated(monkeypatch, work)
    small, large = run(3), run(12)
    assert small > 0  # the conditionals were judged (else this test shows nothing)
    assert large == small, (small, large)  # main: 192 -> 768, once per node asked about


def test_lint_judges_each_conditional_once_per_context(monkeypatch):
    def run(n):
        return _tests_evaluated(monkeypatch, lambda: lint_text(_code(n), f"memo{n}.cu", targets=["hip-cdna"]))
    small, large = run(3), run(12)
    assert small > 0
    assert large == small, (small, large)


def test_the_answers_are_the_branches_own():
    """Kept by the branches around a node: nodes in different branches get their own answers."""
    code = textwrap.dedent("""\
        #ifdef __HIP_PLATFORM_AMD__
        __device__ int a() { return 1; }
        #else
        __device__ int b() { return 2; }
        #endif
        __device__ int c() { return 3; }
        """)
    src = SourceFile.from_text(code, "sides.cu")
    fns = {src.text_of(f.child_by_field_name("declarator").child_by_field_name("declarator")): f
           for f in src.index.of_type("function_definition")}
    memo: dict = {}
    got = {name: (guards.cuda_only(f, src, memo=memo), guards.amd_only(f, src, memo={}), guards.side_of(f, src, memo={}))
           for name, f in fns.items()}
    want = {name: (guards.cuda_only(f, src), guards.amd_only(f, src), guards.side_of(f, src)) for name, f in fns.items()}
    assert got == want
    assert got["a"][1] and got["b"][0] and not any(got["c"][:2])
