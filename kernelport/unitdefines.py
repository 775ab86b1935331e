"""A translation unit's own macros that its definitions decide, for reading its platform tests
(kernelport.guards.Defines).

ggml-style headers spell architecture tests through their own macros: `#define GGML_CUDA_CC_TURING 750`,
then `#if __CUDA_ARCH__ >= GGML_CUDA_CC_TURING` / `#define TURING_MMA_AVAILABLE` / `#endif`, and the
code under `#ifdef TURING_MMA_AVAILABLE` (inline PTX, `__reduce_add_sync`) is NVIDIA's alone: hipcc
leaves `__CUDA_ARCH__` undefined, so `0 >= 750` is false on every AMD pass and the macro is never
defined there.  Read alone, each name is unknown (a -D or another header might give it).  Over the
unit (the file and the headers it includes) the definitions decide:

- `values`: a name every definition of which is the same integer, outside any conditional but an
  include guard, never `#undef`ed and not a -D of the run: that integer;
- `nvidia_only`: a name every definition of which lies under a test false on each AMD pass (given
  `values` and the names found so, a few rounds deep), and not a -D of the run: undefined on the
  AMD passes.  Lint (`ported`) reads each definition as the ports compile it too: CudaTracerLib's
  `#ifdef __CUDA_ARCH__` / `#define ISCUDA`, a device-pass test the HIP port respells
  (kernelport/device_pass.py decides it), defines ISCUDA on AMD's device pass there: not NVIDIA's alone.

A name the platform defines (kernelport.guards.MACROS) is never the unit's.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tree_sitter import Node

from . import guards


@dataclass(frozen=True)
class _Def:
    """A `#define` of a unit's file or includes, and its integer value."""
    src: object
    node: Node
    value: int | None  # the integer it defines (None: another body, a function-like macro)
    guard_only: bool  # outside every conditional but include guards


def _file_defs(src) -> tuple[dict[str, list[_Def]], frozenset[str]]:
    """(name -> its definitions in `src`, the names `src` #undefs); once per parse."""
    got = src.__dict__.get("_kp_unit_defs")
    if got is None:
        got = src.__dict__["_kp_unit_defs"] = _scan(src)
    return got


def _scan(src) -> tuple[dict[str, list[_Def]], frozenset[str]]:
    defs: dict[str, list[_Def]] = {}
    for kind in ("preproc_def", "preproc_function_def"):
        for d in src.index.of_type(kind):
            nn = d.child_by_field_name("name")
            if nn is None:
                continue
            v = d.child_by_field_name("value") if kind == "preproc_def" else None
            value = guards._int(src.text_of(v).strip()) if v is not None else None  # noqa: SLF001 - the same reading
            defs.setdefault(src.text_of(nn), []).append(_Def(src, d, value, False))
    guard_names = frozenset(defs)
    for name, ds in defs.items():
        defs[name] = [_Def(x.src, x.node, x.value, _guard_only(x.node, src, guard_names)) for x in ds]
    undef = frozenset(src.text_of(c.named_children[1]) for c in src.index.of_type("preproc_call")
                      if src.text_of(c.child_by_field_name("directive")) == "#undef" and len(c.named_children) > 1)
    return defs, undef


def _guard_only(node: Node, src, defined: frozenset[str]) -> bool:
    """Is `node` outside every conditional but `#ifndef NAME` of a NAME the file defines (an include guard)?"""
    for b in guards.branches(node, src):
        t = guards.test_node(b.test)
        if b.in_else or b.test.type != "preproc_ifdef" or t is None or not src.text_of(b.test.children[0]).endswith("ndef") \
                or src.text_of(t) not in defined:
            return False
    return True


def unit_defines(srcs, given: frozenset[str] = frozenset(),
                 ported: Callable[[object, Mapping[str, int]], Mapping[int, int | None]] | None = None) -> guards.Defines:
    """The Defines of a unit whose files' parses are `srcs`; `given`: the run's -D names; `ported`: (a file of
    `srcs`, `values`) -> {test node id: its value on the AMD device pass} of the tests the ports settle there
    (kernelport.lint.portedtests), asked only of a file with a definition no AMD pass compiles as written."""
    defs: dict[str, list[_Def]] = {}
    undef: set[str] = set()
    for src in srcs:
        d, u = _file_defs(src)
        for name, ds in d.items():  # (a copy of a parse shares its cache: each definition is asked of `src` itself)
            defs.setdefault(name, []).extend(x if x.src is src else _Def(src, x.node, x.value, x.guard_only) for x in ds)
        undef |= u
    mine = {n: ds for n, ds in defs.items() if n not in given and guards.macro(n) is None}
    values = {}
    for name, ds in mine.items():
        vals = {x.value for x in ds}
        if name not in undef and len(vals) == 1 and None not in vals and all(x.guard_only for x in ds):
            values[name] = vals.pop()
    known = guards.Defines(values)
    for _ in range(4):  # a name defined under another's test (`#if defined(FP16_AVAILABLE) && ...`): a few rounds
        nvidia = frozenset(name for name, ds in mine.items() if name not in values and
                           all(not x.guard_only and not _on_amd(x, known, ported, values) for x in ds))
        if nvidia == known.nvidia_only:
            break
        known = guards.Defines(values, nvidia)
    return known


def _on_amd(x: _Def, known: guards.Defines, ported=None, values: Mapping[str, int] = {}) -> bool:  # noqa: B006 - read only
    """Can an AMD pass compile this definition, as written or (`ported`) as the ports compile it?"""
    bs = guards.branches(x.node, x.src)
    if any(all(b.reached(x.src, p, known=known) for b in bs) for p in guards.AMD):
        return True
    settled = ported(x.src, values) if ported is not None else None
    return bool(settled) and all(b.reached(x.src, guards.AMD_DEVICE, known=known, decided=settled) for b in bs)
