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
from . import macroscopes
from .finding import Finding

PREFIX = "__kp_macro_body_"
_WARP_CALL = lazy_re.compile(r"\b__(?:shfl\w*|ballot\w*|any_sync|all_sync|activemask|match_(?:any|all)\w*|"
                        r"reduce_\w+_sync|syncwarp)\s*\(")
_LINE_COMMENT = lazy_re.compile(r"//[^\n]*")
_VOTE = lazy_re.compile(r"\b__(?:ballot|any|all|match_(?:any|all))\w*\s*\(")


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


def _header(ctx, name: str, names: list[str], body: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The probe function's header, on one line: the macro's parameters as `auto`, then what its
    first expansion site has in scope that the body reads (macroscopes.py), the body in a block of
    its own (it may declare a name again); and each copied piece as (where it starts in the header,
    its byte in the file, its text)."""
    clause, params, decls = macroscopes.scope(ctx, name, body, names)
    head = f"{clause}__device__ void {PREFIX}{name}(" + ", ".join("auto " + n for n in names)
    copied = []
    for byte, text in params:
        head += ", " if names or copied else ""
        copied.append((len(head), byte, text))
        head += text
    head += ") { "
    for byte, text in decls:
        copied.append((len(head), byte, text))
        head += text + " "
    return head + "{ ", copied


def _copied_at(ctx, span, col: int, end: int) -> tuple[int, int, int] | None:
    """(line, column, end column) in the file of a header column inside a copied piece."""
    offset = col - 1 - span[4]
    for at, byte, text in span[5]:
        if at <= offset < at + len(text):
            line, c = ctx.position(byte + len(text[:offset - at].encode()))
            stop = min(end - 1 - span[4] - at, len(text))
            line2, c2 = ctx.position(byte + len(text[:max(stop, offset - at + 1)].encode()))
            return line, c, c2 if line2 == line else c + 1
    return None


def probe(ctx) -> tuple[str, list[tuple]] | None:
    """The file's text with each macro to lint written as a device function, and for each: (first
    line, last line, how many characters the header grew on a first line the body starts on, the
    header's last column, the `#define`'s indentation, the pieces copied into the header)."""
    data = ctx.src.data
    pieces, spans, at = [], [], 0
    for d, start, value, names in _regions(ctx):
        name = ctx.text(d.child_by_field_name("name"))
        old = data[d.start_byte:start].decode("utf-8", "replace")
        body = value.end_byte
        text = data[start:body].decode("utf-8", "replace")
        header, copied = _header(ctx, name, names, text)
        text = _LINE_COMMENT.sub(lambda m: " " * len(m.group(0)), text)  # `;}` below must not be commented out
        text = text.replace("\\\r\n", "  \r\n").replace("\\\n", " \n")  # continuations: same lines
        breaks = old.count("\n")  # `#define F(x) \` with the body on the lines below
        pieces.append(data[at:d.start_byte].decode("utf-8", "replace"))
        pieces.append(header + "\n" * breaks + text + " ;}}")  # on the body's last line: lines keep their numbers
        at = body
        first = ctx.src.location(d.start_byte).line
        last = ctx.src.location(max(body - 1, d.start_byte)).line
        indent = ctx.src.location(d.start_byte).column - 1
        if _VOTE.search(text):  # a 32-lane group's ballot word: translate's halfvotes may keep it (open: README)
            copied = []
        spans.append((first, last, 0 if breaks else len(header) - len(old), indent + len(header), indent, copied))
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
            if col <= span[3]:  # on the header the probe wrote: at the declaration it copied, if any
                at = _copied_at(ctx, span, col, f.end_column if f.end_line == f.line else col + 1)
                if at is not None:
                    out.append(replace(f, line=at[0], column=at[1], end_line=at[0], end_column=at[2],
                                       fix=None, related=(), span=None))
                continue
            col -= span[2]
        end = f.end_column - span[2] if f.end_line == f.line and line == span[0] else f.end_column
        out.append(replace(f, column=col, end_column=max(end, col + 1),
                           fix=None, related=(), span=None))
    return out
