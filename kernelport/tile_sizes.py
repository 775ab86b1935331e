"""The value of a cooperative-groups tile's size written as a name (`tiled_partition<TILE>(block)`,
`thread_block_tile<kWarp>`): what C++ would make of it where the tile is named.

A literal is its value; a name or an expression of names is read with the constants the file's code decides
(kernelport.blockdims.constant: a macro, the file's or a header's; a `const`/`constexpr` local or file-scope
variable; a constant member of an enclosing class); a template parameter of the function around it takes
the values its template calls and launches in the file pass (`k<16><<<g, b>>>`, `f<TILE>(t)` followed into
the caller's own parameter, each function once: a recursive template terminates), a parameter's default
where a call passes none.  Anything else (a parameter no call binds, a call whose argument is no constant)
is unknown: None, never a guessed width; the callers keep their located refusals (KP210).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .model import Function
from .warpsites import int_value

_DEPTH = 16  # callers followed through their own template parameters
_NAME = r"[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*"


def values(module, text: str, at: Node) -> frozenset[int] | None:
    """The values the size `text` (as written in a tile's template argument) takes where `at` reads it, or None."""
    return _values(module, text, module.function_at(at), set(), 0)


def _values(module, text: str, f: Function | None, seen: set, depth: int) -> frozenset[int] | None:
    t = " ".join(text.split())
    v = int_value(t)
    if v is not None:
        return frozenset({v})
    if f is not None and t in f.template_params:
        return _bound(module, f, f.template_params.index(t), seen, depth)
    from .blockdims import evaluate, names
    known = names(module)
    env: dict[str, int] = {}
    for name in {re.sub(r"\s+", "", n) for n in re.findall(_NAME, t)}:
        if name in ("sizeof",):
            return None
        got = _constant(module, name, f, known)
        if got is None:
            return None
        env[name.replace("::", "__kp_scope__")] = got
    v = evaluate(re.sub(_NAME, lambda m: re.sub(r"\s+", "", m.group(0)).replace("::", "__kp_scope__"), t), env)
    return frozenset({v}) if v is not None else None


def _constant(module, name: str, f: Function | None, known) -> int | None:
    """A constant's value (a qualified name by its last part where the file declares that name once)."""
    from .blockdims import constant
    last = name.rsplit("::", 1)[-1]
    if last != name and sum(module.source.text_of(n) == last for n in module.source.index.of_type("identifier")
                            if n.parent is not None and n.parent.type == "init_declarator") > 1:
        return None  # (two `kTile`s in two namespaces: which one is not read here)
    return constant(last, f, module, known)


def _template_args(module, call: Node) -> list[Node] | None:
    fn = call.child_by_field_name("function")
    while fn is not None and fn.type == "qualified_identifier":
        fn = fn.child_by_field_name("name")
    if fn is None or fn.type != "template_function":
        return None
    args = fn.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _callee_name(module, call: Node) -> str | None:
    fn = call.child_by_field_name("function")
    while fn is not None and fn.type in ("qualified_identifier", "template_function"):
        fn = fn.child_by_field_name("name")
    return module.source.text_of(fn) if fn is not None else None


def _default(module, f: Function, i: int) -> str | None:
    plist = f.template_node.child_by_field_name("parameters") if f.template_node is not None else None
    params = [p for p in plist.named_children if p.type != "comment"] if plist is not None else []
    if i >= len(params) or params[i].type != "optional_parameter_declaration":
        return None
    d = params[i].child_by_field_name("default_value")
    return module.source.text_of(d) if d is not None else None


def _bound(module, f: Function, i: int, seen: set, depth: int) -> frozenset[int] | None:
    """The values f's template parameter i takes at the file's calls and launches of f; None where one is not known."""
    key = (f.node.start_byte, i)
    if key in seen:
        return frozenset()  # (a cycle: the values it passes on are those its other callers give)
    if depth >= _DEPTH:
        return None
    seen.add(key)
    name, out, calls = f.name.rsplit("::", 1)[-1], set(), 0
    for call in module.source.index.of_type("call_expression"):
        if _callee_name(module, call) != name:
            continue
        targs = _template_args(module, call)
        if targs is None:
            continue  # (a call that deduces: no value argument written)
        caller = module.function_at(call)
        calls += 1
        text = module.source.text_of(targs[i]) if i < len(targs) else _default(module, f, i)
        got = _values(module, text, caller, seen, depth + 1) if text is not None else None
        if got is None:
            return None
        out |= got
    return frozenset(out) if calls and out else None


def spelled(module, text: str, at: Node) -> str | None:
    """The size as a port may write it where `at` reads it: as written (the name C++ resolved where the tile was
    declared, in scope at its use; each template instance its own value, those of files this run does not read
    too) where it is a template parameter of the function around `at` or its value is known, else None
    (unknown: no width is guessed)."""
    t = " ".join(text.split())
    f = module.function_at(at)
    if not (f is not None and t in f.template_params) and values(module, t, at) is None:
        return None
    return t if re.fullmatch(rf"\d+[uU]?|{_NAME}", t) else f"({t})"


def reader(text: str, path: str):
    """A reader of the sizes the file `path` (its text) writes as names: (size text, file, line) -> its value
    where a tile's template argument on that line of that file reads it, or None (another file, no such
    argument there, unknown, or more than one value).  The emulator's groups (a text pass) read their names
    so: one reading for translate and the emulator.  The file is parsed on the first name read."""
    module = []

    def value(size: str, file: str, line: int) -> int | None:
        if file != path:
            return None
        if not module:
            from .model import build
            from .source import SourceFile
            module.append(build(SourceFile.from_text(text, path)))
        m, want = module[0], " ".join(size.split())
        for n in m.source.index.of_type("template_argument_list"):
            if n.start_point[0] + 1 == line and " ".join(m.source.text_of(n)[1:-1].split()) == want:
                got = values(m, want, n)
                return next(iter(got)) if got is not None and len(got) == 1 else None
        return None
    return value
