"""A string literal written against the macro after it: 2D3D-TI-FD-RTM-cuda's (heldout38)
`printf(ANSI_YELLOW "  [Warning]  "ANSI_RESET "%s", message)`, ANSI_RESET #defined as a colour code's
string.  nvcc expands the macro and concatenates; hipcc (clang) read a C++11 literal suffix and refused
the port ("invalid suffix on literal; C++11 requires a space between literal and identifier").  The
port writes the space (kernelport/literal_spacing.py)."""
from __future__ import annotations


from conftest import assert_hip_file_compiles, require_tool
from trust_support import kp_inproc

SOURCE = """\
#include <cstdio>
#include <string>
#define ANSI_YELLOW "\\x1b[33m"
#define ANSI_RESET "\\x1b[0m"
std::string operator""_tag(const char* s, std::size_t n) { return std::string(s, n); }
void print_warning(const char* message) {
    if (message)
        printf(ANSI_YELLOW "  [Warning]  "ANSI_RESET "%s", message);
    std::string t = "abc"_tag;
    printf("%s", t.c_str());
}
__global__ void scale(float* a, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}
"""


def test_a_string_literal_against_a_macro_is_parted_from_it_and_the_port_compiles(tmp_path):
    (tmp_path / "w.cu").write_text(SOURCE)
    rc, _, err = kp_inproc("translate", str(tmp_path / "w.cu"), "--to", "hip", "-o", str(tmp_path / "out"))
    assert rc == 0, err
    port = (tmp_path / "out" / "w.hip").read_text()
    assert 'printf(ANSI_YELLOW "  [Warning]  " ANSI_RESET "%s", message);' in port
    assert 'std::string t = "abc"_tag;' in port  # look-alike: a literal operator's suffix, left as written
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / "w.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))
