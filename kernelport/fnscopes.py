"""Which function a call names, as C++ would choose it: warpflow's functions by qualified name.

Two functions of one name (`tile::lane` and `warp::lane`, a member `S::f` and a free `f`, the
overloads `f(int)` and `f(int, int)`) are two functions: a lane returned by one, a parameter's
facts or a warp-level verdict of one, are not the other's.  Each definition gets a *key*: its
qualified name (enclosing namespaces and classes, an out-of-class `A::f` included), with the
arity where overloads of that name differ in it, and the parameter types where they differ only
in those.  Definitions with one key (the same function in two `#if` branches) share it.

A call is resolved the common C++ way: a qualified call (`ns::f`, `::f`) names that function,
looked up from the caller's scope outwards; an unqualified one finds the innermost enclosing
scope (class, namespaces, global) that declares the name, with the namespaces that `using
namespace` directives nominate joining at the scope C++ says they do.  Overloads found there are
narrowed by the number of arguments (default arguments counted) and of template arguments the
call spells (`f<U, 4>(...)` cannot run a template that needs three), then by the argument types
where the caller knows them; what stays ambiguous resolves to every candidate (facts join, as
before).  Argument-dependent lookup is not modelled.
"""
from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable

from tree_sitter import Node

from .model import Function, Module
from .source import call_args
from . import lazy_re

_SCOPES = ("namespace_definition", "class_specifier", "struct_specifier", "union_specifier")
_TEMPLATE_ARGS = lazy_re.compile(r"<[^<>]*>")
_WORD = lazy_re.compile(r"[A-Za-z_]\w*")


def _plain(text: str) -> str:
    """`S<T, 4>` -> `S` (nested template arguments too), spaces gone."""
    while (stripped := _TEMPLATE_ARGS.sub("", text)) != text:
        text = stripped
    return re.sub(r"\s+", "", text)


def _type(text: str) -> str:
    """A scalar type's spelling for comparing a parameter with an argument: `unsigned int` is `unsigned`."""
    t = _plain(text)
    return {"unsignedint": "unsigned", "signedint": "int", "signed": "int"}.get(t, t)


LANE_MASK = "<lane mask>"  # arg_type of a ballot: any unsigned word a lane mask is held in takes it
_MASK_WORDS = frozenset({"unsigned", "uint32_t", "unsignedlong", "unsignedlonglong", "uint64_t", "size_t"})


# arg_type of a variable holding a ballot's lane mask in a type the caller does not spell plainly (SPH-EXA's
# `GpuConfig::ThreadMask`, a `std::conditional_t` of uint32_t and uint64_t by its warp size): the mask a wave-64
# target holds is 64 bits wide, so of `f(uint32_t)` and `f(uint64_t)` C++ calls the 64-bit one there; where the
# type is 32 bits the store into it is the hazard (WS008 at the store), not the 32-bit overload no 64-bit mask
# selects (heldout88: WS008/WS009 at warpscan.cuh's `countLeadingZeros(uint32_t)`, a port that widened it).
WIDE_MASK = "<64-bit lane mask>"
_WIDE_WORDS = frozenset({"uint64_t", "unsignedlong", "unsignedlonglong", "size_t", "unsignedlonglongint",
                         "unsignedlongint"})
_SCALARS = frozenset({"int", "unsigned", "uint32_t", "int32_t", "long", "unsignedlong", "longlong", "unsignedlonglong",
                      "uint64_t", "int64_t", "size_t", "short", "unsignedshort", "char", "unsignedchar", "bool",
                      "float", "double"})


def lane_mask_type(given: str | None) -> str | None:
    """`given` (arg_type's answer) for an argument that holds a ballot's lane mask: WIDE_MASK where the type
    is not a plain scalar (None, an alias, a class's member type, a helper's result), else `given` (a ballot
    itself: LANE_MASK, which any unsigned word takes)."""
    return WIDE_MASK if given is None or given not in _SCALARS and given != LANE_MASK else given


def _fits(param: str, given: str) -> bool:
    """Whether a parameter of type `param` takes an argument of type `given` without a conversion
    another overload would avoid: the same scalar type, or an unsigned word (a backend's lane mask
    type too: `unsigned long long` on HIP, `ulong` on Metal) for a ballot's lane mask."""
    if given == WIDE_MASK:
        from . import backends, dialect
        c = dialect.concept("lanemask_type")
        return _type(param) in _WIDE_WORDS | {_type(c.spelling(b.name) or "") for b in backends.all()
                                              if any(r.wave > 32 for r in b.runs)}
    if given != LANE_MASK:
        return _type(param) == given
    from . import backends, dialect
    c = dialect.concept("lanemask_type")
    return _type(param) in _MASK_WORDS | {_type(c.spelling(b) or "") for b in backends.names()}


@functools.lru_cache(maxsize=1 << 14)  # a pure function of the text: a name is spelled again at each of its calls
def _parts(text: str) -> tuple[str, ...]:
    """`ns::S<T>::template f<U>` -> ('ns', 'S', 'f')."""
    return tuple(p for p in _plain(re.sub(r"\btemplate\s+", "", text)).split("::") if p)


def enclosing(node: Node) -> tuple[str, ...]:
    """The named namespaces and classes around `node`, outermost first (an anonymous namespace
    adds nothing: its names are found from the scope around it)."""
    out: list[str] = []
    p = node.parent
    while p is not None:
        if p.type in _SCOPES:
            name = p.child_by_field_name("name")
            if name is not None:
                out[:0] = _parts(name.text.decode())
        p = p.parent
    return tuple(out)


def _arity(f: Function) -> tuple[int, int | None]:
    """(fewest, most) arguments a call may pass: default arguments lower the first, `...` lifts the second.
    Once per function and node: every call of an overloaded name narrows by it, on every sweep."""
    got = f.__dict__.get("_kp_arity")
    if got is None or got[0] is not f.node:
        got = f.__dict__["_kp_arity"] = (f.node, _arity_of(f))
    return got[1]


def parameter_list(f: Function) -> Node | None:
    """The `(...)` of `f`'s head (its function_declarator's parameters), None where the head has none."""
    plist = f.node.child_by_field_name("declarator")
    while plist is not None and plist.type != "function_declarator":
        plist = plist.child_by_field_name("declarator") if plist.type != "reference_declarator" else (
            plist.named_children[-1] if plist.named_children else None)
    return plist.child_by_field_name("parameters") if plist is not None else None


def _arity_of(f: Function) -> tuple[int, int | None]:
    params = parameter_list(f)
    return arity_of(params, [c for c in (params.named_children if params is not None else []) if c.type != "comment"])


def arity_of(params: Node | None, kids: list[Node]) -> tuple[int, int | None]:
    """(fewest, most) arguments for the parameters `kids` of the list `params` (all of them, or those one
    configuration of its preprocessor conditionals keeps: kernelport/conditional_lists.py)."""
    if len(kids) == 1 and kids[0].text.decode().strip() == "void":
        kids = []
    variadic = any(c.type == "variadic_parameter" or c.text.decode() == "..." for c in
                   (params.children if params is not None else []) if c.is_named is False or c in kids)
    fixed = [c for c in kids if c.type in ("parameter_declaration", "optional_parameter_declaration")]
    required = sum(1 for c in fixed if c.type == "parameter_declaration")
    return required, None if variadic else len(fixed)


def template_arity(f: Function) -> tuple[int, int | None]:
    """(fewest, most) template arguments a call may spell (`f<U, 4>(...)`): a template parameter with no
    default that no function parameter's type names cannot be deduced, so it and every one before it
    must be given; a pack lifts the most.  A word of a parameter's type counts as deducing it (a
    non-deduced context too): that lowers the fewest, so a call keeps more candidates, never fewer."""
    got = f.__dict__.get("_kp_targs")
    if got is None or got[0] is not f.node:
        got = f.__dict__["_kp_targs"] = (f.node, _template_arity_of(f))
    return got[1]


def _template_arity_of(f: Function) -> tuple[int, int | None]:
    plist = f.template_node.child_by_field_name("parameters") if f.template_node is not None else None
    kids = [c for c in (plist.named_children if plist is not None else []) if c.type != "comment"]
    words = set(_WORD.findall(" ".join(p.node.text.decode() for p in f.params)))
    fewest = 0
    for i, (tp, name) in enumerate(zip(kids, f.template_params)):
        if not tp.type.startswith(("optional_", "variadic_")) and name not in words:
            fewest = i + 1
    variadic = any(c.type.startswith("variadic_") for c in kids)
    return fewest, None if variadic else len(kids)


def explicit_template_args(fn: Node | None) -> int | None:
    """How many template arguments a call's function expression spells (`ns::f<U, 4>`: 2); None for none."""
    while fn is not None and fn.type == "qualified_identifier":
        fn = fn.child_by_field_name("name")
    if fn is None or fn.type != "template_function":
        return None
    targs = fn.child_by_field_name("arguments")
    return len([c for c in (targs.named_children if targs is not None else []) if c.type != "comment"])


def specialization(f: Function) -> bool:
    """`template <> T f<uint2>(...)`: an explicit specialization, called as its primary template is (with
    the primary's default arguments and template arguments)."""
    plist = f.template_node.child_by_field_name("parameters") if f.template_node is not None else None
    return plist is not None and not [c for c in plist.named_children if c.type != "comment"]


def may_call(f: Function, call: Node) -> bool:
    """Whether the call expression `call` may run the overload `f`, by what the call spells: its number
    of arguments (default arguments, `...`) and of template arguments (template_arity)."""
    n, (lo, hi) = len(call_args(call)), _arity(f)
    if specialization(f):  # (the defaults and template parameters are the primary's)
        return hi is None or n <= hi
    return lo <= n and (hi is None or n <= hi) and takes_template_args(f, call.child_by_field_name("function"))


def takes_template_args(f: Function, fn: Node | None) -> bool:
    given = explicit_template_args(fn)
    if specialization(f):
        return True
    lo, hi = template_arity(f)
    return (given or 0) >= lo and (given is None or hi is None or given <= hi)


def _signature(f: Function) -> tuple[str, ...]:
    return tuple(_plain(p.type) + ("*" if p.pointer else "") for p in f.params)


class Scopes:
    """The keys of a module's functions and the resolution of its calls."""

    def __init__(self, module: Module):
        self.m = module
        self._scope: dict[int, tuple[str, ...]] = {}  # id(function) -> the scope its body is in
        self._key: dict[int, str] = {}
        self.by_qual: dict[tuple[str, ...], list[Function]] = {}
        self.by_key: dict[str, list[Function]] = {}  # key -> its definitions (`#if` branches share one)
        for f in module.functions.values():
            parts = _parts(f.name) or (f.name,)
            scope = enclosing(f.node) + parts[:-1]
            self._scope[id(f)] = scope
            self.by_qual.setdefault(scope + parts[-1:], []).append(f)
        for qual, fs in self.by_qual.items():
            if len(fs) == 1:  # one definition (most names): its key is its name, nothing to tell apart
                self._key[id(fs[0])] = key = "::".join(qual)
                self.by_key.setdefault(key, []).append(fs[0])
                continue
            arities = {_arity(f) for f in fs}
            for f in fs:
                key = "::".join(qual)
                if len(arities) > 1:
                    fewest, most = _arity(f)
                    key += f"/{fewest}" + ("" if most == fewest else f"-{'' if most is None else most}")
                if len({_signature(g) for g in fs if len(g.params) == len(f.params)}) > 1:
                    key += "(" + ",".join(_signature(f)) + ")"
                self._key[id(f)] = key
                self.by_key.setdefault(key, []).append(f)
        self._usings = [(enclosing(u), _parts(u.named_children[-1].text.decode()), u)
                        for u in module.source.index.of_types("using_declaration")
                        if u.named_children and any(c.type == "namespace" for c in u.children)]
        self._using_starts = sorted(u.start_byte for _, _, u in self._usings)  # which are in force at a byte
        self._in_force: dict[tuple[int, int, int], list[tuple[str, ...]]] = {}  # _nominated's answers
        self._namespaces = {q[:i] for q in self.by_qual for i in range(1, len(q))}
        self._aliases = {a.child_by_field_name("name").text.decode(): _parts(a.named_children[-1].text.decode())
                         for a in module.source.index.of_types("namespace_alias_definition")
                         if a.child_by_field_name("name") is not None and a.named_children}
        self._found: dict[tuple[int, int], list[Function]] = {}  # (caller, callee node) -> what lookup finds
        # Each call's name and candidates, once per module: warpflow's call scan, warpwidth's groups,
        # the project's warp helpers and lint's rules ask about the same call nodes, on every sweep.
        self._names: dict[int, tuple[tuple[str, ...], bool] | None] = {}  # callee node -> _called
        self._candidates: dict[tuple[int, int], tuple[str, ...]] = {}  # (caller, callee node) -> candidates

    def _called(self, fn: Node | None) -> tuple[tuple[str, ...], bool] | None:
        """The name a call's function expression spells, as parts (a namespace alias replaced), and
        whether it is written from the global scope (`::f`); None for no name (`obj.f`, `(*p)`)."""
        if fn is None or fn.type not in ("identifier", "qualified_identifier", "template_function"):
            return None
        got = self._names.get(fn.id, False)
        if got is False:
            got = self._names[fn.id] = self._spelled(fn)
        return got

    def _spelled(self, fn: Node) -> tuple[tuple[str, ...], bool] | None:
        text = fn.text.decode()
        parts = _parts(text)
        if not parts:
            return None
        if parts[0] in self._aliases:  # `namespace u = util; u::lane()`
            parts = self._aliases[parts[0]] + parts[1:]
        return parts, text.lstrip().startswith("::")

    def key(self, f: Function | None) -> str:
        """The function's key ('' for file scope)."""
        return "" if f is None else self._key.get(id(f), f.name)

    def function(self, key: str | None) -> Function | None:
        """The (first) definition of a key: a table's key back to its function."""
        return self.by_key.get(key or "", [None])[0]

    def scope(self, f: Function | None) -> tuple[str, ...]:
        return () if f is None else self._scope.get(id(f), ())

    def qualified(self, f: Function) -> str:
        """`ns::S::f`: the function's qualified name (its key without the overload's arity or types)."""
        parts = _parts(f.name) or (f.name,)
        return "::".join(self.scope(f) + parts[-1:])

    def candidates(self, caller: Function | None, fn: Node | None) -> tuple[str, ...]:
        """The qualified names a call may name outside this file (a header's function), in lookup
        order: from the caller's scope outwards, then through the `using namespace` in force."""
        key = (id(caller), fn.id if fn is not None else -1)
        got = self._candidates.get(key)
        if got is None:
            got = self._candidates[key] = self._candidates_of(caller, fn)
        return got

    def _candidates_of(self, caller: Function | None, fn: Node | None) -> tuple[str, ...]:
        called = self._called(fn)
        if called is None:
            return ()
        parts, absolute = called
        if absolute:
            return ("::".join(parts),)
        scope = self.scope(caller)
        out = ["::".join(scope[:d] + parts) for d in range(len(scope), -1, -1)]
        out += ["::".join(n + parts) for d in range(len(scope), -1, -1) for n in self._nominated(caller, fn, d)]
        return tuple(out)

    # -- calls -----------------------------------------------------------------------------------
    def resolve(self, caller: Function | None, fn: Node | None, args: list[Node],
                arg_type: Callable[[Node], str | None] | None = None) -> list[Function]:
        """The definitions of this file that the call `fn(args)` made in `caller` may run."""
        key = (id(caller), fn.id if fn is not None else -1)
        if key not in self._found:  # warpflow asks on every sweep: the lookup is the same each time
            called = self._called(fn)
            self._found[key] = [] if called is None else self._lookup(caller, *called, fn)  # type: ignore[misc]
        return self._narrow(self._found[key], args, arg_type, fn)

    def _lookup(self, caller: Function | None, parts: tuple[str, ...], absolute: bool, at: Node) -> list[Function]:
        scope = () if absolute else self.scope(caller)
        for depth in range(len(scope), -1, -1):  # innermost scope first; the first that declares it wins
            found = list(self.by_qual.get(scope[:depth] + parts, ()))
            if not absolute:
                for nominated in self._nominated(caller, at, depth):
                    found += self.by_qual.get(nominated + parts, ())
            if found:
                return found
        return []

    def _nominated(self, caller: Function | None, at: Node, depth: int) -> list[tuple[str, ...]]:
        """Namespaces that `using namespace` directives in force at `at` bring in at the scope of
        `depth` (C++: the nearest namespace enclosing both the directive and the nominated one).
        The directives in force are those that start at or before `at`: the answer is the same for
        every call of one caller that follows the same ones, so it is worked out once per caller,
        depth and count of them (each call worked it out again, for its candidates and for its look-up)."""
        if not self._using_starts:
            return []
        key = (id(caller), depth, bisect.bisect_right(self._using_starts, at.start_byte))
        got = self._in_force.get(key)
        if got is None:
            got = self._in_force[key] = self._nominated_at(caller, at.start_byte, depth)
        return got

    def _nominated_at(self, caller: Function | None, at: int, depth: int) -> list[tuple[str, ...]]:
        scope = self.scope(caller)
        out = []
        for where, named, node in self._usings:
            inside_caller = caller is not None and caller.node.start_byte <= node.start_byte < caller.node.end_byte
            if node.start_byte > at or not (inside_caller or scope[:len(where)] == where):
                continue
            full = next((where[:i] + named for i in range(len(where), -1, -1) if where[:i] + named in
                         self._namespaces), named)
            common = 0
            while common < min(len(where), len(full) - 1) and where[common] == full[common]:
                common += 1
            if common == depth:
                out.append(full)
        return out

    @staticmethod
    def _narrow(found: list[Function], args: list[Node], arg_type, fn: Node | None = None) -> list[Function]:
        if len(found) < 2:
            return found
        fits = [f for f in found if (a := _arity(f))[0] <= len(args) and (a[1] is None or len(args) <= a[1])
                and takes_template_args(f, fn)]
        found = fits or found
        if len(found) > 1 and arg_type is not None:
            given = [arg_type(a) for a in args]

            def deduced(f: Function, i: int) -> bool:  # a parameter of a template's own type takes any argument
                return _type(f.params[i].type) in f.template_params

            typed = [f for f in found if len(f.params) != _arity(f)[1] or  # an unnamed parameter: not compared
                     all(t is None or i >= len(f.params) or f.params[i].pointer or _fits(f.params[i].type, t) or
                         deduced(f, i) for i, t in enumerate(given))]
            # C++ prefers the overload whose parameters are the arguments' types to a template deduced for them
            exact = [f for f in typed if not any(t is not None and i < len(f.params) and not f.params[i].pointer and
                                                 deduced(f, i) for i, t in enumerate(given))]
            found = exact or typed or found
        return found


def of(module: Module) -> Scopes:
    """The module's one Scopes: warpflow, lint's passes and their tables key functions through it."""
    if module.scopes is None:
        module.scopes = Scopes(module)
    return module.scopes  # type: ignore[return-value]


def owner(module: Module, node: Node) -> str | None:
    """The key of the outermost definition holding `node` (the model's owner of a use), None at file
    scope: what a table by function (warpwidth's groups) is asked with."""
    f = module.function_at(node)
    while f is not None and f.node.parent is not None:
        g = module.function_at(f.node.parent)
        # only a definition that strictly encloses f: a parent node with f's own span (a definition
        # the grammar wraps, a body macro read as a nested function) gave f back, for ever
        if g is None or (g.node.start_byte, g.node.end_byte) == (f.node.start_byte, f.node.end_byte):
            break
        f = g
    return of(module).key(f) if f is not None else None


def callees(module: Module, caller: Function | None, call: Node) -> list[Function]:
    """The definitions of this file that the call expression `call` made in `caller` may run."""
    return of(module).resolve(caller, call.child_by_field_name("function"), call_args(call))


def launched(module: Module, launch) -> list[Function]:
    """The kernel definitions of this file a Launch runs (its kernel expression resolved from the
    launching function, whatever the launch's form: `k<<<>>>`, a runtime call, a launch macro)."""
    sc = of(module)
    caller = module.function_at(launch.node)
    if launch.target is None:  # a launch macro's kernel, named in the macro's text (launchforms.Fixed)
        found = sc._lookup(caller, _parts(launch.kernel), False, launch.node) if launch.kernel else []
    else:
        found = sc.resolve(caller, launch.target, launch.args)
        if not found and caller is not None and launch.target.type == "identifier":
            alias = _local_alias(module, caller, launch.target)
            found = sc.resolve(caller, alias, launch.args) if alias is not None else []
    kernels = [f for f in found if f.is_kernel]  # a launch runs a kernel: not the host launcher of its name
    return kernels or found


def _local_alias(module: Module, caller: Function, target: Node) -> Node | None:
    """The kernel expression a local of `caller` holds where the launch names the local
    (`auto kernel = ns::k<T>; kernel<<<g, b>>>(...)`): its one initializer before the launch."""
    name, got = target.text.decode(), []
    for d in module.source.index.under(caller.node, "init_declarator"):
        n, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if n is not None and n.type == "identifier" and n.text.decode() == name and v is not None \
                and d.start_byte < target.start_byte:
            got.append(v)
    return got[0] if len(got) == 1 and got[0].type in ("identifier", "qualified_identifier", "template_function") \
        else None


def callee_name(fn: Node | None) -> str | None:
    """The called function's name: `f`, `ns::f`, `f<T>`, `ns::f<T>` all call f."""
    while fn is not None and fn.type in ("qualified_identifier", "template_function"):
        fn = fn.child_by_field_name("name")
    return fn.text.decode() if fn is not None and fn.type == "identifier" else None


_LITERAL_TYPES = ((lazy_re.compile(r"^[0-9.]+([eE][-+]?\d+)?[fF]$|^0[xX][0-9a-fA-F.]+[pP][-+]?\d+[fF]$"), "float"),
                  (lazy_re.compile(r"^(\d+\.\d*|\.\d+|\d+[eE])"), "double"),
                  (lazy_re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)[uU]$"), "unsigned"),
                  (lazy_re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)$"), "int"))


def arg_type(an, a: Node) -> str | None:
    """An argument's type where the caller says it plainly (a literal; a local or parameter that is
    not a pointer), else None: enough to choose between `f(int)` and `f(float)`."""
    text = a.text.decode().replace("'", "")
    if a.type == "number_literal":
        return next((t for rx, t in _LITERAL_TYPES if rx.search(text)), None)
    if a.type == "parenthesized_expression" and a.named_children:
        return arg_type(an, a.named_children[0])
    cast = _cast_type(a)  # `(uint32_t)ballot`, `static_cast<uint32_t>(m)`, `uint32_t(m)`: the type it names
    if cast is not None:
        return cast
    if a.type == "binary_expression":  # `m & 0xffffu`: the operands' common type, as C++ converts them
        return _common_type(an, a)
    if a.type == "call_expression":  # a ballot: a lane mask (CUDA's 32 bits, a port's wave of 64)
        from . import backends, dialect
        found = dialect.spelled_by(backends.source().name, callee_name(a.child_by_field_name("function")) or "")
        if found is not None:
            return LANE_MASK if found[0].key in ("ballot", "activemask") else None
        return _returned(an, a)
    if a.type != "identifier" or an.fn is None or (an.cur, text) in an.memory:
        return None
    p = an.fn.param(text)
    if p is not None:
        return None if p.pointer else _type(p.type)
    t = an.decl_types.get((an.cur, text))
    return _resolved(_type(t.text.decode()), getattr(an, "aliases", None) or {}) if t is not None else None


_RANKS = {"int": 1, "int32_t": 1, "unsigned": 2, "uint32_t": 2, "long": 3, "int64_t": 3, "longlong": 3,
          "unsignedlong": 4, "uint64_t": 4, "size_t": 4, "unsignedlonglong": 4}
_ARITH = frozenset({"&", "|", "^", "+", "-", "*", "/", "%"})


def _common_type(an, e: Node) -> str | None:
    """The type of an integer operation of two plainly typed operands (the usual arithmetic conversions over
    int, unsigned and their 64-bit kin; a shift has its left operand's), None otherwise.  A ballot beside an
    int or unsigned word is a lane mask (CUDA's `unsigned`): `f(m & 0xffffu)` of an `unsigned m` calls
    `f(uint32_t)` as `f(m)` does, so the port widens that overload with the mask (h/hip63 read the expression
    as a 64-bit mask of unknown type: the port's `unsigned long long` argument was ambiguous between
    `f(uint32_t)` and `f(uint64_t)`)."""
    op = e.child_by_field_name("operator")
    left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
    if op is None or left is None or right is None:
        return None
    op = op.text.decode()
    lt = arg_type(an, left)
    if op in ("<<", ">>"):
        return lt if lt in _RANKS or lt == LANE_MASK else None
    if op not in _ARITH:
        return None
    rt = arg_type(an, right)
    if LANE_MASK in (lt, rt):
        other = rt if lt == LANE_MASK else lt
        return LANE_MASK if other in ("int", "int32_t", "unsigned", "uint32_t", LANE_MASK) else None
    if lt not in _RANKS or rt not in _RANKS:
        return None
    return lt if _RANKS[lt] >= _RANKS[rt] else rt


def _returned(an, call: Node) -> str | None:
    """The plain scalar type the file's functions a call resolves to return (`reverseBits(m)` of the
    `uint32_t` overload: `uint32_t`), None where they differ, are templates' or none is the file's."""
    scopes, fn = getattr(an, "scopes", None), call.child_by_field_name("function")
    if scopes is None or getattr(an, "fn", None) is None or fn is None:
        return None
    types = set()
    for f in scopes.resolve(an.fn, fn, call_args(call), lambda x: arg_type(an, x)):
        rt = f.node.child_by_field_name("type")
        types.add(_resolved(_type(rt.text.decode()), getattr(an, "aliases", None) or {}) if rt is not None else None)
    return types.pop() if len(types) == 1 and types <= _SCALARS else None


def _resolved(t: str, aliases: dict[str, str]) -> str:
    """A declared type through the file's typedefs and `using`s to a plain scalar (`mask_t`, `Cfg::Mask`
    of `uint32_t`: C++ calls the `uint32_t` overload), else as spelled (at most 8 deep)."""
    for _ in range(8):
        if t in _SCALARS or t not in aliases:
            break
        t = _type(aliases[t].removeprefix("std::"))
    return t


def _cast_type(a: Node) -> str | None:
    """The scalar type an explicit conversion to a plain scalar names (C++ calls the overload of that type,
    whatever it converts: a ballot cut to `(uint32_t)` selects `f(uint32_t)`), else None."""
    t = None
    if a.type == "cast_expression":
        t = a.child_by_field_name("type")
    elif a.type == "call_expression":
        f = a.child_by_field_name("function")
        name = f.child_by_field_name("name") if f is not None and f.type == "template_function" else None
        if name is not None and name.text == b"static_cast":
            t = next((c for c in f.child_by_field_name("arguments").named_children if c.type == "type_descriptor"), None)
        elif f is not None and f.type in ("identifier", "primitive_type"):  # `uint32_t(m)`
            t = f
    spelled = _type(t.text.decode()) if t is not None else None
    return spelled if spelled in _SCALARS else None


def callers_closure(direct: dict[str, bool], calls: dict[str, set[str]]) -> set[str]:
    """The functions for which `direct` holds, and every function that calls one (transitively)."""
    level = {k for k, v in direct.items() if v}
    changed = True
    while changed:
        changed = False
        for f, cs in calls.items():
            if f not in level and cs & level:
                level.add(f)
                changed = True
    return level
