"""Tests of the wave's lane in code that works in 32-lane segments (WS021).

GPUPrefixSums (heldout60) scans in segments of 32 lanes, each shuffle at the width 32, and gates each
step with the hardware lane its helper reads from PTX:

    __device__ uint32_t getLaneId() { uint32_t l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);   // LANE_COUNT 32
        if (getLaneId() >= i) val += t;
    }

On NVIDIA the segment is the warp and both lanes agree.  On a 64-lane wave the second segment's
lanes are 32-63: `__shfl_up` at width 32 hands lane 32 its own value (the segment's first lane), but
`getLaneId() >= i` holds there, so it adds it to itself.  Any order or equality test of the wave's lane
against a value not built from the wave width (a step, a leader's 0, a share) decides lanes 32-63 as
if they were past the segment's end.

The lane is the wave's where it is a call of a device helper whose body reads PTX `%laneid`, takes
`threadIdx.x % warpSize` or the lane-id built-in (kernelport.laneslots.lane_pattern), and returns a
value (not `bool`, not `void`); or such an expression written in the test; or a local set from either.
The code works in segments of 32 (or fewer) lanes where every shuffle of the function that passes a width
passes one literal width of at most 32 (a number or an object-like macro of one), and two segments may
share a wave: not every kernel of the file that runs the function is launched in the run with blocks
known to be at most 32 threads (kernelport.blocksizes).  A shuffle's source lane
(`__shfl_sync(m, v, getLaneId() + 1, 32)`) is taken modulo the width and stays silent, as do tests of
the segment's lane (`threadIdx.x & 31`) and tests against the wave width (`lane < warpSize`).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import lazy_re
from ..blocksizes import launch_block_sizes
from ..laneslots import lane_pattern
from ..warpsites import WARP_SIZE_NAME, int_value

_TESTS = ("<", "<=", ">", ">=", "==", "!=")
_LANEID = lazy_re.compile(r"\basm\b[^;]*%%?laneid\b")
_NO_VALUE = lazy_re.compile(r"^\s*(?:static\s+|inline\s+|__forceinline__\s+|__device__\s+|__host__\s+)*"
                            r"(?:void|bool)\b")


def reads_laneid(text: str) -> bool:
    """Whether device code `text` reads the PTX lane register in an asm statement."""
    return _LANEID.search(text) is not None


def lane_helpers(ctx) -> dict[str, Node]:
    """Device functions of the file that return the wave's lane (`%laneid`, `tid % warpSize`, the built-in):
    name -> where the body reads it (the asm statement, the expression)."""
    out = {}
    for f in ctx.module.functions.values():
        if f.body is None or not f.is_device or f.is_kernel:
            continue
        head = ctx.src.text_of(f.node)[: f.body.start_byte - f.node.start_byte]
        if _NO_VALUE.search(head):
            continue
        read = _lane_read(ctx, f.body)
        if read is not None:
            out[f.name] = read
    return out


def _lane_read(ctx, body: Node) -> Node | None:
    """The first statement of `body` that reads PTX `%laneid`, else its first `x % warpSize` (or
    `x & (warpSize - 1)`, the lane-id built-in) expression."""
    for st in ctx.src.index.under(body, "expression_statement"):
        if reads_laneid(ctx.text(st)):
            return st
    for n in ctx.src.index.under_types(body, "binary_expression", "call_expression"):
        if lane_pattern().search(ctx.text(n)) and (n.type == "call_expression" or _mod_of_thread(ctx, n)):
            return n
    return None


def wave_lane_tests(ctx) -> dict[tuple[int, int], tuple[Node, list[Node], str, int]]:
    """Where the wave's lane is read (a helper's asm or `% warpSize`, or the test's own expression) ->
    (that node, the order or equality tests of it, the first function's name, the segment width), for the
    tests in functions that work in segments of at most 32 lanes sharing a wave.  The read is what a port
    rewrites (the lane of the segment); the tests are where the lanes past 31 go wrong."""
    helpers = lane_helpers(ctx)
    out: dict[tuple[int, int], tuple[Node, list[Node], str, int]] = {}
    reach: dict = {}  # kernel -> the functions it runs (_confined's, made once for the file)
    for f in ctx.module.functions.values():
        if f.body is None:
            continue
        fk = ctx.key(f)
        w = segment_width(ctx, f)
        if w is None:
            continue
        if _confined(ctx, fk, reach):
            continue  # every launch's block is at most 32 threads: the segment is the whole wave
        lanes = _lane_locals(ctx, f.body, helpers)
        for b in ctx.src.index.under(f.body, "binary_expression"):
            op = b.child_by_field_name("operator")
            if op is None or ctx.text(op) not in _TESTS:
                continue
            left, right = b.child_by_field_name("left"), b.child_by_field_name("right")
            if left is None or right is None:
                continue
            sides = [(r, o) for s, o in ((left, right), (right, left))
                     if (r := _wave_lane(ctx, s, helpers, lanes)) is not None]
            if len(sides) != 1 or _wave_sized(ctx, sides[0][1]) or ctx.guarded(b):
                continue
            read = sides[0][0]
            key = (read.start_byte, read.end_byte)
            if key not in out:
                out[key] = (read, [], f.name, w)
            out[key][1].append(b)
    return out


def _confined(ctx, fk: str | None, reach: dict) -> bool:
    """Every kernel of the file that runs `fk` (itself or through its calls) is launched in the run, and
    every launch's block is known to be at most 32 threads (`reach`: each kernel's functions, filled here)."""
    if not reach:
        calls = ctx.analysis.calls
        for f in ctx.module.functions.values():
            if not f.is_kernel or f.body is None:
                continue
            seen, todo = set(), [ctx.key(f)]
            while todo:
                k = todo.pop()
                if k in seen:
                    continue
                seen.add(k)
                todo.extend(calls.get(k, ()))
            reach[id(f)] = (f, seen)
    kernels = [f for f, seen in reach.values() if fk in seen]
    if not kernels:
        return False
    for k in kernels:
        launches = ctx.launches_of(k)
        if not launches:
            return False
        for la in launches:
            sizes = launch_block_sizes(ctx.module, la)
            if not sizes or any(n > 32 for n, _ in sizes):
                return False
    return True


def segment_width(ctx, f) -> int | None:
    """The width of the function's shuffles where every one that passes a width passes the same literal
    width of at most 32 (a number, or an object-like macro of one: `LANE_COUNT`); None where none does, one
    passes a variable, or the widths differ."""
    got = set()
    for call, _name in ctx.calls(f.body):
        found = ctx.concept_of_call(call)
        if found is None or found[0].kind != "shuffle":
            continue
        width = found[2].get("width")
        if width is None:
            continue  # at the default width: the wave's own shuffle (WS018 judges it)
        t = ctx.text(width).strip()
        v = int_value(t) if width.type == "number_literal" else None
        if v is None and width.type == "identifier":
            m = ctx._macro_values.get(t)
            v = int_value(m.strip()) if m is not None else None
        if v is None or not 0 < v <= 32:
            return None
        got.add(v)
    return got.pop() if len(got) == 1 else None


def _lane_locals(ctx, body: Node, helpers: dict[str, Node]) -> dict[str, Node]:
    out: dict[str, Node] = {}
    for n in ctx.src.index.under(body, "init_declarator"):
        v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
        if v is not None and d is not None and d.type == "identifier" and \
                (read := _wave_lane(ctx, v, helpers, out)) is not None:
            out[ctx.text(d)] = read
    return out


def _wave_lane(ctx, e: Node, helpers: dict[str, Node], lanes: dict[str, Node]) -> Node | None:
    """Where the wave's lane that `e` is was read, else None."""
    e = _bare(e)
    if e.type == "identifier":
        return lanes.get(ctx.text(e))
    if e.type == "call_expression":
        fn = e.child_by_field_name("function")
        args = e.child_by_field_name("arguments")
        if fn is not None and fn.type == "identifier" and ctx.text(fn) in helpers and \
                (args is None or not args.named_children):
            return helpers[ctx.text(fn)]
        return None
    if e.type == "binary_expression" and _mod_of_thread(ctx, e) and lane_pattern().search(ctx.text(e)):
        return e
    return None


def _mod_of_thread(ctx, e: Node) -> bool:
    """`threadIdx.x % warpSize` / `threadIdx.x & (warpSize - 1)` as the whole expression."""
    op = e.child_by_field_name("operator")
    left = e.child_by_field_name("left")
    return op is not None and ctx.text(op) in ("%", "&") and left is not None and "threadIdx" in ctx.text(left)


def _wave_sized(ctx, e: Node) -> bool:
    """The other side is built from the wave width (`warpSize`, a warp-size name): no segment's bound."""
    t = ctx.text(e)
    return "warpSize" in t or any(WARP_SIZE_NAME.search(i) for i in ctx.src.texts_under(e, "identifier"))  # (e's own too)


def _bare(n: Node) -> Node:
    """`n` without the parentheses and casts around it."""
    while True:
        if n.type == "parenthesized_expression" and n.named_children:
            n = n.named_children[0]
        elif n.type == "cast_expression" and n.child_by_field_name("value") is not None:
            n = n.child_by_field_name("value")
        else:
            return n
