"""Warp-size hazards written in the replacement list of a function-like macro.

The rules read code, and a macro's use (`WARP_REDUCE(v)`) is a call to them, not its expansion:
a shuffle ladder, a ballot kept in 32 bits or a `__popc` of it written once in a `#define` and
expanded by every kernel of the file was invisible (only WS007's masks were read there, by
macromasks.py).  So each function-like macro whose body calls a warp intrinsic is linted as the
body of a device function of its own (`auto` parameters), in a copy of the file where its
`#define` line becomes that function's header: the file's other declarations, macros and kernels
stay what they are, every line keeps its number, and a finding on a body line is reported there,
once, whatever number of kernels expand it.

Not linted: a macro under a branch the AMD build does not take, a variadic one, a body that does
not parse as statements (a fragment such as `#define BEGIN for (...) {`), and WS007 (macromasks.py
reports its masks with the macro's own advice).  Only the WS rules' findings are kept.
"""
from __future__ import annotations

from dataclasses import replace

from .. import backends, lazy_re
from .finding import Finding

PREFIX = "__kp_macro_body_"
_WARP_CALL = lazy_re.compile(r"\b__(?:shfl\w*|ballot\w*|any_sync|all_sync|activemask|match_(?:any|all)\w*|"
                        r"reduce_\w+_sync|syncwarp)\s*\(")
_LINE_COMMENT = lazy_re.compile(r"//[^\n]*")


def _regions(ctx):
    """(directive node, header end byte, value node, parameter names) of each macro to lint."""
    for d in ctx.nodes("preproc_function_def"):
        value, params = d.child_by_field_name("value"), d.child_by_field_name("parameters")
        if value is None or params is None or ctx.guarded(d) or not _WARP_CALL.search(ctx.text(value)):
            continue
        names = [ctx.text(p) for p in params.named_children]
        if any(n == "..." or not n.isidentifier() for n in names) or "..." in ctx.text(params):
            continue
        yield d, value.start_byte, value, names


def probe(ctx) -> tuple[str, list[tuple[int, int, int, int]]] | None:
    """The file's text with each macro to lint written as a device function, and for each: (first
    line, last line, how many characters the header grew on a first line the body starts on, the
    header's length)."""
    data = ctx.src.data
    pieces, spans, at = [], [], 0
    for d, start, value, names in _regions(ctx):
        name = ctx.text(d.child_by_field_name("name"))
        old = data[d.start_byte:start].decode("utf-8", "replace")
        header = f"__device__ void {PREFIX}{name}({', '.join('auto ' + n for n in names)}) {{ "
        body = value.end_byte
        text = data[start:body].decode("utf-8", "replace")
        text = _LINE_COMMENT.sub(lambda m: " " * len(m.group(0)), text)  # `;}` below must not be commented out
        text = text.replace("\\\r\n", "  \r\n").replace("\\\n", " \n")  # continuations: same lines
        breaks = old.count("\n")  # `#define F(x) \` with the body on the lines below
        pieces.append(data[at:d.start_byte].decode("utf-8", "replace"))
        pieces.append(header + "\n" * breaks + text + " ;}")  # on the body's last line: lines keep their numbers
        at = body
        first = ctx.src.location(d.start_byte).line
        last = ctx.src.location(max(body - 1, d.start_byte)).line
        spans.append((first, last, 0 if breaks else len(header) - len(old), len(header)))
    if not spans:
        return None
    pieces.append(data[at:].decode("utf-8", "replace"))
    return "".join(pieces), spans


def findings(ctx, lint_unit, settings) -> list[Finding]:
    """The WS findings on the body lines of the file's warp macros, at their lines in the file."""
    unit = ctx.unit
    if unit.locate is not None or not unit.fixable or unit.lang != backends.source().name or PREFIX in unit.text:
        return []
    made = probe(ctx)
    if made is None:
        return []
    text, spans = made
    found = lint_unit(replace(unit, text=text, parsed=None, fixable=False), settings)
    broken = {f.line for f in found if f.code == "KP001"}
    out = []
    for f in found:
        line = f.line
        span = next((s for s in spans if s[0] <= line <= s[1]), None)
        if span is None or not f.code.startswith("WS") or f.code == "WS007":
            continue
        if any(span[0] <= b <= span[1] for b in broken):  # a fragment, not statements: not read
            continue
        col = f.column
        if line == span[0]:
            if col <= span[3]:
                continue  # on the header the probe wrote
            col -= span[2]
        end = f.end_column - span[2] if f.end_line == f.line and line == span[0] else f.end_column
        out.append(replace(f, column=col, end_column=max(end, col + 1),
                           fix=None, related=(), span=None))
    return out
