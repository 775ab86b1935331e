"""Bounds on the thread index that fall on wave boundaries on every target (WS012).

FPcompress's double-precision sources pick their warp width per target:

    #if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
    #define WS 64
    #else
    #define WS 32
    #endif

so `if (threadIdx.x + WS >= TPB)` (TPB = 512: the last warp) selects whole waves on NVIDIA (32), on
a wave-32 AMD build and on CDNA (64): a full-mask warp operation there names only lanes that are
present.  A `WS` that is 32 on every target does NOT do that (`threadIdx.x + 32 >= 512` is half a
64-wide wave): only a width that follows the wave counts here, as `warpSize` does.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from .. import dialect, guards, headerconsts, lazy_re, warpflow

# `__AMDGCN_WAVEFRONT_SIZE == 64`, optionally behind `defined(__AMDGCN_WAVEFRONT_SIZE) &&`: its #else is
# every build whose wave is not 64 wide (NVIDIA, wave-32 AMD)
_WAVE64_TEST = lazy_re.compile(
    r"^(?:defined\s*\(?\s*(__AMDGCN_WAVEFRONT_SIZE(?:__)?)\s*\)?\s*&&\s*)?\(?\s*(__AMDGCN_WAVEFRONT_SIZE(?:__)?)"
    r"\s*\)?\s*==\s*64\s*\)?$")


def follows_wave(ctx, name: str) -> bool:
    """`name` is the wave width of every build it is compiled for: `warpSize`, a constant a file of the
    unit defines per platform as its wave (headerconsts.wave_widths), a macro the user lists as defined
    per architecture (`portable-macros`), or a macro this file defines as 64 where
    `__AMDGCN_WAVEFRONT_SIZE == 64` holds and as 32 in that test's #else (and nowhere else)."""
    if name == "warpSize" or name in ctx.settings.portable_macros:
        return True
    vis = getattr(ctx.unit, "visible", None)
    if name in getattr(vis, "wave_widths", ()) or name in headerconsts.wave_widths(ctx.src):
        return True
    if vis is not None and name in vis.macros:  # a header defines it too: its definitions are not read here
        return False
    if _defines_per_wave(ctx.src, name):
        return True
    return not any(_defs(ctx.src, name)) and Path(str(ctx.path)).suffix in _HEADERS and _includers_per_wave(ctx, name)


_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")


def _defs(src, name: str) -> list[Node]:
    return [d for d in src.index.of_type("preproc_def") if d.child_by_field_name("name") is not None
            and src.text_of(d.child_by_field_name("name")) == name]


def _defines_per_wave(src, name: str) -> bool:
    defs = _defs(src, name)
    return len(defs) >= 2 and all(_per_wave(src, d) for d in defs)


def _per_wave(src, d: Node) -> bool:
    """`#define NAME 64` inside `#if __AMDGCN_WAVEFRONT_SIZE == 64`, `#define NAME 32` in its #else."""
    val = d.child_by_field_name("value")
    v = warpflow.int_value(src.text_of(val).strip()) if val is not None else None
    bs = guards.branches(d, src)
    if v not in (32, 64) or not bs:
        return False
    b = bs[0]  # the innermost test decides the value; an outer one (an include guard) is every build's
    test = guards.test_node(b.test)
    if b.test.type not in ("preproc_if", "preproc_elif") or test is None:
        return False
    m = _WAVE64_TEST.match(" ".join(src.text_of(test).split()))
    if m is None or (m.group(1) is not None and m.group(1) != m.group(2)):
        return False
    return v == (32 if b.in_else else 64)


def _includers_per_wave(ctx, name: str) -> bool:
    """A header that uses `name` without defining it (FPcompress's d_RAZE.h, reached from
    ratio-compressor-double.cu through components/d_RAZE_8.h): every file at the top of its include
    chains (kernelport.lint.includervalues) defines `name` per wave itself, and no other file of that
    unit defines it."""
    from .includervalues import kinds
    from .units import project
    return kinds(project(), Path(str(ctx.path)), name) == {"wave"}


def whole_waves(ctx, cond: Node) -> bool:
    """`cond` compares `threadIdx.x` (plus or minus terms) with a bound where every term other than the
    thread index is a multiple of the wave on every target: a width that follows the wave, or a constant
    that is a multiple of 64 (`threadIdx.x + WS >= TPB`, `threadIdx.x < WS`): whole waves on either side."""
    n = cond
    while n is not None and n.type in ("condition_clause", "parenthesized_expression") and n.named_children:
        n = n.named_children[0]
    if n is None or n.type != "binary_expression" or \
            ctx.text(n.child_by_field_name("operator")) not in ("<", "<=", ">", ">="):
        return False
    terms: list[Node] = []
    for side in (n.child_by_field_name("left"), n.child_by_field_name("right")):
        if side is None or not _terms(ctx, side, terms):
            return False
    tids = [t for t in terms if _thread_x(ctx, t)]
    return len(tids) == 1 and all(_wave_multiple(ctx, t) for t in terms if t is not tids[0])


def _terms(ctx, n: Node, out: list[Node]) -> bool:
    while n.type == "parenthesized_expression" and len(n.named_children) == 1:
        n = n.named_children[0]
    if n.type == "binary_expression" and ctx.text(n.child_by_field_name("operator")) in ("+", "-"):
        return all(c is not None and _terms(ctx, c, out) for c in (n.child_by_field_name("left"),
                                                                    n.child_by_field_name("right")))
    if n.type in ("identifier", "number_literal", "field_expression"):
        out.append(n)
        return True
    return False


def _thread_x(ctx, n: Node) -> bool:
    if n.type == "identifier":  # `const int tid = threadIdx.x;` in the same function
        fn = n.parent
        while fn is not None and fn.type != "function_definition":
            fn = fn.parent
        decls = [d for d in (ctx.src.index.under(fn, "init_declarator") if fn is not None else ())
                 if ctx.text(d.child_by_field_name("declarator")) == ctx.text(n)]
        return len(decls) == 1 and decls[0].parent is not None and decls[0].parent.type == "declaration" and \
            any(c.type == "type_qualifier" and ctx.text(c) == "const" for c in decls[0].parent.children) and \
            decls[0].child_by_field_name("value") is not None and _thread_x(ctx, decls[0].child_by_field_name("value"))
    if n.type != "field_expression":
        return False
    base, field = n.child_by_field_name("argument"), n.child_by_field_name("field")
    c = dialect.lookup(ctx.lang, ctx.text(base)) if base is not None else None
    return c is not None and c.key == "thread_idx" and field is not None and ctx.text(field) == "x"


def _wave_multiple(ctx, n: Node) -> bool:
    t = ctx.text(n)
    if n.type == "identifier" and follows_wave(ctx, t):
        return True
    v = warpflow.int_value(t) if n.type == "number_literal" else _constant(ctx, t) if n.type == "identifier" else None
    return v is not None and v > 0 and v % 64 == 0


def _constant(ctx, name: str) -> int | None:
    """The value of a file-scope `const int NAME = literal;` of this file (FPcompress's TPB = 512)."""
    c = headerconsts.constants(ctx.src).get(name)
    return warpflow.int_value(c.value) if c is not None else None
