"""Members of C++ class templates used as compile-time tables (apex's `PackedStorage<T, N>::Type`,
`ParallelSums<16, 4>::dispatch<THREADS>(...)`, `SharedMemory<float> s; s.getPointer()`).

Such a class holds no data: enumerators, member typedefs and functions, with full or partial
specializations that choose them by the template arguments.  Once the caller's own template
arguments are substituted, each use `NAME<args>::member` is resolved here: the most specialized
definition whose pattern matches `args` is chosen (the primary template otherwise); an enumerator
becomes its value's text, a typedef its type, and a member function a free function
`NAME__kpclsK__member` with the class's parameters substituted (its own template parameters are
left to the usual instantiation).  `typedef NAME<args> Alias;` in a body names the same class, and
a local object of a data-less class (`SharedMemory<float> s;`) calls its members as `s.f(...)`.
A class with data members is left alone (its uses stay errors of the emulator).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...cexpr import CExprError, evaluate, split_top_level
from .arrayrefs import _typedef
from .classdata import Instance, make_instance, rewrite_objects
from .items import Item, balanced, blank, split_items, strip_template_header
from .lowered import AUTO_TYPE

_PARENS = r"\((?:[^()]|\([^()]*\))*\)"  # one level of nesting: `alignas(sizeof(T) * N)`
_CLASS = re.compile(r"\s*(?:struct|class)\s+(?:(?:alignas|__align__)\s*" + _PARENS + r"\s*)?([A-Za-z_]\w*)\s*(<)?")


@dataclass
class ClassDef:
    """A class template (or one specialisation) the frontend reads."""
    name: str
    tparams: list[tuple[str, str, str | None]]
    pattern: list[str] | None  # a specialization's arguments; None for the primary template
    constants: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    functions: dict[str, Item] = field(default_factory=dict)
    has_data: bool = False
    members: list[str] = field(default_factory=list)  # data members' declarations (classdata)
    ctors: list[Item] = field(default_factory=list)
    index_ops: list[Item] = field(default_factory=list)  # `T& operator[](int i)`


def parse_class(it: Item, tparams) -> ClassDef | None:
    """A class template item (`template<...> struct NAME[<pattern>] {...};`) as a ClassDef."""
    m = _CLASS.match(it.text)
    if m is None or "{" not in it.text:
        return None
    pattern = None
    open_b = it.text.index("{")
    if m.group(2):
        end = balanced(it.text, m.end() - 1, "<", ">")
        pattern = [a for a, _ in split_top_level(it.text[m.end(): end - 1], brackets="(<[{")]
    close = balanced(it.text, open_b, "{", "}")
    cd = ClassDef(m.group(1), tparams or [], pattern)
    body = it.text[open_b + 1: close - 1]
    for member in split_items(f'# {it.line} "{it.file}"\n' + body):
        text, mparams = strip_template_header(member.text)
        text = re.sub(r"^\s*(?:public|private|protected)\s*:", "", text)
        e = re.match(r"\s*enum\s*\w*\s*\{(.*)\}\s*;?\s*$", text, re.S)
        t = re.match(r"\s*typedef\s+(?:typename\s+)?(.+?)\s+([A-Za-z_]\w*)\s*;\s*$", text, re.S)
        f = re.search(r"([A-Za-z_]\w*)\s*\(", text.split("{", 1)[0]) if "{" in text else None
        static = re.match(r"\s*static\s+(?:(?:constexpr|const|__device__|__host__)\s+)*[\w\s]*?\b([A-Za-z_]\w*)"
                          r"\s*(?:=\s*(.+?)|\{(.*)\})\s*;\s*$", text, re.S) if "(" not in text.split("=", 1)[0] else None
        if static:  # `static constexpr const int size = sizeof(int4) / sizeof(T);`: a compile-time constant
            cd.constants[static.group(1)] = (static.group(2) or static.group(3)).strip()
        elif re.search(r"\boperator\s*\[\s*\]\s*\(", text.split("{", 1)[0]):
            if "{" in text:
                cd.index_ops.append(Item(text, member.file, member.line, "device", "operator[]", mparams))
        elif re.search(r"(?<![\w:~])" + re.escape(cd.name) + r"\s*\(", text.split("{", 1)[0]):  # a constructor
            if "{" in text and text.rstrip().endswith("}"):
                cd.ctors.append(Item(text, member.file, member.line, "device", cd.name, mparams))
        elif e:
            for part, _ in split_top_level(e.group(1)):
                if "=" in part:
                    k, v = (x.strip() for x in part.split("=", 1))
                    cd.constants[k] = v
        elif t:
            cd.types[t.group(2)] = t.group(1)
        elif f and text.rstrip().endswith("}"):
            fn = Item(text, member.file, member.line, "device", f.group(1), mparams)
            cd.functions[f.group(1)] = fn
        elif text.strip():
            cd.has_data = True
            cd.members.append(text.strip())
    return cd


def _norm(a: str):
    try:
        return int(evaluate(a, {}))
    except (CExprError, ValueError, ZeroDivisionError, RecursionError, TypeError):
        return " ".join(a.replace("(", " ").replace(")", " ").split())


def _choose(defs: list[ClassDef], args: list[str]) -> tuple[ClassDef, dict[str, str]] | None:
    """The most specialized definition matching args, with its parameters' values."""
    best = None
    for d in defs:
        if d.pattern is None or len(d.pattern) != len(args):
            continue
        names = {pn for _, pn, _ in d.tparams}
        bound: dict[str, str] = {}
        ok = True
        for p, a in zip(d.pattern, args):
            if p in names:
                if _norm(bound.setdefault(p, a)) != _norm(a):
                    ok = False
            elif _norm(p) != _norm(a):
                ok = False
        if ok and (best is None or len(d.tparams) < len(best[0].tparams)):
            best = (d, bound)
    if best is not None:
        return best
    for d in defs:
        if d.pattern is None:
            bound = {}
            for k, (_, pn, default) in enumerate(d.tparams):
                if k < len(args):
                    bound[pn] = args[k]
                elif default is not None:
                    bound[pn] = default
                else:
                    return None
            return d, bound
    return None


def _subst(text: str, bound: dict[str, str], types: set[str]) -> str:
    if not bound:
        return text
    pat = re.compile(r"\b(" + "|".join(re.escape(k) for k in bound) + r")\b")
    return pat.sub(lambda m: bound[m.group(1)] if m.group(1) in types else f"({bound[m.group(1)]})", text)


class ClassTemplates:
    """Resolves the class-template uses of item texts; `new_functions` collects the free
    functions made from member functions (templates among them in `new_templates`)."""

    def __init__(self, defs: dict[str, list[ClassDef]]):
        self.defs = defs
        self.made: dict[tuple, str] = {}
        self.new_items: list[Item] = []
        self.struct_items: list[Item] = []  # the structs of classes with data (classdata), placed by place_structs
        self.instances: dict[tuple, Instance] = {}
        self.types: dict[str, Instance] = {}  # struct and alias names -> instance
        self.file_scope = ""  # the file's declarations (its typedefs), told by instantiate
        self._use = re.compile(r"\b(?:typename\s+)?(" + "|".join(map(re.escape, defs)) + r")\s*<") if defs else None

    def _member(self, name: str, args: list[str], member: str) -> str | None:
        hit = _choose(self.defs[name], args)
        if hit is None:
            return None
        d, bound = hit
        if any(AUTO_TYPE in v for v in bound.values()):
            return None  # a type argument not deduced: left as written (a kernel that needs it cannot lower)
        types = {pn for kind, pn, _ in d.tparams if kind == "type"}
        if member in d.constants:
            return "(" + _subst(d.constants[member], bound, types) + ")"
        if member in d.types:
            return _subst(d.types[member], bound, types)
        fn = d.functions.get(member)
        if fn is None:
            return None
        key = (name, id(d), tuple(sorted(bound.items())), member)
        if key not in self.made:
            new = f"{name}__kpcls{len(self.made)}__{member}"
            text = re.sub(r"\b" + re.escape(member) + r"(\s*\()", new + r"\1", _subst(fn.text, bound, types), count=1)
            text = re.sub(r"^\s*static\b", "      ", text)
            self.made[key] = new
            self.new_items.append(Item(text, fn.file, fn.line, "device", new, fn.tparams))
        return self.made[key]

    def _data_instance(self, name: str, args: list[str], where) -> str | None:
        """The struct name of `NAME<args>` when the definition chosen has data members, else None."""
        hit = _choose(self.defs[name], args)
        if hit is None or not hit[0].has_data:
            return None
        d, bound = hit
        if any(AUTO_TYPE in v for v in bound.values()):
            return None  # a type argument not deduced: left as written (a kernel that needs it cannot lower)
        types = {pn for kind, pn, _ in d.tparams if kind == "type"}  # `floatX` and the type it names: one instance
        key = (name, id(d), tuple(sorted((k, _typedef(" ".join(v.split()), [self.file_scope]) if k in types
                                          else " ".join(v.split())) for k, v in bound.items())))
        inst = self.instances.get(key)
        if inst is None:
            inst, items = make_instance(d, bound, len(self.instances), _subst, where)
            self.instances[key] = self.types[inst.sname] = inst
            items[0].file, items[0].line = where
            items[0].text = self.resolve(items[0].text, where)  # a member of another class's type
            self.struct_items.append(items[0])
            self.new_items.extend(items[1:])
        return inst.sname

    def resolve(self, text: str, where: tuple[str, int] = ("<kernel>", 0)) -> str:
        """`text` with its class-template uses resolved (uses that cannot be are left as written)."""
        if self._use is None:
            return text
        text = self._aliases(text, where)
        pos = 0
        while True:
            m = self._use.search(text, pos)
            if m is None:
                return self._data_aliases(rewrite_objects(text, self.types)) if self.types else text
            end = balanced(text, m.end() - 1, "<", ">")
            args = [a for a, _ in split_top_level(text[m.end(): end - 1], brackets="(<[{")]
            sname = self._data_instance(m.group(1), args, where)
            if sname is not None:  # a class with data: its struct (members, constructors: classdata)
                text = text[: m.start()] + sname + text[end:]
                pos = m.start() + len(sname)
                continue
            tail = re.match(r"\s*::\s*(?:template\s+)?([A-Za-z_]\w*)", text[end:])
            if tail is None:
                pos = m.end()
                continue
            args = [a for a, _ in split_top_level(text[m.end(): end - 1], brackets="(<[{")]
            rep = self._member(m.group(1), args, tail.group(1))
            if rep is None:
                pos = m.end()
                continue
            text = text[: m.start()] + rep + text[end + tail.end():]
            pos = m.start() + len(rep)

    def _data_aliases(self, text: str) -> str:
        """`typedef S Alias;` / `using Alias = S;` of an instance's struct S: a C typedef, and Alias
        names the instance in every text after (`Alias::size`, objects declared `Alias x;`)."""
        names = "|".join(map(re.escape, self.types))
        text = re.sub(r"\busing\s+([A-Za-z_]\w*)\s*=\s*(" + names + r")\s*;",
                      lambda m: f"typedef {m.group(2)} {m.group(1)};".ljust(len(m.group(0))), text)
        for m in re.finditer(r"\btypedef\s+(?:struct\s+)?(" + names + r")\s+([A-Za-z_]\w*)\s*;", text):
            if m.group(2) not in self.types:
                self.types[m.group(2)] = self.types[m.group(1)]
                text = text[: m.end()] + rewrite_objects(text[m.end():], self.types)
        return text

    def _aliases(self, text: str, where=("<kernel>", 0)) -> str:
        """`typedef NAME<args> Alias;` and `NAME<args> obj;` (a data-less class) in a body: later
        `Alias::m` is `NAME<args>::m` and `obj.f(` is `NAME<args>::f(`."""
        names = "|".join(map(re.escape, self.defs))
        for m in list(re.finditer(r"\btypedef\s+(?:typename\s+)?((?:" + names + r")\s*<)", text))[::-1]:
            end = balanced(text, m.start(1) + len(m.group(1)) - 1, "<", ">")
            if self._data_instance(m.group(1).rstrip("< \t\n"), [a for a, _ in split_top_level(
                    text[m.start(1) + len(m.group(1)): end - 1], brackets="(<[{")], where) is not None:
                continue  # a class with data: a C typedef of its struct (_data_aliases)
            a = re.match(r"\s*([A-Za-z_]\w*)\s*;", text[end:])
            if a is None:
                continue
            cls, alias = text[m.start(1): end], a.group(1)
            stop = end + a.end()
            rest = re.sub(r"\b" + re.escape(alias) + r"\b(?=\s*::)", lambda _: cls, text[stop:])
            text = text[: m.start()] + blank(text[m.start(): stop]) + rest
        for m in list(re.finditer(r"(?<![\w:.>])((" + names + r")\s*<)", text))[::-1]:
            end = balanced(text, m.start(1) + len(m.group(1)) - 1, "<", ">")
            a = re.match(r"\s*([A-Za-z_]\w*)\s*;", text[end:])
            if a is None or any(d.has_data for d in self.defs[m.group(2)]):
                continue
            cls, obj = text[m.start(1): end], a.group(1)
            stop = end + a.end()
            rest = re.sub(r"\b" + re.escape(obj) + r"\s*\.\s*(?=[A-Za-z_]\w*\s*[<(])", lambda _: cls + "::", text[stop:])
            text = text[: m.start(1)] + blank(text[m.start(1): stop]) + rest
        return text
