"""The preprocessor tests the configured ports settle, file by file of a lint unit.

Translate settles some of the original's tests for every port: `#if __CUDA_ARCH__ >= N` in device code takes the
newest architecture's branch (kernelport/arch_branches.py), `#ifdef __CUDA_ARCH__` is respelled as the target's
device pass (kernelport/device_pass.py).  Lint is no one port: it reads each configured port's choice, valued
on the AMD device pass, for the file it lints (guards.side_of's `ported`) and for each header of the unit whose
definitions decide the unit's macros (kernelport.unitdefines: CudaTracerLib's `#ifdef __CUDA_ARCH__` /
`#define ISCUDA`, in a header the port respells, is defined on AMD's device pass there, not NVIDIA's alone).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .. import backends


def port_backends(targets: Iterable[str]) -> list[str]:
    """The ports whose choices lint reads: the backends of the configured targets (every port where only the
    source's own hardware is configured)."""
    from .rule import BACKEND
    return sorted({BACKEND[t] for t in targets if not backends.get(BACKEND[t]).is_source}) or \
        [b.name for b in backends.ports()]


def settled(src, module, ports: Iterable[str], names: Mapping[str, int]) -> dict[int, int | None]:
    """{test node id of `src`: its value on the AMD device pass of the ports (None: they differ)} for the tests
    the ports of `ports` settle; `module`: `src`'s model, `names`: the unit's decided values (unitdefines)."""
    from .. import arch_branches, device_pass
    if b"__CUDA_ARCH__" not in src.data and not any(n.encode() in src.data for b in ports
                                                       for n in backends.get(b).device_pass_macros):
        return {}
    views = [arch_branches.PortView(src, module, b, names) for b in ports]
    return {**arch_branches.ported(views), **device_pass.ported(views)}  # (the device pass: `#ifdef __CUDA_ARCH__`)


def ported_definitions(src, macros: Mapping, ported: Mapping[int, int | None], known=None) -> dict:
    """{name: its `#define` node} for the file's own macros defined more than once where the tests between the
    definitions are ones the ports settle and exactly one definition is what they compile on AMD's device pass:
    `#ifdef __CUDA_ARCH__` / `#define LANES 32` / `#else` / `#define LANES 1` is 32 in the HIP port's device code
    (device_pass respells the test), where the model keeps the last definition (the host's 1).  `macros`: the
    model's (a name it lacks, or one whose kept definition is that one already, is left out)."""
    from .. import guards
    if not ported:
        return {}
    defs: dict[str, list] = {}
    for d in src.index.of_type("preproc_def"):
        nn = d.child_by_field_name("name")
        if nn is not None:
            defs.setdefault(src.text_of(nn), []).append(d)
    out = {}
    for name, ds in defs.items():
        if len(ds) < 2 or name not in macros:
            continue
        around = [guards.branches(d, src) for d in ds]
        if not any(b.test.id in ported for bs in around for b in bs):
            continue
        on = [d for d, bs in zip(ds, around)
              if all(b.reached(src, guards.AMD_DEVICE, known=known, decided=ported) for b in bs)]
        if len(on) == 1 and on[0].start_byte != macros[name].node.start_byte:
            out[name] = on[0]
    return out
