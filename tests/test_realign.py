"""realign_comments skips its line diff only where the diff could not have changed a line."""
import random

from kernelport.realign import _realign_by_diff, realign_comments

CODE = ["int a = 1;", "x = y + 2;", "v += __shfl_down_sync(0xffffffff, v, o);", "}", "",
        "return v;", "lane = threadIdx.x % 32;", "lane = threadIdx.x % warpSize;"]
COMMENTS = ["// sum", "// lane", "/* the wave */", "// x"]


def _line(rng):
    code = rng.choice(CODE)
    if code and rng.random() < 0.6:
        return code + rng.choice(["  ", "    ", "\t\t", "      "]) + rng.choice(COMMENTS)
    return code


def _rewrite(rng, lines):
    out = []
    for line in lines:
        r = rng.random()
        if r < 0.15:
            line = line.replace("32", "64").replace("x = y", "xx = yy").replace("int a", "unsigned a")
        elif r < 0.2:
            out.append(_line(rng))
        elif r < 0.25:
            continue
        out.append(line)
    return out


def test_matches_the_full_diff_on_random_rewrites():
    rng = random.Random(15)
    changed = 0
    for _ in range(3000):
        old = [_line(rng) for _ in range(rng.randint(0, 12))]
        new = _rewrite(rng, old)
        want = "\n".join(_realign_by_diff(old, new))
        assert realign_comments("\n".join(old), "\n".join(new)) == want
        changed += want != "\n".join(new)
    assert changed > 10  # the cases where the diff moves a comment were exercised


def test_aligned_column_is_kept():
    old = "a = 32;    // x\nbb = 32;   // y\n"
    new = "a = warpSize;    // x\nbb = warpSize;   // y\n"
    assert realign_comments(old, new) == "a = warpSize; // x\nbb = warpSize; // y\n"
