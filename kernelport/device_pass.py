"""`#ifdef __CUDA_ARCH__` meaning "compiling device code", spelled for the target.

nvcc defines `__CUDA_ARCH__` on its device pass only, so real code tests it bare (`#ifdef
__CUDA_ARCH__`, `#if defined(__CUDA_ARCH__)`, or through a macro defined under one: CudaTracerLib's
`ISCUDA`) to pick a device variable over a host one in a `__host__ __device__` function.  hipcc's
device pass does not define it (clang defines `__HIP_DEVICE_COMPILE__` there instead), so a port that
keeps the test compiles the host branch in device code: "reference to __host__ variable in __host__
__device__ function", or worse, host behaviour on the GPU.  The backend's `device_pass_macros`
(HIP: `__CUDA_ARCH__` -> `__HIP_DEVICE_COMPILE__`) respell such a test, decided test by test:

- a conditional whose test reads the macro only as a defined-test (`#ifdef`, `#ifndef`, `#elifdef`,
  `defined(...)`) is the device pass; a number comparison (`#if __CUDA_ARCH__ >= 800`: "this NVIDIA
  architecture", false on hipcc, its `#else` compiled; KP202/KP208 as before), a test mixing both, or a
  use the parse did not see (a `#define` body, a directive the repair blanked) stays as written, and
  does not change how the file's other tests read;
- a device-pass test is respelled only where no code it (or a macro defined under it: ISCUDA) decides
  is NVIDIA-only (inline assembly, an intrinsic the CUDA dialect has alone: the concepts KP201/KP202
  know) and compiled off NVIDIA: code an inner version comparison leaves to NVIDIA (`#if __CUDA_ARCH__
  >= 800` inside `#ifdef __CUDA_ARCH__`) is not; its `#else` is.  A derived macro tested as a value (`#if
  ARCHV`) whose definitions are not each one integer, or used where the parse did not see, keeps the test that
  defines it as written; one read as a value in code (`#define LANES 32` / `#else` / `#define LANES 1`: main's
  port gave the GPU the host's 1) does not, nor one a test reads whose definitions are integers (`ON_GPU` 1 / 0).

Lint reads the original through `ported`: the tests each configured port respells, valued on the AMD device
pass as that port spells them, so its device-side rules analyse the branch the port compiles there (a wave-64
hazard under `#ifdef __CUDA_ARCH__` is carried to AMD by the port).
"""
from __future__ import annotations

import re

from . import backends, guards

_NVIDIA_ONLY_KINDS = ("cuda_only", "warp_reduce")  # lint's PT001 kinds: the intrinsics no target has
_DEFS = ("preproc_def", "preproc_function_def")
_CONDITIONALS = ("preproc_if", "preproc_ifdef")
_TESTS = ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef")
# The passes whose code the rename may change: the AMD ones, and a compiler with no platform macro (Metal).
_OFF_NVIDIA = (*sorted(guards.AMD), "no-platform")


def spelling(tr, name: str, node=None) -> str | None:
    """`name`'s device-pass spelling for `tr`'s backend where `node` (an identifier of `tr`'s source) is
    in a test the port reads as the device pass; None otherwise (`tr`: a translator: its source, module
    and backend; no `node`: a use the parse did not see, kept as written)."""
    new = backends.get(tr.backend).device_pass_macros.get(name)
    if new is None or node is None:
        return None
    cache = tr.__dict__.setdefault("_device_pass", {})
    if name not in cache:
        cache[name] = frozenset()  # (a question asked while deciding it: as written)
        cache[name] = _device_pass_tests(tr, name)
    return new if (node.start_byte, node.end_byte) in cache[name] else None


def word_offsets(src, name: str) -> list[int]:
    """The byte offsets where the file's text names `name` outside comments and strings."""
    rx = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\b(' + re.escape(name) + r')\b', re.S)
    text = src.data.decode("utf-8", "replace")
    return [len(text[:m.start(1)].encode()) for m in rx.finditer(text) if m.group(1)]


def _classify(src, name: str) -> tuple[dict, list]:
    """{test node: [identifiers]} of the conditionals testing `name`, each test's identifiers or None where
    the test reads it other than as defined; and its other uses but `#define name`: (offset, node or None
    where the parse did not see it): `SHM_BANKS = __CUDA_ARCH__ >= 200 ? 32 : 16` in code."""
    nodes = [n for n in src.index.of_type("identifier") if src.text_of(n) == name]
    tests: dict = {}
    seen = {n.start_byte for n in nodes}
    others = [(at, None) for at in word_offsets(src, name) if at not in seen]
    for n in nodes:
        p = n.parent
        if p is not None and p.type in _DEFS and n == p.child_by_field_name("name"):
            continue  # `#define ISCUDA`: the macro's own definition
        if p is not None and p.type in ("preproc_ifdef", "preproc_elifdef") and n == p.child_by_field_name("name"):
            tests.setdefault(p, []).append(n)
            continue
        cond = _test_of(n)
        if cond is None:
            others.append((n.start_byte, n))
        elif p is not None and p.type == "preproc_defined" and tests.get(cond, []) is not None:
            tests.setdefault(cond, []).append(n)
        else:
            tests[cond] = None  # `#if __CUDA_ARCH__ >= 800`: an NVIDIA architecture, as written
    return tests, others


def _test_of(n):
    """The #if / #elif whose test `n` is in, else None."""
    p, child = n.parent, n
    while p is not None:
        if p.type in ("preproc_if", "preproc_elif"):
            return p if child == p.child_by_field_name("condition") else None
        if p.type not in ("preproc_defined", "binary_expression", "unary_expression", "parenthesized_expression"):
            return None
        p, child = p.parent, p
    return None


def _outermost(cond):
    while cond.parent is not None and cond.type not in _CONDITIONALS:
        cond = cond.parent
    return cond


def _nvidia_only_off_nvidia(tr, conds, unknown: frozenset, others: list) -> bool:
    """Does NVIDIA-only code in `conds` (or one of `others`: the macro read in code) compile on a pass off
    NVIDIA, `unknown`'s tests read either way?"""
    from . import arch_branches
    spans = [(c.start_byte, c.end_byte) for c in conds]
    spell = lambda m, n=None: "?" + m if n is not None and (n.start_byte, n.end_byte) in unknown else m  # noqa: E731
    settled = arch_branches.decided(tr)

    def counts(node, at=None) -> bool:
        if at is not None:
            return any(a <= at < b for a, b in spans) and (node is None or counts(node))
        if not any(a <= node.start_byte and node.end_byte <= b for a, b in spans):
            return False
        bs = guards.branches(node, tr.src)
        if any(b.test.id in settled for b in bs):
            return False  # an architecture test the port settles: what it leaves out compiles nowhere, what it takes
        #                   is the target's (arch_branches._portable) or refused where it stands
        return any(all(b.reached(tr.src, p, spell) for b in bs) for p in _OFF_NVIDIA)
    # asm that nvcc's device pass never compiles (the #else of `#ifdef __CUDA_ARCH__`) is the host's assembly,
    # not PTX: it stays host code once the test is respelled (CUDASieve's clzll: x86 `lzcnt`)
    ptx = [n for n, _fn in tr.module.asm if guards.NVIDIA_DEVICE in guards.reach(n, tr.src)]
    return any(counts(n, at) for at, n in others) or any(counts(n) for n in ptx) or \
        any(u.concept.kind in _NVIDIA_ONLY_KINDS and counts(u.node) for u in tr.module.uses)


def _device_pass_tests(tr, name: str) -> frozenset:
    """The (start, end) bytes of `name`'s identifiers the port respells: those of sound device-pass tests."""
    src = tr.src
    tests, others = _classify(src, name)
    out = set()
    for cond, ids in tests.items():
        if not ids:
            continue
        keys = frozenset((n.start_byte, n.end_byte) for n in ids)
        scope = [_outermost(cond)]
        derived = {src.text_of(d.child_by_field_name("name")) for d in src.index.under_types(cond, *_DEFS)
                   if d.child_by_field_name("name") is not None}
        sound = True
        for m in sorted(derived):  # ISCUDA: its tests pick the device pass too
            more, hidden = _classify(src, m)
            # ARCHV read as a value by a test, or where the parse did not see: as written; a value read in code
            # (`#define LANES 32` / `#else` / `#define LANES 1`, `x * LANES`) is the device pass's there too, and so
            # is one a test reads where each definition is one integer (`#define ON_GPU 1` / `#else` / `#define
            # ON_GPU 0`, `#if ON_GPU`): the respelled test gives each of hipcc's passes nvcc's pass's number
            if any(n is None for _, n in hidden) or any(v is None for v in more.values()) and not _integers(src, m):
                sound = False
                break
            scope += [_outermost(c) for c in more]
            keys |= {(n.start_byte, n.end_byte) for v in more.values() if v for n in v}
        if sound and not _nvidia_only_off_nvidia(tr, scope, keys, others):
            out |= {(n.start_byte, n.end_byte) for n in ids}
    return frozenset(out)


def _integers(src, name: str) -> bool:
    """Whether every definition of the object-like macro `name` in `src` is one integer literal."""
    from .warpsites import int_value
    defs = [d for d in src.index.of_type("preproc_def") if d.child_by_field_name("name") is not None
            and src.text_of(d.child_by_field_name("name")) == name]
    return bool(defs) and all((v := d.child_by_field_name("value")) is not None and int_value(src.text_of(v)) is not None
                              for d in defs)


def ported(views, p: str = guards.AMD_DEVICE) -> dict[int, int | None]:
    """For a reader of the original that is no one port (lint): {test node id: its value on pass `p`} of the
    device-pass tests the ports of `views` (kernelport.arch_branches.PortView, one per target) respell, where the
    guards model knows the port's spelling (HIP's `__HIP_DEVICE_COMPILE__`; a spelling it has no pass for, Metal's,
    says nothing of `p`).  Ports that value a test differently leave it unknown (None)."""
    out: dict[int, int | None] = {}
    for v in views:
        for name, new in backends.get(v.backend).device_pass_macros.items():
            if guards.macro(new) is None or name.encode() not in v.src.data:
                continue
            spell = lambda m, n=None, v=v: (spelling(v, m, n) if n is not None else None) or m  # noqa: E731
            for cond, ids in _classify(v.src, name)[0].items():
                if ids and spelling(v, name, ids[0]) is not None:
                    val = guards.holds(cond, v.src, p, spell)
                    out[cond.id] = val if out.get(cond.id, val) == val else None
    return out
