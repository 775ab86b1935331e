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

import re
from dataclasses import replace

from .. import backends, lazy_re
from . import macroscopes
from .finding import Finding

PREFIX = "__kp_macro_body_"
_WARP_CALL = lazy_re.compile(r"\b__(?:shfl\w*|ballot\w*|any_sync|all_sync|activemask|match_(?:any|all)\w*|"
                        r"reduce_\w+_sync|syncwarp)\s*\(")
_LINE_COMMENT = lazy_re.compile(r"//[^\n]*")
# a replacement list that is a definition (`__global__ void NAME(const T* x) { ... }`, a template's too): the kernel
# every use defines, linted as the file's own definition (parameters used as names and types parse as such)
_DEFINITION = lazy_re.compile(r"\s*(template\s*<[^{;]*>\s*)?((static|inline|extern \"C\")\s+)*"
                              r"(__global__|__device__)\b[^{;]*\)\s*(__launch_bounds__\s*\([^)]*\)\s*)?\{")
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
    defining: list[str] = []  # the macros that define a function: their uses are blanked (_blank_uses)
    for d, start, value, names in _regions(ctx):
        name = ctx.text(d.child_by_field_name("name"))
        old = data[d.start_byte:start].decode("utf-8", "replace")
        body = value.end_byte
        text = data[start:body].decode("utf-8", "replace")
        definition = _DEFINITION.match(text) is not None and text.rstrip().endswith("}") and "#" not in text
        header, copied = ("", []) if definition else _header(ctx, name, names, text)
        text = _LINE_COMMENT.sub(lambda m: " " * len(m.group(0)), text)  # `;}` below must not be commented out
        text = text.replace("\\\r\n", "  \r\n").replace("\\\n", " \n")  # continuations: same lines
        breaks = old.count("\n")  # `#define F(x) \` with the body on the lines below
        pieces.append(data[at:d.start_byte].decode("utf-8", "replace"))
        if definition:  # a macro that defines a kernel (or a device function): the definition at file scope, in place
            header = " " * len(old.split("\n")[-1])  # (blanks up to where the body starts on its line)
            text, own = _own_name(text, names, len(defining))
            pieces.append("\n" * breaks + header + text)
            defining.append(name)
        else:
            pieces.append(header + "\n" * breaks + text + " ;}}")  # on the body's last line: lines keep their numbers
        at = body
        first = ctx.src.location(d.start_byte).line
        last = ctx.src.location(max(body - 1, d.start_byte)).line
        indent = ctx.src.location(d.start_byte).column - 1
        if _VOTE.search(text):  # a 32-lane group's ballot word: translate's halfvotes may keep it (open: README)
            copied = []
        if definition:  # (the header is blanks of the `#define`'s own length: columns unchanged, none copied)
            spans.append((first, last, 0, 0, indent, [], (own, f"the function `{name}` defines") if own else None))
            continue
        spans.append((first, last, 0 if breaks else len(header) - len(old), indent + len(header), indent, copied, None))
    if not spans:
        return None
    pieces.append(data[at:].decode("utf-8", "replace"))
    return _blank_uses("".join(pieces), defining), spans


def _own_name(text: str, names: list[str], i: int) -> tuple[str, str | None]:
    """A defining macro's body with the parameter that names its function spelled as a name of the same length
    that no other such macro gets (two macros' `NAME` would be one function twice); a name of one letter stays."""
    m = lazy_re.compile(r"(\w+)\s*\(").search(text[:text.index("{")])
    param = m.group(1) if m is not None and m.group(1) in names else None
    if param is None or len(param) < 2 or i >= 10 ** (len(param) - 1):
        return text, None
    own = "_" + str(i).rjust(len(param) - 1, "0")
    return re.sub(rf"\b{re.escape(param)}\b", own, text), own


def _blank_uses(text: str, defining: list[str]) -> str:
    """The text with each file-scope use of a defining macro (`DEFINE_SUM(sum_f, float)` on a line of its own)
    blanked, newlines kept: not a declaration the grammar reads, and the probe's definition stands for them."""
    for name in defining:
        out, at = [], 0
        for m in re.finditer(rf"(?m)^[ \t]*{re.escape(name)}\s*\(", text):
            depth, j = 0, m.end() - 1
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            if depth:
                continue
            while j < len(text) and text[j] in " \t;":
                j += 1
            out.append(text[at:m.start()])
            out.append("".join(c if c in "\r\n" else " " for c in text[m.start():j]))
            at = j
        text = "".join(out) + text[at:]
    return text


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
        message = f.message.replace(f"`{span[6][0]}`", span[6][1]) if span[6] else f.message
        out.append(replace(f, column=col, end_column=max(end, col + 1), message=message,
                           fix=None, related=(), span=None))
    return out
