"""Where each token of a file stands, as the macro repair (kernelport/macro_repair.py) reads it: at file
scope, where declarations do (outside blocks, or in a namespace, an `extern "C"` or a class body), or in a
block, where statements do (a macro that defines a function is masked as one only at file scope)."""
from __future__ import annotations

from .macro_tokens import Tok


def file_scope_flags(toks: list[Tok]) -> list[bool]:
    """Per token of `toks` (kernelport.macro_tokens.file_tokens), whether it stands where declarations do:
    outside blocks, or in a namespace, `extern "C"` or class body."""
    out, stack, toks, head = [], [], [Tok("punct", 0, 0, ";")] * 2 + toks, 2  # two before the first
    for i, t in enumerate(toks[2:], 2):
        out.append("block" not in stack)
        if t.kind == "punct" and t.text == "{":  # `extern "C" {`, `namespace {`, `namespace N {`
            body = (words := {k.text for k in toks[head:i]}) & {"struct", "class", "union"} and not words & {"enum", "(", "="}
            stack.append("scope" if body or toks[i - 1].kind == "string" or
                         "namespace" in (toks[i - 1].text, toks[i - 2].text) else "block")
        elif t.kind == "punct" and t.text == "}" and stack:
            stack.pop()
        head = i + 1 if t.kind == "punct" and t.text in ";{}" else head
    return out
