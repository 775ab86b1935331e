"""An early return that no launch of the kernel takes (SY001 reads the launch geometry; issue 11, heldout84).

playground-cuda's attention kernels return early under `if (row >= kSeqLen || d >= kHeadDim) return;` with
`row = blockIdx.x`, `d = threadIdx.x`, and have barriers after it; the file's only launches are
`<<<kSeqLen, kHeadDim>>>`.  The thread-dependent test `d >= kHeadDim` is false in every thread of every block
those launches make (threadIdx.x < blockDim.x = kHeadDim), so no thread returns there and every barrier after
it is reached by the whole block: SY001 was a false alarm, five times.  A bigger block hangs, so the return
counts as never taken only where all of this holds:
- the return is in a kernel (not a helper, whose callers are other kernels) and one of the `if` conditions
  whose then-branch holds it is never true in any thread: a comparison `X >= E` / `X > E` (or `E <= X`,
  `E < X`) of X = threadIdx.x/.y/.z (or a local initialised with it and never assigned again) against a
  bound E that every launch's block extent in that dimension does not exceed; `A || B` where each side is
  block-uniform or never true; `A && B` where one side is never true.  A global index (`blockIdx.x *
  blockDim.x + threadIdx.x`), a grid-stride walk or any other thread value is not read: it stays flagged;
- E is a constant (blockdims: a macro, a `constexpr`, a constant member) or a kernel parameter the kernel
  never assigns, whose argument at each launch is a constant or spells the same name as the block extent
  (`k<<<g, n>>>(x, n)`: both read `n` at the launch);
- every launch of the kernel is known: at least one `<<<>>>` launch in the file, each block's extent in that
  dimension decided (blockdims.dims, a local it reads stored to nowhere after its initialiser:
  kernelport/lint/launchblocks.py; or `n` / `dim3(n, ...)` for the name case), the kernel's name used in
  the file only by its definition, prototypes and those launches (no address taken), and no other file of
  the run naming it (a launch there, or a pointer, is not read here), and no header the file includes
  declaring it (another unit, in the run or not, may launch it).  A launch in a file the run leaves out is not
  seen: lint the project, as for every geometry the rules read.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import blockdims, fnscopes
from . import launchblocks
from ..source import call_args, ident_name
from .tags import UNIFORM

_DIMS = {"x": 0, "y": 1, "z": 2}
_FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}
# parameter types that hold any block extent (1024 and more) unchanged
_WIDE = frozenset({"int", "unsigned", "unsigned int", "signed", "signed int", "long", "unsigned long", "long long",
                   "unsigned long long", "size_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "std::size_t",
                   "long int", "long long int", "unsigned long int"})


def never_taken(div, ret: Node) -> bool:
    """Whether no thread of any launch the run shows takes the early return `ret` of div.fn (a kernel)."""
    f = div.fn
    if f is None or not f.is_kernel or f.body is None:
        return False
    conds, n = [], ret
    while n is not None and n.id != f.body.id:
        p = n.parent
        if p is not None and p.type == "if_statement":
            cons = p.child_by_field_name("consequence")
            if cons is not None and cons.id == n.id:
                conds.append(p.child_by_field_name("condition"))
        n = p
    if not conds:
        return False
    launches = _launches(div.ctx, f)
    if launches is None:
        return False
    return any(c is not None and _never(div, f, c, launches) for c in conds)


def _strip(n: Node) -> Node:
    while n.type in ("condition_clause", "parenthesized_expression") and len(n.named_children) == 1:
        n = n.named_children[0]
    return n


def _never(div, f, cond: Node, launches) -> bool:
    """The condition is false in every thread of every launch (see the module's docstring)."""
    n = _strip(cond)
    if n.type != "binary_expression":
        return False
    op = div.src.text_of(n.child_by_field_name("operator"))
    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
    if left is None or right is None:
        return False
    if op == "||":
        return all(div.expr(s) == UNIFORM or _never(div, f, s, launches) for s in (left, right))
    if op == "&&":
        return any(_never(div, f, s, launches) for s in (left, right))
    if op not in _FLIP:
        return False
    dim = _thread_dim(div, f, left)
    bound = right
    if dim is None:
        dim, bound, op = _thread_dim(div, f, right), left, _FLIP[op]
    if dim is None or op not in (">=", ">") or div.expr(bound) != UNIFORM:
        return False
    return all(_within(div, f, bound, op, dim, la) for la in launches)


def _thread_dim(div, f, e: Node) -> int | None:
    """0/1/2 where `e` is threadIdx.x/.y/.z, or a local of f initialised with it and never assigned again."""
    e = _strip(e)
    while e.type == "cast_expression":
        e = _strip(e.child_by_field_name("value"))
    text = div.src.text_of(e).replace(" ", "")
    if text.startswith("threadIdx.") and text[10:] in _DIMS:
        return _DIMS[text[10:]]
    if e.type != "identifier":
        return None
    name, found = text, None
    for d in div.src.index.under(f.body, "init_declarator"):
        if ident_name(d.child_by_field_name("declarator")) == name:
            if found is not None:
                return None
            found = d
    if found is None or found.start_byte > e.start_byte or f.param(name) is not None or _assigned(div, f, name):
        return None
    init = found.child_by_field_name("value")
    return _thread_dim(div, f, init) if init is not None and init.type != "identifier" else None


def _assigned(div, f, name: str) -> bool:
    """`name` is stored to in f's body after its declaration (`=`, `+=`, `++`, `&name`)."""
    src = div.src
    for a in src.index.under(f.body, "assignment_expression"):
        left = a.child_by_field_name("left")
        if left is not None and src.text_of(left).strip() == name:
            return True
    for u in src.index.under(f.body, "update_expression"):
        arg = u.child_by_field_name("argument")
        if arg is not None and src.text_of(arg).strip() == name:
            return True
    for u in src.index.under(f.body, "pointer_expression"):
        arg = u.child_by_field_name("argument")
        if src.text_of(u).lstrip().startswith("&") and arg is not None and src.text_of(arg).strip() == name:
            return True
    return False


def _within(div, f, bound: Node, op: str, dim: int, launch) -> bool:
    """Every thread index of the launch's block in `dim` fails `index op bound`."""
    m = div.m
    known = _known(m)
    owner = m.function_at(launch.node)
    ext = blockdims.dims(launch.config[1], owner, m, known)
    block = _strip(launch.config[1])
    if ext is not None and not launchblocks.holds(div.src, m, owner, block):
        return False  # a local block stored to after its initialiser (`if (big) threads = 256;`)
    if ext is None and not (block.type == "identifier" and _dim3_name(div.src, div.src.text_of(block))):
        v = blockdims.value(block, m, known, owner)  # a file-scope `constexpr int kHeadDim = 8;` as the block
        ext = (v, 1, 1) if v is not None else None
    is_param = bound.type == "identifier" and f.param(div.src.text_of(bound)) is not None
    limit = None if is_param else blockdims.value(bound, m, known, f)
    if is_param:
        arg = _argument(div, f, div.src.text_of(bound), launch)
        if arg is not None:
            limit = blockdims.value(arg, m, known, owner)
            if limit is None and ext is None:  # `k<<<g, n>>>(x, n)`: the extent and the bound read one name
                return op == ">=" and arg.type == "identifier" and _extent_text(div, launch, dim) == div.src.text_of(arg)
    if ext is None or limit is None or not launchblocks.one_value(div.src, m, owner, block) or \
            not launchblocks.one_value(div.src, m, f, bound):
        return False  # a macro redefined between the kernel's test and the launch: two counts under one name
    return ext[dim] <= (limit if op == ">=" else limit + 1)


def _dim3_name(src, name: str) -> bool:
    """A `dim3` of that name is declared somewhere in the file (its value is not one count)."""
    return re.search(rf"\bdim3\b[^;{{}}]*\b{re.escape(name)}\b", src.text) is not None


def _extent_text(div, launch, dim: int) -> str | None:
    block = _strip(launch.config[1])
    fn = block.child_by_field_name("function") if block.type == "call_expression" else None
    if fn is not None and div.src.text_of(fn) == "dim3":
        args = call_args(block)
        return div.src.text_of(args[dim]) if dim < len(args) else None
    return div.src.text_of(block) if dim == 0 and block.type == "identifier" else None


def _argument(div, f, name: str, launch) -> Node | None:
    """The launch's argument for kernel parameter `name`, where f never assigns the parameter."""
    names = [p.name for p in f.params]
    if name not in names or _assigned(div, f, name):
        return None
    p = f.params[names.index(name)]
    if p.pointer or " ".join(p.type.replace("const", " ").split()) not in _WIDE:
        return None  # a narrower type (`unsigned char n`) may not hold the block's extent
    i = names.index(name)
    return launch.args[i] if i < len(launch.args) and len(launch.args) == len(names) else None


def _known(m) -> dict:
    got = m.__dict__.get("_kp_launch_exit_names")
    if got is None:
        got = m.__dict__["_kp_launch_exit_names"] = blockdims.names(m)
    return got


def _launches(ctx, f) -> list | None:
    """The launches of kernel f where the run shows all of them (see the module's docstring), else None."""
    cache = ctx.__dict__.setdefault("_kp_launch_exits", {})
    if f.node.id in cache:
        return cache[f.node.id]
    cache[f.node.id] = got = _all_launches(ctx, f)
    return got


def name_uses(src, f, name: str):
    """Each use of function f's name in the file outside its own declarator and prototypes: (identifier, the
    node above its qualifications and template arguments)."""
    decl = f.node.child_by_field_name("declarator")
    for ident in src.index.of_types("identifier"):
        if src.text_of(ident) != name or decl is not None and decl.start_byte <= ident.start_byte < decl.end_byte:
            continue
        p = ident.parent
        while p is not None and p.type in ("qualified_identifier", "template_function"):
            p = p.parent
        if p is not None and p.type == "function_declarator" and p.parent is not None and \
                p.parent.type == "declaration":
            continue  # a prototype
        yield ident, p


def _all_launches(ctx, f) -> list | None:
    launches = ctx.launches_of(f)
    if not launches or any(la.form != "<<<>>>" or len(la.config) < 2 for la in launches):
        return None
    name = f.name.split("::")[-1]
    src = ctx.src
    targets = [(la.target or la.node) for la in launches]
    for ident, _ in name_uses(src, f, name):
        if not any(t.start_byte <= ident.start_byte < t.end_byte for t in targets):
            return None  # its address taken, or a use the launches do not account for
    word = re.compile(rf"\b{re.escape(name)}\b")
    if any(word.search(src.text_of(d)) for d in src.index.of_types("preproc_def", "preproc_function_def")):
        return None  # a macro's body may launch it or take its address (the parse keeps it as text)
    vis = ctx.module.visible
    away = getattr(vis, "elsewhere", None) if vis is not None else None
    if away is not None and away.root is not None:
        from ..unit_launches import run_index
        if any(p != away.root for p in run_index(away.project).get(name, [])):
            return None
    if vis is not None and name in vis.declared:  # (a run cannot tell it holds every unit that includes it)
        return None
    if not all(fnscopes.launched(ctx.module, la) for la in launches):
        return None
    return launches
