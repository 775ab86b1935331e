"""Run the CUDA original on a real NVIDIA GPU (`verify --device cuda`).

A small driver program includes the kernel file, loads the annotated inputs from files, launches
the kernel with the annotated geometry and writes the buffers back; nvcc builds it for the GPU
that is present.  Only nvcc and an NVIDIA driver are needed (no CuPy).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from .annotations import KernelSpec
from .device_source import LEFT_OUT
from .model import Function

_CTYPE = {np.dtype(np.float32): "float", np.dtype(np.float16): "__half", np.dtype(np.int32): "int",
          np.dtype(np.uint32): "unsigned int", np.dtype(np.int64): "long long",
          np.dtype(np.uint64): "unsigned long long", np.dtype(np.int8): "signed char",
          np.dtype(np.uint8): "unsigned char", np.dtype(np.int16): "short", np.dtype(np.uint16): "unsigned short",
          np.dtype(np.float64): "double"}

# What CUDA 12/13 removed and legacy originals still call (polybench's `cudaThreadSynchronize`, pre-Volta
# `__shfl`): spelled as what they were, so the original runs on the current toolchain unchanged.  The
# unsynchronised warp functions become the `_sync` ones over the threads active at the call, NVIDIA's
# migration for them.
LEGACY = """\
#include <cuda_runtime.h>
#if CUDART_VERSION >= 12000
#ifndef cudaThreadSynchronize
#define cudaThreadSynchronize cudaDeviceSynchronize
#endif
#ifndef cudaThreadExit
#define cudaThreadExit cudaDeviceReset
#endif
template <typename T> __device__ inline T __shfl(T v, int l, int w = 32) {{ return __shfl_sync(__activemask(), v, l, w); }}
template <typename T> __device__ inline T __shfl_up(T v, unsigned d, int w = 32) {{ return __shfl_up_sync(__activemask(), v, d, w); }}
template <typename T> __device__ inline T __shfl_down(T v, unsigned d, int w = 32) {{ return __shfl_down_sync(__activemask(), v, d, w); }}
template <typename T> __device__ inline T __shfl_xor(T v, int m, int w = 32) {{ return __shfl_xor_sync(__activemask(), v, m, w); }}
template <typename P> __device__ inline unsigned __ballot(P p) {{ return __ballot_sync(__activemask(), p); }}
template <typename P> __device__ inline int __any(P p) {{ return __any_sync(__activemask(), p); }}
template <typename P> __device__ inline int __all(P p) {{ return __all_sync(__activemask(), p); }}
#endif
"""

DRIVER = LEGACY + """\
#define main kp_original_main  // a file with its own host program: the driver's main is the one that runs
#include "{source}"
#undef main
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

static void check(cudaError_t e, const char* what) {{
    if (e != cudaSuccess) {{ std::fprintf(stderr, "%s: %s\\n", what, cudaGetErrorString(e)); std::exit(1); }}
}}

// A buffer's element type as the kernel declares it (a `void*` buffer: the file's).  A narrower one than the
// file's (a bfloat16 buffer the emulator's inputs hold as floats), or a number of another width, is converted
// value by value as the host program converts it (round to nearest even), and back when saved; a wider
// aggregate (float4 over the file's floats) is the file's bytes.
template <typename T, typename F> using elem_t =
    typename std::conditional<std::is_void<typename std::remove_cv<T>::type>::value, F, typename std::remove_cv<T>::type>::type;
template <typename E, typename F> constexpr bool converted =
    sizeof(E) < sizeof(F) || (std::is_arithmetic<E>::value && sizeof(E) != sizeof(F));

template <typename E, typename F> static E* load(const char* path, size_t count) {{
    F* file = (F*)std::malloc(count * sizeof(F) + 1);
    const size_t bytes = converted<E, F> ? count * sizeof(E) : count * sizeof(F);
    E* host = (E*)std::malloc(bytes + 1);
    FILE* f = std::fopen(path, "rb");
    if (!f || std::fread(file, sizeof(F), count, f) != count) {{ std::fprintf(stderr, "read %s\\n", path); std::exit(1); }}
    std::fclose(f);
    if constexpr (converted<E, F>) for (size_t i = 0; i < count; ++i) host[i] = static_cast<E>(file[i]);
    else std::memcpy((void*)host, file, bytes);
    E* dev = nullptr;
    check(cudaMalloc((void**)&dev, bytes + 1), "cudaMalloc");
    check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "copy in");
    std::free(file);
    std::free(host);
    return dev;
}}

template <typename E, typename F> static void save(const char* path, const E* dev, size_t count) {{
    const size_t bytes = converted<E, F> ? count * sizeof(E) : count * sizeof(F);
    E* host = (E*)std::malloc(bytes + 1);
    F* file = (F*)std::malloc(count * sizeof(F) + 1);
    check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "copy out");
    if constexpr (converted<E, F>) for (size_t i = 0; i < count; ++i) file[i] = static_cast<F>(host[i]);
    else std::memcpy((void*)file, host, bytes);
    FILE* f = std::fopen(path, "wb");
    std::fwrite(file, sizeof(F), count, f);
    std::fclose(f);
    std::free(host);
    std::free(file);
}}

int main() {{
{loads}
    {kernel}<<<dim3({grid}), dim3({block}), {shared}>>>({call});
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernel");
{saves}
    return 0;
}}
"""


class DeviceUnavailable(RuntimeError):
    pass


class Unpassable(RuntimeError):
    """An argument the driver cannot pass: a struct by value or a buffer of structs."""


class Unbuildable(RuntimeError):
    """The driver cannot be built here for a reason that is not the kernel's: a header the original
    includes is not installed (the skip says which and what to install)."""


# The original's host code is compiled with the driver but never runs (the driver's main launches the
# kernel): a host function it calls from a library or another file (cuBLAS, the project's other sources)
# need not link.  Device code is compiled whole per file, so an unresolved device function still fails.
HOST_UNRESOLVED = ("-Xlinker", "--unresolved-symbols=ignore-all")


def _scalar(value, ctype: str) -> str:
    if isinstance(value, float):
        return f"({ctype}){value.hex()}"
    return f"({ctype}){int(value)}"


def _instantiated(ctype: str, kernel: Function, template_args: list[str] | None) -> str:
    """A parameter's type with the kernel's template parameters replaced by the instance's
    arguments (`const T` of `dot<double>` is `const double`): the driver is not a template."""
    subst = dict(zip(kernel.template_params, template_args or []))
    return re.sub(r"[A-Za-z_]\w*", lambda m: subst.get(m.group(0), m.group(0)), ctype) if subst else ctype


def build_command(nvcc: str, arch: str, flags: tuple[str, ...], exe: Path, driver: Path) -> list[str]:
    return [nvcc, "-O2", f"-arch={arch}", *flags, *HOST_UNRESOLVED, "-o", str(exe), str(driver)]


def write_driver(d: Path, source: Path, kernel: Function, spec: KernelSpec, args: dict,
                 template_args: list[str] | None) -> Path:
    """driver.cu in d (each buffer's bytes beside it as NAME.in): it launches the kernel once and saves
    every buffer as NAME.out in the buffer's own dtype."""
    loads, saves, call = [], [], []
    for p in kernel.params:
        v = args[p.name]
        if isinstance(v, np.ndarray):
            ct, et = _CTYPE[v.dtype], _instantiated(p.type, kernel, template_args)
            el = f"elem_t<{et}, {ct}>"
            (d / f"{p.name}.in").write_bytes(v.tobytes())
            loads.append(f'    {el}* {p.name} = load<{el}, {ct}>("{d / (p.name + ".in")}", {v.size});')
            saves.append(f'    save<{el}, {ct}>("{d / (p.name + ".out")}", {p.name}, {v.size});')
            call.append(f"({et}*){p.name}")
        else:
            call.append(_scalar(v, _instantiated(p.type, kernel, template_args)))
    name = kernel.name + (f"<{', '.join(template_args)}>" if template_args else "")
    driver = DRIVER.format(source=source.resolve(), loads="\n".join(loads), saves="\n".join(saves),
                           kernel=name, grid=", ".join(map(str, spec.dims("grid"))),
                           block=", ".join(map(str, spec.dims("block"))), shared=spec.shared_bytes(),
                           call=", ".join(call))
    (d / "driver.cu").write_text(driver)
    return d / "driver.cu"


def run_cuda(source: Path, kernel: Function, spec: KernelSpec, args: dict, template_args: list[str] | None,
             arch: str = "native", flags: tuple[str, ...] = (), variants=()) -> dict[str, np.ndarray]:
    """Outputs of the original kernel run on the local NVIDIA GPU.  flags: the project's -I/-D/-include.
    variants: what to include instead where the file as it is does not build (kernelport.device_source)."""
    for p in kernel.params:
        v = args[p.name]
        if isinstance(v, np.ndarray) and v.dtype not in _CTYPE:
            raise Unpassable(f"`{p.name}` is a buffer of structs ({p.type}), which the GPU driver does not pass")
        if not isinstance(v, (np.ndarray, int, float, bool, np.integer, np.floating, np.bool_)):
            raise Unpassable(f"`{p.name}` is a {p.type} by value, which the GPU driver does not pass")
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise DeviceUnavailable("nvcc not found (install the CUDA Toolkit)")
    if shutil.which("nvidia-smi") is None:
        raise DeviceUnavailable("no NVIDIA GPU driver (nvidia-smi not found)")
    with tempfile.TemporaryDirectory(prefix="kernelport-gpu-") as tmp:
        d = Path(tmp)
        exe = build_driver(nvcc, arch, flags, d, source, kernel, spec, args, template_args, variants)
        r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
        if r.returncode != 0 and LEFT_OUT in r.stderr:  # a file-scope initializer calls host code left out
            raise Unbuildable(f"{r.stderr.strip()[:300]} before the driver's main (a file-scope initializer "
                              "calls it), so the driver cannot leave it out, and the file as it is does not build")
        if r.returncode != 0:
            raise RuntimeError(f"the kernel failed on the GPU: {r.stderr.strip()[:800]}")
        return {p.name: np.frombuffer((d / f"{p.name}.out").read_bytes(), dtype=args[p.name].dtype).copy()
                for p in kernel.params if isinstance(args[p.name], np.ndarray)}


def build_driver(nvcc: str, arch: str, flags: tuple[str, ...], d: Path, source: Path, kernel: Function,
                 spec: KernelSpec, args: dict, template_args: list[str] | None, variants=()) -> Path:
    """The driver's executable in d: the file as it is, else each of `variants` in turn ((what, text, extra
    flags), or a reason one cannot be used); Unbuildable where a header is not installed here."""
    from .device_source import missing_header
    tried, refused, exe = [], "", d / "driver"
    todo = iter(variants)
    included, extra = source, ()
    while True:
        write_driver(d, included, kernel, spec, args, template_args)
        r = subprocess.run(build_command(nvcc, arch, (*flags, *extra), exe, d / "driver.cu"),
                           capture_output=True, text=True, timeout=600)
        if r.returncode == 0:
            return exe
        if (why := missing_header(r.stderr)) is not None:
            raise Unbuildable(why)
        nxt = next(todo, None)
        while isinstance(nxt, str):
            refused, nxt = nxt, next(todo, None)
        if nxt is None:
            also = f" (also with {'; and with '.join(tried)})" if tried else ""
            if refused:
                raise Unbuildable(f"{refused}; nvcc failed on the GPU driver{also}: {r.stderr.strip()[:600]}")
            raise RuntimeError(f"nvcc failed on the GPU driver{also}: {r.stderr.strip()[:800]}")
        what, text, extra = nxt
        tried.append(what)
        included = d / "original.cu"
        included.write_text(text)
