"""Portable: one CUDA-syntax source that builds unchanged with nvcc and with hipcc (CDNA and RDNA).

The port reaches the platform only through `kp_warp.h` (generated from templates/kp_warp.h.j2
beside the port): named primitives for the wave width (a compile-time bound and the run-time
value), 64-bit lane masks and ballots on every platform, mask-less shuffles and votes, mask bit
operations, lane and warp ids, the warp barrier, and the runtime API.  The header picks CUDA or
HIP spellings, taken from those backends, by the compiler it is built with; it never keys the
wave width on an architecture macro.
"""
from __future__ import annotations

from ..dialect import RUNTIME_NAMES, group_votes
from .base import REGISTRY, Backend, Lowering, Run
from .cuda import COMMON_DROP, CUDA_LIKE_QUALIFIERS, _shared_spellings
from .hip import HIP, PTX_CARRY, PTX_IDIOMS

HEADER = "kp_warp.h"

# Primitives of the header: concept key -> the port's spelling.  Each is documented in the header.
_PRIMITIVES = {
    "warp_size": "kp_wave_size()",
    "wave_size_bound": "KP_WAVE_MAX",
    "host_wave_size": "kp_device_wave_size()",
    "host_wave_rows": "kp_wave_rows({threads})",
    "lanemask_type": "kp_lanemask_t",
    "lane_id": "kp_lane_id()", "warp_lane": "(kp_lane_id() & 31)",
    "warp_lane_of": "({lane} & 31)",
    "warp_id": "kp_warp_id()",
    "syncwarp": "kp_syncwarp()",
    # Masks travel: CUDA honours them; on AMD the wave's active lanes take part, which is what a
    # full mask or one from kp_activemask() means there (a mask naming only some lanes is refused).
    "shfl": "kp_shfl_sync({mask}, {value}, {lane}[, {width}])",
    "shfl_up": "kp_shfl_up_sync({mask}, {value}, {delta}[, {width}])",
    "shfl_down": "kp_shfl_down_sync({mask}, {value}, {delta}[, {width}])",
    "shfl_xor": "kp_shfl_xor_sync({mask}, {value}, {lanemask}[, {width}])",
    "ballot": "kp_ballot_sync({mask}, {predicate})",
    "any": "kp_any_sync({mask}, {predicate})",
    "all": "kp_all_sync({mask}, {predicate})",
    "activemask": "kp_activemask()",
    # CUDA's __ballot_sync(mask, p) gives the group's bits; HIP's wave ballot is shifted and masked.
    **group_votes("kp_ballot_sync({mask}, {predicate})", "kp_lane_id() & 32"),
    "full_mask": "KP_FULL_MASK",
    "lanemask_lt": "kp_lanemask_lt()",
    "popc64": "kp_popc_mask({x})",
    "ffs64": "kp_ffs_mask({x})",
    "clz64": "kp_clz_mask({x})",
}


class Portable(Backend):
    name = "portable"
    extension = ".portable.cu"
    header_extension = ".portable.cuh"
    source_extensions = (".portable.cu",)
    # The same text runs as CUDA on NVIDIA and as HIP on AMD: each run reads it as that dialect.
    runs = (Run("portable", 32, "sm_80", "cuda", "NVIDIA (32-wide warps)", reads_as="cuda"),
            Run("portable", 64, "gfx90a", "hip-cdna", "AMD CDNA / gfx9 (MI100-MI300, 64-wide waves)",
                reads_as="hip"),
            Run("portable", 32, "gfx1030", "hip-rdna", "AMD RDNA / gfx10-12 (32-wide waves)", reads_as="hip"))
    tools = ("nvcc", "hipcc")
    build_reads = REGISTRY["cuda"].build_reads | HIP.build_reads  # each compile takes its own (compile_all)
    wave_constant = "bound"
    plan_always = True  # the plan weighs the portability header as a strategy for every kernel
    launches_from_device = False  # its HIP runs: ROCm has no dynamic parallelism (hipcc refuses the port)
    member_spaces_in_class = True  # its HIP runs: hipcc is clang (see HIP)
    specialization_spaces_match = True
    definition_spaces_declared = True  # its HIP runs (see HIP)
    braced_narrowing_refused = True  # its HIP runs (see HIP)
    function_to_void_refused = True  # its HIP runs (see HIP)
    device_alloca_crash = HIP.device_alloca_crash  # its HIP runs: the same compiler
    shared_initializers_refused = HIP.shared_initializers_refused  # its HIP runs: the same compiler
    completes_short_vector_lists = HIP.completes_short_vector_lists  # its HIP runs: `float2(a)` broadcast, `{x}` too
    extern_shared_definitions_refused = HIP.extern_shared_definitions_refused  # its HIP runs: the same compiler
    device_vla_refused = HIP.device_vla_refused  # its HIP runs: the same compiler
    nvcc_leniencies_refused = HIP.nvcc_leniencies_refused  # its HIP runs: the same compiler
    vla_initializer_refused = HIP.vla_initializer_refused  # its HIP runs: the same compiler
    thrust_algorithm_headers = HIP.thrust_algorithm_headers  # its HIP runs (the include is harmless to nvcc)
    # its HIP runs; nvcc 13's device pass takes each `std::` classifier but isnormal (#20013-D: a constexpr host function
    # from a __host__ __device__ one, the call left out), which is written so in host-only functions alone
    host_std_classifiers = {**HIP.host_std_classifiers, "isnormal": False}
    typename_required = HIP.typename_required  # its HIP runs (`typename` is valid for nvcc too)
    # its HIP runs: hipcc defines __HIPCC__ and nvcc does not, so the arm nvcc's host pass reads stays as written
    # (kernelport/pass_attributes.py; its device pass gets `__host__ __device__`, which nvcc takes as the same)
    both_passes_space = HIP.both_passes_space
    runtime_typedefs = HIP.runtime_typedefs  # its HIP runs (the renamed name means the same to nvcc)
    host_typed_functors = HIP.host_typed_functors  # its HIP runs (nvcc takes the __host__ __device__ functor)
    device_less_algorithms = HIP.device_less_algorithms  # (nvcc takes the __host__ __device__ operator)
    vector_list_constructors = HIP.vector_list_constructors  # its HIP runs (CUDA's Thrust takes the std::vector too)
    arch_missing = HIP.arch_missing  # its HIP runs: the same compiler
    reserved_words, reserved_why = HIP.reserved_words, HIP.reserved_why  # its HIP runs read HIP's headers
    # `#ifdef __CUDACC__` holds for nvcc and for hipcc alike (kp_warp.h defines KP_CUDACC for both):
    # kept as written, hipcc would leave out what it guards (a file's kernels, its __device__ macros)
    compiler_macros = {"__CUDACC__": "KP_CUDACC"}
    # `#ifdef __CUDA_ARCH__` ("the device pass") and the pass split of `#if __CUDA_ARCH__ >= N` in code both passes
    # compile (pass_branches.py): kp_warp.h defines KP_DEVICE_PASS on nvcc's device pass and on hipcc's (from each
    # dialect's own device-pass macro, `device_pass_spellings`); kept as written, hipcc's device pass computed the host's branch
    device_pass_macros = {"__CUDA_ARCH__": "KP_DEVICE_PASS"}
    spellings = {
        **_shared_spellings(),
        **_PRIMITIVES,
        # A compile-time wave width other than a bound has no portable value (RDNA and CDNA differ,
        # and an architecture macro is wrong on generic targets): where a constant expression
        # means the exact width, translate refuses it (KP218); macros become the bound.
        "wave_size_const": "KP_WAVE_MAX",
        "lanemask_one": "1ull",
        "bfloat16": None,  # no type both toolchains spell alike without their own headers
        "runtime_header": HEADER,  # the header includes the platform runtime
        **{f"rt_{n}": f"kp{n}" for n in RUNTIME_NAMES},
        "rt_attr_warp_size": "kpDevAttrWarpSize",
        **PTX_IDIOMS, **PTX_CARRY,  # C and intrinsics nvcc and hipcc both have
    }
    lowering = Lowering(CUDA_LIKE_QUALIFIERS, COMMON_DROP)
    translator_path = "kernelport.translate:Translator"

    def compile(self, path, run, config=None):
        return REGISTRY[run.reads_as].compile(path, run, config)

    def compile_all(self, path, runs, config=None):
        """Each dialect the text is read as compiles its own runs (hipcc builds its two at once)."""
        results = {}
        for dialect in dict.fromkeys(r.reads_as for r in runs):
            mine = [i for i, r in enumerate(runs) if r.reads_as == dialect]
            results.update(zip(mine, REGISTRY[dialect].compile_all(path, [runs[i] for i in mine], config)))
        return [results[i] for i in range(len(runs))]

    def prologue(self, body: str, **context) -> str:
        return f'#include "{HEADER}"\n'

    def extra_files(self) -> dict[str, str]:
        """The header every port includes, written beside it (the same bytes for every port)."""
        from .. import templates
        cuda, hip = REGISTRY["cuda"], REGISTRY["hip"]
        from .. import dialect
        runtime = [(self.spellings[k], cuda.spellings[k], dialect.concept(k).spelling(hip.name))
                   for k in [f"rt_{n}" for n in RUNTIME_NAMES] + ["rt_attr_warp_size"]]
        return {HEADER: templates.render("kp_warp.h.j2", runtime=runtime, device_pass=self.device_pass_spellings())}

    def device_pass_spellings(self) -> dict[str, list[str]]:
        """Each device-pass macro of the port -> the macros the compilers it is read as define on their device pass
        alone: the source dialect's own name (nvcc's `__CUDA_ARCH__`) and each read dialect's respelling (hipcc's
        `__HIP_DEVICE_COMPILE__`)."""
        read = [REGISTRY[d] for d in dict.fromkeys(r.reads_as for r in self.runs)]
        return {mine: list(dict.fromkeys(b.device_pass_macros.get(name, name) for b in read))
                for name, mine in self.device_pass_macros.items()}
