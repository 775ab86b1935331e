"""HIP: AMD CDNA (gfx9, 64-wide waves) and RDNA (gfx10+, 32-wide waves) from one source."""
from __future__ import annotations

from .. import ptx_ordered
from ..dialect import WARP_REDUCE_OPS, group_votes
from ..vector_types import VECTORS
from .base import Backend, HostBuild, LaunchForm, Lowering, Run
from .hip_ptx_matrix import SPELLINGS as PTX_MATRIX
from . import hip_bf16_pairs, hip_dp4a, hip_ptx_half, hip_ptx_matrix
from .hip_profiler import HEADER_COUNTERPARTS
from .hip_wmma import WMMA_DEFINES, WMMA_POLYFILL
from .hip_async_copies import ASYNC_COPY_POLYFILLS, ASYNC_COPY_SCOPES
from .hip_libcxx import LIBCXX_ARGUMENTS, LIBCXX_NAMES
from .cuda import COMMON_DROP, CUDA_ATOMIC_SCOPES, CUDA_LIKE_QUALIFIERS, _shared_spellings


# PTX idioms (kernelport/ptx_idioms.py) as CUDA and HIP both spell them: C, and the funnel shifts and
# 64-bit high product both toolkits have (ROCm's __funnelshift_l/r take the shift mod 32 as shf.wrap
# does; the `c` forms clamp it to 32 as shf.clamp does).  Each is checked by tests/test_ptx_idioms.py.
def _pick(op: str, a: str, b: str) -> str:
    """C's signed minimum (maximum) of two expressions, as a conditional."""
    return f"({a} {'<' if op == 'min' else '>'} {b} ? {a} : {b})"


_UWORD = {32: "unsigned int", 64: "unsigned long long"}
_UWORD16 = {16: "unsigned short", **_UWORD}
# PTX's scopes as clang's atomic scopes and its fence's syncscope names
_HIP_SCOPE = {"cta": "__HIP_MEMORY_SCOPE_WORKGROUP", "gpu": "__HIP_MEMORY_SCOPE_AGENT", "sys": "__HIP_MEMORY_SCOPE_SYSTEM"}
_FENCE_SCOPE = {"cta": "workgroup", "gpu": "agent", "sys": ""}
_SWORD = {32: "int", 64: "long long"}
_CMP = (("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="))  # PTX's, C's
PTX_IDIOMS = {
    "ptx_pack_b64": "(((unsigned long long)(unsigned int)({hi}) << 32) | (unsigned int)({lo}))",
    "ptx_lo_b64": "((unsigned int)({x}))", "ptx_hi_b64": "((unsigned int)((unsigned long long)({x}) >> 32))",
    "ptx_pack_b32": "(((unsigned int)(unsigned short)({hi}) << 16) | (unsigned short)({lo}))",
    "ptx_lo_b32": "((unsigned short)({x}))", "ptx_hi_b32": "((unsigned short)((unsigned int)({x}) >> 16))",
    **{f"funnelshift_{d}": f"__funnelshift_{d}({{lo}}, {{hi}}, {{shift}})" for d in ("l", "r", "lc", "rc")},
    "ptx_xor": "(({a}) ^ ({b}))", "ptx_and": "(({a}) & ({b}))", "ptx_or": "(({a}) | ({b}))",
    "ptx_mov": "({x})", "ptx_setp_ne": "(({a}) != ({b}))", "ptx_setp_eq": "(({a}) == ({b}))",
    **{f"ptx_{op}_b{n}": f"((unsigned int)({{n}}) >= {n}u ? 0{'u' if n == 32 else 'ull'} : "
                         f"({'unsigned int' if n == 32 else 'unsigned long long'})({{x}}) {'<<' if op == 'shl' else '>>'} ({{n}}))"
       for op in ("shl", "shr") for n in (32, 64)},
    # carry chains: the sum (difference) wraps in N bits; the carry-out is the sum's wrap (of a + b, or
    # of adding ci after it: at most one of them wraps), the borrow-out a < b or a - b < ci
    **{f"ptx_addc_b{n}": f"(({t})(({t})({{a}}) + ({t})({{b}}) + ({t})({{ci}})))" for n, t in _UWORD.items()},
    **{f"ptx_subc_b{n}": f"(({t})(({t})({{a}}) - ({t})({{b}}) - ({t})({{ci}})))" for n, t in _UWORD.items()},
    **{f"ptx_addc_cf_b{n}": f"((unsigned int)(({t})(({t})({{a}}) + ({t})({{b}})) < ({t})({{a}})) | "
                            f"(unsigned int)(({t})(({t})({{a}}) + ({t})({{b}}) + ({t})({{ci}})) < ({t})(({t})({{a}}) + ({t})({{b}}))))"
       for n, t in _UWORD.items()},
    **{f"ptx_subc_cf_b{n}": f"((unsigned int)(({t})({{a}}) < ({t})({{b}})) | "
                            f"(unsigned int)(({t})(({t})({{a}}) - ({t})({{b}})) < ({t})({{ci}})))"
       for n, t in _UWORD.items()},
    # complement; the saturating signed sum / difference: the wrapped result where it did not overflow (an
    # overflow: the operands' signs agree (differ, for a difference) and the result's is not a's), else
    # a's end of the range (32-bit arithmetic only: no 64-bit literal Metal would have to spell)
    "ptx_not": "(~({x}))",
    **{f"ptx_{op}_sat_s32": f"((((int)({{a}}) ^ {mix}) & ((int)({{a}}) ^ (int)({s}))) < 0 ? "
                            f"((int)({{a}}) < 0 ? (-2147483647 - 1) : 2147483647) : (int)({s}))"
       for op, mix, s in (("add", "~(int)({b})", "(unsigned int)({a}) + (unsigned int)({b})"),
                          ("sub", "(int)({b})", "(unsigned int)({a}) - (unsigned int)({b})"))},
    **{f"ptx_cvt_{s}{n}": f"((unsigned int)({'(int)(signed char)' if (s, n) == ('s', 8) else '(int)(short)' if s == 's' else '(unsigned char)' if n == 8 else '(unsigned short)'}({{x}})))"
       for s in "su" for n in (8, 16)},
    "ptx_mul_wide_u32": "((unsigned long long)(unsigned int)({a}) * (unsigned int)({b}))",
    "ptx_mad_wide_u32": "((unsigned long long)(unsigned int)({a}) * (unsigned int)({b}) + (unsigned long long)({c}))",
    **{f"ptx_{op}_u{n}": f"(({t})({{a}}) {'<' if op == 'min' else '>'} ({t})({{b}}) ? ({t})({{a}}) : ({t})({{b}}))"
       for op in ("min", "max") for n, t in _UWORD.items()},
    **{f"ptx_v{op}_{op2}_s32": _pick(op2, _pick(op, "(int)({a})", "(int)({b})"), "(int)({c})")
       for op in ("min", "max") for op2 in ("min", "max")},
    # set: all ones where the comparison of the operands as N-bit signed (unsigned) integers holds
    **{f"ptx_set_{c}_{s}{n}": f"(({t})({{a}}) {op} ({t})({{b}}) ? 0xffffffffu : 0u)"
       for c, op in _CMP for n in (32, 64) for s, t in (("s", _SWORD[n]), ("u", _UWORD[n]))},
    **{f"ptx_set_{c}_{bop}_{s}{n}": f"(((bool)(({t})({{a}}) {op} ({t})({{b}})) {bo} (bool)({{p}})) ? 0xffffffffu : 0u)"
       for c, op in _CMP for bop, bo in (("and", "&&"), ("or", "||"), ("xor", "!="))
       for n in (32, 64) for s, t in (("s", _SWORD[n]), ("u", _UWORD[n]))},
    **{f"ptx_setp_{c}_{s}{n}": f"(({t})({{a}}) {op} ({t})({{b}}))" for c, op in _CMP[2:]
       for n in (32, 64) for s, t in (("s", _SWORD[n]), ("u", _UWORD[n]))},
    "ptx_mul_lo_b32": "((unsigned int)({x}) * (unsigned int)({y}))", "umulhi": "__umulhi({x}, {y})",
    "umul64hi": "__umul64hi({x}, {y})", "ptx_mul_lo_b64": "((unsigned long long)({x}) * (unsigned long long)({y}))",
}


# the carry flag's variable across calls (kernelport/carry_calls.py), C++'s: HIP's and the portable header's
PTX_CARRY = {"ptx_carry_param": "unsigned int &", "ptx_carry_local": "unsigned int"}
# PTX's memory and clock idioms as HIP's clang spells them (not nvcc: the portable backend has none).
PTX_MEMORY = {
    # global loads and stores of word i at p: a cache hint (.ca/.cg/.nc) changes no value, a streaming
    # one (.cs, evict-first) is clang's nontemporal access; the word's bits are the operand's
    # (__builtin_bit_cast: an operand of another size does not compile, rather than convert; no `[i]`:
    # brackets are a spelling's optional part)
    **{f"ptx_ld_global{h}_b{n}_{i}": f"__builtin_bit_cast(__typeof__({{out}}), "
                                     + (f"__builtin_nontemporal_load((const {t}*)({{p}}) + {i}))" if h else
                                        f"*((const {t}*)({{p}}) + {i}))")
       for h in ("", "_cs") for n, t in _UWORD.items() for i in range(4)},
    **{f"ptx_st_global{h}_b{n}_{i}": (f"__builtin_nontemporal_store(__builtin_bit_cast({t}, {{x}}), ({t}*)({{p}}) + {i})" if h
                                      else f"(*(({t}*)({{p}}) + {i}) = __builtin_bit_cast({t}, {{x}}))")
       for h in ("", "_cs") for n, t in _UWORD.items() for i in range(4)},
    # the same at a shared-window address (the prologue's kp_shared_ptr: the generic pointer of an LDS offset)
    **{f"ptx_ld_shared_b{n}_{i}": f"__builtin_bit_cast(__typeof__({{out}}), *((const {t}*)kp_shared_ptr({{p}}) + {i}))"
       for n, t in _UWORD.items() for i in range(4)},
    **{f"ptx_st_shared_b{n}_{i}": f"(*(({t}*)kp_shared_ptr({{p}}) + {i}) = __builtin_bit_cast({t}, {{x}}))"
       for n, t in _UWORD.items() for i in range(4)},
    # PTX's %clock / %clock64 count the SM's cycles: HIP's clock64() is the shader cycle counter
    # (s_memtime / s_getreg SHADER_CYCLES; wall_clock64() is the constant-rate one)
    "ptx_clock": "((unsigned int)clock64())", "ptx_clock64": "((unsigned long long)clock64())",
    # `%smid`: ROCm's __smid(), (SE_ID << 4) + CU_ID of the wave's HW_ID, so below 64 on every target: the bound
    # `%nsmid` is ("the maximum number of SM identifiers"; like PTX's, the ids need not be contiguous)
    "ptx_smid": "__smid()", "ptx_nsmid": "64u",
    # PTX's `%lanemask_lt` and kin in a logical 32-lane group: the 32-lane warp's lane's mask, whichever lanes are
    # active (ROCm's __lanemask_lt() is 64 bits and ANDs in __ballot64(1), the active lanes: not PTX's register)
    **{f"ptx_warp_lanemask_{c}": m.format(bit="(1u << (__lane_id() & 31))") for c, m in (
        ("eq", "{bit}"), ("lt", "({bit} - 1u)"), ("le", "(({bit} << 1) - 1u)"), ("gt", "(~(({bit} << 1) - 1u))"),
        ("ge", "(~({bit} - 1u))"))},
    # ... zero-extended into 64 bits in a native group (its warp is the wave): the wave's lanes from __lane_id(),
    # whichever are active (not __lanemask_lt(), which ANDs in the active lanes), the lanes above cut at warpSize
    # (a 32-lane wave's mask is CUDA's: bits 32-63 clear, as cvt.u64.u32 leaves them)
    **{f"ptx_lanemask64_{c}": m.format(bit="(1ull << __lane_id())", wave="(~0ull >> (64 - warpSize))") for c, m in (
        ("eq", "{bit}"), ("lt", "({bit} - 1ull)"), ("le", "(({bit} << 1) - 1ull)"),
        ("gt", "(~(({bit} << 1) - 1ull) & {wave})"), ("ge", "(~({bit} - 1ull) & {wave})"))},
    "ptx_memory_clobber": "__atomic_signal_fence(__ATOMIC_SEQ_CST)",
    # `trap;`: clang's trap (llvm.trap: s_trap on AMDGPU), what ROCm's own __trap() is
    "ptx_trap": "__builtin_trap()",
    # the memory model's ordered accesses (kernelport/ptx_ordered.py): clang's atomic load / store of that
    # order at that scope (cta: the workgroup, gpu: the agent, sys: the system), the word's bits the
    # operand's; a volatile access (`ld.volatile`, `ld.global.cv`) is C's; `fence.sc|acq_rel` is the fence
    # of that order and scope (HIP's __threadfence() is `fence.sc.gpu`'s)
    **{f"ptx_ld_{o}_{s}_b{n}": f"__builtin_bit_cast(__typeof__({{out}}), __hip_atomic_load((const {t}*)({{p}}), "
                               f"__ATOMIC_{o.upper()}, {_HIP_SCOPE[s]}))"
       for o in ptx_ordered.LOAD_ORDERS for s in ptx_ordered.SCOPES for n, t in _UWORD16.items()},
    **{f"ptx_st_{o}_{s}_b{n}": f"__hip_atomic_store(({t}*)({{p}}), __builtin_bit_cast({t}, {{x}}), __ATOMIC_{o.upper()}, "
                               f"{_HIP_SCOPE[s]})"
       for o in ptx_ordered.STORE_ORDERS for s in ptx_ordered.SCOPES for n, t in _UWORD16.items()},
    **{f"ptx_ld_volatile_b{n}": f"__builtin_bit_cast(__typeof__({{out}}), *(const volatile {t}*)({{p}}))"
       for n, t in _UWORD16.items()},
    # `bfind.u32|u64`: 31 (63) less the leading zeros, which HIP's __clz / __clzll count as 32 (64) for 0: -1
    "ptx_bfind_u32": "(31 - __clz((int)({x})))", "ptx_bfind_u64": "(63 - __clzll((long long)({x})))",
    "ptx_ld_global_b16_0": "__builtin_bit_cast(__typeof__({out}), *(const unsigned short*)({p}))",
    "ptx_st_global_b16_0": "(*(unsigned short*)({p}) = __builtin_bit_cast(unsigned short, {x}))",
    **{f"ptx_st_volatile_b{n}": f"(*(volatile {t}*)({{p}}) = __builtin_bit_cast({t}, {{x}}))" for n, t in _UWORD16.items()},
    **{f"ptx_fence_{o}_{s}": f'__builtin_amdgcn_fence(__ATOMIC_{"SEQ_CST" if o == "sc" else "ACQ_REL"}, "{_FENCE_SCOPE[s]}")'
       for o in ("sc", "acq_rel") for s in ptx_ordered.SCOPES},
}


# `unsigned long` as a header may spell it (LP64: the fixed-width and size types are it).
UNSIGNED_LONG = ("unsigned long", "unsigned long int", "long unsigned int", "uint64_t", "std::uint64_t",
                 "size_t", "std::size_t")


# the bits of a tile of {size} lanes (a power of two up to 32) as CUDA's tile numbers them: the caller's CUDA warp's
# half of the wave's ballot (halfvotes.per_warp_after), shifted down to the tile's first lane
_TILE_BITS = ("((unsigned int)(__ballot({predicate}) >> (__lane_id() & 32)) >> (__lane_id() & 31 & ~(({size}) - 1)) "
              "& (unsigned int)((1ull << ({size})) - 1))")

class HIP(Backend):
    name = "hip"
    extension = ".hip"
    header_extension = ".hip.h"
    source_extensions = (".hip",)
    runs = (Run("hip", 64, "gfx90a", "hip-cdna", "AMD CDNA / gfx9 (MI100-MI300, 64-wide waves)"),
            Run("hip", 32, "gfx1030", "hip-rdna", "AMD RDNA / gfx10-12 (32-wide waves)"))
    tools = ("hipcc",)
    # the project's HIP build: its forced includes, and the macros it alone defines (hip-defines)
    build_reads = frozenset({"defines", "include_dirs", "forced_includes", "hip_defines"})
    spellings = {
        **_shared_spellings(),
        "wave_size_const": "KP_WAVE_SIZE", "wave_size_bound": "KP_WAVE_SIZE",
        "host_wave_size": "kp_device_warp_size()", "hd_wave_size": "kp_hd_wave_size()", "hd_wave_bound": "KP_HD_WAVE_BOUND",
        "host_wave_rows": "kp_wave_rows({threads})",  # the prologue's
        "lanemask_type": "unsigned long long", "lanemask_one": "1ull",
        "lane_id": "__lane_id()", "warp_lane": "(__lane_id() & 31)",
        "warp_lane_of": "({lane} & 31)", "lds_address": "kp_lds_address({x})",  # (the prologue's identity)
        "bfe_u32": "kp_bfe_u32({x}, {pos}, {len})",  # the prologue's: ROCm's __bitextract_u32 takes both mod 32
        **PTX_IDIOMS, **PTX_MEMORY, **PTX_CARRY, **hip_ptx_half.SPELLINGS,
        "bfi_b32": "kp_bfi_b32({x}, {base}, {pos}, {len})",  # the prologue's: ROCm's __bitinsert_u32 takes both mod 32
        # the prologue's: ROCm's __byte_perm ignores a selector nibble's sign bit, and ROCm 5.2's clang
        # headers declare __fmul_rz/__fmaf_rz only under OCML_BASIC_ROUNDED_OPERATIONS (undeclared by default)
        "ptx_prmt_b32": "kp_prmt_b32({a}, {b}, {c})",
        "unavailable_fn": '__attribute__((unavailable("{why}")))',  # clang's: a use is an error with {why}
        "ptx_mul_rz_f32": "kp_fmul_rz({a}, {b})", "ptx_fma_rz_f32": "kp_fmaf_rz({a}, {b}, {c})",
        # the prologue's: LDS (address space 3) offsets and generic pointers, converted as clang casts them
        "ptx_cvta_to_shared": "kp_cvta_to_shared({p})", "ptx_cp_async": "kp_cp_async({dst}, {src}, {n}, {size})",
        # CUDA's API for the same address (a size_t holding the 32-bit window offset); a global one is p's own bits
        "cuda_only___cvta_generic_to_shared": "((size_t)kp_cvta_to_shared({p}))", "cuda_only___cvta_generic_to_global": "((size_t)({p}))",
        "ptx_cp_async_done": "((void)0)",
        **PTX_MATRIX,  # mma.sync / ldmatrix over logical 32-lane warps: the prologue's (hip_ptx_matrix.py)
        "index_vararg": "(unsigned int){x}",  # ROCm 5.2's threadIdx.x is a struct: "non-scalar arg to printf"
        "syncwarp": "kp_syncwarp()",
        # sm_80's __reduce_*_sync with CUDA's full mask: the prologue's xor tree over the group's lanes
        # (width 32 in a logical 32-lane group; the wave's warpSize in a wave-wide one)
        **{f"warp_reduce_{op}": f"kp_reduce_{op}({{value}}, {{width}})" for op in WARP_REDUCE_OPS},
        # sm_70's __match_any_sync / __match_all_sync with CUDA's full mask, alike: the prologue's loop of ballots
        "cuda_only___match_any_sync": "kp_match_any({value}, {width})",
        "cuda_only___match_all_sync": "kp_match_all({value}, {pred}, {width})",
        "shfl": "__shfl({value}, {lane}[, {width}])",
        "shfl_up": "__shfl_up({value}, {delta}[, {width}])",
        "shfl_down": "__shfl_down({value}, {delta}[, {width}])",
        "shfl_xor": "__shfl_xor({value}, {lanemask}[, {width}])",
        "ballot": "__ballot({predicate})", "any": "__any({predicate})", "all": "__all({predicate})",
        "activemask": "__ballot(1)", "lanemask_lt": "__lanemask_lt()",
        **group_votes("__ballot({predicate})", "__lane_id() & 32"),  # a CDNA wave holds two CUDA warps
        "bfloat16": "hip_bfloat16",  # ROCm 5.2 (api_checked_with) has hip_bfloat16.h; hip_bf16.h came later
        "runtime_header": "hip/hip_runtime.h", "fp16_header": "hip/hip_fp16.h", "bf16_header": "hip/hip_bfloat16.h",
        "coop_groups_header": "hip/hip_cooperative_groups.h", "cub_header": "hipcub/hipcub.hpp",
        # Runtime and library names (rt_* concepts and every other CUDA API name): the API table.
        "rt_attr_warp_size": "hipDeviceAttributeWarpSize",
    }
    # HIPIFY's maps (scripts/gen_hip_api.py), each HIP spelling checked with hipcc (tests/test_hip_api.py).
    api_table = "hip_api.tsv"
    # clang's HIP device pass defines __HIP_DEVICE_COMPILE__, never __CUDA_ARCH__ (reviews.llvm.org D45387, D45441).
    device_pass_macros = {"__CUDA_ARCH__": "__HIP_DEVICE_COMPILE__"}
    # clang checks a kernel's calls on hipcc's host pass too ("call to __host__ function from __global__ function"):
    # an attribute macro nvcc's device pass alone makes `__device__` is `__host__ __device__` on both (checked, hipcc 5.2).
    both_passes_space = ("__HIPCC__", "__host__ __device__")
    # A CUDA library's sub-header HIPIFY has no entry for: the library's main HIP header.
    # ROCm libraries a port includes where the original includes their CUDA counterparts, which a ROCm
    # install ships as packages of their own (Debian packages rocPRIM only): header folder -> (library,
    # how to install it). A port's compile that stops at one of them is a skipped check, not a failure
    # (kernelport/absent_libraries.py); bench/rocm_libs.py writes rocThrust's and hipCUB's headers.
    optional_libraries = {
        "thrust/": ("rocThrust", "ROCm's rocthrust-dev (it needs rocprim-dev; Debian: librocprim-dev, then "
                                 "bench/rocm_libs.py writes rocThrust's headers)"),
        "hipcub/": ("hipCUB", "ROCm's hipcub-dev (it needs rocprim-dev; Debian: librocprim-dev, then "
                              "bench/rocm_libs.py writes hipCUB's headers)"),
        "rocprim/": ("rocPRIM", "ROCm's rocprim-dev (Debian: librocprim-dev)"),
        "roctracer/": ("roctracer", "ROCm's roctracer-dev (Debian has none: bench/rocm_libs.py writes its roctx.h)")}
    # rocThrust keeps Thrust's CUDA system headers (thrust/system/cuda/: they include cub and fail under
    # hipcc) beside its own, thrust/system/hip/, the same names (execution_policy.h, vector.h, ...).
    api_header_folders = {"cub/": "hipcub/hipcub.hpp", "thrust/system/cuda/": "thrust/system/hip/"}
    # rocThrust (ROCm 5.x, thrust/system/hip/): Thrust's CUDA system is its `hip` (thrust::hip::par,
    # thrust::system::hip::...), and Thrust's CUDA backend namespace `cuda_cub` its `hip_rocprim`.
    nested_namespaces = {"thrust::cuda": "hip", "thrust::system::cuda": "hip", "thrust::cuda_cub": "hip_rocprim"}
    # hipCUB's warp collectives default to HIPCUB_DEVICE_WARP_THREADS, the device's wave (64 on CDNA,
    # 32 on RDNA: hipcub/backend/rocprim/warp/warp_reduce.hpp), not cub's 32: a port writes the 32.
    warp_collective_default = "wave"
    qualified_names, qualified_name_arguments = LIBCXX_NAMES, LIBCXX_ARGUMENTS  # libcu++'s names the C++ library has (hip_libcxx.py)
    decomposer_tuple = "::hipcub::tuple"  # hipCUB >= ROCm 6.2 (rocprim::tuple on AMD; it has no tie)
    # <cuda/functional>'s own function objects and wrappers (CCCL), beside libcu++'s std ones: none in HIP's library
    unported_qualified_names = {f"cuda::{n}": "<cuda/functional>" for n in (
        "maximum", "minimum", "proclaim_return_type", "proclaim_copyable_arguments")}
    api_checked_with = "ROCm 5.2"  # Debian 12's hipcc and libraries, which the table's hipcc column was checked with
    # ROCm 5.2's cooperative groups: thread_block has no group_dim()/dim_threads()/num_threads(),
    # and its group_index()/thread_index() are not const (a `const thread_block &` cannot call
    # them); grid_group has only size/thread_rank/is_valid/sync. The built-ins mean the same.
    vector_types_are_classes = completes_short_vector_lists = True  # ROCm's HIP_vector_type
    reduce_operands_are_temporaries = True  # rocPRIM's DPP warp reduce: reduce_op(warp_move_dpp(output), output)
    # ROCm 5.2's amd_hip_vector_types.h: every CUDA vector type is a HIP_vector_type, whose free
    # operators are component-wise (vector OP vector, vector OP scalar, scalar OP vector), with OP=
    # members and unary - and ~: a project's own component-wise definition is ambiguous with them.
    vector_types = frozenset(VECTORS)
    vector_operators = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"})
    vector_unary_operators = frozenset({"-", "~"})
    # ... and those free operators are templates on HIP_vector_type<T, n>, whose arguments C++ deduces
    # from a derived class too: CudaTracerLib's `class Vec3f : public VectorBase<float, 3, Vec3f>, public
    # float3` has its own operators, and `Vec3f - Vec3f` matches HIP's as well ("use of overloaded
    # operator '-' is ambiguous"). CUDA's float3 is a plain struct: a class deriving from it has only
    # its own operators, as it has deriving from the prologue's kp_plain_float3 (x, y, z; float3's size
    # and alignment; converts to float3).
    vector_base = "kp_plain_{vector}"
    # Macros on which HIP's headers take the NVIDIA platform (hip/hip_common.h) and, with clang's
    # __HIP__, stop ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"): a
    # build that defines one on its command line (ppf-contact-solver's Makefile: -D__NVCC__) gets a
    # port that undefines it first (the port's own tests of __NVCC__ read __HIPCC__).
    nvidia_platform_macros = frozenset({"__NVCC__", "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__"})
    # CUDA's CUdeviceptr is an unsigned integer; hipDeviceptr_t is `void *` (ROCm 5.2's hip_runtime_api.h)
    address_types = {t: "char *" for t in ("CUdeviceptr", "CUdeviceptr_v1", "CUdeviceptr_v2")}
    # ROCm 5.2's amd_hip_atomic.h: float and double CAS/sub/min/max (CUDA has them for integers only),
    # and every integer atomic for `unsigned long` (CUDA: `unsigned long long` only), which is what
    # uint64_t and size_t are on the LP64 Linux hipcc builds for (a helper header's forwarding
    # `std::uint64_t atomicAdd(std::uint64_t*, std::uint64_t)` would redefine it).
    own_overloads = frozenset((f"atomic{op}{system}", (f"{t}*", t, t) if op == "CAS" else (f"{t}*", t))
                              for op, types in (*((op, ("float", "double")) for op in ("CAS", "Sub", "Min", "Max")),
                                                *((op, ("unsigned long",)) for op in ("CAS", "Add", "Sub", "Exch", "Min",
                                                                                      "Max", "And", "Or", "Xor")))
                              for system in ("", "_system") for t in types)
    # clang's HIP atomic builtins the ports' own helpers call (templates/hip_prologue.j2's signed 64-bit
    # atomicMin/atomicMax for ROCm before 5.7): name -> (memory.atomic's operation, argument count)
    explicit_atomics = {**{f"__hip_atomic_fetch_{op}": (op, 4) for op in ("add", "min", "max", "and", "or", "xor")},
                        "__hip_atomic_exchange": ("exch", 4), "__hip_atomic_load": ("load", 3),
                        "__hip_atomic_store": ("store", 4), "__hip_atomic_compare_exchange_strong": ("cas", 6)}
    atomic_prefixes = ("atomic", "__hip_atomic", "__atomic")  # clang's builtins: every __hip_atomic_* and __atomic_*
    # clang's __clang_hip_math.h (every hipcc compile): `template <class T> __device__ T max(T, T)`, `min` (KP246)
    own_templates = {"max": ">", "min": "<"}
    # each parameter's spelling read as the type it names there (gpuPairHMM's `atomicXor(std::uint64_t*,
    # uint64_t)` spells one type two ways)
    same_types = {t: "unsigned long" for t in UNSIGNED_LONG}
    # ROCm 5.2's amd_device_functions.h: __ffsll(long long) and __ffsll(unsigned long long); CUDA's
    # takes long long.  Only 64-bit parameters: the conversion keeps every bit of any integer
    # argument, so a value the port widened (a ballot mask) is never cut; `__ffs(int)` (HIP adds
    # `unsigned int`) would cut one, so `__ffs` of a 64-bit value stays a hipcc error, not a guess.
    argument_types = {"__ffsll": ("long long",)}
    # CUDA's sm_32/sm_60 atomic headers: atomicAnd/Or/Xor (and _block, _system) for long long;
    # ROCm 5.2's amd_hip_atomic.h has none (int, unsigned, unsigned long, unsigned long long): a
    # bitwise operation on the same 64 bits is exact through unsigned long long
    retyped_pointer_calls = {f"atomic{op}{scope}": ("long long", "unsigned long long")
                             for op in ("And", "Or", "Xor") for scope in ("", "_block", "_system")}
    # clang 15's __clang_hip_math.h (ROCm 5.2) declares sincos and sincospi for double pointers only
    # (hipcc: "no matching function for call to 'sincos'" with float*); its other math functions
    # have CUDA's float overloads (modf, frexp, remquo, rsqrt, norm3d, ... compile with floats).
    # Host code has glibc's sincosf (CUDA's sincos is host too), no sincospif
    float_pointer_calls = {"sincos": ("sincosf", 3, True), "sincospi": ("sincospif", 3, False)}
    mixed_sign_calls = frozenset({"min", "max"})  # ROCm 5's: (int, int), (float, float), ...: no (int, unsigned)
    # ROCm 5.2's hipTextureObject_t and hipSurfaceObject_t are pointers to two distinct structs, CUDA's
    # both `unsigned long long`; the texture and surface functions of amd_surface_functions.h and
    # texture_indirect_functions.h, each with the handle it takes
    handle_types = {"cudaTextureObject_t": "hipTextureObject_t", "cudaSurfaceObject_t": "hipSurfaceObject_t"}
    handle_calls = {
        **{f"surf{shape}{op}": "hipSurfaceObject_t" for shape in ("1D", "2D", "3D", "1DLayered", "2DLayered",
                                                                   "Cubemap", "CubemapLayered") for op in ("read", "write")},
        **{f"tex{shape}{how}": "hipTextureObject_t"
           for shape, hows in (("1D", ("", "Lod", "Grad")), ("2D", ("", "Lod", "Grad")), ("3D", ("", "Lod", "Grad")),
                               ("1DLayered", ("", "Lod", "Grad")), ("2DLayered", ("", "Lod", "Grad")),
                               ("Cubemap", ("", "Lod", "Grad")), ("CubemapLayered", ("", "Lod", "Grad")))
           for how in hows},
        "tex1Dfetch": "hipTextureObject_t", "tex2Dgather": "hipTextureObject_t"}
    # ROCm 5.2's threadIdx.x is a __HIP_Coordinates<...>::__X that converts to uint32_t: `auto i =
    # threadIdx.x; i += blockDim.x` has no `+=` (hipcc: "no viable overloaded '+='"); CUDA's is unsigned int
    auto_coordinate_type = "unsigned int"
    whole_coordinate = "make_uint3({c}.x, {c}.y, {c}.z)"  # ROCm 5.2's __HIP_Coordinates is no uint3
    whole_coordinate_as = {"dim3": "dim3({c}.x, {c}.y, {c}.z)"}  # and its dim3 has no constructor from uint3
    # ROCm 5.2 has __align__; CUDA's calling-convention macros (empty but on Windows) it has not (its
    # HIPRT_CB is only in the nvidia_detail headers): a HIP callback needs none
    attribute_spellings = {"__builtin_align__": "__align__", "__device_builtin__": "", "CUDART_CB": "", "CUDAAPI": ""}
    # C++17 removed `register` (a storage class with no effect): nvcc -std=c++17 warns and ignores it,
    # hipcc (clang) refuses it (-Wregister, an error by default); gvdb's `register float ht[8];`
    dropped_keywords = {"register": "C++17 removed the 'register' storage class (it had no effect); "
                                    "nvcc ignores it, hipcc refuses it"}
    kept_keywords = {"register": r"[^;{}()]*\b(?:__asm__|__asm|asm)\s*\("}  # an explicit register variable
    # Names HIP's headers #define that CUDA's leave free: device_library_decls.h's `#define __local
    # __attribute__((address_space(3)))` (ROCm 5.2 on: an old scrypt/yescrypt header's `yescrypt_local_t * __local`
    # parameter is "parameter may not be qualified with an address space" to hipcc); the scan of ROCm 5.2's
    # include/hip for lower-case object-like macros found no other besides CUDA's own qualifiers
    reserved_words = frozenset({"__local"})
    reserved_why = "'{name}' is a macro of HIP's headers (an address space): renamed everywhere in the port"
    # hip_runtime.h (ROCm 5.x) includes <algorithm>, <array>, <complex>, <string>, <sstream>, <istream>, <tuple>,
    # <thread>, <ratio>; cuda_runtime.h none of them: the names of theirs a project's enum may also use
    std_names_added = frozenset({
        "count", "count_if", "find", "find_if", "sort", "stable_sort", "fill", "fill_n", "copy", "copy_n", "remove",
        "remove_if", "replace", "reverse", "rotate", "search", "merge", "unique", "partition", "transform", "generate",
        "equal", "mismatch", "includes", "sample", "shuffle", "clamp", "minmax", "max_element", "min_element",
        "lower_bound", "upper_bound", "binary_search", "for_each", "any_of", "all_of", "none_of", "iota",
        "array", "complex", "string", "thread", "tuple", "get", "ignore", "ratio", "hash", "less", "greater", "plus",
        "minus", "multiplies", "divides", "modulus", "negate", "distance", "advance", "next", "prev", "begin", "end",
        "size", "data", "empty", "exception", "locale", "left", "right", "hex", "dec", "oct", "fixed", "scientific",
        "internal", "boolalpha", "ws", "endl", "ends", "flush"})
    attributes_lead_specifiers = True  # hipcc is clang: `[[nodiscard]] __host__ __device__ T f()`, never after
    restrict_needs_pointer = True  # clang: "restrict requires a pointer or reference" on `__restrict__ uint32_t *p`
    vla_pointers_need_auto = True  # clang: two `double (*)[n]` of a run-time n are not one type (cloudsc's validate)
    launches_from_device = False  # ROCm has no dynamic parallelism: clang refuses a kernel named in a kernel
    member_spaces_in_class = True  # hipcc is clang: an out-of-line `__device__` member must be declared so
    specialization_spaces_match = True  # and a template's explicit specializations run where the primary does
    definition_spaces_declared = True  # hipcc is clang: a definition must repeat its declaration's spaces
    braced_narrowing_refused = True  # hipcc is clang: a narrowing braced element is an error
    function_to_void_refused = True  # and so is a function pointer converted to `void *` implicitly
    # COMPUTE_TMPRING_SIZE.WAVESIZE: 13 bits in units of 256 dwords (LLVM's GCNSubtarget::MaxWaveScratchSize): hipcc
    # refuses a frame over 131056 bytes a lane on gfx90a, 262112 on gfx1030 ("stack frame size ... exceeds limit").
    scratch_wave_bytes = (256 * 4) * ((1 << 13) - 1)
    typename_required = "clang 15 (ROCm 5.2's hipcc: P0634 is clang 16's)"
    # hip_runtime.h includes <cstdint>: glibc's LP64 types (nvcc's cuda_runtime.h includes neither, so a CUDA file may
    # typedef these names itself; /usr/include/x86_64-linux-gnu/bits/stdint-*.h and stdint.h)
    runtime_typedefs = {**{f"{u}int{b}_t": f"{'unsigned' if u else 'signed'} char" if b == 8 else f"{u and 'unsigned '}{t}"
                           for u in ("", "u") for b, t in ((8, ""), (16, "short"), (32, "int"), (64, "long"))},
                        **{f"{u}int_least{b}_t": f"{'unsigned' if u else 'signed'} char" if b == 8 else f"{u and 'unsigned '}{t}"
                           for u in ("", "u") for b, t in ((8, ""), (16, "short"), (32, "int"), (64, "long"))},
                        **{f"{u}int_fast{b}_t": f"{'unsigned' if u else 'signed'} char" if b == 8 else f"{u and 'unsigned '}long"
                           for u in ("", "u") for b in (8, 16, 32, 64)},
                        "intptr_t": "long", "uintptr_t": "unsigned long", "intmax_t": "long", "uintmax_t": "unsigned long"}
    # rocThrust's (5.3.3, measured with hipcc): std::invoke_result of the functor in host code. transform,
    # transform_reduce, transform_exclusive_scan, make_transform_output_iterator take a __device__ one.
    host_typed_functors = {"make_transform_iterator": ("call", -1), "transform_iterator": ("template", 0),
                           "transform_inclusive_scan": ("call", -2)}
    device_less_algorithms = {**dict.fromkeys(("binary_search", "lower_bound", "upper_bound", "equal_range"), 4),
                              **dict.fromkeys(("sort", "stable_sort", "is_sorted", "min_element", "max_element",
                                               "minmax_element"), 3)}
    vector_list_constructors = dict.fromkeys(("device_vector", "host_vector", "universal_vector"),
                                             "rocThrust before ROCm 6.2 has no std::initializer_list constructor "
                                             "(`v{5}` is five zeros there)")
    device_vla_refused = ("clang reads it as a variable-length array (standard C++ folds only integral `const` "
                          "variables), and ROCm 5.2's AMDGPU backend cannot lower one (`Cannot select: stacksave`)")
    nvcc_leniencies_refused = frozenset({"array_delete"})  # clang: "cannot delete expression of type 'T[N]'"
    vla_initializer_refused = ("g++ (nvcc's host compiler) takes an initialiser on a variable-length array, clang (hipcc) "
                               "does not ('variable-sized object may not be initialized')")
    # rocThrust's headers do not include each other's algorithms as CCCL's do (QuickSES calls thrust::count_if having
    # included scan, sort, unique, binary_search): the header of each, every entry compiled by hipcc (`#include` +
    # `using thrust::NAME;`) against rocThrust 5.3.3 (bench/thrust_headers_check.py); kernelport/thrust_headers.py
    # clang's __clang_hip_cmath.h declares the global classifiers for the device only (hipcc: "no matching function for
    # call to 'isnan'" in host code); `std::NAME` compiled by hipcc (gfx90a) in host, __host__ __device__ and device
    # functions for float and double arguments, each of the twelve (kernelport/host_classifiers.py)
    host_std_classifiers = dict.fromkeys(("isnan", "isinf", "isfinite", "isnormal", "signbit", "fpclassify", "isgreater",
                                          "isgreaterequal", "isless", "islessequal", "islessgreater", "isunordered"), True)
    thrust_algorithm_headers = {name: f"thrust/{header}" for header, names in {
        "adjacent_difference.h": ("adjacent_difference",),
        "binary_search.h": ("lower_bound", "upper_bound", "binary_search", "equal_range"),
        "copy.h": ("copy", "copy_n", "copy_if"),
        "count.h": ("count", "count_if"),
        "equal.h": ("equal",),
        "extrema.h": ("min_element", "max_element", "minmax_element"),
        "fill.h": ("fill", "fill_n"),
        "find.h": ("find", "find_if", "find_if_not"),
        "for_each.h": ("for_each", "for_each_n"),
        "gather.h": ("gather", "gather_if"),
        "generate.h": ("generate", "generate_n"),
        "inner_product.h": ("inner_product",),
        "logical.h": ("all_of", "any_of", "none_of"),
        "merge.h": ("merge", "merge_by_key"),
        "mismatch.h": ("mismatch",),
        "partition.h": ("partition", "partition_copy", "stable_partition", "stable_partition_copy", "partition_point",
                        "is_partitioned"),
        "reduce.h": ("reduce", "reduce_by_key"),
        "remove.h": ("remove", "remove_copy", "remove_if", "remove_copy_if"),
        "replace.h": ("replace", "replace_if", "replace_copy", "replace_copy_if"),
        "reverse.h": ("reverse", "reverse_copy"),
        "scan.h": ("inclusive_scan", "exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key"),
        "scatter.h": ("scatter", "scatter_if"),
        "sequence.h": ("sequence",),
        "set_operations.h": ("set_difference", "set_intersection", "set_symmetric_difference", "set_union",
                             "set_difference_by_key", "set_intersection_by_key", "set_symmetric_difference_by_key",
                             "set_union_by_key"),
        "sort.h": ("sort", "stable_sort", "sort_by_key", "stable_sort_by_key", "is_sorted", "is_sorted_until"),
        "tabulate.h": ("tabulate",),
        "transform.h": ("transform", "transform_if"),
        "transform_reduce.h": ("transform_reduce",),
        "transform_scan.h": ("transform_inclusive_scan", "transform_exclusive_scan"),
        "uninitialized_copy.h": ("uninitialized_copy", "uninitialized_copy_n"),
        "uninitialized_fill.h": ("uninitialized_fill", "uninitialized_fill_n"),
        "unique.h": ("unique", "unique_copy", "unique_by_key", "unique_by_key_copy"),
    }.items() for name in names}
    shared_initializers_refused = True  # clang: "initialization is not supported for __shared__ variables"
    extern_shared_definitions_refused = True  # clang: "__shared__ variable 's' cannot be 'extern'"
    device_alloca_crash = ("clang 15 (ROCm 5.2's hipcc) crashes on alloca in AMDGPU device code at -O3 (an alloca in the "
                           "default address space: the llvm/llvm-project#59250 class of crash)")
    cg_members = {("thread_block", "group_dim"): "blockDim", ("thread_block", "dim_threads"): "blockDim",
                  ("thread_block", "group_index"): "blockIdx", ("thread_block", "thread_index"): "threadIdx",
                  ("thread_block", "num_threads"): "(blockDim.x * blockDim.y * blockDim.z)",
                  ("grid_group", "group_dim"): "gridDim", ("grid_group", "dim_blocks"): "gridDim",
                  ("grid_group", "block_index"): "blockIdx",
                  ("grid_group", "block_rank"): "(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))",
                  ("grid_group", "num_blocks"): "(gridDim.x * gridDim.y * gridDim.z)",
                  # a tile's ({size}: its size); a formula reading the block's geometry holds for a tile of the
                  # block only (api_names checks the file partitions nothing else)
                  ("thread_block_tile", "meta_group_rank"):
                      "((unsigned int)(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / {size}))",
                  ("thread_block_tile", "meta_group_size"):
                      "((unsigned int)((blockDim.x * blockDim.y * blockDim.z + {size} - 1) / {size}))",
                  ("thread_block_tile", "num_threads"): "({size}u)",
                  # a tile's votes, which ROCm 5.2's tiles lack: the wave's ballot shifted down to the tile's own
                  # lanes, those of a tile of the block (`{predicate}`: the call's argument)
                  ("thread_block_tile", "ballot"): f"((unsigned int){_TILE_BITS})",
                  ("thread_block_tile", "any"): f"((int)({_TILE_BITS} != 0))",
                  ("thread_block_tile", "all"): f"((int)({_TILE_BITS.replace('{predicate}', '!({predicate})')} == 0))"}
    cg_tile_size = "{group}.size()"  # ROCm's thread_block_tile<N>::size() is static: N for each instance
    cg_members_present = {"thread_block": ("size", "thread_rank", "is_valid", "sync"),
                          "grid_group": ("size", "thread_rank", "is_valid", "sync"),
                          "thread_block_tile": ("size", "thread_rank", "is_valid", "sync", "shfl", "shfl_down",
                                                "shfl_up", "shfl_xor")}
    # What ROCm 5.2's amd_hip_cooperative_groups.h declares in namespace cooperative_groups, with the reduce.h and
    # memcpy_async.h polyfills' names (header_polyfills): no block_tile_memory, this_thread_block(scratch), cluster,
    # labeled/binary partitions nor scans; tiled_partition<N> static_asserts N <= the wave (32 on gfx1030), where
    # CUDA's N > 32 is a tile of warps (block_tile_memory before sm_80). tests/test_cg_names.py compiles the table.
    cg_names_present = frozenset((
        "thread_group", "thread_block", "grid_group", "multi_grid_group", "coalesced_group", "tiled_group",
        "thread_block_tile", "thread_block_tile_base", "thread_block_tile_type", "tile_base", "this_thread_block",
        "this_grid", "this_multi_grid", "coalesced_threads", "tiled_partition", "sync", "group_size",
        "thread_rank", "is_valid", "internal", "impl",
        "reduce", "plus", "less", "greater", "bit_and", "bit_or", "bit_xor", "memcpy_async", "wait", "wait_prior"))
    cg_call_arity = {"this_thread_block": 0, "this_grid": 0, "this_multi_grid": 0, "coalesced_threads": 0}
    cg_tile_most = 32
    # hipDeviceProp_t of ROCm 5.2 (hip_runtime_api.h): what cudaDeviceProp's fields are there.
    struct_fields = {("cudaDeviceProp", "sharedMemPerMultiprocessor"): "maxSharedMemoryPerMultiProcessor",
                     ("cudaPointerAttributes", "type"): "memoryType"}  # ROCm 5.2's; `type` came in ROCm 6
    struct_fields_present = {"cudaDeviceProp": (
        "name", "totalGlobalMem", "sharedMemPerBlock", "regsPerBlock", "warpSize", "maxThreadsPerBlock",
        "maxThreadsDim", "maxGridSize", "clockRate", "memoryClockRate", "memoryBusWidth", "totalConstMem", "major",
        "minor", "multiProcessorCount", "l2CacheSize", "maxThreadsPerMultiProcessor", "computeMode",
        "concurrentKernels", "pciDomainID", "pciBusID", "pciDeviceID", "isMultiGpuBoard", "canMapHostMemory",
        "integrated", "cooperativeLaunch", "cooperativeMultiDeviceLaunch", "maxTexture1DLinear", "maxTexture1D",
        "maxTexture2D", "maxTexture3D", "memPitch", "textureAlignment", "texturePitchAlignment",
        "kernelExecTimeoutEnabled", "ECCEnabled", "tccDriver", "managedMemory", "directManagedMemAccessFromHost",
        "concurrentManagedAccess", "pageableMemoryAccess", "pageableMemoryAccessUsesHostPageTables"),
        "cudaPointerAttributes": ("device", "devicePointer", "hostPointer", "memoryType"),
        "cudaTextureDesc": ("addressMode", "filterMode", "readMode", "sRGB", "borderColor", "normalizedCoords",
                            "maxAnisotropy", "mipmapFilterMode", "mipmapLevelBias", "minMipmapLevelClamp",
                            "maxMipmapLevelClamp")}  # hipTextureDesc of ROCm 5.2 (texture_types.h)
    # Texture fetches that ROCm 5.2's clang cannot compile for CDNA, which has no image sampling at an
    # explicit level of detail, by gradients, or by gather (each checked with hipcc for gfx90a and
    # gfx1030, tests/test_hip_arch_missing.py; the layered `*Lod` fetches and texCubemapGrad compile).
    arch_missing = {name: (("gfx90a",), what, "ROCm 5.2's hipcc: error in backend: requested image instruction "
                           "is not supported on this GPU") for names, what in (
        (("tex1DLod", "tex2DLod", "tex3DLod", "texCubemapLod", "texCubemapLayeredLod"),
         "a texture fetch at an explicit level of detail"),
        (("tex1DGrad", "tex2DGrad", "tex3DGrad", "tex1DLayeredGrad", "tex2DLayeredGrad"),
         "a texture fetch by gradients"),
        (("tex2Dgather",), "a texture gather")) for name in names}
    aliases = {"thread_idx": ("hipThreadIdx",), "block_idx": ("hipBlockIdx",), "block_dim": ("hipBlockDim",),
               "grid_dim": ("hipGridDim",)}
    lowering = Lowering(CUDA_LIKE_QUALIFIERS, COMMON_DROP, atomic_scopes=CUDA_ATOMIC_SCOPES,
                        defines={"__HIPCC__": "1", "__HIP__": "1", "__HIP_PLATFORM_AMD__": "1",
                                 "__HIP_DEVICE_COMPILE__": "1",
                                 "HIP_DYNAMIC_SHARED(type, var)": "extern __shared__ type var[]",
                                 "HIP_DYNAMIC_SHARED_ATTRIBUTE": ""},
                        group_namespaces=("cooperative_groups",), cub_namespaces=("hipcub",))
    translator_path = "kernelport.translate:Translator"

    host_build = HostBuild("hip", "HIP", ".hip", "hipcc", "HIPCC", ("-x", "hip"), ("-fPIC",), (("HIP_PLATFORM", "amd"),),
                           "KERNELPORT_HIP_ARCHS", "--offload-arch={}", tuple(r.arch for r in runs), "amdhip64",
                           ("ROCM_PATH", "HIP_PATH"), ("lib", "lib64", "/opt/rocm/lib"))

    def wave_defines(self, wave: int) -> dict[str, str]:
        d = {"__AMDGCN_WAVEFRONT_SIZE": str(wave), "__AMDGCN_WAVEFRONT_SIZE__": str(wave)}
        arch = next(r.arch for r in self.runs if r.wave == wave)
        d[f"__{arch}__"] = "1"
        d["__GFX9__" if arch.startswith("gfx9") else "__GFX10__"] = "1"
        return d

    def prologue(self, body: str, **context) -> str:
        """The template's helpers, the SIMD-within-a-word intrinsics the port calls (hip_simd.py) and its
        PTX matrix instructions (hip_ptx_matrix.py)."""
        from .hip_simd import definitions
        from ..vector_operators import plain_bases
        undefine = sorted(self.nvidia_platform_macros & set(context.pop("command_line_defines", ())))
        return super().prologue(body, simd=definitions(body) + hip_ptx_half.definitions(body) + hip_dp4a.definitions(body)
                                + hip_bf16_pairs.definitions(body), matrix=hip_ptx_matrix.definitions(body),
                                plain_bases=plain_bases(body, self.vector_base), undefine=undefine, **context)

    def compile(self, path, run, config=None):
        from .. import compile_flags, toolchains
        extra, forced = compile_flags.read_by(config, self.build_reads)
        return toolchains.compile_hip(path, run.arch, extra_args=extra, forced=forced)

    def compile_all(self, path, runs, config=None):
        from .. import compile_flags, toolchains
        extra, forced = compile_flags.read_by(config, self.build_reads)
        return toolchains.compile_hip_each(path, [r.arch for r in runs], extra_args=extra, forced=forced)

    # hip_runtime_api.h / amd_hip_runtime.h (ROCm 5.2, which has no hipLaunchKernelEx(C) nor
    # hipLaunchConfig_t: those came with ROCm 6.2)
    launch_forms = {
        "hipLaunchKernelGGL": LaunchForm(kernel=0, grid=1, block=2, shared=3, stream=4, args=5),
        "hipLaunchKernel": LaunchForm(kernel=0, grid=1, block=2, shared=4, stream=5, arg_array=3),
        "hipLaunchCooperativeKernel": LaunchForm(kernel=0, grid=1, block=2, shared=4, stream=5, arg_array=3),
    }
    # Toolkit headers ROCm lacks whose names the port defines itself, in place of the include (see
    # kernelport/header_uses.py): CUDA's <cooperative_groups/reduce.h> over a thread_block_tile is a
    # butterfly of the tile's own shuffles (`shfl_xor` within the tile's width: a tile of 32 on a 64-lane
    # wave stays in its half); every thread gets the result, as CUDA's does. A coalesced_group has no
    # overload here: its use fails to compile, never computes wrong. Sums round in another order than
    # CUDA's (verify's tolerance: auto).
    header_counterparts = HEADER_COUNTERPARTS  # NVTX's ranges and marks as roctx's (hip_profiler.py)
    header_polyfills = {"cooperative_groups/reduce.h": """\
// <cooperative_groups/reduce.h> has no HIP counterpart: cg::reduce over a thread_block_tile (kernelport)
#ifndef KP_CG_REDUCE
#define KP_CG_REDUCE
namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <unsigned int N, class P, class T, class Op>
__device__ T reduce(const thread_block_tile<N, P>& g, T v, Op op) {
    for (unsigned int o = N / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o));
    return v;
}
}  // namespace cooperative_groups
#endif""", "mma.h": WMMA_POLYFILL, **ASYNC_COPY_POLYFILLS}  # (cuda_pipeline.h, cg::memcpy_async: hip_async_copies.py)
    header_polyfill_scopes = {"mma.h": ("wmma", WMMA_DEFINES), **ASYNC_COPY_SCOPES}
    # libcu++'s atomic_ref (kernelport/atomic_refs.py): each access as clang's builtin of its own order and scope
    # (thread_scope_device: the agent), which tests/test_atomic_refs.py compiles with hipcc and the emulator runs
    atomic_ref_members = {
        "load": "__hip_atomic_load({ref}, {order}, {scope})",
        "store": "__hip_atomic_store({ref}, {value}, {order}, {scope})",
        "compare_exchange_strong": "__hip_atomic_compare_exchange_strong({ref}, &({expected}), {desired}, {success}, "
                                   "{failure}, {scope})",
        "fetch_add": "__hip_atomic_fetch_add({ref}, {value}, {order}, {scope})"}
    atomic_ref_orders = {f"cuda::memory_order_{o}": f"__ATOMIC_{o.upper()}"
                         for o in ("relaxed", "acquire", "release", "acq_rel", "seq_cst")}
    atomic_ref_scopes = {"cuda::thread_scope_system": "__HIP_MEMORY_SCOPE_SYSTEM",
                         "cuda::thread_scope_device": "__HIP_MEMORY_SCOPE_AGENT",
                         "cuda::thread_scope_block": "__HIP_MEMORY_SCOPE_WORKGROUP"}
    header_polyfill_elements = {"mma.h": ("fragment", "x", "num_elements")}
    # ROCm 5.2 (api_checked_with) has no hip_math_constants.h (from 5.3): the port defines what it uses;
    # nor hip_gl_interop.h, whose functions its hip_runtime_api.h declares: nothing to carry ("")
    absent_header_fallbacks = {"hip/hip_math_constants.h": "hip_math_constants.tsv", "hip/hip_gl_interop.h": ""}
    # GCC's <stdbool.h> (nvcc's host compiler) defines `_Bool` in C++ (a GNU extension C headers shared
    # with CUDA rely on: bart's `extern _Bool debug_logging;`); clang's only outside strict ISO modes, so
    # hipcc -std=c++17 knew no `_Bool`
    include_supplements = {"stdbool.h": "#if defined(__cplusplus) && !defined(_Bool)\n#define _Bool bool  // as GCC's <stdbool.h> has it in C++ (kernelport)\n#endif"}
    # CCCL's thrust/ and cub/ headers (CUDA 13: cuda/std/cfloat) include <cfloat>, so a CUDA file that includes one
    # may use FLT_MAX / FLT_EPSILON with no include of its own; rocThrust's and hipCUB's (5.3.3) and hip_runtime.h do
    # not (hipcc: "use of undeclared identifier 'FLT_EPSILON'"). <climits>' names hip_runtime.h has.
    include_folder_supplements = dict.fromkeys(("thrust/", "cub/"), "#include <cfloat>  // as CUDA's thrust/cub headers include it (kernelport)")
    launch_forms_absent = {"cudaLaunchKernelEx": "hipLaunchKernelEx", "cudaLaunchKernelExC": "hipLaunchKernelExC",
                           "cudaLaunchConfig_t": "hipLaunchConfig_t", "cudaLaunchConfig_st": "hipLaunchConfig_st"}

    # -- lint --
    display_name = "HIP"
    lint_breaks = {"hip-cdna": "on AMD CDNA (gfx9, MI100-MI300: 64-wide waves)"}
    lint_breaks_otherwise = "on any wave64 AMD GPU (CDNA; RDNA is wave32)"
    lint_sync_mask_bits = 64  # ROCm >= 6.2; a 32-bit mask is rejected at compile time
