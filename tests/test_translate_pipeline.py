"""Translation as a pipeline of passes that a backend extends; one Diagnostic shape; import direction."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from kernelport import backends
from kernelport.diagnostics import Diagnostic
from kernelport.errors import Location
from kernelport.source import SourceFile
from kernelport.translate import Translator, extend, translate


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "t.cu")


def test_extend_inserts_before_after_or_appends():
    base = ("a", "b", "c")
    assert extend(base, ("x", "y"), before="b") == ("a", "x", "y", "b", "c")
    assert extend(base, ("x",), after="c") == ("a", "b", "c", "x")
    assert extend(base, ("x",), after="a") == ("a", "x", "b", "c")
    assert extend(base, ("x",)) == ("a", "b", "c", "x")
    with pytest.raises(ValueError):
        extend(base, ("x",), before="a", after="b")
    with pytest.raises(ValueError):
        extend(base, ("x",), before="nope")


def test_metal_extends_the_shared_passes_in_their_order():
    metal = backends.get("metal").translator()
    assert metal.run is Translator.run  # no copied run(): the pipeline is the list
    shared = iter(metal.passes)
    # a subsequence, order kept; but for the reserved-name pass, which Metal runs once host code is left out
    # (a host-only name needs no rename there)
    assert all(p in shared for p in Translator.passes if p != "rename_reserved_words"), metal.passes
    assert metal.passes.index("leave_out_host_code") < metal.passes.index("rename_reserved_words")
    assert metal.passes.index("pre_rewrites") < metal.passes.index("rewrite_sites") < \
        metal.passes.index("recognise_reductions") < metal.passes.index("rewrite_concepts")
    # the checks of the whole port come last: its threadgroup sizes, the -D defines it names, kernels a
    # macro's expansion defines (KP245, before KP227 would call the file kernel-less), whether any device
    # code is left to port (KP227), whether an including file's port holds it (KP228), and launches of
    # template instances the port does not name (KP216)
    assert tuple(metal.passes[-6:]) == ("check_threadgroup_sizes", "command_line_defines", "macro_made_kernels",
                                        "nothing_to_port", "ported_by_includer", "check_unresolved_instances")
    assert all(callable(getattr(metal, p)) for p in metal.passes)
    assert backends.get("hip").translator() is Translator


WARP_SUM = """
__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}
"""


def test_a_pass_added_after_the_sites_runs_between_them_and_the_concepts():
    class Probe(Translator):
        passes = extend(Translator.passes, ("probe",), after="rewrite_sites")

        def probe(self) -> None:
            self.seen = self.rw.result()

    t = Probe(src(WARP_SUM), "hip")
    port = t.run()
    assert "offset = warpSize / 2" in t.seen and "__shfl_down_sync" in t.seen  # sites done, concepts not yet
    assert "__shfl_down(v, offset)" in port.body


def test_overriding_a_pass_replaces_it_in_the_pipeline():
    class NoConcepts(Translator):
        def rewrite_concepts(self) -> None:
            pass

    body = NoConcepts(src(WARP_SUM), "hip").run().body
    assert "offset = warpSize / 2" in body and "__shfl_down_sync(0xffffffff, v, offset)" in body


BALLOT_INTO_32_BITS = """
__global__ void k(const float* x, unsigned* words) {
    unsigned b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    if (threadIdx.x % 32 == 0) words[threadIdx.x / 32] = b;
}
"""


def test_a_mask_stored_in_32_bits_is_narrowed_only_where_a_wave_can_be_64_wide():
    # Re-pinned at stop 44 (was: KP207 on HIP).  Each ballot is over its own CUDA warp (lanes and the
    # word's index are 32-based), so HIP stores its 32-lane group's half of the wave's ballot, the bits
    # CUDA stores at wave 32 and 64 (kernelport/halfvotes.py); Metal's SIMD-group is 32: no change.
    hip, _ = translate(src(BALLOT_INTO_32_BITS), "hip")
    metal, _ = translate(src(BALLOT_INTO_32_BITS), "metal")
    assert any(r.wave == 64 for r in backends.get("hip").runs)
    assert all(r.wave <= 32 for r in backends.get("metal").runs)
    assert [d.code for d in hip.diagnostics] == []
    assert "__ballot(x[threadIdx.x] > 0.0f) >> (__lane_id() & 32))" in hip.body
    assert "words[threadIdx.x / 32] = b;" in hip.body
    assert "KP207" not in [d.code for d in metal.diagnostics] and "__lane_id" not in metal.body


def test_one_diagnostic_shape_with_and_without_a_code():
    d = Diagnostic("KP201", Location("k.cu", 3, 5), "inline PTX", "use an intrinsic", "warning")
    assert d.format() == str(d) == "k.cu:3:5: warning: KP201 inline PTX (hint: use an intrinsic)"
    c = Diagnostic("", Location("k.metal", 12, 5), "Metal has no 'double' type: use float", source="clang")
    assert str(c) == "k.metal:12:5: error: Metal has no 'double' type: use float"
    assert (c.path, c.line, c.column) == ("k.metal", 12, 5)
    assert c.to_dict()["source"] == "clang" and c.to_dict()["code"] == ""


def test_the_metal_checker_reports_the_shared_diagnostic():
    from kernelport.backends.metal import check
    assert check.Diagnostic is Diagnostic


METAL_MODULES = ["kernelport.translate", "kernelport.diagnostics", "kernelport.toolchains",
                 "kernelport.backends.metal.translator", "kernelport.backends.metal.toolchain",
                 "kernelport.backends.metal.check"] + \
    [f"kernelport.backends.metal.{m}" for m in ("spaces", "signatures", "threadgroup", "scalars", "calls",
                                                 "reductions", "sidecar")] + \
    [f"kernelport.backends.metal.check.{m}" for m in ("text", "attributes", "signatures", "instances", "clang")]


@pytest.mark.parametrize("module", METAL_MODULES)
def test_module_imports_alone(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_toolchains_does_not_import_the_checker():
    code = "import sys, kernelport.toolchains; print('kernelport.backends.metal.check' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr
