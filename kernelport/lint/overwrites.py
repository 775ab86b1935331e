"""A local's read that only one earlier assignment reaches takes that assignment's value's tag.

divergence.py is flow-insensitive: a local's tag joins every value it is ever given.  The block
broadcast of rtp-llm's sampling kernels (tests/labelled18, bench/sy001_audit40.txt) gives a local a
per-thread partial first, then the block's one value:

    float s = BlockReduce(...).Sum(part);            // per thread (valid in thread 0 only)
    if (tx == 0) temp_storage.value = s;
    __syncthreads();
    s = temp_storage.value;                          // shared memory at a uniform place: uniform
    if (aggregate + s > u) { ... __syncthreads(); }  // only `s = temp_storage.value` reaches here

The join tags `s` THREAD and every barrier under `if (aggregate + s > u)` was a false SY001.  Here a
read of a local is given the tag of the values that reach it, when these can be told from the
statements alone:
- walking back from the read through the statements of its enclosing blocks, the nearest statement
  that writes the local is a plain assignment `x = E;` or its declaration `T x = E;` (the read gets
  E's tag); or a loop whose body ends its turns with such a value and that no break or continue
  leaves early (the read gets the join of the value before the loop and the value at the body's end);
- a read in a `do ... while (cond)` condition is reached from the end of the body (no continue);
- anything else gives up (the joined tag): a write in a loop around the read but outside the walked
  statements (the previous turn's value reaches the read), a write in a statement that also holds
  the read (an `if` condition, a case of a switch), a `goto` in the function, a local whose address
  is taken, that a reference, a lambda or an `asm` output may write, that a range-for walks, that is
  `static` (one variable for all threads), that is itself a reference (another name may write it) or
  that a constructor takes (`S s(x)`, `S s{x}`: a reference member may keep it).  A call that takes the local (or a member of it)
  as an argument is a write (a reference parameter may change it) unless every definition of the file
  it may run takes that parameter by value, or it is a math function of values (min, max, sqrtf, ...);
  a member call on it is a write; a store through `->` is not (it writes the pointee).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import dialect, fnscopes
from ..model import inner_declarator
from ..source import call_args
from .tags import UNIFORM

_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_STOPS = _LOOPS + ("lambda_expression", "function_definition", "switch_statement", "case_statement")
# calls whose arguments are values: C/CUDA math (a call of another function may bind a reference)
_VALUE_CALLS = frozenset(("min", "max", "fmin", "fmax", "fminf", "fmaxf", "abs", "fabsf", "__frcp_rn") +
                         dialect.MATH_ACCURATE + dialect.MATH_EXACT +
                         tuple(f + "f" for f in dialect.MATH_ACCURATE + dialect.MATH_EXACT))
_NONE = object()  # the walked statements do not write the local
_DEPTH = 12  # nested look-ups before giving up (a chain of copies)


def prepare(d) -> dict[str, list[tuple[int, int]]]:
    """The locals whose reads can be followed, each with the (start, end) of every write of it."""
    writes: dict[str, list[tuple[int, int]]] = {}
    spoiled: set[str] = set()
    ix = d.src.index
    for f in d.m.functions.values():
        if f.body is None:
            continue
        if any(True for _ in ix.under(f.body, "goto_statement")):
            spoiled |= _keys(d, f.body)
            continue
        for n in ix.under_types(f.body, "assignment_expression", "update_expression", "call_expression",
                                "pointer_expression", "declaration", "for_range_loop", "gnu_asm_output_operand"):
            t, targets = n.type, []
            if t == "gnu_asm_output_operand":  # `asm(... : "=r"(x))` writes x
                spoiled |= _keys(d, n)
            elif t == "declaration":
                static = any(c.type == "storage_class_specifier" and d.src.text_of(c) == "static" for c in n.children)
                for decl in n.children_by_field_name("declarator"):
                    x = decl
                    while x is not None and x.type != "identifier":
                        x = inner_declarator(x)
                    k = d.keys.get(x.start_byte) if x is not None else None
                    if k is not None:
                        writes.setdefault(k, []).append((n.start_byte, n.end_byte))
                    top = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
                    if top is not None and top.type == "reference_declarator":  # `T& r = x.part`: r aliases x
                        spoiled |= _keys(d, decl.child_by_field_name("value")) | ({k} if k else set())
                    if static and k:  # one variable for every thread (and every call)
                        spoiled.add(k)
                    value = decl.child_by_field_name("value") if decl.type == "init_declarator" else None
                    if value is not None and value.type in ("argument_list", "initializer_list") and \
                            n.child_by_field_name("type") is not None and n.child_by_field_name("type").type != "primitive_type":
                        spoiled |= {b for a in value.named_children if (b := _base_key(d, a))}  # `S s(x)`: a reference member
            elif t == "pointer_expression":
                if d.src.text_of(n.child_by_field_name("operator")) == "&":
                    spoiled |= _keys(d, n.child_by_field_name("argument"))
            elif t == "for_range_loop":
                spoiled |= _keys(d, n.child_by_field_name("right"))
            elif t == "call_expression":
                fn = n.child_by_field_name("function")
                targets = _by_reference(d, f, n)
                if fn is not None and fn.type == "field_expression":
                    targets.append(fn.child_by_field_name("argument"))
            else:
                targets = [n.child_by_field_name("left" if t == "assignment_expression" else "argument")]
            for x in targets:
                k = _base_key(d, x)
                if k is not None:
                    writes.setdefault(k, []).append((n.start_byte, n.end_byte))
                    if any(a.type == "lambda_expression" for a in _ancestors(n, f.body)):
                        spoiled.add(k)
    return {k: sorted(w) for k, w in writes.items() if k not in spoiled and d.decl_at.get(k, -1) >= 0 and
            k not in d.local_arrays and k not in d.shared_keys}


def tag(d, n: Node) -> int:
    """The tag of the identifier n read in divergence.py's analysis d."""
    joined = d.env.get(key := d.key(n), UNIFORM)
    d._read.add(key)  # (the worklist: a change of what a pass read before needs another pass)
    return joined if joined == UNIFORM or key not in d.overwritten else read(d, n, key, joined)


def read(d, n: Node, key: str, joined: int) -> int:
    """The tag of the read `n` of the local `key` (joined: its flow-insensitive tag)."""
    depth = d.__dict__.get("_ow_depth", 0)
    if depth >= _DEPTH:
        return joined
    memo = d.__dict__.setdefault("_ow_reaching", {})  # (the values that reach a read: the tree's, not the tags')
    if n.start_byte not in memo:
        got = _at(d, key, n)
        memo[n.start_byte] = None if got is _NONE else got
    values = memo[n.start_byte]
    if values is None:
        return joined
    d._ow_depth = depth + 1
    try:
        return min(joined, max(d.expr(v) for v in values))
    finally:
        d._ow_depth = depth


def _by_reference(d, f, call: Node) -> list[Node]:
    """The arguments of a call that may be bound to a reference parameter."""
    args = call_args(call)
    fn = call.child_by_field_name("function")
    if fn is not None and fn.type == "identifier" and d.src.text_of(fn) in _VALUE_CALLS:
        return []
    found = fnscopes.callees(d.m, f, call)
    if not found:
        return list(args)
    return [a for i, a in enumerate(args) if any(i >= len(g.params) or _is_ref(g.params[i]) for g in found)]


def _is_ref(p) -> bool:
    x = p.node.child_by_field_name("declarator")
    while x is not None and x.type not in ("identifier", "reference_declarator"):
        x = x.child_by_field_name("declarator")
    return x is None or x.type == "reference_declarator"


def _keys(d, n: Node | None) -> set[str]:
    if n is None:
        return set()
    ids = [n] if n.type == "identifier" else list(d.src.index.under(n, "identifier"))
    return {k for i in ids if (k := d.keys.get(i.start_byte))}


def _base_key(d, x: Node | None) -> str | None:
    """The local a write to x changes: x itself, `x.m`, `x[i]`, `(x)` (not `x->m`, the pointee)."""
    while x is not None and x.type in ("parenthesized_expression", "field_expression", "subscript_expression"):
        if x.type == "field_expression" and d.src.text_of(x.child_by_field_name("operator")) != ".":
            return None
        x = x.child_by_field_name("argument") or (x.named_children[0] if x.named_children else None)
    return d.keys.get(x.start_byte) if x is not None and x.type == "identifier" else None


def _ancestors(n: Node, stop: Node):
    while n is not None and n != stop:
        n = n.parent
        yield n


def _writes(d, key: str, lo: int, hi: int, reading: int = -1) -> bool:
    """Whether a write of key starts in [lo, hi), other than one around the position `reading`
    (`x = f(x)`, `x += v`: the read comes first)."""
    return any(lo <= s < hi and not (s <= reading < e) for s, e in d.overwritten[key])


def _own(d, loop: Node, body: Node, types: tuple[str, ...]) -> bool:
    """A statement of these types (break, continue) in body that leaves or restarts this loop."""
    for b in d.src.index.under_types(body, *types):
        for a in _ancestors(b, loop):
            if a == loop:
                return True
            if a.type in _LOOPS or (a.type == "switch_statement" and b.type == "break_statement"):
                break
    return False


def _value(d, key: str, st: Node):
    """The values (expressions) a statement that writes key may leave in it, or None where that cannot be told."""
    if st.type == "expression_statement" and st.named_child_count == 1:
        a = st.named_children[0]
        left = a.child_by_field_name("left") if a.type == "assignment_expression" else None
        while left is not None and left.type == "parenthesized_expression" and left.named_child_count == 1:
            left = left.named_children[0]
        if left is not None and left.type == "identifier" and d.keys.get(left.start_byte) == key and \
                d.src.text_of(a.child_by_field_name("operator")) == "=":
            return (a.child_by_field_name("right"),)
        return None
    if st.type == "declaration":
        for decl in st.children_by_field_name("declarator"):
            x = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else None
            if x is not None and x.type == "identifier" and d.keys.get(x.start_byte) == key:
                return (decl.child_by_field_name("value"),)
        return None  # (declared without a value: none to read)
    if st.type in ("for_statement", "while_statement", "do_statement"):  # the join of no turn and the last turn
        body = st.child_by_field_name("body")
        if body is None or body.type != "compound_statement" or \
                _own(d, st, body, ("break_statement", "continue_statement")) or \
                _writes(d, key, st.start_byte, body.start_byte) or _writes(d, key, body.end_byte, st.end_byte):
            return None
        end, entry = _before(d, key, body, body.end_byte), _at(d, key, st)
        if end is None or end is _NONE or entry is None or entry is _NONE:
            return None
        return end + entry
    return None


def _before(d, key: str, block: Node, end: int):
    """The values key may hold at `end` from the statements of block before it: the nearest that writes
    it decides (None: it cannot be told; _NONE: none writes it)."""
    for st in reversed(block.named_children):
        if st.start_byte < end and _writes(d, key, st.start_byte, st.end_byte):
            return _value(d, key, st)
    return _NONE


def _at(d, key: str, n: Node):
    """The values key may hold where n starts (a read, or a statement about to run), or None."""
    cur = n
    while True:
        child, up = cur, cur.parent
        while up is not None and up.type != "compound_statement":
            if up.type == "do_statement" and child == up.child_by_field_name("condition"):
                body = up.child_by_field_name("body")  # the condition runs after the body's end
                if body is None or body.type != "compound_statement" or \
                        _own(d, up, body, ("continue_statement",)) or _writes(d, key, body.end_byte, up.end_byte, n.start_byte):
                    return None
                got = _before(d, key, body, body.end_byte)
                if got is not _NONE:
                    return got
            elif up.type in _STOPS:
                return None  # another turn's (or another caller's) value may reach it
            child, up = up, up.parent
        if up is None or _writes(d, key, child.start_byte, n.start_byte, n.start_byte):
            return None  # a write in the statement that holds n, before it (an `if` condition)
        got = _before(d, key, up, child.start_byte)
        if got is not _NONE:
            return got
        if up.parent is None or up.parent.type in _STOPS:
            return None  # the start of a function, a loop's body, a switch's cases
        cur = up
