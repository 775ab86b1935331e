"""Launch forms besides `k<<<g, b>>>(...)` (kernelport.launchforms): each is a Launch with the
geometry the file gives, so lint learns the block size from it as from `<<<>>>`."""
from __future__ import annotations

import re

import pytest

from kernelport import fnscopes
from kernelport.lint.engine import lint_paths
from kernelport.lint.rules.ws_geometry import _GROUP_SUM
from kernelport.model import build
from kernelport.source import SourceFile

from conftest import assert_hip_file_compiles

# WS015's own example kernel (a 32-lane group sum), without its launch
KERNEL = _GROUP_SUM.split("void launch")[0].lstrip("\n")
MACROS = """#define SETUP_LAUNCH_CONFIG(num_sms, num_threads, stream) \\
    cudaLaunchConfig_t cfg = {(num_sms), (num_threads), 0, stream, nullptr, 0}; \\
    cfg.numAttrs = 0
#define LAUNCH_KERNEL(config, kernel, ...) CUDA_CHECK(cudaLaunchKernelEx(config, kernel, ##__VA_ARGS__))
#define LAUNCH_CHEVRONS(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)
#define SWITCH_RANKS(case_macro) switch (num_ranks) { case 2: case_macro(2); case 4: case_macro(4); }
"""
# Each form launches `normalize` with blocks of BLOCK threads (the launch's block line is marked).
FORMS = {
    "chevrons": "normalize<<<n / 256, BLOCK>>>(x, y);",
    "cudaLaunchKernel": "void* args[] = {&x, &y};\n    cudaLaunchKernel((void*)normalize, dim3(n / 256), dim3(BLOCK), args, 0, s);",
    "cudaLaunchCooperativeKernel": "void* args[] = {&x, &y};\n    cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&normalize), n / 256, BLOCK, args, 0, s);",
    "cudaLaunchKernelEx fields": "cudaLaunchConfig_t cfg = {};\n    cfg.gridDim = dim3(n / 256);\n    cfg.blockDim = dim3(BLOCK);\n    cudaLaunchKernelEx(&cfg, normalize, x, y);",
    "cudaLaunchKernelEx aggregate": "cudaLaunchConfig_t cfg = {dim3(n / 256), dim3(BLOCK), 0, s};\n    cudaLaunchKernelEx(&cfg, normalize, x, y);",
    "cudaLaunchKernelEx designated": "cudaLaunchConfig_t cfg = {.gridDim = n / 256, .blockDim = BLOCK};\n    cudaLaunchKernelEx(&cfg, normalize, x, y);",
    "hipLaunchKernelGGL": "hipLaunchKernelGGL(normalize, dim3(n / 256), dim3(BLOCK), 0, s, x, y);",
    "DeepEP macros": "SETUP_LAUNCH_CONFIG(n / 256, BLOCK, s);\n    LAUNCH_KERNEL(&cfg, normalize, x, y);",
    "macro around <<<>>>": "LAUNCH_CHEVRONS(normalize, n / 256, BLOCK, x, y);",
    # DeepEP's intranode.cu: a case macro launches the kernel by name, SWITCH_RANKS calls it
    "DeepEP case macro": "int num_ranks = n % 3 ? 2 : 4;\n#define LAUNCH_CASE(ranks) LAUNCH_KERNEL(&cfg, normalize, x, y); break\n"
                         "    SETUP_LAUNCH_CONFIG(n / 256, BLOCK, s);\n    SWITCH_RANKS(LAUNCH_CASE);",
}


def _file(form: str, block: str) -> str:
    body = FORMS[form].replace("BLOCK", block)
    return MACROS + KERNEL + f"void launch(const float* x, float* y, int n, cudaStream_t s) {{\n    {body}\n}}\n"


def _host_findings(text: str, tmp_path) -> list:
    path = tmp_path / "k.cu"
    path.write_text(text)
    return [f for r in lint_paths([path], jobs=1) for f in r.findings if f.code == "WS015"]


@pytest.mark.parametrize("form", FORMS)
def test_lint_learns_the_block_from_each_launch_form(form, tmp_path):
    """A block of one warp keeps the kernel's 32-lane group whole on any wave (quiet); eight warps
    fold half of a 64-lane wave (the block's WARP_SIZE reported).  Without the launch form read as
    a launch the first is reported too: nothing tells lint the block size."""
    assert _host_findings(_file(form, "WARP_SIZE"), tmp_path) == []
    found = _host_findings(_file(form, "8 * WARP_SIZE"), tmp_path)
    assert found and all("WARP_SIZE" in f.message for f in found)


@pytest.mark.parametrize("form", FORMS)
def test_each_launch_form_is_a_launch_with_its_geometry(form):
    m = build(SourceFile.from_text(_file(form, "64"), "k.cu"))
    (launch,) = m.launches
    assert launch.kernel == "normalize" and launch.function == "launch"
    assert (launch.form == "<<<>>>") == (form == "chevrons")
    assert [fnscopes.of(m).key(f) for f in fnscopes.launched(m, launch)] == ["normalize"]
    src = m.source
    assert src.text_of(launch.config[1]).replace("dim3(", "").rstrip(")") == "64"
    assert "n / 256" in src.text_of(launch.config[0])
    assert [src.text_of(a) for a in launch.args] in (["x", "y"], [])


def test_a_kernel_in_a_namespace_is_resolved_by_its_qualified_name():
    text = ("namespace a { __global__ void k(float* y) { y[threadIdx.x] = 1; } }\n"
            "namespace b { __global__ void k(float* y) { y[threadIdx.x] = 2; } }\n"
            "void run(float* y) { hipLaunchKernelGGL(b::k, dim3(1), dim3(64), 0, 0, y); }\n")
    m = build(SourceFile.from_text(text, "k.cu"))
    (launch,) = m.launches
    assert [fnscopes.of(m).key(f) for f in fnscopes.launched(m, launch)] == ["b::k"]


def test_a_launch_runs_the_kernel_not_the_host_launcher_of_its_name():
    """DeepEP's host `cached_notify_combine(...)` launches the kernel of the same name through a case
    macro whose arguments are macro text: of the two definitions the name finds, the kernel runs."""
    text = MACROS + KERNEL + ("void normalize(const float* x, float* y, int n, cudaStream_t s) {\n    "
                              + FORMS["DeepEP case macro"].replace("BLOCK", "64") + "\n}\n")
    m = build(SourceFile.from_text(text, "k.cu"))
    (launch,) = m.launches
    assert [f.is_kernel for f in fnscopes.launched(m, launch)] == [True]


def test_a_config_field_never_set_leaves_the_geometry_unknown():
    text = KERNEL + ("void launch(const float* x, float* y, cudaLaunchConfig_t cfg) {\n"
                     "    cudaLaunchKernelEx(&cfg, normalize, x, y);\n}\n")
    (launch,) = build(SourceFile.from_text(text, "k.cu")).launches
    assert launch.kernel == "normalize" and launch.config == []


def test_launch_macros_of_an_included_header_are_launches(tmp_path):
    """DeepEP keeps SETUP_LAUNCH_CONFIG and LAUNCH_KERNEL in launch.cuh: a file that includes it
    launches through them (labelled8's DeepEP miss was of this class)."""
    (tmp_path / "launch.cuh").write_text("#pragma once\n" + MACROS)
    for block, quiet in (("WARP_SIZE", True), ("8 * WARP_SIZE", False)):
        text = '#include "launch.cuh"\n' + _file("DeepEP macros", block).replace(MACROS, "")
        (tmp_path / "k.cu").write_text(text)
        found = [f for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
                 if f.code == "WS015" and r.path.endswith("k.cu")]
        assert (found == []) is quiet, (block, found)


# -- HIP: what ROCm 5.2 has for each launch form --------------------------------------------------
_HIP_KERNEL = """#include <hip/hip_runtime.h>
__global__ void normalize(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x]; }
void launch(const float* x, float* y, hipStream_t s) {
    void* args[] = {&x, &y};
    (void)args;
    CALL;
}
"""
_HIP_CALLS = {  # each HIP launch form with the arguments its LaunchForm says, in its positions
    "hipLaunchKernelGGL": "hipLaunchKernelGGL(normalize, dim3(1), dim3(64), 0, s, x, y)",
    "hipLaunchKernel": "hipLaunchKernel((const void*)normalize, dim3(1), dim3(64), args, 0, s)",
    "hipLaunchCooperativeKernel": "hipLaunchCooperativeKernel((const void*)normalize, dim3(1), dim3(64), args, 0, s)",
}
_ABSENT_USES = {  # each name the HIP backend says ROCm 5.2 lacks, used as ROCm 6.2 declares it
    "hipLaunchKernelEx": "hipLaunchConfig_t* c = nullptr; hipLaunchKernelEx(c, normalize, x, y)",
    "hipLaunchKernelExC": "hipLaunchConfig_t* c = nullptr; hipLaunchKernelExC(c, (const void*)normalize, args)",
    "hipLaunchConfig_t": "hipLaunchConfig_t c{}",
    "hipLaunchConfig_st": "hipLaunchConfig_st c{}",
}


def test_hip_launch_forms_compile_and_the_absent_ones_are_refused_by_hipcc(tmp_path):
    """Each HIP launch form (backends' hip.launch_forms) compiles with hipcc for gfx90a and gfx1030
    at the positions its LaunchForm gives; each name hip.launch_forms_absent says ROCm 5.2 lacks is
    refused by that hipcc (the KP210 that names it says what was measured)."""
    from conftest import require_tool
    from kernelport import backends, toolchains

    require_tool("hipcc")
    hip = backends.get("hip")
    assert set(hip.launch_forms) == set(_HIP_CALLS)
    assert set(hip.launch_forms_absent.values()) == set(_ABSENT_USES)
    for name, call in _HIP_CALLS.items():
        form, args = hip.launch_forms[name], call[call.index("(") + 1:-1].split(", ")
        assert args[form.kernel].endswith("normalize") and args[form.block] == "dim3(64)"
    # one file a case set, each case a launch function of its own (one hipcc run, not one a case):
    # the forms' file compiles, against the session's PCH as verify compiles a port; in the absent
    # uses' file hipcc refuses each use with an error at its own line
    assert_hip_file_compiles(_launchers(tmp_path / "forms.hip", _HIP_CALLS.values()))
    path = _launchers(tmp_path / "absent.hip", _ABSENT_USES.values())
    r = toolchains.compile_hip(path, "gfx90a")
    assert not r.ok, r.output
    lines = path.read_text().splitlines()
    for name, use in _ABSENT_USES.items():
        at = lines.index(f"    {use};") + 1
        assert re.search(rf"^{re.escape(str(path))}:{at}:\d+: error: ", r.output, re.M) and name in r.output, \
            (name, r.output)


def _launchers(path, calls):
    """`path` holding _HIP_KERNEL's kernel and one launch function per call (launch0, launch1, ...)."""
    head, body = _HIP_KERNEL.split("void launch(", 1)
    path.write_text(head + "".join(f"void launch{i}(" + body.replace("CALL", c) for i, c in enumerate(calls)))
    return path


def test_translate_ports_the_runtime_launches_hip_has_and_refuses_the_others_naming_what_to_use(tmp_path):
    from conftest import require_tool
    from kernelport import toolchains
    from kernelport.translate import translate

    text = KERNEL + ("void launch(const float* x, float* y, int n, cudaStream_t s) {\n    "
                     + FORMS["cudaLaunchKernel"].replace("BLOCK", "WARP_SIZE") + "\n    "
                     + FORMS["cudaLaunchCooperativeKernel"].replace("BLOCK", "WARP_SIZE").replace("void* args", "void* args2")
                     .replace("args, 0", "args2, 0") + "\n}\n")
    port, out = translate(SourceFile.from_text(text, "k.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "hipLaunchKernel(" in out and "hipLaunchCooperativeKernel(" in out
    require_tool("hipcc")
    path = tmp_path / "k.hip"
    path.write_text(out)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])
    ex = KERNEL + "void launch(const float* x, float* y, int n, cudaStream_t s) {\n    " + \
        FORMS["cudaLaunchKernelEx fields"].replace("BLOCK", "WARP_SIZE") + "\n}\n"
    port, _ = translate(SourceFile.from_text(ex, "k.cu"), "hip")
    text = "\n".join(f"{d.location}: {d.message} {d.hint}" for d in port.diagnostics if d.code == "KP210")
    assert "ROCm 5.2 has no `hipLaunchConfig_t`" in text and "ROCm 5.2 has no `hipLaunchKernelEx`" in text
    assert "hipLaunchKernelGGL" in text


def test_launches_belong_to_their_host_function_by_key_not_by_bare_name(tmp_path):
    """Two host functions `run` in different namespaces: the launch of a warp-level kernel in a::run
    is sized by a::run's locals, not by b::run's `warps = n / 32` (which sizes a kernel with no
    warp-level code and was reported as sizing a::run's launch)."""
    text = KERNEL + """__global__ void fill(float* y) { y[threadIdx.x] = 0.0f; }
namespace a {
void run(const float* x, float* y) {
    int warps = 8;
    normalize<<<1, warps * 64>>>(x, y);
}
}
namespace b {
void run(float* y, int n) {
    int warps = n / 32;
    fill<<<1, warps>>>(y);
}
}
"""
    path = tmp_path / "k.cu"
    path.write_text(text)
    found = [f for r in lint_paths([path], jobs=1) for f in r.findings if f.code == "WS015"]
    assert [f.line for f in found] == [], found


def test_metal_threadgroup_arrays_stay_with_their_kernel_when_two_kernels_share_a_name():
    """a::k and b::k each declare their own __shared__ array: each Metal kernel declares its own
    (the arrays went by the bare name `k`: a::k got b::k's `buf` hoisted and b::k lost it)."""
    from kernelport.translate import translate
    text = """namespace a {
__global__ void k(float* y) {
    __shared__ float tile[64];
    tile[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
    y[threadIdx.x] = tile[63 - threadIdx.x];
}
}
namespace b {
__global__ void k(float* y) {
    __shared__ float buf[32];
    buf[threadIdx.x] = y[threadIdx.x] * 2.0f;
    __syncthreads();
    y[threadIdx.x] = buf[31 - threadIdx.x];
}
}
"""
    port, out = translate(SourceFile.from_text(text, "k.cu"), "metal", allow_unported=True)
    a_part, b_part = out.split("namespace b")
    assert "threadgroup float tile[64];" in a_part and "buf[" not in a_part
    assert "threadgroup float buf[32];" in b_part and "tile[" not in b_part
