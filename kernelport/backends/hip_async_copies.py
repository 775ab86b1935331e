"""The HIP port's asynchronous copies (HIP's `header_polyfills`, kernelport/header_uses.py): ROCm 5.2 has none
of CUDA's (`<cuda_pipeline.h>`'s primitives, cooperative groups' `memcpy_async`), so the port defines them as
synchronous copies, as PTX's `cp.async` is ported (kernelport/ptx_idioms.py, concept `ptx_cp_async`).

Why a synchronous copy is right: a copy complete when its call returns has completed before every later
wait, and a wait only promises that the copies before it are complete (it may be stronger, never weaker:
CUDA's own <cuda_pipeline_helpers.h> does exactly this on an arch without cp.async, `pipeline_memcpy_sync`
and an empty commit / wait).  A program that reads the destination, or writes the source, between the copy
and its wait races in CUDA (the copy may happen at any time in between): no such program has a meaning the
port changes.

- `__pipeline_memcpy_async(dst, src, size_and_align[, zfill])` (4, 8 or 16 bytes, both addresses so
  aligned, as CUDA requires): the first size_and_align - zfill bytes of src, the rest zeros;
  `__pipeline_commit()` and `__pipeline_wait_prior(N)`: nothing left to do (N is still evaluated).
  `__pipeline_arrive_on(&barrier)` (an mbarrier's arrival when the thread's copies land) and the C++ API
  of <cuda_pipeline.h> (`nvcuda::experimental::pipeline`) are refused where used (KP209, PIPELINE_DEFINES).
- `cg::memcpy_async(group, dst, src, bytes)` and `(group, dst, dst_count, src, src_count)` (min of the
  counts, in elements) are COLLECTIVE: every thread of the group calls it and the copy is the group's.
  Each thread copies a strided share (thread_rank, thread_rank + size, ...: CUDA's own inline_copy) in
  16-, 4- or 1-byte units as the addresses and the length allow, so no thread holds the whole range when
  its call returns; `cg::wait(group)` and `cg::wait_prior<N>(group)` are therefore the group's barrier,
  `group.sync()`, as CUDA's are (its wait_prior then group.sync()).  ROCm 5.2's thread_block, tiles and
  coalesced_group have thread_rank(), size() and sync() (const members).
- libcu++'s <cuda/pipeline> for a thread's own pipeline (`cuda::make_pipeline()` with no argument, or
  `cuda::pipeline<cuda::thread_scope_thread>`): `cuda::memcpy_async(dst, src, size, pipe)` (size a count of
  bytes or a `cuda::aligned_size_t<A>`) copies at once, the pipeline's producer_acquire / producer_commit /
  consumer_wait / consumer_release and `cuda::pipeline_consumer_wait_prior<N>(pipe)` do nothing.  A pipeline
  shared by a group of threads (a scope other than the thread's, `make_pipeline(group, &shared_state[, role])`,
  `cuda::pipeline_shared_state`, roles), the group form of memcpy_async and `cuda::barrier` are KP209 at their
  use: a consumer of a shared pipeline waits for other threads' copies, which a synchronous copy cannot give
  without a barrier the port would have to prove.

Every copy writes and reads through `__may_alias__` words (as char): a thread reads its own copy after the wait,
with no barrier, through the data's type (float), which clang's type-based alias analysis would otherwise let it
read before the copy's `unsigned int` store (tests/test_async_copy_aliasing.py).
"""
from __future__ import annotations

# What the port defines of <cuda_pipeline.h> / <cuda_pipeline_primitives.h> (another name of their shape,
# CUDA's dialect's `header_declares`, is refused at its use)
PIPELINE_DEFINES = frozenset({"__pipeline_memcpy_async", "__pipeline_commit", "__pipeline_wait_prior"})

_PIPELINE = """\
// <{header}> has no HIP counterpart: its primitives as synchronous copies, complete when the call returns,
// so commit and wait have nothing left to do (CUDA's own header does this where cp.async is absent) (kernelport)
#ifndef KP_CUDA_PIPELINE
#define KP_CUDA_PIPELINE
typedef unsigned int kp_copy_word __attribute__((__may_alias__));  // (the copy's words alias the data's type, as char)
__device__ inline void __pipeline_memcpy_async(void* __restrict__ dst, const void* __restrict__ src,
                                               size_t size_and_align, size_t zfill = 0)
{{
    if ((zfill & 3) == 0) {{  // (4-byte words: dst and src are aligned to size_and_align, 4, 8 or 16)
        for (size_t i = 0; i < size_and_align / 4; ++i)
            ((kp_copy_word*)dst)[i] = 4 * i + zfill < size_and_align ? ((const kp_copy_word*)src)[i] : 0u;
        return;
    }}
    for (size_t i = 0; i < size_and_align; ++i)
        ((char*)dst)[i] = i + zfill < size_and_align ? ((const char*)src)[i] : (char)0;
}}
__device__ inline void __pipeline_commit() {{}}
__device__ inline void __pipeline_wait_prior(size_t prior) {{ (void)prior; }}
#endif"""

_GROUP_COPY = """\
// <cooperative_groups/memcpy_async.h> has no HIP counterpart: the group's copy made synchronously, each thread
// a strided share, and the wait the group's barrier (a thread reads what another copied) (kernelport)
#ifndef KP_CG_MEMCPY_ASYNC
#define KP_CG_MEMCPY_ASYNC
namespace cooperative_groups {
typedef uint4 kp_copy_word4 __attribute__((__may_alias__));  // (the copy's units alias the data's type, as char)
typedef unsigned int kp_copy_word __attribute__((__may_alias__));
template <class G>
__device__ void kp_group_copy(const G& g, void* dst, const void* src, size_t bytes)
{
    const size_t rank = g.thread_rank(), stride = g.size();
    const size_t bits = (size_t)dst | (size_t)src | bytes;
    if ((bits & 15) == 0) {
        for (size_t i = rank; i < bytes / 16; i += stride) ((kp_copy_word4*)dst)[i] = ((const kp_copy_word4*)src)[i];
    } else if ((bits & 3) == 0) {
        for (size_t i = rank; i < bytes / 4; i += stride) ((kp_copy_word*)dst)[i] = ((const kp_copy_word*)src)[i];
    } else {
        for (size_t i = rank; i < bytes; i += stride) ((char*)dst)[i] = ((const char*)src)[i];
    }
}
template <class G, class T, class N>
__device__ void memcpy_async(const G& g, T* dst, const T* src, const N& bytes)
{
    kp_group_copy(g, (void*)dst, (const void*)src, (size_t)bytes);
}
template <class G, class T, class D, class S>
__device__ void memcpy_async(const G& g, T* dst, const D& dst_count, const T* src, const S& src_count)
{
    const size_t n = (size_t)dst_count < (size_t)src_count ? (size_t)dst_count : (size_t)src_count;
    kp_group_copy(g, (void*)dst, (const void*)src, n * sizeof(T));
}
template <class G>
__device__ void wait(const G& g) { g.sync(); }
template <unsigned int N, class G>
__device__ void wait_prior(const G& g) { g.sync(); }
}  // namespace cooperative_groups
#endif"""

_THREAD_PIPELINE = """\
// <cuda/pipeline> has no HIP counterpart: a thread's own pipeline (cuda::make_pipeline(), thread_scope_thread), its
// copies synchronous, complete when the call returns, so acquire, commit, wait and release have nothing left to do;
// another thread sees the data after the barrier the code has anyway, as CUDA's (kernelport)
#ifndef KP_CUDA_THREAD_PIPELINE
#define KP_CUDA_THREAD_PIPELINE
namespace cuda {
typedef unsigned int kp_copy_word __attribute__((__may_alias__));  // (the copy's words alias the data's type, as char)
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
template <size_t Align> struct aligned_size_t {
    size_t value;
    __host__ __device__ constexpr explicit aligned_size_t(size_t size) : value(size) {}
    __host__ __device__ constexpr operator size_t() const { return value; }
};
template <thread_scope Scope> class pipeline;
template <> class pipeline<thread_scope_thread> {
public:
    __device__ void producer_acquire() {}
    __device__ void producer_commit() {}
    __device__ void consumer_wait() {}
    __device__ void consumer_release() {}
};
__device__ inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }
template <unsigned char Prior>
__device__ void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& pipe) { (void)pipe; }
template <class T, class N>
__device__ void memcpy_async(T* dst, const T* src, const N& size, pipeline<thread_scope_thread>& pipe)
{
    const size_t n = (size_t)size;
    (void)pipe;
    if ((((size_t)dst | (size_t)src | n) & 3) == 0) {
        for (size_t i = 0; i < n / 4; ++i) ((kp_copy_word*)dst)[i] = ((const kp_copy_word*)src)[i];
    } else {
        for (size_t i = 0; i < n; ++i) ((char*)dst)[i] = ((const char*)src)[i];
    }
}
}  // namespace cuda
#endif"""

ASYNC_COPY_POLYFILLS = {**{h: _PIPELINE.format(header=h) for h in ("cuda_pipeline.h", "cuda_pipeline_primitives.h")},
                        "cooperative_groups/memcpy_async.h": _GROUP_COPY, "cuda/pipeline": _THREAD_PIPELINE}
# "": the header's names are global (kernelport/header_uses._beyond_defined)
ASYNC_COPY_SCOPES = {h: ("", PIPELINE_DEFINES) for h in ("cuda_pipeline.h", "cuda_pipeline_primitives.h")}
