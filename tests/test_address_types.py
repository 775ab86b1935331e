"""CUDA's driver address type `CUdeviceptr` is an unsigned integer, so `(CUdeviceptr)p + n` is the
address n bytes past p; HIP's `hipDeviceptr_t` is `void *`, on which C++ has no arithmetic (gunrock's
virtual_memory.hxx, heldout11: "arithmetic on a pointer to void").  The HIP port goes through the
byte pointer the backend names (HIP.address_types): the sum still adds n bytes, the difference of two
addresses is still their distance in bytes; other uses stay a rename."""
from __future__ import annotations

import re
import subprocess

from conftest import assert_hip_file_compiles, require_tool
from port_support import port_text

SRC = """\
#include <cuda.h>
CUdeviceptr at(void* p, size_t n) { return (CUdeviceptr)p + (n * 2); }
CUdeviceptr at_left(void* p, size_t n) { return n + (CUdeviceptr)p; }
CUdeviceptr before(void* p, size_t n) { return ((CUdeviceptr)p) - n; }
size_t between(void* p, void* q) { return (CUdeviceptr)q - (CUdeviceptr)p; }
CUdeviceptr same(void* p) { return (CUdeviceptr)p; }
void unmap(void* p, size_t n) { cuMemUnmap((CUdeviceptr)p + (size_t)n, n); }
"""


def _port() -> str:
    return port_text(SRC, "vm.cu", dedent=False)


def test_address_arithmetic_goes_through_a_byte_pointer():
    body = _port()
    assert "return (hipDeviceptr_t)((char *)(p) + ((n * 2)));" in body, body
    assert "return (hipDeviceptr_t)((n) + (char *)(p));" in body, body
    assert "return (hipDeviceptr_t)((char *)(p) - (n));" in body, body
    assert "return ((char *)(q) - (char *)(p));" in body, body
    assert "return (hipDeviceptr_t)p;" in body, body  # no arithmetic: a rename only


def test_the_port_adds_bytes_as_cuda_does(tmp_path):
    """The port's functions, compiled by the host's C++ compiler with hipDeviceptr_t as ROCm declares
    it (`void *`), against CUDA's integer arithmetic on the same addresses."""
    require_tool("g++")
    text = _port()
    fns = [ln for ln in text.splitlines() if re.match(r"(hipDeviceptr_t|size_t) \w+\(", ln)]
    assert len(fns) == 5, text
    c = tmp_path / "vm.cpp"
    c.write_text("#include <cstddef>\n#include <cstdio>\ntypedef void* hipDeviceptr_t;\n" + "\n".join(fns) + """
int main() {
    static char buf[4096];
    void* p = buf + 100;
    unsigned long long a = (unsigned long long)p;
    int ok = (unsigned long long)at(p, 24) == a + 48 && (unsigned long long)at_left(p, 7) == a + 7 &&
             (unsigned long long)before(p, 64) == a - 64 && between(p, buf + 1000) == 900 &&
             (unsigned long long)same(p) == a;
    std::printf("%d\\n", ok);
}
""")
    subprocess.run(["g++", "-o", str(tmp_path / "vm"), str(c)], check=True)
    assert subprocess.run([str(tmp_path / "vm")], capture_output=True, text=True).stdout.strip() == "1"


def test_the_port_compiles_with_hipcc(tmp_path):
    require_tool("hipcc")
    f = tmp_path / "vm.hip"
    f.write_text(_port())
    assert_hip_file_compiles(f, ["gfx90a"])
