"""The concept table: every GPU concept once (what it is, its parameters, whether it is warp-level).

How each backend spells a concept lives with that backend (`kernelport/backends/`): translate
reads spellings forwards (a CUDA spelling is matched, its arguments bound to the concept's
parameter names, and the target's spelling rendered), verify reads them backwards (a port is
parsed back into concepts), lint uses the table to know what is a warp operation.  Adding a
backend is a new unit under backends/, not edits across the code.

A spelling is a small template:

    "__shfl_down_sync({mask}, {value}, {delta}[, {width}])"

`{name}` is a concept parameter, `[...]` an optional part that is dropped when the parameter
inside it is not bound.  `None` means the backend has no equivalent (translate stops there with
a diagnostic).  Builtin variables (threadIdx, ...) are spelled by their identifier alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from . import lazy_re, ptx_ordered


def _backends():
    mod = _BACKENDS.get("module")
    if mod is None:  # imported on first use: spellings belong to the backends; they read this table, not the reverse
        from . import backends as mod
        _BACKENDS["module"] = mod
    return mod


_BACKENDS: dict = {}  # the backends module once imported (an import statement per spelling cost 1 s over the corpus)


@dataclass(frozen=True)
class Concept:
    """A GPU concept (a built-in, call or type) that each dialect spells its own way."""
    key: str
    kind: str  # index | barrier | shuffle | vote | mask | bitop | atomic | math | type | qualifier | runtime | header
    params: tuple[str, ...]
    warp_level: bool = False  # a warp/SIMD-group collective: its result depends on the wave width
    matchable: bool = True  # False: written by translate, never matched by name when reading
    note: str = ""

    @property
    def hint(self) -> str:
        """What to do where a backend has no spelling of it (KP202)."""
        if self.warp_level:
            return "rewrite it with portable warp operations (shuffles, ballots)"
        return "rewrite it with portable operations, or keep it under #ifdef __CUDA_ARCH__ so that only the CUDA build compiles it"

    @property
    def aliases(self) -> dict[str, tuple[str, ...]]:
        """Other accepted spellings per backend (legacy or alternative names), read but never written."""
        return _backends().aliases_of(self.key)

    def spelling(self, backend: str) -> str | None:
        b = _backends().get(backend)
        s = b.spellings.get(self.key)
        if s is None and self.kind == "runtime" and self.key.startswith("rt_"):
            return _api_spelling(backend, self.key)  # a backend's runtime names live in its API table
        return s

    def attribute(self, backend: str) -> tuple[str, str] | None:
        """(type, attribute) of a built-in input on backends that pass them as attributed parameters."""
        return _backends().get(backend).attributes.get(self.key)

    def name(self, backend: str) -> str | None:
        """The identifier a spelling starts with (the function or variable name)."""
        s = self.spelling(backend)
        if s is None:
            return None
        if self.kind == "header":
            return s
        m = re.match(r"[A-Za-z_][\w:]*", s)
        return m.group(0) if m else None


def C(key, kind, params=(), *, warp_level=False, matchable=True, note=""):
    return Concept(key, kind, tuple(params), warp_level, matchable, note)


# Families of concepts that differ only by name; each backend spells them from these lists.
ATOMIC_OPS = (("add", "atomicAdd"), ("sub", "atomicSub"), ("min", "atomicMin"), ("max", "atomicMax"),
              ("and", "atomicAnd"), ("or", "atomicOr"), ("xor", "atomicXor"))
CAS_ATOMIC_OPS = ("add", "sub", "min", "max")  # what Metal lacks natively (kp_ CAS loops)
MATH_ACCURATE = ("exp", "log", "sin", "cos", "tan", "sqrt", "exp2", "log2", "log10", "tanh", "sinh", "cosh",
                 "asin", "acos", "atan")  # CUDA's `expf` is correctly rounded-ish; Metal's precise:: form
MATH_EXACT = ("fabs", "floor", "ceil", "trunc", "round", "rint")  # exact everywhere
# CUDA's single-precision fast intrinsics of one argument (`__expf`, `__log2f`, ...: the programming
# guide's "Intrinsic Functions"), which Metal has as its fast:: forms (MSL 6.5, fast math)
MATH_FAST = ("exp", "log", "sin", "cos", "tan", "log2", "log10")
VECTOR_MAKERS = tuple((t, n) for t in ("float", "int", "uint", "half", "char", "uchar", "short", "ushort", "long",
                                      "ulong", "longlong", "ulonglong")
                      for n in (2, 3, 4))
# CUDA's vector types some backend spells otherwise (CUDA's 64-bit `longlong2` is Metal's `long2`): concepts
# `vector_{name}`, matched on the type's name wherever it is written
RESPELLED_VECTORS = tuple(f"{t}{n}" for t in ("longlong", "ulonglong") for n in (2, 3, 4))
C_HEADERS = (
    "math.h", "cmath", "stdint.h", "cstdint", "stdio.h", "cstdio", "stdlib.h", "cstdlib", "float.h", "cfloat",
    "limits.h", "climits", "assert.h", "cassert", "string.h", "cstring", "stddef.h", "cstddef",
    # C++ library headers: Metal has no C++ standard library (its own pieces are in <metal_stdlib>).
    "algorithm", "utility", "type_traits", "limits", "numeric", "functional", "iterator", "array",
    "tuple", "initializer_list", "cfenv", "climits", "cinttypes", "inttypes.h", "stdbool.h")
CUDA_ONLY_WARP = ("__match_any_sync", "__match_all_sync")
# CUDA's (and HIP's) block-wide votes: a barrier that returns the OR / AND / count of a predicate over
# the block, the same value in every thread (lint: a test of one is uniform over the block).
BLOCK_VOTES = ("__syncthreads_or", "__syncthreads_and", "__syncthreads_count")
# Device RNG calls that seed a generator state through a pointer argument (name -> that argument's index,
# -1: the last): cuRAND's `curand_init(seed, subsequence, offset, &st)` (XORWOW, MRG32k3a, Philox4_32_10, and
# the Sobol forms `curand_init(dirs, [scramble,] offset, &st)`), hipRAND's and rocRAND's.  Lint
# (lint/rngstates.py): the state takes the join of the other arguments' tags; a draw (`curand_uniform(&st)`)
# reads the state's tag like any call of its arguments.
RNG_INITS = {"curand_init": -1, "hiprand_init": -1, "rocrand_init": -1}
# sm_80's warp reductions `__reduce_{op}_sync(mask, value)` (concepts `warp_reduce_{op}`)
WARP_REDUCE_OPS = ("add", "min", "max", "and", "or", "xor")
CUDA_ONLY_OTHER = ("__nanosleep", "__cvta_generic_to_shared", "__cvta_generic_to_global", "__isShared", "__isGlobal",
                   "__prof_trigger")
# Their parameters where a backend spells one (HIP: `__cvta_generic_to_shared(p)`, the shared-window address
# of generic pointer p, is PTX's cvta.to.shared: ptx_cvta_to_shared's spelling; `__cvta_generic_to_global(p)`
# p's own bits: AMD's flat and global addresses of global memory are one); the others take none
# sm_70's `__match_any_sync(mask, value)` and `__match_all_sync(mask, value, &pred)`: `width` is the port's
# (the group's lanes, as a warp reduction's: 32 in a logical 32-lane group, the wave in a wave-wide one)
CUDA_ONLY_PARAMS = {"__cvta_generic_to_shared": ("p",), "__cvta_generic_to_global": ("p",), "__match_any_sync": ("mask", "value", "width"),
                    "__match_all_sync": ("mask", "value", "pred", "width")}
RUNTIME_NAMES = (
    "Malloc", "MallocManaged", "MallocHost", "Free", "FreeHost", "Memcpy", "MemcpyAsync", "Memset",
    "MemsetAsync", "MemcpyHostToDevice", "MemcpyDeviceToHost", "MemcpyDeviceToDevice", "MemcpyDefault",
    "DeviceSynchronize", "GetLastError", "PeekAtLastError", "GetErrorString", "Error_t", "Success",
    "Stream_t", "StreamCreate", "StreamDestroy", "StreamSynchronize", "Event_t", "EventCreate",
    "EventRecord", "EventSynchronize", "EventElapsedTime", "EventDestroy", "GetDevice", "SetDevice",
    "GetDeviceCount", "DeviceProp", "GetDeviceProperties", "DeviceGetAttribute", "FuncSetAttribute",
    "OccupancyMaxActiveBlocksPerMultiprocessor", "LaunchKernel", "MemcpyToSymbol")


def group_votes(ballot: str, half: str | None, word: str = "unsigned int") -> dict[str, str]:
    """A backend's votes over the caller's own aligned group of lanes (a mask groupmasks proved to be
    `((1u << G) - 1) << (lane & ~(G - 1))` in CUDA's 32-lane numbering), from its wave ballot
    `ballot`: the 32 bits of the wave that hold the caller's CUDA warp (`half`: the expression that
    shifts them down on a backend whose wave may be 64 wide, None where it is never wider than 32),
    ANDed with the group's mask.  CUDA's results: the group's bits at their lanes as a 32-bit word
    (`word`), any and all as int."""
    def bits(p: str) -> str:
        b = ballot.replace("{predicate}", p)
        return f"(({word})({b}{f' >> ({half})' if half else ''}) & ({{mask}}))"
    return {"group_ballot": f"(({word}){bits('{predicate}')})",
            "group_any": f"((int)({bits('{predicate}')} != 0))",
            "group_all": f"((int)({bits('!({predicate})')} == 0))"}


def header_key(h: str) -> str:
    return f"c_header_{h.replace('.', '_')}"


# ---------------------------------------------------------------------------------------------
# The table.  Order matters only for readability.
# ---------------------------------------------------------------------------------------------
CONCEPTS: tuple[Concept, ...] = (
    # -- thread hierarchy -------------------------------------------------------------------
    C("thread_idx", "index"),
    C("block_idx", "index"),
    C("block_dim", "index"),
    C("grid_dim", "index"),
    C("warp_size", "index",
      note="32 on NVIDIA; 64 on CDNA (gfx9), 32 on RDNA; not a constant expression from ROCm 7"),
    # How translate spells the wave width where CUDA code hardcoded 32 (never matched by name).
    C("wave_size_const", "index", matchable=False,
      note="compile-time wave width: HIP derives it from the architecture (__GFX9__ → 64)"),
    C("wave_size_bound", "index", matchable=False,
      note="an array sized per lane or per warp: at least the wave width on every device of the backend "
           "(Metal does not promise 32: 64 covers every SIMD-group width it reports)"),
    C("host_wave_size", "runtime", matchable=False,
      note="host code asks the device; a macro would give the host pass's value"),
    # A `__host__ __device__` function's run-time wave width: the device pass's own, the host pass asks the device
    # (a compile-time constant is the host pass's guess: kernelport/code_contexts.py's 'device' of such a function).
    C("hd_wave_size", "runtime", matchable=False, note="the device pass's width; the host pass asks the device"),
    # An array bound by the wave in a `__host__ __device__` function: the device pass's constant, the host pass's the
    # widest wave (its run-time reads, hd_wave_size, may give any device's width).
    C("hd_wave_bound", "index", matchable=False, note="the device pass's constant; the host pass's widest wave"),
    # A thread budget cut into rows of the wave (`block_size / 32` in a launch whose rows follow the
    # kernel: kernelport.launchrows): at least one row, where the budget is smaller than the wave.
    C("host_wave_rows", "runtime", ("threads",), matchable=False,
      note="32 threads on a 64-wide wave are one row of the wave, not none"),
    C("lanemask_type", "type", matchable=False),
    # Every lane of the wave, as a mask argument (CUDA's 0xffffffff names only 32 lanes).
    C("full_mask", "mask", matchable=False),
    C("lanemask_one", "type", matchable=False),
    C("lane_id", "index"),
    # The lane within a 32-lane CUDA warp, as data the kernel stores (kernelport/laneoutputs.py): on a
    # wave of 64 the wave's lane id counts 0..63; a backend whose waves are all 32 needs none.
    C("warp_lane", "index", matchable=False),
    # The same of a device helper's return that is the lane id (cub's `LaneId()`), at a call the kernel
    # stores: the helper's lane is the wave's, {lane} its call.
    C("warp_lane_of", "index", ("lane",), matchable=False),
    # A built-in index component (`threadIdx.x`) passed through `...` (printf): where the backend's
    # is a struct with a conversion (ROCm 5.2's), clang refuses it as a vararg; {x} is the operand.
    # PTX's bfe.u32 (an inline-asm idiom): bits pos..pos+len-1 of x, pos and len mod 256, 0 past bit 31.
    C("bfe_u32", "bitop", ("x", "pos", "len"), matchable=False),
    # A shared array's address as an element of a local braced initializer (kernelport/lds_address_lists.py): where
    # the backend's compiler would fold the constant list into a global it cannot initialise, an identity call.
    C("lds_address", "index", ("x",), matchable=False),
    # Other PTX idioms (kernelport/ptx_idioms.py), each exactly the instruction: `mov.b64 d, {lo, hi}`
    # and back (b32: of 16-bit halves), `shf.{l,r}.{wrap,clamp}.b32` (the high / low word of {hi, lo}
    # shifted by shift mod 32 / clamped to 32), `xor/and/or.bN`, `mul.hi/lo.u64`, `shl/shr.bN` (the amount
    # clamped to the width), `mov.bN` (a copy of the bits), `bfi.b32` (len bits of x into base at pos,
    # both mod 256, none past bit 31).
    *(C(k, "bitop", p, matchable=False) for k, p in (
        ("ptx_pack_b64", ("lo", "hi")), ("ptx_lo_b64", ("x",)), ("ptx_hi_b64", ("x",)),
        ("ptx_pack_b32", ("lo", "hi")), ("ptx_lo_b32", ("x",)), ("ptx_hi_b32", ("x",)),
        *((f"funnelshift_{d}", ("lo", "hi", "shift")) for d in ("l", "r", "lc", "rc")),
        ("ptx_xor", ("a", "b")), ("ptx_and", ("a", "b")), ("ptx_or", ("a", "b")), ("ptx_mov", ("x",)),
        *((f"ptx_{op}_b{n}", ("x", "n")) for op in ("shl", "shr") for n in (32, 64)),
        ("bfi_b32", ("x", "base", "pos", "len")),
        # carry chains (ptx_idioms.CARRY): a + b + ci (a - b - ci) in N bits, ci the carry-in (borrow) 0 or
        # 1; and its carry-out (borrow-out) as 0 or 1, what PTX's `.cc` forms leave in the flag
        *((f"ptx_{op}c{cf}_b{n}", ("a", "b", "ci")) for op in ("add", "sub") for cf in ("", "_cf") for n in (32, 64)),
        # ... and across calls (kernelport/carry_calls.py): the type of the flag's variable as a parameter
        # (by reference: each call's carry-out is its caller's) and as the local that starts a thread's chain
        ("ptx_carry_param", ()), ("ptx_carry_local", ()),
        # `not.bN` (~x), `add|sub.sat.s32` (the signed result clamped), `cvt.*32.{s,u}8|16` (x's low bits
        # sign- or zero-extended)
        ("ptx_not", ("x",)), ("ptx_add_sat_s32", ("a", "b")), ("ptx_sub_sat_s32", ("a", "b")),
        *((f"ptx_cvt_{s}{n}", ("x",)) for s in "su" for n in (8, 16)),
        ("ptx_cvt_rn_f16_f32", ("x",)), ("ptx_cvt_f32_f16", ("x",)),  # f32 to an f16's bits (nearest even), and back
        ("ptx_bfind_u32", ("x",)), ("ptx_bfind_u64", ("x",)),  # `bfind.u32|u64`: the top 1 bit's position, or -1
        ("ptx_mul_lo_b32", ("x", "y")), ("umulhi", ("x", "y")),
        ("umul64hi", ("x", "y")), ("ptx_mul_lo_b64", ("x", "y")),
        # `prmt.b32 d, a, b, c` (generic form): byte i of d is byte (c >> 4i) & 7 of {b, a}, or that byte's
        # sign bit replicated where (c >> 4i) & 8; `mul.rz.f32`, `fma.rz.f32`: a * b (+ c) rounded toward zero
        ("ptx_prmt_b32", ("a", "b", "c")), ("ptx_mul_rz_f32", ("a", "b")), ("ptx_fma_rz_f32", ("a", "b", "c")),
        # `cvta.to.shared.u64 d, p`: the shared-window address of generic pointer p; `cp.async.*.shared.global
        # [dst], [src], n, size`: n bytes to shared-window address dst, those past size zeros, complete at
        # once; `cp.async.commit_group`/`wait_group`/`wait_all` where every copy is: nothing left to do
        # `mul.wide.u32`, `mad.wide.u32` (the 64-bit a * b, + c), `min/max.u32|u64` (unsigned)
        ("ptx_mul_wide_u32", ("a", "b")), ("ptx_mad_wide_u32", ("a", "b", "c")),
        *((f"ptx_{op}_u{n}", ("a", "b")) for op in ("min", "max") for n in (32, 64)),
        # `vmin|vmax.s32.s32.s32.min|max d, a, b, c`: op2(op(a, b), c), signed
        *((f"ptx_v{op}_{op2}_s32", ("a", "b", "c")) for op in ("min", "max") for op2 in ("min", "max")),
        ("ptx_cvta_to_shared", ("p",)), ("ptx_cp_async", ("dst", "src", "n", "size")), ("ptx_cp_async_done", ()),
        # `ld.global{.ca,.cg,.nc}.bN` (a load; `.cs`, streaming: a nontemporal one) of word i of a vector
        # at p, its bits as out's type; `st.global` alike (x's bits as word i); `mov.u32 d, %clock` and
        # `%clock64` (the SM's cycle counter); an asm's "memory" clobber: a compiler-only fence
        *((f"ptx_ld_global{h}_b{n}_{i}", ("out", "p")) for h in ("", "_cs") for n in (32, 64) for i in range(4)),
        *((f"ptx_st_global{h}_b{n}_{i}", ("p", "x")) for h in ("", "_cs") for n in (32, 64) for i in range(4)),
        # `ld.shared`, `st.shared` alike at shared-window address p (ptx_cvta_to_shared's)
        *((f"ptx_ld_shared_b{n}_{i}", ("out", "p")) for n in (32, 64) for i in range(4)),
        *((f"ptx_st_shared_b{n}_{i}", ("p", "x")) for n in (32, 64) for i in range(4)),
        ("ptx_clock", ()), ("ptx_clock64", ()), ("ptx_memory_clobber", ()), ("ptx_trap", ()),
        ("ptx_smid", ()), ("ptx_nsmid", ()),  # `%smid`, `%nsmid` (kernelport/ptx_specials.py)
        # `%lanemask_lt` and kin as the group's width decides (kernelport/logical_lanes.py): the native group's
        # (no backend whose wave may be 64 spells it: a 32-bit mask cannot hold the wave's) and the 32-lane warp's
        *((f"ptx{w}_lanemask_{c}", ()) for w in ("", "_warp") for c in ("eq", "lt", "le", "gt", "ge")),
        # ... zero-extended into 64 bits: in a native group the wave's lanes (a 64-lane wave's mask needs 64 bits)
        *((f"ptx_lanemask64_{c}", ()) for c in ("eq", "lt", "le", "gt", "ge")),
        *ptx_ordered.CONCEPTS,  # `ld.acquire.gpu`, `st.release.sys`, `ld.volatile`, `fence.sc.gpu`, ... (ptx_ordered.py)
        # `setp.ne|eq.{b,s,u}N p, a, b`: whether a != b (a == b), into a predicate an instruction's guard reads
        ("ptx_setp_ne", ("a", "b")), ("ptx_setp_eq", ("a", "b")),
        # `set.cmp.u32.{s,u}N d, a, b`: all ones (0xffffffff) where a cmp b holds, signed or unsigned, else 0
        *((f"ptx_set_{c}_{s}{n}", ("a", "b")) for c in ("eq", "ne", "lt", "le", "gt", "ge") for s in "su"
          for n in (32, 64)),
        # `set.cmp.{and,or,xor}.u32.{s,u}N d, a, b, p`: all ones where (a cmp b) op p holds, else 0
        *((f"ptx_set_{c}_{bop}_{s}{n}", ("a", "b", "p")) for c in ("eq", "ne", "lt", "le", "gt", "ge")
          for bop in ("and", "or", "xor") for s in "su" for n in (32, 64)),
        # `setp.{lt,le,gt,ge}.{s,u}N p, a, b`: the ordered comparison as a predicate
        *((f"ptx_setp_{c}_{s}{n}", ("a", "b")) for c in ("lt", "le", "gt", "ge") for s in "su" for n in (32, 64)),
        # PTX's warp-collective matrix instructions (kernelport/ptx_matrix.py), each a statement that writes
        # its outputs d0.. (lvalues) after reading every input: `mma.sync.aligned.m16n8k{16,8}.row.col.f32.f16.
        # f16.f32` (D = A * B + C over a 32-lane warp, the fragments in PTX's documented per-lane layout) and
        # `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16` (8x8 matrices of b16 from the row addresses
        # p of lanes 0..8n-1, shared-window addresses as ptx_cvta_to_shared's)
        ("ptx_mma_m16n8k16_f32_f16", ("d0", "d1", "d2", "d3", "a0", "a1", "a2", "a3", "b0", "b1",
                                      "c0", "c1", "c2", "c3")),
        ("ptx_mma_m16n8k8_f32_f16", ("d0", "d1", "d2", "d3", "a0", "a1", "b0", "c0", "c1", "c2", "c3")),
        # ... and `mma.sync.aligned.m16n8k{32,16}.row.col.s32.s8.s8.s32` (signed bytes, s32 sums that wrap)
        ("ptx_mma_m16n8k32_s32_s8", ("d0", "d1", "d2", "d3", "a0", "a1", "a2", "a3", "b0", "b1", "c0", "c1", "c2", "c3")),
        ("ptx_mma_m16n8k16_s32_s8", ("d0", "d1", "d2", "d3", "a0", "a1", "b0", "c0", "c1", "c2", "c3")),
        *((f"ptx_ldmatrix_x{n}{t}", (*(f"d{i}" for i in range(n)), "p")) for n in (1, 2, 4) for t in ("", "_trans")),
        ("ptx_bound_operand", ("name", "value")),  # (a local reference to an operand the call names twice ...
        ("ptx_bound_output", ("name", "value")))),  # ... and to one it also writes: an lvalue, as the asm's "+f" needs)
    C("index_vararg", "index", ("x",), matchable=False),
    C("warp_id", "index"),

    # -- barriers and fences ----------------------------------------------------------------
    C("syncthreads", "barrier"),
    C("syncwarp", "barrier", ("mask",), warp_level=True,
      note="HIP: __syncwarp exists only from ROCm 6; kp_syncwarp (prologue) is what it does: a wave "
           "barrier between wavefront-scope release and acquire fences, so shared memory is ordered too"),
    # A barrier that also orders device memory (Metal: where the group shares data through it).
    C("syncthreads_device", "barrier", matchable=False),
    C("threadfence", "barrier"),
    C("threadfence_block", "barrier"),

    # -- warp shuffles ------------------------------------------------------------------------
    C("shfl", "shuffle", ("mask", "value", "lane", "width"), warp_level=True),
    C("shfl_up", "shuffle", ("mask", "value", "delta", "width"), warp_level=True),
    C("shfl_down", "shuffle", ("mask", "value", "delta", "width"), warp_level=True),
    C("shfl_xor", "shuffle", ("mask", "value", "lanemask", "width"), warp_level=True),

    # -- votes and masks ----------------------------------------------------------------------
    C("ballot", "vote", ("mask", "predicate"), warp_level=True, note="32-bit on CUDA, 64-bit on HIP and Metal"),
    C("any", "vote", ("mask", "predicate"), warp_level=True),
    C("all", "vote", ("mask", "predicate"), warp_level=True),
    # A vote over the caller's own aligned group of G lanes (CGBN's TPI groups; groupmasks proves the
    # mask): on a wave, its ballot restricted to the group (each backend's from dialect.group_votes).
    C("group_ballot", "vote", ("mask", "predicate"), warp_level=True, matchable=False),
    C("group_any", "vote", ("mask", "predicate"), warp_level=True, matchable=False),
    C("group_all", "vote", ("mask", "predicate"), warp_level=True, matchable=False),
    C("activemask", "vote", warp_level=True),
    C("lanemask_lt", "vote", warp_level=True),
    # Shuffles over a logical sub-warp (an explicit width below the SIMD width): Metal has no
    # width argument, so a kp_ helper keeps each segment separate.
    C("shfl_width", "shuffle", ("value", "lane", "width", "lane_id"), matchable=False),
    C("shfl_up_width", "shuffle", ("value", "delta", "width", "lane_id"), matchable=False),
    C("shfl_down_width", "shuffle", ("value", "delta", "width", "lane_id"), matchable=False),
    C("shfl_xor_width", "shuffle", ("value", "lanemask", "width", "lane_id"), matchable=False),
    # Native SIMD-group reductions (what an exactly equivalent hand-written butterfly becomes).
    C("simd_sum", "reduction", ("value",)),
    C("simd_max", "reduction", ("value",)),
    C("simd_min", "reduction", ("value",)),

    # -- bit operations (the 64-bit forms are what lane masks need off NVIDIA) --------------
    *(C(k, "bitop", ("x",)) for k in ("popc", "popc64", "ffs", "ffs64", "clz", "clz64", "brev", "brev64")),

    # -- atomics ----------------------------------------------------------------------------------
    *(C(f"atomic_{op}", "atomic", ("address", "value")) for op, _ in ATOMIC_OPS),
    C("atomic_exch", "atomic", ("address", "value")),
    *(C(f"atomic_{op}_cas", "atomic", ("address", "value"), matchable=False) for op in CAS_ATOMIC_OPS),
    # a 64-bit add as two 32-bit adds with a carry (Metal: metal/split_atomics.py says where that is exact)
    C("atomic_add_split", "atomic", ("address", "value"), matchable=False),
    *(C(f"atomic_{op}_ulong", "atomic", ("address", "value"), matchable=False) for op in ("min", "max")),
    C("atomic_cas", "atomic", ("address", "compare", "value")),
    C("atomic_inc", "atomic", ("address", "value")),
    C("atomic_dec", "atomic", ("address", "value")),

    # -- math: accurate and fast forms ----------------------------------------------------------
    *(C(f"math_{fn}", "math", ("x",)) for fn in MATH_ACCURATE + MATH_EXACT),
    *(C(f"math_{fn}", "math", ("x",)) for fn in ("rsqrt", "erf", "expm1", "log1p")),
    C("math_pow", "math", ("x", "y")),
    C("math_fmin", "math", ("x", "y")),
    C("math_fmax", "math", ("x", "y")),
    C("math_fma", "math", ("x", "y", "z")),
    *(C(f"fast_{fn}", "math", ("x",)) for fn in MATH_FAST),
    C("fast_pow", "math", ("x", "y")),
    C("fast_divide", "math", ("x", "y")),
    C("saturate", "math", ("x",)),

    # -- types and qualifiers --------------------------------------------------------------------
    C("half", "type"),
    C("null", "type"),
    # 64-bit integers: Metal spells them long/ulong (matched by translate on the type text).
    C("long_long", "type", matchable=False),
    C("ulong_long", "type", matchable=False),
    # A 3-component vector in a buffer: Metal's float3 is 16 bytes, packed_float3 is CUDA's 12.
    C("vec3_buffer", "type", ("t",), matchable=False),
    *(C(f"make_{t}{n}", "type", tuple("xyzw"[:n])) for t, n in VECTOR_MAKERS),
    *(C(f"vector_{v}", "type") for v in RESPELLED_VECTORS),  # after the makers: Metal's `long2` reads as make_long2
    C("bfloat16", "type"),
    C("double", "type", note="Metal has no double"),
    C("kernel", "qualifier"),
    C("device_fn", "qualifier"),
    C("shared", "qualifier"),
    C("constant_mem", "qualifier"),
    C("forceinline", "qualifier"),
    C("grid_constant", "qualifier"),  # a by-value kernel parameter not copied per thread (CUDA 11.7)
    # A device function the port cannot translate and no code of the run calls, written as a declaration a
    # call cannot compile against ({why}: the reason, the compiler's message at that call); None: the whole
    # file is refused instead.
    C("unavailable_fn", "qualifier", ("why",), matchable=False),
    C("launch_bounds", "qualifier", ("threads",)),

    # -- host runtime (HIP only: a Metal host is Swift/Objective-C, described by the sidecar) --
    C("runtime_header", "header"),
    C("fp16_header", "header"),
    C("bf16_header", "header"),
    C("coop_groups_header", "header"),
    C("coop_groups_reduce_header", "header",
      note="cg::reduce: no HIP header (ROCm 5/6); write the reduction with shuffles"),
    C("coop_groups_memcpy_async_header", "header",
      note="cg::memcpy_async / wait: no HIP header (ROCm 5/6); HIP's port copies synchronously (hip_async_copies.py)"),
    C("cub_header", "header"),
    # C library headers: Metal's math and integer functions come with <metal_stdlib>.
    *(C(header_key(h), "header") for h in C_HEADERS),
    # CUDA-only warp intrinsics (sm_70's matches): ported only with CUDA's full mask, over the group's width
    # as a warp reduction is (HIP: the prologue's loop of ballots); another mask is KP203, no spelling KP202.
    *(C(f"cuda_only_{n}", "cuda_only", CUDA_ONLY_PARAMS[n], warp_level=True) for n in CUDA_ONLY_WARP),
    # sm_80's warp reductions: every lane of the mask gets the reduction over those lanes (32-bit
    # int or unsigned operands). Ported only with CUDA's full mask, over the group's width (32 in a
    # logical 32-lane group, the wave in a wave-wide one, as its full-mask shuffles are); another
    # mask is refused (KP203). No spelling on a backend: KP202 there.
    *(C(f"warp_reduce_{op}", "warp_reduce", ("mask", "value", "width"), warp_level=True) for op in WARP_REDUCE_OPS),
    *(C(f"cuda_only_{n}", "cuda_only", CUDA_ONLY_PARAMS.get(n, ())) for n in CUDA_ONLY_OTHER),
    *(C(f"rt_{n}", "runtime") for n in RUNTIME_NAMES),
    C("rt_attr_warp_size", "runtime"),
    # Every other CUDA API name (runtime, driver, libraries, half and bfloat16 intrinsics): found by
    # the source backend's API pattern or a backend's API table, spelled by the target's table
    # (HIP: HIPIFY's maps); a name with no entry is refused, never guessed (KP210).
    C("api", "runtime", matchable=False, note="HIP: kernelport/backends/hip_api.tsv, from HIPIFY"),
)


@lru_cache(maxsize=None)
def _by_name(backend: str) -> dict[str, Concept]:
    table: dict[str, Concept] = {}
    for c in CONCEPTS:
        if not c.matchable:
            continue
        n = c.name(backend)
        if n and n not in table:
            table[n] = c
        for a in c.aliases.get(backend, ()):
            table.setdefault(a, c)
    return table


@lru_cache(maxsize=65536)  # the tables it reads are cached for the process too (_by_name, _patterns)
def lookup(backend: str, name: str) -> Concept | None:
    """The concept that `name` spells on `backend` (a function, builtin or type name)."""
    c = _by_name(backend).get(name)
    if c is None and is_api_name(backend, name):
        return _BY_KEY["api"]
    return c


def is_api_name(backend: str, name: str) -> bool:
    """Whether `name`, read as `backend`'s text, is an API name of that dialect that no concept
    covers: it looks like one (the backend's `api_pattern`) or a backend's API table lists it.
    Only the source dialect's text is read this way."""
    b = _backends().get(backend)
    if not b.is_source:
        return False
    if b.api_pattern is not None and _api_regex(b.api_pattern).fullmatch(name):
        return True
    return _in_a_table(name)


@lru_cache(maxsize=None)
def _api_regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _in_a_table(name: str) -> bool:
    """Whether some backend's table spells the CUDA name `name` differently or not at all (an
    identical, supported spelling, `sinf` or `__hadd`, needs nothing).  Asked per name, so that
    only the rows asked for are read (lookup() caches the answer)."""
    for b in _backends().all():
        table = b.api()
        e = table.get(name) if table is not None else None
        if e is not None and not e.is_header and (name != e.hip or not e.supported):
            return True
    return False


def _api_spelling(backend: str, key: str) -> str | None:
    table = _backends().get(backend).api()
    source = _backends().source().spellings.get(key)
    return table.spelling(source) if table is not None and source is not None else None


def rename(c: Concept, name: str, source: str, target: str) -> str | None:
    """The identifier `name` (spelled on `source`) spelled on `target`: API names from the
    target's table, concepts from their spellings."""
    if c.key == "api":
        table = _backends().get(target).api()
        return table.spelling(name) if table is not None else None
    to = c.spelling(target)
    if to is None:
        return None
    if c.kind == "index" and to.endswith("()"):
        return to  # a value spelled as a call (portable `kp_wave_size()`): the name alone is no value
    return c.name(target)


def concept(key: str) -> Concept:
    return _BY_KEY[key]


_BY_KEY = {c.key: c for c in CONCEPTS}


@lru_cache(maxsize=None)
def respelled(source: str, backend: str) -> frozenset[str]:
    """The names of `source`'s concepts that `backend` spells otherwise (for the process, as `_by_name`)."""
    return frozenset(n for n, c in _by_name(source).items() if c.spelling(backend) != c.spelling(source))


def warp_level_names(backend: str = "cuda") -> frozenset[str]:
    return frozenset(n for n, c in _by_name(backend).items() if c.warp_level)


# ---------------------------------------------------------------------------------------------
# Spelling templates
# ---------------------------------------------------------------------------------------------
_OPT = lazy_re.compile(r"(?<!\[)\[([^\[\]]*)\](?!\])")  # [optional], never an [[attribute]]
_PARAM = lazy_re.compile(r"\{(\w+)\}")


def render(c: Concept, backend: str, args: dict[str, str]) -> str:
    """Render concept `c` on `backend` with bound argument texts (missing optionals dropped)."""
    s = c.spelling(backend)
    if s is None:
        raise KeyError(f"{c.key} has no {backend} spelling")

    def opt(m: re.Match) -> str:
        names = _PARAM.findall(m.group(1))
        return m.group(1) if all(args.get(n) is not None for n in names) else ""

    s = _OPT.sub(opt, s)
    return _PARAM.sub(lambda m: args[m.group(1)], s)


@lru_cache(maxsize=None)
def _library(backend: str) -> dict[str, tuple[Concept, str]]:
    out: dict[str, tuple[Concept, str]] = {}
    for key, templates in _backends().get(backend).library_spellings.items():
        for t in templates:
            out.setdefault(t[:t.index("(")], (_BY_KEY[key], t))
    return out


def library_call(backend: str, name: str) -> tuple[Concept, list[str], int] | None:
    """A library's warp helper (a backend's `library_spellings`): its concept, positional
    parameter names and how many are required.  For the analyses only: never rendered."""
    hit = _library(backend).get(name)
    if hit is None:
        return None
    return (hit[0], *template_params(hit[1]))


def warp_collective_width(backend: str, name: str) -> int | None:
    """Where a library warp collective class (`cub::WarpReduce`) takes its logical width."""
    return _backends().get(backend).warp_collectives.get(name)


def call_params(c: Concept, backend: str) -> tuple[list[str], int]:
    """Positional parameter names of a call spelling and how many are required."""
    return template_params(c.spelling(backend) or "")


def template_params(s: str) -> tuple[list[str], int]:
    """Positional parameter names of a call template and how many are required."""
    inside = s[s.find("(") + 1: s.rfind(")")] if "(" in s else ""
    names, required, seen_opt = [], 0, False
    for part in re.split(r"(\[[^\]]*\])", inside):
        is_opt = part.startswith("[")
        for n in _PARAM.findall(part):
            names.append(n)
            if not is_opt and not seen_opt:
                required += 1
        seen_opt = seen_opt or is_opt
    return names, required


def bind(c: Concept, backend: str, arg_texts: list[str]) -> dict[str, str | None] | None:
    """Bind positional call arguments (as written on `backend`) to the concept's parameters.

    Alias spellings (legacy CUDA `__shfl_down(v, d, w)`) bind like the other backend that
    spells them canonically (HIP), so mask-less forms are understood everywhere.
    """
    names, required = call_params(c, backend)
    if not (required <= len(arg_texts) <= len(names)):
        return None
    bound: dict[str, str | None] = {p: None for p in c.params}
    bound.update(zip(names, arg_texts))
    return bound


def spelled_by(backend: str, name: str) -> tuple[Concept, str] | None:
    """Concept and the backend whose canonical argument order `name` follows."""
    c = lookup(backend, name)
    if c is None or c.key == "api":
        return None  # an API name is renamed, never run or rendered as a concept
    if c.name(backend) == name:
        return c, backend
    # An alias: find the backend where it is canonical (legacy CUDA names are HIP's).
    for b in _backends().names():
        if c.name(b) == name:
            return c, b
    return c, backend


def bind_call(backend: str, name: str, call) -> tuple[Concept, str, dict] | None:
    """(concept, argument-order backend, {parameter: argument node}) of a call of `backend`'s dialect
    named `name`, else None (a concept's call with too few or too many arguments binds nothing)."""
    found = spelled_by(backend, name)
    if found is None:
        return None
    c, order = found
    args_node = call.child_by_field_name("arguments")
    args = [a for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
    names, required = call_params(c, order)
    if c.params and not (required <= len(args) <= max(len(names), required)):
        return None
    return c, order, dict(zip(names, args))
