"""Verdicts (true / false hazard) for every error/warning WS*/SY*/PT* finding of `kernelport lint --format json -j 1`
over /work/heldout21 and /work/heldout22 (h/lintprec40): each rule below is a group of findings judged by reading
the source; its string is the one-line reason written to bench/lint_audit40.txt."""

import json, re, sys


def branches(lines):
    """per line: stack of (cond_text, in_else)"""
    st=[];out=[]
    for l in lines:
        s=l.strip()
        m=re.match(r'#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)',s)
        if m:
            k=m.group(1)
            if k in('if','ifdef','ifndef'): st.append([k+' '+m.group(2).strip(),False])
            elif k=='elif' and st: st[-1]=[ 'elif '+m.group(2).strip(),False]
            elif k=='else' and st: st[-1][1]=True
            elif k=='endif' and st: st.pop()
        out.append([tuple(x) for x in st])
    return out
def load(path):
    d=json.load(open(path))
    d=[f for f in d if f['severity'] in('error','warning') and re.match(r'(WS|SY|PT)',f['code'])]
    cache={}
    for f in d:
        p=f['path']
        if p not in cache:
            L=open(p,errors='replace').read().split('\n'); cache[p]=(L,branches(L))
        L,B=cache[p]
        f['src']=L[f['line']-1].strip()
        m=re.search(r'line (\d+)',f['message'])
        f['cond']=L[int(m.group(1))-1].strip() if m else ''
        br=B[f['line']-1]
        ws64=[c for c,e in br if re.search(r'WS\)?\s*==\s*64|WAVEFRONT_SIZE\)?\s*==\s*64',c)]
        f['ws64']= None if not ws64 else ('else' if any(e for c,e in br if re.search(r'==\s*64',c)) else 'if')
    return d


T, F = 'true', 'false'
R_MASK = ("32-bit mask (`0xffffffff`/`~0`/an int mask) to a `_sync` intrinsic: HIP's _sync intrinsics (ROCm >= 6.2) "
          "static_assert a 64-bit mask type, so the HIP build fails as written (port hazard)")
R_PTX = "inline PTX in device code: hipcc does not assemble it (HIP and Metal ports fail)"
R_WS64 = ("code under `#if defined(WS) && (WS == 64)` is the wave-64 path the authors wrote: a 64-bit ballot split into "
          "32-lane halves (`lane & 31`, `tmp >> 32`, `(int)` of the half), right at 64")
R_WSUNI = ("the condition is uniform over the code's warp of WS lanes (last warp `threadIdx.x + WS >= TPB`, `warp == 0`, "
           "`tid < WS`, per-warp/subwarp loop bounds): no lane the mask names is inactive on NVIDIA; at 64 the only "
           "difference is WS itself (WS001) and the int mask (WS007), flagged apart")
R_HALF = ("xor butterfly / `lane >= d`-guarded up-scan in code parameterised by WS: `#if WS == 64` adds the 32 step where "
          "WS is 64, and where WS is 32 on a 64-wide wave the tree stays inside each 32-lane half, which the code "
          "treats as its warp (lane = tid % WS, warp = tid / WS): right at 64 (halflanes)")
R_SUB = ("a logical 32-lane sub-warp (subWS/SWS/SC = 32) whose shuffles pass width 32 or are xor steps inside a half; "
         "the authors note `works for warpsize of 64 on AMD`: right at 64")
R_BALLOT_ELSE = ("the `#else` (WS != 64) path stores `__ballot_sync` in an int: single_src and pfpl define WS 32 for every "
                 "target, so on a 64-wide wave the ballot is truncated and the upper half reads the lower half's bits")
R_UNIFORM_SYNC = "the early return / branch tests a `__syncthreads_or`/`__syncthreads_and` result: the same value in every thread of the block"

def verdict(f):
    p = f['path']; c = f['code']; s = f['src']; m = f['message']; ln = f['line']
    base = p.split('/')[-1]
    # ---------------- common
    if c == 'WS007':
        return T, R_MASK
    if c == 'PT002':
        if 'cudautils.h' in p:
            return F, "x86 `rdtsc` in a host-side timer class (`#else` of WIN32), not device code: the host compiler assembles it"
        return T, R_PTX
    if c == 'PT001' and '__match_any_sync' in s:
        return T, "__match_any_sync with the U32 mask hasTriMask: HIP's (ROCm >= 6.2) static_asserts a 64-bit mask, older HIP has none: the HIP build fails"
    if c == 'PT001':
        return T, "`%s` is CUDA-only: the HIP port does not compile" % re.search(r'`(\w+)`', m).group(1)
    # ---------------- heldout21
    if 'bm3d-gpu' in p and c == 'SY001':
        return F, "the return on line 114 tests p.y = start_point.y + blockIdx.y*params.p (block-uniform); only p.x reads tid: lint taints the whole int2 p"
    if 'bm3dcuda' in p and c == 'WS012':
        return F, "active_mask = membermask = 0xFF << (lane_id & -8) (or __activemask()): it names its own 8-lane group, and the loop bound (xx from a width-8 shuffle) is uniform over that group"
    if 'cudasift' in p:
        if c in ('WS003', 'WS004', 'WS005', 'WS006') or (c == 'WS017' and 'cudautils.h' in p):
            return F, "ShiftDown/ShiftUp/Shuffle pass width 32 (their default) or MINMAX_W: each 32-lane segment is its own group at wave 64, so the 16-start ladder, idx/32 slot, d<32 scan and lane 31 are that group's"
        if c == 'SY001':
            return T, "threads return on a row-dependent test (ypos/ty, a per-row shuffle result, p1 from ty) before a later __syncthreads(): a barrier not all threads reach"
        if c == 'SY002':
            return T, "hist[tx+LEN] = f(hist[tx], hist[x1m], ...) right after other threads write hist[]: no __syncwarp, a race under independent thread scheduling (not wave-64 specific)"
    if 'antialias.cu' in p:
        if c == 'SY001':
            return T, "threads return (px/py out of range, no work, thread_idx >= workCount) while the rest of the block reaches __syncthreads(): a barrier not all threads reach"
        if c == 'WS008':
            return T, "amask = __ballot_sync(...) in unsigned int: at wave 64 the ballot is 64-bit, lanes 32-63 are lost"
    if 'cudaraster' in p:
        if c == 'WS009':
            return T, "__popc/__clz of a U32 ballot (with getLaneMaskLt = PTX %lanemask_lt): at wave 64 two 32-thread rows share a wave and the 32-bit mask keeps lanes 0-31 only"
        if c in ('WS003', 'WS017') and 'CoarseRaster' in p:
            return F, "blockDim.x is 32 by the launch (threadIdx.y = warp): threadIdx.y*32, CR_COARSE_WARPS*32 and tileInBin>>5 index 32-thread rows of the block, not hardware lanes (the rows' popcounts are WS009, flagged apart)"
        if c == 'WS012':
            return F, "fragRead/fragWrite/segment are coherent over the 32-thread row (advanced by warp-wide popc/shuffle): the branch is row-uniform (its wave-64 breakage is the U32 ballots, WS009)"
    if 'interpolate.cu' in p and c == 'WS012':
        return T, "__all_sync(0xffffffff) after threads returned on px/py bounds: the full mask names exited lanes (undefined in CUDA's model; at 64 a 32-bit mask too)"
    if 'sgm/util.h' in p:
        if c == 'WS001':
            return T, "WARP_SIZE 32: blockReduceMin writes shared[tid/32] but reads blockDim.x/warpSize partials: at wave 64 half the partial minima are dropped"
        if c == 'WS016':
            return T, "blockReduceMin mixes WARP_SIZE (32) slots with warpSize reads: at wave 64 it reads only half the 32-lane partials"
        if c == 'WS017':
            return F, "xor butterfly 16..1 (no width) stays inside each 32-lane half at wave 64, and its consumers index halves by tid/WARP_SIZE: each half's min is right"
    if 'vilib' in p:
        if c in ('WS002', 'WS003', 'WS016'):
            return T, "the reduction runs offset warpSize/2..1 (64-lane tree at wave 64) but the leader test is lane_id = tid & 0x1F and warp_cnt = (n+31)>>5: lane 32 writes a partial slot at 64"
        if c == 'SY001':
            return T, "`if (baseX >= output_width) return;` (threadIdx.x) before the block's __syncthreads(): a barrier not all threads reach"
    # ---------------- heldout22
    if 'cujson' in p and c == 'SY001':
        return T, "__syncthreads() inside a grid-stride loop `i = index; i < total_padded_32; i += stride`: threads of the last block run one turn fewer (total padded to 32, not to the grid): a barrier not all threads reach"
    if 'icde2019' in p:
        if c == 'SY001':
            if 'stride' in m:
                return T, "size_local comes from data[threadIdx.x] / borders[range]: the barrier loop's trip count differs per thread"
            return T, "the `else` (reached by threads with gidx >= size) runs __syncthreads()/sum(): threads of the last block split on gidx"
        if c == 'WS001':
            return F, "WARP_SZ is defined and used nowhere in the tree: no code computes with it"
    if c == 'SY001' and ('__syncthreads_or' in f['cond'] or 'return true' in f['cond']):
        return F, R_UNIFORM_SYNC
    if c == 'SY001' and 'rpos == 0' in f['cond']:
        return F, "rpos = csize - 2 read from the shared chunk bytes in[--rpos] at the same index by every thread: block-uniform"
    if c == 'SY001' and 'bcnt == 0' in f['cond']:
        return F, "bcnt = wordaligned - nonaligned from the chunk's source pointer &data_in[offs] (offs: block-level prefix over chunk sizes): block-uniform"
    if f['ws64'] == 'if' and c != 'WS012':
        return F, R_WS64
    if c == 'WS012':
        return F, R_WSUNI
    if c == 'WS001':
        if base.endswith('.cu'):
            return T, "`#define WS 32` for every target (no __AMDGCN_WAVEFRONT_SIZE test): on a 64-wide wave the int ballots of the WS != 64 paths and the last-warp `__ffs(mask)` read the wrong half"
        if base in ('max_scan.h', 'prefix_sum.h', 'sum_reduction.h'):
            return F, "WS's uses here are lane = tid % WS, warp = tid / WS around an xor/up ladder: right per 32-lane half when WS is 32 on a 64-wide wave (halflanes), and `#if WS == 64` adds the 32 step"
        return T, "lane = threadIdx.x % WS with WS 32 from single_src (every target): this header's int ballots / max per warp then cover half a 64-wide wave"
    if c == 'WS004':
        if 'subWS' in s:
            return F, R_SUB
        return F, R_HALF
    if c == 'WS017':
        if re.search(r'(subWS|SWS|SC) = 32', s):
            return F, R_SUB
        if f['ws64'] == 'else' and '16 +' in s:
            return T, "`__shfl_sync(~0, comb, 16 + lane / k)` without width in the WS != 64 path: where WS is 32 on a 64-wide wave, the upper half reads lanes 16.. of the lower half"
    if c == 'WS008':
        if f['ws64'] == 'else':
            if base.startswith('ratio-') and 'double' in base:
                return F, "the #else of WS == 64 where this file sets WS from __AMDGCN_WAVEFRONT_SIZE: never compiled for a 64-wide wave"
            return T, R_BALLOT_ELSE
        if 'd_RARE.h' in p:
            return T, "`int bal = __ballot_sync(~0, ...)` under `tid < WS`: where WS is 64 (double includers on CDNA) the ballot's lanes 32-63 are cut off and `__ffs(bal)` misses them"
        return T, "`int mask = __ballot_sync(~0, val > 0)` in the last warp (threadIdx.x + WS >= TPB) with WS 32 on a 64-wide wave: the last 32 threads are the upper half, the int keeps the lower half's (zero) bits, `__ffs(mask) - 1` is -1"
    if c == 'WS009':
        if f['ws64'] == 'else' and base.startswith('ratio-') and 'double' in base:
            return F, "the #else of WS == 64 where this file sets WS from __AMDGCN_WAVEFRONT_SIZE: never compiled for a 64-wide wave"
        if 'offs = __popc(bm &' in s:
            return F, "bm is a 32-bit bitmap loaded from the compressed stream for a 32-lane sub-warp (bmin_t[i]), not a ballot: 32 bits by design"
        if '__ffs' in s:
            return T, "`__ffs` of the int ballot above (truncated at wave 64 where WS and the wave differ): the chosen lane is wrong"
        return T, "__popc of bm/bm1.. that the WS != 64 path takes from an int ballot (truncated on a 64-wide wave where WS is 32): the count covers the wrong half"
    if c == 'WS010':
        return F, "`1 << sublane` with sublane = tid % 32 (or lane & 31) < 32: the lane bit fits 32 bits by construction"
    if c == 'WS002' and f['ws64'] == 'if':
        return F, R_WS64
    return None, 'UNCLASSIFIED'

def main():
    """usage: lint_audit40.py BEFORE21.json BEFORE22.json [AFTER21.json AFTER22.json] > bench/lint_audit40.txt
    (each: `kernelport lint /work/heldoutN --format json -j 1`)."""
    a = sys.argv[1:]
    before, after = a[:2], a[2:4]
    rows, stats = [], {}
    for i, t in enumerate(('heldout21', 'heldout22')):
        left = None
        if after:
            left = {(f['path'], f['line'], f['column'], f['code']) for f in load(after[i])}
        st = stats.setdefault(t, dict(true=0, false=0, fixed=0, true_left=0, n=0))
        for f in load(before[i]):
            v, r = verdict(f)
            assert v is not None, f
            key = f"{f['path'].replace('/work/', '')}:{f['line']}:{f['column']} {f['code']}"
            gone = left is not None and (f['path'], f['line'], f['column'], f['code']) not in left
            st['n'] += 1; st[v] += 1
            if v == F and gone: st['fixed'] += 1
            if v == T and not gone: st['true_left'] += 1
            tag = v if left is None or v == T else f"{v} ({'fixed' if gone else 'not fixed'})"
            rows.append(f"{key}\t{tag}\t{r}")
        if after:
            st['new'] = [f"{f['path']}:{f['line']}:{f['column']} {f['code']}" for f in load(after[i])
                         if (f['path'], f['line'], f['column'], f['code']) not in
                         {(g['path'], g['line'], g['column'], g['code']) for g in load(before[i])}]
    return rows, stats


if __name__ == '__main__':
    rows, stats = main()
    for t, st in stats.items():
        line = f"# {t}: {st['n']} findings, {st['true']} true, {st['false']} false -> precision {st['true'] / st['n']:.3f}"
        if 'new' in st:
            after_n = st['true_left'] + st['false'] - st['fixed'] + len(st['new'])
            line += (f"; after: {st['fixed']} false fixed, {st['true_left']} of {st['true']} true kept, {len(st['new'])} new "
                     f"-> {st['true_left']}/{after_n} = {st['true_left'] / after_n:.3f}")
        print(line)
    for r in rows:
        print(r)
