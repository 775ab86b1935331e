"""A project's operators on CUDA vector types that the target's vector types already have.

CUDA's float3 & co. are plain structs, so projects define `operator+(float3, float3)` and
friends (helper_math.h, mumax3's float3.h, chrxh/alien's Math.cuh).  Metal's vector types have
these operators built in (MSL 2.1: component-wise arithmetic, vector with scalar either side,
compound assignment, unary minus), and C++ does not let a port redefine an operator on a
non-class type; HIP's (ROCm's HIP_vector_type) define them too, so the project's definition
makes every use ambiguous ("use of overloaded operator '-=' is ambiguous").  Either way the
definition cannot stay.  One whose body IS the component-wise meaning is left out of the port (a
comment in its place, a note in the statistics); the decision reads the body, never the name:

    V operator OP(V a, V b)   { return make_V(a.x OP b.x, a.y OP b.y, ...); }   (or V(...), V{...}, {...})
    V operator OP(V a, E s)   { return make_V(a.x OP s, ...); }   (E: V's element type; either order,
                                                                   swapped operands only where OP commutes)
    V operator -(V a)         { return make_V(-a.x, -a.y, ...); }
    void operator OP=(V& a, V b) { a.x OP= b.x; a.y OP= b.y; ... }  (or a.x = a.x OP b.x; `V&` returning `a`)

every lane exactly once, in lane order where the result is built.  A file-scope use of a function-like
macro whose expansion defines such operators (Kintinuous's `COMPOUND_VEC3_OP(float3, float, -=)`, one
use per type and operator) is read as its expansion is: where every function the use defines has one of
these meanings, the use is left out the same way (`macro_operators`).  Anything else (a dot product
spelled `operator*`, `float3 * float4`, a comparison, a lane left out) stays: Metal's checker
refuses it at its line (KP224); hipcc compiles it where it is no exact match of HIP's.  Which
vector types and operators the target has is the backend's data (`vector_types`,
`vector_operators`, `vector_unary_operators`); Metal's pass is metal/vectorops.py (it runs after
the host code is split off), every other backend's is `BuiltinVectorOperators` here.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, lazy_re
from .source import ident_name
from .vector_types import BASES, VECTORS

_COMMUTES = frozenset({"+", "*", "&", "|", "^"})
_LANES = "xyzw"


def _strip(n: Node) -> Node:
    while n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _words(text: str) -> str:
    return " ".join(re.sub(r"\b(const|__device__|__host__|__forceinline__|inline|static|__inline__)\b", " ",
                           text).split())


class Reader:
    """The shapes above, read from one function definition of `src`."""

    def __init__(self, src, backend) -> None:
        self.src, self.vectors = src, backend.vector_types
        self.binary, self.unary = backend.vector_operators, backend.vector_unary_operators
        self.alias, self.makers = _aliases(src, self.vectors)

    def targets(self, t: str) -> set[str]:
        """The vector types `t` names: itself, or every type a typedef of it names in the file (cusph's
        `typedef double4 real4;` and, under `#if defined(PRECISION_FLOAT)`, `typedef float4 real4;`)
        where those are all vector types of one width; else none."""
        if t in self.vectors:
            return {t}
        got = self.alias.get(t, set())
        return got if got and got <= self.vectors and len({VECTORS[v][1] for v in got}) == 1 else set()

    def lanes(self, vec: str) -> int:
        return VECTORS[next(iter(self.targets(vec)))][1]

    def text(self, n: Node | None) -> str:
        return "" if n is None else self.src.text_of(n)

    def params(self, fdecl: Node) -> list[tuple[str, bool, str]] | None:
        """(type, by reference, name) of each parameter."""
        out = []
        for p in fdecl.child_by_field_name("parameters").named_children:
            if p.type != "parameter_declaration":
                return None
            decl = p.child_by_field_name("declarator")
            ref = decl is not None and decl.type == "reference_declarator"
            name = ident_name(decl)
            if name is None or (decl.type not in ("identifier", "reference_declarator")):
                return None
            out.append((_words(self.text(p.child_by_field_name("type"))), ref, name))
        return out

    def element(self, vec: str) -> set[str]:
        """The spellings of `vec`'s element type (`unsigned int` and `uint` for uint3; for a typedef of
        vector types, their elements', and a typedef's of only those: `real` beside `real4`)."""
        out = set()
        for v in self.targets(vec):
            base = v.rstrip("1234")
            out |= {base, BASES[base]}
        return out | {t for t, got in self.alias.items() if got and got <= out}

    def lane(self, n: Node, var: str, i: int) -> bool:
        """`n` is `var.x` (the i-th lane)."""
        n = _strip(n)
        return n.type == "field_expression" and self.text(n.child_by_field_name("argument")) == var and \
            self.text(n.child_by_field_name("field")) == _LANES[i] and self.text(n)[len(var):].lstrip()[:1] == "."

    def operand(self, n: Node, what: tuple[str, bool], i: int) -> bool:
        """`n` is lane i of a vector (name, True) or the scalar itself (name, False)."""
        name, vector = what
        return self.lane(n, name, i) if vector else self.text(_strip(n)) == name

    def built(self, n: Node, vec: str) -> list[Node] | None:
        """The lane values of `make_V(...)`, `V(...)`, `V{...}` or a returned `{...}` (the function's V)."""
        n = _strip(n)
        makes = {vec} | {f"make_{v}" for v in self.targets(vec)} | \
            {m for m, got in self.makers.items() if got and got <= self.targets(vec)}
        if n.type == "call_expression" and self.text(n.child_by_field_name("function")) in makes:
            args = n.child_by_field_name("arguments").named_children
        elif n.type == "initializer_list":
            args = n.named_children
        elif n.type == "compound_literal_expression" and self.text(n.child_by_field_name("type")) == vec:
            args = n.child_by_field_name("value").named_children
        else:
            return None
        return args if len(args) == self.lanes(vec) else None

    def binary_lanes(self, values: list[Node], op: str, left, right) -> bool:
        for i, v in enumerate(values):
            v = _strip(v)
            if v.type != "binary_expression" or self.text(v.child_by_field_name("operator")) != op:
                return False
            a, b = v.child_by_field_name("left"), v.child_by_field_name("right")
            if not (self.operand(a, left, i) and self.operand(b, right, i)) and not (
                    op in _COMMUTES and self.operand(a, right, i) and self.operand(b, left, i)):
                return False
        return True

    def meaning(self, fn: Node) -> str | None:
        """`operator+(float3, float3)` where `fn` is one of the shapes above; else None."""
        fdecl, ret_ref = fn.child_by_field_name("declarator"), False
        if fdecl is not None and fdecl.type == "reference_declarator" and fdecl.named_children:
            fdecl, ret_ref = fdecl.named_children[0], True
        if fdecl is None or fdecl.type != "function_declarator":
            return None
        oname = fdecl.child_by_field_name("declarator")
        if oname is None or oname.type != "operator_name":
            return None
        op = self.text(oname)[len("operator"):].strip()
        params, body = self.params(fdecl), fn.child_by_field_name("body")
        ret = _words(self.text(fn.child_by_field_name("type")))
        if not params or body is None:
            return None
        vecs = [t for t, _, _ in params if self.targets(t)]
        if not vecs or any(t != vecs[0] for t in vecs):
            return None
        vec = vecs[0]
        kinds = []  # (name, is the vector) per parameter; anything but V or its element type: not ours
        for t, _, name in params:
            if t != vec and t not in self.element(vec):
                return None
            kinds.append((name, t == vec))
        sig = f"operator{op}({', '.join(t for t, _, _ in params)})"
        stmts = [c for c in body.named_children if c.type != "comment"]
        if op.endswith("=") and op[:-1] in self.binary:  # a compound assignment (`==`: `=` is not an operator here)
            return sig if self._compound(op[:-1], params, kinds, (ret, ret_ref), vec, stmts) else None
        if ret != vec or ret_ref or len(stmts) != 1 or stmts[0].type != "return_statement" \
                or not stmts[0].named_children:
            return None
        values = self.built(stmts[0].named_children[0], vec)
        if values is None:
            return None
        if len(params) == 1:
            if op not in self.unary:
                return None
            ok = all(_strip(v).type == "unary_expression" and self.text(_strip(v).child_by_field_name("operator")) == op
                     and self.lane(_strip(v).child_by_field_name("argument"), kinds[0][0], i)
                     for i, v in enumerate(values))
            return sig if ok else None
        if len(params) != 2 or op not in self.binary:
            return None
        return sig if self.binary_lanes(values, op, kinds[0], kinds[1]) else None

    def _compound(self, op: str, params, kinds, ret: tuple[str, bool], vec: str, stmts: list[Node]) -> bool:
        """`a.x OP= b.x; ...` (or `a.x = a.x OP b.x;`) on a `V&` first parameter, each lane once;
        returning nothing, or `V&` with `return a;`."""
        if len(params) != 2 or not params[0][1] or not kinds[0][1]:
            return False
        target, other = kinds[0][0], kinds[1]
        if ret == (vec, True):
            if not stmts or stmts[-1].type != "return_statement" or \
                    self.text(stmts[-1]).replace(" ", "") != f"return{target};":
                return False
            stmts = stmts[:-1]
        elif ret != ("void", False):
            return False
        lanes = self.lanes(vec)
        if len(stmts) != lanes:
            return False
        seen = set()
        for s in stmts:
            e = s.named_children[0] if s.type == "expression_statement" and s.named_children else None
            if e is None or e.type != "assignment_expression":
                return False
            left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
            aop = self.text(e.child_by_field_name("operator"))
            i = next((k for k in range(lanes) if self.lane(left, target, k)), None)
            if i is None or i in seen:
                return False
            seen.add(i)
            if not (aop == f"{op}=" and self.operand(right, other, i)) and \
                    not (aop == "=" and self._lane_binary(right, op, target, other, i)):
                return False
        return True

    def _lane_binary(self, v: Node, op: str, target: str, other, i: int) -> bool:
        v = _strip(v)
        if v.type != "binary_expression" or self.text(v.child_by_field_name("operator")) != op:
            return False
        a, b = v.child_by_field_name("left"), v.child_by_field_name("right")
        return (self.lane(a, target, i) and self.operand(b, other, i)) or (
            op in _COMMUTES and self.operand(a, other, i) and self.lane(b, target, i))


def macro_operators(src, backend) -> list[tuple[int, int, str, list[str]]]:
    """(start, end, the use's text, signatures) of each file-scope use of a function-like macro whose
    expansion defines only component-wise operators on the backend's vector types (the shapes above)."""
    from .macros import definitions
    from .source import SourceFile
    if "operator" not in src.text:
        return []
    defs = {n: d for n, d in definitions(src.text, src.path, undefined=True).items()  # #undef'd after its uses too
            if d.params and "operator" in d.body and "#" not in d.body}
    out, data = [], src.data
    for name, d in defs.items():
        for m in re.finditer(rb"(?m)^[ \t]*(" + re.escape(name.encode()) + rb")\s*\(", data):
            at = m.start(1)
            args, end = _use_args(data, m.end(1))
            if args is None or len(args) != len(d.params) or _in_function(src, at):
                continue
            text = d.body
            for p, a in sorted(zip(d.params, args), key=lambda pa: -len(pa[0])):
                text = re.sub(rf"(?<![\w.]){re.escape(p)}(?!\w)", lambda _m, a=a: a, text)
            snippet = SourceFile.from_text(text, f"<{name}>")
            fns = snippet.index.of_types("function_definition")
            if not fns or snippet.root.has_error:
                continue
            reader = Reader(snippet, backend)
            sigs = [reader.meaning(fn) for fn in fns]
            if all(sigs):
                out.append((at, end, " ".join(data[at:end].decode("utf-8", "replace").split()), sigs))
    return out


def _use_args(data: bytes, i: int) -> tuple[list[str] | None, int]:
    """The arguments of a macro use whose `(` follows byte i (blanks between), and the byte after its `)`."""
    while i < len(data) and data[i:i + 1] in (b" ", b"\t"):
        i += 1
    if data[i:i + 1] != b"(":
        return None, i
    depth, args, cur = 0, [], i + 1
    for j in range(i, len(data)):
        c = data[j:j + 1]
        if c in (b"(", b"[", b"{"):
            depth += 1
        elif c in (b")", b"]", b"}"):
            depth -= 1
            if depth == 0:
                args.append(data[cur:j].decode("utf-8", "replace").strip())
                return args, j + 1
        elif c == b"," and depth == 1:
            args.append(data[cur:j].decode("utf-8", "replace").strip())
            cur = j + 1
    return None, i


def _in_function(src, at: int) -> bool:
    n = src.root.descendant_for_byte_range(at, at)
    while n is not None:
        if n.type in ("function_definition", "compound_statement", "class_specifier", "struct_specifier"):
            return True
        n = n.parent
    return False


def _aliases(src, vectors) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The file's typedef names with every type each names (in any `#if` branch), and its function-like
    macros that are a vector maker with their parameters in order (`#define MAKE_REAL4(x, y, z, w)
    make_double4(x, y, z, w)`) with every vector type each makes."""
    alias: dict[str, set[str]] = {}
    for td in src.index.of_type("type_definition"):
        t = td.child_by_field_name("type")
        for d in td.children_by_field_name("declarator"):
            if t is not None and d.type == "type_identifier":
                alias.setdefault(src.text_of(d), set()).add(_words(src.text_of(t)))
    makers: dict[str, set[str]] = {}
    for m in src.index.of_type("preproc_function_def"):
        name, params, value = (m.child_by_field_name(f) for f in ("name", "parameters", "value"))
        if name is None or params is None or value is None:
            continue
        ps = [src.text_of(p) for p in params.named_children]
        got = _MAKER.fullmatch(src.text_of(value).strip())
        if got and got[1] in vectors and [a.strip() for a in got[2].split(",")] == ps:
            makers.setdefault(src.text_of(name), set()).add(got[1])
    return alias, makers


_MAKER = lazy_re.compile(r"make_(\w+)\s*\(([^()]*)\)")


class BuiltinVectorOperators:
    """Mixin of the Translator: the `drop_builtin_vector_operators` pass (a backend with no
    `vector_types` keeps every definition)."""

    def drop_builtin_vector_operators(self) -> None:
        b = backends.get(self.backend)
        if not b.vector_types:
            return
        reader = Reader(self.src, b)
        for fn in self.src.index.of_types("function_definition"):
            if any(p.type == "template_declaration" for p in _ancestors(fn)):
                continue
            sig = reader.meaning(fn)
            if sig is None:
                continue
            lines = self.src.text_of(fn).count("\n")
            self.rw.replace(fn, f"// {sig}: {b.display_name}'s vector types define it (component-wise), left out"
                            + "\n" * lines)  # (the port keeps the original's lines)
            self.note(fn, "(left out)", f"{sig} is component-wise, as {b.display_name}'s built-in operator is")
        for start, end, use, sigs in macro_operators(self.src, b):
            self._drop_use(start, end, f"// {use} defines {', '.join(sigs)}: {b.display_name}'s vector types "
                                       f"define them (component-wise), left out")

    def _drop_use(self, start: int, end: int, comment: str) -> None:
        """Leave out the file-scope bytes [start, end) of a macro use: the grammar's pieces of it go (the
        largest nodes within it, at any depth: a use inside an include guard), the bytes it saw as blanks
        are dropped, `comment` stands first; the port keeps the original's lines.  A node that runs past
        either end (the grammar joined the use to its neighbour) leaves the use alone."""
        data, held, stack = self.src.data, [], [self.src.root]
        while stack:
            n = stack.pop()
            if n.end_byte <= start or n.start_byte >= end or n.start_byte == n.end_byte:
                continue
            if start <= n.start_byte and n.end_byte <= end:
                held.append(n)
            elif n.child_count:
                stack.extend(n.children)
            else:
                return
        pos, first = start, True
        for n in sorted(held, key=lambda n: n.start_byte):
            if n.start_byte > pos:
                self.rw.drop_span(pos, n.start_byte, comment if first else "")
                first = False
            self.rw.replace(n, "\n" * data[n.start_byte:n.end_byte].count(b"\n"))
            pos = n.end_byte
        if pos < end:
            self.rw.drop_span(pos, end, comment if first else "")
        elif first:
            self.rw.insert_before(held[0], comment)

    def rewrite_vector_bases(self) -> None:
        """A class deriving from a CUDA vector type (`class Vec3f : public VectorBase<...>, public float3`)
        derives from the backend's `vector_base` instead: a struct as plain as CUDA's, so that the target's
        templated vector operators do not match the class too (on HIP, ambiguous with the class's own)."""
        b = backends.get(self.backend)
        if b.vector_base is None:
            return
        for clause in self.src.index.of_types("base_class_clause"):
            for c in clause.named_children:
                name = self.src.text_of(c)
                if c.type != "type_identifier" or name not in b.vector_types or self.rw.has(c):
                    continue
                spelled = b.vector_base.format(vector=name)
                self.rw.replace(c, spelled)
                self.note(c, spelled, f"CUDA's {name} is a plain struct; {b.display_name}'s has operator templates "
                          f"that would match the derived class too: the base is a plain {name} that converts to it")


def plain_bases(body: str, spelling: str | None) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(name, vector, scalar type, lanes) of each `spelling` the port's body derives from, for its prologue."""
    if spelling is None:
        return []
    pattern = re.compile(r"\b" + re.escape(spelling).replace(re.escape("{vector}"), r"(\w+)") + r"\b")
    found = sorted({m.group(1) for m in pattern.finditer(body)} & VECTORS.keys())
    return [(spelling.format(vector=v), v, VECTORS[v][0], tuple(_LANES[:VECTORS[v][1]])) for v in found]


def _ancestors(n: Node):
    while n.parent is not None:
        n = n.parent
        yield n
