"""A value one warp publishes through memory and every other warp reads back: the same in every thread of the block.

lechebs-nbody's barnes_hut.cu (heldout100) keeps its traversal's buffer sizes block-uniform so:

    if (warp_idx == NUM_WARPS - 1) {                     // the last warp: warp-uniform values
        approx_buff_size += __shfl_sync(0xffffffff, scatter + approx_node, 31);
        if (lane_idx == 0) approx_blk_scan[0] = approx_buff_size;
    }
    __syncthreads();
    if (warp_idx < NUM_WARPS - 1)                        // every other warp reads them back
        approx_buff_size = approx_blk_scan[0];

Each assignment inherits its branch's warp-dependent condition (divergence.py's control tags), so the size read as
differing by warp and every `for (i = 0; i < queue_size; ...)` loop holding a barrier was a false SY001 (and each
warp operation in it a false WS012).  `adjust` drops those two conditions from these assignments only where all hold:
- the writer `if (w == K)` (either order) tests a warp index: a local initialised `threadIdx.x / X` or `threadIdx.x
  >> X` and never assigned again, so it selects one warp; its body assigns x at its top level, with a value whose
  tag is at most w's (the same in that warp), K the same in every thread (review66e: `warp == lane`, `warp ==
  (v & 1)` select lanes of several warps, each keeping its own x), and then stores x to `S[c]` or `*S` (S no local array nor a local's
  alias, S and c the same in every thread) where it surely runs (under blocks and leader tests `if (lane == 0)`
  only),
  after the last of those assignments; no `else`;
- the statements between the writer and the reader are block barriers only;
- the reader `if (...)`, no `else`, is the writer's complement: `w != K`, `w > 0` / `w != 0` / `w >= 1` for K `0`
  (a warp index is never negative), or `w < N - 1` for K `N - 1` with N named for the block's warp count
  (`NUM_WARPS`, `nwarps`, `warps_per_block`: the name says the last warp is K, as WARP_SIZE_NAME says 32 is the
  width) and no definition of N in the file dividing by another width than w's (`#define NUM_WARPS (256 / WAVE)`
  beside `w = threadIdx.x / 32`: with WAVE 64 warps 4-7 neither write nor read back); its body assigns `x = S[c]`
  (`x = *S`; the same text).  The same file's leaf loop publishes a ballot so:
  `if (warp_idx == w) { leaf_mask = __ballot_sync(...); if (lane_idx == 0) *sh_leaf_mask = leaf_mask; }`,
  `__syncthreads();`, `if (warp_idx != w) leaf_mask = *sh_leaf_mask;`.
Then after the reader every thread holds what the writer warp stored.  A read of S at a thread-dependent address
keeps its tag (divergence.expr), and so does every other assignment: a writer that tests a ballot (several warps), a
value per thread, a reader branch `w < K` of a K not so named, or a statement between them keep the findings.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import lazy_re
from .barrier_spellings import barrier_kind
from .tags import UNIFORM, WARP, WARP32

_WARP_COUNT = lazy_re.compile(r"(?i)^(num_?|n_?)?warps(_?per_?block)?$|^warps_?per_?(block|cta)$|^(num|n)_?warp$")
_INDEX = lazy_re.compile(r"^\(*\s*threadIdx\.x\s*\)*\s*(/|>>)\s*\S.*$")


def _flat(d, n: Node | None) -> str:
    return re.sub(r"\s+", "", d.src.text_of(n)) if n is not None else ""


def _cond(n: Node) -> Node | None:
    c = n.child_by_field_name("condition")
    while c is not None and c.type in ("condition_clause", "parenthesized_expression") and c.named_child_count == 1:
        c = c.named_children[0]
    return c


def _compare(d, c: Node | None):
    """(operator, left text, right text, left node) of a binary comparison, else None."""
    if c is None or c.type != "binary_expression":
        return None
    return d.src.text_of(c.child_by_field_name("operator")), _flat(d, c.child_by_field_name("left")), \
        _flat(d, c.child_by_field_name("right")), c.child_by_field_name("left"), c.child_by_field_name("right")


def _warp_index(d, f, name: str) -> bool:
    """`name` is a local of f initialised `threadIdx.x / X` (or `>> X`) and never assigned again."""
    inits = [i for i in d.src.index.under_types(f.body, "init_declarator")
             if _flat(d, i.child_by_field_name("declarator")) == name]
    if len(inits) != 1 or not _INDEX.match(d.src.text_of(inits[0].child_by_field_name("value"))):
        return False
    for a in d.src.index.under_types(f.body, "assignment_expression", "update_expression"):
        if _flat(d, a.child_by_field_name("left") or a.child_by_field_name("argument")) == name:
            return False
    return True


def _complement(d, f, writer, reader) -> Node | None:
    """(the writer's warp-index node, its K node) where the reader's condition is its complement (above), else None."""
    w = _compare(d, writer)
    r = _compare(d, reader)
    if w is None or r is None or w[0] != "==":
        return None
    idx, k, node = (w[1], w[2], (w[3], w[4])) if _warp_index(d, f, w[1]) else (w[2], w[1], (w[4], w[3]))
    if not _warp_index(d, f, idx) or r[1] != idx:
        return None
    op, rk = r[0], r[2]
    m = re.fullmatch(r"(\w+)-1", k)
    if (op == "!=" and rk == k) or (k == "0" and (op, rk) in ((">", "0"), ("!=", "0"), (">=", "1"))) or \
            (op == "<" and rk == k and m is not None and _WARP_COUNT.match(m.group(1)) and
             _same_width(d, m.group(1), _divisor(d, f, idx))):
        return node
    return None


def _width(op: str, x: str) -> str:
    """A divisor's text, `>> 5` read as `/ 32`."""
    x = x.strip("() ")
    return str(1 << int(x)) if op == ">>" and x.isdigit() else x


def _divisor(d, f, name: str) -> str:
    """The width the warp index `name` (`threadIdx.x / X`, `>> X`) divides by, as _width reads it."""
    for i in d.src.index.under_types(f.body, "init_declarator"):
        if _flat(d, i.child_by_field_name("declarator")) == name:
            got = re.search(r"(/|>>)\s*(.*)$", d.src.text_of(i.child_by_field_name("value")).strip())
            return _width(got.group(1), got.group(2)) if got else ""
    return ""


def _same_width(d, count: str, width: str) -> bool:
    """No definition of the warp count `count` in the file (`#define N (B / W)`, `const int N = B >> S;`) divides by
    another width than the warp index's (review66e: `NUM_WARPS (BLOCK / WAVE)`, WAVE 64 on AMD, with `warp =
    threadIdx.x / 32`: warps 4-7 of a 256-thread block neither write nor read back, and keep their own value)."""
    w = re.escape(count)
    text = d.src.text.replace("\\\n", " ")
    defs = re.findall(rf"^[ \t]*#[ \t]*define[ \t]+{w}\b[ \t]*([^\n]*)", text, re.M) + \
        re.findall(rf"\b{w}\s*=\s*([^;,]*)", text)
    for v in defs:
        for op, x in re.findall(r"(/|>>)\s*(\(?[\w.]+\)?)", v):
            if _width(op, x) != width:
                return False
    return True


def _assigns(d, body: Node):
    """(top-level assignment nodes by target text, the stores `S[c] = x` or `*S = x` in the body: (slot text, x text,
    the assignment, the slot))."""
    stmts = body.named_children if body.type == "compound_statement" else [body]
    top: dict[str, list[Node]] = {}
    for s in stmts:
        e = s.named_children[0] if s.type == "expression_statement" and s.named_children else None
        if e is not None and e.type == "assignment_expression":
            top.setdefault(_flat(d, e.child_by_field_name("left")), []).append(e)
    stores = []
    for a in d.src.index.under_types(body, "assignment_expression"):
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        if left is not None and (left.type == "subscript_expression" or left.type == "pointer_expression" and
                                 d.src.text_of(left).lstrip().startswith("*")) and d.src.text_of(
                a.child_by_field_name("operator")) == "=" and right is not None and right.type == "identifier":
            stores.append((_flat(d, left), _flat(d, right), a, left))
    return top, stores


def _surely(d, store: Node, body: Node) -> bool:
    """The store runs in the writer warp whatever its values: between it and the writer's body only blocks and
    `if (X == 0)` / `if (0 == X)` (the leader) (review66e: `if (v > 0) S[0] = x;`, `if (lane == 0 && m > 0) ...`
    may store nothing, and the readers read a slot that is not the writer warp's x)."""
    n = store.parent
    while n is not None and n != body:
        if n.type == "if_statement":
            c = _compare(d, _cond(n))
            if c is None or c[0] != "==" or "0" not in (c[1], c[2]):
                return False
        elif n.type not in ("compound_statement", "expression_statement"):
            return False
        n = n.parent
    return n is not None


def _find(d) -> dict[int, tuple]:
    """Assignment start byte -> ("writer", the writer if's start, (w's node, K's node), the slot S[c]) or ("reader", the reader if's
    start, None, None)."""
    out: dict[int, tuple] = {}
    for f in d.m.functions.values():
        if f.body is None or "threadIdx" not in d.src.text_of(f.body):
            continue
        for blk in d.src.index.under_types(f.body, "compound_statement"):
            kids = [c for c in blk.named_children if c.type != "comment"]
            for i, wr in enumerate(kids):
                if wr.type != "if_statement" or wr.child_by_field_name("alternative") is not None:
                    continue
                j = i + 1
                while j < len(kids) and kids[j].type == "expression_statement" and kids[j].named_children and \
                        barrier_kind(d.ctx, kids[j].named_children[0]) == "block":
                    j += 1
                if j == i + 1 or j >= len(kids) or kids[j].type != "if_statement" or \
                        kids[j].child_by_field_name("alternative") is not None:
                    continue
                rd = kids[j]
                node = _complement(d, f, _cond(wr), _cond(rd))
                if node is None:
                    continue
                wtop, stores = _assigns(d, wr.child_by_field_name("consequence"))
                stores = [st for st in stores if _surely(d, st[2], wr.child_by_field_name("consequence"))]
                rtop, _ = _assigns(d, rd.child_by_field_name("consequence"))
                for x, reads in rtop.items():
                    got = [s for s in stores if s[1] == x and any(_flat(d, r.child_by_field_name("right")) == s[0]
                                                                     for r in reads)]
                    if not got or x not in wtop or max(a.start_byte for a in wtop[x]) > got[0][2].start_byte:
                        continue
                    base = got[0][3].child_by_field_name("argument")
                    k = d.key(base) if base is not None and base.type == "identifier" else None
                    if k is None or k in d.local_arrays and k not in d.shared_keys or k in d.aliases:
                        continue
                    for a in wtop[x]:
                        out[a.start_byte] = ("writer", wr.start_byte, node, got[0][3])
                    for r in reads:
                        if _flat(d, r.child_by_field_name("right")) == got[0][0]:
                            out[r.start_byte] = ("reader", rd.start_byte, None, None)
    return out


def adjust(d, n: Node, tag: int, frames) -> tuple[int, tuple]:
    """(the tag, the control frames) divergence._store binds the assignment `n` with: those given, but for a
    publication's writer and reader (above), whose branch conditions are dropped (and the writer's value, the same
    in its one warp, counts as the block's one value)."""
    found = d.__dict__.get("_kp_publishes")
    if found is None:
        found = d.__dict__["_kp_publishes"] = _find(d) if "__sync" in d.src.text or "barrier" in d.src.text else {}
    got = found.get(n.start_byte)
    if got is None:
        return tag, frames
    kind, at, w, slot = got
    if kind == "writer":
        wt = d.expr(w[0])
        if wt not in (WARP, WARP32) or tag > wt or d.expr(slot) != UNIFORM or d.expr(w[1]) != UNIFORM:
            return tag, frames
        tag = UNIFORM
    return tag, tuple(fr for fr in frames if fr[1] != at)
