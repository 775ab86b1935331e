"""Stores through a local pointer or reference to a local: the local takes the stored value's tag.

divergence.py binds a store to the variable it names; a store through an alias named nothing:

    int src = 0;
    int* p = &src;                                  // (or `int& r = src; r = ...;`)
    *p = threadIdx.x & 3;                           // src is now per thread
    unsigned b = __shfl_sync(FULL, v, src);         // read from a per-thread lane: per thread
    if (b > 5) { ... __shfl_xor_sync(FULL, ...) }   // a partial region (WS012)

src kept its declaration's UNIFORM tag, so `b` read as one lane's broadcast (lanebroadcasts.py) and the branch
as warp-uniform.  Here a local pointer initialised or assigned `&x` (also `&x.f`, `&x[i]`, or a local array x
itself), or a local reference bound to x, is an alias of x; an alias of an alias is one of its target.  Every store
whose base is an alias (`*p = E`, `p[i] = E`, `p->f = E`, `r = E`, `r.f = E`) also binds x (divergence._store).
A write through the address passed to a call (`pick(&x)`) is not followed here.

`&p[i]` with p a pointer (a parameter, or a local pointer into shared or global memory, as lechebs-nbody's
barnes_hut.cu (heldout100) carves its `extern __shared__` buffer: `T *x_buff = (T *) shmem;`, `T *y_buff =
&x_buff[GROUP_SIZE];`) names the
pointee's storage, not a local: only a local array's element (or an alias's, whose target is one) is a local's; and a (cast)
`__shared__` array is the block's, never a local (nor is `p = (T *) q` with q a plain pointer an alias).

A local reference bound to such an element (diego-nbody's octree_kernel.cu, heldout100: `Node &curNode =
node[nodeIndex];`, nodeIndex `+= blockIdx.x`) names memory as `node[nodeIndex]` does: a store through it
(`if (tx == 0) curNode.isLeaf = false;`) writes that memory and leaves the reference what its binding made it
(divergence._store), as `node[nodeIndex].isLeaf = false` would; it had made `curNode.start` per thread, and the
`if (start == -1 && end == -1) return;` before the barriers a false SY001.  A reference bound to a local
(`T& r = x`, `T& r = arr[i]` with arr a local array) is an alias as above.
That carving had made `leaves[lane] = node` (`int *leaves = approx_blk_scan;`) bind every pointer of the chain
per thread, and every loop bounded by a value read through one of them (`approx_buff_size = approx_blk_scan[0]`).
"""
from __future__ import annotations

from tree_sitter import Node

from ..model import inner_declarator


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "cast_expression") and n.named_children:
        n = n.named_children[-1]
    return n


def _base(n: Node | None) -> Node | None:
    """The variable a place names: `x`, `x.f`, `x[i]` -> x."""
    n = _strip(n)
    while n is not None and n.type in ("field_expression", "subscript_expression"):
        if n.type == "field_expression" and n.child_by_field_name("operator") is not None and \
                n.child_by_field_name("operator").type == "->":
            return None  # `&q->f`: the pointee of q, not a local
        n = _strip(n.child_by_field_name("argument"))
    return n if n is not None and n.type == "identifier" else None


def _pointee(d, place: Node | None, edges) -> bool:
    """`p[i]`, `p[i].f`: an element through a pointer p, neither a local array nor an alias (of a local)."""
    place = _strip(place)
    while place is not None and place.type == "field_expression" and place.child_by_field_name("operator") is not None \
            and place.child_by_field_name("operator").type == ".":
        place = _strip(place.child_by_field_name("argument"))
    if place is None or place.type != "subscript_expression":
        return False
    arr = _strip(place.child_by_field_name("argument"))
    if arr is None or arr.type != "identifier":
        return False
    k = d.key(arr)
    return k not in d.local_arrays and k not in edges and not _local_object(d, k)


def _local_object(d, k: str) -> bool:
    """k a local (or by-value parameter) declared a plain object of a named type (`Frag a;`, not `T *p`, `T &r`,
    `auto p = ...`): its `a[i]` is its own operator[] on the thread's storage, so a store through `&a[i]` or a
    reference bound to `a[i]` writes the local (review66e: `Frag a; int& r = a[0]; r = threadIdx.x & 1;` left
    `a` uniform, and the barrier under `if (a.v[0])` unflagged)."""
    name, _, at = k.rpartition("@")
    if not at.isdigit():
        return False  # (a global)
    n = d.src.tree.root_node.descendant_for_byte_range(int(at), int(at) + 1)
    while n is not None and n.type not in ("declaration", "parameter_declaration", "optional_parameter_declaration"):
        if n.type in ("pointer_declarator", "reference_declarator", "array_declarator", "function_declarator"):
            return False
        n = n.parent
    if n is None:
        return False
    if n.type != "declaration":  # a parameter: its declarator
        decl = n.child_by_field_name("declarator")
        if decl is None or decl.type != "identifier":
            return False
    ty = n.child_by_field_name("type")
    return ty is not None and d.src.text_of(ty) not in ("auto", "decltype(auto)") and ty.type != "decltype"


def _target(d, val: Node | None, ref: bool, edges) -> Node | None:
    """The local an alias's initial value names (None: none)."""
    val = _strip(val)
    if val is None:
        return None
    if ref:
        return None if _pointee(d, val, edges) else _base(val)
    if val.type == "pointer_expression" and val.child_by_field_name("operator").type == "&":
        arg = val.child_by_field_name("argument")
        return None if _pointee(d, arg, edges) else _base(arg)
    if val.type == "identifier":  # a local array (decays to its address) or another alias
        return val
    return None


def prepare(d) -> dict[str, set[str]]:
    """Alias key -> the keys of the locals its stores may write (after declscopes resolved the keys); and
    d.pointee_refs: the local references bound to an element through a pointer (`T& r = p[i]`)."""
    edges: dict[str, set[str]] = {}
    for f in d.m.functions.values():
        if f.body is None:
            continue
        for n in d.src.index.under_types(f.body, "init_declarator", "assignment_expression"):
            if n.type == "init_declarator":
                decl, val = n.child_by_field_name("declarator"), n.child_by_field_name("value")
                ref = decl is not None and decl.type == "reference_declarator"
                if decl is None or decl.type not in ("pointer_declarator", "reference_declarator"):
                    continue
                while decl is not None and decl.type != "identifier":
                    decl = inner_declarator(decl)
                alias = decl
            else:
                if n.child_by_field_name("operator").type != "=":
                    continue
                alias, val, ref = _strip(n.child_by_field_name("left")), n.child_by_field_name("right"), False
            if ref and alias is not None and alias.type == "identifier" and _pointee(d, val, edges):
                d.pointee_refs.add(d.key(alias))  # `T& r = p[i]`: r names memory, as `p[i]` does
            t = _target(d, val, ref, edges)
            if alias is None or alias.type != "identifier" or t is None:
                continue
            a, k = d.key(alias), d.key(t)
            if a.endswith("@global") or k.endswith("@global") or d.decl_at.get(k, -1) < 0 or k in d.shared_keys:
                continue  # (parameters, globals and shared memory: not a local of this thread's frame)
            if not ref and t is _strip(val) and k not in d.local_arrays and k not in edges:
                continue  # `p = q`: q no local array nor alias (yet: see below)
            edges.setdefault(a, set()).add(k)
    out: dict[str, set[str]] = {}
    for a in edges:  # the closure: an alias of an alias writes its target
        seen, todo = set(), [a]
        while todo:
            for k in edges.get(todo.pop(), ()):
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        out[a] = seen - {a}
    return out
