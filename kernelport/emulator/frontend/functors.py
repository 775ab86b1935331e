"""Function objects: a class whose `operator()` a kernel calls, as C99 functions.

CUDA passes an operation to a kernel as a functor (`template <class Op> __global__ void k(..., Op op)`
calling `op(a, b)`, or `Op{}(a, b)` with no object), and the Metal port passes each device function a
template takes as a function object that forwards to it (`struct kp_fn_square { template <typename... A>
decltype(auto) operator()(A... a) const { return square(a...); } };`, called `step{}(y, x, i)`: MSL has no
function pointers).  A non-template `struct`/`class` of data members and one `operator()` is read so:
- a forwarder (its operator() a variadic template whose body is `return F(a...);`, the pack passed on
  by value or `static_cast<A&&>(a)...`) names F: every call of the type's object or temporary is F's;
- any other becomes `struct NAME { <data members> };` and `NAME__kp_call(NAME self, <parameters>)`, its
  members `self.m` in the body (a const operator reads them; a type parameter of a template operator() is
  the emulator's deduced type, as a helper template's is); `obj(a, b)` is `NAME__kp_call(obj, a, b)`
  where `obj` is declared of the type (a parameter, a local); a class without data members takes no
  object, so `NAME{}(a, b)` / `NAME()(a, b)` is `NAME__kp_call(a, b)`.
A function argument given for a kernel's type parameter (the original's `<square>` run on the port's
`template <typename step>`) is the forwarder the text defines for it.  The forms not read (several
operator() overloads, other member functions, constructors, a temporary of a class with data) are a
located "not yet" where the kernel reaches a call of them (NotImplementedError, as preprocess's unlowered
spellings); another kernel's or an unused helper's call is dropped with its item, as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...cexpr import split_top_level
from .items import Item, balanced, line_at
from .lowered import AUTO_TYPE

_CLASS = re.compile(r"\s*(?:struct|class)\s+([A-Za-z_]\w*)\s*(?:final\s*)?\{")
_ACCESS = re.compile(r"\b(?:public|private|protected)\s*:")
_TEMPLATE = re.compile(r"\s*template\s*<")
_OPERATOR = re.compile(r"\boperator\s*\(\s*\)\s*\(")
_FORWARD = re.compile(r"\{\s*return\s+([A-Za-z_][\w:]*)\s*\(\s*(?:(\w+)|static_cast\s*<\s*(\w+)\s*&&\s*>\s*\(\s*(\w+)\s*\)|"
                      r"std\s*::\s*forward\s*<\s*(\w+)\s*>\s*\(\s*(\w+)\s*\))\s*\.\.\.\s*\)\s*;\s*\}\s*$", re.S)
CALL = "__kp_call"


@dataclass
class Functors:
    """The functor types the frontend lowers to calls, and those it cannot."""
    forward: dict[str, str] = field(default_factory=dict)  # forwarder type -> the function it calls
    calls: dict[str, bool] = field(default_factory=dict)  # functor type -> whether its function takes the object
    unread: dict[str, str] = field(default_factory=dict)  # type -> why not read ("file:line: what")
    blocked: list = field(default_factory=list)  # (item, why): a call not lowered, an error where the kernel needs it

    def __bool__(self) -> bool:
        return bool(self.forward or self.calls or self.unread)

    def template_args(self, args, params) -> object:
        """Template arguments with a function given for a type parameter replaced by its forwarder
        (`params`: the kernel's (kind, name, default) list, None: unknown)."""
        if not self.forward or args is None or params is None:
            return args
        by_callee = {f: t for t, f in self.forward.items()}
        kinds = {name: kind for kind, name, _ in params}

        def obj(kind, v):
            return by_callee.get(str(v).strip(), v) if kind == "type" else v
        if isinstance(args, dict):
            return {k: obj(kinds.get(k), v) for k, v in args.items()}
        return [obj(p[0], v) for p, v in zip(params, args)] + list(args[len(params):])

    def rewrite(self, it: Item) -> None:
        """The calls of function objects in one item's text, as the C functions above."""
        if not self or not any(t in it.text for t in (*self.forward, *self.calls, *self.unread)):
            return
        text = it.text
        names = "|".join(map(re.escape, (*self.forward, *self.calls, *self.unread)))
        temp = re.compile(rf"(?<![\w.>:])({names})\s*(?:\{{\s*\}}|\(\s*\))\s*\(")
        text = temp.sub(lambda m: self._temporary(m, it, text), text)
        decl = re.compile(rf"(?<![\w.>:])({names})\s*(?:const\s*)?&?\s*([A-Za-z_]\w*)\s*(?=[,;)=\[])")
        objects = {m.group(2): m.group(1) for m in decl.finditer(text)}
        for obj, t in objects.items():
            text = re.sub(rf"(?<![\w.>:])({re.escape(obj)})\s*\(", lambda m: self._object(m, t, it, text), text)
        it.text = text

    def _temporary(self, m, it: Item, text: str) -> str:
        t = m.group(1)
        if t in self.forward:
            return self.forward[t] + "("
        if t in self.calls and not self.calls[t]:
            return t + CALL + "("
        return self._not_yet(t, it, text, m, "a temporary of a function object with data members"
                             if t in self.calls else None)

    def _object(self, m, t: str, it: Item, text: str) -> str:
        if t in self.forward:
            return self.forward[t] + "("
        if t in self.calls:
            if not self.calls[t]:
                return t + CALL + "("
            rest = text[m.end():].lstrip()
            return f"{t}{CALL}({m.group(1)}" + ("" if rest.startswith(")") else ", ")
        return self._not_yet(t, it, text, m, None)

    def _not_yet(self, t: str, it: Item, text: str, m, what: str | None) -> str:
        """The call left as written, and why it is not lowered: the error of a kernel that reaches it (check)."""
        why = what or self.unread[t]
        self.blocked.append((it, f"the emulator does not run {why} ({it.file}:"
                                 f"{line_at(Item(text, it.file, it.line), m.start())}: a call of `{t}`)"))
        return m.group(0)

    def check(self, items: list[Item], used: set[str] | None) -> None:
        """A located "not yet" (NotImplementedError) where an item the kernel reaches (`used`; None: every
        item) calls a function object that is not lowered; another kernel's or helper's is dropped as before."""
        for it, why in self.blocked:
            if any(x is it for x in items) and (used is None or it.name in used):
                raise NotImplementedError(why)


def read(items: list[Item], device_words: set[str] = frozenset()) -> tuple[list[Item], Functors]:
    """The items with each function object's class read (module docstring), and what was read.
    `device_words`: the dialect's marks of a device function (CUDA's `__device__`; none in Metal, whose
    functions all run on the device): a class whose operator() has none is host code (a std::sort
    comparator), left as it was."""
    got, out = Functors(), []
    for it in items:
        m = _CLASS.match(it.text)
        if m is None or not _OPERATOR.search(it.text):
            out.append(it)
            continue
        try:
            new = _read_class(it, m, got, device_words)
        except _Unread as e:
            got.unread[m.group(1)] = f"{e} ({it.file}:{it.line})"
            out.append(it)
            continue
        out += new
    return out, got


class _Unread(Exception):
    """A class whose function object is not read (the message says what it has)."""


def _members(body: str) -> list[str]:
    """The members of a class body, each with its template header (access specifiers set aside)."""
    body, out, i, start = _ACCESS.sub(" ", body), [], 0, 0
    while i < len(body):
        c = body[i]
        if c == "{":
            i = balanced(body, i, "{", "}")
            if not re.match(r"\s*[;,=]", body[i:]) and not re.search(r"=\s*$", body[start:i - 1].split("{")[0]):
                out.append(body[start:i])  # a function's body ends the member (a brace initialiser does not)
                start = i
            continue
        if c == ";":
            out.append(body[start:i + 1])
            start = i + 1
        i += 1
    return [x.strip().lstrip(";").strip() for x in out if x.strip().strip(";").strip()]


def _read_class(it: Item, m, got: Functors, device_words) -> list[Item]:
    name, open_i = m.group(1), m.end() - 1
    close = balanced(it.text, open_i, "{", "}")
    if not re.fullmatch(r"\s*;\s*", it.text[close:]):
        raise _Unread(f"the function object `{name}` declared with an object")
    data, ops = [], []
    for mem in _members(it.text[open_i + 1: close - 1]):
        if _OPERATOR.search(mem.split("{")[0]):
            ops.append(mem)
        elif "(" in mem.split("=")[0] or mem.startswith(("template", "using", "typedef", "static", "friend")):
            raise _Unread(f"the function object `{name}` with members other than data and operator()")
        else:
            data.append(mem)
    if len(ops) != 1:
        raise _Unread(f"the function object `{name}` with {len(ops)} operator() overloads")
    op = ops[0]
    header, op = _template(op)
    head, body = op[:op.index("{")], op[op.index("{"):]
    if device_words and not device_words & set(re.findall(r"\w+", head)):
        raise _Unread(f"the host function object `{name}`")
    if header is not None and len(header) == 1 and header[0][2] and (f := _FORWARD.match(body)):
        pack, passed = header[0][1], f.group(2) or f.group(4) or f.group(6)
        p = re.fullmatch(rf"\s*{re.escape(pack)}\s*(?:&&)?\s*\.\.\.\s*(\w+)\s*", _params(head))
        if p is not None and p.group(1) == passed and (f.group(3) or f.group(5)) in (None, pack):
            got.forward[name] = f.group(1)
            return []
    if header is not None and any(kind != "type" or variadic for kind, _, variadic in header):
        raise _Unread(f"the function object `{name}` whose operator() is a template of non-type or variadic parameters")
    if any(re.search(r"=|\{", d) for d in data):
        raise _Unread(f"the function object `{name}` whose data members have initialisers")
    fields = [f for d in data for f in _field_names(d)]
    o, params = _OPERATOR.search(head), _params(head)
    pnames = {p.split()[-1].lstrip("*&") for p, _ in split_top_level(params) if p.strip() and p.split()}
    if pnames & set(fields):
        raise _Unread(f"the function object `{name}` whose operator() parameter hides a data member")
    ret = head[:o.start()].replace("constexpr", "").replace("inline", "")
    for _, t, _ in header or ():
        ret, params, body = (re.sub(rf"\b{t}\b", AUTO_TYPE, x) for x in (ret, params, body))
    body = re.sub(r"\bthis\s*->\s*", "", body)
    if "this" in re.findall(r"\w+", body):
        raise _Unread(f"the function object `{name}` whose operator() reads `this`")
    for f in fields:
        body = re.sub(rf"(?<![\w.>]){re.escape(f)}\b", f"self.{f}", body)
    self_p = [f"{name} self"] if fields else []
    all_p = ", ".join(self_p + ([params] if params.strip() and params.strip() != "void" else []))
    got.calls[name] = bool(fields)
    struct = Item(f"struct {name} {{ {' '.join(data) if data else 'char __kp_empty;'} }};", it.file, it.line)
    at = it.text.index(op.strip()[:20]) if op.strip()[:20] in it.text else 0
    fn = Item(f"{ret} {name}{CALL}({all_p}) {body}", it.file, line_at(it, at))
    return [struct, fn]


def _params(head: str) -> str:
    """The parameter list of `operator()(...)` in a member's head."""
    o = _OPERATOR.search(head)
    return head[o.end(): balanced(head, o.end() - 1) - 1]


def _template(member: str):
    """(the template parameters [(kind, name, variadic)] or None, the member without its header)."""
    t = _TEMPLATE.match(member)
    if t is None:
        return None, member
    end = balanced(member, t.end() - 1, "<", ">")
    params = []
    for part, _ in split_top_level(member[t.end(): end - 1], brackets="(<[{"):
        words = part.replace("...", " ... ").split()
        if words:
            params.append(("type" if words[0] in ("typename", "class") else "value", words[-1], "..." in words))
    return params, member[end:]


def _field_names(decl: str) -> list[str]:
    """The names a data member declaration declares (`float s, t = 1;` -> s, t)."""
    decl = decl.rstrip(";")
    out = []
    for part, _ in split_top_level(decl):
        m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$", part.strip())
        if m:
            out.append(m.group(1))
    return out
