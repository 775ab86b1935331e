"""CUDA: the dialect kernels are written in, and what the original runs as (NVIDIA, 32-wide warps)."""
from __future__ import annotations

from ..dialect import (ATOMIC_OPS, C_HEADERS, CUDA_ONLY_OTHER, CUDA_ONLY_PARAMS, CUDA_ONLY_WARP, WARP_REDUCE_OPS, MATH_ACCURATE,
                       MATH_EXACT, MATH_FAST, RESPELLED_VECTORS, RUNTIME_NAMES, VECTOR_MAKERS, header_key)
from .base import Backend, HostBuild, LaunchForm, Lowering, Run

# Words the emulator's front end drops in CUDA and HIP text alike (no GPU meaning for C99).
COMMON_DROP = ("__host__", "__noinline__", "__inline__", "__align__", "__restrict__", "__restrict",
               "__grid_constant__", "__managed__", "constexpr", "mutable", "explicit", "virtual")
# CUDA and HIP mark kernels, helpers and shared memory alike.
CUDA_LIKE_QUALIFIERS = {"kernel": "kernel", "device_fn": "drop", "forceinline": "drop", "shared": "shared",
                        "constant_mem": "drop", "launch_bounds": "drop_call"}
# The scoped forms of CUDA's (and HIP's) atomics: atomicAdd_block, atomicAdd_system (sm_60).
CUDA_ATOMIC_SCOPES = ("_block", "_system")


def _shared_spellings() -> dict[str, str | None]:
    """What CUDA and HIP spell alike (HIP is CUDA's dialect by design)."""
    return {
        "thread_idx": "threadIdx", "block_idx": "blockIdx", "block_dim": "blockDim", "grid_dim": "gridDim",
        "warp_size": "warpSize",
        "syncthreads": "__syncthreads()", "syncthreads_device": "__syncthreads()",
        "threadfence": "__threadfence()", "threadfence_block": "__threadfence_block()",
        "popc": "__popc({x})", "popc64": "__popcll({x})", "ffs": "__ffs({x})", "ffs64": "__ffsll({x})",
        "clz": "__clz({x})", "clz64": "__clzll({x})", "brev": "__brev({x})", "brev64": "__brevll({x})",
        **{f"atomic_{op}": f"{cu}({{address}}, {{value}})" for op, cu in ATOMIC_OPS},
        "atomic_exch": "atomicExch({address}, {value})",
        "atomic_cas": "atomicCAS({address}, {compare}, {value})",
        "atomic_inc": "atomicInc({address}, {value})", "atomic_dec": "atomicDec({address}, {value})",
        **{f"math_{fn}": f"{fn}f({{x}})" for fn in MATH_ACCURATE + MATH_EXACT + ("rsqrt", "erf", "expm1", "log1p")},
        "math_pow": "powf({x}, {y})", "math_fmin": "fminf({x}, {y})", "math_fmax": "fmaxf({x}, {y})",
        "math_fma": "fmaf({x}, {y}, {z})",
        **{f"fast_{fn}": f"__{fn}f({{x}})" for fn in MATH_FAST},
        "fast_pow": "__powf({x}, {y})", "fast_divide": "__fdividef({x}, {y})", "saturate": "__saturatef({x})",
        "half": "__half", "null": "NULL", "long_long": "long long", "ulong_long": "unsigned long long",
        "vec3_buffer": "{t}3",
        **{f"make_{t}{n}": f"make_{t}{n}(" + ", ".join("{%s}" % c for c in "xyzw"[:n]) + ")"
           for t, n in VECTOR_MAKERS},
        **{f"vector_{v}": v for v in RESPELLED_VECTORS},
        "double": "double",
        "kernel": "__global__", "device_fn": "__device__", "shared": "__shared__", "constant_mem": "__constant__",
        "forceinline": "__forceinline__", "grid_constant": "__grid_constant__", "launch_bounds": "__launch_bounds__({threads})",
        **{header_key(h): h for h in C_HEADERS},
    }


class CUDA(Backend):
    name = "cuda"
    is_source = True
    atomic_prefixes = ("atomic", "__nv_atomic", "__atomic")  # atomicAdd[_block|_system], CUDA 12's / GCC's builtins
    source_extensions = (".cu", ".cuh")
    runs = (Run("cuda", 32, "sm_80", "cuda", "NVIDIA (32-wide warps)"),)
    tools = ("nvcc",)
    build_reads = frozenset({"defines", "include_dirs", "forced_includes"})
    honours_partial_masks = True
    vector_casts_are_aggregates = True  # (nvcc -std=c++20: `float2(a)` is (a, 0); C++17 refuses it)
    device_runner = "kernelport.device:run_cuda"
    spellings = {
        **_shared_spellings(),
        # Compile-time and host uses of the wave width are plain 32 on NVIDIA.
        "wave_size_const": "32", "wave_size_bound": "32", "host_wave_size": "32",
        "host_wave_rows": "{threads} / 32",
        "lanemask_type": "unsigned int", "lanemask_one": "1u", "full_mask": "0xffffffff",
        "syncwarp": "__syncwarp([{mask}])",
        "shfl": "__shfl_sync({mask}, {value}, {lane}[, {width}])",
        "shfl_up": "__shfl_up_sync({mask}, {value}, {delta}[, {width}])",
        "shfl_down": "__shfl_down_sync({mask}, {value}, {delta}[, {width}])",
        "shfl_xor": "__shfl_xor_sync({mask}, {value}, {lanemask}[, {width}])",
        "ballot": "__ballot_sync({mask}, {predicate})",
        "any": "__any_sync({mask}, {predicate})", "all": "__all_sync({mask}, {predicate})",
        "activemask": "__activemask()",
        "bfloat16": "__nv_bfloat16",
        "runtime_header": "cuda_runtime.h", "fp16_header": "cuda_fp16.h", "bf16_header": "cuda_bf16.h",
        "coop_groups_header": "cooperative_groups.h", "coop_groups_reduce_header": "cooperative_groups/reduce.h",
        "coop_groups_memcpy_async_header": "cooperative_groups/memcpy_async.h",
        "cub_header": "cub/cub.cuh",
        **{f"cuda_only_{n}": f"{n}(" + ", ".join(f"{{{p}}}" for p in CUDA_ONLY_PARAMS.get(n, ()) if p != "width") + ")"
           for n in CUDA_ONLY_WARP + CUDA_ONLY_OTHER},
        **{f"warp_reduce_{op}": f"__reduce_{op}_sync({{mask}}, {{value}})" for op in WARP_REDUCE_OPS},
        **{f"rt_{n}": f"cuda{n}" for n in RUNTIME_NAMES},
        "rt_attr_warp_size": "cudaDevAttrWarpSize",
    }
    # What a CUDA API name looks like (runtime cudaX, the libraries, NVRTC): a name of this shape
    # that no table lists is refused, not guessed.  `cumsum`, `cur`, `CUDA_CHECK` and snake_case
    # helpers (`cuda_sum`, `cublas_check`) are not (only cuRAND's device API is snake_case); nor is
    # the driver API's bare `cuX`/`CUx` shape, which user code uses too (apex's `cuWelfordMuSigma2`):
    # the table lists every driver name HIPIFY knows.  CUDA 12's DPX intrinsics (`__viaddmax_s16x2`,
    # `__vimax3_s32_relu`, `__vibmax_u32`: HIPIFY lists none) too: left as written they reach hipcc
    # as undeclared identifiers (cudasw4's kernelhelpers.cuh), with no word from kernelport.  The HIP
    # table ports all but `__vibmax/__vibmin` (hip_simd.DPX_FORMS); those stay refused by this pattern.
    api_pattern = (r"(cuda|cublas(Lt)?|curand|cufft|cusparse|cusolver|cudnn|nvrtc)[A-Z]\w*|curand_\w+"
                   r"|(CUBLAS|CURAND|CUFFT|CUSPARSE|CUSOLVER|CUDNN|NVRTC)_[A-Z]\w*"
                   r"|__vi(add)?(max|min)3?_[su](16x2|32)(_relu)?|__vib(max|min)_[su](16x2|32)")
    # The compiler's macros and the runtime headers' include guards (never __CUDA_ARCH__: its
    # `#ifndef` is host code, not a build without CUDA).  gpujpeg's public header declares
    # `typedef struct CUstream_st *cudaStream_t;` under `#ifndef __DRIVER_TYPES_H__`.
    toolkit_macros = ("__CUDACC__", "__NVCC__", "__DRIVER_TYPES_H__", "__CUDA_RUNTIME_H__",
                      "__CUDA_RUNTIME_API_H__")
    # cooperative_groups/details/info.h's pointer constraint ("l" on 64-bit hosts), which code that
    # writes its own grid barrier takes over (zeux/calm: `: _CG_ASM_PTR_CONSTRAINT(barrier),`).
    toolkit_definitions = {"_CG_ASM_PTR_CONSTRAINT": '"l"'}
    # An included header of the toolkit or its libraries (`<cuda_pipeline.h>`, `<cub/block/...>`),
    # NVIDIA's profiling and management ones too (CUPTI, NVPerf, NVML: the HIP API table has none).
    # NVTX 3 puts its headers in the toolkit's nvtx3/ (`<nvtx3/nvToolsExt.h>`, `<nvtx3/nvtx3.hpp>`).
    api_header_pattern = (r"(cuda|cublas|curand|cufft|cusparse|cusolver|cudnn|nvrtc|nvToolsExt|cupti|nvperf)\w*\.h"
                          r"|nvml\.h|cub/.*|cuda/.*|nvtx3/.*|mma\.h")
    # cudaTypedefs.h declares the driver API's entry points as function pointer types (`PFN_cuInit`,
    # `PFN_cuMemMap_v10020`, for cudaGetDriverEntryPoint) and nothing else: HIP has none of them.
    # mma.h declares the warp matrix functions (nvcuda::wmma): HIP's runtime has none of them (rocWMMA,
    # a separate library for MFMA/WMMA GPUs only, spells them differently), Metal neither.
    # NVTX's C headers declare only nvtx-prefixed functions and types and NVTX_ macros (profiler ranges and
    # marks: HIP's roctx is another library, Metal has none): an include whose names the file never uses
    # (its calls commented out, topk's `// nvtxRangePushA(...)`) ports without it.
    header_declares = {"cudaTypedefs.h": r"PFN_cu\w+",
                       **dict.fromkeys(("nvToolsExt.h", "nvToolsExtCuda.h", "nvToolsExtCudaRt.h"), r"nvtx\w+|NVTX\w*"),
                       "mma.h": r"nvcuda|wmma|fragment|fill_fragment|load_matrix_sync|store_matrix_sync|mma_sync"
                                r"|matrix_a|matrix_b|accumulator|mem_row_major|mem_col_major",
                       # cg::reduce and its operator objects (ROCm 5/6 have no such header; a helper
                       # header that includes it for nothing ports without it)
                       "cooperative_groups/reduce.h": r"reduce(?:_update_async|_store_async)?|plus|less|greater"
                                                      r"|bit_and|bit_or|bit_xor",
                       # the async copies: the primitives (and the C++ API's `pipeline`), the group's copy and waits
                       "cuda_pipeline.h": r"__pipeline_\w+|pipeline", "cuda_pipeline_primitives.h": r"__pipeline_\w+",
                       "cooperative_groups/memcpy_async.h": r"memcpy_async|wait|wait_prior",
                       "cuda/pipeline": r"(make_)?pipeline(_\w+)?|memcpy_async|aligned_size_t|thread_scope_\w+"}
    # <mma.h>'s nvcuda::wmma (CUDA 12/13's mma.hpp): a `wmma::X` of another X is a project's own namespace's
    header_namespace_names = {"mma.h": ("nvcuda::wmma", frozenset({
        "fragment", "matrix_a", "matrix_b", "accumulator", "row_major", "col_major", "layout_t", "mem_row_major",
        "mem_col_major", "fill_fragment", "load_matrix_sync", "store_matrix_sync", "mma_sync", "bmma_sync",
        "precision", "experimental", "__float_to_tf32", "__float_to_bf16", "op_xor", "op_and", "bmmaBitOp",
        "bmmaAccumulateOp", "bmmaBitOpXOR", "bmmaBitOpAND", "bmmaAccumulateOpPOPC"}))}
    # wmma's operations act on a 32-lane warp, its fragments spread over those 32 lanes: a kernel that
    # calls one keeps CUDA's warps of 32 in a port (HIP's wmma: backends/hip_wmma.py, over 32-lane warps)
    warp32_calls = r"fill_fragment|load_matrix_sync|store_matrix_sync|mma_sync"
    # PTX's warp matrix instructions, whose fragments PTX lays out over a warp's 32 lanes (the HIP port's:
    # backends/hip_ptx_matrix.py, over 32-lane warps); `.sync.aligned`: all 32 lanes execute it
    warp32_asm = r"(?:mma|ldmatrix|movmatrix|stmatrix)\.sync\.aligned\b|wmma\."
    # Legacy mask-less names (pre-CUDA 9) read as the same concepts.
    aliases = {"shfl": ("__shfl",), "shfl_up": ("__shfl_up",), "shfl_down": ("__shfl_down",),
               "shfl_xor": ("__shfl_xor",), "ballot": ("__ballot",), "any": ("__any",), "all": ("__all",),
               "runtime_header": ("cuda.h", "cuda_runtime_api.h")}
    # PyTorch's shuffle and ballot helpers (ATen/cuda/DeviceUtils.cuh, THC/THCDeviceUtils.cuh):
    # their width defaults to warpSize (the whole wave), their mask to the full mask.
    # cub's (and hipCUB's) shuffles, `cub::ShuffleDown<LOGICAL_WARP_THREADS>(input, src_offset, last_thread,
    # member_mask)`: the logical width is the template argument (a literal one: kernelport.warpshapes.literal_width).
    library_spellings = {
        "shfl": ("WARP_SHFL({value}, {lane}[, {width}][, {mask}])", "ShuffleIndex({value}, {lane}, {mask})"),
        "shfl_up": ("WARP_SHFL_UP({value}, {delta}[, {width}][, {mask}])",
                    "ShuffleUp({value}, {delta}, {first_lane}, {mask})"),
        "shfl_down": ("WARP_SHFL_DOWN({value}, {delta}[, {width}][, {mask}])",
                      "ShuffleDown({value}, {delta}, {last_lane}, {mask})"),
        "shfl_xor": ("WARP_SHFL_XOR({value}, {lanemask}[, {width}][, {mask}])",),
        "ballot": ("WARP_BALLOT({predicate}[, {mask}])",),
    }
    # cub's warp collectives (hipCUB spells them alike): the logical warp is a template argument
    # that defaults to the hardware warp, 32 lanes on NVIDIA and the wave (64 on CDNA) on AMD.
    warp_collectives = {"WarpReduce": 1, "WarpScan": 1, "WarpExchange": 2, "WarpMergeSort": 2, "WarpLoad": 3,
                        "WarpStore": 3}
    warp_collective_default = "32"  # CUB_PTX_WARP_THREADS
    # CUDA 11-13's <cooperative_groups.h> and its reduce/scan/memcpy_async headers (public names)
    # `nvcc --list-gpu-arch` of CUDA 13.0 (sm_75 is its oldest: Fermi's sm_20 or Kepler's sm_35 are built by none)
    device_archs = (750, 800, 860, 870, 880, 890, 900, 1000, 1030, 1100, 1200, 1210)
    # The same toolkit's version macros (CUDA 13.0: cuda.h's CUDA_VERSION, cuda_runtime_api.h's CUDART_VERSION,
    # nvcc's own; `nvcc --version`: release 13.0, V13.0.88)
    toolkit_versions = {"CUDA_VERSION": 13000, "CUDART_VERSION": 13000, "__CUDACC_VER_MAJOR__": 13,
                        "__CUDACC_VER_MINOR__": 0, "__CUDACC_VER_BUILD__": 88}
    # nvcc 13 compiles as C++17 by default (hipcc likewise): `__cplusplus` is 201703L in every pass
    language_macros = {"__cplusplus": 201703}
    cg_names_present = frozenset((
        "thread_group", "thread_block", "grid_group", "multi_grid_group", "coalesced_group", "thread_block_tile",
        "cluster_group", "block_tile_memory", "this_thread_block", "this_grid", "this_multi_grid", "this_cluster",
        "this_thread", "coalesced_threads", "tiled_partition", "labeled_partition", "binary_partition", "sync",
        "group_size", "thread_rank", "reduce", "reduce_update_async", "reduce_store_async", "plus", "less",
        "greater", "bit_and", "bit_or", "bit_xor", "inclusive_scan", "exclusive_scan", "inclusive_scan_update",
        "exclusive_scan_update", "memcpy_async", "wait", "wait_prior", "invoke_one", "invoke_one_broadcast",
        "experimental", "details"))
    # The original runs in the emulator as the newest architecture's device pass compiles it: the branch of an
    # `#if __CUDA_ARCH__ >= N` translate ports (kernelport/ptx_branches.py) and verify --device's GPU runs.
    lowering = Lowering(CUDA_LIKE_QUALIFIERS, COMMON_DROP, atomic_scopes=CUDA_ATOMIC_SCOPES,
                        defines={"__CUDACC__": "1", "__CUDA_ARCH__": str(max(device_archs)), "__NVCC__": "1",
                                 **{k: str(v) for k, v in toolkit_versions.items()}},
                        group_namespaces=("cooperative_groups",), cub_namespaces=("cub",))

    host_build = HostBuild("cuda", "CUDA", ".cu", "nvcc", "NVCC", ("-x", "cu"), ("-Xcompiler", "-fPIC"), (),
                           "KERNELPORT_CUDA_ARCH", "-arch={}", (), "cudart", ("CUDA_HOME", "CUDA_PATH"),
                           ("lib64", "lib", "targets/x86_64-linux/lib", "/usr/local/cuda/lib64"))

    def compile(self, path, run, config=None):
        from .. import compile_flags, toolchains
        extra, forced = compile_flags.read_by(config, self.build_reads)
        return toolchains.compile_cuda(path, run.arch, extra_args=extra, forced=forced)

    # cuda_runtime_api.h / cuda_runtime.h (CUDA 12): the kernel, then its geometry
    launch_forms = {
        "cudaLaunchKernel": LaunchForm(kernel=0, grid=1, block=2, shared=4, stream=5, arg_array=3),
        "cudaLaunchCooperativeKernel": LaunchForm(kernel=0, grid=1, block=2, shared=4, stream=5, arg_array=3),
        "cudaLaunchKernelEx": LaunchForm(kernel=1, config=0, args=2),
        "cudaLaunchKernelExC": LaunchForm(kernel=1, config=0),
    }
    launch_configs = {"cudaLaunchConfig_t": ("gridDim", "blockDim", "dynamicSmemBytes", "stream"),
                      "cudaLaunchConfig_st": ("gridDim", "blockDim", "dynamicSmemBytes", "stream")}

    # -- lint --
    lint_sync_mask_bits = 32
    lint_unsafe_spellings = {"lanemask_one": "1ull", "lanemask_type": "unsigned long long"}
