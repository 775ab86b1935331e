"""Verdicts (true / false hazard) for every error/warning WS*/SY*/PT* finding of `kernelport lint --format json -j 1`
over /work/heldout23, /work/heldout24 and /work/heldout25 (h/lintprec41: trees built for HIP work at stop 40, never
used for lint): each rule below is a group of findings judged by reading the source; its string is the one-line reason
written to bench/lint_audit41.txt.  Same conventions as bench/lint_audit40.py (WS007 on a 32-bit mask, PT001/PT002 in
code the AMD build compiles: true), whose loader it reuses.

    python bench/lint_audit41.py BEFORE23.json BEFORE24.json BEFORE25.json [AFTER23.json AFTER24.json AFTER25.json]
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lint_audit40 import R_MASK, R_PTX, load  # noqa: E402

T, F = 'true', 'false'
TREES = ('heldout23', 'heldout24', 'heldout25')
R_NV_ONLY = ("under `#ifdef TURING_MMA_AVAILABLE` / `AMPERE_MMA_AVAILABLE` / `BLACKWELL_MMA_AVAILABLE` or "
             "`#if __CUDA_ARCH__ >= / == GGML_CUDA_CC_*`: mmq_common.cuh defines those macros only under "
             "`#if __CUDA_ARCH__ >= GGML_CUDA_CC_*` (750, 800, 1200), so no AMD pass compiles this code")
R_SY002_BARRIER = ("tree reduction with `__syncthreads()` after every step, and each step's writers (`tid < offset`, "
                   "`tid % (2*step) == 0`) only read slots no writer of that step writes: no warp-synchronous step, "
                   "no race (the step's statements touch different arrays)")
R_WIDTH32 = ("WARP_SIZE (32) is used only as the width of xor / indexed shuffles (warp_reduce_* default, mmq_mma's "
             "source lanes from threadIdx.x % 4 and / 4): each 32-lane segment of a 64-wide wave is its own group, "
             "as the blocks (32 x nwarps, threadIdx.y = warp) are laid out")


def verdict(f):
    p = f['path']; c = f['code']; s = f['src']; m = f['message']; ln = f['line']
    base = p.split('/')[-1]
    if 'mmq_gguf' in p and f['nv_only']:
        return F, R_NV_ONLY
    if c == 'WS007':
        return T, R_MASK
    if c == 'PT002':
        return T, R_PTX
    if c == 'PT001':
        return T, "`%s` is CUDA-only in the Metal port (no Metal spelling): the Metal port does not compile" % (
            re.search(r'`(\w+)`', m).group(1))
    # ---------------- heldout23
    if c == 'SY002' and base in ('nep_vdw.cu', 'iron_conductivity.cu', 'sdc.cu', 'findInteractingBlocks.cu'):
        return F, R_SY002_BARRIER
    if base == 'findInteractingBlocks.cu' and c == 'SY001':
        return T, ("`__syncthreads()` (MAX_EXCLUSIONS > 32) inside `for (block1 = start+warpIndex; block1 < "
                   "start+numBlocks; block1 += totalWarps)`: warps of one block run different trip counts, a "
                   "barrier not all threads reach")
    if base == 'findInteractingBlocks.cu' and c == 'WS012':
        return F, ("neighborsInBuffer is uniform over the code's 32-thread warp (advanced only by __popc of warp "
                   "ballots; all threads of a warp process block1): whole warps on NVIDIA, and at wave 64 "
                   "saveSinglePairs' up-scan is guarded by indexInWarp >= i, so it stays inside each 32-lane half")
    # ---------------- heldout24
    if base in ('afq.cu', 'afq_utils.cuh') and c == 'WS001':
        return T, ("lane = threadIdx.x % AFQ_WARP_SIZE (32) makes each 32 threads a group, but the broadcast "
                   "`__shfl_sync(~0, v, 0)` has no width: at wave 64 lanes 32-63 take lane 0's (the other group's) "
                   "min/max")
    if base == 'mmq_common.cuh' and c == 'WS001' and 'return 32' in s:
        return T, ("ggml_cuda_get_physical_warp_size() returns 32 on every target: the line ggml's wave-64 fix "
                   "changed (64 on CDNA), labelled a hazard in labelled_heldout's ggml")
    if c == 'WS001' and ('mmq_common.cuh' in p or 'mmq_mma.cuh' in p):
        return F, R_WIDTH32
    if base == 'mxfp4_gemm.cu' and c == 'WS015':
        return F, ("WARP_SIZE is the shared-memory padding stride here (one float per 32: the kernel indexes "
                   "k + k / WARP_SIZE with the same macro): host size and device index agree whatever the wave")
    if base == 'mxfp4_gemm.cu' and c == 'SY001':
        return T, ("`n_idx = n_base + warp_id; if (n_idx >= N) return;` (warp_id = tid / 32) before the block's "
                   "__syncthreads(): a barrier not all threads reach")
    if base == 'mmq_gguf.cuh' and c == 'SY001':
        return F, ("the return on line 3912 is inside `if (!ids_dst) { ... return; }`: every thread entering that "
                   "block returns anyway, and ids_dst is a kernel argument (block-uniform): the barrier is reached "
                   "by all threads or none")
    # ---------------- heldout25
    if base == 'kernel.cu' and 'vs-nlm-cuda' in p and c == 'SY001':
        return T, "`if (x >= width) return;` (x from threadIdx.x) before the block's __syncthreads(): a barrier not all threads reach"
    return None, 'UNCLASSIFIED'


_NV_ONLY = re.compile(r'#\s*(ifdef|if\s+defined\(?)\s*\(?\s*(TURING|AMPERE|BLACKWELL)_MMA_AVAILABLE|'
                      r'#\s*if\s+__CUDA_ARCH__\s*(>=|==)\s*GGML_CUDA_CC_')


def nv_only(lines, ln):
    """Is line ln (1-based) inside the true part of an NVIDIA-architecture-only #if (see R_NV_ONLY)?"""
    st = []
    for l in lines[:ln]:
        s = l.strip()
        mm = re.match(r'#\s*(if|ifdef|ifndef|elif|else|endif)\b', s)
        if not mm:
            continue
        k = mm.group(1)
        if k in ('if', 'ifdef', 'ifndef'):
            st.append(bool(_NV_ONLY.match(s)))
        elif k in ('elif', 'else') and st:
            st[-1] = False
        elif k == 'endif' and st:
            st.pop()
    return any(st)


def main():
    a = sys.argv[1:]
    before, after = a[:3], a[3:6]
    rows, stats = [], {}
    for i, t in enumerate(TREES):
        left = None
        if after:
            left = {(f['path'], f['line'], f['column'], f['code']) for f in load(after[i])}
        st = stats.setdefault(t, dict(true=0, false=0, fixed=0, true_left=0, n=0))
        for f in load(before[i]):
            f['nv_only'] = nv_only(open(f['path'], errors='replace').read().split('\n'), f['line'])
            v, r = verdict(f)
            assert v is not None, f
            key = f"{f['path'].replace('/work/', '')}:{f['line']}:{f['column']} {f['code']}"
            gone = left is not None and (f['path'], f['line'], f['column'], f['code']) not in left
            st['n'] += 1; st[v] += 1
            if v == F and gone: st['fixed'] += 1
            if v == T and not gone: st['true_left'] += 1
            tag = v if left is None or v == T else f"{v} ({'fixed' if gone else 'not fixed'})"
            if v == T and gone: tag = "true (LOST)"
            rows.append(f"{key}\t{tag}\t{r}")
        if after:
            old = {(g['path'], g['line'], g['column'], g['code']) for g in load(before[i])}
            st['new'] = [f"{f['path']}:{f['line']}:{f['column']} {f['code']}" for f in load(after[i])
                         if (f['path'], f['line'], f['column'], f['code']) not in old]
    return rows, stats


if __name__ == '__main__':
    rows, stats = main()
    tot = dict(n=0, true=0, left=0, after=0)
    for t, st in stats.items():
        tot['n'] += st['n']; tot['true'] += st['true']
        line = f"# {t}: {st['n']} findings, {st['true']} true, {st['false']} false -> precision {st['true'] / st['n']:.3f}"
        if 'new' in st:
            after_n = st['true_left'] + st['false'] - st['fixed'] + len(st['new'])
            tot['left'] += st['true_left']; tot['after'] += after_n
            line += (f"; after: {st['fixed']} false fixed, {st['true_left']} of {st['true']} true kept, {len(st['new'])} new "
                     f"-> {st['true_left']}/{after_n} = {st['true_left'] / after_n:.3f}")
            line += ''.join(f"\n#   new: {x}" for x in st['new'])
        print(line)
    line = f"# pooled: {tot['true']} true of {tot['n']} -> {tot['true'] / tot['n']:.3f}"
    if tot['after']:
        line += f"; after: {tot['left']} true of {tot['after']} -> {tot['left'] / tot['after']:.3f}"
    print(line)
    for r in rows:
        print(r)
