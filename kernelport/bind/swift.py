"""The Metal host snippet (Swift): the sidecar's argument indices bound, threadgroups dispatched.

Generated and golden-tested here; no Metal device has run it (its header says so).
"""
from __future__ import annotations

from .. import templates
from ..errors import KernelportError
from . import expr as ex
from .signature import Binding

_KEYWORDS = {"associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
             "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static",
             "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do",
             "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as",
             "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Any"}


def ident(name: str) -> str:
    return f"`{name}`" if name in _KEYWORDS else name


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def _kernel(b: Binding) -> dict:
    m = b.metal
    if m is None:
        raise KernelportError(f"the Metal port has no entry for kernel '{b.kernel}'", b.spec.loc,
                              hint="check that 'metal' is among the kernel's targets")
    by_name = {p.name: p for p in b.params}
    ints = {p.name for p in b.scalars if p.type.integer}
    floats = {p.name for p in b.scalars if not p.type.integer}
    params, args, checks, binds = [], [], [], []
    for p in b.params:  # the kernel's order, as in the CUDA signature
        params.append(f"{ident(p.name)}: {'MTLBuffer' if p.buffer else p.type.swift}")
        args.append(f"{p.name}: {ident(p.name)}")
    for a in sorted(m.arguments, key=lambda a: a["index"]):
        p = by_name[a["name"]]
        n = ident(p.name)
        if a["kind"] == "buffer":
            e = ex.parse(a["bytes"], ints, floats)
            checks.append({"var": f"{p.name}Bytes", "expr": ex.emit(e, ex.SWIFT, ident), "buffer": n, "name": p.name})
            binds.append(f"encoder.setBuffer({n}, offset: 0, index: {a['index']})")
        else:
            binds.append(f"var {p.name}Value = {n}")
            binds.append(f"encoder.setBytes(&{p.name}Value, length: MemoryLayout<{p.type.swift}>.stride, "
                         f"index: {a['index']})")
    for t in m.threadgroup:
        if t.get("bytes") is None:
            raise KernelportError(f"kernel '{b.kernel}' uses dynamic threadgroup memory with no annotated size",
                                  b.spec.loc, hint="add: // @kp shared BYTES")
        e = ex.parse(t["bytes"], ints, floats)
        binds.append(f"encoder.setThreadgroupMemoryLength({ex.emit(e, ex.SWIFT, ident)}, index: {t['index']})")
    d = m.dispatch
    grid = [ex.emit(ex.parse(t, ints, floats), ex.SWIFT, ident) for t in d["threadgroups_per_grid"]]
    block = [ex.emit(ex.parse(t, ints, floats), ex.SWIFT, ident) for t in d["threads_per_threadgroup"]]
    return {"kernel": b.kernel, "launch": b.launch, "host_name": m.host_name, "camel": camel(b.symbol[3:]),
            "geometry": b.geometry_text(), "params": params, "args": args, "checks": checks, "binds": binds,
            "grid": grid, "block": block}


def snippet(bindings: list[Binding], *, stem: str, source_name: str) -> str:
    kernels = [_kernel(b) for b in bindings]
    code = " ".join(" ".join(k["grid"] + k["block"] + k["binds"] + [c["expr"] for c in k["checks"]]) for k in kernels)
    helpers = {h for h in ex.SWIFT.call.values() if h + "(" in code}
    return templates.render("bind/snippet.swift.j2", stem=stem, source_name=source_name, kernels=kernels,
                            helpers=helpers, error=f"KP{camel(stem)}Error")
