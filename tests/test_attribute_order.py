"""A C++11 attribute list after a declaration's specifiers, which nvcc takes and clang refuses, goes
in front of them in the HIP port (kernelport/attribute_order.py; cudaLBM's headers write
`__host__ [[nodiscard]] inline constexpr T f()` throughout)."""
from __future__ import annotations

from kernelport import backends

from conftest import assert_hip_file_compiles
from port_support import ported

CODE = """\
template <typename T> struct Field {
    __host__ __device__ [[nodiscard]] inline constexpr T get() const noexcept { return v; }
    __device__ [[nodiscard]] static int ready() noexcept { return 1; }
    template <typename U> __device__ [[nodiscard]] U as() const { return U(v); }
    [[nodiscard]] __host__ __device__ inline T twice() const { return v + v; }
    T v;
};
__device__ [[nodiscard]] inline float half_of(float x) { return x * 0.5f; }
__global__ void k(float* a, int* idx, Field<float> f) {
    [[maybe_unused]] int unused = idx[idx[0]];
    a[idx[0]] = half_of(f.get()) + f.as<float>() + f.twice();
    if (idx[1] < 0) a[1] = Field<float>::ready();
}
"""


def test_an_attribute_list_after_specifiers_leads_them_in_the_hip_port(tmp_path):
    p, text = ported(CODE, dedent=False)
    assert "    [[nodiscard]] __host__ __device__ inline constexpr T get() const noexcept" in text
    assert "    [[nodiscard]] __device__ static int ready() noexcept" in text
    assert "    template <typename U> [[nodiscard]] __device__ U as() const" in text
    assert "[[nodiscard]] __device__ inline float half_of(float x)" in text
    # the look-alikes: a list already first, a statement's attribute and nested subscripts stay
    assert "    [[nodiscard]] __host__ __device__ inline T twice() const" in text
    assert "    [[maybe_unused]] int unused = idx[idx[0]];" in text and "a[idx[0]] = " in text
    assert text.count("[[nodiscard]]") == CODE.count("[[nodiscard]]")
    assert sum(n.after.startswith("[[nodiscard]]") for n in p.notes) == 4
    from conftest import require_tool
    require_tool("hipcc")
    (tmp_path / "t.hip").write_text(text)
    assert_hip_file_compiles(tmp_path / "t.hip", ["gfx90a", "gfx1030"])


def test_the_order_is_backend_data():
    assert backends.get("hip").attributes_lead_specifiers
    assert not backends.get("cuda").attributes_lead_specifiers
