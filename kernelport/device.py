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

from . import device_inputs
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
#include <cstddef>
#include <type_traits>
#include <utility>
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
    ::check(cudaMalloc((void**)&dev, bytes + 1), "cudaMalloc");
    ::check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "copy in");
    std::free(file);
    std::free(host);
    return dev;
}}

template <typename E, typename F> static void save(const char* path, const E* dev, size_t count) {{
    const size_t bytes = converted<E, F> ? count * sizeof(E) : count * sizeof(F);
    E* host = (E*)std::malloc(bytes + 1);
    F* file = (F*)std::malloc(count * sizeof(F) + 1);
    ::check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "copy out");
    if constexpr (converted<E, F>) for (size_t i = 0; i < count; ++i) file[i] = static_cast<F>(host[i]);
    else std::memcpy((void*)file, host, bytes);
    FILE* f = std::fopen(path, "wb");
    std::fwrite(file, sizeof(F), count, f);
    std::fclose(f);
    std::free(host);
    std::free(file);
}}

// bytes of a file into host memory: a host-filled constant-memory variable's contents, an array field
static void kp_bytes(void* to, const char* path, size_t bytes) {{
    FILE* f = std::fopen(path, "rb");
    if (!f || std::fread(to, 1, bytes, f) != bytes) {{ std::fprintf(stderr, "read %s\\n", path); std::exit(1); }}
    std::fclose(f);
}}

template <typename S> static void kp_symbol(const S& symbol, const char* path, size_t bytes) {{
    void* host = std::malloc(bytes + 1);
    ::kp_bytes(host, path, bytes);
    ::check(cudaMemcpyToSymbol(symbol, host, bytes), "cudaMemcpyToSymbol");
    std::free(host);
}}

{checks}

// (its helpers called by their global names: the kernel's namespace, made visible above, may have its own `check`)
int main() {{
{loads}
{symbols}
    {kernel}<<<dim3({grid}), dim3({block}), {shared}>>>({call});
    ::check(cudaGetLastError(), "launch");
    ::check(cudaDeviceSynchronize(), "kernel");
{saves}
    return 0;
}}
"""


class DeviceUnavailable(RuntimeError):
    pass


class Unpassable(RuntimeError):
    """An argument the driver cannot pass as the emulator had it: a buffer of structs whose compiled layout is
    not the emulator's (the field named) or whose pointer fields are set, a value of a kind it does not know."""


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
                 template_args: list[str] | None, symbols: dict | None = None) -> Path:
    """driver.cu in d (each buffer's bytes beside it as NAME.in): it launches the kernel once and saves
    every buffer as NAME.out in the buffer's own dtype."""
    return _write_driver(d, source, kernel, spec, args, template_args, symbols)[0]


def _write_driver(d: Path, source: Path, kernel: Function, spec: KernelSpec, args: dict,
                  template_args: list[str] | None, symbols: dict | None = None) -> tuple[Path, device_inputs.Checks]:
    """write_driver, and the compile-time checks it wrote (why nvcc may stop at one: Checks.refusal).
    symbols: host-filled constant-memory variables -> the contents the emulator gave them."""
    loads, saves, call, values = [], [], [], []
    checks = device_inputs.Checks()
    scope = kernel_namespaces(getattr(kernel, "node", None))
    aliases = []
    for k, p in enumerate(kernel.params):
        v = args[p.name]
        et = _instantiated(p.type, kernel, template_args)
        if scope:  # the type as the kernel's namespace reads it (its own `Params`, not a global one of that name)
            et, shown = _scoped_alias(aliases, scope, k, et), et
        if isinstance(v, np.ndarray):
            # a buffer of structs: the bytes of the emulator's layout, checked against the compiled type
            ct = "unsigned char" if v.dtype.names is not None else _CTYPE[v.dtype]
            count = v.nbytes if v.dtype.names is not None else v.size
            el = f"::elem_t<{et}, {ct}>"
            if v.dtype.names is not None:
                shown = et if not scope else shown
                device_inputs.layout_checks(checks, f"arg{k}", el, v.dtype, f"`{p.name}`, a buffer of structs",
                                            device_inputs.real_fields(shown), shown)
            (d / f"{p.name}.in").write_bytes(v.tobytes())
            loads.append(f'    {el}* {p.name} = ::load<{el}, {ct}>("{d / (p.name + ".in")}", {count});')
            saves.append(f'    ::save<{el}, {ct}>("{d / (p.name + ".out")}", {p.name}, {count});')
            # host code stepped the pointer after allocating it (prna's `w5++`): the kernel gets it k elements in
            step = getattr(getattr(spec, "args", {}).get(p.name), "offset", 0)
            call.append(f"({et}*){p.name}" + (f" + {int(step)}" if step else ""))
        elif isinstance(v, dict):  # a struct or vector by value: filled field by field
            lines, var = device_inputs.by_value_code(checks, d, p.name, et, v)
            values += lines
            call.append(var)
        else:
            call.append(_scalar(v, et))
    name = launched_name(kernel.name, scope) + (f"<{', '.join(template_args)}>" if template_args else "")
    checks.text[:0] = [f"using namespace {'::'.join(scope[:k + 1])};" for k in range(len(scope))] + aliases
    symbol_lines = device_inputs.symbol_code(checks, d, symbols or {})
    driver = DRIVER.format(source=source.resolve(), loads="\n".join(loads + values), saves="\n".join(saves),
                           kernel=name, grid=", ".join(map(str, spec.dims("grid"))),
                           block=", ".join(map(str, spec.dims("block"))), shared=spec.shared_bytes(),
                           call=", ".join(call), checks="\n".join(checks.text), symbols="\n".join(symbol_lines))
    (d / "driver.cu").write_text(driver)
    return d / "driver.cu", checks


def _scoped_alias(aliases: list[str], scope: tuple[str, ...], k: int, ctype: str) -> str:
    """A parameter's type named as the kernel's namespace names it: an alias declared inside the namespace
    (where its own names hide the global scope's, as in the kernel's signature), by its qualified name.
    Under `using namespace` alone a type both declare (`::Params`, `ns::Params`) is ambiguous in main."""
    alias = f"kp_param_{k}_t"
    aliases.append(f"namespace {'::'.join(scope)} {{ typedef {device_inputs._variable_type(ctype)} {alias}; }}")
    return f"::{'::'.join(scope)}::{alias}"


def kernel_namespaces(node) -> tuple[str, ...]:
    """The named namespaces around a kernel's definition, outermost first (`namespace a::b`, an `inline
    namespace` by its name).  An anonymous one adds nothing: the driver includes the original's text, so
    its names are reachable unqualified in the driver's translation unit."""
    out: list[str] = []
    p = node.parent if node is not None else None
    while p is not None:
        if p.type == "namespace_definition" and (n := p.child_by_field_name("name")) is not None:
            out[:0] = [w for w in re.sub(r"\s+", "", n.text.decode()).split("::") if w]
        p = p.parent
    return tuple(out)


def launched_name(name: str, scope: tuple[str, ...]) -> str:
    """The kernel as the driver's main names it: qualified from the global scope where it lives in a
    namespace (`::gnss_gpu::k`; a same-named function elsewhere is not it), as it is otherwise.  The
    driver also says `using namespace` for each, so the parameter types the namespace declares resolve."""
    return "::" + "::".join((*scope, name)) if scope else name


def passable(kernel: Function, args: dict) -> None:
    """Unpassable where the driver cannot give an argument what the emulator gave it: a buffer of structs
    whose pointer fields hold the emulator's addresses, a value of a kind it does not know."""
    for p in kernel.params:
        v = args[p.name]
        if isinstance(v, np.ndarray) and v.dtype not in _CTYPE:
            if v.dtype.names is None:
                raise Unpassable(f"`{p.name}` is a buffer of {v.dtype} ({p.type}), which the GPU driver does not pass")
            if ptrs := device_inputs.pointer_fields(v):
                raise Unpassable(f"`{p.name}` is a buffer of structs ({p.type}) whose pointer fields "
                                 f"({', '.join(ptrs)}) hold the emulator's addresses, which mean nothing on the GPU")
        elif isinstance(v, dict):
            if odd := device_inputs.unknown_fields(p.name, v):
                raise Unpassable(f"`{p.name}` is a {p.type} by value whose field {odd} is neither a number nor an "
                                 "array, which the GPU driver does not pass")
        elif not isinstance(v, (np.ndarray, int, float, bool, np.integer, np.floating, np.bool_)):
            raise Unpassable(f"`{p.name}` is a {p.type} by value, which the GPU driver does not pass")


def run_cuda(source: Path, kernel: Function, spec: KernelSpec, args: dict, template_args: list[str] | None,
             arch: str = "native", flags: tuple[str, ...] = (), variants=(), symbols: dict | None = None,
             redefine: dict | None = None, alone: bool = True) -> dict[str, np.ndarray]:
    """Outputs of the original kernel run on the local NVIDIA GPU.  flags: the project's -I/-D/-include.
    variants: what to include instead where the file as it is does not build (kernelport.device_source).
    symbols: host-filled constant-memory variables -> the emulator's contents, copied in before the launch;
    redefine: macros the emulator's run gave other values (kernelport.device_inputs); alone: False where the
    emulator ran the file only after its includer's lines (`variants` begin with them: the file alone is not tried)."""
    passable(kernel, args)
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise DeviceUnavailable("nvcc not found (install the CUDA Toolkit)")
    if shutil.which("nvidia-smi") is None:
        raise DeviceUnavailable("no NVIDIA GPU driver (nvidia-smi not found)")
    with tempfile.TemporaryDirectory(prefix="kernelport-gpu-") as tmp:
        d = Path(tmp)
        exe = build_driver(nvcc, arch, flags, d, source, kernel, spec, args, template_args, variants, symbols,
                           redefine, alone)
        r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
        if r.returncode != 0 and LEFT_OUT in r.stderr:  # a file-scope initializer calls host code left out
            raise Unbuildable(f"{r.stderr.strip()[:300]} before the driver's main (a file-scope initializer "
                              "calls it), so the driver cannot leave it out, and the file as it is does not build")
        if r.returncode != 0:
            raise RuntimeError(f"the kernel failed on the GPU: {r.stderr.strip()[:800]}")
        return {p.name: np.frombuffer((d / f"{p.name}.out").read_bytes(), dtype=args[p.name].dtype).copy()
                for p in kernel.params if isinstance(args[p.name], np.ndarray)}


def build_driver(nvcc: str, arch: str, flags: tuple[str, ...], d: Path, source: Path, kernel: Function,
                 spec: KernelSpec, args: dict, template_args: list[str] | None, variants=(),
                 symbols: dict | None = None, redefine: dict | None = None, alone: bool = True) -> Path:
    """The driver's executable in d: the file as it is (unless not `alone`), else each of `variants` in turn
    ((what, text, extra flags), or a reason one cannot be used; a header not installed here that stops one is
    left out of it, as the emulator never read it); Unbuildable where a header is not installed here and the
    driver cannot do without it, Unpassable where the compiled types are not the emulator's layout.  With `redefine`, the file and its
    local headers (and its includer's, for a variant after the includer's lines) as the emulator read them
    (device_inputs.Redefined)."""
    from .device_source import missing_header, missing_name, without_includes
    passable(kernel, args)
    variants = list(variants)
    tree = None
    if redefine:
        dirs = tuple(f[2:] for f in flags if f.startswith("-I") and len(f) > 2)
        tree = device_inputs.Redefined(source, redefine, d, dirs)
        flags = tree.flags(flags)
    tried, refused, exe = [], "", d / "driver"
    todo = iter(([None] if alone else []) + variants)  # None: the file as it is
    r, missing, left_out = None, None, []  # headers not installed: the first one's skip, those the variants leave out
    for nxt in todo:
        if isinstance(nxt, str):
            refused = nxt
            continue
        if nxt is not None:
            tried.append(nxt[0])
        while True:  # a variant again with each header not installed that stopped it left out (at most 8)
            extra: tuple[str, ...] = ()
            if nxt is None:
                included = tree.file if tree is not None else source
            else:
                what, text, extra = nxt
                text = without_includes(text, left_out)
                if tree is not None:
                    included = tree.place(text)
                else:
                    included = d / "original.cu"
                    included.write_text(text)
            _, checks = _write_driver(d, included, kernel, spec, args, template_args, symbols)
            r = subprocess.run(build_command(nvcc, arch, (*flags, *extra), exe, d / "driver.cu"),
                               capture_output=True, text=True, timeout=600)
            if r.returncode == 0:
                return exe
            if (why := checks.refusal(r.stderr)) is not None:
                raise Unpassable(why)
            if (why := missing_header(r.stderr)) is None:
                break
            missing = missing or why
            h = missing_name(r.stderr)
            if h in left_out or len(left_out) >= 8:
                break
            left_out.append(h)
            if nxt is None:  # (the file as it is keeps every line: the variants leave it out)
                break
    if missing is not None:  # what the driver could not do without: the header, where to get it
        raise Unbuildable(missing)
    err = r.stderr.strip() if r is not None else "nothing to build"
    first = tried.pop(0) if tried and not alone else None
    also = f" (also with {'; and with '.join(tried)})" if tried else ""
    head = f"nvcc failed on the GPU driver{f' with {first}' if first else ''}{also}"
    if refused:
        raise Unbuildable(f"{refused}; {head}: {err[:600]}")
    raise RuntimeError(f"{head}: {err[:800]}")
