"""Function templates the target's device headers define at file scope that CUDA's do not (the backend's
`own_templates`: clang's __clang_hip_math.h, which every hipcc compile includes, defines
`template <class T> __device__ T max(T a, T b) { return (a > b) ? a : b; }` and `min` with `<`; CUDA
declares min / max for int, float, double ... but no template).  A project's own file-scope
`template <typename T> __device__ T max(T v1, T v2) { return v1 > v2 ? v1 : v2; }` (a camera library's
colour-conversion helpers) is then "redefinition of 'max'" to hipcc ("cannot overload" where it is
`__host__ __device__`, a call "ambiguous" where its parameters are `const T&` or `T&`; `const T a` by value
is the header's signature itself, the const being no part of it).

Where the project's template means what the header's does (one type parameter, two parameters `T`,
`const T`, `T&` or `const T&`, a body of one `return` of `a > b ? a : b` for max, `a < b ? a : b` for min, or the same
comparison written the other way round, `b < a ? a : b`), its device calls reach the header's, which
computes the same value (CUDA's own non-template overloads, float's fmaxf among them, are HIP's too, so
a call CUDA resolves to one resolves to the same overload on HIP): the port drops `__device__` from the
definition, which stays for host calls (a host function beside a device one of the same signature is an
overload to clang), with a note.  A template of that name and shape whose meaning is another (`a >= b ? a
: b` returns b's -0.0 where max returns a's; a clamp; three parameters is no clash and is left alone), or
whose `__device__` a macro writes, is refused with a located KP246: rename it and the calls that mean it.
Templates in a namespace or a class, host-only ones, and ones returning a reference (`T const & max(const T&,
const T&)`, std::max's signature: another template, whose calls on float or int reach CUDA's and HIP's
non-template overloads alike), clash with nothing and are left as written.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .model import _function_declarator

_FILE_SCOPE = ("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
               "linkage_specification")
_FLIPPED = {"<": ">", ">": "<"}


def _bare(src, n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _param_shape(src, p: Node, t: str) -> str | None:
    """The name of parameter `p` when its type is `t`, `const t`, `t&` or `const t&` / `t const&` (by value,
    a top-level const being no part of the signature, or a reference to the one type parameter: the header's
    `max(T, T)` and a `max(T&, T&)` both take an lvalue exactly, so hipcc calls such a call ambiguous), else None."""
    if p.type != "parameter_declaration":
        return None
    d = p.child_by_field_name("declarator")
    ref = d is not None and d.type == "reference_declarator"
    if ref:
        d = d.named_children[-1] if d.named_children else None
    if d is None or d.type != "identifier" or src.text_of(p.child_by_field_name("type")) != t:
        return None
    words = re.findall(r"[\w&*]+|&", src.text_of(p)[:d.start_byte - p.start_byte])
    const = "const" in words
    if "*" in "".join(words) or "volatile" in words:
        return None  # a pointer: another signature
    return src.text_of(d)


def meaning_matches(src, fn: Node, params: list[str], op: str) -> bool:
    """Whether `fn`'s body is one `return` of `p OP q ? p : q` (or `q FLIPPED p ? p : q`) over its two
    parameters p, q in order, which is what the header's template computes."""
    body = fn.child_by_field_name("body")
    stmts = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    if len(stmts) != 1 or stmts[0].type != "return_statement" or not stmts[0].named_children:
        return False
    e = _bare(src, stmts[0].named_children[0])
    if e is None or e.type != "conditional_expression":
        return False
    cond, yes, no = (_bare(src, e.child_by_field_name(f)) for f in ("condition", "consequence", "alternative"))
    if cond is None or cond.type != "binary_expression" or yes is None or no is None:
        return False
    left, right = (_bare(src, cond.child_by_field_name(f)) for f in ("left", "right"))
    o = src.text_of(cond.child_by_field_name("operator"))
    text = [src.text_of(x) if x is not None and x.type == "identifier" else None for x in (left, right, yes, no)]
    p, q = params
    return text == [p, q, p, q] and o == op or text == [q, p, p, q] and o == _FLIPPED[op]


def _uses_with_arguments(src, name: str, tmpl: Node | None) -> list[Node] | None:
    """The identifiers of `name<...>` uses with explicit template arguments outside `tmpl` (unqualified:
    `std::max<int>` and members are others), or None where the file declares another function of that
    name (a namespace's own `max`, or one defined out of its class, which an unqualified use may mean); a
    class's member declared in the class (`struct Range { int max() const; };`, a header's beside its
    constexpr `max` template: main wrote no `kp_max` copy there while its includers called one) is another
    function only inside that class, whose uses are left out.  `tmpl` None: the
    template is another file's (an included header's), and any declaration here is another function."""
    lo, hi = (tmpl.start_byte, tmpl.end_byte) if tmpl is not None else (0, 0)
    classes = []  # the bodies of classes declaring a member function of that name: `r.max()` is no use of it
    for fd in src.index.of_type("function_declarator"):
        d = fd.child_by_field_name("declarator")
        spelled = src.text_of(d) if d is not None else ""
        if d is not None and d.type == "field_identifier" and spelled == name:
            body = fd.parent
            while body is not None and body.type != "field_declaration_list":
                body = body.parent
            if body is not None:  # (inside it, an unqualified name finds the member first: those uses stay)
                classes.append((body.start_byte, body.end_byte))
                continue
        if (spelled == name or spelled.endswith("::" + name)) and not lo <= fd.start_byte < hi:
            return None
    out = []
    for t in src.index.of_type("template_function"):
        ident = t.child_by_field_name("name")
        if ident is None or src.text_of(ident) != name or lo <= t.start_byte < hi or \
                t.parent is None or t.parent.type == "qualified_identifier" or \
                any(a <= t.start_byte < b for a, b in classes):
            continue
        out.append(ident)
    return out


_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl", ".cuinc")


def _is_header(path) -> bool:
    return str(path).endswith(_HEADERS)


def _macro_words(src, tmpl: Node, fd: Node) -> set[str]:
    return set(src.macro_words(tmpl.start_byte, fd.start_byte)) if src.masks else set()


def handed_constexpr(src, own: dict[str, str]) -> set[str]:
    """The names of `own` that `src` defines as a file-scope `constexpr` device template the port hands to the
    target's header and copies as `kp_NAME` (the shape, meaning and literal `__device__` rewrite_target_templates
    asks for)."""
    out = set()
    if b"template" not in src.data or b"constexpr" not in src.data:
        return out
    for tmpl in src.index.of_type("template_declaration"):
        fn = tmpl.named_children[-1] if tmpl.named_children else None
        if fn is None or fn.type != "function_definition" or tmpl.parent is None or tmpl.parent.type not in _FILE_SCOPE:
            continue
        fd = _function_declarator(fn)
        head = fd.child_by_field_name("declarator") if fd is not None else None
        if head is None or head.type != "identifier" or src.text_of(head) not in own:
            continue
        tps = tmpl.child_by_field_name("parameters")
        types = [c for c in tps.named_children if c.type != "comment"] if tps is not None else []
        if len(types) != 1 or types[0].type != "type_parameter_declaration" or not types[0].named_children:
            continue
        t = src.text_of(types[0].named_children[-1])
        names = [_param_shape(src, p, t) for p in fd.child_by_field_name("parameters").named_children if p.type != "comment"]
        words = src.data[tmpl.start_byte:fd.start_byte]
        if len(names) == 2 and None not in names and src.text_of(fn.child_by_field_name("type")) == t and \
                fn.child_by_field_name("declarator") == fd and re.search(rb"\b__device__\b", words) and \
                re.search(rb"\bconstexpr\b", words) and meaning_matches(src, fn, names, own[src.text_of(head)]) and \
                _uses_with_arguments(src, src.text_of(head), tmpl) is not None:  # (else its port writes no copy)
            out.add(src.text_of(head))
    return out


class TargetTemplates:
    """Mixin of the translators: the `rewrite_target_templates` pass."""

    def rewrite_target_templates(self) -> None:
        """A translator pass: each file-scope device function template of the signature of one of the
        backend's `own_templates`, as the module docstring says."""
        own = backends.get(self.backend).own_templates
        if not own or not any(n.encode() in self.src.data for n in own):
            return
        self._header_constexpr_uses(own)
        if b"template" not in self.src.data:
            return
        for tmpl in self.src.index.of_type("template_declaration"):
            fn = tmpl.named_children[-1] if tmpl.named_children else None
            if fn is None or fn.type != "function_definition" or tmpl.parent is None or \
                    tmpl.parent.type not in _FILE_SCOPE or self.cuda_only_region(tmpl):
                continue
            fd = _function_declarator(fn)
            head = fd.child_by_field_name("declarator") if fd is not None else None
            if head is None or head.type != "identifier" or self.src.text_of(head) not in own:
                continue
            name = self.src.text_of(head)
            tps = tmpl.child_by_field_name("parameters")
            types = [c for c in tps.named_children if c.type != "comment"] if tps is not None else []
            if len(types) != 1 or types[0].type != "type_parameter_declaration" or not types[0].named_children:
                continue  # `template <typename T, typename U>`: another template, no redefinition
            t = self.src.text_of(types[0].named_children[-1])
            plist = fd.child_by_field_name("parameters")
            names = [_param_shape(self.src, p, t) for p in plist.named_children if p.type != "comment"]
            if len(names) != 2 or None in names or self.src.text_of(fn.child_by_field_name("type")) != t or \
                    fn.child_by_field_name("declarator") != fd:
                continue  # another arity, parameter or return type (`T const & max(...)`): not the header's signature
            words = self.src.data[tmpl.start_byte:fd.start_byte]
            literal = [m for m in re.finditer(rb"\b__device__\b", words)]
            macro = _macro_words(self.src, tmpl, fd)
            if not literal and "__device__" not in macro:
                continue  # a host template: clang's device template is no redefinition of it
            target = backends.get(self.backend).display_name
            header = f"template <class T> __device__ T {name}(T, T)"
            if not literal or not meaning_matches(self.src, fn, names, own[name]):
                why = "its meaning is another" if literal else "a macro writes its `__device__`"
                self.problem("KP246", tmpl, f"'{name}' is a file-scope function template of the signature of "
                             f"{target}'s own `{header}` (the device headers every {target} compile includes), "
                             f"which it would redefine, and {why}, so its calls cannot be handed to the header's",
                             f"rename this template (and the calls that mean it), e.g. {name}_of")
                continue
            at = tmpl.start_byte + literal[0].start()
            host = re.search(rb"\b__host__\b", words) is not None or "__host__" in macro
            self.rw.drop_span(at, at + len("__device__"), "" if host else "__host__")
            self.note(tmpl, "__host__", f"{target}'s device headers define `{header}`, which computes what this "
                      f"'{name}' does: its device calls reach the header's, and this definition stays for host calls")
            if re.search(rb"\bconstexpr\b", words) is not None:
                self._constexpr_copy(tmpl, head, name, host)

    def _call_copy(self, uses: list[Node], in_macros: list, copy: str) -> None:
        for ident in uses:
            self.rw.replace(ident, lambda rw, n, c=copy: c)
        for _, start, end in in_macros:
            self.rw.drop_span(start, end, copy)

    def _header_constexpr_uses(self, own: dict[str, str]) -> None:
        """Uses with template arguments (`max<int>(a, b)`) of a constexpr template an included header defines and
        hands to the target's (its port writes the `kp_` copy: `_constexpr_copy`) call the copy, as the header's
        own uses do; not where this file declares a function of that name itself."""
        vis = self.module.visible
        if vis is None or vis.elsewhere is None or not any(f"{n}<".encode() in self.src.data for n in own):
            return
        from .macro_body_words import template_uses
        names = set().union(*(handed_constexpr(m.source, own) for m in vis.elsewhere.modules()))
        for name in sorted(names):
            uses = _uses_with_arguments(self.src, name, None)
            if uses is None or any(self.rw.has(u) for u in uses):
                continue
            in_macros = template_uses(self, name)
            if uses or in_macros:
                self._call_copy(uses, in_macros, f"kp_{name}")
                self.note(uses[0] if uses else in_macros[0][0], f"kp_{name}", f"{len(uses) + len(in_macros)} use(s) of "
                          f"'{name}<...>' call `kp_{name}`, the constexpr `__host__ __device__` copy the port of an "
                          f"included header writes of its own template (the target's header template is not constexpr)")

    def _constexpr_copy(self, tmpl: Node, head: Node, name: str, host: bool) -> None:
        """A `constexpr` template handed to the header's: a use with explicit template arguments
        (`max<int>(a, b)`) means the project's own template in CUDA (CUDA's non-template overloads take no
        arguments list), and may stand where a constant is required (an array bound, a `static_assert`, a
        template argument), which the header's non-constexpr `__device__` template cannot be in device
        code.  Such uses call `kp_NAME`, a `__host__ __device__ constexpr` copy of the project's template
        written before it (the same body: the same value at every call); uses without arguments stay."""
        uses = _uses_with_arguments(self.src, name, tmpl)
        from .macro_body_words import template_uses  # `#define SLOTS(n) max<int>((n) / 32, 1)`: code where it expands
        in_macros = template_uses(self, name) if uses is not None else []
        if not uses and not in_macros and (uses is None or not _is_header(self.src.path)):
            return  # (a header's copy is written for its includers' uses: `_header_constexpr_uses`)
        uses = uses or []
        data, copy = self.src.data, f"kp_{name}"
        prefix = data[tmpl.start_byte:head.start_byte].decode()
        if not host:
            prefix = re.sub(r"\b__device__\b", "__host__ __device__", prefix, count=1)
        text = prefix + copy + data[head.end_byte:tmpl.end_byte].decode()
        one_line = "//" not in text and "/*" not in text and "#" not in text  # (a comment or a directive: kept as written)
        self.rw.insert_before(tmpl, (" ".join(text.split()) + " ") if one_line else text + "\n")
        self._call_copy(uses, in_macros, copy)
        self.note(tmpl, copy, f"{len(uses) + len(in_macros)} use(s) of '{name}<...>' with template arguments "
                  f"({len(in_macros)} in macro bodies) call `{copy}`, a "
                  f"constexpr `__host__ __device__` copy of this template (the header's is not constexpr: a "
                  f"constant expression in device code could not call it)")
