"""A host-only file of a separately compiled build (`-rdc=true`) declares device data another file defines
(`extern __device__ float3 buf[N];`, held-out set 72's printFunctions.cu): it has no Metal port (KP227), and
the checker, which still reads the empty port, is no reason to refuse it at those lines (main: KP224,
unknown type name '__device__'; kernelport/backends/metal/hostcode.py, _extern_declaration)."""
from __future__ import annotations

import subprocess
import sys

HOST = ("#include <stdio.h>\n#define N 64\n{decl}\n"
        "void dump(const float* h, int n) {{ for (int i = 0; i < n; i++) printf(\"%f\\n\", h[i]); }}\n")


def _metal(tmp_path, decl: str) -> subprocess.CompletedProcess:
    (tmp_path / "print.cu").write_text(HOST.format(decl=decl))
    return subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "print.cu"), "--to",
                           "metal", "-o", str(tmp_path / "out")], capture_output=True, text=True)


def test_extern_device_data_of_a_host_only_file_is_no_refusal(tmp_path):
    run = _metal(tmp_path, "extern __device__ float dev_data[N];\nextern __device__ int dev_count;")
    assert run.returncode == 0, run.stderr
    assert "KP227" in run.stderr and "KP224" not in run.stderr, run.stderr
    assert not (tmp_path / "out" / "print.metal").exists()


def test_a_kernel_reading_the_extern_data_stays_refused(tmp_path):
    """The look-alike: where the file's own kernel reads the data another file defines, the port would hold
    it; that stays refused, located at the declaration (the file has device code: no empty port)."""
    run = _metal(tmp_path, "extern __device__ float dev_data[N];\n"
                 "__global__ void k(float* o) { o[threadIdx.x] = dev_data[threadIdx.x]; }")
    assert "print.cu:3:" in run.stderr and "KP224" in run.stderr and "KP227" not in run.stderr, run.stderr
    assert not (tmp_path / "out" / "print.metal").exists()
