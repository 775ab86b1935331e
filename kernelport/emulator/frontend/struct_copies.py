"""A struct's copy construction `S(x)` (a Metal port's thread copy of device memory given to a `const S&`:
backends/metal/constant_refs.py), which C cannot spell: a function of the struct's own that takes it by
value and returns it, `__kp_copy_S(x)`, written on the struct's last line (no line moves), so the run
copies as Metal does.  Only a struct with no constructor of its own (an aggregate: its copy is member-wise)
and a call of one argument in an expression; a vector's `float4(v)` is the emulator's vector constructor
already (rewrite.py)."""
from __future__ import annotations

import re

from .items import Item, balanced
from .rewrite import top_comma

COPY = "__kp_copy_"
_USE = r"(?:(?<=[(,=+\-*/%&|^!~<>?:\[{;])|(?<=\breturn)|(?<=^))(\s*)NAME\s*\("


def copy_structs(items: list[Item], names: list[tuple[Item, str]]) -> None:
    """Give each aggregate struct of `names` ((its item, its name)) a copy function where an item
    constructs it from one value, and call it there."""
    for it, name in names:
        body = it.text.split("{", 1)[1] if "{" in it.text else ""
        if re.search(r"(?<![\w.>~])" + re.escape(name) + r"\s*\(", body):
            continue  # a constructor of its own: classdata.py builds it
        use = re.compile(_USE.replace("NAME", re.escape(name)), re.M)
        used = False
        for other in items:
            if other is it or other.kind not in ("kernel", "device", "plain") or name not in other.text:
                continue
            text, pos = other.text, 0
            while (m := use.search(text, pos)) is not None:
                end = balanced(text, m.end() - 1)
                inner = text[m.end():end - 1]
                if not inner.strip() or top_comma(inner):
                    pos = m.end()
                    continue
                new = f"{m.group(1)}{COPY}{name}("
                text = text[:m.start()] + new + text[m.end():]
                pos = m.start() + len(new)
                used = True
            other.text = text
        if used:
            it.text = it.text.rstrip() + f" static {name} {COPY}{name}({name} __kp_v) {{ return __kp_v; }}"

