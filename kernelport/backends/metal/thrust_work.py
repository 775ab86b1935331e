"""A file with no kernel and no device function of its own whose device work is Thrust's (heldout66 nvParse's
test.cu: `thrust::count`, `thrust::copy_if(..., is_break())`, `thrust::for_each(..., parse_functor(...))`, the
functors' `__host__ __device__ operator()` in its nvparse.h).  Thrust has no Metal port, so no Metal port is
written, as for host code only (KP227); the warning says so, at the first algorithm call, naming the functors
the calling functions name (a temporary, or a local passed on) that a `__device__` `operator()` makes device code (in the file or a header it includes by a
quoted name), instead of "no device code".

An algorithm call is `thrust::NAME(...)` but for Thrust's helpers that build iterators, pointers and tuples
(`make_counting_iterator`, `raw_pointer_cast`: `_HELPERS`), which run nothing on the device, and a type or
an operator object built in place (`thrust::host_vector<unsigned>(v)`, `thrust::plus<int>()`: template arguments)."""
from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from ...source import SourceFile

_HELPERS = re.compile(r"make_\w+|raw_pointer_cast|device_pointer_cast|get|tie|swap|distance|advance|\w+_(?:vector|iterator|ptr)")
_FUNCTOR = re.compile(r"\b(?:struct|class)\s+(\w+)[^;{]*\{", re.S)
_DEVICE_CALL = re.compile(r"__device__[^;{}]*\boperator\s*\(\s*\)")


def algorithm_calls(src: SourceFile) -> list[Node]:
    """The file's `thrust::NAME(...)` calls that run an algorithm, in source order."""
    out = []
    for call in src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        text = src.text_of(fn) if fn is not None else ""
        m = re.fullmatch(r"\s*(?:::)?\s*thrust\s*::\s*(\w+)\s*", text)  # (`NAME<T>(...)`: a type or an operator object)
        if m is not None and not _HELPERS.fullmatch(m.group(1)):
            out.append(call)
    return sorted(out, key=lambda n: n.start_byte)


def _functors(text: str) -> dict[str, int]:
    """Classes of `text` with a `__device__` operator() (name -> the line of its definition): a brace-matched
    scan of each class body (its own text only: a nested class's operator is the nested class's)."""
    out = {}
    for m in _FUNCTOR.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if _DEVICE_CALL.search(text[m.end():i]):
            out.setdefault(m.group(1), text.count("\n", 0, m.start()) + 1)
    return out


def described(tr) -> tuple[Node, str] | None:
    """(the first algorithm call, the words that say the file's device work is Thrust's) or None."""
    calls = algorithm_calls(tr.src)
    if not calls:
        return None
    from ...includes import locate
    found: dict[str, str] = {f: f"{Path(tr.src.path).name}:{ln}" for f, ln in _functors(tr.src.text).items()}
    for inc in tr.src.index.of_type("preproc_include"):
        p = inc.child_by_field_name("path")
        raw = tr.src.text_of(p) if p is not None else ""
        header = locate(Path(tr.src.path).parent, raw, tuple(tr.options.get("include_dirs", ()))) \
            if raw.startswith('"') else None
        if header is not None:
            for f, ln in _functors(header.read_text(errors="replace")).items():
                found.setdefault(f, f"{header.name}:{ln}")
    holders = {}  # the functions that call: a functor is passed as a temporary or as a local declared there
    for c in calls:
        f = tr.module.function_at(c)
        holders[id(f)] = tr.src.text_of(f.node) if f is not None else tr.src.text_of(c)
    args = " ".join(holders.values())
    used = [f"`{f}` ({at})" for f, at in found.items() if re.search(rf"\b{re.escape(f)}\b", args)]
    first = tr.src.text_of(calls[0].child_by_field_name("function")).strip()
    what = f"Thrust algorithm calls (`{first}` here, {len(calls)} in all)"
    if used:
        what += f" and the `__host__ __device__` functors they run ({', '.join(used)})"
    return calls[0], what
