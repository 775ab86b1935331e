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
    if not ported:
        return {}
    out = {}
    for name, ds in _redefined(src).items():
        if name not in macros:
            continue
        on = compiled_on_amd(src, ds, ported, known)
        if on is not None and on.start_byte != macros[name].node.start_byte:
            out[name] = on
    return out


def _redefined(src) -> dict:
    """{name: its `#define` nodes} of the names `src` defines more than once (once per parse)."""
    got = src.__dict__.get("_kp_redefined")
    if got is None:
        defs: dict[str, list] = {}
        for d in src.index.of_type("preproc_def"):
            nn = d.child_by_field_name("name")
            if nn is not None:
                defs.setdefault(src.text_of(nn), []).append(d)
        got = src.__dict__["_kp_redefined"] = {n: ds for n, ds in defs.items() if len(ds) > 1}
    return got


def amd_definitions(src, macros: Mapping, known=None) -> dict:
    """{name: its `#define` node} for a header's integer macro defined per platform branch where the one AMD's
    device pass compiles is written for AMD alone (`#if defined(__HIP_PLATFORM_AMD__)` / `#define LANES 64` /
    `#else` / `#define LANES 32`): every build for AMD compiles it, as written and in each port (they keep AMD's
    names), where the walk, which cannot decide a platform's test, keeps the last (NVIDIA's 32).  Only where
    its value differs from `macros[name]`'s (the walk's; a name it lacks is left out)."""
    from .. import guards
    out = {}
    for name, ds in _redefined(src).items():
        kept = macros.get(name)
        was = guards._int(kept.value) if kept is not None else None  # noqa: SLF001 - the guards' reading of a number
        on = [d for d in ds if all(b.reached(src, guards.AMD_DEVICE, known=known) for b in guards.branches(d, src))]
        v = on[0].child_by_field_name("value") if len(on) == 1 and was is not None else None
        now = guards._int(src.text_of(v).strip()) if v is not None else None  # noqa: SLF001
        if now not in (None, was) and guards.amd_only(on[0], src):  # (no NVIDIA pass: not `#ifndef __CUDA_ARCH__`'s)
            out[name] = on[0]
    return out


def compiled_on_amd(src, ds, ported: Mapping[int, int | None], known=None):
    """The one of `ds` (one name's definitions in `src`) that the ports compile on AMD's device pass, where a test
    around them is one they settle (`ported`); None where none is, or where that pass may compile several."""
    from .. import guards
    around = [guards.branches(d, src) for d in ds]
    if not any(b.test.id in ported for bs in around for b in bs):
        return None
    on = [d for d, bs in zip(ds, around) if all(b.reached(src, guards.AMD_DEVICE, known=known, decided=ported) for b in bs)]
    return on[0] if len(on) == 1 else None


def header_definitions(vis, ported_in, known=None) -> None:
    """The unit's view of its headers (`vis`) as the ports compile them on AMD's device pass: a header's macro
    defined per branch of a test they settle (`#ifdef __CUDA_ARCH__` / `#define LANES 32` / `#else` / `#define
    LANES 1`: the walk cannot decide `__CUDA_ARCH__` and keeps the last, the host's 1), as ported_definitions
    reads the file's own (and one written per platform: amd_definitions); and its `const`/`constexpr` integers under
    such a test (headerconsts.conditional_constants:
    `#ifdef __CUDA_ARCH__` / `constexpr int LANES = 32;` is the HIP port's device code), which headerconsts reads
    only outside every conditional.  `ported_in`: (header source, its model) -> settled's answer for it."""
    from ..headerconsts import conditional_constants
    from ..model import Macro
    from ..source import uncomment
    away = getattr(vis, "elsewhere", None)
    owned: dict[str, dict] = {}  # each header's macros among those the unit sees (vis.where: the one definition)
    for n, m in vis.macros.items():
        owned.setdefault(vis.where[n][0] if n in vis.where else "", {})[n] = m
    for p in (away.paths if away is not None else ()):
        pf = away.project.file(p)
        if pf is None:
            continue
        src, mine, ported = pf.src, owned.get(str(p), {}), ported_in(pf.src, pf.module)
        for name, node in {**amd_definitions(src, mine, known), **ported_definitions(src, mine, ported, known)}.items():
            v = node.child_by_field_name("value")
            vis.macros[name] = Macro(name, uncomment(src.text_of(v)).strip() if v else "", node, v)
            vis.where[name] = away.project._where(p, vis.macros[name])  # noqa: SLF001 - the project's one reading
        for name, decls in (conditional_constants(src) if ported else {}).items():
            got = compiled_on_amd(src, [d for d, _ in decls], ported, known)
            if got is None or name in vis.macros or name in vis.constants:
                continue
            value = dict(decls)[got]
            vis.constants[name] = Macro(name, src.text_of(value), got, value)
            vis.where[name] = away.project._where(p, vis.constants[name])  # noqa: SLF001
