"""The self-check does not lint again a port that is its original under API renames lint reads alike
(kernelport/renamed_ports.py), and still lints every other port: one that gains a hazard through a
rename is refused (KP220)."""
from __future__ import annotations

from kernelport import renamed_ports, translate
from kernelport.lint import engine
from kernelport.source import SourceFile
from kernelport.translate import Translator

# A kernel the HIP port keeps as written (a logical 32-lane group: no rewrite), and host code whose
# port renames runtime names (`cudaMalloc` -> `hipMalloc`, the dialect's runtime concepts) and an API
# name of the HIPIFY table that no dialect concept covers (`cudaMemGetInfo` -> `hipMemGetInfo`).
_SOURCE = """\
#include <cstdio>
constexpr int kSlots = 8;
// @kp warp-width 32
__global__ void scale(float *x, float s) {
    x[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}

int run(float *host, int n) {
    float *dev = nullptr;
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    cudaMalloc(&dev, n * sizeof(float));
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(dev, 2.0f);
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    return kSlots;
}
"""


def _port_lints(monkeypatch) -> list[str]:
    """The texts the self-check lints as ports (a lint with `parsed` is the original's)."""
    seen: list[str] = []
    real = engine.lint_text

    def counted(text, *a, **k):
        if k.get("parsed") is None:
            seen.append(text)
        return real(text, *a, **k)
    monkeypatch.setattr(engine, "lint_text", counted)
    return seen


def test_a_port_that_only_renames_api_names_is_not_linted_again(monkeypatch):
    seen = _port_lints(monkeypatch)
    port, text = translate.translate(SourceFile.from_text(_SOURCE, "renamed_only_a.cu"), "hip")
    assert port.ok and "hipMalloc(&dev" in port.body and "hipMemGetInfo(" in port.body
    assert seen == []  # main lints this port once


def test_a_port_with_any_other_change_is_linted(monkeypatch):
    """Look-alikes: a rename off the API table (a translator bug renaming the local `total` to
    `hipTotal`), a rename onto a name the file already has (two names merged), a changed literal:
    each linted."""
    seen = _port_lints(monkeypatch)
    for i, (old, new) in enumerate((("total", "hipTotal"), ("kSlots", "n"), ("256", "64"))):
        def bug(self, old=old, new=new):  # a translator pass that also changes one more thing
            for n in self.src.index.of_types("identifier", "number_literal"):
                if self.src.text_of(n) == old:
                    self.rw.replace(n, new)
        monkeypatch.setattr(Translator, "rewrite_constant_warp_size", bug)
        before = len(seen)
        translate.translate(SourceFile.from_text(_SOURCE, f"renamed_lookalike{i}.cu"), "hip")
        assert len(seen) == before + 1, (old, new)


def test_a_hazard_gained_through_a_rename_is_still_refused(monkeypatch):
    """A name-only change that stores a ballot in 32 bits (a translator bug renaming `uint64_t` to
    `uint32_t`, a name the file already has): not read alike, so linted, and refused as KP220 (as
    tests/test_translate_backend_sharing.py's planted bug)."""
    def wrong(self):
        for n in self.src.index.of_type("primitive_type") + self.src.index.of_type("type_identifier"):
            if self.src.text_of(n) == "uint64_t":
                self.rw.replace(n, "uint32_t")
    monkeypatch.setattr(Translator, "rewrite_constant_warp_size", wrong)
    src = SourceFile.from_text("#include <cstdint>\n__global__ void k(int *x, uint32_t *c) {\n"
                               "    uint64_t m = __ballot_sync(__activemask(), x[threadIdx.x] > 0);\n"
                               "    c[blockIdx.x] = __popcll(m);\n}\n", "renamed_hazard.cu")
    port, _ = translate.translate(src, "hip")
    assert "uint32_t m = " in port.body  # (the bug this test plants)
    kp220 = [d for d in port.diagnostics if d.code == "KP220"]
    assert kp220 and not port.ok and kp220[0].location.line == 3, [d.format() for d in port.diagnostics]


def test_renamed_only_reads_names_by_what_lint_reads():
    prologue = "#include <hip/hip_runtime.h>\n"
    assert renamed_ports.renamed_only("cudaFree(p);\n", "hipFree(p);\n", prologue, "hip")
    assert not renamed_ports.renamed_only("cudaFree(p);\n", "hipFree(p);\n", prologue + "#define X 1\n", "hip")
    # a launch or device-attribute API, a name of the wave: read by lint's geometry rules, so linted
    assert not renamed_ports.renamed_only("cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, 0);\n",
                                          "hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, 0);\n", prologue, "hip")
    # the device's properties: lint reads their fields (`p.warpSize`), never the query's or the struct's name
    assert renamed_ports.renamed_only("cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n",
                                      "hipDeviceProp_t p; hipGetDeviceProperties(&p, 0);\n", prologue, "hip")
    assert not renamed_ports.renamed_only("cudaFree(p); hipFree(q);\n", "hipFree(p); hipFree(q);\n", prologue, "hip")
    assert not renamed_ports.renamed_only("cudaFree(p); // 32\n", "hipFree(p); // 64\n", prologue, "hip")
