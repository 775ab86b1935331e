"""What a macro body reads from the function that expands it, for macrobodies.py's probe.

A function-like macro's body is linted as a function of its own, so the locals it reads from the
kernel that expands it (`lane`, `src`, a `constexpr int WARP = 32` bounding its ladder) were
unknown names there: a ladder bounded by the kernel's 32 or a broadcast from a `threadIdx.x & 31`
lane went unreported, although the same lines written in the kernel are reported.  So the probe
opens with the declarations the first expansion site has in scope (the expanding function's
parameters and the declarations of the blocks around the site, before it) that the body reads,
followed to what their initializers read (kernelport/macro_contexts.py's closure, translate's
reading of the same bodies).  They are written on the `#define` line, each a piece whose findings
are reported at the declaration in the kernel.  An expansion through other macros' bodies counts
where a function expands the outer macro; a macro no device function expands keeps the bare probe.
"""
from __future__ import annotations

import re

from .. import lazy_re

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
_LINE_COMMENT = lazy_re.compile(r"//[^\n]*")
DEPTH = 3  # macros between a function and the body, as macro_contexts.expansions follows them


def _flat(text: str) -> str:
    """One line, every character where it was (comments to spaces, line breaks to spaces)."""
    text = _LINE_COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    return text.replace("\\\r\n", "   ").replace("\\\n", "  ").replace("\r", " ").replace("\n", " ")


def _site(ctx, name: str, depth: int = DEPTH):
    """(function, byte) of the first device function expanding the macro `name`, directly or through
    the bodies of other function-like macros.  Read in the file's text: a use written as a statement
    without its `;` is blanked in the parsed text."""
    pat = re.compile(rb"\b" + re.escape(name.encode()) + rb"\s*\(")
    directives = [(d.start_byte, d.end_byte) for d in ctx.nodes("preproc_function_def", "preproc_def")]
    root = ctx.src.tree.root_node
    for m in pat.finditer(ctx.src.data):
        b = m.start()
        if any(lo <= b < hi for lo, hi in directives):
            continue
        f = ctx.function_at(root.descendant_for_byte_range(b, b))
        if f is not None and f.is_device and f.body.start_byte < b:
            return f, b
    if depth == 0:
        return None
    for d in ctx.nodes("preproc_function_def"):
        outer, value = d.child_by_field_name("name"), d.child_by_field_name("value")
        if outer is None or value is None or ctx.text(outer) == name or not re.search(
                rf"\b{re.escape(name)}\s*\(", ctx.text(value)):
            continue
        hit = _site(ctx, ctx.text(outer), depth - 1)
        if hit is not None:
            return hit
    return None


def _in_scope(node, site: int, body) -> bool:
    """A declaration of a block around the site, ended before it (a `for` init that closed is not)."""
    p = node.parent
    return node.end_byte <= site and p is not None and p.type == "compound_statement" and \
        p.start_byte <= site < p.end_byte and body.start_byte <= p.start_byte


def _parameters(f):
    d = f.node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    p = d.child_by_field_name("parameters") if d is not None else None
    return p.named_children if p is not None else []


def scope(ctx, name: str, body_text: str, params: list[str]):
    """(template clause, parameters, declarations) of the first expansion site of the macro `name`
    that its body reads: the clause as text for the probe's header, each parameter and declaration
    as (its byte in the file, its text on one line).  Empty where no function expands it."""
    from ..macro_contexts import declarations_read  # lazily: translate's module
    hit = _site(ctx, name)
    if hit is None:
        return "", "", []
    f, call = hit
    own = set(params)
    words = set(_WORD.findall(body_text)) - own
    nodes = [d for d in ctx.src.index.under(f.body, "declaration") if _in_scope(d, call, f.body)]
    texts = [ctx.text(d) for d in nodes]
    kept = set(declarations_read(texts, words))
    decls = []
    read = set(words)
    for d, t in zip(nodes, texts):
        if t in kept and not own & set(_WORD.findall(t.split("=", 1)[0])):
            decls.append((d.start_byte, _flat(t)))
            read |= set(_WORD.findall(t))
    extra = []
    for p in _parameters(f):
        names = set(_WORD.findall(ctx.text(p)))
        if p.type.endswith("parameter_declaration") and names & read and not names & own:
            extra.append((p.start_byte, _flat(ctx.text(p))))
    clause = ""
    if f.template_node is not None and set(f.template_params) & read:
        tp = f.template_node.child_by_field_name("parameters")
        clause = "template " + _flat(ctx.text(tp)) + " " if tp is not None else ""
    return clause, extra, decls
