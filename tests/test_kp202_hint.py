"""KP202's hint follows what has no equivalent (held-out set 14: Marlin's and MatmulTutorial's
`__cvta_generic_to_shared`, an address conversion, was told to use shuffles and ballots)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
__global__ void k(int* out, int v) {
    extern __shared__ int buf[];
    unsigned a = (unsigned)__cvta_generic_to_shared(buf);
    out[threadIdx.x] = a + __match_any_sync(0xffffffff, v);
}
"""


def _hints(backend: str = "hip") -> dict[int, str]:
    p = translate(SourceFile.from_text(textwrap.dedent(CODE), "t.cu"), backend)[0]
    return {d.line: d.format() for d in p.diagnostics if d.code == "KP202"}


def test_an_address_conversion_is_not_sent_to_warp_operations():
    assert 4 not in _hints()  # HIP has it (tests/test_ptx_cp_async.py): Metal's port is refused
    hint = _hints("metal")[4]
    assert "__cvta_generic_to_shared" in hint and "shuffles" not in hint and "#ifdef __CUDA_ARCH__" in hint


def test_a_warp_collective_still_gets_the_warp_hint():  # look-alike: a warp-level name on the next line
    """Re-pinned (stop 43, h/match43): HIP now ports `__match_any_sync` with the full mask (the prologue's
    kp_match_any, tests/test_match_sync.py), so line 5 has no KP202 there and the hint is read where the
    intrinsic is still refused, Metal; this test read `_hints()[5]` (HIP) and raised KeyError 5."""
    assert 5 not in _hints()
    assert "portable warp operations (shuffles, ballots)" in _hints("metal")[5]
