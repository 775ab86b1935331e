"""A macro body's warp operations judged where the body is expanded.

kernelport/macro_bodies.py ports a macro body as a function of its own: it sees the body's text and
the file's macros, but not the function that expands it.  A shuffle or a vote's port depends on that
function: the 32-thread groups it lays out (`sourceId = tid >> 5`, `laneId = threadIdx.x & 0x1f`) keep
a broadcast `__shfl_sync(m, v, 0)` 32 lanes wide, and the 32-bit word a ballot is stored in
(`uint32_t ballot` declared by the kernel) loses lanes 32-63.  aihwkit's `GET_COUNTS_INNER_LOOP`
(tests/labelled21) was ported as `__shfl(v, 0)` and `ballot = __ballot(...)`: at wave 64 lanes 32-63
read the other group's value and store the other group's bits.

So each function that expands a width-dependent body (directly, or through other function-like
macros' bodies) ports it once more in its own context: its signature, the declarations of its body and
of the macros between that the macro's body names (followed to what they name), then the body.  Where
every expansion ports the body alike and without a problem, that port is the body's (the function's
width decides it, as it does for code written in the function); where an expansion refuses it, the
refusal is the body's (located in the body, naming the function); where two expansions port it
differently, KP219: one text cannot be both."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import dialect, lazy_re
from .errors import Location
from .launchforms import _split_args
from .source import SourceFile

if TYPE_CHECKING:
    from .model import Function
    from .translate import Diagnostic, Translator

MARK, END = "/*__kp_macro_body__*/", "/*__kp_macro_body_end__*/"
_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
WIDTH_KINDS = frozenset({"shuffle", "vote"})  # the operations whose port depends on the expanding group's width
MAX_EXPANSIONS = 4  # functions tried per body: each is one more translation of a small text


@dataclass
class Contextual:
    """The body as the expanding functions port it: `body` where they agree without an error,
    `diagnostics` (mapped into the file) where one refuses it; neither where there is nothing to say."""
    body: str | None
    diagnostics: list["Diagnostic"]


def width_dependent(words: set[str]) -> bool:
    from .translate import SOURCE
    return any((c := dialect.lookup(SOURCE, w)) is not None and c.kind in WIDTH_KINDS for w in words)


def _params(tr: "Translator", node) -> list[str]:
    p = node.child_by_field_name("parameters")
    return _WORD.findall(tr.src.text_of(p)) if p is not None else []


def _function_macros(tr: "Translator") -> dict[str, tuple[object, str, list[str]]]:
    """name -> (definition node, body text, parameters) of the file's function-like macros."""
    out = {}
    for n in tr.src.index.of_type("preproc_function_def"):
        name, v = n.child_by_field_name("name"), n.child_by_field_name("value")
        if name is not None and v is not None:
            out[tr.src.text_of(name)] = (n, tr.src.text_of(v).replace("\\\n", " \n"), _params(tr, n))
    return out


def _mention(name: str) -> re.Pattern:
    return re.compile(rf"\b{re.escape(name)}\s*\(")


def _arguments(text: str, open_at: int) -> list[str] | None:
    """The arguments of a call whose `(` is at `open_at` (none for `()`)."""
    args = _split_args(text, open_at)
    return [] if args == [""] else args


def _substituted(pending: tuple[str, list[str]] | None, args: list[str] | None) -> list[str]:
    """A macro body's opening text with its parameters replaced by the arguments it is expanded with
    (`value = PROB[sourceId]` as `value = d_prob[sourceId]`: what the function reads is evidence)."""
    if pending is None:
        return []
    text, params = pending
    if args is not None and len(args) == len(params):
        for name, arg in zip(params, args):
            text = re.sub(rf"\b{re.escape(name)}\b", lambda _m, a=arg: a, text)
    return [text]


def expansions(tr: "Translator", name: str, macros, depth: int = 3) -> list[tuple["Function", list[str]]]:
    """The device functions of the file that expand the macro `name`, each with the texts of the macro
    bodies between, outermost first, each up to where it expands the next (`for (...) { ... INNER(p);`:
    the loop and the declarations the body runs in), their parameters replaced by their arguments."""
    out: list[tuple["Function", list[str]]] = []
    seen: set[str] = set()

    def walk(target: str, pending, inner: list[str], d: int) -> None:
        for n in tr.src.index.of_type("identifier"):
            if tr.src.text_of(n) != target:
                continue
            f = tr.module.function_at(n)
            if f is None or not f.is_device or f.name in seen or len(out) >= MAX_EXPANSIONS:
                continue
            call = n.parent
            a = call.child_by_field_name("arguments") if call is not None and call.type == "call_expression" else None
            args = _arguments(tr.src.text_of(a), 0) if a is not None else None
            seen.add(f.name)
            out.append((f, _substituted(pending, args) + inner))
        if d == 0:
            return
        pat = _mention(target)
        for other, (_, body, params) in macros.items():
            hit = pat.search(body) if other != target else None
            if hit is None or body[:hit.start()].count("(") != body[:hit.start()].count(")"):
                continue
            args = _arguments(body, hit.end() - 1)
            walk(other, (body[:hit.start()], params), _substituted(pending, args) + inner, d - 1)

    walk(name, None, [], depth)
    return out


def declarations_read(decls: list[str], words: set[str]) -> list[str]:
    """The declarations that name a word the body reads, and those their initializers read, in order."""
    wanted, keep = set(words), [False] * len(decls)
    changed = True
    while changed:
        changed = False
        for i, d in enumerate(decls):
            if keep[i]:
                continue
            head = d.split("=", 1)[0]
            declared = set(_WORD.findall(head)) - {"const", "unsigned", "int", "long", "short", "char", "volatile"}
            if declared & wanted:
                keep[i] = changed = True
                wanted |= set(_WORD.findall(d))
    return [d for d, k in zip(decls, keep) if k]


def _prefix(tr: "Translator", f: "Function", words: set[str], openers: list[str]) -> tuple[str, str]:
    """The text before the body where `f` expands it (its signature, the declarations of its body the
    expansion reads, the macro bodies between up to their expansion) and the text after (the braces
    those left open)."""
    start = (f.template_node or f.node).start_byte
    signature = tr.src.text[start:f.body.start_byte]
    read = set(words).union(*(set(_WORD.findall(o)) for o in openers))
    decls = declarations_read([tr.src.text_of(d) for d in tr.src.index.under(f.body, "declaration")], read)
    opened = sum(o.count("{") - o.count("}") for o in openers)
    before = signature + "{\n" + "".join(d.strip() + "\n" for d in decls) + "".join(o + "\n" for o in openers)
    return before + MARK + "\n", "\n" + END + "\n;" + "}" * max(opened, 0) + "\n}\n"


def _translate(tr: "Translator", text: str):
    from .macro_bodies import body_model
    from .translate import Translator
    sub = SourceFile.from_text(text, tr.src.path)
    if sub.syntax_errors():
        return None
    inner = Translator(sub, tr.backend, tr.allow_unported, module=body_model(tr, sub), **tr.options)
    inner.inherit_api_context(tr)
    return inner.run()


def _key(d: "Diagnostic") -> tuple[str, str]:
    return d.code, re.sub(r"\d+", "#", d.message)


def ported_in_context(tr: "Translator", name: str, joined: str, words: set[str], line: int) -> Contextual:
    """`joined` (the body of the macro `name`, its continuations made spaces) ported by each function
    that expands it; `line` is the body's first line in the file."""
    if not width_dependent(words):
        return Contextual(None, [])
    macros = _function_macros(tr)
    bodies: dict[str, str] = {}
    for f, openers in expansions(tr, name, macros):
        before, after = _prefix(tr, f, words, openers)
        port = _translate(tr, before + joined + after)
        empty = _translate(tr, before + after)
        if port is None or empty is None:
            continue
        at, end = port.body.find(MARK), port.body.find(END)
        if at < 0 or end < at:
            continue
        first = before.count("\n") + 1  # the body's first line in the contextual text
        known = {_key(d) for d in empty.diagnostics if d.severity == "error"}
        errors = [d for d in port.diagnostics if d.severity == "error" and _key(d) not in known]
        if errors:
            for d in errors:
                inside = d.location.line >= first
                d.location = Location(tr.src.path, line + d.location.line - first if inside else line,
                                      d.location.column if inside else 1)
                d.message = f"where `{f.name}` expands the macro `{name}`: {d.message}"
            return Contextual(None, errors)
        bodies[f.name] = port.body[at + len(MARK) + 1:end - 1]
    if len(set(bodies.values())) > 1:
        from .translate import Diagnostic
        f1, *rest = bodies
        f2 = next(g for g in rest if bodies[g] != bodies[f1])
        return Contextual(None, [Diagnostic(
            "KP219", Location(tr.src.path, line, 1),
            f"cannot decide the warp width of the macro `{name}`'s body: `{f1}` and `{f2}` expand it, and their "
            "groups port its warp operations differently (one 32 lanes wide, one the wave), which one text cannot be",
            "give the macro the width as a parameter, or expand it only in groups of one width "
            "(`// @kp warp-width 32` or `native` above the functions)")])
    return Contextual(next(iter(bodies.values()), None), [])
