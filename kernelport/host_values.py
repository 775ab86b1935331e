"""The values host code gives a kernel launch: what a name holds at a `<<<...>>>` site.

Host code is read, not run: each name's last definition before the launch (a declaration, an
assignment, a `for` initialiser, a parameter bound at the caller's call site, a file-scope
constant, an object-like macro) is kept as C text and evaluated on demand with kernelport.cexpr
(C's types and conversions).  A value that depends on what only a run knows (argv, a file, a
function's result) is Unknown, with where it comes from: never a guess.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from tree_sitter import Node

from . import cexpr, host_template_math, project_callers, vector_types
from .errors import Location
from .host_conditional import conditional_step
from .host_offsets import pointer_step
from .infer_types import alias as type_alias, explicit_instantiation, template_bindings
from .host_functions import single_return
from .model import Module, file_scope_items
from .source import ident_name
from .static_members import initializer

# Functions of a size or geometry expression whose value host code computes the same every run.
_MATH = {"ceil": math.ceil, "ceilf": math.ceil, "floor": math.floor, "floorf": math.floor,
         "min": min, "max": max, "fmin": min, "fmax": max, "fminf": min, "fmaxf": max, "abs": abs,
         "sqrt": math.sqrt, "sqrtf": math.sqrt, "ceil_div": lambda a, b: -(-a // b)}
_IDENT = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_CAST = re.compile(r"\b(?:static_cast|reinterpret_cast)\s*<([^<>]+)>\s*\(")
_ARROW = re.compile(r"\s*->\s*(?=[A-Za-z_])")
_FUNCTIONAL_CAST = re.compile(r"(?<![\w.])(float|double|int|long|short|char|bool|size_t|unsigned)\s*\(")
_INDEX = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\[([^\[\]]+)\]")
_SIZEOF = re.compile(r"\bsizeof\s*\(\s*(?:struct\s+|class\s+)?([A-Za-z_]\w*)\s*\)")
_STATIC = re.compile(r"(?<![\w:])([A-Za-z_]\w*(?:\s*<[^<>;()]*>)?)\s*::\s*([A-Za-z_]\w*)\b(?!\s*[(<])")  # x128::size
_COMMENT = re.compile(r"//.*|/\*.*?\*/", re.S)
_MEMBER = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)+")  # a struct's pointer field: &p.buf
_MEMBER_READ = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)+\b(?!\s*[.(])")
_FIELD = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*([xyz])\b")
_KEYWORDS = {"sizeof", "unsigned", "signed", "int", "long", "short", "char", "float", "double", "const",
             "size_t", "bool", "true", "false"} | set(cexpr.SIZEOF)
_BOOL = re.compile(r"(?<![\w.])(true|false)\b")  # C++'s bool literals: 1 and 0 (egs' `init = true`)
MAX_DEPTH = 24  # definitions through definitions (and callers through callers): far beyond real code


class Unknown(Exception):
    """A value host code computes at run time (or kernelport cannot read): `why` says where."""

    def __init__(self, why: str, loc: Location | None = None, free: bool = False):
        super().__init__(why)
        self.why, self.loc = why, loc
        self.name: str | None = None  # the host name whose definition needs it: what --arg can set
        # A value only the run gives (argv, a file, a stream, a parameter no call gives, a call's
        # result), not one kernelport fails to read: infer_inputs may choose it (see there).
        self.free = free
        self.before: Definition | None = None  # its value before the run changed it (an option's default)
        self.scope: Scope | None = None  # where `name` is declared (a caller's scope, maybe)
        self.overflow = False  # host code's own arithmetic overflows (with chosen values: too large)

    def named(self, n: str, scope: "Scope") -> "Unknown":
        """This reason, about the host name `n` read in `scope` (a copy: one Unknown is raised for
        many reads)."""
        e = Unknown(self.why, self.loc, self.free)
        e.name, e.before, e.scope, e.overflow = self.name or n, self.before, self.scope or scope, self.overflow
        return e


@dataclass
class Definition:
    """A host value's definition as found, and where its names are looked up."""
    text: str  # C expression text; for a dim3: its components joined by commas
    loc: Location
    dim3: bool = False
    scope: "Scope | None" = None  # where the text's names are looked up (a caller, for a parameter)
    note: str = ""  # how it was found ("the first iteration of the loop at ...")


@dataclass
class Scope:
    """The names visible at one point of a host function (and, through `outer`, its callers)."""
    module: Module
    defs: dict[str, Definition] = field(default_factory=dict)
    outer: "Scope | None" = None
    unknown: dict[str, Unknown] = field(default_factory=dict)  # names host code sets at run time
    overrides: dict[str, cexpr.Value] = field(default_factory=dict)  # --arg NAME=VALUE, scaled sizes
    used: dict[str, tuple[cexpr.Value, Definition | None]] = field(default_factory=dict)  # what reads read

    # -- evaluation ---------------------------------------------------------------------------
    def is_zero(self, text: str) -> bool:
        try:
            return self.value(text).v == 0
        except Unknown:
            return False

    def value(self, text: str, depth: int = 0) -> cexpr.Value:
        if depth > MAX_DEPTH:
            raise Unknown(f"'{text.strip()[:60]}' is defined through more than {MAX_DEPTH} levels")
        text = " ".join(_ARROW.sub(".", text.replace("std::", "")).split())  # p->n: the field, as p.n
        text = host_template_math.explicit_arguments(text, _MATH)  # min<size_t>(a, b): min((size_t)(a), (size_t)(b))
        text = _SIZEOF.sub(lambda m: self._sizeof(m.group(1)), text)
        text = _STATIC.sub(lambda m: initializer(m.group(1), m.group(2), self.module) or m.group(0), text)
        text = _CAST.sub(lambda m: f"({m.group(1)})(", text)
        text = _FUNCTIONAL_CAST.sub(lambda m: f"({m.group(1)})(", text)  # float(n): C++'s (float)(n)
        text = self._calls(text, depth)
        text = _BOOL.sub(lambda m: "1" if m.group(1) == "true" else "0", text)
        text = _FIELD.sub(lambda m: self._literal(self._component(m.group(1), "xyz".index(m.group(2)), depth)), text)
        text = _INDEX.sub(lambda m: self._literal(self._element(m.group(1), m.group(2), depth)), text)
        text = _MEMBER_READ.sub(lambda m: self._literal(self._member(m.group(0), depth)), text)
        names: dict[str, cexpr.Value] = {}
        subst = False
        for m in _IDENT.finditer(text):
            n = m.group(0)
            if n in _KEYWORDS or n in names:
                continue
            d = self.lookup(n)
            if d is not None and not d.dim3 and d.text.strip() in cexpr.SIZEOF:  # a type macro: DATA_TYPE
                text, subst = re.sub(rf"\b{n}\b", d.text.strip(), text), True
                break
            cast = re.search(rf"\(\s*{n}\s*\)", text) is not None  # (clock_t)(x), sizeof(floatX)
            t = type_alias(n, self) if d is None and ("sizeof" in text or cast) else None  # typedef float floatX
            if t in cexpr.SIZEOF:
                text, subst = re.sub(rf"\b{n}\b", t, text), True
                break
        if subst:
            return self.value(text, depth + 1)
        for m in _IDENT.finditer(text):
            n = m.group(0)
            if n not in _KEYWORDS and n not in names:
                names[n] = self.name(n, depth)
        try:
            return cexpr.evaluate_typed(text, names)
        except cexpr.CExprError as e:
            u = Unknown(f"cannot evaluate '{text[:80]}': {e}")
            u.overflow = " overflows " in str(e)
            raise u from None

    def _sizeof(self, t: str) -> str:
        """sizeof(T): through the file's typedefs; a struct's size in its C layout."""
        t = typedef_of(self.module.source.text, t)
        if t in cexpr.SIZEOF or t in vector_types.SIZES:  # uchar4: CUDA's size (backends may pad theirs)
            return f"sizeof({t})" if t in cexpr.SIZEOF else f"((unsigned long){vector_types.SIZES[t]})"
        from .infer_structs import struct_size  # (it reads host values: array fields' lengths)
        n = struct_size(t, self)
        return f"sizeof({t})" if n is None else f"((unsigned long){n})"

    def name(self, n: str, depth: int = 0) -> cexpr.Value:
        if n in self.overrides:
            self.used.setdefault(n, (self.overrides[n], None))  # read: fixed if the block reads it
            return self.overrides[n]
        if n in self.unknown:
            raise self.unknown[n].named(n, self)
        d = self.lookup(n)
        if d is None:
            if self.outer is not None and n not in self.defs:
                return self.outer.name(n, depth)
            raise Unknown(f"'{n}' has no value kernelport can read in the host code", free=True).named(n, self)
        if d.dim3:
            raise Unknown(f"'{n}' is a dim3 where a number is needed", d.loc)
        try:
            v = (d.scope or self).value(d.text, depth + 1)
        except Unknown as e:
            if e.name is None:
                e.name, e.scope = n, self
            raise
        self.used.setdefault(n, (v, d))
        return v

    def lookup(self, n: str) -> Definition | None:
        if n in self.defs:
            return self.defs[n]
        if self.outer is not None:
            return self.outer.lookup(n)
        m = self.module.macros.get(n)
        if m is None and self.module.visible is not None:
            m = self.module.visible.macros.get(n)
        if m is None or not m.value or m.node.type != "preproc_def":
            return None
        if n in self.module.macros:
            loc = self.module.source.loc(m.node)
        else:
            where = self.module.visible.where.get(n) if self.module.visible is not None else None
            loc = Location(*where) if where else Location(str(self.module.source.path), 1, 1)
        return Definition(_COMMENT.sub(" ", m.value).strip(), loc, note="macro")  # `#define HALO 1 // halo width`

    def dims(self, text: str, depth: int = 0) -> tuple[int, int, int]:
        """A launch dimension: a dim3 variable, `dim3(a, b)` or an integer expression."""
        t = text.strip()
        m = re.fullmatch(r"dim3\s*\((.*)\)", t, re.S)
        if m:
            parts = [p for p, _ in cexpr.split_top_level(m.group(1))]
            return tuple(self._int(p, depth) for p in parts) + (1,) * (3 - len(parts))  # type: ignore[return-value]
        d = self.lookup(t) if _IDENT.fullmatch(t) else None
        if d is not None and d.dim3:
            return tuple(self._component(t, i, depth) for i in range(3))  # type: ignore[return-value]
        return (self._int(t, depth), 1, 1)

    # -- helpers ------------------------------------------------------------------------------
    def _int(self, text: str, depth: int) -> int:
        v = self.value(text, depth)
        return int(v.v)

    def _component(self, n: str, axis: int, depth: int) -> int:
        key = f"{n}.{'xyz'[axis]}"
        if key in self.overrides:  # a component chosen or given (--arg grid.x=64)
            self.used.setdefault(key, (self.overrides[key], None))
            return int(self.overrides[key].v)
        d = self.lookup(key)
        if d is not None:
            try:
                return self._int_in(d, depth)
            except Unknown as e:  # `dims.x = atoi(argv[1])`: the component is what only the run gives
                base = self.lookup(n)
                if e.name is None and base is not None and base.dim3:
                    parts = [p for p, _ in cexpr.split_top_level(base.text)] if base.text.strip() else []
                    e.name, e.scope = key, self
                    e.before = Definition(parts[axis] if axis < len(parts) else "1", base.loc, scope=base.scope)
                raise
        d = self.lookup(n)
        if d is not None and not d.dim3 and d.scope is not None and _IDENT.fullmatch(d.text.strip()) and \
                depth <= MAX_DEPTH:  # a dim3 parameter (`const dim3 &dims`): the caller's argument
            return d.scope._component(d.text.strip(), axis, depth + 1)
        if d is None or not d.dim3:
            if n in self.unknown:
                raise self.unknown[n]
            raise Unknown(f"'{n}' is not a dim3 kernelport can read in the host code")
        parts = [p for p, _ in cexpr.split_top_level(d.text)] if d.text.strip() else []
        if axis >= len(parts):
            return 1
        return int((d.scope or self).value(parts[axis], depth + 1).v)

    def _member(self, n: str, depth: int) -> cexpr.Value:
        """`p.n`: a struct's field host code assigned (`p.n = 1024`)."""
        n = re.sub(r"\s+", "", n)
        if n in self.overrides:  # a field chosen or given (--arg A.n=512)
            self.used.setdefault(n, (self.overrides[n], None))
            return self.overrides[n]
        d = self.lookup(n)
        if d is None:  # set by a constructor, a file, a call kernelport does not follow: only the run gives it
            raise self.unknown.get(n) or Unknown(f"'{n}' has no value kernelport can read in the host code",
                                                 free=True).named(n, self)
        v = (d.scope or self).value(d.text, depth + 1)
        self.used.setdefault(n, (v, d))
        return v

    def _element(self, n: str, index: str, depth: int) -> cexpr.Value:
        """`a[i]` of an array host code initialised with a brace list (`int sizes[] = {32, 64}`)."""
        i = int(self.value(index, depth + 1).v)
        one = self.lookup(f"{n}[{i}]")  # assigned by itself: `size[0] = n`
        if one is not None:
            return (one.scope or self).value(one.text, depth + 1)
        d = self.lookup(f"{n}[]")
        if d is None:
            raise Unknown(f"'{n}[{index}]' is an element host code sets at run time", free=True)
        items = [p for p, _ in cexpr.split_top_level(d.text)]
        if not 0 <= i < len(items):
            raise Unknown(f"'{n}[{index}]' is outside the {len(items)} elements of '{n}'", d.loc)
        return (d.scope or self).value(items[i], depth + 1)

    def _int_in(self, d: Definition, depth: int) -> int:
        return int((d.scope or self).value(d.text, depth + 1).v)

    def _calls(self, text: str, depth: int) -> str:
        """Replace each call of a known math function by its value; any other call is Unknown."""
        while True:
            m = None
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
                if m.group(1) not in _KEYWORDS and m.group(1) not in ("dim3",):
                    break
            else:
                return text
            fn, start, open_at = m.group(1), m.start(), m.end() - 1
            close, level = open_at, 0
            for i in range(open_at, len(text)):
                level += {"(": 1, ")": -1}.get(text[i], 0)
                if level == 0:
                    close = i
                    break
            inner = text[open_at + 1:close]
            parts = [p for p, _ in cexpr.split_top_level(inner)] if inner.strip() else []
            if fn in _MATH:
                args = [self.value(p, depth + 1).v for p in parts]
                try:
                    v = cexpr.as_value(_MATH[fn](*args))
                except (TypeError, ValueError) as e:
                    raise Unknown(f"'{fn}({inner[:40]})': {e}") from None
            else:
                v = self._user_call(fn, parts, depth)
            text = text[:start] + self._literal(v) + text[close + 1:]

    def _user_call(self, fn: str, parts: list[str], depth: int) -> cexpr.Value:
        """A function-like macro, or a host function whose body is one `return EXPR;` (iDivUp)."""
        if depth > MAX_DEPTH:
            raise Unknown(f"'{fn}(...)' is defined through more than {MAX_DEPTH} levels")
        mac = self.module.source.macros.get(fn)
        if mac is not None and mac.params is not None and len(mac.params) == len(parts):
            body = mac.body
            for p, a in zip(mac.params, parts):
                body = re.sub(rf"(?<![\w.]){re.escape(p)}\b", f"({a})", body)
            return self.value(body, depth + 1)
        f, ret = single_return(self.module, fn, len(parts))  # the file's host function, else a header's
        if ret is None:
            raise Unknown(f"'{fn}({', '.join(parts)[:40]})' is computed when the program runs", free=True)
        inner = Scope(self.module)
        for p, a in zip(f.params, parts):
            v = self.value(a, depth + 1)
            t = cexpr.ctype(" ".join(p.type.replace("const", "").split()))
            inner.overrides[p.name] = cexpr.convert(v, t) if t is not None and not p.pointer else v
        return inner.value(ret, depth + 1)

    @staticmethod
    def _literal(v) -> str:
        v = cexpr.as_value(v) if not isinstance(v, cexpr.Value) else v
        if v.type.kind == "float":
            if not math.isfinite(v.v):
                raise Unknown(f"a non-finite value ({v.v}) in a size or geometry")
            s = repr(float(v.v))
            return f"({s}f)" if v.type.bits == 32 else f"({s})"
        suffix = {"int": "", "unsigned int": "u", "long": "l", "unsigned long": "ul", "long long": "ll",
                  "unsigned long long": "ull"}.get(v.type.name, "")
        return f"(({v.type.name}){v.v})" if not suffix and v.type.name != "int" else f"({v.v}{suffix})"


# -- reading host code ------------------------------------------------------------------------
def scope_at(module: Module, node: Node, depth: int = 0, shared: tuple[dict, dict] | None = None,
             others: list[Module] = ()) -> Scope:
    """The names host code has defined where `node` (a launch or a call) runs.  The scopes of
    the callers share one record of what was read and one set of overrides (scaled sizes)."""
    src = module.source
    owner = module.function_at(node)
    used, overrides = shared or ({}, {})

    def new(outer=None) -> Scope:
        return Scope(module, outer=outer, used=used, overrides=overrides)
    file_scope = new()
    for item in file_scope_items(src):
        if item.type == "declaration" and item.start_byte < node.start_byte:
            _declaration(src, item, file_scope)
    for d in file_scope.defs.values():
        d.note = d.note or "file scope"
    if owner is None:
        return file_scope
    outer = file_scope
    params = {p.name for p in owner.params}
    if depth < 3:  # a parameter's value at the first call of the host function in this file
        where = project_callers.first_call(module, owner, [module, *others], _calls)
        if where is not None:
            cm, call = where
            caller = scope_at(cm, call, depth + 1, (used, overrides), others)
            args = call.child_by_field_name("arguments")
            argn = [a for a in (args.named_children if args else []) if a.type != "comment"]
            bound = new(file_scope)
            for p, a in zip(owner.params, argn):
                bound.defs[p.name] = Definition(cm.source.text_of(a), cm.source.loc(a), scope=caller,
                                                note=f"the argument of {owner.name}() at {cm.source.loc(a)}")
            for p in owner.params:  # a parameter's declared type: what a launch in the body deduces from
                bound.defs[f"{p.name}#type"] = Definition(" ".join(p.type.replace("const", "").split()),
                                                          src.loc(p.node))
            for name, text in template_bindings(owner, call, cm.source, caller, pointer_name):  # a host template's T: <float>
                bound.defs[name] = Definition(text, cm.source.loc(call), scope=caller,
                                              note=f"the template argument of {owner.name}() at {cm.source.loc(call)}")
            outer = bound
            params -= set(bound.defs)
    if owner.template_params and not any(t in outer.defs for t in owner.template_params) and \
            (inst := explicit_instantiation(owner, [module, *others])) is not None:  # no call: `template void f<float>(...);`
        im, item, pairs = inst
        outer = new(outer)
        for name, text in pairs:
            outer.defs[name] = Definition(text, im.source.loc(item), note=f"the template argument of "
                                          f"{owner.name}() explicitly instantiated at {im.source.loc(item)}")
    scope = new(outer)
    for p in params:
        scope.unknown[p] = Unknown(f"'{p}' is a parameter of {owner.name}() and no call in the project gives it",
                                   src.loc(owner.node), free=True)
    for p in owner.params:
        if p.name in params:  # a pointer's: what `p->n` reads a field of
            scope.defs[f"{p.name}#{'pointee' if p.pointer else 'type'}"] = Definition(
                " ".join(p.type.replace("const", "").split()), src.loc(owner.node))
    for n in sorted(_statements(src, owner.body, node), key=lambda x: x.start_byte):
        if _loop_update(n, node):
            continue
        if n.type == "declaration":
            _declaration(src, n, scope)
        elif n.type == "assignment_expression":
            _assignment(src, n, scope)
        elif n.type == "call_expression":
            _call(module, n, scope)
        else:
            _changed(src, n, scope)
    return scope


def _loop_update(n: Node, launch: Node) -> bool:
    """`n` is (in) the update clause of a loop whose body holds the launch (`t += step` of
    `for (t = 0; ...; t += step)`): it has not run on the first iteration, the one read."""
    p = n
    while p.parent is not None and p.parent.type in ("comma_expression", "parenthesized_expression"):
        p = p.parent
    f = p.parent
    return f is not None and f.type == "for_statement" and f.child_by_field_name("update") == p and \
        f.start_byte <= launch.start_byte < f.end_byte


def _changed(src, n: Node, scope: Scope) -> None:
    """`n++`, `fscanf(f, "%d", &n)`, `file >> n`: a value host code changes in a way it is not
    read from, so it is Unknown from here."""
    if pointer_step(src, n, scope) or conditional_step(src, n, scope):  # an offset (host_offsets), `if (r) n++;`
        return
    if n.type == "update_expression":
        target, how = n.child_by_field_name("argument"), "updated by ++/--"
    elif n.type == "pointer_expression":
        if n.child_by_field_name("operator") is None or src.text_of(n.child_by_field_name("operator")) != "&" or \
                n.parent is None or n.parent.type != "argument_list":
            return
        call = n.parent.parent
        fn = call.child_by_field_name("function") if call is not None else None
        if fn is not None and _CAST.match(src.text_of(fn) + "(") and call.parent is not None and \
                call.parent.type == "argument_list" and call.parent.parent is not None:
            fn = call.parent.parent.child_by_field_name("function")  # cudaMalloc(reinterpret_cast<void **>(&d), n)
        if fn is not None and _runtime_key(src, fn) in _ALLOC:
            return  # cudaMalloc(&d, bytes) sets the pointer, never a size
        target, how = n.child_by_field_name("argument"), f"passed by address to {src.text_of(fn) if fn else 'a call'}()"
    else:  # `stream >> name`
        if src.text_of(n.child_by_field_name("operator")) != ">>" or n.parent is None or \
                n.parent.type not in ("expression_statement", "binary_expression"):
            return
        target, how = n.child_by_field_name("right"), "read from a stream"
    if target is None:
        return
    name = src.text_of(target).replace(" ", "")
    if re.fullmatch(r"[A-Za-z_]\w*(\.[xyz])?", name):
        before = scope.lookup(name)
        scope.defs.pop(name, None)
        scope.unknown[name] = Unknown(f"'{name}' is {how} at {src.loc(n)}", src.loc(n), free=True)
        scope.unknown[name].before = before if before is not None and not before.dim3 else None


def _runtime_key(src, fn: Node) -> str | None:
    from . import backends, dialect
    c = dialect.lookup(backends.source().name, src.text_of(fn)) if fn.type == "identifier" else None
    return c.key if c is not None else None


def _statements(src, body: Node, before: Node) -> list[Node]:
    out = []
    for t in ("declaration", "assignment_expression", "call_expression", "update_expression", "pointer_expression",
              "binary_expression"):
        out += [n for n in src.index.under(body, t) if n.end_byte <= before.start_byte]
    return out


def _calls(module: Module, fname: str):
    """The calls of `fname` in `module`, in order."""
    src = module.source
    for n in src.index.under(src.root, "call_expression"):
        if any(c.type == "kernel_call_syntax" for c in n.children):  # `f<<<g, b>>>(...)` launches a kernel f,
            continue  # never calls a host function of the same name (cuOSD's mask_rgba_alpha wraps its kernel)
        fn = n.child_by_field_name("function")
        if fn is not None and fn.type == "template_function":  # conv3D<float>(...)
            fn = fn.child_by_field_name("name")
        if fn is not None and fn.type == "identifier" and src.text_of(fn) == fname:
            yield n


def _declaration(src, node: Node, scope: Scope) -> None:
    t = node.child_by_field_name("type")
    tname = src.text_of(t) if t is not None else ""
    loop = node.parent is not None and node.parent.type == "for_statement"
    for d in node.children_by_field_name("declarator"):
        name = ident_name(d)
        if name is None:
            continue
        scope.defs[f"{name}#type"] = Definition(" ".join(tname.replace("const", "").split()), src.loc(d))
        if d.type != "init_declarator":
            scope.defs.pop(name, None)
            if tname.strip() == "dim3":  # `dim3 b(n, n)` parses as a function declaration: its "parameters"
                ps = d.child_by_field_name("parameters") if d.type == "function_declarator" else None
                text = src.text_of(ps).strip()[1:-1] if ps is not None else ""
                scope.defs[name] = Definition(text, src.loc(d), dim3=True)
            continue
        v = d.child_by_field_name("value")
        if v is None:
            continue
        note = f"the first iteration of the loop at {src.loc(node.parent)}" if loop else ""
        if v.type == "argument_list" or tname.strip() == "dim3":
            text = src.text_of(v)
            m = re.fullmatch(r"(?:dim3)?\s*[({](.*)[)}]", text.strip(), re.S)
            if tname.strip() == "dim3":
                scope.defs[name] = Definition(m.group(1) if m else text, src.loc(d), dim3=True, note=note)
            elif m:
                scope.defs[name] = Definition(m.group(1), src.loc(d), note=note)
            continue
        inner = d.child_by_field_name("declarator")
        if inner is not None and inner.type == "array_declarator" and v.type == "initializer_list":
            scope.defs[f"{name}[]"] = Definition(src.text_of(v).strip()[1:-1], src.loc(d), note=note)
            continue
        if inner is not None and inner.type in ("pointer_declarator", "array_declarator"):
            continue  # a pointer or array: its allocation is what matters (see _call)
        scope.unknown.pop(name, None)
        items = [c for c in v.named_children if c.type != "comment"] if v.type == "initializer_list" else None
        if items is not None and len(items) == 1:  # `constexpr unsigned int TILE{128U};`: the one value
            v = items[0]
        scope.defs[name] = Definition(src.text_of(v), src.loc(d), note=note)


def _assignment(src, node: Node, scope: Scope) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    op = node.child_by_field_name("operator")
    if left is None or right is None:
        return
    lt = _ARROW.sub(".", src.text_of(left)).replace(" ", "")
    el = re.fullmatch(r"([A-Za-z_]\w*)\[(\d+)\]", lt)
    if el and src.text_of(op if op is not None else left) == "=":  # `size[0] = n`: one element, by a constant index
        scope.defs[f"{el.group(1)}[{int(el.group(2))}]"] = Definition(src.text_of(right), src.loc(node))
        return
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", lt) or pointer_step(src, node, scope):  # (d_x += k)
        return
    text, sym = src.text_of(right), src.text_of(op) if op is not None else "="
    if sym != "=":  # `n *= 2`: `n = n * (2)`
        if sym[:-1] not in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"):
            return
        text = f"{lt} {sym[:-1]} ({text})"
    scope.unknown.pop(lt, None)
    if re.search(rf"(?<![\w.]){re.escape(lt)}\b(?!\s*\.)", text) or "." in lt and lt.replace(".", " . ") in text:
        text = _before(scope, lt, text, src.loc(node))  # `n = n * 2`: the value n had before
    m = re.fullmatch(r"dim3\s*\((.*)\)", " ".join(text.split()))
    was = scope.lookup(lt)
    if m:
        scope.defs[lt] = Definition(m.group(1), src.loc(node), dim3=True)
        for axis in "xyz":
            scope.defs.pop(f"{lt}.{axis}", None)
    elif was is not None and was.dim3 and _IDENT.fullmatch(text.strip()):  # `grid = other_grid`
        scope.defs[lt] = Definition("", src.loc(node), dim3=True)
        for axis in "xyz":
            scope.defs[f"{lt}.{axis}"] = Definition(f"{text.strip()}.{axis}", src.loc(node))
    else:
        scope.defs[lt] = Definition(text, src.loc(node))


def _before(scope: Scope, lt: str, text: str, loc: Location) -> str:
    """`text` with `lt` read as the value it had before this assignment: a fresh name bound to
    that earlier definition (or to the dim3 component it came from)."""
    alias = f"__kp_before{len(scope.defs)}_{lt.replace('.', '_')}"
    prev = scope.lookup(lt)
    if prev is None and "." in lt:
        base, axis = lt.split(".")
        d = scope.lookup(base)
        if d is not None and d.dim3:
            parts = [p for p, _ in cexpr.split_top_level(d.text)] if d.text.strip() else []
            i = "xyz".index(axis)
            prev = Definition(parts[i] if i < len(parts) else "1", d.loc, scope=d.scope)
    if prev is None:
        if lt in scope.unknown:
            scope.unknown[alias] = scope.unknown[lt]
        else:
            scope.unknown[alias] = Unknown(f"'{lt}' is read before host code gives it a value", loc)
    else:
        scope.defs[alias] = prev
    pattern = rf"(?<![\w.]){re.escape(lt.split('.')[0])}\s*\.\s*{lt.split('.')[1]}\b" if "." in lt else \
        rf"(?<![\w.]){re.escape(lt)}\b(?!\s*\.)"
    return re.sub(pattern, alias, text)


# Runtime calls that give a device pointer its size, by the concept (kernelport/dialect.py) they spell.
_ALLOC = {"rt_Malloc": (0, 1), "rt_MallocManaged": (0, 1)}  # concept -> (pointer arg, bytes arg)
_WRITE = {"rt_Memcpy": (0, 2), "rt_Memset": (0, 2), "rt_MemcpyAsync": (0, 2), "rt_MemsetAsync": (0, 2)}


def _call(module: Module, node: Node, scope: Scope) -> None:
    from . import backends, dialect
    src = module.source
    fn = node.child_by_field_name("function")
    if fn is None or fn.type != "identifier":
        return
    c = dialect.lookup(backends.source().name, src.text_of(fn))
    if c is None or c.key not in _ALLOC and c.key not in _WRITE:
        return
    args = node.child_by_field_name("arguments")
    argn = [a for a in (args.named_children if args else []) if a.type != "comment"]
    pi, bi = _ALLOC.get(c.key) or _WRITE[c.key]
    if len(argn) <= max(pi, bi):
        return
    ptr = pointer_name(src.text_of(argn[pi]))
    if ptr is None:
        return
    if c.key in _ALLOC:
        scope.defs[f"{ptr}#bytes"] = Definition(src.text_of(argn[bi]), src.loc(node))
        scope.defs.pop(f"{ptr}#init", None), scope.defs.pop(f"{ptr}#offset", None)
    else:
        fill = src.text_of(argn[1]) if c.key in ("rt_Memset", "rt_MemsetAsync") else ""
        scope.defs[f"{ptr}#init"] = Definition(fill, src.loc(node))


def typedef_of(text: str, t: str) -> str:
    """The type a file's `typedef unsigned char uchar;` or `using real = float;` names, followed
    (four steps at most); `t` itself when the file defines no alias of it."""
    for _ in range(4):
        if t in cexpr.SIZEOF:
            break
        m = re.search(rf"\btypedef\s+([A-Za-z_][\w ]*?)\s+{re.escape(t)}\s*;|"
                      rf"\busing\s+{re.escape(t)}\s*=\s*([A-Za-z_][\w ]*?)\s*;", text)
        if m is None:
            break
        t = " ".join((m.group(1) or m.group(2)).replace("const", "").split())
    return t


def pointer_name(text: str) -> str | None:
    """`(void **)&d_x`, `reinterpret_cast<void **>(&d_x)`, `&d_x`, `d_x` -> d_x; anything else (a
    member, an offset) -> None."""
    t = " ".join(text.split())
    m = _CAST.match(t)
    if m and t.endswith(")"):  # reinterpret_cast<void **>(&d_x)
        t = t[m.end():-1]
    t = re.sub(r"^\(\s*void\s*\*\s*\*\s*\)", "", t).strip()
    t = re.sub(r"^\(\s*[\w\s]+\*\s*\)", "", t).strip()
    t = t.lstrip("&").strip()
    return t if _IDENT.fullmatch(t) else re.sub(r"\s+", "", t) if _MEMBER.fullmatch(t) else None
