"""Pointers in a device function that point into `__shared__` memory by what every caller passes.

heldout60's gpu-samplesort scan.h holds `brent_kung_inclusive(T *data)`: `T *a = data;` then
`for (; d > 2; d /= 2) { if (id < d / 2) a[d + id] = a[2 * id] + a[2 * id + 1]; a += d; }` with no
barrier, a warp-synchronous tail (SY002).  Its two callers (create_bst.h, quicksort.h, in other files of
the run) pass `buffer`, a pointer set to `(unsigned int *) shared` of a `__shared__` array.  Read alone
the function's `a` is any pointer, so SY002 (which follows `__shared__` and `volatile` names) was silent.

A pointer parameter is taken to point into shared memory when the run shows at least one call of its
function and every such call passes a shared pointer (_points_shared): a `__shared__` array (the nearest
declaration of the name, or a file-scope one), `&s[i]`, `s + k` / `s - k`, a cast of one of these; a
pointer variable (a local, or a `__shared__` pointer) whose initialiser, if any, and every `=` to it in the
calling function are such pointers (`p += k` and `p++` keep it in the array; `&p` gives up); or a pointer
parameter of the caller that is itself such a parameter (followed through its own callers).  Calls are
found as sharedrefs.py finds them (the function's own file and the run's files that include it).  One call
passing a global pointer keeps the file-alone reading, and so does a function no call reaches.

Inside such a function the locals derived the same way (`T *a = data;`, moved only by `a += d`) point
into shared memory too.  Names are a function's own: a name's other declarations are not tracked (as
SY002's own shared set), so a local array or pointer of the same name inside the function is refused.
"""
from __future__ import annotations

from tree_sitter import Node

from ..model import inner_declarator
from ..source import call_args
from .sharedrefs import _is_shared, _strip, every_call, nearest

_CASTS = ("reinterpret_cast", "static_cast")


class Pointers:
    """A module's device functions' pointers that may point into `__shared__` memory, found from each function
    alone (`candidates`: its pointer parameters stored at one slot and read at another, and the locals copied
    from them), and on demand (`confirmed`) those every call of the run points there: the callers, in the
    run's other files too, are read only for a step SY002 would report."""

    def __init__(self, m):
        self.m = m
        vis = m.visible
        self.ew = vis.elsewhere if vis is not None else None
        self.memo: dict = {}
        self.spans = []  # (body start, body end, function, candidate names)
        self.known: dict[int, frozenset[str]] = {}  # function body start -> confirmed names
        self.own: dict[int, frozenset[str]] = {}  # function body start -> locals set from its own shared arrays
        for f in m.functions.values():
            if f.body is None or not f.is_device:
                continue
            stepped = _stepped(m, f)
            if not stepped:
                continue
            seeds = set() if f.is_kernel else \
                {p.name for p in f.params if p.pointer and stepped & _derived(m, f, {p.name})}
            own = _local_shared(m, f, stepped, self.ew, self.memo)
            if seeds or own:
                self.spans.append((f.body.start_byte, f.body.end_byte, f, frozenset(_derived(m, f, seeds | own))))
                if own:
                    self.own[f.body.start_byte] = frozenset(_derived(m, f, set(own)))

    def candidates(self, node) -> frozenset[str]:
        """The candidate names of the device function whose body holds node (empty: none)."""
        span = self._span(node)
        return span[3] if span is not None else frozenset()

    def confirmed(self, node) -> frozenset[str]:
        """The names of node's function that every call the run shows points into `__shared__` memory."""
        span = self._span(node)
        if span is None:
            return frozenset()
        start, _, f, cands = span
        if start not in self.known:
            seeds = {p.name for i, p in enumerate(f.params) if p.pointer and p.name in cands and
                     _param_bound(self.m, f, i, self.ew, self.memo)}
            self.known[start] = (frozenset(_derived(self.m, f, seeds)) if seeds else frozenset()) | \
                self.own.get(start, frozenset())
        return self.known[start]

    def _span(self, node):
        return next((sp for sp in self.spans if sp[0] <= node.start_byte < sp[1]), None)


def _local_shared(m, f, stepped: set[str], ew, memo: dict) -> set[str]:
    """f's local pointers among `stepped` that point into a `__shared__` array of f or of the file by their own
    declaration (HinesGPU's kernel: `extern __shared__ ftype freemem[]; ftype *currentList = freemem;`): the
    initialiser and every store are such pointers (_points_shared, as a caller's argument is read)."""
    out = set()
    for s in m.source.index.under(f.body, "declaration"):
        for d in s.children_by_field_name("declarator"):
            top = d.child_by_field_name("declarator") if d.type == "init_declarator" else None
            if top is None or top.type != "pointer_declarator":
                continue
            x = top
            while x is not None and x.type != "identifier":
                x = inner_declarator(x)
            if x is not None and x.text.decode() in stepped and _points_shared(m, f, x, ew, memo):
                out.add(x.text.decode())
    return out


def _stepped(m, f) -> set[str]:
    """The names f's body stores an element of (`p[i] = ...`, any assignment operator) and reads an element of
    at an index other than one it stores (a superset of SY002's steps, which pair the two in one statement)."""
    written: dict[str, set[bytes]] = {}
    read: dict[str, set[bytes]] = {}
    for sub in m.source.index.under(f.body, "subscript_expression"):
        base, idx = sub.child_by_field_name("argument"), sub.child_by_field_name("indices")
        if base is None or base.type != "identifier" or idx is None:
            continue
        p = sub.parent
        store = p is not None and p.type == "assignment_expression" and p.child_by_field_name("left") == sub
        (written if store else read).setdefault(base.text.decode(), set()).add(idx.text)
    return {name for name, ws in written.items() if name in read and len(read[name] | ws) > 1}


def _param_bound(m, f, i: int, ew, memo: dict) -> bool:
    """Whether every call of f the run shows (one at least) passes a shared pointer as its i-th argument."""
    return every_call(m, f, i, ew, memo, "pointer", lambda om, caller, arg: _points_shared(om, caller, arg, ew, memo))


def _unwrap(n: Node) -> Node:
    """n without parentheses, C casts, `reinterpret_cast`/`static_cast` and integer offsets (`p + k`)."""
    while True:
        n = _strip(n)
        if n.type == "cast_expression":
            n = n.child_by_field_name("value")
        elif n.type == "call_expression" and _cast_name(n) in _CASTS and len(call_args(n)) == 1:
            n = call_args(n)[0]
        elif n.type == "binary_expression" and n.child_by_field_name("operator").type in ("+", "-"):
            n = n.child_by_field_name("left")
        else:
            return n


def _cast_name(call: Node) -> str | None:
    fn = call.child_by_field_name("function")
    name = fn.child_by_field_name("name") if fn is not None and fn.type == "template_function" else None
    return name.text.decode() if name is not None else None


def _points_shared(m, caller, arg: Node, ew, memo: dict) -> bool:
    """Whether the pointer expression `arg` in `caller` (module m) points into a `__shared__` array."""
    a = _unwrap(arg)
    if a.type == "pointer_expression" and a.child_by_field_name("operator").type == "&":
        base = _strip(a.child_by_field_name("argument"))
        while base.type == "subscript_expression":
            base = _strip(base.child_by_field_name("argument"))
        return base.type == "identifier" and _shared_array(m, caller, base)
    if a.type != "identifier":
        return False
    name = a.text.decode()
    decl = nearest(caller, a)
    if decl is not None:
        s, d = decl
        if d.type == "array_declarator":
            return _is_shared(s)
        if d.type != "pointer_declarator":
            return False
        init = d.parent.child_by_field_name("value") if d.parent.type == "init_declarator" else None
        key = ("var", m.source.path, d.start_byte)
        if key not in memo:
            memo[key] = False  # (`p = p2; p2 = p;` proves nothing)
            memo[key] = (init is not None or _is_shared(s)) and \
                (init is None or _points_shared(m, caller, init, ew, memo)) and \
                _assigned_shared(m, caller, name, lambda v: _points_shared(m, caller, v, ew, memo))
        return memo[key]
    for i, p in enumerate(caller.params):
        if p.name == name:
            return p.pointer and _param_bound(m, caller, i, ew, memo)
    return _shared_array(m, caller, a)


def _shared_array(m, caller, ident: Node) -> bool:
    """A `__shared__` array named by `ident`: declared in `caller` before it, or at file scope."""
    decl = nearest(caller, ident)
    if decl is not None:
        return _is_shared(decl[0]) and decl[1].type == "array_declarator"
    name = ident.text.decode()
    return not any(p.name == name for p in caller.params) and \
        any(s.name == name and s.function is None and (bool(s.dims) or s.dynamic) for s in m.shared)


def _assigned_shared(m, f, name: str, ok) -> bool:
    """Whether every store to the pointer `name` in f keeps it in shared memory: each `name = v` has ok(v);
    `name += k`, `name -= k`, `++`/`--` move it within the array; its address taken (`&name`) refutes."""
    ix = m.source.index
    for a in ix.under(f.body, "assignment_expression"):
        left = _strip(a.child_by_field_name("left"))
        if left.type == "identifier" and left.text == name.encode():
            op = a.child_by_field_name("operator").type
            if op == "=" and not ok(a.child_by_field_name("right")):
                return False
            if op not in ("=", "+=", "-="):
                return False
    for p in ix.under(f.body, "pointer_expression"):
        arg = _strip(p.child_by_field_name("argument"))
        if p.child_by_field_name("operator").type == "&" and arg.type == "identifier" and arg.text == name.encode():
            return False
    return True


def _derived(m, f, seeds: set[str]) -> set[str]:
    """seeds with f's local pointers initialised from them (`T *a = data;`, `T *b = a + n;`) whose every
    store keeps them so, to a fixpoint; a local array or non-pointer declaration of a seed's name drops it."""
    ix = m.source.index
    locals_: list[tuple[str, Node | None, str]] = []
    for s in ix.under(f.body, "declaration"):
        for d in s.children_by_field_name("declarator"):
            top = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            x = top
            while x is not None and x.type != "identifier":
                x = inner_declarator(x)
            if x is not None:
                locals_.append((x.text.decode(), d.child_by_field_name("value") if d.type == "init_declarator"
                                else None, top.type))
    names = set(seeds) - {n for n, _, kind in locals_ if kind != "pointer_declarator"}

    def from_names(v: Node | None) -> bool:
        u = _unwrap(v) if v is not None else None
        return u is not None and u.type == "identifier" and u.text.decode() in names

    grew = True
    while grew:
        grew = False
        for name, init, kind in locals_:
            if name not in names and kind == "pointer_declarator" and from_names(init) and \
                    sum(n == name for n, _, _ in locals_) == 1 and _assigned_shared(m, f, name, from_names):
                names.add(name)
                grew = True
    return {n for n in names if _assigned_shared(m, f, n, from_names)}
