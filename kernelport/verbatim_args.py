"""The arguments of a macro use that the macro's body spells, not reads: stringified (`#T`) or pasted (`f##_##T`).

masked_types renames a type concept inside a macro use the parse saw as blanks (`INSTANTIATE(f, __nv_bfloat16)`
-> `hip_bfloat16`), which is what renaming the same type in parsed code does where the body uses the argument
as a token.  Where the body stringifies it (`#T`: a kernel's registered name, a log line) or pastes it into an
identifier (`k_##T`: the symbol another file, another macro use or the host code names), the renamed argument
makes another string or another name: `k___nv_bfloat16` declared by the CUDA build is `k_hip_bfloat16` in
the port while a use elsewhere still spells the CUDA name ("use of undeclared identifier").  Such an argument
is left as written (the preprocessor pastes and quotes it before any type is looked up).  A parameter passed
on, whole, to another function-like macro that stringifies or pastes it is read the same way (at most four
macros deep, each macro read once a file).  A parameter the body also reads as a token (`template void f<T>(T*); void k_##T(T*)`) is
renamed as before: its type must be the target's, and its pasted names follow the port's spelling, so the
file's other uses of such a name are respelled with it (`BOTH(__nv_bfloat16)` declares `kk_hip_bfloat16`: the
launch `kk___nv_bfloat16<<<...>>>` becomes `kk_hip_bfloat16<<<...>>>`; `pasted_renames`, masked_types).
"""
from __future__ import annotations

import re
from typing import Mapping

_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def arg_spans(text: str, open_at: int) -> list[tuple[int, int]] | None:
    """The [start, end) spans of the top-level arguments of the call whose `(` is at `open_at` (None where it
    does not close); a literal's commas and brackets are no argument's."""
    spans, depth, start = [], 0, open_at + 1
    i = open_at
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, i))
                return spans
        elif ch == "," and depth == 1:
            spans.append((start, i))
            start = i + 1
        elif ch in "\"'":  # a literal: its commas and parentheses are no argument's
            m = re.compile(rf"{ch}(?:\\.|[^{ch}\\\n])*{ch}").match(text, i)
            i = m.end() - 1 if m else i
        i += 1
    return None


def spelled_params(name: str, macros: Mapping, memo: dict | None = None) -> frozenset[int]:
    """The positions of `name`'s parameters whose arguments its body only stringifies or pastes, never reads
    as tokens (a variadic parameter's position stands for every argument from it on).  `memo`: `_uses`'
    answers by name, for one set of macros."""
    return frozenset(i for i, kinds in enumerate(_uses(name, macros, 0, {} if memo is None else memo))
                     if kinds == {"spelled"})


def _uses(name: str, macros: Mapping, depth: int, memo: dict) -> list[set[str]]:
    """How `name`'s body uses each parameter: "spelled" (`#p`, `p ## x`), "token" (anything else)."""
    if name in memo:
        return memo[name]
    m = macros.get(name)
    if m is None or m.params is None or depth > 4:
        return []
    memo[name] = []  # (a macro that reaches itself: what it is deciding reads as unknown)
    memo[name] = got = _read_uses(name, m, macros, depth, memo)
    return got


def _read_uses(name: str, m, macros: Mapping, depth: int, memo: dict) -> list[set[str]]:
    params = ["__VA_ARGS__" if p == "..." else p for p in m.params]
    body = m.body
    out: list[set[str]] = [set() for _ in params]
    passed: list[tuple[int, int]] = []  # the spans of whole arguments given to another macro: judged there
    for c in _CALL.finditer(body):  # `INST(name, T) INST_IMPL(name, T)`: what the called macro does with T
        if c.group(1) == name or macros.get(c.group(1)) is None or macros[c.group(1)].params is None:
            continue
        inner, callee = _uses(c.group(1), macros, depth + 1, memo), macros[c.group(1)].params
        for k, (s, e) in enumerate(arg_spans(body, c.end() - 1) or ()):
            arg = body[s:e].strip()
            j = k if k < len(callee) else (len(callee) - 1 if callee[-1:] == ("...",) else None)
            if arg in params and j is not None and j < len(inner):
                out[params.index(arg)] |= inner[j] or {"token"}
                passed.append((s, e))
    for i, p in enumerate(params):
        for w in re.finditer(rf"\b{re.escape(p)}\b", body):
            if any(s <= w.start() < e for s, e in passed):
                continue
            before, after = body[:w.start()].rstrip(), body[w.end():].lstrip()
            out[i].add("spelled" if before.endswith("#") or after.startswith("##") else "token")
    return out


_SKIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|^[ \t]*#[^\n]*(?:\\\n[^\n]*)*', re.S | re.M)


def file_spans(src) -> list[tuple[int, int]]:
    """The byte spans of the arguments the file's macro uses give to parameters their macro spells (outside
    comments, literals and directives: a `#define` body's uses are of its own parameters), once per file."""
    got = src.__dict__.get("_kp_verbatim")
    if got is not None:
        return got
    macros = src.macros
    memo: dict = {}
    spelled_of = {n: got for n, m in macros.items() if m.params and (got := spelled_params(n, macros, memo))}
    names = sorted(spelled_of)
    out: list[tuple[int, int]] = []
    if names and any(n.encode() in src.data for n in names):
        text = src.data.decode("latin-1")  # (one character a byte: the spans are the nodes' byte offsets)
        blank = _SKIP.sub(lambda m: " " * len(m.group()), text)
        rx = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\s*\(")
        for c in rx.finditer(blank):
            spelled = spelled_of[c.group(1)]
            params = macros[c.group(1)].params
            variadic = params[-1:] == ("...",)
            for k, span in enumerate(arg_spans(blank, c.end() - 1) or ()):
                if k in spelled or variadic and k >= len(params) - 1 and len(params) - 1 in spelled:
                    out.append(span)
    src.__dict__["_kp_verbatim"] = out
    return out


def inside(src, start: int) -> bool:
    """Byte `start` of `src` is in an argument its macro stringifies or pastes."""
    return any(a <= start < b for a, b in file_spans(src))


_CHAIN = re.compile(r"\w+(?:\s*##\s*\w+)+")


def pasted_renames(src, mask, rename) -> dict[str, str]:
    """The identifiers the masked use `mask` of a function-like macro pastes from arguments the port renames
    (`kk_##T` of `BOTH(__nv_bfloat16)`, whose body also reads T as a type, so T is renamed): each pasted name as
    the CUDA build makes it -> as the port's build makes it (`kk___nv_bfloat16` -> `kk_hip_bfloat16`), which
    the file's other uses of that name must spell too.  `rename(word)`: the port's spelling of an argument
    word, None where kept; an argument the body only spells keeps its CUDA spelling (`spelled_params`)."""
    m = src.macros.get(mask.name)
    if m is None or not m.params:
        return {}
    text = src.data.decode("latin-1")
    at = text.find("(", mask.start)
    spans = arg_spans(text, at) if at >= 0 and text[mask.start:at].strip() == mask.name else None
    if not spans:
        return {}
    kept = spelled_params(mask.name, src.macros)
    args = {p: text[a:b].strip() for k, (p, (a, b)) in enumerate(zip(m.params, spans)) if p != "..."}
    new_of = {p: (None if k in kept else rename(a)) for k, (p, a) in enumerate(args.items())}
    out = {}
    for c in _CHAIN.finditer(m.body):
        toks = [t.strip() for t in c.group().split("##")]
        if not any(new_of.get(t) for t in toks):
            continue
        old = "".join(args.get(t, t) for t in toks)
        new = "".join((new_of.get(t) or args[t]) if t in args else t for t in toks)
        if re.fullmatch(r"[A-Za-z_]\w*", old) and re.fullmatch(r"[A-Za-z_]\w*", new) and old != new:
            out[old] = new
    return out
