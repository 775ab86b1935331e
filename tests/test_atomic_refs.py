"""libcu++'s cuda::atomic_ref as HIP's atomic builtins, each access of its own order and scope
(kernelport/atomic_refs.py): heldout80's mcgs prototype, refused KP209 at `#include <cuda/atomic>` on main."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport import backends
from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

CODE = """
#include <cuda/atomic>

__device__ int load_acquire(int* value) {
  cuda::atomic_ref<int, cuda::thread_scope_device> publication(*value);
  return publication.load(cuda::memory_order_acquire);
}

__device__ void store_release(int* value, int desired) {
  cuda::atomic_ref<int, cuda::thread_scope_device> publication(*value);
  publication.store(desired, cuda::memory_order_release);
}

__global__ void claim(int* flags, int* owner, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> slot(flags[i % 8]);
  int expected = 0;
  if (slot.compare_exchange_strong(
          expected, 1,
          cuda::memory_order_acq_rel,
          cuda::memory_order_acquire)) {
    owner[i % 8] = i;
    store_release(&flags[i % 8], 2);
  }
  cuda::atomic_ref<int, cuda::thread_scope_block> total(*count);
  total.fetch_add(load_acquire(&flags[i % 8]) == 2 ? 1 : 0, cuda::memory_order_relaxed);
}
"""


def port(code: str, to: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), to)


def kp209_lines(p) -> list[int]:
    return sorted(d.line for d in p.diagnostics if d.code == "KP209")


def test_each_access_is_the_builtin_of_its_own_order_and_scope_on_the_same_lines():
    p, _ = port(CODE)
    assert p.ok, [d.format() for d in p.diagnostics]
    for spelled in ("int* const publication = &(*value);",
                    "return __hip_atomic_load(publication, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);",
                    "__hip_atomic_store(publication, desired, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);",
                    "int* const slot = &(flags[i % 8]);",  # (the grammar reads `slot(flags[i % 8])` as a function)
                    "__ATOMIC_ACQ_REL,\n          __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT)",
                    "__hip_atomic_fetch_add(total, load_acquire(&flags[i % 8]) == 2 ? 1 : 0, __ATOMIC_RELAXED, "
                    "__HIP_MEMORY_SCOPE_WORKGROUP);"):
        assert spelled in p.body, spelled
    assert "cuda/atomic" not in p.body and p.body.count("\n") == textwrap.dedent(CODE).count("\n")
    one = CODE.replace("cuda::memory_order_acq_rel,\n          cuda::memory_order_acquire", "cuda::memory_order_acq_rel")
    assert "__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT" in port(one)[0].body  # C++'s failure order
    bare = CODE.replace("publication.load(cuda::memory_order_acquire)", "publication.load()")
    assert "__hip_atomic_load(publication, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_AGENT)" in port(bare)[0].body


def test_the_emulator_runs_the_port_at_both_widths():
    _, text = port(CODE + "\nint main() { int *f, *o, *c; cudaMalloc(&f, 32); cudaMalloc(&o, 32); cudaMalloc(&c, 4);"
                   " claim<<<2, 128>>>(f, o, c, 256); }\n")
    for wave in (32, 64):
        flags, owner, count = np.zeros(8, np.int32), np.full(8, -1, np.int32), np.zeros(1, np.int32)
        r = run_kernel(text, "claim", args={"flags": flags, "owner": owner, "count": count, "n": 256}, grid=(2,),
                       block=(128,), wave=wave, backend="hip")
        assert r.outputs["flags"].tolist() == [2] * 8 and r.outputs["owner"].tolist() == list(range(8)), wave
        assert 8 <= r.outputs["count"][0] <= 256, wave


def test_hipcc_compiles_the_port_for_both_wave_widths(tmp_path):
    require_tool("hipcc")
    p, text = port(CODE)
    assert p.ok
    path = tmp_path / "t.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))


def test_what_the_port_does_not_spell_is_refused_at_its_line_and_the_include_with_it():
    line = CODE.count("\n", 0, CODE.index("  return publication.load")) + 1
    for wrong in (CODE.replace("cuda::memory_order_acquire);", "cuda::memory_order_consume);"),  # an order
                  CODE.replace("publication.load(cuda::memory_order_acquire)", "publication.exchange(0)"),  # a member
                  CODE.replace("publication.load(cuda::memory_order_acquire)", "publication.load(order_of(value))"),
                  CODE.replace("return publication.load(cuda::memory_order_acquire);",
                               "return peek(publication);")):  # a use other than a member's call
        p, _ = port(wrong)
        assert kp209_lines(p) == [2, line], ([d.format() for d in p.diagnostics], wrong)
    scope = CODE.replace("cuda::atomic_ref<int, cuda::thread_scope_device> publication(*value);\n  return",
                         "cuda::atomic_ref<int, cuda::thread_scope_thread> publication(*value);\n  return")
    assert kp209_lines(port(scope)[0]) == [2, line - 1]  # a scope: at the declaration
    other = CODE.replace("__device__ int load_acquire", "__device__ cuda::atomic<int> counter;\n__device__ int load_acquire")
    assert kp209_lines(port(other)[0]) == [2]  # another name of the header: the include stays refused
    assert not port(CODE, "metal")[0].ok  # Metal spells no atomic_ref: refused as before (KP223 at its first use)
