"""WS rules on launch configurations a host loop enumerates (an autotuner's candidates).

An autotuner that tries every block size from 32 in steps of 32 and, for each, every lane-group size
up to the device's warp size (threads per particle, per row, per check) was written for 32-lane warps:
there the largest group is 32 and fits every block.  On a 64-lane wave the device reports 64, so the
pair (32, 64) puts a 64-lane group in a 32-thread block (a launcher dividing the block by the group
launches `N / 0` blocks; a kernel reducing the group over `WarpReduce<T, 64>` reads lanes that do not
exist), and blocks of 96, 160, ... hold a group and a half.  HOOMD-blue's pair potentials, neighbour
lists and free-volume compute had this sweep until its HIP port stepped the block sizes by the warp
size (tests/labelled8).
"""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect
from ...source import walk
from ..rule import Rule, ex, register

_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_FUNCTION = ("function_definition", "lambda_expression", "translation_unit")


def _literal(ctx, node: Node | None) -> int | None:
    if node is None or node.type != "number_literal":
        return None
    try:
        return int(ctx.text(node).rstrip("uUlL"), 0)
    except ValueError:
        return None


def _operator(ctx, node: Node) -> str:
    op = node.child_by_field_name("operator")
    return ctx.text(op) if op is not None else ""


def _swept_by_32(ctx, loop: Node) -> tuple[str, Node] | None:
    """(variable, its initial 32) of `for (T v = 32; ...; v += 32)` (or `v = v + 32`)."""
    init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
    if init is None or update is None:
        return None
    name = start = None
    if init.type == "declaration":
        d = next((c for c in init.children_by_field_name("declarator") if c.type == "init_declarator"), None)
        if d is not None:
            name, start = d.child_by_field_name("declarator"), d.child_by_field_name("value")
    elif init.type == "assignment_expression" and _operator(ctx, init) == "=":
        name, start = init.child_by_field_name("left"), init.child_by_field_name("right")
    if name is None or name.type != "identifier" or _literal(ctx, start) != 32:
        return None
    var = ctx.text(name)
    if update.type != "assignment_expression" or ctx.text(update.child_by_field_name("left")) != var:
        return None
    op, right = _operator(ctx, update), update.child_by_field_name("right")
    step = _literal(ctx, right) if op == "+=" else None
    if op == "=" and right is not None and right.type == "binary_expression" and \
            _operator(ctx, right) == "+":
        terms = (right.child_by_field_name("left"), right.child_by_field_name("right"))
        if ctx.text(terms[0]) == var:
            step = _literal(ctx, terms[1])
        elif ctx.text(terms[1]) == var:
            step = _literal(ctx, terms[0])
    return (var, start) if step == 32 else None


def _enclosing(node: Node) -> Node:
    p = node.parent
    while p is not None and p.type not in _FUNCTION:
        p = p.parent
    return p if p is not None else node


class _WaveNames:
    """Where a function reads the device's warp size: the wave-width built-in's name as a field of a
    device-properties struct (`prop.warpSize`, `exec_conf->dev_prop.warpSize`) or as itself, and the
    variables of the function assigned from one (`max_tpp = prop.warpSize`)."""

    def __init__(self, ctx, scope: Node):
        self.ctx, self.word = ctx, dialect.concept("warp_size").spelling(ctx.lang)
        self.names: set[str] = set()
        pairs = []
        for n in walk(scope, lambda n: True):
            if n.type == "init_declarator":
                pairs.append((n.child_by_field_name("declarator"), n.child_by_field_name("value")))
            elif n.type == "assignment_expression":
                pairs.append((n.child_by_field_name("left"), n.child_by_field_name("right")))
        for _ in range(4):  # a chain of copies: `ws = prop.warpSize; max_tpp = ws;`
            grown = {ctx.text(left) for left, right in pairs
                     if left is not None and left.type == "identifier" and self.first(right) is not None}
            if grown <= self.names:
                break
            self.names |= grown

    def first(self, node: Node | None) -> Node | None:
        """The first read of the device's warp size under node."""
        if node is None:
            return None
        for n in walk(node, lambda n: True):
            if n.type == "field_expression" and self.ctx.text(n.child_by_field_name("field")) == self.word:
                return n
            if n.type == "identifier" and (self.ctx.text(n) == self.word or self.ctx.text(n) in self.names):
                return n
        return None


def _group_bound(ctx, loop: Node, var: str, wave: _WaveNames) -> Node | None:
    """The read of the device's warp size that bounds a lane-group loop nested in the sweep (its
    condition, or the range it walks), unless that bound also names the block size (the code then
    relates the two)."""
    body = loop.child_by_field_name("body")
    if body is None:
        return None
    for inner in walk(body, lambda n: True):
        if inner.type not in _LOOPS:
            continue
        bound = inner.child_by_field_name("right" if inner.type == "for_range_loop" else "condition")
        hit = wave.first(bound)
        if hit is not None and not any(n.type == "identifier" and ctx.text(n) == var
                                       for n in walk(bound, lambda n: True)):
            return hit
    return None


@register
class BlockSweepBy32(Rule):
    code, name = "WS024", "block-sweep-by-32"
    summary = "Block sizes swept from 32 in steps of 32 are paired with lane groups up to the device's warp size."
    docs = """\
An autotuner's candidates: `for (bs = 32; bs <= 1024; bs += 32)` and, inside, every group size up to
the device's warp size (`for (auto s : pow2_up_to(prop.warpSize))`, `while (s <= max_tpp)` with
`max_tpp = prop.warpSize`).  With 32-lane warps the largest group is 32 and fits every block.  A
64-lane wave reports 64: the pair (32, 64) puts a 64-lane group in a 32-thread block (a launcher
computing `N / (bs / s)` blocks divides by zero; a kernel reducing the group reads lanes that do
not exist), and 96, 160, ... hold a group and a half.

**Fix**: start and step the block sizes at the device's warp size
(`for (bs = prop.warpSize; bs <= max; bs += prop.warpSize)`).  A sweep whose inner loop bounds the
group by the block size too, or whose groups stop at a literal 32 (a logical group the code means),
stays silent; so does a sweep with no lane groups (an element-wise kernel's block sizes)."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
std::vector<unsigned> candidates(const cudaDeviceProp& prop) {
    std::vector<unsigned> params;
    for (unsigned block = 32; block <= 1024; block += 32) {  // !
        for (unsigned tpp = 1; tpp <= prop.warpSize; tpp *= 2)
            params.push_back(block * 10000 + tpp);
    }
    return params;
}"""),
        ex("""
void tune(const cudaDeviceProp& prop, std::vector<unsigned>& params) {
    const unsigned max_tpp = prop.warpSize;
    for (unsigned block = 32; block <= 1024; block = block + 32) {  // !
        unsigned s = 1;
        while (s <= max_tpp) { params.push_back(block * 10000 + s); s *= 2; }
    }
}"""),
    )
    passes = (
        ex("""
void tune(const cudaDeviceProp& prop, std::vector<unsigned>& params) {
    for (unsigned block = prop.warpSize; block <= 1024; block += prop.warpSize)
        for (unsigned tpp = 1; tpp <= prop.warpSize; tpp *= 2) params.push_back(block * 10000 + tpp);
}"""),
        ex("""
void tune(std::vector<unsigned>& params) {
    for (unsigned block = 32; block <= 1024; block += 32) params.push_back(block);
}"""),
        ex("""
void tune(std::vector<unsigned>& params) {
    for (unsigned block = 32; block <= 1024; block += 32)
        for (unsigned tpp = 1; tpp <= 32; tpp *= 2) params.push_back(block * 10000 + tpp);
}"""),
        ex("""
void tune(const cudaDeviceProp& prop, std::vector<unsigned>& params) {
    for (unsigned block = 32; block <= 1024; block += 32)
        for (unsigned tpp = 1; tpp <= prop.warpSize && tpp <= block; tpp *= 2) params.push_back(block * 10000 + tpp);
}"""),
    )

    def check(self, ctx) -> None:
        waves: dict[int, _WaveNames] = {}
        for loop in ctx.nodes("for_statement"):
            swept = _swept_by_32(ctx, loop)
            if swept is None or ctx.guarded(loop):
                continue
            scope = _enclosing(loop)
            wave = waves.setdefault(scope.start_byte, _WaveNames(ctx, scope))
            bound = _group_bound(ctx, loop, swept[0], wave)
            if bound is None:
                continue
            ctx.report(self, swept[1],
                       f"block sizes from 32 in steps of 32 (`{swept[0]}`) are paired with lane groups up to the "
                       f"device's warp size: {ctx.breaks}, a 32-thread block cannot hold a 64-lane group and 96, "
                       f"160, ... hold a group and a half; start and step the block sizes at the device's warp size",
                       related=(ctx.related(bound, "the lane groups reach the device's warp size here"),))
