"""An else-if chain built of macros (marlin's launcher, in mistral.rs's quantized GEMM: `if (false) {}`,
then `CALL_IF(...)` links whose replacement list opens with `else if (...) { launch }`, then the
chain's own `else { throw ...; }`): the grammar sees each link but the last as a statement and the
last as `if     (args);` (its name's bytes `if`, a blank after its `)` a `;`), so the trailing `else`
parses and its block stays conditional, as the compiler sees it (kernelport/macro_repair.py,
macros.opens_else; heldout24: a parse error, exit 2, before).  A macro that opens with no `else`,
followed by a stray `else`, is still a located syntax error."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.errors import KernelportError
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

CHAIN = """
#include <stdexcept>
#include <string>
#define __CALL_IF(N, M) else if (n == N && m == M) { k<<<1, N>>>(p, M); }
#define CALL_IF_M(N) __CALL_IF(N, 1) __CALL_IF(N, 2)
__global__ void k(int *p, int m) { p[threadIdx.x] = m; }
void run(int *p, int n, int m) {
  if (false) {
  }
  CALL_IF_M(32)
  CALL_IF_M(64)
  else {
    throw std::runtime_error("bad n=" + std::to_string(n));
  }
}
"""


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "m.cu")


def test_the_chain_parses_and_its_else_block_stays_conditional():
    s = src(CHAIN)
    assert s.syntax_errors() == [], s.syntax_errors()
    assert [(m.name, s.data[m.start:m.end]) for m in sorted(s.masks, key=lambda m: m.start)] == [
        ("CALL_IF_M", b"CALL_IF_M("), ("CALL_IF_M", b")"), ("CALL_IF_M", b"CALL_IF_M"), ("CALL_IF_M", b"\n")]
    # the `else` block is an if statement's alternative, not a statement of its own
    throw = s.data.index(b"throw")
    node = s.root.descendant_for_byte_range(throw, throw + 5)
    while node is not None and node.type != "else_clause" and node.type != "function_definition":
        node = node.parent
    assert node is not None and node.type == "else_clause", node


def test_the_hip_port_keeps_the_chain_and_compiles(tmp_path):
    port, text = translate(src(CHAIN), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "  CALL_IF_M(32)\n  CALL_IF_M(64)\n  else {\n" in text
    hip_compiles(tmp_path, text, "m.hip")


def test_a_macro_that_opens_with_no_else_before_a_stray_else_is_still_an_error():
    s = src(CHAIN.replace("else if (n == N && m == M)", "while (n == N && m == M)"))
    with pytest.raises(KernelportError, match="syntax error"):
        translate(s, "hip")
