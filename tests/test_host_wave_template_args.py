"""Stop 65's review (review65f) of host_wave_constants: a host template argument naming a file-scope constant the
port makes the wave width (`per<WARP>()`, `Cfg<WARP>::w`, a kernel template launched as `k<WARP><<<...>>>`) is a
constant expression of host code, refused KP206 at its line.  The grammar reads such a bare argument as a type
(`type_identifier`), so main left it as written: the host pass instantiated it at 32 while gfx90a's device pass
read 64, with no diagnostic.  Look-alikes: a device function's template argument (the device pass's value) and a
host template argument naming a type of its own are left alone."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate
from test_host_wave_constants import FOLD

CALL = FOLD.replace("int main() {", "template <int W> int per() { return W; }\nint main() {\n  int q = per<WARP>();\n  (void)q;")
SCOPE = FOLD.replace("int main() {", "template <int W> struct Cfg { static const int w = W; };\nint main() {\n"
                     "  int q = Cfg<WARP>::w;\n  (void)q;")
KERNEL = FOLD.replace("int main() {", "template <int W> __global__ void fill(int* o) { o[threadIdx.x] = W; }\n"
                      "int main() {\n  fill<WARP><<<1, 64>>>(nullptr);")
# look-alikes: a device helper's template argument; a type named in a host template argument
DEVICE = FOLD.replace("__global__ void block_sum", "template <int W> __device__ int per() { return W; }\n"
                      "__device__ int wide() { return per<WARP>(); }\n__global__ void block_sum")
TYPE = FOLD.replace("int main() {", "template <class T> int per() { return sizeof(T); }\nstruct Row { int a; };\n"
                    "int main() {\n  int q = per<Row>();\n  (void)q;")


def _errors(code: str):
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"], text


def test_a_host_template_argument_is_refused_at_its_line():
    assert _errors(CALL)[0] == [("KP206", 21, 15)]
    assert _errors(SCOPE)[0] == [("KP206", 21, 15)]
    assert _errors(KERNEL)[0] == [("KP206", 21, 8)]


def test_look_alikes_are_left_alone():
    errors, text = _errors(DEVICE)
    assert errors == [] and "return per<WARP>();" in text, text
    errors, text = _errors(TYPE)
    assert errors == [] and "per<Row>()" in text, text
