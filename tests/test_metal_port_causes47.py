"""Causes of Metal refusals and time in real code (held-out: heldout31's gato bsqp.cu), each as a CUDA
snippet written for the test (no fetched file is read).  Each refused port was refused on main
(h/metal47's branch point fbd807d)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write  # (one checked-port helper for both)


# gato's settings.h picks a robot's headers by the build's -D: `#if defined(PLANT_INDY7) #include <indy7>
# #elif defined(PLANT_IIWA14) #include <iiwa14> ...`.  The splice took both branches' headers (17.3k spliced
# lines instead of 7.2k, and the other plant's definitions beside the live one's); here the dead branch's
# header reaches a `__constant__ double` table, refused KP214 on main though no compile of the run reads it.
PLANTS = {
    "settings.h": """
        #pragma once
        #if defined(PLANT_A)
            #include "plant_a.cuh"
        #elif defined(PLANT_B)
            #include "plant_b.cuh"
        #else
            #error "define PLANT_A or PLANT_B"
        #endif
        #ifndef PLANT_A
            #include "plant_b_tables.cuh"
        #endif
    """,
    "plant_a.cuh": """
        #pragma once
        __device__ float gain(float x) { return 2.0f * x; }
    """,
    "plant_b.cuh": """
        #pragma once
        #include "plant_b_tables.cuh"
        __device__ float gain(float x) { return float(table_b[0]) * x; }
    """,
    "plant_b_tables.cuh": """
        #pragma once
        __constant__ double table_b[4];
    """,
    "step.cu": """
        #include "settings.h"
        __global__ void step(float* y, const float* x, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = gain(x[i]);
        }
        void run(float* y, const float* x, int n) { step<<<(n + 127) / 128, 128>>>(y, x, n); }
    """,
}


def test_an_include_in_a_branch_the_runs_defines_rule_out_is_not_spliced(tmp_path: Path):
    _write(tmp_path, PLANTS)
    text = _port(tmp_path / "step.cu", defines=(("PLANT_A", "1"),))
    assert "2.0f * x" in text and "table_b" not in text
    assert "// #include \"plant_b.cuh\": in a branch this run's -D PLANT_A rules out, left out" in text
    assert "// #include \"plant_b_tables.cuh\": in a branch this run's -D PLANT_A rules out" in text


def test_the_other_define_splices_the_other_branch(tmp_path: Path):
    """The look-alike: under -DPLANT_B the `#elif` branch is the live one (its header is spliced, and
    its double refused), and an `#if defined(X)` of a name the run does not define decides nothing."""
    _write(tmp_path, PLANTS)
    port, text = translate(SourceFile.read(tmp_path / "step.cu"), "metal", defines=(("PLANT_B", "1"),))
    assert any(d.code == "KP214" and "plant_b_tables.cuh" in str(d.location) for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]


def test_a_define_the_text_undefines_decides_nothing(tmp_path: Path):
    files = dict(PLANTS)
    files["step.cu"] = "#undef PLANT_A\n#define PLANT_B 1\n" + textwrap.dedent(PLANTS["step.cu"]).lstrip()
    _write(tmp_path, files)
    port, _ = translate(SourceFile.read(tmp_path / "step.cu"), "metal", defines=(("PLANT_A", "1"),))
    assert any(d.code == "KP214" for d in port.diagnostics), [d.format() for d in port.diagnostics]


def test_each_template_kernels_instances_are_worked_out_once(tmp_path: Path, monkeypatch):
    """gato's bsqp.cu took 42 s of CPU, most of it in _never_instantiated asking template_instances of
    every other kernel for each kernel left out, each answer walking every call of the unit (kernels x
    kernels x calls).  Each kernel's instances are now worked out once per translation."""
    from kernelport.backends.metal.translator import MetalTranslator
    kernels = "".join(f"template <int N> __global__ void k{i}(float* x) {{ x[threadIdx.x] *= N; }}\n" for i in range(12))
    code = kernels + ("template <int N> void launch(float* x) { k0<N><<<1, 32>>>(x); }\n"
                      "void run(float* x) { launch<4>(x); launch<8>(x); }\n")
    asked: list[str] = []
    inner = MetalTranslator._template_instances

    def counted(self, k):
        asked.append(k.name)
        return inner(self, k)
    monkeypatch.setattr(MetalTranslator, "_template_instances", counted)
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "k0_4" in text and "k0_8" in text and "template kernel k5(): nothing in this file names it" in text
    assert sorted(asked) == sorted(set(asked)) and len(asked) == 12


# LEAP's cuda_utils.cu: `addKernel(float*, const float*, int3)` and `addKernel(float*, const float, int3)`.
# A Metal kernel is an entry point looked up by name: two of one name, KP224 on main ("conflicting types").
OVERLOADS = """
    __global__ void addKernel(float* lhs, const float* rhs, const int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) lhs[i] += rhs[i];
    }
    __global__ void addKernel(float* lhs, const float rhs, const int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) lhs[i] += rhs;
    }
    void add(float* x, const float* y, float c, int n)
    {
        addKernel<<<(n + 127) / 128, 128>>>(x, y, n);
        addKernel<<<(n + 127) / 128, 128>>>(x, c, n);
    }
"""


def test_overloaded_kernels_get_names_apart_and_the_sidecar_says_which(tmp_path: Path):
    import json
    _write(tmp_path, {"k.cu": OVERLOADS})
    text = _port(tmp_path / "k.cu")
    assert "kernel void addKernel(device float* lhs" in text
    assert "kernel void addKernel_2(device float* lhs [[buffer(0)]], const constant float& rhs" in text
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    side = json.loads(port.extra_files[".json"])
    got = [(k["name"], k["host_name"], k["cuda_signature"], [a["kind"] for a in k["arguments"]]) for k in side["kernels"]]
    assert got == [("addKernel", "addKernel", "addKernel(float* lhs, const float* rhs, const int n)", ["buffer", "buffer", "bytes"]),
                   ("addKernel", "addKernel_2", "addKernel(float* lhs, const float rhs, const int n)", ["buffer", "bytes", "bytes"])]


def test_kernels_of_one_name_in_two_branches_of_a_conditional_keep_it(tmp_path: Path):
    """The look-alike: `#ifdef` and `#else` definitions are alternatives, one compiled: no rename."""
    first = textwrap.dedent(OVERLOADS).split("__global__ void addKernel(float* lhs, const float rhs")[0]
    code = f"#ifdef ADD_TWICE{first}#else{first}#endif\nvoid add(float* x, const float* y, int n) {{ addKernel<<<1, 128>>>(x, y, n); }}\n"
    _write(tmp_path, {"k.cu": code})
    text = _port(tmp_path / "k.cu")
    assert "addKernel_2" not in text and text.count("kernel void addKernel(") == 2


# atpqc's fips202_ws: `auto store64 = [](std::uint8_t x[8], state_type s) {...}` called with `&out[8 * threadIdx.x]`,
# `out` a device buffer: an unqualified lambda parameter is `thread` in Metal, KP224 on main ("cannot pass pointer
# to address space 'device' as a pointer to address space 'thread'").
LAMBDAS = """
    __device__ void store(unsigned char* out, unsigned long long s)
    {
        auto store64 = [](unsigned char x[8], unsigned long long v) {
            for (int i = 0; i < 8; ++i) x[i] = (unsigned char)(v >> (8 * i));
        };
        store64(&out[8 * threadIdx.x], s);
    }
    __global__ void k(unsigned char* out, const unsigned long long* in)
    {
        __shared__ unsigned char tile[256];
        auto put = [](unsigned char* x, unsigned char v) { x[0] = v; };
        put(tile + threadIdx.x, 1);
        __syncthreads();
        store(out, in[threadIdx.x] + tile[threadIdx.x]);
    }
    void run(unsigned char* o, const unsigned long long* i) { k<<<1, 32>>>(o, i); }
"""


def test_a_lambdas_pointer_parameters_take_the_space_their_calls_pass(tmp_path: Path):
    _write(tmp_path, {"k.cu": LAMBDAS})
    text = _port(tmp_path / "k.cu")
    assert "auto store64 = [](device unsigned char x[8], ulong v)" in text
    assert "auto put = [](threadgroup unsigned char* x, unsigned char v)" in text


def test_a_lambda_called_with_pointers_of_two_spaces_is_refused_at_its_parameter(tmp_path: Path):
    """The look-alike: one lambda, a device and a threadgroup argument: it has one signature, so no space
    is right for both calls (a __device__ function would get two copies): KP215 at the parameter."""
    _write(tmp_path, {"k.cu": textwrap.dedent(LAMBDAS).replace("__syncthreads();", "put(out, 2);\n__syncthreads();")})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    got = [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]
    assert got == [("KP215", 11, 19)], [d.format() for d in port.diagnostics]


# atpqc's fips202_ws: `keccak::squeezeblocks`, defined out of its class, calls the member `f1600_state_permute(state)`
# unqualified; the callee reads threadIdx, so Metal's port appends `tid` to it, but the call was not seen as a call
# of keccak::f1600_state_permute: KP224 on main ("too few arguments to function call, expected 2, have 1").
MEMBERS = """
    struct keccak {
        __device__ unsigned long long permute(unsigned long long s) const;
        __device__ unsigned long long squeeze(unsigned long long* out, unsigned long long s) const;
    };
    __device__ unsigned long long keccak::permute(unsigned long long s) const { return s ^ threadIdx.x; }
    __device__ unsigned long long keccak::squeeze(unsigned long long* out, unsigned long long s) const
    {
        s = permute(s);
        out[threadIdx.x] = s;
        return s;
    }
    __global__ void k(unsigned long long* out) { keccak h; h.squeeze(out, 7); }
    void run(unsigned long long* o) { k<<<1, 32>>>(o); }
"""


def test_a_member_called_unqualified_from_a_member_defined_out_of_class_gets_its_builtins(tmp_path: Path):
    _write(tmp_path, {"k.cu": MEMBERS})
    text = _port(tmp_path / "k.cu")
    assert "s = permute(s, tid);" in text


def test_the_member_is_called_before_a_free_function_of_its_name(tmp_path: Path):
    """The look-alike: a free `permute` (no built-in) beside the member: in the member's body the call is the
    member's (C++ looks in the class first) and gets `tid`; the kernel's `permute(x)` is the free one's."""
    code = textwrap.dedent(MEMBERS).replace("struct keccak {", "__device__ unsigned long long permute(unsigned long long s) "
                                            "{ return s + 1; }\nstruct keccak {").replace(
        "h.squeeze(out, 7);", "h.squeeze(out, permute(7));")
    _write(tmp_path, {"k.cu": code})
    text = _port(tmp_path / "k.cu")
    assert "s = permute(s, tid);" in text and "h.squeeze(out, permute(7), tid);" in text
