"""Locals every path assigns before a read (kernelport/emulator/definite.py): the emulator does not mark
the lanes their first assignment leaves, because another assignment reaches them before any read
(the common `float s; if (c) s = a; else s = b;`, which otherwise cost a merge of marks: bench/
bench_emulator_ab.py's "local array + both-path local").  The walk must never call a local assigned
when some path reads it first: those stay marked (tests/test_emulator_undefined.py)."""
from __future__ import annotations

import pytest
from pycparser import c_parser

from kernelport.emulator.definite import assigned_before_read


def _proven(body: str) -> bool:
    ast = c_parser.CParser().parse("void f(int c, int n, float a, float *o) {\n float s;\n" + body + "\n}")
    items = ast.ext[0].body.block_items
    return assigned_before_read(items[1:], "s")


@pytest.mark.parametrize("body", [
    "if (c) s = a; else s = -a; o[0] = s;",
    "if (c) { s = a; } else { if (n) s = 1; else s = 2; } o[0] = s;",
    "if (c) return; s = a; o[0] = s;",
    "if (c) { s = a; } else { return; } o[0] = s;",
    "s = a; for (int k = 0; k < n; ++k) s += a; o[0] = s;",
    "do { s = a; } while (c); o[0] = s;",
    "for (int k = 0; k < n; ++k) o[k] = a;",  # never mentioned
    "if (c) { s = a; o[0] = s; }",  # assigned on one path, read only there
])
def test_assigned_on_every_path_before_a_read(body):
    assert _proven(body)


@pytest.mark.parametrize("body", [
    "if (c) s = a; o[0] = s;",
    "o[0] = s; s = a;",
    "s = s + a;",
    "s += a; o[0] = s;",
    "for (int k = 0; k < n; ++k) s = a; o[0] = s;",  # the loop may not run
    "while (c) { s = a; } o[0] = s;",
    "for (int k = 0; k < n; ++k) { if (k == 0) s = a; else s = s + a; } o[0] = s;",
    "do { if (c) break; s = a; } while (n); o[0] = s;",
    "do { if (c) continue; s = a; } while (n); o[0] = s;",
    "if (s > 0) o[0] = 1;",
    "o[(int)s] = 1;",
    "{ float s; s = a; } o[0] = s;",  # shadowed: not followed
    "switch (n) { case 0: s = a; break; default: s = 1; } o[0] = s;",
    "goto done; done: s = a; o[0] = s;",
])
def test_a_path_that_may_read_it_first_is_not_proven(body):
    assert not _proven(body)
