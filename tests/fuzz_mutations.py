"""Mutations of CUDA sources for fuzzing kernelport (tests/test_trust_fuzz.py, bench/fuzz_cli.py).

Each mutation takes the text and a random.Random and returns a new text: what hostile or broken
input looks like in review, pre-commit and CI (issue 16's campaign)."""
from __future__ import annotations

import random
import re

_TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[fFuUlL]*\b")
_ANNOT = re.compile(r"^(// @kp \w+\s+)(.*)$", re.M)

BAD_VALUES = [
    "ceil_div(n, 0)", "ceil_div(n)", "min(n)", "max(1, 2, 3)", "1 << -1", "1e400", "1 << 100000000000", "1<<62",
    "2147483648", "1 << 80", "64 // 2", "1 if 1 else 2", "0x1p99999", "-1", "0", "n / 0", "((((((1))))))", "",
    "normal(0, -1)", "uniform(0, 1e400)", "uniform(1, 0)", "integers(0, 1e30)", "float[1<<40]", "float[1LL<<40]",
    "x in float[n] normal(0, 0)", "x in float[-1]", "y out int[ceil_div(n, 0)]", "abs=1e400", "abs=nan rel=-1",
    "n = 1e400", "n = 2147483648", "n = 1 << 31", "a = 0x1p99999f", "<1 << 40>", "99999999999999999999999999",
    "sizeof(struct x)", "1 ? 2", "(" * 500 + "1" + ")" * 500, "+".join(["1"] * 3000), "'\\x00'", "\u00e9\u4e2d",
]
HUGE = ["1e400", "0x1p99999", "99999999999999999999999999999999", "1" * 5000, "0x" + "f" * 400, "1e-400",
        "18446744073709551616", "2147483648", "0x1p99999f", "1.0e+99999999"]


def delete_token(text: str, rng: random.Random) -> str:
    toks = list(_TOKEN.finditer(text))
    if not toks:
        return text
    for _ in range(rng.randint(1, 4)):
        m = rng.choice(toks)
        text = text[:m.start()] + text[m.end():]
        toks = list(_TOKEN.finditer(text)) or toks
        if not toks:
            break
    return text


def truncate(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) + 1)]


def flip_bytes(text: str, rng: random.Random) -> str:
    data = bytearray(text.encode("utf-8", errors="surrogateescape"))
    for _ in range(rng.randint(1, 8)):
        if data:
            i = rng.randrange(len(data))
            data[i] = rng.choice([data[i] ^ (1 << rng.randrange(8)), rng.randrange(256), ord("{"), ord("("), 0])
    return data.decode("utf-8", errors="surrogateescape")


def deep_nesting(text: str, rng: random.Random) -> str:
    depth = rng.choice([300, 1000, 3000, 10000])
    kind = rng.choice(["parens", "ifs", "braces", "long"])
    if kind == "parens":
        body = "x[0] = " + "(" * depth + "1" + ")" * depth + ";"
    elif kind == "ifs":
        body = "if (x[0] > 0) " * depth + "x[0] = 1;"
    elif kind == "braces":
        body = "{" * depth + "x[0] = 1;" + "}" * depth
    else:
        body = "x[0] = " + " + ".join(["x[1]"] * depth * 20) + ";"
    kernel = f"\n__global__ void kp_fuzz_deep(float* x) {{ {body} }}\n"
    at = rng.choice([m.end() for m in re.finditer(r"\n", text)] or [len(text)])
    return text[:at] + kernel + text[at:]


def huge_literal(text: str, rng: random.Random) -> str:
    nums = list(_NUMBER.finditer(text))
    if not nums:
        return text + f"\n#define KP_FUZZ {rng.choice(HUGE)}\n"
    m = rng.choice(nums)
    return text[:m.start()] + rng.choice(HUGE) + text[m.end():]


def bad_annotation(text: str, rng: random.Random) -> str:
    anns = list(_ANNOT.finditer(text))
    if not anns:
        return "// @kp kernel k\n// @kp grid " + rng.choice(BAD_VALUES) + "\n" + text
    m = rng.choice(anns)
    return text[:m.start(2)] + rng.choice(BAD_VALUES) + text[m.end(2):]


def endless_loop(text: str, rng: random.Random) -> str:
    loop = rng.choice(["for(;;){}", "for(;;){__syncthreads();}", "while(1){}", "do{}while(1);"])
    bodies = [m.end() for m in re.finditer(r"__global__[^{;]*\{", text)]
    if not bodies:
        return text
    at = rng.choice(bodies)
    return text[:at] + loop + text[at:]


MUTATIONS = {f.__name__: f for f in (delete_token, truncate, flip_bytes, deep_nesting, huge_literal, bad_annotation,
                                     endless_loop)}


def mutate(text: str, rng: random.Random, names: list[str] | None = None) -> tuple[str, list[str]]:
    """One to three mutations; the text and the names applied."""
    applied = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        name = rng.choice(names or list(MUTATIONS))
        text = MUTATIONS[name](text, rng)
        applied.append(name)
    return text, applied
