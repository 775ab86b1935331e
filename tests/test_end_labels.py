"""A label that ends its block, `end:` right before `}` (heldout33: N-Queens' CarryChain kernels jump
to `end:` at the close of a kernel's body; C++23, which nvcc takes; not yet where no blank separates
the label from the brace, `end:\n}`: the mask needs a byte to write the `;` on): the grammar needs a statement
after a label, so the parse sees `end:;` (grammar_gaps), and clang before 16 rejects the label alone
("expected statement"), so the port writes the `;`."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

KERNEL = """
__global__ void count(const int *in, int *out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total = 0;
  if (idx >= n) return;
  for (int i = 0; i < in[idx]; i++) {
    if (i > 100) break;
    total += i;
  }
  out[idx] = total;
  if (n > 1) {
    out[0] += 1;
    if (idx == 0) goto done;
    out[1] += 1;
    done:
  }
}
struct Box { int v; public: };
"""


def _src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "k.cu")


def _hip(s: SourceFile) -> str:
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return text


def test_a_label_that_ends_a_block_parses_and_the_port_compiles(tmp_path):
    s = _src(KERNEL)
    assert [m.name for m in s.masks if m.reason == "grammar"] == ["label;"]  # `public: }` is no label
    text = _hip(s)
    assert "    done:\n; }" in text, text
    require_tool("hipcc")
    f = tmp_path / "k.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def test_a_label_before_a_statement_is_left_as_written():
    code = KERNEL.replace("    done:\n  }", "    done:\n    out[2] = 0;\n  }")
    s = _src(code)
    assert not [m for m in s.masks if m.reason == "grammar"]
    assert "    done:\n    out[2] = 0;\n  }" in _hip(s)
