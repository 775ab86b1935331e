"""Overloads that the API renames make one (FLAMEGPU's `gpuAssert(cudaError_t, ...)` and
`gpuAssert(CUresult, ...)`, CMS's `cudaCheck_(..., CUresult, ...)` and `cudaCheck_(..., cudaError_t,
...)`: each pair takes hipError_t on HIP, a redefinition hipcc refuses).  One definition of each such
group stays in the port; the others are left out, their text kept under `#if 0`, with a warning
(KP231) at each.  Calls reach the one kept, which takes the one error type the target has.

Which one stays: the first whose body names nothing the target's release lacks (CMS's CUresult
overload calls cuGetErrorName, whose hipDrvGetErrorName ROCm 5.2 does not declare, while its
cudaError_t twin calls cudaGetErrorName, which every ROCm has), else the first: the group's
definitions mean the same on the target, so the one that compiles there is the port's."""
from __future__ import annotations

import re

from . import backends
from .api_fallbacks import defines
from .diagnostics import Diagnostic

_IDENT = re.compile(rb"[A-Za-z_]\w*")


def _lacks(names, node, table, declared: frozenset) -> bool:
    """Whether the definition `node` names an API the target has no spelling for, or one its checked
    release does not declare (and the port carries no definition of)."""
    b, dirs = backends.get(names.backend), tuple(names.options.get("include_dirs", ()))
    for m in set(_IDENT.findall(names.src.data[node.start_byte:node.end_byte])):
        name = m.decode()
        e = None if name in declared else table.get(name)
        if e is not None and e.role != "header" and (not e.supported or e.hipcc == "absent" and
                                                     not defines(names.src, b, e.hip, dirs)):
            return True
    return False


def check(names) -> None:
    """KP231 and `#if 0` for each definition a group of collapsed overloads does not keep."""
    from .api_names import _parameter_types
    table = backends.get(names.backend).api()
    if table is None:
        return
    declared = names.declared_names()

    def spelled(text: str) -> str:
        return re.sub(r"[A-Za-z_]\w*", lambda m: m.group(0) if m.group(0) in declared
                      else table.spelling(m.group(0)) or m.group(0), text)
    groups: dict[tuple, list] = {}
    for f in names.module.functions.values():
        sig = _parameter_types(names.src, f.node)
        if f.template_node is None and sig is not None and not names.cuda_only_region(f.node):
            key = (f.node.parent.id if f.node.parent is not None else None, f.name, tuple(spelled(t) for t in sig))
            group = groups.setdefault(key, [])
            if all(sig != s for _, s in group):  # the same signature twice: the user's own (and the compiler's) business
                group.append((f, sig))
    for key, group in groups.items():
        if len(group) < 2:
            continue
        kept = next((g for g in group if not _lacks(names, g[0].node, table, declared)), group[0])
        line = names.src.loc(kept[0].node).line
        for f, sig in group:
            if f is kept[0]:
                continue
            names.__dict__.setdefault("_kp_left_out", []).append((f.node.start_byte, f.node.end_byte))
            names.port.diagnostics.append(Diagnostic(
                "KP231", names.src.loc(f.node), f"`{f.name}({', '.join(sig)})` is `{f.name}({', '.join(key[2])})` on "
                f"{backends.get(names.backend).display_name}, as the overload at line {line} is: this definition is "
                "left out of the port (kept under `#if 0`)", "give the target's one type one overload; guard the "
                "other so that only the CUDA build compiles it", "warning"))
            names.rw.replace(f.node, lambda rw, n, ln=line:
                             f"#if 0  // kernelport KP231: one function with the overload at line {ln} on this target\n"
                             f"{rw.original(n)}\n#endif")
