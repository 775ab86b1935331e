"""Whether a helper may write memory outside the thread: through any pointer, a reference, a file-scope
variable, or a helper it calls that does (copy_observers.py asks it before copying a `const T&` argument).

A device or threadgroup argument copied into the thread reads its old value after such a write, where
CUDA's reference reads the new one, and the write can reach the argument by any alias, not only a
pointer parameter: a local copy of one (`float *q = out; q[0] += x;`), a pointer in a by-value struct
(`p.o[0] += x`), an object's pointer member (`o[0] += x` in `W::acc`), a file-scope `__device__` array,
or a callee (`inner(q)`).  Counted as thread-only: assigning a local or by-value parameter itself
(`q = out + 1`), a field of one reached by `.` only, an element of a local array, and (in a member
function) a member of its own object reached without a pointer (an element of a member array too) (that object is a thread one; a device
object's non-const member is counted by the caller).  Anything else is a write that may alias.
"""
from __future__ import annotations

from collections.abc import Mapping

from tree_sitter import Node

from ...model import Function, file_scope_items
from ...source import SourceFile, walk
from .member_callees import candidates

_DECLARATORS = ("init_declarator", "parenthesized_declarator")


def writes_memory(src: SourceFile, h: Function, functions: Mapping[str, Function],
                  thread_params: frozenset[str] = frozenset(), seen: set | None = None) -> bool:
    """Whether h's body (or a helper of `functions` it calls, followed by name) may write memory that is
    not its own thread's; `thread_params`: h's pointer or reference parameters the call gives the
    address of a thread local (`acc(s, x[0])` of `acc(float &t, const float &v)`).  Memoised per file and
    `functions`: a True at once, a False only where no helper further up was cut off (`seen` empty)."""
    memo = _memo(src, functions)
    key = (h.node.start_byte, h.name, thread_params)  # (a helper called twice, once with a thread local: the
    got = memo.get(key)  # other call counts; two classes' members of one name: two)
    if got is not None:
        return got
    top = seen is None
    seen = set() if seen is None else seen
    if key in seen or h.body is None:
        return False
    seen.add(key)
    wrote = _writes(src, h, functions, thread_params, seen)
    if wrote or top:
        memo[key] = wrote
    return wrote


def _memo(src: SourceFile, functions: Mapping[str, Function]) -> dict:
    """writes_memory's answers for this file and this table of helpers."""
    tables = src.__dict__.setdefault("_kp_writes_memory", {})
    got = tables.get(id(functions))
    if got is None or got[0] is not functions or got[1] != len(functions):  # (kept alive: no id reused; a
        got = tables[id(functions)] = (functions, len(functions), {})  # helper left out since: asked again)
    return got[2]


def _writes(src: SourceFile, h: Function, functions: Mapping[str, Function], thread_params: frozenset[str],
            seen: set) -> bool:
    names = _thread_names(src, h)
    globals_ = _file_scope_variables(src)
    for n in walk(h.body):
        if n.type in ("assignment_expression", "update_expression"):
            target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
            if target is not None and not _thread_lvalue(src, target, names, thread_params, globals_):
                return True
        elif n.type == "call_expression":
            short = callee_name(src, n)
            if short and any(g is not h and writes_memory(src, g, functions, thread_arguments(src, g, n, h, thread_params),
                                                          seen) for g in candidates(src, n, short, functions.values())):
                return True  # (every function the call may run: by the object's class, else by name: member_callees.py)
    return False


def thread_arguments(src: SourceFile, g: Function, call: Node, caller: Function | None,
                     caller_thread: frozenset[str] = frozenset()) -> frozenset[str]:
    """g's pointer and reference parameters that `call` (in caller) gives a thread local's address: a
    local value (`s`) to a reference, `&s` or a local array to a pointer."""
    if caller is None or caller.body is None:
        return frozenset()
    names = _thread_names(src, caller)
    args = call.child_by_field_name("arguments")
    out = set()
    for q, a in zip(g.params, args.named_children if args is not None else ()):
        d = q.node.child_by_field_name("declarator")
        while a.type == "parenthesized_expression" and a.named_children:
            a = a.named_children[0]
        if d is not None and d.type == "reference_declarator":
            ok = a.type == "identifier" and _plain(src.text_of(a), names, caller_thread)
        elif q.pointer:
            x = a.child_by_field_name("argument") if a.type == "pointer_expression" and \
                src.text_of(a.child_by_field_name("operator")) == "&" else None
            ok = (x is not None and x.type == "identifier" and _plain(src.text_of(x), names, caller_thread)) or \
                (a.type == "identifier" and src.text_of(a) in names.arrays)
        else:
            ok = False
        if ok:
            out.add(q.name)
    return frozenset(out)


def _plain(name: str, names: "_Names", caller_thread: frozenset[str]) -> bool:
    """A caller's local value (not a pointer, a reference or an array): its storage is the thread's."""
    if name in names.refs:
        return name in caller_thread
    return name in names.values and name not in names.pointers and name not in names.arrays


def _thread_lvalue(src: SourceFile, n: Node, names: "_Names", thread_params: frozenset[str],
                   globals_: set[str]) -> bool:
    """Whether writing the lvalue n writes the thread's own storage."""
    indexed = False
    while True:
        if n.type == "parenthesized_expression" and n.named_children:
            n = n.named_children[0]
        elif n.type == "field_expression":
            if src.text_of(n.child_by_field_name("operator") or n) == "->":
                a = n.child_by_field_name("argument")
                if a is not None and a.type == "identifier" and src.text_of(a) in thread_params and not indexed:
                    return True  # `p->x` of a pointer given a thread local's address
                return a is not None and a.type == "this" and not indexed  # this->member: the thread object
            if indexed:
                return False  # `s.arr[i]` / `p.o[i]`: the field may be a pointer
            n = n.child_by_field_name("argument")
        elif n.type == "subscript_expression" or (
                n.type == "pointer_expression" and src.text_of(n.child_by_field_name("operator")) == "*"):
            indexed = True
            n = n.child_by_field_name("argument")
        elif n.type == "identifier":
            name = src.text_of(n)
            if name in thread_params:
                return True
            if indexed:
                return name in names.arrays
            if name in names.refs:
                return False  # a reference: the object it names may be anywhere
            return name in names.values or name not in globals_  # a local, or a member of the own object
        else:
            return False  # a cast, a call's result: through a pointer or reference


class _Names:
    """A function's names by storage: `values` (locals and parameters that are not references: assigning
    one writes the thread), `pointers`, `arrays` (local arrays), `refs` (reference parameters and locals)."""

    def __init__(self) -> None:
        self.values: set[str] = set()
        self.pointers: set[str] = set()
        self.arrays: set[str] = set()
        self.refs: set[str] = set()


def _thread_names(src: SourceFile, h: Function) -> _Names:
    got = _Names()
    for q in h.params:
        d = q.node.child_by_field_name("declarator")
        if d is not None and d.type == "reference_declarator":
            got.refs.add(q.name)
        elif d is not None:
            got.values.add(q.name)
            if q.pointer:
                got.pointers.add(q.name)
    for n in walk(h.body):
        if n.type != "declaration":
            continue
        for d in n.children_by_field_name("declarator"):
            while d is not None and d.type in _DECLARATORS:
                d = d.child_by_field_name("declarator") or (d.named_children[0] if d.named_children else None)
            base = d
            while base is not None and base.type in ("array_declarator", "pointer_declarator", "reference_declarator"):
                base = base.child_by_field_name("declarator") or next(
                    (c for c in base.named_children if c.type == "identifier" or "declarator" in c.type), None)
            if d is None or base is None or base.type != "identifier":
                continue
            name = src.text_of(base)
            if d.type == "reference_declarator":
                got.refs.add(name)
                continue
            got.values.add(name)
            if d.type == "array_declarator":
                got.arrays.add(name)
            elif d.type == "pointer_declarator":
                got.pointers.add(name)
    # a member array of the own object (`buf[++tos] = v` in local_stack::push): the thread object's storage
    got.arrays |= _member_arrays(src, h) - got.values - got.refs
    return got


def _member_arrays(src: SourceFile, h: Function) -> set[str]:
    """The array fields of the class h is a member of (defined in it or out of it)."""
    p = h.node.parent
    while p is not None and p.type == "template_declaration":
        p = p.parent
    bodies = [p] if p is not None and p.type == "field_declaration_list" else []
    if not bodies and "::" in h.name:
        cls = h.name.rsplit("::", 1)[0].split("::")[-1]
        bodies = [b for n in src.index.of_types("struct_specifier", "class_specifier")
                  if (nm := n.child_by_field_name("name")) is not None and src.text_of(nm) == cls
                  and (b := n.child_by_field_name("body")) is not None]
    out: set[str] = set()
    for body in bodies:
        for f in body.named_children:
            if f.type != "field_declaration":
                continue
            for d in f.children_by_field_name("declarator"):
                if d.type == "array_declarator":
                    while d is not None and d.type == "array_declarator":
                        d = d.child_by_field_name("declarator")
                    if d is not None and d.type == "field_identifier":
                        out.add(src.text_of(d))
    return out


def _file_scope_variables(src: SourceFile) -> set[str]:
    got = src.__dict__.get("_kp_file_scope_variables")
    if got is None:
        got = set()
        for item in file_scope_items(src):
            if item.type != "declaration":
                continue
            for d in item.children_by_field_name("declarator"):
                while d is not None and d.type not in ("identifier", "function_declarator"):
                    d = d.child_by_field_name("declarator")
                if d is not None and d.type == "identifier":
                    got.add(src.text_of(d))
        src.__dict__["_kp_file_scope_variables"] = got
    return got


def callee_name(src: SourceFile, call: Node) -> str | None:
    fn = call.child_by_field_name("function")
    while fn is not None and fn.type in ("field_expression", "qualified_identifier", "template_function"):
        fn = fn.child_by_field_name("field" if fn.type == "field_expression" else "name")
    return src.text_of(fn) if fn is not None and fn.type in ("identifier", "field_identifier") else None
