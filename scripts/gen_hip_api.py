"""Write kernelport/backends/hip_api.tsv, the CUDA -> HIP API table, from HIPIFY's own tables.

    git clone https://github.com/ROCm/HIPIFY /tmp/HIPIFY
    python scripts/gen_hip_api.py /tmp/HIPIFY [--probe]

Reads src/CUDA2HIP*.cpp (the maps hipify-clang renames with: runtime and driver API functions,
types and enum values, device functions and types, cuComplex, cuBLAS, cuRAND, cuFFT, cuSPARSE,
cuSOLVER, cuDNN, CUB, NVRTC, and the include map); caffe2's map is left out (not a CUDA API).
Where one CUDA name is in several maps the first wins, in hipify-clang's own order
(CUDA_RENAMES_MAP, then the device functions).

`--probe` fills the `hipcc` column by compiling every HIP spelling with the installed hipcc
(`kernelport.backends.hip_probe.probe`): ok, absent (its header is installed, the name is not in
it), unchecked (the library's headers are not installed here). Without it the column is kept
from the table already written (or `unchecked`).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from kernelport.backends import hip_bf16_pairs, hip_simd  # noqa: E402
OUT = ROOT / "kernelport" / "backends" / "hip_api.tsv"

# File stem (src/CUDA2HIP_<stem>_...) -> the API name used in the kind column.
APIS = {"Runtime": "runtime", "Driver": "driver", "Device": "device", "Complex": "complex", "BLAS": "blas",
        "RAND": "rand", "FFT": "fft", "SPARSE": "sparse", "SOLVER": "solver", "DNN": "dnn", "CUB": "cub",
        "RTC": "rtc"}
# hipify-clang's union order (CUDA2HIP.cpp: CUDA_RENAMES_MAP), then the device functions.
ORDER = ("Driver_API_types", "Driver_API_functions", "Runtime_API_types", "Runtime_API_functions",
         "Complex_API_types", "Complex_API_functions", "BLAS_API_types", "BLAS_API_functions",
         "RAND_API_types", "RAND_API_functions", "DNN_API_types", "DNN_API_functions", "FFT_API_types",
         "FFT_API_functions", "SPARSE_API_types", "SPARSE_API_functions", "CUB_API_types", "CUB_API_functions",
         "RTC_API_types", "RTC_API_functions", "Device_types", "SOLVER_API_types", "SOLVER_API_functions",
         "Device_functions")
API_OF_ENUM = {"API_DRIVER": "driver", "API_RUNTIME": "runtime", "API_COMPLEX": "complex", "API_BLAS": "blas",
               "API_RAND": "rand", "API_DNN": "dnn", "API_FFT": "fft", "API_SPARSE": "sparse",
               "API_SOLVER": "solver", "API_CUB": "cub", "API_CAFFE2": "caffe2", "API_RTC": "rtc"}
# HIPIFY's SupportDegree bits, as they concern a HIP port (ROC_* concern the roc* spellings: not ours).
FLAGS = (("HIP_UNSUPPORTED", "unsupported"), ("UNSUPPORTED", "unsupported"), ("HIP_DEPRECATED", "deprecated"),
         ("DEPRECATED", "deprecated"), ("HIP_REMOVED", "removed"), ("REMOVED", "removed"),
         ("HIP_EXPERIMENTAL", "experimental"), ("CUDA_DEPRECATED", "cuda-deprecated"),
         ("CUDA_REMOVED", "cuda-removed"), ("HIP_SUPPORTED_V2_ONLY", "v2-only"))

# Where kernelport's spelling differs from HIPIFY's, and why (flag `kernelport` in the table).
# ROCm 5.2 moved each library's headers into its own folder (the flat paths became deprecated
# wrappers, and Debian's packages ship only the folders): HIPIFY (2024) still writes the flat path.
OVERRIDES = {"cublas.h": "hipblas/hipblas.h", "cublas_v2.h": "hipblas/hipblas.h", "cublas_api.h": "hipblas/hipblas.h",
             "cusparse.h": "hipsparse/hipsparse.h", "cusparse_v2.h": "hipsparse/hipsparse.h",
             **{h: "hipsolver/hipsolver.h" for h in ("cusolverDn.h", "cusolverMg.h", "cusolverRf.h", "cusolverSp.h",
                                                      "cusolverSp_LOWLEVEL_PREVIEW.h", "cusolver_common.h")}}

# Device functions HIPIFY leaves unsupported whose meaning HIP has in another form: a call
# template over the call's arguments ({0}, {1}, ...). CUDA's cache-hinted loads and stores
# (__ldcg, __stcs, ...) only choose a cache policy, so on HIP they are the plain access (ROCm 5.2
# declares none of them, save __ldcg/__ldcs for __half); umin/umax/llmin/... are min/max on the
# argument type CUDA's signature converts to (HIP's min/max are templates, so the casts pick it).
# __trap (stop the kernel) is the compiler's __builtin_trap, which ROCm's own abort() and the
# device assert call: ROCm 5.2 declares no __trap.
_MODES = {"rd": "-1", "ru": "1", "rz": "0"}
DIRECTED_ROUNDING = {
    **{f"__{op}_{r}": f"kp_rnd_{fn}({args}, {m})" for r, m in _MODES.items() for op, fn, args in (
        ("dadd", "add_f64", "{0}, {1}"), ("dsub", "add_f64", "{0}, -({1})"), ("dmul", "mul_f64", "{0}, {1}"),
        ("ddiv", "div_f64", "{0}, {1}"), ("drcp", "div_f64", "1.0, {0}"), ("dsqrt", "sqrt_f64", "{0}"),
        ("fma", "fma_f64", "{0}, {1}, {2}"), ("fdiv", "div_f32", "{0}, {1}"), ("frcp", "div_f32", "1.0f, {0}"),
        ("fsqrt", "sqrt_f32", "{0}"))},
    # float sums and products rounded toward zero keep kp_fmaf_rz/kp_fmul_rz (above)
    **{f"__{op}_{r}": f"kp_rnd_{fn}({args}, {m})" for r, m in _MODES.items() if r != "rz" for op, fn, args in (
        ("fadd", "fma_f32", "{0}, 1.0f, {1}"), ("fsub", "fma_f32", "{0}, 1.0f, -({1})"),
        ("fmul", "mul_f32", "{0}, {1}"), ("fmaf", "fma_f32", "{0}, {1}, {2}"))},
}
_LOAD, _STORE = "(*({0}))", "(*({0}) = ({1}))"
DEVICE_OVERRIDES = {
    **{f: _LOAD for f in ("__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv")},
    **{f: _STORE for f in ("__stcg", "__stcs", "__stwb", "__stwt")},
    **{f"{p}{op}": f"{op}(({t})({{0}}), ({t})({{1}}))" for p, t in
       (("u", "unsigned int"), ("ll", "long long int"), ("ull", "unsigned long long int")) for op in ("min", "max")},
    "__trap": "__builtin_trap()",
    # bfloat16 <-> float: ROCm 5.2's hip_bfloat16 (the port's __nv_bfloat16, hip/hip_bfloat16.h) converts
    # to float and from float rounding to nearest even (CUDA's __float2bfloat16/_rn), or truncating (_rz).
    "__bfloat162float": "static_cast<float>({0})",
    **{f: "hip_bfloat16(static_cast<float>({0}))" for f in ("__float2bfloat16", "__float2bfloat16_rn")},
    "__float2bfloat16_rz": "hip_bfloat16(static_cast<float>({0}), hip_bfloat16::truncate)",
    # float arithmetic rounded toward zero (gvdb's `__fadd_rz(__fmul_rz(a, b), c)`): ROCm 5.2 declares
    # __fadd_rz and kin only under OCML_BASIC_ROUNDED_OPERATIONS and its device libraries lack the
    # __ocml_*_rtz_f32 they call; the prologue's exact kp_fmul_rz/kp_fmaf_rz (PTX's mul.rz/fma.rz, checked
    # against the exact result in tests/test_ptx_idioms.py): a sum is a fused a * 1 + b, exact up to its rounding
    "__fmul_rz": "kp_fmul_rz({0}, {1})", "__fmaf_rz": "kp_fmaf_rz({0}, {1}, {2})",
    "__fadd_rz": "kp_fmaf_rz({0}, 1.0f, {1})", "__fsub_rz": "kp_fmaf_rz({0}, 1.0f, -({1}))",
    # directed rounding (interval arithmetic's __dadd_rd/__dmul_ru/__fma_rz, ...): ROCm 5.2 declares them only under
    # OCML_BASIC_ROUNDED_OPERATIONS and its device libraries lack the __ocml_*_rtn/rtp/rtz they call; the prologue's
    # exact kp_rnd_* (the round-to-nearest result stepped by the sign of its error; tests/test_directed_rounding.py)
    **DIRECTED_ROUNDING,
    # CUDA's SIMD-within-a-word intrinsics (__vadd2, __vmaxs4, ..., __hmax2): ROCm 5.2 has none; the port's
    # prologue defines each it calls as kp_<name> (kernelport/backends/hip_simd.py, which says which are left out)
    **{f: hip_simd.call(f) for f in hip_simd.names()},
    # CUDA's bf16 pair constructors and conversions on the prologue's kp_bfloat162 (kernelport/backends/
    # hip_bf16_pairs.py, which also overloads the pair arithmetic CUDA shares with half2: __hadd2, __hmul2, ...)
    **hip_bf16_pairs.CALLS,
}

# Types ROCm 5.2 lacks that the port's prologue defines (templates/hip_prologue.j2): CUDA's bf16 pair, as storage
# only (two hip_bfloat16, 4-byte aligned, .x/.y): ROCm 5.2 has no pair type (ROCm 6.0's hip_bf16.h has
# __hip_bfloat162); the pair's arithmetic and conversions stay unsupported (a use of one is KP210 or a compile error)
TYPE_OVERRIDES = {"__nv_bfloat162": "kp_bfloat162", "nv_bfloat162": "kp_bfloat162"}

# Enumerators HIPIFY leaves unsupported that HIP's enum can hold with CUDA's value: an enum's `_MAX`
# sentinel (cuda.h: `CU_MEM_ACCESS_FLAGS_PROT_MAX = 0x7FFFFFFF`, which no call accepts as a flag: on
# HIP the same value is as invalid; gunrock's virtual_memory.hxx sets it for an unknown access kind).
ENUM_OVERRIDES = {"CU_MEM_ACCESS_FLAGS_PROT_MAX": "((hipMemAccessFlags)0x7FFFFFFF)"}

# CUDA's C++ API (cuda_runtime.h) overloads and default arguments HIP lacks: a call with that many
# arguments is spelled by the template (row `name/arity`, kind runtime-overload); other arities use
# the name's own row.  HIP declares `const void*` where CUDA has a template over the kernel (a
# function pointer does not convert to `const void*` implicitly), `void**` where CUDA takes `T**`,
# and requires arguments CUDA defaults (cudaStreamWaitEvent's flags, cudaMemcpyToSymbolAsync's
# offset and kind).  Where HIP has the template or the default itself (hipMalloc, hipHostMalloc,
# hipMallocManaged, hipMemcpyToSymbol, hipOccupancy*, hipEventRecord, the *Async streams) no row is needed.
_FN = "reinterpret_cast<const void*>({0})"
CALL_OVERLOADS = {
    "cudaEventCreate/2": "hipEventCreateWithFlags({0}, {1})",
    "cudaHostAlloc/3": "hipHostMalloc({0}, {1}, {2})",  # HIP's template over T**; the same flag values
    "cudaMallocPitch/4": "hipMallocPitch((void**)({0}), {1}, {2}, {3})",
    "cudaHostGetDevicePointer/3": "hipHostGetDevicePointer((void**)({0}), {1}, {2})",  # CUDA's template over T**
    "cudaStreamWaitEvent/2": "hipStreamWaitEvent({0}, {1}, 0)",
    "cudaMemcpyToSymbolAsync/3": "hipMemcpyToSymbolAsync({0}, {1}, {2}, 0, hipMemcpyHostToDevice)",
    "cudaMemcpyToSymbolAsync/4": "hipMemcpyToSymbolAsync({0}, {1}, {2}, {3}, hipMemcpyHostToDevice)",
    "cudaMemcpyFromSymbolAsync/3": "hipMemcpyFromSymbolAsync({0}, {1}, {2}, 0, hipMemcpyDeviceToHost)",
    "cudaMemcpyFromSymbolAsync/4": "hipMemcpyFromSymbolAsync({0}, {1}, {2}, {3}, hipMemcpyDeviceToHost)",
    "cudaFuncGetAttributes/2": "hipFuncGetAttributes({0}, reinterpret_cast<const void*>({1}))",
    "cudaFuncSetCacheConfig/2": f"hipFuncSetCacheConfig({_FN}, {{1}})",
    "cudaFuncSetSharedMemConfig/2": f"hipFuncSetSharedMemConfig({_FN}, {{1}})",
    "cudaFuncSetAttribute/3": f"hipFuncSetAttribute({_FN}, {{1}}, {{2}})",
    **{f"cudaLaunchKernel/{n}": f"hipLaunchKernel({_FN}, " + ", ".join(f"{{{i}}}" for i in range(1, n)) + ")"
       for n in (4, 5, 6)},
    "cudaLaunchCooperativeKernel/4": f"hipLaunchCooperativeKernel({_FN}, {{1}}, {{2}}, {{3}}, 0, 0)",
    "cudaLaunchCooperativeKernel/5": f"hipLaunchCooperativeKernel({_FN}, {{1}}, {{2}}, {{3}}, {{4}}, 0)",
    "cudaLaunchCooperativeKernel/6": f"hipLaunchCooperativeKernel({_FN}, {{1}}, {{2}}, {{3}}, {{4}}, {{5}})",
    # CUDA 12's cudaGraphInstantiate(exec, graph, flags = 0); CUDA 11's five arguments are HIP's
    "cudaGraphInstantiate/2": "hipGraphInstantiate({0}, {1}, nullptr, nullptr, 0)",
    "cudaGraphInstantiate/3": "hipGraphInstantiateWithFlags({0}, {1}, {2})",
}

# CUB 2.x's in-place device scans (one iterator read and written, `DeviceScan::InclusiveSum(tmp, bytes,
# d_data, n)`), which hipCUB (5.x) lacks: hipCUB's out-of-place call with the iterator as both input
# and output, which rocPRIM's scan allows ("output ... can be same as input", rocPRIM rocm-5.3.0
# device_scan.hpp, inclusive_scan and exclusive_scan). Only the arities no out-of-place overload has:
# with a stream, the in-place call counts as many arguments as the out-of-place one without it.
CUB_OVERLOADS = {
    "cub::DeviceScan::InclusiveSum/4": "hipcub::DeviceScan::InclusiveSum({0}, {1}, {2}, {2}, {3})",
    "cub::DeviceScan::ExclusiveSum/4": "hipcub::DeviceScan::ExclusiveSum({0}, {1}, {2}, {2}, {3})",
    "cub::DeviceScan::InclusiveScan/5": "hipcub::DeviceScan::InclusiveScan({0}, {1}, {2}, {2}, {3}, {4})",
    "cub::DeviceScan::ExclusiveScan/6": "hipcub::DeviceScan::ExclusiveScan({0}, {1}, {2}, {2}, {3}, {4}, {5})",
    # ... and with a stream (and debug_synchronous): as many arguments as an out-of-place call, told apart by one
    # argument (`name/N:cond`, kernelport/cub_overloads.py): `intK`, argument K is an integer (the in-place call's
    # num_items where the out-of-place one has its output iterator or operator); `fnK`, argument K is an operator
    # constructed with no arguments (`cub::Max()`: the in-place call's scan_op where the other has d_out)
    "cub::DeviceScan::InclusiveSum/5:int3": "hipcub::DeviceScan::InclusiveSum({0}, {1}, {2}, {2}, {3}, {4})",
    "cub::DeviceScan::InclusiveSum/6:int3": "hipcub::DeviceScan::InclusiveSum({0}, {1}, {2}, {2}, {3}, {4}, {5})",
    "cub::DeviceScan::ExclusiveSum/5:int3": "hipcub::DeviceScan::ExclusiveSum({0}, {1}, {2}, {2}, {3}, {4})",
    "cub::DeviceScan::ExclusiveSum/6:int3": "hipcub::DeviceScan::ExclusiveSum({0}, {1}, {2}, {2}, {3}, {4}, {5})",
    "cub::DeviceScan::InclusiveScan/6:int4": "hipcub::DeviceScan::InclusiveScan({0}, {1}, {2}, {2}, {3}, {4}, {5})",
    "cub::DeviceScan::InclusiveScan/7:int4": "hipcub::DeviceScan::InclusiveScan({0}, {1}, {2}, {2}, {3}, {4}, {5}, {6})",
    "cub::DeviceScan::ExclusiveScan/7:fn3": "hipcub::DeviceScan::ExclusiveScan({0}, {1}, {2}, {2}, {3}, {4}, {5}, {6})",
    "cub::DeviceScan::ExclusiveScan/8:fn3": "hipcub::DeviceScan::ExclusiveScan({0}, {1}, {2}, {2}, {3}, {4}, {5}, {6}, {7})",
}

# CUDA's own header guards, which code tests to see whether a CUDA header came before it
# (cuda-samples' helper_cuda.h defines checkCudaErrors under `#ifdef __DRIVER_TYPES_H__`): HIPIFY has
# no rows for them. The port includes HIP's header where the original included CUDA's, so HIP's
# guard of that header is defined at the same point.
GUARDS = (("__DRIVER_TYPES_H__", "HIP_INCLUDE_HIP_DRIVER_TYPES_H"),
          ("__CUDA_RUNTIME_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_H"),
          ("__CUDA_RUNTIME_API_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H"),
          # The compiler's own macro, tested like __CUDACC__ (which HIPIFY maps to __HIPCC__) for
          # "the GPU compiler compiles this" (learn-cuda's solver headers declare their device
          # functions under `#ifdef __NVCC__`): hipcc is the port's.
          ("__NVCC__", "__HIPCC__"),
          # cuRAND's (helper_cuda.h defines its curandStatus_t error checks under `#ifdef CURAND_H_`):
          # hipRAND's headers include each other as cuRAND's do (hiprand_kernel.h includes hiprand.h)
          ("CURAND_H_", "HIPRAND_H_", "rand"), ("CURAND_KERNEL_H_", "HIPRAND_KERNEL_H_", "rand"),
          # helper_cuda.h's other library tests, each a guard every header of its family defines and
          # mapped to the guard of the HIP header the family ports to (read at ROCm 5.2.0 .. 5.7.0):
          # cublas.h and cublas_v2.h include cublas_api.h (CUBLAS_API_H_); hipBLAS's
          # library/include/hipblas.h guards with HIPBLAS_H
          ("CUBLAS_API_H_", "HIPBLAS_H", "blas"),
          # cufftXt.h includes cufft.h (_CUFFT_H_); hipFFT's library/include/hipfft.h: HIPFFT_H_
          ("_CUFFT_H_", "HIPFFT_H_", "fft"),
          # cusparse.h defines its calling convention CUSPARSEAPI (empty off Windows), which
          # helper_cuda.h tests for "cuSPARSE came first"; hipsparse.h (installed) guards with
          # _HIPSPARSE_H_, also defined empty, so a declaration's CUSPARSEAPI stays a blank too
          ("CUSPARSEAPI", "_HIPSPARSE_H_", "sparse"),
          # cusolverDn/Sp/Rf.h include cusolver_common.h; hipSOLVER's library/include/hipsolver.h:
          # HIPSOLVER_H. NPP's NV_NPPIDEFS_H and nvJPEG's NVJPEGAPI stay: ROCm 5 has neither library.
          ("CUSOLVER_COMMON_H_", "HIPSOLVER_H", "solver"))

# CUDA toolkit headers HIPIFY's include map lacks, which code includes by name (cs149's
# `<driver_functions.h>`, old code's `<sm_30_intrinsics.h>`): nvcc's runtime header includes them
# all, and the port's first include, hip/hip_runtime.h, declares their HIP counterparts
# (make_hipPitchedPtr, the vector makers, atomics and intrinsics), so the include is dropped ("");
# where ROCm has a header of the same content it is that one.  Kept as they were, they fail hipcc
# with "file not found" and no word from kernelport.
# CUDA's block-scoped atomics (sm_60_atomic_functions.h's atomicAdd_block and kin), which HIPIFY does
# not list and ROCm 5.2 does not declare: the port calls the device-scoped atomic of the same
# operation, which is atomic among every thread of the device, the block's included (a wider scope
# than asked gives the same result; only a narrower one could lose an update).
SCOPED_ATOMICS = {f"atomic{op}_block": f"atomic{op}" for op in
                  ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor")}

TOOLKIT_HEADERS = {
    **{h: "" for h in ("builtin_types.h", "common_functions.h", "device_atomic_functions.h",
                       "device_double_functions.h", "device_types.h", "driver_functions.h", "host_config.h",
                       "host_defines.h", "sm_20_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h",
                       "sm_32_atomic_functions.h", "sm_32_intrinsics.h", "sm_35_atomic_functions.h",
                       "sm_35_intrinsics.h", "sm_60_atomic_functions.h", "sm_61_intrinsics.h", "vector_functions.h",
                       # the device runtime's declarations (cuda_runtime_api.h includes it; QPanda-2's
                       # GPUGates.cuh names it): its names' uses are each checked where they are called
                       "cuda_device_runtime_api.h")},
    "math_functions.h": "hip/math_functions.h", "texture_types.h": "hip/texture_types.h",
    "surface_types.h": "hip/surface_types.h",
    # libcu++'s numeric_limits, fixed-width integers and array are the C++ library's (the names:
    # HipBackend.qualified_names)
    "cuda/std/limits": "limits", "cuda/std/cstdint": "cstdint", "cuda/std/array": "array",
    # ... and so are its complex numbers, tuples and pairs (HipBackend.qualified_names)
    "cuda/std/complex": "complex", "cuda/std/tuple": "tuple", "cuda/std/utility": "utility",
    # ... and its type traits (kernelport/backends/hip_libcxx.py: C++17's, compile-time only)
    "cuda/std/type_traits": "type_traits",
    "cuda/std/span": "span",  # C++20's (libcu++ has it from C++14): the prologue's #error says so before C++20
    # ... and its function objects (cuda::std::equal_to, ...), which <cuda/functional> brings with CCCL's own
    # (cuda::maximum, ...: HipBackend.unported_qualified_names, refused at their use)
    "cuda/std/functional": "functional", "cuda/functional": "functional",
    # OpenGL interop: HIPIFY maps each function (cudaGraphicsGLRegisterBuffer, ...) but not the header;
    # ROCm 5.2 lacks it and declares them in hip_runtime_api.h (HipBackend.absent_header_fallbacks)
    "cuda_gl_interop.h": "hip/hip_gl_interop.h",
}

# The `.hpp` companions the toolkit ships beside some of its headers (the definitions a `.h` includes
# at its end), which code also includes by name (CUDA_MeanShift's `#include "vector_functions.hpp"`):
# each is read as its `.h` is, where the table has that `.h` (kept as written, hipcc says "file not found").
COMPANIONS = ("cuda_fp16.hpp", "device_atomic_functions.hpp", "device_double_functions.hpp", "device_functions.hpp",
              "math_functions.hpp", "sm_20_atomic_functions.hpp", "sm_20_intrinsics.hpp", "sm_30_intrinsics.hpp",
              "sm_32_atomic_functions.hpp", "sm_32_intrinsics.hpp", "sm_60_atomic_functions.hpp",
              "sm_61_intrinsics.hpp", "vector_functions.hpp")

_MAP = re.compile(r"const\s+std::map\s*<\s*llvm::StringRef\s*,\s*(\w+)\s*>\s*(\w+)\s*\{(.*?)\n\};", re.S)
_COUNTER = re.compile(r'\{\s*"([^"]*)"\s*,\s*\{\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*(CONV_\w+)\s*,\s*(API_\w+)\s*,'
                      r'\s*([\w:]+)\s*(?:,\s*([\w|\s]+?))?\s*\}\s*\}')
_VERSIONS = re.compile(r'\{\s*"([^"]*)"\s*,\s*\{\s*(HIP_\d+)\s*,\s*(HIP_\d+)\s*,\s*(HIP_\d+)\s*(?:,\s*(HIP_\d+)\s*)?\}\s*\}')


def _maps(text: str):
    text = re.sub(r"//[^\n]*", "", text)
    for m in _MAP.finditer(text):
        yield m.group(1), m.group(2), m.group(3)


def _version(v: str) -> str:
    n = int(v.split("_")[1])
    if n == 0:
        return "-"
    major, minor, patch = n // 1000, (n // 10) % 100, n % 10
    return f"{major}.{minor}.{patch}"


def _flags(degree: str | None) -> list[str]:
    bits = {b.strip() for b in (degree or "").split("|") if b.strip()}
    return list(dict.fromkeys(name for bit, name in FLAGS if bit in bits))


def read_hipify(src: Path) -> list[tuple[str, str, str, str, str]]:
    """(cuda, hip, kind, flags, since) rows, in HIPIFY's order, one per CUDA name."""
    rows: dict[str, tuple[str, str, str, str, str]] = {}
    for stem in ORDER:
        path = src / f"CUDA2HIP_{stem}.cpp"
        api = APIS[stem.split("_")[0]]
        versions: dict[str, tuple[str, ...]] = {}
        counters = []
        for value, name, body in _maps(path.read_text()):
            if value == "hipAPIversions":
                for m in _VERSIONS.finditer(body):
                    versions[m.group(1)] = tuple(_version(v) for v in m.groups()[1:] if v)
            elif value == "hipCounter":
                counters.append((name, body))
        for name, body in counters:
            for m in _COUNTER.finditer(body):
                cuda, hip, _roc, conv, _api, _sec, degree = m.groups()
                role = ("function" if "FUNCTION" in name else "namespace" if "NAMESPACE" in name else
                        "enum" if conv == "CONV_NUMERIC_LITERAL" else "macro" if conv == "CONV_DEFINE" else "type")
                flags = _flags(degree)
                if not hip:
                    flags = list(dict.fromkeys(["unsupported", *flags]))
                since = versions.get(hip, ("-",))[0] if hip else "-"
                if cuda in DEVICE_OVERRIDES and role == "function" or cuda in ENUM_OVERRIDES and role == "enum" or \
                        cuda in TYPE_OVERRIDES and role == "type":
                    hip, since = {**DEVICE_OVERRIDES, **ENUM_OVERRIDES, **TYPE_OVERRIDES}[cuda], "-"
                    flags = [f for f in flags if f not in ("unsupported", "removed")] + ["kernelport"]
                rows.setdefault(cuda, (cuda, hip, f"{api}-{role}", ",".join(flags) or "-", since))
    inc = (src / "CUDA2HIP.cpp").read_text()
    for value, name, body in _maps(inc):
        if name != "CUDA_INCLUDE_MAP":
            continue
        for m in _COUNTER.finditer(body):
            cuda, hip, _roc, _conv, api, _sec, degree = m.groups()
            if API_OF_ENUM[api] == "caffe2":
                continue
            # An empty HIP header is "drop the include" (device_launch_parameters.h), not "unsupported".
            flags = _flags(degree)
            if cuda in OVERRIDES:
                hip, flags = OVERRIDES[cuda], [*flags, "kernelport"]
            rows.setdefault(cuda, (cuda, hip, f"header-{API_OF_ENUM[api]}", ",".join(flags) or "-", "-"))
    for cuda, hip, *api in GUARDS:
        rows.setdefault(cuda, (cuda, hip, f"{(api or ['runtime'])[0]}-macro", "kernelport", "-"))
    for cuda, hip in TOOLKIT_HEADERS.items():
        rows.setdefault(cuda, (cuda, hip, "header-runtime", "kernelport", "-"))
    for cuda in COMPANIONS:
        if (twin := rows.get(cuda[:-len("hpp")] + "h")) is not None:
            rows.setdefault(cuda, (cuda, twin[1], twin[2], "kernelport", "-"))
    for cuda, hip in SCOPED_ATOMICS.items():
        rows.setdefault(cuda, (cuda, hip, "device-function", "kernelport", "-"))
    for cuda in hip_simd.names():  # the SIMD intrinsics HIPIFY does not list (__vcmpleu2)
        rows.setdefault(cuda, (cuda, DEVICE_OVERRIDES[cuda], "device-function", "kernelport", "-"))
    for key, template in CALL_OVERLOADS.items():
        rows.setdefault(key, (key, template, "runtime-overload", "kernelport", "-"))
    for key, template in CUB_OVERLOADS.items():
        rows.setdefault(key, (key, template, "cub-overload", "kernelport", "-"))
    return list(rows.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hipify", type=Path, help="a checkout of https://github.com/ROCm/HIPIFY")
    ap.add_argument("--probe", action="store_true", help="compile every HIP spelling with hipcc for the hipcc column")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from kernelport.backends import api_table, hip_probe

    commit = subprocess.run(["git", "-C", str(a.hipify), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    license_text = (a.hipify / "LICENSE.txt").read_text().strip()
    rows = read_hipify(a.hipify / "src")
    old = {e.cuda: e.hipcc for e in api_table.read(a.output).entries.values()} if a.output.exists() else {}
    if a.probe:
        checked = hip_probe.probe([api_table.Entry(*r, "unchecked") for r in rows])
    else:
        checked = {r[0]: old.get(r[0], "unchecked") for r in rows}
    header = [
        "kernelport's CUDA -> HIP API table: one CUDA name a line, with its HIP spelling.",
        f"Generated by scripts/gen_hip_api.py from HIPIFY (https://github.com/ROCm/HIPIFY) commit {commit},",
        "src/CUDA2HIP*.cpp (hipify-clang's maps). Regenerate: python scripts/gen_hip_api.py HIPIFY_CHECKOUT --probe",
        "columns: cuda (name/N: a call with N arguments, see CALL_OVERLOADS), hip (empty: none), kind (<api>-function|type|enum|macro|namespace|overload, header-<api>),",
        "flags (HIPIFY's, for HIP: unsupported, deprecated, removed, experimental, cuda-deprecated, cuda-removed,",
        "v2-only; kernelport: kernelport's spelling differs from HIPIFY's, see OVERRIDES in the script; - none), since (the ROCm version HIPIFY records for the HIP name; - none recorded),",
        "hipcc (the HIP spelling compiled with the hipcc of Debian 12, ROCm 5.2, and its libraries: ok; absent:",
        "its header is installed and lacks it; unchecked: the library is not installed there; - nothing to check).",
        "",
        "HIPIFY's license (MIT):",
        *license_text.splitlines(),
    ]
    lines = [f"# {h}".rstrip() for h in header]
    lines.append("\t".join(("cuda", "hip", "kind", "flags", "since", "hipcc")))
    for r in rows:
        lines.append("\t".join((*r, checked[r[0]])))
    a.output.write_text("\n".join(lines) + "\n")
    counts: dict[str, int] = {}
    for v in checked.values():
        counts[v] = counts.get(v, 0) + 1
    print(f"{a.output}: {len(rows)} names; hipcc: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
