"""`#ifdef __CUDA_ARCH__` meaning "compiling device code", spelled for the target.

nvcc defines `__CUDA_ARCH__` on its device pass only, so real code tests it bare (`#ifdef
__CUDA_ARCH__`, `#if defined(__CUDA_ARCH__)`, or through a macro defined under one: CudaTracerLib's
`ISCUDA`) to pick a device variable over a host one in a `__host__ __device__` function.  hipcc's
device pass does not define it (clang defines `__HIP_DEVICE_COMPILE__` there instead), so a port that
keeps the test compiles the host branch in device code: "reference to __host__ variable in __host__
__device__ function", or worse, host behaviour on the GPU.  The backend's `device_pass_macros`
(HIP: `__CUDA_ARCH__` -> `__HIP_DEVICE_COMPILE__`) respell such a test, and only where it is sound:

- every use of the macro in the file is a defined-test in a directive (`#ifdef`, `#ifndef`,
  `defined(...)`); one number comparison (`#if __CUDA_ARCH__ >= 800`: "this NVIDIA architecture"),
  or a use the parse did not see as such (a `#define` body, a directive the repair blanked),
  keeps every test as written (the `#else` is what hipcc compiles; KP202/KP208 as before);
- no conditional so tested, nor one testing a macro defined under it, holds NVIDIA-only code
  (inline assembly, an intrinsic the CUDA dialect has alone: the concepts KP201/KP202 know).

Lint reads the original and is not concerned.
"""
from __future__ import annotations

import re

from . import backends

_NVIDIA_ONLY_KINDS = ("cuda_only", "warp_reduce")  # lint's PT001 kinds: the intrinsics no target has
_DEFS = ("preproc_def", "preproc_function_def")
_CONDITIONALS = ("preproc_if", "preproc_ifdef")


def spelling(tr, name: str) -> str | None:
    """`name`'s device-pass spelling for `tr`'s backend where the file tests it only as the device pass;
    None otherwise (`tr`: a translator: its source, module and backend)."""
    new = backends.get(tr.backend).device_pass_macros.get(name)
    if new is None:
        return None
    cache = tr.__dict__.setdefault("_device_pass", {})
    if name not in cache:
        cache[name] = False  # (a question asked while deciding it: as written)
        cache[name] = _only_device_pass_tests(tr, name)
    return new if cache[name] else None


def _uses(src, name: str) -> int:
    """How many times the file's text names `name` outside comments and strings."""
    rx = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\b(' + re.escape(name) + r')\b', re.S)
    text = src.data.decode("utf-8", "replace")
    return sum(1 for m in rx.finditer(text) if m.group(1))


def _tests(src, name: str) -> list | None:
    """The outermost conditionals whose test reads `name` as a defined-test; None where another use exists."""
    nodes = [n for n in src.index.of_type("identifier") if src.text_of(n) == name]
    out = []
    for n in nodes:
        p = n.parent
        if p is None:
            return None
        if p.type in _DEFS and n == p.child_by_field_name("name"):
            continue  # `#define ISCUDA`: the macro's own definition
        if p.type in ("preproc_ifdef", "preproc_elifdef") and n == p.child_by_field_name("name"):
            cond = p
        elif p.type == "preproc_defined" and _in_test(p):
            cond = p
            while cond is not None and cond.type not in ("preproc_if", "preproc_elif"):
                cond = cond.parent
        else:
            return None
        while cond is not None and cond.parent is not None and cond.type not in _CONDITIONALS:
            cond = cond.parent
        if cond is None:
            return None
        out.append(cond)
    return out if len(nodes) == _uses(src, name) else None


def _in_test(n) -> bool:
    p, child = n.parent, n
    while p is not None:
        if p.type in ("preproc_if", "preproc_elif"):
            return child == p.child_by_field_name("condition")
        if p.type not in ("binary_expression", "unary_expression", "parenthesized_expression"):
            return False
        p, child = p.parent, p
    return False


def _nvidia_only(tr, conds) -> bool:
    spans = [(c.start_byte, c.end_byte) for c in conds]

    def inside(node) -> bool:
        return any(a <= node.start_byte and node.end_byte <= b for a, b in spans)
    return any(inside(n) for n, _fn in tr.module.asm) or \
        any(u.concept.kind in _NVIDIA_ONLY_KINDS and inside(u.node) for u in tr.module.uses)


def _only_device_pass_tests(tr, name: str) -> bool:
    conds = _tests(tr.src, name)
    if not conds:
        return False
    derived = {tr.src.text_of(d.child_by_field_name("name")) for c in conds
               for d in tr.src.index.under_types(c, *_DEFS) if d.child_by_field_name("name") is not None}
    for m in sorted(derived):  # ISCUDA: its tests pick the device pass too
        more = _tests(tr.src, m)
        if more is None:
            return False
        conds = conds + more
    return not _nvidia_only(tr, conds)
