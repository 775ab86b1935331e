"""The declarations the model reads for `__shared__` arrays and the ones SY002 reads for `volatile` names are
reached from their qualifiers (the node index's type_qualifier texts), not by reading every declaration's
children: the same declarations as that full read, for every file of examples/ and a real-code sample,
and for the look-alikes below."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import model
from kernelport.lint.context import Context
from kernelport.lint.rules.sync import ImplicitWarpSynchronous
from kernelport.source import SourceFile, ident_name

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted((ROOT / "tests" / "realcorpus" / "cuda-samples").rglob("*.cu"))[:40]


def _every_declaration(src: SourceFile, word: str, types: tuple[str, ...]) -> set[str]:
    """What a read of every declaration's children finds (the code before the look-up)."""
    out = set()
    for n in src.index.of_types(*types):
        if any(c.type == "type_qualifier" and src.text_of(c) == word for c in n.children):
            out |= {ident_name(d) or "?" for d in n.children_by_field_name("declarator")}
    return out


def _volatile(text: str) -> set[str]:
    src = SourceFile.from_text(text, "t.cu")
    ctx = Context.__new__(Context)  # (only the parse: _volatile_names reads ctx.src)
    ctx.src = src
    return ImplicitWarpSynchronous._volatile_names(ctx)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_same_declarations_as_a_read_of_every_one(path):
    src = SourceFile.read(path)
    shared = {s.name for s in model.build(src).shared}
    assert shared == _every_declaration(src, "__shared__", ("declaration",))
    assert _volatile(src.text) == _every_declaration(src, "volatile", ("parameter_declaration", "declaration")) - {"?"}


def test_a_qualifier_outside_a_declaration_declares_nothing():
    text = """
struct S { volatile int flag; __shared__ float f; };         // fields: no declaration of a shared array
__device__ void g(volatile float* vs, float* p) {            // a parameter: volatile, read
    __shared__ __shared__ float twice[32];                  // one declaration, two qualifiers: one array
    volatile __shared__ float both[32];
    float x = *(volatile float*)p;                          // a cast: no declaration of its own
    both[0] = twice[0] + x + vs[0];
}
"""
    src = SourceFile.from_text(text, "t.cu")
    assert [s.name for s in model.build(src).shared] == ["twice", "both"]
    assert _volatile(text) == {"vs", "both"}
    assert _volatile(text.replace("volatile", "const")) == set()
