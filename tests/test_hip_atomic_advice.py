"""libcu++'s <cuda/atomic> in a HIP port: KP209 at the include, whose hint spells each atomic_ref access as clang's
HIP builtin of the same order and scope (backends/hip.py's header_advice; heldout80's mcgs prototype)."""
from __future__ import annotations

import re
import textwrap

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

CODE = """
#include <cuda/atomic>

__device__ int load_acquire(int* value) {
  cuda::atomic_ref<int, cuda::thread_scope_device> publication(*value);
  return publication.load(cuda::memory_order_acquire);
}
"""
ADVICE = backends.get("hip").header_advice["cuda/atomic"]


def test_the_include_is_refused_where_it_is_with_what_to_write_instead():
    p = translate(SourceFile.from_text(textwrap.dedent(CODE), "t.cu"), "hip")[0]
    got = [d for d in p.diagnostics if d.code == "KP209"]
    assert not p.ok and [d.line for d in got] == [2] and got[0].hint == ADVICE, [d.format() for d in p.diagnostics]
    other = translate(SourceFile.from_text("#include <cuda/barrier>\n", "u.cu"), "hip")[0]  # no advice: the default
    assert all("__hip_atomic" not in d.hint for d in other.diagnostics)


def test_hipcc_compiles_every_spelling_the_advice_gives(tmp_path):
    require_tool("hipcc")
    spelled = re.findall(r"-> `(__hip_atomic_\w+\([^`]*\))`", ADVICE)
    assert len(spelled) == 4, ADVICE
    body = "\n".join(f"  (void){s.replace('__ATOMIC_<o>', '__ATOMIC_RELAXED')};" for s in spelled)
    scopes = "\n".join(f"  (void)__hip_atomic_load(&x, __ATOMIC_ACQUIRE, {s});"
                       for s in sorted(set(re.findall(r"__HIP_MEMORY_SCOPE_\w+", ADVICE))))
    path = tmp_path / "advice.hip"
    path.write_text("#include <hip/hip_runtime.h>\n__global__ void k(int* p, int v, int d) {\n  int& x = *p;\n  int e = 0;\n"
                    f"{body}\n{scopes}\n}}\n")
    assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))
