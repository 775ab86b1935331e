"""Whether two places of a file sit in conditional branches no single compile takes together.  A file with no -D
is parsed through one reading of its conditionals (kernelport/macro_groups: a loop head written twice, under
`#if N == 1` and `#else`, is parsed as the first branch wrote it), while code under another conditional is parsed
as written; an analysis that joins the two can join what no build compiles at once (heldout87: a radio-astronomy
kernel's `#if NR_CHANNELS == 1` loop over `time = threadIdx.x; time < N; time += blockDim.x` and, further down,
`#if NR_CHANNELS > 1 && defined DO_TRANSPOSE ... __syncthreads()`, whose build loops over `timeBase < N` alike for
every thread: lint's SY001 joined the first loop head to the second branch's barrier).

`exclusive(data, a, b)`: True where no value of the macros that the enclosing tests read compiles both bytes: each
test of an `#if`/`#elif` chain around a place holds or fails as its branch needs (an `#else`: every test fails),
`defined(X)` and X's value are tried independently, integers over 0, 1, 2 and each literal of the tests and its
neighbours.  A test this cannot evaluate (a function-like macro, more than 4096 readings) answers False: the
places are not known to exclude each other.  Those values stand for every value only where each name is compared
with a decimal literal (`N > 1`, `2 == N`) or read as a truth value (`#if N`, `!N`): arithmetic over a name (`N % 16
== 3` beside `N >= 64`: 67 is in neither's neighbours), a hex literal or a comparison of two names answers False,
as does a name a test reads that the file `#define`s or `#undef`s between the two tests' directives and the later
place (the two tests then read two values of it)."""
from __future__ import annotations

import itertools
import re

from . import lazy_re
from .cexpr import CExprError, evaluate

_DEFINED = lazy_re.compile(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)")
_NAME = lazy_re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_INT = lazy_re.compile(r"(?<![\w.])\d+(?![\w.])")
_LIMIT = 4096
_CMP = lazy_re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\s*(?:==|!=|<=|>=|<|>)\s*-?\d+|-?\d+\s*(?:==|!=|<=|>=|<|>)\s*[A-Za-z_]\w*)"
                       r"(?![\w.])")


def _sampled(expr: str) -> bool:
    """Whether 0, 1, 2 and the literals' neighbours stand for every value of the names `expr` reads: every
    name compared with a decimal literal or read alone as a truth value, joined by `&&`, `||`, `!`, parentheses."""
    rest = _CMP.sub(" 1 ", expr)
    rest = re.sub(r"&&|\|\||!(?!=)|[()]", " ", rest)
    return all(re.fullmatch(r"[A-Za-z_]\w*|\d+", w) for w in rest.split())


def _redefined(data: bytes, names: set[str], start: int, end: int) -> bool:
    """Whether a `#define` / `#undef` of one of `names` stands in data[start:end]."""
    for n in names:
        pat = rb"^[ \t]*#[ \t]*(?:define|undef)[ \t]+%s\b" % re.escape(n.encode())
        if re.compile(pat, re.M).search(data, start, end):
            return True
    return False


def _test(directive: str) -> str | None:
    """A directive line's test as a C expression (`defined(X)` kept), None for `#else`/`#endif`."""
    d = re.sub(r"//.*|/\*.*?\*/", " ", directive, flags=re.S).strip().lstrip("#").strip()
    d = d.replace("\\\n", " ")
    kind, _, rest = d.partition(" ")
    if kind == "ifdef":
        return f"defined({rest.strip()})"
    if kind == "ifndef":
        return f"!defined({rest.strip()})"
    if kind in ("if", "elif"):
        return rest.strip()
    return None


def _needs(data: bytes, at: int, gs) -> list[tuple[str, bool]]:
    """The (test, holds) pairs a compile of byte `at` needs."""
    out: list[tuple[str, bool]] = []
    for g in gs:
        if not g.start <= at < g.end:
            continue
        tests = [_test(data[s:e].decode("utf-8", "replace")) for s, e in g.directives[:-1]]
        for k, (s, e) in enumerate(g.branches):
            if s <= at < e:
                out += [(t, False) for t in tests[:k] if t is not None]
                if tests[k] is not None:
                    out.append((tests[k], True))
                break
    return out


def exclusive(data: bytes, a: int, b: int) -> bool:
    """Whether no compile takes both byte `a` and byte `b` of `data` (this module's docstring)."""
    if b"#" not in data:
        return False
    from .macro_groups import groups
    gs = groups(data)
    need_a, need_b = _needs(data, a, gs), _needs(data, b, gs)
    needs = need_a + need_b
    if not needs or not all(_sampled(t) for t, _ in needs):
        return False
    apart = {n for t, _ in set(need_a) ^ set(need_b) for n in _NAME.findall(t) if n != "defined"}
    first = min((g.start for g in gs if g.start <= a < g.end or g.start <= b < g.end), default=min(a, b))
    if _redefined(data, apart, first, max(a, b)):
        return False
    flags: list[str] = []
    exprs = []
    for t, holds in needs:
        def flag(m: re.Match) -> str:
            name = m.group(1) or m.group(2)
            if name not in flags:
                flags.append(name)
            return f" __kp_d{flags.index(name)} "
        exprs.append((_DEFINED.sub(flag, t), holds))
    names = sorted({n for e, _ in exprs for n in _NAME.findall(e) if not n.startswith("__kp_d")})
    ints = sorted({v for e, _ in exprs for x in _INT.findall(e) for v in (int(x) - 1, int(x), int(x) + 1)} | {0, 1, 2})
    if len(ints) ** len(names) * 2 ** len(flags) > _LIMIT:
        return False
    for values in itertools.product(ints, repeat=len(names)):
        env = dict(zip(names, values))
        for bits in range(1 << len(flags)):
            env.update({f"__kp_d{i}": bits >> i & 1 for i in range(len(flags))})
            try:
                if all(bool(evaluate(e, env)) == holds for e, holds in exprs):
                    return False
            except (CExprError, ValueError, TypeError, KeyError, ZeroDivisionError):
                return False
    return True
