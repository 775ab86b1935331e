"""What a dual-built project's HIP build compiles, told by the project's own branches.

A project built by both nvcc and hipcc often maps CUDA spellings to HIP ones where only the AMD
build looks: `#if defined(USE_ROCM)` / `#define __shfl_xor_sync(mask, var, lane) __shfl_xor(var, lane)`,
or a header included only there (ggml's vendors/hip.h under `GGML_USE_HIP`).  What is (re)defined
there is what the AMD build compiles, so wave-64 hazards are judged under it.  A branch is the HIP
build's when its test holds on every AMD pass (kernelport.guards: `__HIP_PLATFORM_AMD__`,
`__HIPCC__`, `USE_ROCM`-style names), or names a macro the project tests around an
`#include <hip/...>` (that is how it tells its HIP configuration), or one the user names
(`[tool.kernelport] hip-defines`, `--hip-define`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tree_sitter import Node

from . import guards
from .source import walk

_SIMPLE_TESTS = ("identifier", "preproc_defined")


@dataclass(frozen=True)
class HipMacro:
    """A macro the AMD build defines."""
    params: tuple[str, ...] | None  # None: object-like
    body: str
    path: str
    line: int


def configuration_names(src) -> frozenset[str]:
    """Macros `src` tests that the AMD build defines: platform names (kernelport.guards) and the
    project's own `X` of an `#ifdef X` / `#if defined(X)` branch that includes a HIP header (`<hip/...>`).
    Once per parse: every translation unit that includes a header asks, and lint's rules again."""
    got = src.__dict__.get("_kp_configuration_names")
    if got is None:
        got = src.__dict__["_kp_configuration_names"] = _configuration_names(src)
    return got


def _configuration_names(src) -> frozenset[str]:
    out: set[str] = set()
    for kind in guards.CONDITIONALS:
        for name in (n for cond in src.index.of_type(kind) for n in _tested(cond, src)):
            m = guards.macro(name)
            if m is not None and guards.AMD <= m.defined_on and not (m.sometimes or m.arch):
                out.add(name)
    for inc in src.index.of_type("preproc_include"):
        path = inc.child_by_field_name("path")
        if path is None or not src.text_of(path).startswith("<hip/"):
            continue
        for b in guards.branches(inc, src)[:1]:  # the innermost branch decides
            t = guards.test_node(b.test)
            if t is None or b.in_else:
                continue
            if t.type == "preproc_defined":
                t = next((c for c in t.named_children if c.type == "identifier"), None)
            if t is not None and t.type == "identifier" and guards.macro(src.text_of(t)) is None:
                out.add(src.text_of(t))
    return frozenset(out)


def taken_on_amd(node: Node, src, names: frozenset[str] = frozenset()) -> bool:
    """Is `node` compiled by the AMD device build as far as platforms go?  Every branch around it
    that tests a platform or configuration name is taken there; other tests (include guards,
    feature switches) are the same in both builds: the project's scan decides those."""
    for b in guards.branches(node, src):
        if not (guards.names_platform(b.test, src) or _tested(b.test, src) & names):
            continue
        v = guards.holds(b.test, src, guards.AMD_DEVICE, amd=names)
        if v is None or bool(v) == b.in_else:
            return False
    return True


def _tested(cond: Node, src) -> set[str]:
    t = guards.test_node(cond)
    if t is None:
        return set()
    # a walk of the node, not src.index: the project's scan may hold nodes of an earlier parse of
    # the same text (before its macro-aware re-parse), which that index does not know
    return {src.text_of(n) for n in walk(t) if n.type == "identifier"}


def macros(src, names: frozenset[str] = frozenset(), active=None) -> dict[str, HipMacro]:
    """The macros of `src` that the AMD build compiles (the last one of a name wins); `active`: the
    definitions the project's scan reached with the HIP configuration defined (else every one)."""
    if active is None:
        active = sorted(src.index.of_type("preproc_function_def") + src.index.of_type("preproc_def"),
                        key=lambda n: n.start_byte)
    out: dict[str, HipMacro] = {}
    for d in active:
        name, params, value = (d.child_by_field_name(f) for f in ("name", "parameters", "value"))
        if name is None or not taken_on_amd(d, src, names):
            continue
        ps = None if params is None else tuple(src.text_of(p).strip() for p in params.named_children
                                               if p.type == "identifier")
        body = " ".join(src.text_of(value).split()) if value is not None else ""
        out[src.text_of(name)] = HipMacro(ps, body, str(src.path), src.loc(d).line)
    return out


def file_macros(src) -> Mapping[str, HipMacro]:
    """What the AMD build defines as far as one file tells (no project model: a file alone).  Once
    per parse: lint's rules ask for it per call site, and each answer walks every definition."""
    cache = src.__dict__
    if "_kp_file_macros" not in cache:
        cache["_kp_file_macros"] = MappingProxyType(macros(src, configuration_names(src)))
    return cache["_kp_file_macros"]


def expand(text: str, defined: dict[str, HipMacro], rounds: int = 3) -> str:
    """`text` with the AMD build's object-like macros replaced by their bodies (a few rounds)."""
    for _ in range(rounds):
        new = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: _body(m.group(0), defined), text)
        if new == text:
            break
        text = new
    return text


def _body(name: str, defined: dict[str, HipMacro]) -> str:
    m = defined.get(name)
    return f"({m.body})" if m is not None and m.params is None and m.body else name
