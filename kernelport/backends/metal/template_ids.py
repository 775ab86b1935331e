"""Template-ids of a template kernel spelled in host code (KP216): `&k<float, 4>` in a host table,
`launch(k<float>, ...)` given to a launch helper, `fn = k<int>;`.  CUDA compiles an instance for each
such id as it does for a launch, so the Metal port names each with `[[host_name]]` like a launched one.
Only ids whose arguments are concrete at that point count: an argument naming a template parameter of
an enclosing class or function template other than the host function's own (those are resolved through
its calls, signatures._concrete) is not known in one file's view (gpumd's `GPU_Vector<T>::fill`), and the
kernel keeps KP216 where nothing else gives it an instance."""
from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from ... import cexpr
from ...model import Function
from ...source import ident_name

#: template parameter declarations that carry a default (`typename T = float`, `int N = 4`)
_DEFAULTED = ("optional_type_parameter_declaration", "optional_parameter_declaration")


def template_param_names(src, tnode: Node) -> list[str]:
    """The parameter names of a template_declaration (as model.py reads a function template's)."""
    plist = tnode.child_by_field_name("parameters")
    out = []
    for tp in (plist.named_children if plist else []):
        n = ident_name(tp.child_by_field_name("declarator")) or tp.child_by_field_name("name") and \
            src.text_of(tp.child_by_field_name("name")) or (src.text_of(tp.named_children[-1]) if tp.named_children else None)
        if n:
            out.append(n)
    return out


def outer_template_names(src, node: Node, own: Node | None) -> set[str]:
    """Template parameters in scope at `node` from enclosing templates other than `own` (a class
    template whose member holds the node, or a template not modelled as the host function's)."""
    names: set[str] = set()
    n = node.parent
    while n is not None:
        if n.type == "template_declaration" and not (own is not None and (n.start_byte, n.end_byte) == (own.start_byte, own.end_byte)):
            names |= set(template_param_names(src, n))
        n = n.parent
    return names


def required_count(k: Function) -> int:
    """How many of template kernel k's parameters have no default."""
    plist = k.template_node.child_by_field_name("parameters") if k.template_node is not None else None
    return sum(1 for tp in (plist.named_children if plist else []) if tp.type not in _DEFAULTED)


def host_template_ids(src, module, k: Function) -> Iterator[tuple[Node, list[str], Function | None]]:
    """Each `k<args>` template-id in host code or an explicit instantiation (not a specialisation's
    declarator, not device code) with as many arguments as k needs: (node, written arguments, host
    function or None at file scope)."""
    for fn in src.index.of_types("template_function"):
        name = fn.child_by_field_name("name")
        if name is None or src.text_of(name) != k.name:
            continue
        up = fn.parent
        while up is not None and up.type == "qualified_identifier":
            up = up.parent
        if up is None or (up.type == "function_declarator" and up.parent.type != "template_instantiation"):
            continue  # `template <> __global__ void k<float>(...)`: a specialisation's declarator, no instance of k
        host = module.function_at(fn)
        if host is not None and (host.node.start_byte == k.node.start_byte or not host.is_host):
            continue  # device code names no instance a host launches (dynamic parallelism aside)
        given = [a for a, _ in cexpr.split_top_level(src.text_of(fn.child_by_field_name("arguments")).strip()[1:-1])]
        if required_count(k) <= len(given) <= len(k.template_params):
            yield fn, given, host


def launch_template_args(src, module, k: Function) -> Iterator[tuple[object, Function | None, list[str]]]:
    """Each launch of template kernel k: (the launch, its host function, the template arguments it gives,
    written `k<float><<<...>>>` or else deduced from the arguments' declared types, defaults filling the rest;
    [] where neither gives them)."""
    from ...template_deduction import deduce
    for launch in module.launches:
        fn = launch.target
        if launch.kernel != k.name or fn is None:
            continue
        host = module.function_at(launch.node)
        given = [a for a, _ in cexpr.split_top_level(src.text_of(fn.child_by_field_name(
            "arguments")).strip()[1:-1])] if fn.type == "template_function" else []
        if len(given) < len(k.template_params):
            given = deduce(src, k, launch.args, host, given) or given  # `k<<<g, b>>>(d_x, n)`: C++ deduces it
        yield launch, host, given


def concrete_words(src, node: Node, host: Function | None, targs: str) -> bool:
    """No word of `targs` names a template parameter of an enclosing template other than host's own."""
    own = host.template_node if host is not None else None
    return not set(re.findall(r"[A-Za-z_]\w*", targs)) & outer_template_names(src, node, own)


def _balanced(text: str, i: int, open_: str, close: str) -> int:
    """The index just past the `close` matching text[i] == open_ (-1 where it does not close)."""
    depth = 0
    for j in range(i, len(text)):
        depth += (text[j] == open_) - (text[j] == close)
        if depth == 0:
            return j + 1
    return -1


def substitute_types(text: str, bound: dict[str, str]) -> str:
    """`text` with each bound template parameter replaced by its argument; a functional cast of a
    parameter bound to a type that is not one name (`T(1)`, T = `unsigned int` or `float *`) becomes a parenthesised
    C-style cast `((unsigned int)(1))`, as `unsigned int(1)` is no C++ (grammar_gaps reads it so too)."""
    out, pos = [], 0
    for m in re.finditer(r"\b[A-Za-z_]\w*\b", text):
        if m.start() < pos or m.group(0) not in bound:
            continue
        value = bound[m.group(0)]
        paren = re.compile(r"\s*\(").match(text, m.end())
        close = _balanced(text, paren.end() - 1, "(", ")") if paren and not re.fullmatch(r"[\w:]+(<.*>)?", value) else -1
        if close > 0:
            out.append(text[pos:m.start()] + f"(({value}){text[paren.end() - 1:close]})")
            pos = close
        else:
            out.append(text[pos:m.start()] + value)
            pos = m.end()
    return "".join(out) + text[pos:]


def macro_template_ids(src, module, k: Function) -> Iterator[tuple[Node, list[str], Function | None]]:
    """`k<args>` spelled by a function-like macro's value, at each use of the macro in host code with
    its arguments substituted (cutt's `#define CALL(TYPE) transposeTiled<TYPE><<<...>>>(...)`, a macro
    of explicit instantiations): (the use's node, arguments, host function or None at file scope).
    One level: a use inside another macro's value gives none, and so does an id whose arguments paste or
    stringise (`k<T##_t>`); a paste elsewhere in the value (the launcher's name, mistralrs's afq) is no matter."""
    defs, spans = {}, []
    for m in src.index.of_types("preproc_def", "preproc_function_def"):
        spans.append((m.start_byte, m.end_byte))
        value, params = m.child_by_field_name("value"), m.child_by_field_name("parameters")
        if m.type != "preproc_function_def" or value is None or params is None:
            continue
        body = src.text_of(value)
        if not re.search(r"\b%s\s*<" % re.escape(k.name), body):
            continue
        defs[src.text_of(m.child_by_field_name("name"))] = (
            [src.text_of(p).strip() for p in params.named_children if p.type == "identifier"], body)
    if not defs:
        return
    text = src.data.decode("latin-1")  # one character per byte: offsets are the tree's
    code = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: " " * len(m.group(0)), text, flags=re.S)
    for use in re.finditer(r"\b(%s)\s*\(" % "|".join(map(re.escape, defs)), code):
        if any(s <= use.start() < e for s, e in spans):
            continue
        end = _balanced(code, use.end() - 1, "(", ")")
        params, body = defs[use.group(1)]
        args = [a for a, _ in cexpr.split_top_level(code[use.end():end - 1])] if end > 0 else []
        if end < 0 or len(args) != len(params):
            continue
        args = [a.encode("latin-1").decode("utf-8", "replace").strip() for a in args]
        bound = dict(zip(params, args))
        value = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: bound.get(m.group(0), m.group(0)), body)
        node = src.tree.root_node.descendant_for_byte_range(use.start(), end)
        host = module.function_at(node)
        if host is not None and (host.node.start_byte == k.node.start_byte or not host.is_host):
            continue
        for idm in re.finditer(r"\b%s\s*<" % re.escape(k.name), value):
            close = _balanced(value, idm.end() - 1, "<", ">")
            if close > 0 and "#" not in value[idm.end():close]:  # `k<T##_t>`: a paste, not the text
                given = [a for a, _ in cexpr.split_top_level(value[idm.end():close - 1])]
                if required_count(k) <= len(given) <= len(k.template_params):
                    yield node, given, host
