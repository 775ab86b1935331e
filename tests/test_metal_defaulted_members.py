"""An out-of-class defaulted or deleted member (`Manager::~Manager() = default;`) in a Metal port
(backends/metal/defaulted_members.py; heldout83's rcs-sim GeometryManager.cu): the grammar reads it as
an assignment statement, so the port kept it after leaving the host class out, and the checker refused
the port (KP224, `use of undeclared identifier 'Manager'`).  It goes with its class; the look-alike, a
member of a struct device code uses, stays."""
from __future__ import annotations

from trust_support import kp_inproc

HOST = """#include <memory>
class Manager {
public:
  Manager();
  ~Manager();
  void run(float* d, int n);
private:
  int calls_;
};
__global__ void twice(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= 2.0f;
}
Manager::Manager() { calls_ = 0; }
Manager::~Manager() = default;
void Manager::run(float* d, int n) { twice<<<(n + 255) / 256, 256>>>(d, n); ++calls_; }
"""

DEVICE = """struct Acc {
  float v;
  Acc();
};
Acc::Acc() = default;
__global__ void sum(const float* d, float* out, int n) {
  Acc a;
  a.v = 0.0f;
  for (int i = 0; i < n; ++i) a.v += d[i];
  out[0] = a.v;
}
"""


def _port(tmp_path, text: str) -> str:
    src = tmp_path / "k.cu"
    src.write_text(text)
    rc, out, err = kp_inproc("translate", src, "--to", "metal", "-o", tmp_path / "out")
    assert rc == 0, out + err
    return (tmp_path / "out" / "k.metal").read_text()


def test_a_defaulted_member_of_a_host_class_leaves_the_metal_port_with_its_class(tmp_path):
    text = _port(tmp_path, HOST)
    assert "Manager::~Manager() = default;" not in text and "kernel void twice" in text, text
    assert "/* Manager::~Manager() = default: a member of Manager, used by host code only" in text, text


def test_a_defaulted_member_of_a_struct_device_code_uses_stays(tmp_path):
    text = _port(tmp_path, DEVICE)
    assert "Acc::Acc() = default;" in text and "struct Acc" in text, text
