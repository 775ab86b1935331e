"""kernelport.backends.metal.check: hand-written MSL kernels that Metal accepts pass; deliberately broken
ones fail with the right line.  Lines marked `// ERROR` are where an error must be reported."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.backends.metal import check as metal_check
from kernelport.backends.metal.check import Diagnostic, check_metal_file, check_metal_source, preprocess

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

PROLOGUE = "#include <metal_stdlib>\nusing namespace metal;\n\n"


def msl(body: str) -> str:
    return PROLOGUE + textwrap.dedent(body)


@pytest.fixture(autouse=True)
def _clang():
    require_tool("clang")


def check(src: str, name: str = "port.metal") -> list[Diagnostic]:
    return check_metal_source(src, name)


def marked_lines(src: str) -> list[int]:
    return [i for i, line in enumerate(src.splitlines(), 1) if "// ERROR" in line]


def assert_clean(src: str):
    diags = check(src)
    assert diags == [], "\n".join(str(d) for d in diags)


def assert_rejected(src: str, *needles: str):
    diags = check(src)
    lines = marked_lines(src)
    assert lines, "test source has no // ERROR marker"
    assert {d.line for d in diags} == set(lines), "\n".join(str(d) for d in diags)
    text = " | ".join(d.message for d in diags)
    for needle in needles:
        assert needle in text, text
    return diags


# ---------------------------------------------------------------------------------------------
# correct kernels
# ---------------------------------------------------------------------------------------------
VECTOR_ADD = msl(
    """\
    kernel void vector_add(const device float* a [[buffer(0)]],
                           const device float* b [[buffer(1)]],
                           device float* c [[buffer(2)]],
                           constant uint& n [[buffer(3)]],
                           uint3 gid [[thread_position_in_grid]]) {
        uint i = gid.x;
        if (i < n) c[i] = a[i] + b[i];
    }
    """
)

THREADGROUP_REDUCTION = msl(
    """\
    [[max_total_threads_per_threadgroup(256)]]
    kernel void block_sum(const device float* x [[buffer(0)]],
                          device float* partial [[buffer(1)]],
                          constant uint& n [[buffer(2)]],
                          uint3 tid3 [[thread_position_in_threadgroup]],
                          uint3 bid [[threadgroup_position_in_grid]],
                          uint3 bdim [[threads_per_threadgroup]]) {
        threadgroup float s[256];
        uint tid = tid3.x;
        uint i = bid.x * bdim.x + tid;
        s[tid] = i < n ? x[i] : 0.0f;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint stride = bdim.x / 2; stride > 0; stride >>= 1) {
            if (tid < stride) s[tid] += s[tid + stride];
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (tid == 0) partial[bid.x] = s[0];
        threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
    }
    """
)

SIMD_REDUCTION = msl(
    """\
    kernel void warp_reduce(const device float* x [[buffer(0)]],
                            device float* out [[buffer(1)]],
                            device ulong* votes [[buffer(2)]],
                            uint gid [[thread_position_in_grid]],
                            uint lane [[thread_index_in_simdgroup]],
                            ushort sg [[simdgroup_index_in_threadgroup]],
                            uint width [[threads_per_simdgroup]]) {
        float v = x[gid];
        for (uint offset = width / 2; offset > 0; offset >>= 1)
            v += simd_shuffle_down(v, offset);
        v = max(v, simd_shuffle_xor(v, 1)) + simd_sum(v) + simd_broadcast(v, 0);
        simd_vote vote = simd_ballot(v > 0.0f);
        ulong bits = static_cast<simd_vote::vote_t>(vote);
        uint low = uint((simd_vote::vote_t)simd_ballot(simd_any(v > 1.0f)));
        simdgroup_barrier(mem_flags::mem_none);
        if (lane == 0) {
            out[gid / width] = v + fast::exp(v) + precise::exp(v) + fast::divide(v, 3.0f);
            votes[sg] = bits + popcount(bits) + ctz(low) + (vote.all() ? 1 : 0);
        }
    }
    """
)

DEVICE_FLOAT_ATOMIC = msl(
    """\
    kernel void histogram(const device float* x [[buffer(0)]],
                          device atomic_float* total [[buffer(1)]],
                          device float* raw [[buffer(2)]],
                          device atomic_uint* count [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
        atomic_fetch_add_explicit(total, x[i], memory_order_relaxed);
        atomic_fetch_add_explicit((device atomic_float*)&raw[i % 4], 1.0f, memory_order_relaxed);
        uint old = atomic_fetch_add_explicit(count, 1u, memory_order::memory_order_relaxed);
        float seen = atomic_load_explicit(total, memory_order_relaxed);
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        raw[4] = seen + float(old);
    }
    """
)

DYNAMIC_THREADGROUP = msl(
    """\
    kernel void scan(const device float* x [[buffer(0)]],
                     device float* y [[buffer(1)]],
                     threadgroup float* s [[threadgroup(0)]],
                     threadgroup atomic_int* flags [[threadgroup(1)]],
                     uint tid [[thread_index_in_threadgroup]],
                     uint gid [[thread_position_in_grid]]) {
        s[tid] = x[gid];
        atomic_fetch_add_explicit(flags, 1, memory_order_relaxed);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        y[gid] = s[tid] + (tid > 0 ? s[tid - 1] : 0.0f);
    }
    """
)

HELPER_TAKES_THREADGROUP = msl(
    """\
    static inline float tree_sum(threadgroup float* s, uint tid, uint n) {
        for (uint stride = n / 2; stride > 0; stride >>= 1) {
            if (tid < stride) s[tid] += s[tid + stride];
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        return s[0];
    }

    kernel void reduce(const device half* x [[buffer(0)]],
                       device float* out [[buffer(1)]],
                       ushort tid [[thread_position_in_threadgroup]],
                       uint2 gid [[thread_position_in_grid]]) {
        threadgroup float tile[128];
        tile[tid] = float(x[gid.x]) * 0.5;   // unsuffixed literal: single precision in Metal
        threadgroup_barrier(mem_flags::mem_threadgroup);
        float4 v = float4(tile[0], tile[1], 2, 3.0f);
        float4 w = float4(v.xy, v.zw) + float4(int4(1, 2, 3, 4)) + float4(1.0f);
        half2 h = half2(w.xy);
        float r = tree_sum(tile, tid, 128) + dot(v, w) + clamp(v.x, 0.0f, 1.0f) + float(h.x);
        if (tid == 0) out[gid.y] = r + as_type<float>(0x3f800000u) + M_PI_F;
    }
    """
)

CORRECT = {
    "vector_add": VECTOR_ADD,
    "threadgroup_reduction": THREADGROUP_REDUCTION,
    "simd_shuffle_reduction": SIMD_REDUCTION,
    "device_float_atomic": DEVICE_FLOAT_ATOMIC,
    "dynamic_threadgroup_memory": DYNAMIC_THREADGROUP,
    "helper_takes_threadgroup_pointer": HELPER_TAKES_THREADGROUP,
}


@pytest.mark.parametrize("src", CORRECT.values(), ids=CORRECT.keys())
def test_correct_kernels_pass(src):
    assert_clean(src)


def test_host_name_kernel_attribute_and_comments_are_accepted():
    assert_clean(msl(
        """\
        // [[not_an_attribute]] in a comment is ignored, and so is "[[this]]"
        [[host_name("vadd_f32")]] kernel void vadd(device float* c [[ buffer(0) ]],
                                                   uint i [[thread_position_in_grid]]) {
            [[maybe_unused]] int unused = 0;
            c[i] = 1.0f;
        }
        [[kernel]] void other(device float* c [[buffer(0)]]) { c[0] = 0.0f; }
        """
    ))


# ---------------------------------------------------------------------------------------------
# broken kernels
# ---------------------------------------------------------------------------------------------
def test_pointer_parameter_without_address_space():
    assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]],
                      float* b [[buffer(1)]],                     // ERROR
                      uint i [[thread_position_in_grid]]) {
            a[i] = b[i];
        }
        """
    ), "without an address space")


def test_double_is_an_error():
    diags = assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            double acc = a[i];                                     // ERROR
            a[i] = acc;
        }
        """
    ), "Metal has no 'double'")
    assert diags[0].column == 5


def test_float_atomic_on_threadgroup_memory():
    assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]],
                      threadgroup float* s [[threadgroup(0)]],
                      uint i [[thread_position_in_grid]]) {
            threadgroup atomic_float total;
            atomic_fetch_add_explicit(&total, a[i], memory_order_relaxed);                          // ERROR
            atomic_fetch_add_explicit((threadgroup atomic_float*)s, a[i], memory_order_relaxed);    // ERROR
        }
        """
    ), "no atomic float operations on threadgroup memory")


def test_simd_sum_on_long():
    assert_rejected(msl(
        """\
        kernel void k(device long* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            long v = a[i];
            a[i] = simd_sum(v);                                    // ERROR
            a[i] += simd_shuffle_down(a[i], 1);                    // ERROR
        }
        """
    ), "'simd_sum' is unavailable", "64-bit")


def test_device_pointer_passed_to_threadgroup_helper():
    assert_rejected(msl(
        """\
        inline float first(threadgroup float* s) { return s[0]; }

        kernel void k(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            a[i] = first(a);                                       // ERROR
        }
        """
    ), "address space 'device'", "'threadgroup'")


def test_duplicate_buffer_index():
    assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]],
                      device float* b [[buffer(0)]],               // ERROR
                      uint i [[thread_position_in_grid]]) {
            a[i] = b[i];
        }
        """
    ), "duplicate [[buffer(0)]]", "'a'")


def test_same_index_in_two_kernels_is_fine():
    assert_clean(msl(
        """\
        kernel void k1(device float* a [[buffer(0)]]) { a[0] = 1.0f; }
        kernel void k2(device float* b [[buffer(0)]], threadgroup float* s [[threadgroup(0)]]) { b[0] = s[0]; }
        """
    ))


def test_unknown_attribute():
    assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]],
                      uint i [[thread_position_in_warp]]) {        // ERROR
            a[i] = 0.0f;
        }
        """
    ), "unknown attribute [[thread_position_in_warp]]")


def test_wrong_builtin_attribute_type():
    src = msl(
        """\
        kernel void k(device float* a [[buffer(0)]],
                      float tid [[thread_position_in_threadgroup]],  // ERROR
                      uint3 lane [[thread_index_in_simdgroup]]) {    // ERROR
            a[0] = tid + lane.x;
        }
        """
    )
    diags = assert_rejected(src, "requires type uint/ushort/uint2/ushort2/uint3/ushort3, not 'float'",
                            "requires type uint/ushort, not 'uint3'")
    line = src.splitlines()[diags[0].line - 1]
    assert diags[0].column == line.index("thread_position_in_threadgroup") + 1


def test_implicit_ballot_to_integer():
    assert_rejected(msl(
        """\
        kernel void k(device uint* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            uint mask = simd_ballot(i < 7);                          // ERROR
            a[i] = mask;
        }
        """
    ), "simd_vote converts only explicitly")


def test_threadgroup_array_in_helper():
    assert_rejected(msl(
        """\
        inline void helper() {
            threadgroup float scratch[32];                           // ERROR
            scratch[0] = 0.0f;
        }
        kernel void k(device float* a [[buffer(0)]]) { helper(); }
        """
    ), "kernel function scope")


def test_parameter_attribute_mismatches():
    assert_rejected(msl(
        """\
        kernel void k(device float* a,                               // ERROR
                      threadgroup float* s [[buffer(1)]],            // ERROR
                      device float* b [[threadgroup(0)]],            // ERROR
                      uint n,                                        // ERROR
                      uint i [[thread_position_in_grid, buffer(2)]]) {   // ERROR
            a[i] = s[i] + b[n];
        }
        """
    ), "needs a [[buffer(i)]]", "needs a device or constant pointer", "needs a threadgroup pointer",
        "has no attribute", "cannot be both a built-in input")


def test_attribute_argument_checks():
    assert_rejected(msl(
        """\
        [[max_total_threads_per_threadgroup(4096)]]                 // ERROR
        kernel void k(device float* a [[buffer(31)]],                 // ERROR
                      uint i [[thread_position_in_grid(0)]]) {        // ERROR
            a[i] = 0.0f;
        }
        """
    ), "must be 1..1024", "index out of range", "takes no argument")


def test_program_scope_variables_must_be_constant():
    assert_rejected(msl(
        """\
        constant float kTable[2] = {1.0f, 2.0f};
        constant bool kFast [[function_constant(0)]];
        device int counter;                                           // ERROR
        kernel void k(device float* a [[buffer(0)]]) {
            static float s = 0.0f;                                    // ERROR
            a[0] = kTable[1] + s + (kFast ? 1.0f : 0.0f) + counter;
        }
        """
    ), "program-scope variables must be in the constant address space", "static variables")


def test_long_long_and_float_atomic_max():
    assert_rejected(msl(
        """\
        kernel void k(device float* a [[buffer(0)]]) {
            long long big = 1;                                        // ERROR
            atomic_fetch_max_explicit((device atomic_float*)a, 1.0f, memory_order_relaxed);   // ERROR
        }
        """
    ), "no 'long long'", "atomic_float supports only")


# ---------------------------------------------------------------------------------------------
# plumbing
# ---------------------------------------------------------------------------------------------
def test_preprocess_keeps_every_line_and_byte_column():
    src = HELPER_TAKES_THREADGROUP + '// ünïcödé [[buffer(0)]] in a comment\n'
    out, diags = preprocess(src)
    assert diags == []
    assert "[[" not in out.replace("[[buffer(0)]] in a comment", "")
    assert "#include" not in out
    a, b = src.splitlines(), out.splitlines()
    assert len(a) == len(b)
    assert [len(x.encode()) for x in a] == [len(x.encode()) for x in b]


def test_positions_after_non_ascii_text_are_in_characters(tmp_path):
    src = msl(
        """\
        kernel void k(device float* a [[buffer(0)]]) {
            /* ≈ */ double d = 1;                                     // ERROR
        }
        """
    )
    path = tmp_path / "ü.metal"
    path.write_text(src, encoding="utf-8")
    diags = check_metal_file(path)
    assert [(d.path, d.line, d.column) for d in diags] == [(str(path), 5, 13)]
    assert str(diags[0]).startswith(f"{path}:5:13: error: ")


def test_local_includes_resolve_next_to_the_file(tmp_path):
    (tmp_path / "common.h").write_text("inline float twice(float x) { return 2.0f * x; }\n")
    path = tmp_path / "k.metal"
    path.write_text(PROLOGUE + '#include "common.h"\n'
                    "kernel void k(device float* a [[buffer(0)]]) { a[0] = twice(a[0]); }\n")
    assert check_metal_file(path) == []


def test_report_carries_the_command_and_warnings_are_opt_in():
    report = metal_check.run_check(VECTOR_ADD, "v.metal", include_warnings=True)
    assert report.ok and report.returncode == 0
    assert "-x" in report.command and "clcpp" in report.command
    # the header, precompiled where PCHs are on (backends/metal/check/stdlib_pch.py), else read whole
    cmd = report.command
    assert (cmd[cmd.index("-include-pch") + 1].endswith(".pch") if "-include-pch" in cmd
            else cmd[cmd.index("-include") + 1] == str(metal_check.HEADER_PATH))


def test_missing_clang_raises_a_clear_error(monkeypatch):
    from kernelport import toolchains

    monkeypatch.setattr(toolchains, "find_clang", lambda: None)
    with pytest.raises(metal_check.MetalCheckUnavailable, match="apt-get install clang-15"):
        check_metal_source(VECTOR_ADD)


# ---------------------------------------------------------------------------------------------
# template kernels: checked through their explicit instantiations
# ---------------------------------------------------------------------------------------------
TEMPLATE_KERNEL = msl(
    """\
    template <typename T, int N = 4>
    kernel void scale(device T* x [[buffer(0)]], constant T& a [[buffer(1)]],
                      uint i [[thread_position_in_grid]])
    {
        threadgroup T tile[N];
        tile[i % N] = x[i] * a;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        x[i] = tile[(i + 1) % N];
    }
    template [[host_name("scale_f")]] kernel void scale<float>(device float* x [[buffer(0)]],
                                                             constant float& a [[buffer(1)]],
                                                             uint i [[thread_position_in_grid]]);
    template [[host_name("scale_i8")]] kernel void scale<int, 8>(device int* x [[buffer(0)]], constant int& a [[buffer(1)]], uint i [[thread_position_in_grid]]);
    kernel void after(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
        y[i] = 2.0f;
    }
    """
)


def test_template_kernel_is_checked_per_instantiation():
    assert_clean(TEMPLATE_KERNEL)
    out, diags = preprocess(TEMPLATE_KERNEL)
    assert diags == [] and "kernel void scale_f(" in out and "kernel void scale_i8(" in out
    assert "threadgroup int tile[8];" in out and "threadgroup float tile[4];" in out  # N's default for scale_f
    assert "template" not in out.split("using namespace metal;")[1]
    report = metal_check.run_check(TEMPLATE_KERNEL, "t.metal")
    assert report.ok and report.returncode == 0


def test_errors_in_a_template_kernel_point_at_its_lines_once():
    src = TEMPLATE_KERNEL.replace("tile[i % N] = x[i] * a;", "double d = a;  tile[i % N] = x[i] * a;  // ERROR")
    diags = assert_rejected(src, "Metal has no 'double'")
    assert len(diags) == 1 and diags[0].column == 5
    assert any("scale_f" in n for n in diags[0].notes) and any("scale_i8" in n for n in diags[0].notes)
    # an error after the instantiations is still at its own line
    src = TEMPLATE_KERNEL.replace("y[i] = 2.0f;", "y[i] = 2.0;  double z = 1;  // ERROR")
    assert_rejected(src, "Metal has no 'double'")


def test_error_that_only_an_instantiation_has():
    assert_rejected(msl(
        """\
        template <typename T>
        kernel void red(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            x[i] = simd_sum(x[i]);                                 // ERROR
        }
        template [[host_name("red_f")]] kernel void red<float>(device float* x [[buffer(0)]],
                                                             uint i [[thread_position_in_grid]]);
        template [[host_name("red_l")]] kernel void red<long>(device long* x [[buffer(0)]],
                                                            uint i [[thread_position_in_grid]]);
        """
    ), "'simd_sum' is unavailable")


def test_instantiation_lines_are_checked_for_attributes():
    assert_rejected(msl(
        """\
        template <int N>
        kernel void fill(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = N; }
        template [[host_name(fill_1)]] kernel void fill<1>(device float* x [[buffer(0)]],           // ERROR
                                                         uint i [[thread_position_in_grid]]);
        template [[host_name("fill_2")]] kernel void fill<2>(
                                                           float* x [[buffer(0)]],                  // ERROR
                                                           uint i [[thread_position_in_grid]]);
        template [[host_name("fill_3")]] kernel void fill<3>(device float* x [[buffer(0)]]);        // ERROR
        template [[host_name("other_3")]] kernel void other<3>(device float* x [[buffer(0)]]);      // ERROR
        """
    ), "host_name", "without an address space", "has 1 parameters, the template kernel 2", "not a template kernel")


def test_msl_3_2_fences_are_declared():
    assert_clean(msl(
        """\
        kernel void k(device atomic_int* flag [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            atomic_store_explicit(flag, 1, memory_order_relaxed);
            atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
            atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_seq_cst, thread_scope_threadgroup);
        }
        """
    ))


def test_template_instantiation_drops_the_discarded_constexpr_branch():
    require_tool("clang")
    src = """#include <metal_stdlib>
using namespace metal;
#define WIDTH 32
template <int N>
kernel void k(device float* x [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]]) {
    if constexpr (N > WIDTH) {
        static_assert(N == 1024, "unexpected N");
        x[tid.x] = 1.0f;
    } else {
        x[tid.x] = 2.0f;
    }
}
template [[host_name("k_32")]] kernel void k<32>(device float* x [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]]);
template [[host_name("k_1024")]] kernel void k<1024>(device float* x [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]]);
"""
    assert check_metal_source(src, "t.metal") == []
    bad = src.replace("x[tid.x] = 2.0f;", "x[tid.x] = 2.0;  double d = 1;")
    assert any(d.line == 10 for d in check_metal_source(bad, "t.metal"))
