"""Members whose declaration and definition name different execution spaces through a project's own
macros (heldout43, OpenHurricane: cuPreset.hpp defines `cu_device`, `cu_host` and `cu_dual` as
`__device__`, `__host__` and both under CUDA_PARALLEL, empty in its #else; reactionTableCUDA.hpp
declares `inline cu_dual cu_ushort nsp() const noexcept;` and reactionTableCUDA.inl, included at its
end, defines `inline cu_device cu_ushort reactionTable::nsp() const noexcept {...}`;
CUDAChemistrySourceODEs.h declares `cu_dual CUDAChemistrySourceODEs(const CUDAChemistrySourceODEs &)`
and the .cu defines it bare).  nvcc treats each as `__host__ __device__` (warning 20040); hipcc
(clang) refused 4 of the set's ports ("__device__ function 'nsp' cannot overload __host__ __device__
function 'nsp'", "__host__ function ... cannot overload __host__ __device__ function").  The port's
definition says the declaration's spaces."""
from __future__ import annotations


from conftest import assert_hip_file_compiles, require_tool

PRESET = """\
#pragma once
#ifdef GPU_BUILD
#ifdef hd_host
#undef hd_host
#endif
#define hd_device __device__
#define hd_host __host__
#define hd_dual hd_device hd_host
#else
#define hd_device
#define hd_host
#define hd_dual hd_device hd_host
#endif
"""
THING_H = """\
#pragma once
#include "preset.h"
namespace outer { namespace chem {
class Table {
    unsigned short n_;
public:
    hd_host Table(unsigned short n, unsigned short scale);
    hd_dual Table(const Table& t);
    inline hd_dual unsigned short n() const noexcept;
    inline hd_device unsigned short twice() const noexcept;
    inline hd_dual unsigned short thrice() const noexcept;
};
} }
#include "thing.inl"
"""
THING_INL = """\
#pragma once
inline hd_device unsigned short outer::chem::Table::n() const noexcept { return n_; }
inline hd_device unsigned short outer::chem::Table::twice() const noexcept { return 2 * n_; }
inline hd_dual unsigned short outer::chem::Table::thrice() const noexcept { return 3 * n_; }
"""
UNIT = """\
#include "thing.h"
using namespace outer;
chem::Table::Table(unsigned short n, unsigned short scale) : n_(n * scale) {}
chem::Table::Table(const Table& t) : n_(t.n_) {}
struct Local {
    int v;
    __device__ int get() const;
    __host__ __device__ int both() const;
    __device__ int dev() const;
};
__host__ __device__ int Local::get() const { return v; }
__device__ int Local::both() const { return 2 * v; }
__device__ int Local::dev() const { return 3 * v; }
__global__ void k(const chem::Table* t, unsigned short* o, const Local* l) {
    chem::Table c(*t);
    o[threadIdx.x] = c.n() + c.twice() + c.thrice() + l->get() + l->both() + l->dev();
}
"""


def _ported(tmp_path) -> tuple[str, str]:
    from trust_support import kp_inproc
    for name, text in (("preset.h", PRESET), ("thing.h", THING_H), ("thing.inl", THING_INL), ("unit.cu", UNIT)):
        (tmp_path / name).write_text(text)
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "unit.cu"), "--to", "hip", "-DGPU_BUILD", "-o", str(out))
    assert rc == 0, err
    inl = out / "thing.inl.hip.h"
    return (out / "unit.hip").read_text(), inl.read_text() if inl.exists() else THING_INL


def test_a_definition_takes_the_space_its_declaration_has_and_it_lacks(tmp_path):
    unit, inl = _ported(tmp_path)
    assert "\n__host__ inline hd_device unsigned short outer::chem::Table::n() const noexcept {" in inl, inl
    # look-alikes: declared and defined alike (device only; both spaces) stay as written
    assert "\ninline hd_device unsigned short outer::chem::Table::twice() const noexcept {" in inl, inl
    assert "\ninline hd_dual unsigned short outer::chem::Table::thrice() const noexcept {" in inl, inl


def test_a_bare_definition_takes_the_spaces_a_macro_from_another_header_gives_its_declaration(tmp_path):
    unit, _ = _ported(tmp_path)
    assert "\n__host__ __device__ chem::Table::Table(const Table& t) : n_(t.n_) {}" in unit, unit
    # the host constructor gets the host space it is declared with: what it was already
    assert "chem::Table::Table(unsigned short n, unsigned short scale) : n_(n * scale) {}" in unit
    assert "__device__ chem::Table::Table(unsigned short" not in unit


def test_in_one_file_declaration_and_definition_take_the_union_of_their_spaces(tmp_path):
    """nvcc (warning 20036) treats a member declared `__device__` and defined `__host__ __device__` as
    both, and one declared both and defined `__device__` too: the port writes the missing space where
    it is missing, the declaration in the first case, the definition in the second."""
    unit, _ = _ported(tmp_path)
    assert "    __host__ __device__ int get() const;" in unit, unit
    assert "\n__host__ __device__ int Local::get() const { return v; }" in unit
    assert "\n__host__ __device__ int Local::both() const { return 2 * v; }" in unit
    # the look-alike: declared and defined `__device__`, as written
    assert "    __device__ int dev() const;" in unit and "\n__device__ int Local::dev() const { return 3 * v; }" in unit


def test_the_ports_compile_with_hipcc(tmp_path):
    require_tool("hipcc")
    _ported(tmp_path)
    assert_hip_file_compiles(tmp_path / "out" / "unit.hip", ["gfx90a", "gfx1030"],
                             extra_args=("-std=c++17", "-DGPU_BUILD", f"-I{tmp_path / 'out'}", f"-I{tmp_path}"))
