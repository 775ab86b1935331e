"""C++ array-reference parameters (`void ldg(float (&dst)[N], const uint16_t* p)`): overloads told
apart by an array's element type and length, and template arguments deduced from them.

C has no array references, but an array parameter is a pointer to the caller's array, so writes
through it are seen by the caller as through a reference: the parameter is lowered to
`float dst[N]`.  What C cannot do is choose among `ldg(int (&)[1], ...)`, `ldg(int (&)[2], ...)`
and `template<int N> ldg(float (&)[N], ...)`, or deduce N: both are done here, per call, from the
declaration of the array the call passes (a local array, a parameter, a file-scope array), after
the caller's own template arguments are substituted.  Each definition of such a name is renamed
`name__kparK` and each call is pointed at the one it resolves to.  A template's type parameter
spelled as a scalar or pointer parameter's type (`const T* v`, `U& mu`) is deduced here too, from
the declared type of a variable passed; what no declaration says is left to the run (AUTO).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...cexpr import CExprError, evaluate, split_top_level
from .items import Item, balanced

AREF_SEP = "__kpar"
_AREF = re.compile(r"^(?P<type>.*?)\(\s*&\s*(?P<name>[A-Za-z_]\w*)\s*\)\s*\[(?P<size>.*)\]\s*$", re.S)
_QUALIFIERS = re.compile(r"\b(?:const|volatile|static|register|__restrict__|__restrict|_Thread_local|__shared__)\b")


def _norm_type(t: str) -> str:
    return " ".join(_address_spaces().sub(" ", _QUALIFIERS.sub(" ", t)).split())


_SPACES: list = []


def _address_spaces() -> re.Pattern:
    """The backends' address-space words (Metal's `const device T* p`): not part of a deduced type."""
    if not _SPACES:
        from ... import backends
        words = sorted({w for b in backends.names() for w in backends.get(b).lowering.address_spaces})
        _SPACES.append(re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b") if words else re.compile(r"(?!)"))
    return _SPACES[0]


def _raw_params(it: Item) -> list[str]:
    m = re.search(r"\b" + re.escape(it.name or "") + r"\s*\(", it.text)
    if m is None:
        return []
    return [p for p, _ in split_top_level(it.text[m.end(): balanced(it.text, m.end() - 1) - 1])]


def _params(it: Item) -> list[tuple[str, str, str] | None] | None:
    """Per parameter of a function item: (element type, name, length text) of an array reference,
    None for any other parameter; None when the head is not found."""
    m = re.search(r"\b" + re.escape(it.name or "") + r"\s*\(", it.text)
    if m is None:
        return None
    end = balanced(it.text, m.end() - 1)
    out: list[tuple[str, str, str] | None] = []
    for p, _ in split_top_level(it.text[m.end(): end - 1]):
        a = _AREF.match(p)
        out.append((_norm_type(a.group("type")), a.group("name"), a.group("size").strip()) if a else None)
    return out


def lower_array_ref_params(it: Item) -> None:
    """`float (&dst)[4]` in a function head becomes `float   dst [4]` (same length: columns stay)."""
    if not it.name or "{" not in it.text:
        return
    head, brace, body = it.text.partition("{")
    head = re.sub(r"\(\s*&\s*([A-Za-z_]\w*)\s*\)(?=\s*\[)",
                  lambda m: " " + m.group(1).ljust(len(m.group(0)) - 1), head)
    it.text = head + brace + body


@dataclass
class Candidate:
    """A definition an array-reference call may name, with its parameters."""
    key: str  # the definition's name after renaming
    item: Item
    params: list[tuple[str, str, str] | None]
    tparams: list[tuple[str, str, str | None]] | None  # None: not a template


def group(items: list[Item]) -> dict[str, list[Candidate]]:
    """Function names whose calls are resolved here: several definitions with an array reference
    among their parameters, or one template whose array reference's length or element type, or
    a scalar or pointer parameter's type, is a template parameter.  Definitions of a group of
    several are renamed `name__kparK`."""
    by_name: dict[str, list[Item]] = {}
    for it in items:
        if it.kind in ("device", "plain") and it.name:
            by_name.setdefault(it.name, []).append(it)
    out: dict[str, list[Candidate]] = {}
    for name, defs in by_name.items():
        params = [_params(d) for d in defs]
        if any(p is None for p in params):
            continue
        typed = len(defs) == 1 and _deduces_types(defs[0])
        specialized = len(defs) > 1 and any(d.tparams is not None for d in defs)  # `template<>` beside its primary
        if not typed and not specialized and not any(x for p in params for x in p):
            continue
        if len(defs) == 1:  # one template: resolved here when it deduces something
            tp = {pn for _, pn, _ in defs[0].tparams or []}
            if not typed and not any(x and set(re.findall(r"[A-Za-z_]\w*", x[0] + " " + x[2])) & tp
                                     for x in params[0]):
                continue
        cands = []
        for k, (d, p) in enumerate(zip(defs, params)):
            key = name if len(defs) == 1 else f"{name}{AREF_SEP}{k}"
            if key != name:
                d.text = re.sub(r"\b" + re.escape(name) + r"(\s*\()", key + r"\1", d.text, count=1)
                d.name = key
            cands.append(Candidate(key, d, p, d.tparams))
        out[name] = cands
    return out


def _split_type(p: str) -> tuple[str, int, str] | None:
    """(base type, pointer depth, name) of a scalar or pointer parameter `const T* __restrict__ x`."""
    m = re.fullmatch(r"\s*(?P<type>[A-Za-z_][\w\s]*?)\s*(?P<ptr>[\s*&]*(?:__restrict__|__restrict)?[\s*&]*)"
                     r"\b(?P<name>[A-Za-z_]\w*)\s*", p)
    if m is None:
        return None
    return _norm_type(m.group("type")), m.group("ptr").count("*"), m.group("name")


def _deduces_types(it: Item) -> bool:
    """A template whose type parameter is the type, or pointee, of a scalar or pointer parameter."""
    types = {pn for kind, pn, _ in it.tparams or [] if kind == "type"}
    return any((st := _split_type(p)) is not None and st[0] in types for p in _raw_params(it))


_OPERATORS = frozenset("+-*/%&|^=!?.[<")


def _declared_scalar(text: str, upto: int, var: str) -> tuple[str, int] | None:
    """(base type, pointer depth) of the variable or parameter `var` as last declared before upto."""
    v = re.escape(var)
    best = None
    for pat in (r"(?P<type>\b(?!return\b|case\b|else\b|goto\b)[A-Za-z_][\w ]*?)(?P<ptr>[\s*&]*(?:__restrict__\s*)?)\b"
                + v + r"(?:\s*\[\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]\])?\s*(?=[=;,)])",  # Metal's `p [[buffer(0)]]`
                r"(?P<type>\b(?!return\b|case\b|else\b|goto\b)[A-Za-z_][\w ]*?)\s+"
                r"(?:[A-Za-z_](?:[^;{}()]|\([^;{}()]*\))*?,\s*)(?P<ptr>[\s*]*)\b" + v + r"\s*(?=[=;,)])"):
        for m in re.finditer(pat, text[:upto]):
            if text[:m.start()].rstrip()[-1:] in _OPERATORS:  # `logits + idx * P;` multiplies: no `idx* P`
                continue
            if best is None or m.start() > best.start():
                best = m
    if best is None:
        return None
    return _norm_type(best.group("type")), best.group("ptr").count("*")


def _expression_type(text: str, upto: int, expr: str) -> tuple[str, int] | None:
    """(type, pointer depth) of a variable, or of `+ - * /` over variables of one scalar type
    and integer literals (`sigma2 + epsilon`: the usual conversions keep that type)."""
    if re.fullmatch(r"[A-Za-z_]\w*", expr):
        return _declared_scalar(text, upto, expr)
    sized = re.sub(r"\bsizeof\s*\(\s*[A-Za-z_][\w\s*]*\)", "1", expr)
    if sized != expr:  # `p + i * (sizeof(int4) / sizeof(float))` (llm.c's x128::size): a sizeof is an integer
        return _pointer_offset(sized, text, upto) if re.fullmatch(r"[\w\s+\-*/()]+", sized) else None
    if not re.fullmatch(r"[\w\s+\-*/()]+", expr) or re.search(r"\b\d+\.|\.\d|\b\d+[eE]", expr) or \
            re.search(r"[A-Za-z_]\w*\s*\(", expr):
        return None
    types = {_declared_scalar(text, upto, v) for v in set(re.findall(r"\b[A-Za-z_]\w*\b", expr))}
    if None in types:
        return None
    ptr = _pointer_offset(expr, text, upto)
    if ptr is not None:
        return ptr
    if len(types) != 1:
        return None
    t = types.pop()
    return t if t[1] == 0 else None


_INTEGERS = {"int", "unsigned", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "size_t",
             "short", "unsigned short", "char", "unsigned char", "int64_t", "uint64_t", "int32_t", "uint32_t"}


def _pointer_offset(expr: str, text: str, upto: int) -> tuple[str, int] | None:
    """C's pointer arithmetic: `p + i`, `p + i * C - 1` (a pointer plus or minus integers, the pointer
    first and outside any parentheses, as llm.c's `load128cs(inp + i)` writes it) has p's type."""
    m = re.match(r"\s*([A-Za-z_]\w*)\s*[+-]", expr)
    if m is None:
        return None
    t = _declared_scalar(text, upto, m.group(1))
    rest = set(re.findall(r"\b[A-Za-z_]\w*\b", expr[m.end():]))
    if t is None or t[1] == 0 or any((r := _declared_scalar(text, upto, v)) is None or r[1] or r[0] not in _INTEGERS
                                     for v in rest):
        return None
    return t


def _declared(text: str, upto: int, arg: str) -> tuple[str, str] | None:
    """(element type, length text) of the array argument `arg` (`v`, or a row `m[i]` of a 2-D
    array) as last declared before `upto` in `text`: a local or file-scope array (also after a
    comma, `float n = 0.f, v[4];`) or an array parameter of the caller."""
    a = re.fullmatch(r"([A-Za-z_]\w*)((?:\s*\[[^\]]*\])*)", arg.strip())
    if a is None:
        return None
    v, rows = re.escape(a.group(1)), a.group(2).count("[")
    dims = r"(?P<dims>(?:\s*\[[^\]]*\])+)"
    best = None
    for pat in (r"(?P<type>\b[A-Za-z_][\w ]*?)\s*\(\s*&\s*" + v + r"\s*\)" + dims,
                r"(?P<type>\b(?!return\b|case\b|else\b|goto\b)[A-Za-z_][\w ]*?)\s+"
                r"(?:[A-Za-z_](?:[^;{}()]|\([^;{}()]*\))*?,\s*)?\b" + v + dims):
        for m in re.finditer(pat, text[:upto]):
            if best is None or m.start() > best.start():
                best = m
    if best is None:
        return None
    sizes = re.findall(r"\[([^\]]*)\]", best.group("dims"))
    if len(sizes) != rows + 1:
        return None
    return _norm_type(best.group("type")), sizes[rows]


def _typedef(t: str, scopes: list[str]) -> str:
    """A typedef name (`typedef int PackedType;` in the caller or at file scope) as its type; a
    16-bit float type's name stays (the parser's `unsigned short` is not the type it means)."""
    from .preprocess import float16_names
    stop = float16_names()
    for _ in range(4):
        if t in stop:
            return t
        m = None
        for text in scopes:
            for m in re.finditer(r"\btypedef\s+([\w ]+?)\s+" + re.escape(t) + r"\s*;", text):
                pass
            if m is not None:
                break
        if m is None:
            return t
        t = _norm_type(m.group(1))
    return t


def _constants(text: str, scopes: list[str]) -> str:
    """Names of integer constants in an array length (`x[PACKED]` after `const int PACKED = 4/2;`)
    replaced by their values' text, as the caller or the file declares them."""
    for _ in range(4):
        names = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
        if not names:
            return text
        for n in names:
            for scope in scopes:
                found = None
                for found in re.finditer(r"\bconst\s+(?:unsigned\s+)?(?:int|long|short|unsigned|size_t)\s+"
                                         + re.escape(n) + r"\s*=\s*([^;,]+)[;,]", scope):
                    pass
                if found is not None:
                    text = re.sub(r"\b" + re.escape(n) + r"\b", f"({found.group(1)})", text)
                    break
    return text


def _value(text: str, names: dict[str, str]) -> int | None:
    for k, v in names.items():
        text = re.sub(r"\b" + re.escape(k) + r"\b", f"({v})", text)
    try:
        v = evaluate(text, {})
    except (CExprError, ValueError, ZeroDivisionError, RecursionError):
        return None
    return int(v) if float(v).is_integer() else None


def _match(c: Candidate, args: list[str], caller: str, pos: int, globals_text: str,
           explicit: list[str] | None = None) -> dict[str, str] | None:
    """Template arguments (empty for a plain function) when `c` takes these arguments, else None.
    explicit: the template arguments the call writes (`blockReduce<warpReduceMax>(v)`), bound to
    the template's first parameters in order (only a template takes them)."""
    if len(args) != len(c.params):
        return None
    tnames = {pn: kind for kind, pn, _ in c.tparams or []}
    bound: dict[str, str] = {}
    if explicit is not None:
        if not c.tparams or len(explicit) > len(c.tparams):
            return None
        bound = {pn: a.strip() for (_, pn, _), a in zip(c.tparams, explicit)}
    given = set(bound)
    checks: list[tuple[str, int]] = []
    for p, raw, a in zip(c.params, _raw_params(c.item), args):
        if p is None and c.tparams == []:  # an explicit specialization: the argument's type is its own
            st, got = _split_type(raw), _expression_type(caller, pos, a.strip())
            if st is None or got is None or got[1] != st[1] or \
                    _typedef(got[0], [caller[:pos], globals_text]) != _typedef(st[0], [globals_text]):
                return None
            continue
        if p is None:  # a scalar or pointer: binds a type parameter it is spelled with
            st = _split_type(raw)
            if st is None or tnames.get(st[0]) != "type" or st[0] in given:  # written: the argument converts
                continue
            got = _expression_type(caller, pos, a.strip())
            if got is None or got[1] < st[1]:
                continue
            t = _typedef(got[0], [caller[:pos], globals_text]) + "*" * (got[1] - st[1])
            if bound.setdefault(st[0], t) != t:
                return None
            continue
        decl = _declared(caller, pos, a) or _declared(globals_text, len(globals_text), a)
        if decl is None:
            return None
        scopes = [caller[:pos], globals_text]
        etype, size = _typedef(decl[0], scopes), _constants(decl[1], scopes)
        want_t, _, want_n = p
        if tnames.get(want_t) == "type":
            if bound.setdefault(want_t, etype) != etype:
                return None
        elif _typedef(want_t, [globals_text]) != etype:  # `bool` may be a typedef of the prelude's
            return None
        n = _value(size, {})
        if n is None:
            return None
        if tnames.get(want_n) == "value":
            if _value(bound.setdefault(want_n, str(n)), {}) != n:
                return None
        else:
            checks.append((want_n, n))
    for text, n in checks:  # lengths that are expressions of deduced parameters: `float (&src)[2*N]`
        if _value(text, {k: v for k, v in bound.items() if tnames.get(k) == "value"}) != n:
            return None
    return bound


def resolve(cands: list[Candidate], args: list[str], caller: str, pos: int,
            globals_text: str, explicit: list[str] | None = None) -> tuple[Candidate, dict[str, str]] | None:
    """The definition a call takes and its deduced template arguments: a plain function before an
    explicit specialization (whose parameter types the arguments' declarations must have) before a
    template (C++'s rule), None when no definition or several equally take the arguments.
    explicit: the call's written template arguments (then only the templates that take them)."""
    fits = [(c, b) for c in cands if (b := _match(c, args, caller, pos, globals_text, explicit)) is not None]
    plain = [f for f in fits if f[0].tparams is None]
    explicit = [f for f in fits if f[0].tparams == []]  # `template<>`: before the primary
    fits = plain or explicit or fits
    return fits[0] if len(fits) == 1 else None
