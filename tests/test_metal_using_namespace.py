"""A file-scope `using namespace X;` whose namespace declares both names device code uses and host code
(a host helper, a macro-built error check): the Metal port keeps the namespace's device names and the
directive with them; it left the directive out as host code as soon as one of X's names was, and the
kernel's unqualified names were undeclared in the port ("did you mean 'jpeggpu::data_unit_vector_size'",
KP224 on jpeggpu's idct.cu and decode_destuff.cu, heldout71).  A directive whose namespace device code
uses nothing of is still left out."""
from __future__ import annotations

from conftest import metal_checked

MIXED = """
#include <cstdio>
namespace jp {
constexpr int width = 8;
struct segment { int offset; int size; };
enum table_class { TABLE_DC, TABLE_AC, TABLE_COUNT };
#define JP_CHECK(call) do { if ((call) != cudaSuccess) report(#call); } while (0)
inline void report(const char* what) { std::printf("%s\\n", what); }
} // namespace jp

using namespace jp;

__global__ void scale(float* out, const float* in, const segment* segs, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * width + segs[0].offset;
}

void launch(float* out, const float* in, const segment* segs, int n)
{
    report(TABLE_AC == 1 ? "launch" : "table");
    scale<<<(n + 255) / 256, 256>>>(out, in, segs, n);
    JP_CHECK(cudaDeviceSynchronize());
}
"""

HOST_ONLY = """
#include <cstdio>
namespace hp {
inline void report(const char* what) { std::printf("%s\\n", what); }
}
using namespace hp;

__global__ void scale(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}
"""


def test_a_directive_whose_namespace_device_code_uses_stays():
    text = metal_checked(MIXED)
    assert "\nusing namespace jp;\n" in text, text
    assert "constexpr constant int width = 8;" in text and "printf" not in text, text


def test_a_directive_of_host_names_only_is_left_out():
    text = metal_checked(HOST_ONLY)
    assert "/* using namespace hp; host code, left out of the Metal port */" in text, text
