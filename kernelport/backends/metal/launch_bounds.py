"""A kernel's `__launch_bounds__(N)` where the parse masked it.

`__launch_bounds__(N)` is a `launch_bounds` node of the kernel's definition, which signatures.py spells
as Metal's `[[max_total_threads_per_threadgroup(N)]]`.  Where the file's parse needed repair (an `#if`
opened before the kernel and closed at the end of the file: deepwave's simple_compress.cu), macro_repair
may mask the attribute as a macro and the kernel has no such node: the CUDA text stood in the port
before `kernel`.  The masked span is found here (a mask of CUDA's spelling with nothing but blanks
between it and the kernel), so the port drops it and writes Metal's attribute from its arguments.
"""
from __future__ import annotations

from ... import cexpr, dialect
from ...model import Function


def masked_launch_bounds(src, k: Function) -> tuple[int, int, str] | None:
    """(start, end, maxThreads text) of a masked `__launch_bounds__(...)` right before kernel k (the span
    runs to the kernel: the blanks after the attribute go with it)."""
    word = dialect.concept("launch_bounds").spelling("cuda").split("(")[0]
    head = k.template_node if k.template_node is not None else k.node
    for m in src.masks:
        if m.name != word or m.end > head.start_byte or src.data[m.end:head.start_byte].strip():
            continue
        text = src.data[m.start:m.end].decode("utf-8", "replace")
        open_at = text.find("(")
        if open_at < 0 or not text.rstrip().endswith(")"):
            return None
        args = [a.strip() for a, _ in cexpr.split_top_level(text[open_at + 1:text.rstrip().rfind(")")])]
        return (m.start, head.start_byte, args[0]) if args and args[0] else None  # (the blanks after it too)
    return None
