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
places are not known to exclude each other."""
from __future__ import annotations

import itertools
import re

from . import lazy_re
from .cexpr import CExprError, evaluate

_DEFINED = lazy_re.compile(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)")
_NAME = lazy_re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_INT = lazy_re.compile(r"(?<![\w.])\d+(?![\w.])")
_LIMIT = 4096


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
    needs = _needs(data, a, gs) + _needs(data, b, gs)
    if not needs:
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
