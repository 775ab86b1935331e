"""What translate asks once per site is answered from an index built once per file.

Each of these was a scan of the whole file per question (quadratic on a long file, see
bench/bench_translate.py --sizes); the index must give the answers the scan gave.
"""
from __future__ import annotations

import random

import pytest

from kernelport import cexpr, hipbuild, warpwidth
from kernelport.model import build
from kernelport.rewrite import Rewriter
from kernelport.source import SourceFile, walk

KERNELS = """
#define W 32
#if defined(__HIP_PLATFORM_AMD__)
#define LANES 64
#else
#define LANES 32
#endif
__global__ void a(float *x) { x[threadIdx.x % W] = 0; }
__global__ void b(float *x) { x[threadIdx.x] = 1; }
void host(float *x) {
    a<<<1, 32>>>(x);
    b<<<2, 64>>>(x);
    a<<<3, 96>>>(x);
}
"""


def test_touches_answers_as_a_scan_of_every_replacement():
    src = SourceFile.from_text(KERNELS, "k.cu")
    nodes = list(walk(src.root))
    rng = random.Random(7)
    for _ in range(20):
        rw = Rewriter(src)
        for n in rng.sample(nodes, 8):
            rw.replace(n, "X")
        if rng.random() < 0.5:
            rw.remove(rng.choice(nodes))
        spans = [(s, e) for s, e, _ in rw.replacements]
        for _ in range(60):
            start = rng.randrange(len(src.data))
            end = start + rng.randrange(0, 40)
            scan = any(s < max(end, start + 1) and start < e for s, e in spans)
            assert rw.touches(start, end) == scan, (start, end, spans)


def test_an_expression_converts_only_the_names_it_reads():
    # a name no C integer type holds stops an expression that reads it, not one that does not
    names = {"n": 3, "huge": 1 << 80}
    assert cexpr.evaluate("n * 2", names) == 6
    with pytest.raises(cexpr.CExprError, match="too large"):
        cexpr.evaluate("huge + n", names)
    with pytest.raises(cexpr.CExprError, match="unknown name 'm'") as e:
        cexpr.evaluate("m + 1", names)
    assert e.value.hint.endswith("; known: n, huge")  # every name the caller gave, as before


def test_a_files_hip_macros_are_read_once_and_are_what_a_fresh_read_gives():
    src = SourceFile.from_text(KERNELS, "k.cu")
    first = hipbuild.file_macros(src)
    assert hipbuild.file_macros(src) is first
    assert dict(first) == hipbuild.macros(src, hipbuild.configuration_names(src))
    assert first["LANES"].body == "64"  # the AMD build's branch
    with pytest.raises(TypeError):
        first["LANES"] = None  # shared by every caller: read-only


def test_each_kernels_launches_are_its_own_in_order():
    module = build(SourceFile.from_text(KERNELS, "k.cu"))
    by_kernel = warpwidth._launches_of(module)
    for name in ("a", "b"):
        assert by_kernel[name] == [x for x in module.launches if x.kernel == name]
    assert [len(by_kernel["a"]), len(by_kernel["b"])] == [2, 1]


@pytest.mark.parametrize("backend", ["hip", "metal", "portable"])
def test_the_names_a_backend_respells_are_the_tables(backend):
    from kernelport import dialect
    names = dialect.respelled("cuda", backend)
    assert names == {n for n, c in dialect._by_name("cuda").items() if c.spelling(backend) != c.spelling("cuda")}
    assert "__shfl_down_sync" in names
    assert ("__syncthreads" in names) == (backend == "metal")  # HIP and portable C++ keep its spelling
