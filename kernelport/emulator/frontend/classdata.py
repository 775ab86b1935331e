"""C++ class templates WITH data members, as C99 structs and free functions (llm.c's `Packed128<T>`:
an array member, a constructor from `int4`, static constexpr constants, static and const member
functions, `operator[]`).

Each `NAME<args>` a text uses (after the caller's template arguments are substituted) is one
instance: `struct NAME__kpdK { <data members> };` with the class's parameters and constants
substituted, and its functions made free:

- a static member function `f` is `NAME__kpdK__f(...)`; its sibling calls `g(...)` point at theirs;
- a const member function `f` takes the object by value first: `obj.f(a)` is `NAME__kpdK__f(obj, a)`,
  the members in its body `self.m` (a non-const one is left as written: C has no reference to
  write through, so its uses stay located refusals);
- a constructor is a function that returns the object: `NAME<T>{bits}` / `NAME<T>(bits)` is
  `NAME__kpdK__kpctorN(bits)` (chosen by the number of arguments);
- `operator[]` whose body is one `return EXPR;` is inlined where an object is indexed: `obj[k]`
  is `(obj.payload[(k)])`, an lvalue, so `obj[k] = v` writes the object's own element;
- a static constant is its value, as `NAME<T>::size`, `Alias::size` or `obj.size`.

`typedef NAME<args> Alias;` / `using Alias = NAME<args>;` stay C typedefs of the struct, and the
alias names the instance everywhere after.  An object is a name declared with the struct's type or
an alias of it (a local, a parameter); scopes are not told apart.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...cexpr import split_top_level
from .items import Item, balanced

_EXPR_START = r"(?:(?<=[(,=+\-*/%&|^!~<>?:\[{;])|(?<=\breturn)|(?<=^))"


@dataclass
class Instance:
    """One instance of a class the frontend lowers: its constants, members and methods."""
    sname: str
    consts: dict[str, str]
    members: list[str]  # data member names
    methods: dict[str, str] = field(default_factory=dict)  # const member -> free function
    mutators: dict[str, str] = field(default_factory=dict)  # a plain class's other member -> free function
    statics: dict[str, str] = field(default_factory=dict)  # static member -> free function
    ctors: dict[int, str | None] = field(default_factory=dict)  # arity -> function (None: ambiguous)
    index: tuple[str, str] | None = None  # operator[]: (parameter, returned expression)
    not_aggregate: str | None = None  # why `NAME<T>{...}` is no aggregate initialisation (braced.py)


def _member_names(decls: list[str]) -> list[str]:
    out = []
    for d in decls:
        for part, _ in split_top_level(d.rstrip().rstrip(";")):
            m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?$", part.strip(), re.S)
            if m:
                out.append(m.group(1))
    return out


def _words(text: str, table: dict[str, str], prefix_ok: bool = False) -> str:
    """Each name of `table` (not a member access `x.name` / `x->name` unless prefix_ok) as its value."""
    if not table:
        return text
    look = "" if prefix_ok else r"(?<![.\w])(?<!->)(?<!::)"
    pat = re.compile(look + r"\b(" + "|".join(map(re.escape, table)) + r")\b")
    return pat.sub(lambda m: table[m.group(1)], text)


def _params(head: str, name: str) -> tuple[int, int, list[str]]:
    m = re.search(r"\b" + re.escape(name) + r"\s*\(", head)
    end = balanced(head, m.end() - 1)
    return m.end(), end, [p for p, _ in split_top_level(head[m.end(): end - 1]) if p.strip() and p.strip() != "void"]


def make_instance(cd, bound: dict[str, str], key_index: int, subst, where: tuple[str, int]) -> tuple[Instance, list[Item]]:
    """The struct and the free functions of class definition `cd` with its parameters `bound` (a plain
    class's members that are not const too: plain_classes.py)."""
    plain_mutators = not cd.tparams and cd.pattern is None
    types = {pn for kind, pn, _ in cd.tparams if kind == "type"}
    sname = f"{cd.name}__kpd{key_index}"
    consts: dict[str, str] = {}
    for k, v in cd.constants.items():  # a constant may name the ones before it
        consts[k] = "(" + _words(subst(v, bound, types), consts) + ")"
    inst = Instance(sname, consts, _member_names(cd.members))
    inst.not_aggregate = "a class with constructors" if cd.ctors else \
        "a struct with default member initialisers" if any("=" in d for d in cd.members) else None

    def body(text: str) -> str:
        text = subst(text, bound, types)
        text = re.sub(r"(?<![\w:.~])" + re.escape(cd.name) + r"\b(?!\s*<)", sname, text)  # the injected class name
        return _words(text, consts)

    items = [Item(f"struct {sname} {{ " + " ".join(body(d) for d in cd.members) + " };", cd.ctors[0].file
                  if cd.ctors else where[0], 0, "decl", None)]
    statics = {n: f"{sname}__{n}" for n, fn in cd.functions.items() if _is_static(fn.text)}
    members = {m: f"self.{m}" for m in inst.members}
    for n, fn in cd.functions.items():
        text = body(fn.text)
        head, brace, rest = text.partition("{")
        if n in statics:
            head = re.sub(r"\bstatic\b", "", head)
            head = re.sub(r"\b" + re.escape(n) + r"(\s*\()", statics[n] + r"\1", head, count=1)
        elif re.search(r"\)\s*const\s*$", head) or plain_mutators:
            const = re.search(r"\)\s*const\s*$", head) is not None
            head = re.sub(r"\)\s*const\s*$", ")", head)
            start, _, ps = _params(head, n)
            head = head[:start] + f"{sname} {'' if const else '*'}self" + (", " if ps else "") + head[start:]
            head = re.sub(r"\b" + re.escape(n) + r"(\s*\()", f"{sname}__{n}" + r"\1", head, count=1)
            if const:
                rest = _words(rest.replace("this->", "self.").replace("*this", "self"), _unshadowed(members, ps))
            else:  # (a plain class's member that writes its object: through a pointer, plain_classes.py)
                rest = _words(rest.replace("this->", "self->").replace("*this", "(*self)"),
                              _unshadowed({m: f"self->{m}" for m in inst.members}, ps))
            rest = _own_calls(rest, cd, sname, const)
            (inst.methods if const else inst.mutators)[n] = f"{sname}__{n}"
        else:
            continue
        rest = re.sub(r"(?<![\w.:>])(" + "|".join(map(re.escape, statics)) + r")(\s*\()",
                      lambda m: statics[m.group(1)] + m.group(2), rest) if statics else rest
        items.append(Item(head + brace + rest, fn.file, fn.line, "device", (statics.get(n) or inst.methods.get(n) or inst.mutators[n]),
                          fn.tparams))
    inst.statics = statics
    for k, ct in enumerate(cd.ctors):
        text = body(ct.text)
        if re.search(r"\breturn\b", text):
            continue
        head, _, rest = text.partition("{")
        init = ""
        if ":" in head.split(")")[-1]:  # a member initialiser list: `: a(x), b(y)`
            head, _, inits = head.rpartition(":")
            for part, _ in split_top_level(inits):
                mi = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*[({](.*)[)}]\s*", part, re.S)
                if mi is None or mi.group(1) not in inst.members:
                    break
                init += f" self.{mi.group(1)} = {mi.group(2)};"
            else:
                inits = ""
            if inits:
                continue
        start, end, ps = _params(head, sname)
        fname = f"{sname}__kpctor{k}"
        arity = len(ps)
        inst.ctors[arity] = None if arity in inst.ctors else fname
        rest = _words(rest.replace("this->", "self."), _unshadowed(members, ps))
        close = rest.rstrip().rfind("}")
        items.append(Item(f"{sname} {fname}({', '.join(ps)}) {{ {sname} self;{init}"
                          + rest[:close] + " return self; }", ct.file, ct.line, "device", fname, ct.tparams))
    for op in cd.index_ops:  # `T& operator[](int i) { return payload[i]; }` (and its const twin)
        text = body(op.text)
        m = re.search(r"operator\s*\[\s*\]\s*\(([^()]*)\)[^{]*\{\s*return\s+(.+?);\s*\}\s*$", text, re.S)
        if m is None or len(split_top_level(m.group(1))) != 1:
            inst.index = None
            break
        pname = re.findall(r"[A-Za-z_]\w*", m.group(1))[-1]
        got = (pname, m.group(2).replace("this->", ""))
        if inst.index is not None and inst.index != got:
            inst.index = None
            break
        inst.index = got
    return inst, items


def _unshadowed(table: dict[str, str], params: list[str]) -> dict[str, str]:
    """The member table less the names a member function's parameters declare (`void set(float a) { this->a = a; }`:
    the bare `a` is the parameter; reading it as `self.a` lost the store, a wrong oracle)."""
    names = {w[-1] for p in params if (w := re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*|=.*", "", p, flags=re.S)))}
    return {k: v for k, v in table.items() if k not in names}


def _own_calls(body: str, cd, sname: str, const: bool) -> str:
    """A member's calls of its class's other non-static members on its own object (`f()` in `g`): their free
    functions on `self` (`*self` where the callee takes the object by value and self is a pointer)."""
    names = [n for n, fn in cd.functions.items() if not _is_static(fn.text)]
    if not names:
        return body

    def call(m: re.Match) -> str:
        callee_const = re.search(r"\)\s*const\s*\{", cd.functions[m.group(1)].text) is not None
        obj = "self" if const or not callee_const else "(*self)"
        obj = obj if callee_const or not const else "&self"  # (C++ refuses a const member calling another)
        close = balanced(m.string, m.end() - 1)
        empty = not m.string[m.end(): close - 1].strip()
        return f"{sname}__{m.group(1)}({obj}" + ("" if empty else ", ")
    return re.sub(r"(?<![\w.>:])(" + "|".join(map(re.escape, names)) + r")\s*\(", call, body)


def _is_static(text: str) -> bool:
    return re.search(r"\bstatic\b", text.split("(", 1)[0]) is not None


def rewrite_objects(text: str, types: dict[str, Instance]) -> str:
    """The uses of instances in one item's text: `T{a}` / `T(a)` (constructors), `T::m`, and the
    objects of type T: `obj.CONST`, `obj.f(a)`, `obj[k]`."""
    if not types:
        return text
    names = "|".join(map(re.escape, sorted(types, key=len, reverse=True)))
    # constructors in expressions
    pos = 0
    ctor = re.compile(_EXPR_START + r"(\s*)(" + names + r")\s*([({])", re.M)
    while (m := ctor.search(text, pos)) is not None:
        inst = types[m.group(2)]
        open_i = m.end() - 1
        close_c = ")" if m.group(3) == "(" else "}"
        end = balanced(text, open_i, m.group(3), close_c)
        args = [a for a, _ in split_top_level(text[open_i + 1: end - 1]) if a.strip()]
        fn = inst.ctors.get(len(args))
        if fn is None:
            pos = m.end()
            continue
        new = f"{m.group(1)}{fn}({', '.join(args)})"
        text = text[: m.start()] + new + text[end:]
        pos = m.start() + len(new) - 1
    # T::member
    def scoped(m):
        inst = types[m.group(1)]
        mem = m.group(2)
        return inst.consts.get(mem) or inst.statics.get(mem) or m.group(0)
    text = re.sub(r"\b(" + names + r")\s*::\s*([A-Za-z_]\w*)", scoped, text)
    # objects
    objects: dict[str, tuple[Instance, int]] = {}  # name -> (instance, where its declaration ends)
    twice: set[str] = set()  # names declared as objects of two classes (`{ S s; } { T s; }`): left as written
    for m in re.finditer(r"(?<![\w.])(" + names + r")\s+(?:const\s+)?([A-Za-z_]\w*)\s*(?=[;=,){])", text):
        if objects.setdefault(m.group(2), (types[m.group(1)], m.end()))[0].sname != types[m.group(1)].sname:
            twice.add(m.group(2))  # (one class's members on the other's object read its fields: a wrong run)
    for name in twice:
        del objects[name]
    if not objects:
        return text
    obj_re = re.compile(r"(?<![\w.>])(" + "|".join(map(re.escape, objects)) + r")\s*(\.\s*([A-Za-z_]\w*)\s*(\()?|\[(?!\[))")
    pos = 0

    def edit(start: int, end: int, new: str) -> str:
        for k, (inst, at) in objects.items():  # declarations after the edit move with the text
            if at > start:
                objects[k] = (inst, at + len(new) - (end - start))
        return text[:start] + new + text[end:]

    while (m := obj_re.search(text, pos)) is not None:
        obj, (inst, declared) = m.group(1), objects[m.group(1)]
        if m.start() < declared:  # before the declaration: another variable of the name (a parameter)
            pos = m.end()
            continue
        if m.group(2) == "[":
            if inst.index is None:
                pos = m.end()
                continue
            end = balanced(text, m.end() - 1, "[", "]")
            arg = text[m.end(): end - 1]
            pname, expr = inst.index
            expr = re.sub(r"\b" + re.escape(pname) + r"\b", lambda _: f"({arg})", expr)
            expr = _words(expr, {k: f"{obj}.{k}" for k in inst.members})
            text = edit(m.start(), end, f"({expr})")
            pos = m.start() + 1
            continue
        mem = m.group(3)
        if m.group(4) is None and mem in inst.consts:
            new = inst.consts[mem]
            text = edit(m.start(), m.end(), new)
            pos = m.start() + len(new)
        elif m.group(4) is not None and (mem in inst.methods or mem in inst.mutators):
            open_i = m.end() - 1
            end = balanced(text, open_i)
            inner = text[open_i + 1: end - 1]
            fn = inst.methods.get(mem) or inst.mutators[mem]
            new = f"{fn}({'' if mem in inst.methods else '&'}{obj}" + (", " + inner if inner.strip() else "") + ")"
            text = edit(m.start(), end, new)
            pos = m.start() + len(fn) + 1
        else:
            pos = m.end()
    return text


def place_structs(items: list[Item], structs: list[Item]) -> None:
    """Each instance's struct just before the first item that names it (C declares a type before
    its use; the file's typedefs its members name come before that item)."""
    for st in structs:
        name = re.match(r"struct\s+(\w+)", st.text).group(1)
        pat = re.compile(r"\b" + re.escape(name) + r"\b")
        at = next((k for k, it in enumerate(items) if pat.search(it.text)), len(items))
        items.insert(at, st)
