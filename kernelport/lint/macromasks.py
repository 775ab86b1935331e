"""32-bit full masks in the replacement list of a function-like macro (WS007's second source).

The warp-size dataflow reads code, not a macro's replacement list before it is used, and a use
(`reduceMatrix(1);`) is a call to it, not its expansion.  A project that wraps its shuffle step in
a macro (Eigen's contraction kernel: `#define shuffleInc(i, j, mask) res(i, j) +=
__shfl_xor_sync(0xFFFFFFFF, res(i, j), mask)`, expanded through two more macros) hands every use
the 32-bit mask, and the port changes the `#define` line.  So the replacement list is parsed on its
own, as a statement of a probe function, and each `_sync` warp intrinsic of the source dialect
given a 32-bit all-ones mask there is a site, at its place in the `#define`.

Not a site: a macro under a branch the AMD build does not take (`ctx.guarded`), a mask the
project's HIP build drops (its own mapping of the intrinsic), a mask that is a parameter of the
macro (the uses pass it: what they pass is theirs), a 64-bit mask, and any constant that no `_sync`
intrinsic receives (`#define LOW(x) ((x) & 0xffffffff)`).
"""
from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from .. import backends, dialect, fullmask
from ..source import SourceFile, call_args

_PROBE = "void __kp_macro_mask_probe() { "


def _all_ones_32(text: str, objects: dict[str, str]) -> bool:
    """`0xffffffff`, `0xFFFFFFFFu`, `~0u`, `4294967295U`, `uint32_t(-1)`, `(unsigned)-1`, `UINT32_MAX`, or an
    object-like macro of the file whose value is one (`#define FULL 0xffffffff`); no `ll` suffix."""
    return fullmask.narrow_full(text, objects.get)


def all_ones_32_literal(text: str) -> bool:
    """A 32-bit all-ones literal: `0xFFFFFFFF`, `0xffffffffu`, `~0u`, `4294967295U` (no `ll` suffix)."""
    return fullmask.narrow_full(text)


def sites(ctx, dropped) -> Iterator[tuple[tuple[int, int], str, str, str]]:
    """((start, end) of the mask in the user's file, intrinsic, mask text, macro name) for each
    32-bit full mask a function-like macro's replacement list passes to a `_sync` intrinsic.
    `dropped(ctx, fn, mask)`: whether the project's HIP build drops that argument."""
    objects = None
    for d in ctx.nodes("preproc_function_def"):
        value, params = d.child_by_field_name("value"), d.child_by_field_name("parameters")
        if value is None or ctx.guarded(d) or "_sync" not in ctx.text(value):
            continue
        if objects is None:
            from ..macros import definitions  # (only where a macro passes a `_sync` call)
            objects = {n: m.body for n, m in definitions(ctx.src).items() if m.params is None}
        names = {ctx.text(p) for p in params.named_children} if params is not None else set()
        body = ctx.text(value).replace("\\\r\n", "   ").replace("\\\n", "  ")  # continuations: same bytes
        probe = SourceFile.from_text(_PROBE + body + "\n;\n}\n", ctx.path)  # (a `//` it ends with)
        base = value.start_byte - len(_PROBE.encode())
        for call in probe.index.of_type("call_expression"):
            fn_node = call.child_by_field_name("function")
            fn = probe.text_of(fn_node) if fn_node is not None else ""
            args = call_args(call)
            if not fn.endswith("_sync") or not args or dialect.lookup(backends.source().name, fn) is None:
                continue
            mask: Node = args[0]
            text = probe.text_of(mask)
            if text.strip() in names or not _all_ones_32(text, objects) or dropped(ctx, fn, mask):
                continue
            yield (base + mask.start_byte, base + mask.end_byte), fn, text, ctx.text(d.child_by_field_name("name"))
