"""A lambda a device function defines and calls as a statement (llm.c's softmax_autoregressive_backward_kernel5:
`auto loop_step = [&](int t2) { ... result[k] -= p * att_at_t3[k]; ... };` then `loop_step(t2);` in two loops),
for the C99 parser: each call statement becomes a block that binds the arguments to fresh locals and runs the
body there, which is what the call does: a `[&]` capture names the enclosing variables themselves, as the
inlined body does, and a parameter passed by value is a copy.

Left as written (the parse then fails, located, as before) where inlining could mean something else: a capture
other than `[&]` or `[]` (a by-value capture is the value at the lambda's definition, not at the call), a
reference or `auto` parameter, a `return` in the body, a lambda named again other than in a call statement
(passed on, called inside an expression), or the name declared again.  Lines are kept: the definition becomes
blank lines, each call one line.
"""
from __future__ import annotations

import re

from .items import Item, balanced

# (a statement's start: after `;`, a brace, or a line's start, which may follow a line marker `# 508 "file"`)
_DEF = re.compile(r"(?:(?<=[;{}])|(?<=\n))(\s*)auto\s+([A-Za-z_]\w*)\s*=\s*\[\s*(&?)\s*\]\s*\(")
_PARAM = re.compile(r"\s*((?:const\s+)?(?:unsigned\s+|signed\s+)?[A-Za-z_]\w*(?:\s*\*)*)\s+([A-Za-z_]\w*)\s*")


def lower_lambdas(it: Item) -> None:
    """Inline each statement-called lambda of the item's text (in place)."""
    if it.kind not in ("kernel", "device") or "[" not in it.text:
        return
    pos = 0
    while (m := _DEF.search(it.text, pos)) is not None:
        pos = m.end()
        text, name = it.text, m.group(2)
        close = balanced(text, m.end() - 1)
        body_m = re.match(r"\s*(?:->\s*void\s*)?\{", text[close:])
        if body_m is None:
            continue
        open_b = close + body_m.end() - 1
        end_b = balanced(text, open_b, "{", "}")
        semi = re.match(r"\s*;", text[end_b:])
        params = [p for p in text[m.end():close - 1].split(",") if p.strip()]
        parsed = [_PARAM.fullmatch(p) for p in params]
        body = text[open_b + 1:end_b - 1]
        if semi is None or any(p is None or p.group(1).split()[-1] == "auto" for p in parsed) or \
                re.search(r"\breturn\b|\[\s*[&=]", body):
            continue
        rest_start = end_b + semi.end() - 1  # (from its `;`, an empty statement left: a call right after it follows a `;`)
        rest = text[rest_start:]
        calls = list(re.finditer(rf"(?:(?<=[;{{}})])|(?<=\n))(\s*){re.escape(name)}\s*\(", rest))
        if len(re.findall(rf"\b{re.escape(name)}\b", rest)) != len(calls) or \
                re.search(rf"\b{re.escape(name)}\b", body) or \
                (calls and _shadowed(body, {p.group(2) for p in parsed}, rest[:calls[-1].start()])):
            continue
        out, last, ok = [], 0, True
        for c in calls:
            cl = balanced(rest, c.end() - 1)
            tail = re.match(r"\s*;", rest[cl:])
            args = _split(rest[c.end():cl - 1])
            if tail is None or len(args) != len(parsed):
                ok = False
                break
            fresh = {p.group(2): f"__kp_{name}_{p.group(2)}" for p in parsed}
            inner = body
            for old, new in fresh.items():
                inner = re.sub(rf"(?<![\w.]){re.escape(old)}\b", new, inner)
            binds = "".join(f"{p.group(1)} {fresh[p.group(2)]} = ({a}); " for p, a in zip(parsed, args))
            out.append(rest[last:c.start()] + c.group(1) + "{ " + binds + " ".join(x for x in inner.split("\n") if not x.startswith("#")) + " }")
            last = cl + tail.end()
        if not ok:
            continue
        blank = "\n".join(x if x.startswith("#") else "" for x in text[m.start():rest_start].split("\n"))
        it.text = text[:m.start()] + m.group(1) + blank + "".join(out) + rest[last:]
        pos = m.start() + len(m.group(1)) + len(blank)


# a declaration of a name (`float s`, `int *p`, `for (int s = 0`, `float a = 1, s`) at a statement's start
_TYPE = (r"(?:(?:const|volatile|unsigned|signed|static|register|auto|struct|__shared__)\s+)*"
         r"(?!(?:return|else|case|goto|delete|throw|sizeof|new|typedef|do)\b)[A-Za-z_][\w:]*(?:\s*<[^;{}()]*>)?")


def _declares(text: str, name: str) -> re.Match | None:
    return re.search(rf"(?:^|[;{{}}(])\s*{_TYPE}(?:\s*[*&]+\s*|\s+)(?:[A-Za-z_]\w*\s*(?:\[[^\]]*\])*\s*"
                     rf"(?:=[^;,(){{}}]*)?,\s*[*&]*\s*)*{re.escape(name)}\s*(?:[=;,\[)]|\{{)", text, re.M)


def _shadowed(body: str, params: set[str], before: str) -> bool:
    """Whether a name the body reads from its definition's scope (a `[&]` capture, a file-scope variable) is
    declared again between the definition and a call (`float s = 0;` in the loop that calls it): the inlined
    body would name the call site's variable, the lambda names the one it captured.  A name whose first use
    in the body is the body's own declaration of it is the body's."""
    for n in set(re.findall(r"(?<![\w.>])[A-Za-z_]\w*", body)) - params:
        own = _declares(body, n)
        if own is not None and re.search(rf"(?<![\w.]){re.escape(n)}\b", body[:own.start()]) is None:
            continue
        if _declares(before, n) is not None:
            return True
    return False


def _split(inner: str) -> list[str]:
    out, level, cur = [], 0, ""
    for ch in inner:
        level += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and level == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])
