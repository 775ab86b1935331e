"""PTX's `trap;` in a Metal port (kernelport/backends/metal/assertions.py, asm_traps): it is what CUDA's
`__trap()` compiles to, so the port records it as that call is, a check the host reads back through the
kernel's `kp_assert_failed` buffer (heldout55: sliding-puzzle's IDA* kernels stop a search with
`if (state_is_goal()) asm("trap;");`; before: KP201 at each).  Recorded before the flag is bound, so a
helper that traps receives the flag from its caller.  Look-alikes: `exit;` and a trap with another
instruction stay KP201; a host function's asm is the host's.  Type-checked by kernelport's Metal checker."""
from __future__ import annotations

import json
import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

CODE = """
__device__ void check(int v) {
    if (v < 0)
        asm("trap;");
}
__global__ void k(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    check(in[i]);
    if (in[i] > 1000)
        asm volatile("trap;");
    out[i] = in[i] * 2;
}
"""


def metal(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "a.cu"), "metal")


def test_a_trap_in_a_kernel_and_in_its_helper_is_recorded_as_trap():
    out = metal_checked(CODE)
    assert "kp_assert(false, 1u, kp_assert_failed);" in out  # the helper's: it goes on
    assert "{ if (!kp_assert(false, 2u, kp_assert_failed)) return; }" in out  # the kernel's own: it stops
    assert "void check(int v, device atomic_uint* kp_assert_failed)" in out
    assert "check(in[i], kp_assert_failed);" in out and "asm" not in out


def test_the_sidecar_lists_each_trap_for_the_host():
    port, text = metal(CODE)
    assert port.ok, [d.format() for d in port.diagnostics]
    doc = json.loads(port.extra_files[".json"])
    assert [(a["line"], a["call"], a["condition"]) for a in doc["assertions"]] == [
        (4, "__trap", "false"), (11, "__trap", "false")]


def test_exit_and_a_trap_beside_another_instruction_stay_kp201():
    for asm in ('asm("exit;");', 'asm volatile("trap; exit;");'):
        port, _ = metal(f"__global__ void k(int *o) {{\n    {asm}\n    o[0] = 1;\n}}\n")
        assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 2)], asm


def test_lint_says_what_each_port_does_with_a_trap():
    from kernelport.lint.engine import lint_text
    said = {f.line: f.message for f in lint_text(textwrap.dedent(CODE), "t.cu") if f.code == "PT002"}
    assert set(said) == {4, 11}
    assert "the Metal port records this trap as CUDA's __trap()" in said[4] and "KP201" not in said[4]
    said = {f.line: f.message for f in lint_text("__global__ void k() {\n    asm(\"exit;\");\n}\n", "e.cu")
            if f.code == "PT002"}
    assert "refuse it (KP201)" in said[2] and "__trap" not in said[2]
