"""A host-only `operator<` that a thrust algorithm compares with in device code is refused on HIP (KP241,
kernelport/device_less_operators.py; issue 11, heldout59's BPS-HDBSCAN kernel.cu).

`thrust::binary_search(thrust::seq, arr, arr + n, key)` / `thrust::lower_bound(...)` in a `__device__` function
compare the elements through `thrust::less`, a `__host__ __device__` template under thrust's exec-check pragma: nvcc
accepts a class's plain `bool operator<(...) const` there but builds no comparison (measured with nvcc 13 -ptx:
binary_search is `first != last`, lower_bound `first`), clang refuses it; a port writing `__host__ __device__` would
search where the original's build does not, so the port is refused at the operator, naming the call.  Ported: an
operator the source writes `__host__ __device__` (nvcc compiles it), a `constexpr` one (`__host__ __device__` written:
nvcc's build compares with it under --expt-relaxed-constexpr); the compile test stands a small `__host__ __device__`
binary_search (what rocThrust's is) in for rocThrust, absent from Debian's ROCm.  Look-alikes kept as written: the
same call in host code, with a comparator, a class the file does not define."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from port_support import port_text

SRC = """#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <stdint.h>
struct gridCellLookup {
unsigned int idx;
uint64_t gridLinearID;
  bool operator<(const gridCellLookup & other) const
  {
    return gridLinearID < other.gridLinearID;
  }
};
struct hostKey { int v; bool operator<(const hostKey &o) const { return v < o.v; } };
struct byCmp { int v; bool operator<(const byCmp &o) const { return v < o.v; } };
struct both { int v; __host__ __device__ bool operator<(const both &o) const { return v < o.v; } };
struct cmp { __host__ __device__ bool operator()(const byCmp &a, const byCmp &b) const { return a.v > b.v; } };
__device__ unsigned find(struct gridCellLookup *arr, unsigned *n, uint64_t id, byCmp *c, both *b) {
    struct gridCellLookup tmp;
    tmp.gridLinearID = id;
    unsigned r = thrust::binary_search(thrust::seq, c, c + 4, c[0], cmp()) + thrust::binary_search(thrust::seq, b, b + 4, b[0]);
    if (thrust::binary_search(thrust::seq, arr, arr + (*n), gridCellLookup(tmp))) {
        struct gridCellLookup *res = thrust::lower_bound(thrust::seq, arr, arr + (*n), gridCellLookup(tmp));
        return r + res->idx;
    }
    return r;
}
__global__ void k(gridCellLookup *a, unsigned *n, unsigned *out, byCmp *c, both *b) {
    out[threadIdx.x] = find(a, n, threadIdx.x, c, b);
}
bool on_host(hostKey *h, int n, hostKey x) { return thrust::binary_search(thrust::seq, h, h + n, x); }
"""

# what rocThrust's binary_search / lower_bound are to clang: __host__ __device__ templates comparing with operator<
STAND_IN = """#pragma once
namespace thrust {
struct seq_t {};
static constexpr seq_t seq{};
template <class P, class It, class T> __host__ __device__ It lower_bound(const P &, It first, It last, const T &v) {
    while (first < last) { It mid = first + (last - first) / 2; if (*mid < v) first = mid + 1; else last = mid; }
    return first;
}
template <class P, class It, class T> __host__ __device__ bool binary_search(const P &p, It first, It last, const T &v) {
    It i = lower_bound(p, first, last, v);
    return i != last && !(v < *i);
}
template <class P, class It, class T, class C> __host__ __device__ bool binary_search(const P &, It first, It last,
                                                                                      const T &v, C c) {
    for (; first != last; ++first) if (!c(*first, v) && !c(v, *first)) return true;
    return false;
}
}
"""


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines()]


def _stand_in(d):
    (d / "thrust").mkdir(parents=True)
    (d / "thrust" / "binary_search.h").write_text(STAND_IN)
    (d / "thrust" / "execution_policy.h").write_text("#pragma once\n")


def _errors(port):
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]


def test_a_host_only_operator_a_device_binary_search_compares_with_is_refused_at_the_operator():
    port, _ = translate(SourceFile.from_text(SRC, "kernel.cu"), "hip")
    assert _errors(port) == [("KP241", 7, 3)], [d.format() for d in port.diagnostics]
    msg = port.diagnostics[0].message + port.diagnostics[0].hint
    assert "binary_search` in `find" in msg and "builds no comparison" in msg and "__host__ __device__" in msg


def test_a_body_that_calls_is_refused_as_well():
    src = SRC.replace("return gridLinearID < other.gridLinearID;",
                      "return key(gridLinearID) < key(other.gridLinearID);")
    src = src.replace("struct gridCellLookup {", "uint64_t key(uint64_t x);\nstruct gridCellLookup {")
    port, _ = translate(SourceFile.from_text(src, "kernel.cu"), "hip")
    assert _errors(port) == [("KP241", 8, 3)], [d.format() for d in port.diagnostics]


def test_an_operator_written_host_device_or_constexpr_ports_and_compiles(tmp_path):
    for i, spec in enumerate(("__host__ __device__ bool", "constexpr bool")):
        text = port_text(SRC.replace("  bool operator<(const gridCellLookup", f"  {spec} operator<(const gridCellLookup"),
                         "kernel.cu")
        lines = _lines(text)
        assert (f"{spec} operator<(const gridCellLookup & other) const" if i == 0 else
                "__host__ __device__ constexpr bool operator<(const gridCellLookup & other) const") in lines, text
        # the look-alikes: compared in host code only; given a comparator; already both
        assert "struct hostKey { int v; bool operator<(const hostKey &o) const { return v < o.v; } };" in lines
        assert "struct byCmp { int v; bool operator<(const byCmp &o) const { return v < o.v; } };" in lines
        d = tmp_path / str(i)
        _stand_in(d)
        hip_compiles(d, text, "kernel.hip", extra_args=("-I", d))


def test_a_class_of_another_file_is_kept_as_written():
    src = SRC.replace("struct gridCellLookup *arr", "struct notHere *arr").replace(
        "__global__ void k(gridCellLookup *a", "struct notHere;\n__global__ void k(gridCellLookup *a")
    port, text = translate(SourceFile.from_text("struct notHere;\n" + src, "kernel.cu"), "hip")
    assert "  bool operator<(const gridCellLookup & other) const" in text.splitlines()


# the class in a header the kernel's file includes (BPS-HDBSCAN's structs.h): the header's port is widened
HEADER = """#pragma once
#include <stdint.h>
struct gridCellLookup {
unsigned int idx;
uint64_t gridLinearID;
  bool operator<(const gridCellLookup & other) const
  {
    return gridLinearID < other.gridLinearID;
  }
};
struct hostKey { int v; bool operator<(const hostKey &o) const { return v < o.v; } };
"""

INCLUDER = """#include "structs.h"
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
__device__ unsigned find(struct gridCellLookup *arr, unsigned *n, uint64_t id) {
    struct gridCellLookup tmp;
    tmp.gridLinearID = id;
    if (thrust::binary_search(thrust::seq, arr, arr + (*n), gridCellLookup(tmp))) {
        struct gridCellLookup *res = thrust::lower_bound(thrust::seq, arr, arr + (*n), gridCellLookup(tmp));
        return res->idx;
    }
    return 0;
}
__global__ void k(gridCellLookup *a, unsigned *n, unsigned *out) { out[threadIdx.x] = find(a, n, threadIdx.x); }
bool on_host(hostKey *h, int n, hostKey x) { return thrust::binary_search(thrust::seq, h, h + n, x); }
"""


def _header_project(tmp_path, header=HEADER, includer=INCLUDER):
    from trust_support import kp_inproc
    d = tmp_path / "p"
    d.mkdir()
    (d / "structs.h").write_text(header)
    (d / "kernel.cu").write_text(includer)
    return kp_inproc("translate", d / "kernel.cu", "-o", tmp_path / "out")


def test_a_headers_host_only_operator_is_refused_in_the_header_naming_the_includers_call(tmp_path):
    rc, _, err = _header_project(tmp_path)
    assert rc == 1 and "structs.h:6:3: error: KP241" in err and "(kernel.cu:7)" in err, err


def test_a_headers_constexpr_operator_is_widened_in_the_headers_port(tmp_path):
    rc, _, err = _header_project(tmp_path, header=HEADER.replace("  bool operator<", "  constexpr bool operator<"))
    out = tmp_path / "out"
    assert rc == 0 and (out / "structs.hip.h").is_file(), err
    lines = _lines((out / "structs.hip.h").read_text())
    assert "__host__ __device__ constexpr bool operator<(const gridCellLookup & other) const" in lines, lines
    # the look-alike in the same header: compared in host code only, kept as written
    assert "struct hostKey { int v; bool operator<(const hostKey &o) const { return v < o.v; } };" in lines, lines
    assert '#include "structs.hip.h"' in (out / "kernel.hip").read_text()
    stand = tmp_path / "stand"
    _stand_in(stand)
    from conftest import assert_hip_file_compiles
    assert_hip_file_compiles(out / "kernel.hip", extra_args=(f"-I{stand}", f"-I{out}"))


def test_a_headers_operator_compared_only_on_the_host_leaves_the_header_alone(tmp_path):
    rc, _, err = _header_project(tmp_path, includer=INCLUDER.replace("__device__ unsigned find", "unsigned find")
                                 .replace("out[threadIdx.x] = find(a, n, threadIdx.x);", "out[threadIdx.x] = 0;"))
    assert rc == 0 and not (tmp_path / "out" / "structs.hip.h").exists(), err


def test_a_headers_operator_whose_body_calls_is_refused_in_the_header(tmp_path):
    header = HEADER.replace("return gridLinearID < other.gridLinearID;",
                            "return key(gridLinearID) < key(other.gridLinearID);").replace(
        "struct gridCellLookup {", "uint64_t key(uint64_t x);\nstruct gridCellLookup {")
    rc, _, err = _header_project(tmp_path, header=header)
    assert rc == 1 and "structs.h:7:3: error: KP241" in err and "(kernel.cu:7)" in err, err
