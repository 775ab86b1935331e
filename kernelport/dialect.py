"""The dialect table: every GPU concept once, with one spelling per backend.

Translate reads it forwards (a CUDA spelling is matched, its arguments bound to the concept's
parameter names, and the target's spelling rendered), verify reads it backwards (a HIP or Metal
port is parsed back into concepts), lint uses it to know what is a warp operation.  Adding a
backend is a new column here plus templates, not edits across the code.

A spelling is a small template:

    "__shfl_down_sync({mask}, {value}, {delta}[, {width}])"

`{name}` is a concept parameter, `[...]` an optional part that is dropped when the parameter
inside it is not bound.  `None` means the backend has no equivalent (translate stops there with
a diagnostic).  Builtin variables (threadIdx, ...) are spelled by their identifier alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

BACKENDS = ("cuda", "hip", "metal")


@dataclass(frozen=True)
class Concept:
    key: str
    kind: str  # index | barrier | shuffle | vote | mask | bitop | atomic | math | type | qualifier | runtime | header
    params: tuple[str, ...]
    spell: dict[str, str | None]
    # Other accepted spellings per backend (legacy or alternative names), read but never written.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    warp_level: bool = False  # a warp/SIMD-group collective: its result depends on the wave width
    matchable: bool = True  # False: written by translate, never matched by name when reading
    # Metal built-in attribute for index-like concepts: (type, attribute).
    metal_attr: tuple[str, str] | None = None
    note: str = ""

    def spelling(self, backend: str) -> str | None:
        return self.spell.get(backend)

    def name(self, backend: str) -> str | None:
        """The identifier a spelling starts with (the function or variable name)."""
        s = self.spell.get(backend)
        if s is None:
            return None
        if self.kind == "header":
            return s
        m = re.match(r"[A-Za-z_][\w:]*", s)
        return m.group(0) if m else None


def C(key, kind, params, cuda, hip, metal, *, aliases=None, warp_level=False, metal_attr=None, note="",
      matchable=True):
    return Concept(key, kind, tuple(params), {"cuda": cuda, "hip": hip, "metal": metal},
                   aliases or {}, warp_level, matchable, metal_attr, note)


# ---------------------------------------------------------------------------------------------
# The table.  Order matters only for readability.
# ---------------------------------------------------------------------------------------------
CONCEPTS: tuple[Concept, ...] = (
    # -- thread hierarchy -------------------------------------------------------------------
    C("thread_idx", "index", (), "threadIdx", "threadIdx", "tid",
      aliases={"hip": ("hipThreadIdx",)}, metal_attr=("uint3", "thread_position_in_threadgroup")),
    C("block_idx", "index", (), "blockIdx", "blockIdx", "bid",
      aliases={"hip": ("hipBlockIdx",)}, metal_attr=("uint3", "threadgroup_position_in_grid")),
    C("block_dim", "index", (), "blockDim", "blockDim", "bdim",
      aliases={"hip": ("hipBlockDim",)}, metal_attr=("uint3", "threads_per_threadgroup")),
    C("grid_dim", "index", (), "gridDim", "gridDim", "gdim",
      aliases={"hip": ("hipGridDim",)}, metal_attr=("uint3", "threadgroups_per_grid")),
    C("warp_size", "index", (), "warpSize", "warpSize", "simd_width",
      metal_attr=("uint", "threads_per_simdgroup"),
      note="32 on NVIDIA; 64 on CDNA (gfx9), 32 on RDNA; not a constant expression from ROCm 7"),
    # How translate spells the wave width where CUDA code hardcoded 32 (never matched by name).
    C("wave_size_const", "index", (), "32", "KP_WAVE_SIZE", "32", matchable=False,
      note="compile-time wave width: HIP derives it from the architecture (__GFX9__ → 64)"),
    C("wave_size_bound", "index", (), "32", "KP_WAVE_SIZE", "64", matchable=False,
      note="an array sized per lane or per warp: at least the wave width on every device of the backend "
           "(Metal does not promise 32: 64 covers every SIMD-group width it reports)"),
    C("host_wave_size", "runtime", (), "32", "kp_device_warp_size()", None, matchable=False,
      note="host code asks the device; a macro would give the host pass's value"),
    C("lanemask_type", "type", (), "unsigned int", "unsigned long long", "ulong", matchable=False),
    C("lanemask_one", "type", (), "1u", "1ull", "1ul", matchable=False),
    C("lane_id", "index", (), None, "__lane_id()", "simd_lane",
      metal_attr=("uint", "thread_index_in_simdgroup")),
    C("warp_id", "index", (), None, None, "simd_group",
      metal_attr=("uint", "simdgroup_index_in_threadgroup")),

    # -- barriers and fences ----------------------------------------------------------------
    C("syncthreads", "barrier", (), "__syncthreads()", "__syncthreads()",
      "threadgroup_barrier(mem_flags::mem_threadgroup)"),
    C("syncwarp", "barrier", ("mask",), "__syncwarp([{mask}])", "kp_syncwarp()",
      "simdgroup_barrier(mem_flags::mem_threadgroup)", warp_level=True,
      note="HIP: __syncwarp exists only from ROCm 6; kp_syncwarp (prologue) is what it does: a wave "
           "barrier between wavefront-scope release and acquire fences, so shared memory is ordered too"),
    # A barrier that also orders device memory (Metal: where the group shares data through it).
    C("syncthreads_device", "barrier", (), "__syncthreads()", "__syncthreads()",
      "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup)", matchable=False),
    C("threadfence", "barrier", (), "__threadfence()", "__threadfence()",
      "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device)"),
    C("threadfence_block", "barrier", (), "__threadfence_block()", "__threadfence_block()",
      "atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_seq_cst, thread_scope_threadgroup)"),

    # -- warp shuffles ------------------------------------------------------------------------
    C("shfl", "shuffle", ("mask", "value", "lane", "width"),
      "__shfl_sync({mask}, {value}, {lane}[, {width}])", "__shfl({value}, {lane}[, {width}])",
      "simd_shuffle({value}, {lane})", warp_level=True, aliases={"cuda": ("__shfl",)}),
    C("shfl_up", "shuffle", ("mask", "value", "delta", "width"),
      "__shfl_up_sync({mask}, {value}, {delta}[, {width}])", "__shfl_up({value}, {delta}[, {width}])",
      "simd_shuffle_up({value}, {delta})", warp_level=True, aliases={"cuda": ("__shfl_up",)}),
    C("shfl_down", "shuffle", ("mask", "value", "delta", "width"),
      "__shfl_down_sync({mask}, {value}, {delta}[, {width}])", "__shfl_down({value}, {delta}[, {width}])",
      "simd_shuffle_down({value}, {delta})", warp_level=True, aliases={"cuda": ("__shfl_down",)}),
    C("shfl_xor", "shuffle", ("mask", "value", "lanemask", "width"),
      "__shfl_xor_sync({mask}, {value}, {lanemask}[, {width}])", "__shfl_xor({value}, {lanemask}[, {width}])",
      "simd_shuffle_xor({value}, {lanemask})", warp_level=True, aliases={"cuda": ("__shfl_xor",)}),

    # -- votes and masks ----------------------------------------------------------------------
    C("ballot", "vote", ("mask", "predicate"), "__ballot_sync({mask}, {predicate})",
      "__ballot({predicate})", "static_cast<ulong>(simd_ballot({predicate}))", warp_level=True,
      aliases={"cuda": ("__ballot",), "metal": ("simd_ballot",)}, note="32-bit on CUDA, 64-bit on HIP and Metal"),
    C("any", "vote", ("mask", "predicate"), "__any_sync({mask}, {predicate})", "__any({predicate})",
      "simd_any({predicate})", warp_level=True, aliases={"cuda": ("__any",)}),
    C("all", "vote", ("mask", "predicate"), "__all_sync({mask}, {predicate})", "__all({predicate})",
      "simd_all({predicate})", warp_level=True, aliases={"cuda": ("__all",)}),
    C("activemask", "vote", (), "__activemask()", "__ballot(1)",
      "static_cast<ulong>(simd_active_threads_mask())", warp_level=True, aliases={"metal": ("simd_active_threads_mask",)}),
    C("lanemask_lt", "vote", (), None, "__lanemask_lt()", None, warp_level=True),
    # Shuffles over a logical sub-warp (an explicit width below the SIMD width): Metal has no
    # width argument, so a kp_ helper keeps each segment separate.
    C("shfl_width", "shuffle", ("value", "lane", "width", "lane_id"), None, None,
      "kp_simd_shuffle({value}, {lane}, {width}, {lane_id})", matchable=False),
    C("shfl_up_width", "shuffle", ("value", "delta", "width", "lane_id"), None, None,
      "kp_simd_shuffle_up({value}, {delta}, {width}, {lane_id})", matchable=False),
    C("shfl_down_width", "shuffle", ("value", "delta", "width", "lane_id"), None, None,
      "kp_simd_shuffle_down({value}, {delta}, {width}, {lane_id})", matchable=False),
    C("shfl_xor_width", "shuffle", ("value", "lanemask", "width", "lane_id"), None, None,
      "kp_simd_shuffle_xor({value}, {lanemask}, {width}, {lane_id})", matchable=False),
    # Native SIMD-group reductions (what an exactly equivalent hand-written butterfly becomes).
    C("simd_sum", "reduction", ("value",), None, None, "simd_sum({value})"),
    C("simd_max", "reduction", ("value",), None, None, "simd_max({value})"),
    C("simd_min", "reduction", ("value",), None, None, "simd_min({value})"),

    # -- bit operations (the 64-bit forms are what lane masks need off NVIDIA) --------------
    C("popc", "bitop", ("x",), "__popc({x})", "__popc({x})", "popcount({x})"),
    C("popc64", "bitop", ("x",), "__popcll({x})", "__popcll({x})", "popcount({x})"),
    C("ffs", "bitop", ("x",), "__ffs({x})", "__ffs({x})", "kp_ffs({x})"),
    C("ffs64", "bitop", ("x",), "__ffsll({x})", "__ffsll({x})", "kp_ffs({x})"),
    C("clz", "bitop", ("x",), "__clz({x})", "__clz({x})", "clz({x})"),
    C("clz64", "bitop", ("x",), "__clzll({x})", "__clzll({x})", "clz({x})"),
    C("brev", "bitop", ("x",), "__brev({x})", "__brev({x})", "reverse_bits({x})"),
    C("brev64", "bitop", ("x",), "__brevll({x})", "__brevll({x})", "reverse_bits({x})"),

    # -- atomics (Metal casts the address to an atomic type in its address space) ------------
    *(C(f"atomic_{op}", "atomic", ("address", "value"), f"{cu}({{address}}, {{value}})",
        f"{cu}({{address}}, {{value}})",
        f"atomic_fetch_{op}_explicit(({{space}} atomic_{{type}}*)({{address}}), {{value}}, memory_order_relaxed)")
      for op, cu in (("add", "atomicAdd"), ("sub", "atomicSub"), ("min", "atomicMin"), ("max", "atomicMax"),
                     ("and", "atomicAnd"), ("or", "atomicOr"), ("xor", "atomicXor"))),
    C("atomic_exch", "atomic", ("address", "value"), "atomicExch({address}, {value})",
      "atomicExch({address}, {value})",
      "atomic_exchange_explicit(({space} atomic_{type}*)({address}), {value}, memory_order_relaxed)"),
    # What Metal lacks natively, through a compare-and-swap loop on the bits (kp_ helpers):
    # float atomics on threadgroup memory, float min/max anywhere.
    *(C(f"atomic_{op}_cas", "atomic", ("address", "value"), None, None, f"kp_atomic_{op}({{address}}, {{value}})",
        matchable=False) for op in ("add", "sub", "min", "max")),
    C("atomic_cas", "atomic", ("address", "compare", "value"), "atomicCAS({address}, {compare}, {value})",
      "atomicCAS({address}, {compare}, {value})", "kp_atomic_cas({address}, {compare}, {value})"),
    C("atomic_inc", "atomic", ("address", "value"), "atomicInc({address}, {value})",
      "atomicInc({address}, {value})", "kp_atomic_inc({address}, {value})"),
    C("atomic_dec", "atomic", ("address", "value"), "atomicDec({address}, {value})",
      "atomicDec({address}, {value})", "kp_atomic_dec({address}, {value})"),

    # -- math: accurate and fast forms ----------------------------------------------------------
    *(C(f"math_{fn}", "math", ("x",), f"{fn}f({{x}})", f"{fn}f({{x}})", f"precise::{fn}({{x}})")
      for fn in ("exp", "log", "sin", "cos", "tan", "sqrt", "exp2", "log2", "log10", "tanh", "sinh", "cosh",
                 "asin", "acos", "atan")),
    *(C(f"math_{fn}", "math", ("x",), f"{fn}f({{x}})", f"{fn}f({{x}})", f"{fn}({{x}})")
      for fn in ("fabs", "floor", "ceil", "trunc", "round")),
    C("math_rsqrt", "math", ("x",), "rsqrtf({x})", "rsqrtf({x})", "precise::rsqrt({x})"),
    C("math_erf", "math", ("x",), "erff({x})", "erff({x})", "kp_erf({x})"),
    C("math_expm1", "math", ("x",), "expm1f({x})", "expm1f({x})", "kp_expm1({x})"),
    C("math_log1p", "math", ("x",), "log1pf({x})", "log1pf({x})", "kp_log1p({x})"),
    C("math_pow", "math", ("x", "y"), "powf({x}, {y})", "powf({x}, {y})", "precise::pow({x}, {y})"),
    C("math_fmin", "math", ("x", "y"), "fminf({x}, {y})", "fminf({x}, {y})", "fmin({x}, {y})"),
    C("math_fmax", "math", ("x", "y"), "fmaxf({x}, {y})", "fmaxf({x}, {y})", "fmax({x}, {y})"),
    C("math_fma", "math", ("x", "y", "z"), "fmaf({x}, {y}, {z})", "fmaf({x}, {y}, {z})", "fma({x}, {y}, {z})"),
    C("fast_exp", "math", ("x",), "__expf({x})", "__expf({x})", "fast::exp({x})"),
    C("fast_log", "math", ("x",), "__logf({x})", "__logf({x})", "fast::log({x})"),
    C("fast_sin", "math", ("x",), "__sinf({x})", "__sinf({x})", "fast::sin({x})"),
    C("fast_cos", "math", ("x",), "__cosf({x})", "__cosf({x})", "fast::cos({x})"),
    C("fast_pow", "math", ("x", "y"), "__powf({x}, {y})", "__powf({x}, {y})", "fast::pow({x}, {y})"),
    C("fast_divide", "math", ("x", "y"), "__fdividef({x}, {y})", "__fdividef({x}, {y})", "fast::divide({x}, {y})"),
    C("saturate", "math", ("x",), "__saturatef({x})", "__saturatef({x})", "saturate({x})"),

    # -- types and qualifiers --------------------------------------------------------------------
    C("half", "type", (), "__half", "__half", "half"),
    C("null", "type", (), "NULL", "NULL", "nullptr"),
    # 64-bit integers: Metal spells them long/ulong (matched by translate on the type text).
    C("long_long", "type", (), "long long", "long long", "long", matchable=False),
    C("ulong_long", "type", (), "unsigned long long", "unsigned long long", "ulong", matchable=False),
    # A 3-component vector in a buffer: Metal's float3 is 16 bytes, packed_float3 is CUDA's 12.
    C("vec3_buffer", "type", ("t",), "{t}3", "{t}3", "packed_{t}3", matchable=False),
    *(C(f"make_{t}{n}", "type", tuple("xyzw"[:n]), f"make_{t}{n}(" + ", ".join("{%s}" % c for c in "xyzw"[:n]) + ")",
        f"make_{t}{n}(" + ", ".join("{%s}" % c for c in "xyzw"[:n]) + ")",
        f"{t}{n}(" + ", ".join("{%s}" % c for c in "xyzw"[:n]) + ")")
      for t in ("float", "int", "uint", "half") for n in (2, 3, 4)),
    C("bfloat16", "type", (), "__nv_bfloat16", "__hip_bfloat16", "bfloat"),
    C("double", "type", (), "double", "double", None, note="Metal has no double"),
    C("kernel", "qualifier", (), "__global__", "__global__", "kernel"),
    C("device_fn", "qualifier", (), "__device__", "__device__", ""),
    C("shared", "qualifier", (), "__shared__", "__shared__", "threadgroup"),
    C("constant_mem", "qualifier", (), "__constant__", "__constant__", "constant"),
    C("forceinline", "qualifier", (), "__forceinline__", "__forceinline__", "inline"),
    C("launch_bounds", "qualifier", ("threads",), "__launch_bounds__({threads})", "__launch_bounds__({threads})",
      "[[max_total_threads_per_threadgroup({threads})]]"),

    # -- host runtime (HIP only: a Metal host is Swift/Objective-C, described by the sidecar) --
    C("runtime_header", "header", (), "cuda_runtime.h", "hip/hip_runtime.h", None,
      aliases={"cuda": ("cuda.h", "cuda_runtime_api.h")}),
    C("fp16_header", "header", (), "cuda_fp16.h", "hip/hip_fp16.h", None),
    C("bf16_header", "header", (), "cuda_bf16.h", "hip/hip_bf16.h", None),
    C("coop_groups_header", "header", (), "cooperative_groups.h", "hip/hip_cooperative_groups.h", None),
    C("coop_groups_reduce_header", "header", (), "cooperative_groups/reduce.h", None, None,
      note="cg::reduce: no HIP header (ROCm 5/6); write the reduction with shuffles"),
    C("cub_header", "header", (), "cub/cub.cuh", "hipcub/hipcub.hpp", None),
    # C library headers: Metal's math and integer functions come with <metal_stdlib>.
    *(C(f"c_header_{h.replace('.', '_')}", "header", (), h, h, None) for h in (
        "math.h", "cmath", "stdint.h", "cstdint", "stdio.h", "cstdio", "stdlib.h", "cstdlib", "float.h", "cfloat",
        "limits.h", "climits", "assert.h", "cassert", "string.h", "cstring", "stddef.h", "cstddef",
        # C++ library headers: Metal has no C++ standard library (its own pieces are in <metal_stdlib>).
        "algorithm", "utility", "type_traits", "limits", "numeric", "functional", "iterator", "array",
        "tuple", "initializer_list", "cfenv", "climits", "cinttypes", "inttypes.h", "stdbool.h")),
    # CUDA-only warp intrinsics: no HIP or Metal spelling that compiles everywhere.
    *(C(f"cuda_only_{n}", "cuda_only", (), f"{n}()", None, None, warp_level=True) for n in (
        "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
        "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync")),
    *(C(f"cuda_only_{n}", "cuda_only", (), f"{n}()", None, None) for n in (
        "__nanosleep", "__cvta_generic_to_shared", "__isShared", "__isGlobal", "__prof_trigger")),
    *(C(f"rt_{n}", "runtime", (), f"cuda{n}", f"hip{n}", None) for n in (
        "Malloc", "MallocManaged", "MallocHost", "Free", "FreeHost", "Memcpy", "MemcpyAsync", "Memset",
        "MemsetAsync", "MemcpyHostToDevice", "MemcpyDeviceToHost", "MemcpyDeviceToDevice", "MemcpyDefault",
        "DeviceSynchronize", "GetLastError", "PeekAtLastError", "GetErrorString", "Error_t", "Success",
        "Stream_t", "StreamCreate", "StreamDestroy", "StreamSynchronize", "Event_t", "EventCreate",
        "EventRecord", "EventSynchronize", "EventElapsedTime", "EventDestroy", "GetDevice", "SetDevice",
        "GetDeviceCount", "DeviceProp", "GetDeviceProperties", "DeviceGetAttribute", "FuncSetAttribute",
        "OccupancyMaxActiveBlocksPerMultiprocessor", "LaunchKernel", "MemcpyToSymbol")),
    C("rt_attr_warp_size", "runtime", (), "cudaDevAttrWarpSize", "hipDeviceAttributeWarpSize", None),
    # Every other runtime identifier: HIP renames cudaX to hipX (hipify's rule), Metal has none.
    C("rt_any", "runtime", (), "cuda*", "hip*", None, note="a prefix pattern: cudaMemcpyFromSymbol -> hipMemcpyFromSymbol"),
)


@lru_cache(maxsize=None)
def _by_name(backend: str) -> dict[str, Concept]:
    table: dict[str, Concept] = {}
    for c in CONCEPTS:
        if not c.matchable or (c.spell.get(backend) or "").endswith("*"):
            continue
        n = c.name(backend)
        if n and n not in table:
            table[n] = c
        for a in c.aliases.get(backend, ()):
            table.setdefault(a, c)
    return table


def lookup(backend: str, name: str) -> Concept | None:
    """The concept that `name` spells on `backend` (a function, builtin or type name)."""
    c = _by_name(backend).get(name)
    if c is None:
        for p in _PATTERNS:
            prefix = (p.spell.get(backend) or "").rstrip("*")
            if prefix and name.startswith(prefix) and name[len(prefix):len(prefix) + 1].isupper():
                return p
    return c


def rename(c: Concept, name: str, source: str, target: str) -> str | None:
    """The identifier `name` (spelled on `source`) spelled on `target`; prefix patterns keep the rest."""
    to = c.spell.get(target)
    if to is None:
        return None
    if to.endswith("*"):
        return to[:-1] + name[len((c.spell.get(source) or "").rstrip("*")):]
    return c.name(target)


def concept(key: str) -> Concept:
    return _BY_KEY[key]


_BY_KEY = {c.key: c for c in CONCEPTS}
_PATTERNS = tuple(c for c in CONCEPTS if any((v or "").endswith("*") for v in c.spell.values()))


def warp_level_names(backend: str = "cuda") -> frozenset[str]:
    return frozenset(n for n, c in _by_name(backend).items() if c.warp_level)


# ---------------------------------------------------------------------------------------------
# Spelling templates
# ---------------------------------------------------------------------------------------------
_OPT = re.compile(r"(?<!\[)\[([^\[\]]*)\](?!\])")  # [optional], never an [[attribute]]
_PARAM = re.compile(r"\{(\w+)\}")


def render(c: Concept, backend: str, args: dict[str, str]) -> str:
    """Render concept `c` on `backend` with bound argument texts (missing optionals dropped)."""
    s = c.spell.get(backend)
    if s is None:
        raise KeyError(f"{c.key} has no {backend} spelling")

    def opt(m: re.Match) -> str:
        names = _PARAM.findall(m.group(1))
        return m.group(1) if all(args.get(n) is not None for n in names) else ""

    s = _OPT.sub(opt, s)
    return _PARAM.sub(lambda m: args[m.group(1)], s)


def call_params(c: Concept, backend: str) -> tuple[list[str], int]:
    """Positional parameter names of a call spelling and how many are required."""
    s = c.spell.get(backend) or ""
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
    if c is None:
        return None
    if c.name(backend) == name:
        return c, backend
    # An alias: find the backend where it is canonical (legacy CUDA names are HIP's).
    for b in BACKENDS:
        if c.name(b) == name:
            return c, b
    return c, backend
