"""An attribute macro defined per nvcc pass: `__device__` on the device pass, nothing (or `__host__`) on the host's.

2DMeanField's shared/code_sharing.hpp:

    #if defined(__CUDACC__) && defined(__CUDA_ARCH__)
    #define __SHARED_CODE__ __device__
    #else
    #define __SHARED_CODE__
    #endif

and its other headers declare helpers `__SHARED_CODE__ inline void applyGaussianKernel(...)` that kernels call.
nvcc accepts it: each of its passes sees the helper in its own space, so the device pass compiles the kernel's
call to a device function and the host pass never checks a kernel's calls.  clang checks them on hipcc's host
pass too, where the respelled test (kernelport/device_pass.py: `__HIP_DEVICE_COMPILE__`) leaves the helper
host-only: "no matching function ... call to __host__ function from __global__ function".  Under nvcc such a
function is callable from both sides, which is `__host__ __device__` on each of hipcc's passes; the backend's
`both_passes_space` (HIP: `__HIPCC__`, `__host__ __device__`) says how.  The port gives the device pass's
definition `__host__` beside its `__device__`, and the host pass's definition becomes

    #if defined(__HIPCC__)
    #define __SHARED_CODE__ __host__ __device__
    #else
    #define __SHARED_CODE__
    #endif

so a plain host compiler still reads the empty definition.  Conditions, checked:

- the macro is object-like, defined once on nvcc's device pass alone with `__device__` in its body, and once
  on its host pass alone without `__device__` or `__global__`, both in one conditional; as the port spells that
  conditional, the target's host pass reads the second (its device pass the first where the test is respelled:
  a test device_pass.py keeps as written, where the file's own uses are attribute masks it cannot read, is
  false on both of hipcc's passes, and the host definition's arm gives both of them `__host__ __device__`);
- every use of the macro in the files of the run that see the defining file (the file itself, the run's files
  that include it and the headers they include: kernelport.includers), through macros whose bodies use it, is
  a function's declaration or definition: `__host__` on a variable is ill-formed.  Where functions and another
  use meet, the port refuses at that use (KP242, file:line:col); where no use is a function (only variables),
  hipcc's passes already read the macro as nvcc's do and the text is kept.
"""
from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from . import backends, guards

_DECLS = ("function_definition", "declaration", "field_declaration")
_WRAPPERS = ("pointer_declarator", "reference_declarator", "parenthesized_declarator")
_DEFS = ("preproc_def", "preproc_function_def")
_TESTS = ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef")


def rewrite_pass(tr) -> None:
    """A translator pass: each per-pass attribute macro of `tr`'s source that only functions use, made
    `__host__ __device__` on both of the target's passes; KP242 where a function and another use share it."""
    space = backends.get(tr.backend).both_passes_space
    if space is None or b"__device__" not in tr.src.data:
        return
    for name, (dev, host) in _candidates(tr).items():
        bad, functions = _uses(tr, name)
        if not functions:
            continue  # variables alone: hipcc's two passes read them as nvcc's do
        if bad:
            path, loc = bad[0]
            from .diagnostics import Diagnostic
            tr.port.diagnostics.append(Diagnostic("KP242", loc, (
                f"`{name}` is `__device__` on nvcc's device pass alone ({tr.src.path}:{tr.src.loc(dev).line}), which "
                f"makes a function callable from both sides there; hipcc checks a kernel's calls on its host pass too, "
                f"so the port would define it `{space[1]}`, but this use of it is not a function's declaration"),
                f"declare variables with `__device__` (or a macro of their own) and keep `{name}` for functions"))
            continue
        _rewrite(tr, name, dev, host, space)


def _candidates(tr) -> dict[str, tuple[Node, Node]]:
    """name -> (its `#define` nvcc's device pass alone reads, the one its host pass alone reads) where the port's
    spelling gives the target's device pass the first and its host pass the second."""
    src, byname = tr.src, {}
    for d in src.index.of_type("preproc_def"):
        n = d.child_by_field_name("name")
        if n is not None:
            byname.setdefault(src.text_of(n), []).append(d)
    out = {}
    for name, defs in byname.items():
        if len(defs) != 2:
            continue
        words = [_words(src, d) for d in defs]
        written = [guards.reach(d, src) for d in defs]
        ported = [guards.reach(d, src, tr.ported_macro) for d in defs]
        for i in (0, 1):
            dev, host = defs[i], defs[1 - i]
            if "__device__" not in words[i] or words[1 - i] & {"__device__", "__global__"}:
                continue
            if not (guards.NVIDIA_DEVICE in written[i] and guards.NVIDIA_HOST not in written[i]
                    and guards.NVIDIA_HOST in written[1 - i] and guards.NVIDIA_DEVICE not in written[1 - i]):
                continue
            if guards.AMD_HOST in ported[i] or guards.AMD_HOST not in ported[1 - i]:
                continue
            if _conditional(dev) is not None and _conditional(dev) == _conditional(host):
                out[name] = (dev, host)
    return out


def _words(src, d: Node) -> set[str]:
    v = d.child_by_field_name("value")
    return set(re.findall(r"\w+", src.text_of(v))) if v is not None else set()


def _conditional(n: Node) -> Node | None:
    p = n.parent
    while p is not None and p.type not in guards.CONDITIONALS:
        p = p.parent
    return p


def _files(tr) -> list:
    """The SourceFiles whose uses count: the run's files that see this one (this file's own parse first)."""
    out = [tr.src]
    vis = tr.module.visible
    ew = vis.elsewhere if vis is not None else None
    if ew is None or ew.root is None:
        return out
    proj = ew.project
    for f in ew.seeing():
        if f == ew.root:
            continue  # (its own parse is `tr.src`)
        try:
            out.append(proj.module(f).source)
        except Exception:  # noqa: BLE001 - a file that does not parse: the command reports it
            continue
    return out


def _uses(tr, name: str) -> tuple[list, bool]:
    """([(path, Location)] of the uses of `name` that are not a function's declaration, whether a function
    is declared with it), over the files that see its definition, through macros whose bodies name it."""
    from .device_pass import word_offsets as offsets
    bad, functions, todo, seen = [], False, [name], {name}
    files = _files(tr)
    while todo:
        m = todo.pop()
        for src in files:
            if m.encode() not in src.data:
                continue
            for at in offsets(src, m):
                kind = _kind(src, at, m)
                if kind == "function":
                    functions = True
                elif kind is None:
                    continue
                elif kind.startswith("macro:"):
                    if kind[6:] not in seen:
                        seen.add(kind[6:])
                        todo.append(kind[6:])
                else:
                    bad.append((src.path, src.location(at)))
    return bad, functions


def _kind(src, at: int, name: str) -> str | None:
    """What the use of `name` at byte `at` is: "function", "other", "macro:NAME" (in NAME's body), or None
    (its own definition, a test, an `#undef`)."""
    n = src.root.descendant_for_byte_range(at, at + len(name))
    p = n
    while p is not None:
        if p.type in _DEFS:
            own = p.child_by_field_name("name")
            if own is not None and own.start_byte <= at < own.end_byte:
                return None
            return "macro:" + src.text_of(own) if own is not None else "other"
        if p.type == "preproc_call":
            return None  # `#undef`
        if p.type in _TESTS and (t := guards.test_node(p)) is not None and t.start_byte <= at < t.end_byte:
            return None
        p = p.parent
    nb = re.compile(rb"\S").search(src.data, at + len(name))
    if nb is None:
        return "other"
    p = src.root.descendant_for_byte_range(nb.start(), nb.start())
    while p is not None and p.type not in _DECLS:
        p = p.parent
    if p is None:
        return "other"
    if p.type == "function_definition":
        return "function"
    decls = p.children_by_field_name("declarator")
    return "function" if decls and all(_is_function(d) for d in decls) else "other"


def _is_function(d: Node) -> bool:
    while d is not None and d.type in _WRAPPERS:
        d = d.child_by_field_name("declarator") or (d.named_children[-1] if d.named_children else None)
    return d is not None and d.type == "function_declarator"


def _rewrite(tr, name: str, dev: Node, host: Node, space: tuple[str, str]) -> None:
    """Both of the target's passes read `name` as `both` (`__host__ __device__`): the device definition's body
    respelled, and the host definition wrapped so the target's compiler reads the respelled body while a plain
    host compiler still reads the original (empty) one."""
    macro, both = space
    v = dev.child_by_field_name("value")
    body = tr.src.text_of(v).strip()
    if "__host__" not in _words(tr.src, dev):
        body = re.sub(r"\b__device__\b", both, body, count=1)
        # a test kept as written is false on both of hipcc's passes: the device arm is then dead code there, and
        # the host arm's new definition serves both passes, so the dead arm is left as written
        if guards.AMD_DEVICE in guards.reach(dev, tr.src, tr.ported_macro):
            tr.rw.replace(v, body)
    text = tr.src.text_of(host)
    end = "" if text.endswith("\n") else "\n"
    tr.rw.replace(host, f"#if defined({macro})\n#define {name} {body}\n#else\n{text}{end}#endif\n")
    tr.note(dev, f"#define {name} {body}", f"nvcc's device pass alone makes `{name}` `__device__`; hipcc checks a "
            f"kernel's calls on its host pass too, so both passes define it `{both}` (every use in "
            f"{Path(tr.src.path).name} and the files that include it declares a function)")
