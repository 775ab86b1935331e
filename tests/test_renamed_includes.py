"""A port whose only other change is the toolkit's headers mapped (`<cuda_profiler_api.h>` and `<cuda_runtime.h>`
become one `<hip/hip_runtime_api.h>`) is not linted again by the self-check where no preprocessor conditional
encloses those includes (kernelport/renamed_ports.py `alike`): lint reads an angled include only inside a
conditional (kernelport/hipbuild.py).  On main such a port was linted (tests/realcorpus: 69 of 177 port lints).
Look-alikes stay linted: the same includes under an include guard (the port's `<hip/...>` there names the
guard's macro an AMD build's), a run of includes the port drops, a hazard the port gains elsewhere."""
from __future__ import annotations

import pytest

from kernelport import renamed_ports, translate
from kernelport.source import SourceFile
from kernelport.translate import Translator
from test_renamed_ports import _port_lints

_HOST = """\
__global__ void scale(float *x, float s) {
    x[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}
int run(float *host, int n) {
    float *dev = nullptr;
    cudaMalloc(&dev, n * sizeof(float));
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(dev, 2.0f);
    cudaFree(dev);
    return 0;
}
"""
_INCLUDES = "#include <cuda_profiler_api.h>\n#include <cuda_runtime.h>\n#include <cstdio>\n"


def _translate(text: str, name: str):
    port, out = translate.translate(SourceFile.from_text(text, name), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return port


def test_mapped_toolkit_headers_at_top_level_are_not_linted_again(monkeypatch):
    seen = _port_lints(monkeypatch)
    port = _translate(_INCLUDES + _HOST, "renamed_includes_a.cu")
    assert "#include <hip/hip_runtime_api.h>\n#include <cstdio>\n" in port.body  # two lines became one
    assert "hipMalloc(&dev" in port.body
    assert seen == []  # main lints it once


def test_the_same_includes_under_an_include_guard_are_linted(monkeypatch):
    seen = _port_lints(monkeypatch)
    _translate("#ifndef RUN_H\n#define RUN_H\n" + _INCLUDES + _HOST + "#endif\n", "renamed_includes_b.cuh")
    assert len(seen) == 1


def test_a_hazard_gained_beside_mapped_headers_is_still_refused(monkeypatch):
    """tests/test_renamed_ports.py's planted bug (a ballot stored in 32 bits), with toolkit headers mapped."""
    def wrong(self):
        for n in self.src.index.of_type("primitive_type") + self.src.index.of_type("type_identifier"):
            if self.src.text_of(n) == "uint64_t":
                self.rw.replace(n, "uint32_t")
    monkeypatch.setattr(Translator, "rewrite_constant_warp_size", wrong)
    src = SourceFile.from_text(_INCLUDES + "#include <cstdint>\n__global__ void k(int *x, uint32_t *c) {\n"
                               "    uint64_t m = __ballot_sync(__activemask(), x[threadIdx.x] > 0);\n"
                               "    c[blockIdx.x] = __popcll(m);\n}\n", "renamed_includes_hazard.cu")
    port, _ = translate.translate(src, "hip")
    kp220 = [d for d in port.diagnostics if d.code == "KP220"]
    # (at the port's line, 5: KP220 is placed by the port's lines, which the merged includes moved up one, as on main)
    assert kp220 and not port.ok and kp220[0].location.line == 5, [d.format() for d in port.diagnostics]


_PRO = "#include <hip/hip_runtime.h>\n"


@pytest.mark.parametrize("original, body, same", [
    ("#include <a.h>\n#include <b.h>\nint x;\n", "#include <c.h>\nint x;\n", True),  # a run for a run
    ("#include <a.h>\ncudaFree(p);\n", "#include <c.h>\nhipFree(p);\n", True),  # and renames lint reads alike
    ("#include <a.h>\nint x;\n", "int x;\n", False),  # the port drops the run: the lines below it are others
    ("int x;\n", "#include <c.h>\nint x;\n", False),  # or adds one
    ("#if USE_A\n#include <a.h>\n#endif\nint x;\n", "#if USE_A\n#include <hip/c.h>\n#endif\nint x;\n", False),
    ("#include <a.h> // why\nint x;\n", "#include <c.h> // why\nint x;\n", False),  # not a plain include line
    ("#include <a.h>\nint x;\n", "#include <c.h>\nint y;\n", False),  # other code too
    ("#include <a.h>\n#include \"k.h\"\n#include <b.h>\nint x;\n", "#include <c.h>\n#include \"k.hip.h\"\n"
     "#include <d.h>\nint x;\n", True),  # a local include between two runs: its port's name
])
def test_alike_sets_aside_runs_of_angled_includes_outside_conditionals(original, body, same):
    assert renamed_ports.alike(SourceFile.from_text(original, "t.cu"), body, _PRO, "hip") is same
    assert renamed_ports.alike(SourceFile.from_text(original, "t.cu"), body, _PRO + "#define X 1\n", "hip") is False
