"""PT001's advice fits the call: a CUDA-only warp operation (`__match_any_sync`) can be rewritten with
shuffles and ballots; a CUDA-only call that is no warp operation (`__nanosleep`) can only be guarded."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

SRC = "__global__ void k(unsigned* o) {\n    __nanosleep(100);\n    o[0] = __match_any_sync(0xffffffff, o[1]);\n}\n"


def test_pt001_advice_names_shuffles_only_for_warp_operations():
    msgs = {f.line: f.message for f in lint_text(SRC, "t.cu") if f.code == "PT001"}
    assert "guard it with `#ifdef __CUDA_ARCH__`" in msgs[2] and "shuffles" not in msgs[2], msgs
    assert "rewrite it with shuffles and ballots" in msgs[3], msgs
