"""An architecture test that reads the project's own named architectures (mfaktc's tf_96bit_base_math.cu:
`#if (__CUDA_ARCH__ >= COMPUTE_CAPABILITY_PASCAL) && (__CUDA_ARCH__ < VOLTA)` around an asm statement, with
`#define VOLTA 700` in my_types.h) is settled as for literals where every other name it reads is an object-like
macro whose one integer value the unit's definitions decide (kernelport/arch_branches.known_values, stop 51):
the port is the branch the newest architecture takes, with KP237 (before: the conditional was kept and the
asm the newest never runs was refused KP201).  A name with no known value, a function-like macro, or one the
run's -D gives keeps the conditional as written."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from test_arch_branches import _same_at_64  # the original at 32 lanes, the port at 64
from port_support import ported

NAMES = "#define PASCAL 600\n#define VOLTA 700\n"

C_CODE = NAMES + """\
__device__ float scale(float v)
{
#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)
    return v + 1.0f;
#else
    return v * 2.0f;
#endif
}

__global__ void k(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = scale(x[i]);
}
"""

# mfaktc's shape: an asm with no HIP port (a carry chain) only Pascal ran, the C every current GPU runs
ASM = NAMES + """\
__device__ unsigned int add_hi(unsigned int a, unsigned int b)
{
    unsigned int r;
#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)
    asm("add.cc.u32 %0, %1, %2;\\n\\taddc.u32 %0, 0, 0;" : "=r"(r) : "r"(a), "r"(b));
#else
    r = (unsigned int)(((unsigned long long)a + b) >> 32);
#endif
    return r;
}

__global__ void k(const unsigned int* x, unsigned int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = add_hi(x[i], x[(i + 1) % n]);
}
"""


def test_named_architectures_in_c_code_port_the_newest_branch(tmp_path):
    port, out = ported(C_CODE, dedent=False)
    assert "v * 2.0f" in port.body and "v + 1.0f" not in port.body and "__CUDA_ARCH__" not in port.body
    (warn,) = port.diagnostics
    assert warn.code == "KP237" and (warn.line, warn.column) == (5, 1)
    assert "line 7 (`#else`), the one NVIDIA GPUs run" in warn.message
    assert "line 5 (`#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)`) is left out" in warn.message
    x = np.random.default_rng(51).uniform(-1, 1, 1000).astype(np.float32)
    _same_at_64(C_CODE, out, {"x": x, "out": np.zeros(1000, np.float32), "n": 1000})
    hip_compiles(tmp_path, out)


def test_named_architectures_around_an_asm_port_the_branch_current_gpus_run(tmp_path):
    """main: the conditional kept, the Pascal-only carry chain (no current GPU runs it) ported under its `#if`."""
    port, out = ported(ASM, dedent=False)
    assert "asm" not in port.body and "#else" not in port.body and ">> 32" in port.body
    assert [(d.code, d.line) for d in port.diagnostics] == [("KP237", 6)], port.diagnostics
    x = np.random.default_rng(7).integers(0, 1 << 32, 1000, dtype=np.uint64).astype(np.uint32)
    _same_at_64(ASM, out, {"x": x, "out": np.zeros(1000, np.uint32), "n": 1000})
    hip_compiles(tmp_path, out)


def test_a_name_defined_by_an_expression_of_known_names_is_not_guessed():
    """`#define VOLTA (PASCAL + 100)`: no one integer literal; kept as written (a narrowing to widen later)."""
    text = C_CODE.replace("#define VOLTA 700", "#define VOLTA (PASCAL + 100)")
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert "#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)" in port.body and "#else" in port.body


@pytest.mark.parametrize("text, options, why", [
    (C_CODE.replace("#define VOLTA 700\n", ""), {}, "VOLTA has no known value"),
    (C_CODE, {"defines": [("PASCAL", "600")]}, "PASCAL is a -D of the run"),
    (C_CODE.replace("#define VOLTA 700", "#define VOLTA(x) 700"), {}, "a function-like macro"),
    (C_CODE.replace("#define VOLTA 700", "#ifdef BIG\n#define VOLTA 700\n#endif"), {}, "defined under a build's test"),
    (C_CODE.replace("#define VOLTA 700", "#define VOLTA 700\n#undef VOLTA\n#define VOLTA 800"), {}, "redefined"),
])
def test_a_name_the_run_cannot_settle_keeps_the_conditional(text, options, why):
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip", **options)
    assert "#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)" in port.body and "#else" in port.body, why
    assert not any(d.code == "KP237" for d in port.diagnostics), why


def test_an_unknown_name_around_the_asm_keeps_both_branches():
    port, _ = translate(SourceFile.from_text(ASM.replace("#define VOLTA 700\n", ""), "t.cu"), "hip")
    assert "#if (__CUDA_ARCH__ >= PASCAL) && (__CUDA_ARCH__ < VOLTA)" in port.body and "#else" in port.body
    assert not any(d.code == "KP237" for d in port.diagnostics), port.diagnostics


def test_named_architectures_inside_an_asm_template_port_the_newest_branch():
    """The conditional inside one asm's template strings (kernelport/ptx_branches.py) reads the names too."""
    from test_ptx_branches import MODELS, TWO, _check, _source
    text = "#define FERMI 200\n" + _source(TWO.replace("__CUDA_ARCH__ >= 200", "__CUDA_ARCH__ >= FERMI", 1))
    port, _ = ported(text, dedent=False)
    assert "asm" not in port.body and "__CUDA_ARCH__" not in port.body and "#else" not in port.body, port.body
    _check(next(ln for ln in port.body.splitlines() if "kp_ptx_t" in ln), MODELS["#if"])
    assert [(d.code, d.line) for d in port.diagnostics] == [("KP237", 5)], port.diagnostics
    # its look-alike: FERMI a -D of the run, the conditional kept with each branch under its directive
    port, _ = ported(text, dedent=False, defines=[("FERMI", "200")])
    assert "#if __CUDA_ARCH__ >= FERMI" in port.body and "#else" in port.body and not port.diagnostics
