"""A run of file-scope uses of a function-like macro that defines a function (`MAKE_HOST(1)` then
`MAKE_HOST(2)`, no semicolons): the grammar reads the first use as an expression statement whose `;` is
the second use's mask, so the repair (kernelport/macro_repair.py, `_other_uses`) kept the second use's
mask alone and left the first in the text the analyses see: the Metal port kept `MAKE_HOST(1)` at file
scope and its checker refused it (KP224), on main.  Every file-scope use of such a macro (one whose
replacement ends a definition) is now masked the same way, as a statement macro's uses are."""
from __future__ import annotations

from conftest import hip_compiles, metal_checked, metal_port
from kernelport.source import SourceFile
from port_support import port_text

KERNEL = """
__global__ void scale(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
int main() { return host_1() + host_2() + host_3(); }
"""
RUN = "#define MAKE_HOST(K) int host_##K(void) { return K; }\nMAKE_HOST(1)\nMAKE_HOST(2)\nMAKE_HOST(3)\n" + KERNEL


def _masked(code: str) -> list[int]:
    """The lines of the uses of MAKE_HOST the parse sees masked."""
    src = SourceFile.from_text(code, "t.cu")
    return sorted({code.count("\n", 0, m.start) + 1 for m in src.masks if m.name == "MAKE_HOST"})


def test_every_use_of_a_run_is_masked_and_the_metal_port_is_written(tmp_path):
    assert _masked(RUN) == [2, 3, 4]
    text = metal_checked(RUN)
    assert "MAKE_HOST(1)" not in text.replace("/* MAKE_HOST(...)", ""), text
    assert text.count("/* MAKE_HOST(...): defines host code only") == 3, text
    hip_compiles(tmp_path, port_text(RUN, "t.cu"))  # HIP keeps the uses (hipcc expands them)
    # two on one line, as heldout81's kernel-making uses stood
    assert _masked(RUN.replace("MAKE_HOST(1)\nMAKE_HOST(2)", "MAKE_HOST(1) MAKE_HOST(2)\n")) == [2, 4]


def test_look_alikes_keep_their_parse():
    # a use followed by `;` parses as written (no mask) and so does a statement macro run in a kernel,
    # where no definition can stand: both as on main
    assert _masked(RUN.replace("MAKE_HOST(1)\n", "MAKE_HOST(1);\n").replace("MAKE_HOST(3)\n", "")) == [3]
    src = """
#define CHECK(c) if (!(c)) { return; }
__global__ void k(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    CHECK(i < n)
    CHECK(a[i] > 0.0f)
    a[i] = 1.0f;
}
"""
    masks = [m for m in SourceFile.from_text(src, "t.cu").masks if m.name == "CHECK"]
    assert sorted({src.count("\n", 0, m.start) + 1 for m in masks}) == [5, 6] and \
        all(m.reason == "statement" for m in masks), masks
    metal_checked(src)
    # a macro whose replacement is an expression, used at file scope in initialisers: no mask
    expr = "#define SQR(x) ((x) * (x))\nconst int A = SQR(2);\nconst int B = SQR(3);\n" + KERNEL.split("int main")[0]
    assert not [m for m in SourceFile.from_text(expr, "t.cu").masks if m.name == "SQR"]
    port, _ = metal_port(expr)
    assert port.ok, [d.format() for d in port.diagnostics]
