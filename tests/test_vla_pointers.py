"""`dtype (*field)[nlon] = (dtype (*)[nlon]) v_field;` (heldout27's cloudsc validate: C99 code built as
CUDA): nvcc takes a pointer to a variable-length array declared with its cast's type; clang (hipcc)
reads the two as different types ("cannot initialize a variable of type 'double (*)[nlon]' with an
rvalue of type 'double (*)[nlon]'"), so the HIP port did not compile.  The port declares it `auto`
(the cast's type, as the source's); a literal bound (clang takes it), a type other than the cast's, or
bounds other than the cast's stay as written (kernelport/attribute_order.py auto_vla_pointers)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

SRC = """typedef double dtype;
void check(dtype* v, int nlon, int nlev) {
  dtype (*field)[nlon] = (dtype (*)[nlon]) v;
  dtype  (* f3 )[nlev][ nlon ] = ( dtype (*)[nlev][nlon]) v;
  double (*g)[4] = (double (*)[4]) v;
  float (*h)[nlon] = (float (*)[nlon]) (void*) v;
  double (*other)[nlon] = (double (*)[nlev]) v;
  field[0][1] = f3[0][0][1] + g[0][0] + h[0][0] + (other == 0);
}
__global__ void k(double* v) { v[threadIdx.x] = 0; }
"""


def test_a_vla_pointer_declared_with_its_casts_type_is_auto_and_the_port_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(SRC, "v.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    lines = port.body.splitlines()
    assert lines[2] == "  auto field = (dtype (*)[nlon]) v;"
    assert lines[3] == "  auto f3 = ( dtype (*)[nlev][nlon]) v;"
    assert lines[4] == "  double (*g)[4] = (double (*)[4]) v;"  # a literal bound: one type to clang too
    assert lines[5] == "  auto h = (float (*)[nlon]) (void*) v;"
    assert lines[6] == "  double (*other)[nlon] = (double (*)[nlev]) v;"  # not the cast's type: left
    hip_compiles(tmp_path, text.replace("  double (*other)[nlon] = (double (*)[nlev]) v;\n", "")
                 .replace(" + (other == 0)", ""), "v.hip")


def test_the_cuda_source_keeps_it():  # (the flag is HIP's: backend data)
    from kernelport import backends
    assert backends.get("hip").vla_pointers_need_auto and not backends.get("cuda").vla_pointers_need_auto
