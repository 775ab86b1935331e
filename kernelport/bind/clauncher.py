"""The `extern "C"` launchers (one file per backend) and the C header that declares them.

Runtime spellings (`cudaMalloc` / `hipMalloc`, ...) come from the dialect table: the backend is
a parameter, and one template serves every backend that has a host runtime.
"""
from __future__ import annotations

from .. import dialect, templates
from . import expr as ex
from .hosts import HostBackend
from .signature import TYPES, Binding

# Runtime concepts the launcher uses, by the name the template gives them (rt_<name> in the table).
RUNTIME = ("Error_t", "Success", "GetLastError", "DeviceSynchronize", "GetErrorString", "LaunchKernel", "Malloc",
           "Free", "Memcpy", "MemcpyHostToDevice", "MemcpyDeviceToHost")

# Plain-C stand-ins for CUDA's vector and half types (same size and alignment).
STRUCTS = {
    "kp_float2": "typedef struct kp_float2 { float x, y; } __attribute__((aligned(8))) kp_float2;",
    "kp_float4": "typedef struct kp_float4 { float x, y, z, w; } __attribute__((aligned(16))) kp_float4;",
    "kp_half": "typedef struct kp_half { unsigned short bits; } kp_half;",
}


def runtime(backend: str) -> dict[str, str]:
    rt = {"header": dialect.concept("runtime_header").spelling(backend)}
    for name in RUNTIME:
        spelled = dialect.concept(f"rt_{name}").spelling(backend)
        if spelled is None:
            raise LookupError(f"the dialect table has no {backend} spelling of rt_{name}")
        rt[name] = spelled
    return rt


def _decl(p) -> str:
    if not p.buffer:
        return f"{p.type.c} {p.name}"
    return f"{'const ' if p.const else ''}{p.type.c}* {p.name}"


def _context(b: Binding) -> dict:
    scalars = b.scalars
    used = set().union(*(e.names for e in b.grid + b.block + ([b.shared] if b.shared else [])))
    call_args = []
    for p in b.params:
        if p.buffer and p.type.struct:  # the header's plain-C struct is the kernel's CUDA type
            call_args.append(f"reinterpret_cast<{'const ' if p.const else ''}{p.kernel_type}*>({p.name})")
        else:
            call_args.append(p.name)
    return {
        "kernel": b.kernel, "launch": b.launch, "symbol": b.symbol, "geometry": b.geometry_text(),
        "buffers": [{"name": p.name, "role": p.role, "length": p.length.text, "ctype": p.kernel_type}
                    for p in b.buffers],
        "scalar_decls": ", ".join(_decl(p) for p in scalars) or "void",
        "scalar_names": ", ".join(p.name for p in scalars),
        "unused_scalars": [p.name for p in scalars if p.name not in used],
        "param_decls": [_decl(p) for p in b.params],
        "call_args": call_args,
        "grid": [ex.emit(e, ex.C) for e in b.grid],
        "block": [ex.emit(e, ex.C) for e in b.block],
        "shared": f"(size_t)kp_max({ex.emit(b.shared, ex.C)}, 0LL)" if b.shared else "0",
    }


def header(bindings: list[Binding], *, prefix: str, source_name: str, guard: str, launchers: list[str]) -> str:
    ctypes = {p.type.c for b in bindings for p in b.params}
    structs = [{"guard": f"KP_{name.upper()}_DEFINED", "c": STRUCTS[name]} for name in STRUCTS if name in ctypes]
    stdint = any(t.endswith("_t") and t != "size_t" for t in ctypes)
    return templates.render("bind/launch_header.j2", bindings=[_context(b) for b in bindings], prefix=prefix,
                            source_name=source_name, guard=guard, structs=structs, stdint=stdint,
                            launchers=launchers)


def launcher(bindings: list[Binding], host: HostBackend, *, prefix: str, source_name: str, include: str,
             header_name: str, path: str) -> str:
    ctx = [_context(b) for b in bindings]
    code = " ".join(" ".join(c["grid"] + c["block"] + [c["shared"]]) for c in ctx)
    helpers = {h for h in ex.C.call.values() if h + "(" in code}
    return templates.render("bind/launcher.j2", bindings=ctx, helpers=helpers, prefix=prefix,
                            source_name=source_name, include=include, header=header_name, rt=runtime(host.name),
                            backend_title=host.title, build=host.build_command(path))


assert set(STRUCTS) == {t.c for t in TYPES.values() if t.struct}
