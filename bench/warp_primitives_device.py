"""Run the warp-primitive cases of tests/warp_cases.py as CUDA on a real NVIDIA GPU (CuPy) and
compare every lane with the model the emulator is tested against.

    python bench/warp_primitives_device.py          # needs cupy and an NVIDIA GPU

Prints one line per case and launch shape (lanes compared, lanes the Guide leaves undefined,
lanes that differ) and exits 1 if any defined lane differs.  Wave 32 only (NVIDIA's warp).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import warp_cases as C  # noqa: E402


def run_case(cp, case: str, partial: bool, mask: str) -> tuple[int, int, int, str]:
    W = 32
    text = 'extern "C" ' + C.kernel_text(case, "cuda", W, mask=mask).lstrip()
    x, act, src, B, G, nout = C.inputs(case, W, "cuda", partial)
    k = cp.RawKernel(text, "k")
    out = cp.zeros(nout, dtype=cp.uint64)
    k((G,), (B,), (cp.asarray(x), cp.asarray(act), cp.asarray(src), out, np.int32(B * G)))
    got = cp.asnumpy(out)
    want, defined = C.model(case, W, "cuda", x, act, src, B, G)
    bad = np.flatnonzero((got != want) & defined)
    first = f" first out[{bad[0]}] got {got[bad[0]]:#x} want {want[bad[0]]:#x}" if bad.size else ""
    return int(defined.sum()), int((~defined).sum()), int(bad.size), first


def run_half(cp) -> list[str]:
    """test_half_warp_votes_with_literal_mask's launches: lanes 0-15 under mask 0xffff."""
    lines, ok = [], True
    text = 'extern "C" ' + C.HALF_WARP.replace("LANES", "16").replace("MASK", "0xffffu").lstrip()
    k = cp.RawKernel(text, "k")
    x = np.ones(32, np.int32)
    x[16:] = -1
    for label, mod, want in (("all yes", None, (1, 1, 16)), ("one no", 3, (0, 1, 15)), ("none", "all", (0, 0, 0))):
        if mod == 3:
            x[3] = 0
            x[20] = 5
        elif mod == "all":
            x[:16] = 0
        out = cp.zeros(128, dtype=cp.int32)
        k((1,), (32,), (cp.asarray(x), out))
        o = cp.asnumpy(out).reshape(4, 32)
        got = tuple({int(v) for v in o[r, :16]} for r in range(3))
        good = got == ({want[0]}, {want[1]}, {want[2]}) and list(o[3, :15]) == list(x[1:16])
        ok &= good
        lines.append(f"half-warp literal mask 0xffff, {label}: all/any/popc(ballot) = "
                     f"{[sorted(s) for s in got]} want {list(want)}; shfl_down lanes 0-14 "
                     f"{'match' if list(o[3, :15]) == list(x[1:16]) else 'DIFFER'} -> {'ok' if good else 'MISMATCH'}")
    return lines if ok else lines + ["HALF-WARP MISMATCH"]


def main() -> int:
    import cupy as cp

    dev = cp.cuda.runtime.getDeviceProperties(0)
    print(f"device: {dev['name'].decode()} (sm_{dev['major']}{dev['minor']}), CuPy {cp.__version__}")
    failed = 0
    for case in C.CASES:
        for partial in (False, True):
            for mask in ("__activemask()", "0xffffffffu") if not partial else ("__activemask()",):
                d, u, bad, first = run_case(cp, case, partial, mask)
                failed += bad
                print(f"{case:22s} {'partial' if partial else 'full':7s} mask={mask:15s} "
                      f"compared={d:7d} undefined={u:6d} differ={bad}{first}")
    half = run_half(cp)
    print("\n".join(half))
    failed += half[-1] == "HALF-WARP MISMATCH"
    print("RESULT:", "model confirmed on the GPU" if not failed else f"{failed} lanes differ from the model")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
