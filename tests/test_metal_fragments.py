"""A `.cu` file another file includes, which does not stand alone, in a Metal port (metal/hostcode.py
`ported_by_includer`): rodinia b+tree's kernel_gpu_cuda.cu uses the `knode` its wrapper's earlier include
defines; HeCBench radixsort's RadixSort_kernels.cu the `CTA_SIZE` RadixSort.cu defines before including
it.  Its port is the includer's (which splices it), so it gets none of its own: KP228, a warning at line
1 naming the includer, in place of the refusals (KP223) or checker errors (KP224) of the fragment alone."""
from __future__ import annotations

import subprocess
import sys

COMMON = "typedef struct knode { int keys[4]; } knode;\n"
FRAGMENT = """__global__ void findK(knode* nodes, int* out)
{
    out[threadIdx.x] = nodes[blockIdx.x].keys[threadIdx.x % 4];
}
"""
WRAPPER = """#include <stdio.h>
#include "common.h"
#include "./kernel.cu"
void run(knode* n, int* o) { findK<<<1, 4>>>(n, o); }
"""


def _translate(cwd, name: str):
    return subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", name, "--to", "metal", "-o", "out"],
                          capture_output=True, text=True, cwd=cwd, timeout=180)


def test_a_fragment_an_includer_completes_is_ported_where_it_is_included(tmp_path):
    (tmp_path / "common.h").write_text(COMMON)
    (tmp_path / "kernel.cu").write_text(FRAGMENT)
    (tmp_path / "wrapper.cu").write_text(WRAPPER)
    r = _translate(tmp_path, "kernel.cu")
    assert r.returncode == 0, r.stderr
    assert "kernel.cu:1:1: warning: KP228 no Metal port of its own: the file is included by wrapper.cu (line 3), " \
           "and the Metal port of a source that includes it splices it there, with what comes before it; on its " \
           "own it is refused (KP223 at line 1: 'knode' is defined neither" in r.stderr, r.stderr
    assert "error" not in r.stderr and not (tmp_path / "out" / "kernel.metal").exists()
    r = _translate(tmp_path, "wrapper.cu")  # the includer's port has the fragment's kernel, spliced
    assert r.returncode == 0, r.stderr
    port = (tmp_path / "out" / "wrapper.metal").read_text()
    assert '// ---- "./kernel.cu", spliced: device code needs it ----' in port and "kernel void findK" in port


def test_look_alikes_a_fragment_that_stands_alone_and_a_file_no_one_includes(tmp_path):
    # included, but needs nothing of its includer: its own port is written (and passes)
    (tmp_path / "common.h").write_text(COMMON)
    (tmp_path / "kernel.cu").write_text("struct knode { int keys[4]; };\n" + FRAGMENT)
    (tmp_path / "wrapper.cu").write_text(WRAPPER.replace('#include "common.h"\n', ""))
    r = _translate(tmp_path, "kernel.cu")
    assert r.returncode == 0 and "KP228" not in r.stderr, r.stderr
    assert "kernel void findK" in (tmp_path / "out" / "kernel.metal").read_text()
    # no one includes it: what it lacks stays a refusal at its line
    (tmp_path / "alone").mkdir()
    (tmp_path / "alone" / "kernel.cu").write_text(FRAGMENT)
    r = _translate(tmp_path / "alone", "kernel.cu")
    assert r.returncode != 0 and "kernel.cu:1:" in r.stderr and "KP223 'knode' is defined neither" in r.stderr
    assert "KP228" not in r.stderr


def test_a_fragments_template_kernel_refused_while_rendering_is_its_includers_too(tmp_path):
    # gpu4pyscf g3c2e_ipip1.cu: a template kernel whose instances its includer's code makes (KP216 is
    # raised while the port is rendered, after the passes): one KP228, no error, nothing written
    (tmp_path / "common.h").write_text(COMMON)
    (tmp_path / "kernel.cu").write_text("template <int N>\n" + FRAGMENT.replace("% 4", "% N"))
    (tmp_path / "wrapper.cu").write_text(WRAPPER.replace("findK<<<", "findK<4><<<"))
    r = _translate(tmp_path, "kernel.cu")
    assert r.returncode == 0 and r.stderr.count("KP228") == 1 and "error" not in r.stderr, r.stderr
    assert not (tmp_path / "out" / "kernel.metal").exists()
