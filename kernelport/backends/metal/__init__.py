"""Metal (MSL): Apple GPUs; SIMD-groups of a width the hardware reports (32 on Apple silicon)."""
from __future__ import annotations

from ...dialect import (ATOMIC_OPS, C_HEADERS, CAS_ATOMIC_OPS, MATH_ACCURATE, MATH_EXACT, MATH_FAST, RESPELLED_VECTORS,
                        VECTOR_MAKERS, group_votes, header_key)
from ..base import Backend, Lowering, Run
from ..lacked_types import LackedType
from ..hip import PTX_IDIOMS

# Integer PTX idioms (kernelport/ptx_idioms.py) are C in HIP's spelling: Metal's is the same C with its own
# 64-bit words (MSL 2.1: `long`, `ulong`; no `long long`) and its kp_ helpers for CUDA's intrinsics
# (renamed_calls below: the prologue's polyfills with CUDA's definitions).
_C_WORDS = (("unsigned long long", "ulong"), ("long long", "long"), ("0ull", "0ul"))
# CUDA's vector element names Metal spells otherwise (MSL 2.2: longn/ulongn are its 64-bit vectors, the same
# size and lanes as CUDA's longlongn; it has no `long long`): the rest are Metal's names as they are
VECTOR_BASES = {"longlong": "long", "ulonglong": "ulong"}
_PTX_CALLS = {"__funnelshift_l": "kp_funnelshift_l", "__funnelshift_lc": "kp_funnelshift_lc",
              "__funnelshift_r": "kp_funnelshift_r", "__funnelshift_rc": "kp_funnelshift_rc", "__umulhi": "kp_umulhi",
              "__umul64hi": "kp_umul64hi"}


def _metal_c(text: str) -> str:
    for c, metal in _C_WORDS:
        text = text.replace(c, metal)
    for c, metal in _PTX_CALLS.items():
        text = text.replace(f"{c}(", f"{metal}(")
    return text


_PTX_INTEGER = {k: _metal_c(v) for k, v in PTX_IDIOMS.items()}


# CUDA's rounding suffixes of its conversion intrinsics and Metal's function of each rounding (MSL 6.5)
_ROUNDINGS = (("rd", "floor"), ("ru", "ceil"), ("rn", "rint"), ("rz", "trunc"))

class Metal(Backend):
    name = "metal"
    extension = ".metal"
    # No header ports: a Metal port splices the project headers its device code needs
    # (metal/headers.py), so it is one file a host compiles into a library on its own.
    header_extension = None
    source_extensions = (".metal",)
    runs = (Run("metal", 32, "apple", "metal", "Apple GPUs (SIMD-group width not guaranteed)"),)
    tools = ("clang", "xcrun")
    wave_constant = "assumed"
    completes_short_vector_lists = True  # `float4 v = {x}`: "too few elements in vector initialization"
    # `double` in device code: KP214 wherever it is met (a declaration, a macro body, a template instance, the
    # checker's error on an instance's parameter), one wording; `--demote-double` writes float
    lacked_types = {"double": LackedType("KP214", "Metal has no double-precision type",
                                         "use float, or pass --demote-double to demote every double to float",
                                         "demote_double", "float")}
    spellings = {
        "thread_idx": "tid", "block_idx": "bid", "block_dim": "bdim", "grid_dim": "gdim", "warp_size": "simd_width",
        "wave_size_const": "32", "wave_size_bound": "64", "host_wave_size": None, "host_wave_rows": None,
        "lanemask_type": "ulong", "lanemask_one": "1ul", "lane_id": "simd_lane", "warp_id": "simd_group",
        "syncthreads": "threadgroup_barrier(mem_flags::mem_threadgroup)",
        "syncwarp": "simdgroup_barrier(mem_flags::mem_threadgroup)",
        "syncthreads_device": "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup)",
        "threadfence": "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device)",
        "threadfence_block": "atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_seq_cst, "
                             "thread_scope_threadgroup)",
        "shfl": "simd_shuffle({value}, {lane})", "shfl_up": "simd_shuffle_up({value}, {delta})",
        "shfl_down": "simd_shuffle_down({value}, {delta})", "shfl_xor": "simd_shuffle_xor({value}, {lanemask})",
        "ballot": "static_cast<ulong>(simd_ballot({predicate}))", "any": "simd_any({predicate})",
        "all": "simd_all({predicate})", "activemask": "static_cast<ulong>(simd_active_threads_mask())",
        **group_votes("static_cast<ulong>(simd_ballot({predicate}))", None, "uint"),  # a SIMD-group of 32
        "shfl_width": "kp_simd_shuffle({value}, {lane}, {width}, {lane_id})",
        "shfl_up_width": "kp_simd_shuffle_up({value}, {delta}, {width}, {lane_id})",
        "shfl_down_width": "kp_simd_shuffle_down({value}, {delta}, {width}, {lane_id})",
        "shfl_xor_width": "kp_simd_shuffle_xor({value}, {lanemask}, {width}, {lane_id})",
        "simd_sum": "simd_sum({value})", "simd_max": "simd_max({value})", "simd_min": "simd_min({value})",
        # sm_80's __reduce_{op}_sync(0xffffffff, v) (translate ports only CUDA's full mask; KP203 otherwise):
        # the SIMD-group reduction (MSL 6.9.2), every lane gets it, over the 32-wide SIMD-group a full-mask
        # __shfl_sync assumes too; 32-bit integer add, min, max, and, or, xor as CUDA's
        **{f"warp_reduce_{op}": f"simd_{metal}({{value}})" for op, metal in
           (("add", "sum"), ("min", "min"), ("max", "max"), ("and", "and"), ("or", "or"), ("xor", "xor"))},
        "popc": "popcount({x})", "popc64": "popcount({x})", "ffs": "kp_ffs({x})", "ffs64": "kp_ffs({x})",
        "clz": "clz({x})", "clz64": "clz({x})", "brev": "reverse_bits({x})", "brev64": "reverse_bits({x})",
        **{f"atomic_{op}": f"atomic_fetch_{op}_explicit(({{space}} {{atomic}}*)({{address}}), {{value}}, "
                           f"memory_order_relaxed)" for op, _ in ATOMIC_OPS},
        "atomic_exch": "atomic_exchange_explicit(({space} {atomic}*)({address}), {value}, memory_order_relaxed)",
        **{f"atomic_{op}_cas": f"kp_atomic_{op}({{address}}, {{value}})" for op in CAS_ATOMIC_OPS},
        "atomic_cas": "kp_atomic_cas({address}, {compare}, {value})",
        "atomic_add_split": "kp_atomic_add_split({address}, {value})",
        # MSL 3.1: 64-bit atomics are min/max of a device atomic_ulong, with no return value
        **{f"atomic_{op}_ulong": f"atomic_{op}_explicit((device atomic_ulong*)({{address}}), {{value}}, "
                                 "memory_order_relaxed)" for op in ("min", "max")},
        "atomic_inc": "kp_atomic_inc({address}, {value})", "atomic_dec": "kp_atomic_dec({address}, {value})",
        **{f"math_{fn}": f"precise::{fn}({{x}})" for fn in MATH_ACCURATE},
        **{f"math_{fn}": f"{fn}({{x}})" for fn in MATH_EXACT},
        "math_rsqrt": "precise::rsqrt({x})", "math_erf": "kp_erf({x})", "math_expm1": "kp_expm1({x})",
        "math_log1p": "kp_log1p({x})", "math_pow": "precise::pow({x}, {y})", "math_fmin": "fminf({x}, {y})",
        "math_fmax": "fmaxf({x}, {y})", "math_fma": "fma({x}, {y}, {z})",  # fminf, fmaxf: float_math below
        **{f"fast_{fn}": f"__{fn}f({{x}})" for fn in MATH_FAST},  # CUDA's names: float_math below
        "fast_pow": "__powf({x}, {y})", "fast_divide": "__fdividef({x}, {y})", "saturate": "saturate({x})",
        "half": "half", "null": "nullptr", "long_long": "long", "ulong_long": "ulong", "vec3_buffer": "packed_{t}3",
        **{f"make_{t}{n}": f"{VECTOR_BASES.get(t, t)}{n}(" + ", ".join("{%s}" % c for c in "xyzw"[:n]) + ")"
           for t, n in VECTOR_MAKERS},
        **{f"vector_{v}": VECTOR_BASES[v.rstrip("234")] + v[-1] for v in RESPELLED_VECTORS},
        "bfloat16": "bfloat", "double": None,
        **_PTX_INTEGER,
        "ptx_prmt_b32": "kp_prmt_b32({a}, {b}, {c})",  # the prologue's (metal_polyfills.j2): PTX's sign-replicating form
        "kernel": "kernel", "device_fn": "", "shared": "threadgroup", "constant_mem": "constant",
        "forceinline": "inline", "grid_constant": "",  # by-value kernel parameters are `constant T&` already
        "launch_bounds": "[[max_total_threads_per_threadgroup({threads})]]",
        **{header_key(h): None for h in C_HEADERS},
    }
    aliases = {"ballot": ("simd_ballot",), "activemask": ("simd_active_threads_mask",),
               # Metal's own fast:: forms, which the float_math definitions of CUDA's fast intrinsics call
               **{f"fast_{fn}": (f"fast::{fn}",) for fn in MATH_FAST},
               "fast_pow": ("fast::pow",), "fast_divide": ("fast::divide",)}
    attributes = {
        "thread_idx": ("uint3", "thread_position_in_threadgroup"),
        "block_idx": ("uint3", "threadgroup_position_in_grid"),
        "block_dim": ("uint3", "threads_per_threadgroup"),
        "grid_dim": ("uint3", "threadgroups_per_grid"),
        "warp_size": ("uint", "threads_per_simdgroup"),
        "lane_id": ("uint", "thread_index_in_simdgroup"),
        "warp_id": ("uint", "simdgroup_index_in_threadgroup"),
    }
    lowering = Lowering({"kernel": "kernel", "shared": "shared", "forceinline": "drop", "constant_mem": "drop"},
                        ("METAL_FUNC", "__inline__"),  # clang keeps GNU __inline__ in MSL
                        address_spaces={"device": "", "constant": "", "thread": "", "threadgroup": "shared"},
                        attributes=True, defines={"__METAL_VERSION__": "310", "__METAL__": "1"})
    translator_path = "kernelport.backends.metal.translator:MetalTranslator"
    # `#ifdef __CUDACC__` ("a GPU compiler"): the Metal compiler's own macro (kept as written, the port's
    # kernels under it vanished from the library)
    compiler_macros = {"__CUDACC__": "__METAL_VERSION__"}
    # A Metal port is device code only: `#ifdef __CUDA_ARCH__` ("the device pass") holds there (kept as
    # written, the #else, host code, was what Metal compiled).
    device_pass_macros = {"__CUDA_ARCH__": "__METAL_VERSION__"}

    def compile(self, path, run, config=None):
        from ...compile_flags import only
        from .toolchain import compile_port  # lazy: the checker is needed only to compile
        return compile_port(path, config=only(config, self.build_reads))

    # -- emulator --
    warp_size_type = attributes["warp_size"][0]
    math_overloaded = True
    math_scopes = ("precise", "fast", "metal")
    bitops_overloaded = True
    explicit_atomics = {"atomic_load_explicit": ("load", 2), "atomic_store_explicit": ("store", 3),
                        "atomic_compare_exchange_weak_explicit": ("cas", 5),
                        "atomic_compare_exchange_strong_explicit": ("cas", 5)}
    atomic_prefixes = ("atomic_",)  # atomic_fetch_add_explicit, ...
    # the SIMD-group shuffles the prologue gives 64-bit overloads (templates/metal_polyfills.j2: two 32-bit
    # shuffles; MSL 6.9.2 has none for 64-bit types, which CUDA's __shfl*_sync take)
    builtin_overloads = frozenset({"simd_shuffle", "simd_shuffle_up", "simd_shuffle_down", "simd_shuffle_xor"})
    kernel_head_pattern = r"\bkernel\s+void\b"
    argument_attribute = "buffer"
    dynamic_shared_attribute = "threadgroup"
    derived_builtin_attributes = {"thread_position_in_grid": "global_idx",
                                  "thread_index_in_threadgroup": "linear_tid"}

    # -- what has no Metal meaning in device code (KP223): name -> why --
    refuses_undefined_names = True  # unported.py: KP223 for what neither the file nor Metal defines
    pointers_spaced = True  # each pointer in device code: device, threadgroup, constant or thread
    restrict_needs_pointer = True  # Metal's compiler is clang's: `const __restrict__ uint16_t *p` refused (topk)
    kernel_block_written = True  # the port writes a kernel's signature and coordinates at its `{` (body_macros.py: KP250)
    no_meaning = {
        "printf": "(device-side printf: Metal has no printf before macOS 15's os_log, and none a port can rely on)",
        **{n: "(device-side heap allocation)" for n in ("malloc", "free", "calloc", "realloc")},
        **{n: "(a cycle counter: Metal has no clock in shaders)" for n in ("clock", "clock64", "clock_t")},
        **{n: "(CUDA textures and surfaces: Metal binds textures as kernel arguments of its own types)"
           for n in ("texture", "surface", "cudaTextureObject_t", "cudaSurfaceObject_t", "tex1D", "tex2D", "tex3D",
                     "tex1Dfetch", "tex1DLod", "tex2DLod", "tex3DLod", "tex2DGrad", "tex2DLayered", "texCubemap",
                     "tex2Dgather", "surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread",
                     "surf3Dwrite")},
        **{n: "(warp-matrix operations: Metal's simdgroup_matrix has other shapes and semantics)"
           for n in ("wmma", "nvcuda")},
        **{n: "(a device-side trap or assertion)" for n in ("__trap", "__brkpt", "assert")},
        # CUDA's arithmetic rounded down, up or toward zero (interval bounds, a VRP's rounded-up distance):
        # Metal sets no rounding mode and has no double to find the side with (HIP's kp_rnd_* helpers use it)
        **{f"{stem}_{mode}": "(arithmetic with a directed rounding: Metal has no rounding modes, nor double to "
                             "emulate one; the round-to-nearest operation differs by up to an ulp)"
           for stem in ("__fadd", "__fsub", "__fmul", "__fdiv", "__frcp", "__fsqrt", "__fmaf", "__dadd", "__dsub",
                        "__dmul", "__ddiv", "__drcp", "__dsqrt", "__fma") for mode in ("rd", "ru", "rz")},
        # CUDA's round-to-nearest float add, subtract and multiply: correctly rounded as `+`, `-`, `*` are, and
        # never contracted into an fma (what the intrinsic exists for; CUDA programming guide, "Intrinsic
        # Functions").  Metal compiles with fast math by default, which may contract or re-associate
        # floating-point operations (MSL spec 7.4's note), and MSL has no operation that forbids it: refused
        **{f"__f{op}_rn": f"(a round-to-nearest float {word} CUDA never contracts into an fma: Metal's default fast "
                          "math may contract or re-associate it, and MSL has no operation that forbids that)"
           for op, word in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"))},
        # the double-precision ones: Metal has no double
        **{f"{n}_rn": "(correctly rounded double-precision arithmetic: Metal has no double)"
           for n in ("__dadd", "__dsub", "__dmul", "__ddiv", "__drcp", "__dsqrt", "__fma")},
    }
    # CUDA texture objects (the texture and its sampler state, which the host's cudaTextureDesc sets) bound
    # as Metal binds them: a texture argument and a sampler argument the host builds from that descriptor
    # (metal/textures.py).  A fetch by its dimension: Metal's texture type and its coordinate type.  Fetches
    # of other kinds (Lod, Grad, layered, gather, 3-D, surfaces) stay refused (no_meaning).  tex1Dfetch reads
    # linear memory only (CUDA programming guide, "Texture fetching"): of an object, as of a texture reference
    # (texture_references below), it is a buffer read (the "buffer" kind: a `device const T*` and its length).
    texture_objects = frozenset({"cudaTextureObject_t", "CUtexObject"})
    texture_fetches = {"tex1D": ("texture1d", "float", 1), "tex2D": ("texture2d", "float2", 2),
                       "tex1Dfetch": ("buffer", "", 1)}
    # the texel types a fetch may return: (the Metal texture's component type, the components of its
    # sample() result (a 4-vector of that type, MSL 6.12) the fetch keeps, the conversion to the CUDA type).
    # float: a float texture (float, half, unorm/snorm pixel formats; cudaReadModeNormalizedFloat is
    # unorm/snorm).  An integer texel (cudaReadModeElementType over an integer format, which CUDA reads
    # with point filtering only, as Metal samples an integer format with nearest filtering only) is a
    # texture of uint or int components (the Uint/Sint pixel format of the texel's width).
    texture_texels = {
        "float": ("float", ".x", ""), "float1": ("float", ".x", ""), "float2": ("float", ".xy", ""),
        "float4": ("float", "", ""),
        **{t: ("uint", ".x", "uchar") for t in ("uchar", "unsigned char", "uint8_t", "uchar1")},
        **{t: ("uint", ".x", "ushort") for t in ("ushort", "unsigned short", "uint16_t", "ushort1")},
        **{t: ("uint", ".x", "uint") for t in ("uint", "unsigned int", "unsigned", "uint32_t", "uint1")},
        **{t: ("int", ".x", "char") for t in ("char", "signed char", "int8_t", "char1")},
        **{t: ("int", ".x", "short") for t in ("short", "int16_t", "short1")},
        **{t: ("int", ".x", "int") for t in ("int", "int32_t", "int1")},
        **{f"{t}{n}": ("int" if t in ("char", "short", "int") else "uint", ".xy" if n == 2 else "", f"{t}{n}")
           for t in ("uchar", "ushort", "uint", "char", "short", "int") for n in (2, 4)},
    }
    texture_type = "{kind}<{component}, access::sample>"
    texture_creators = frozenset({"cudaCreateTextureObject", "cuTexObjectCreate"})  # (&object, &resource, &descriptor, ...)
    texture_sampler = {  # the sidecar: each cudaTextureDesc field as the MTLSamplerDescriptor the host binds
        "normalizedCoords": "normalizedCoordinates (false: pixel coordinates, as CUDA's unnormalised ones)",
        "filterMode": "minFilter and magFilter: cudaFilterModePoint -> nearest, cudaFilterModeLinear -> linear "
                      "(CUDA weighs linear filtering in 9-bit fixed point: Metal's low bits may differ)",
        "addressMode[0..1]": "sAddressMode, tAddressMode: cudaAddressModeClamp -> clampToEdge, cudaAddressModeBorder "
                             "-> clampToBorderColor with transparentBlack (CUDA's border is zero in every component; "
                             "clampToZero is that only for formats with alpha), cudaAddressModeWrap -> repeat, cudaAddressModeMirror -> mirrorRepeat "
                             "(with unnormalised coordinates CUDA applies Clamp or Border only, Metal accepts only "
                             "those)",
        "readMode": "the texture's pixel format: cudaReadModeNormalizedFloat over 8- or 16-bit integers -> the "
                    "Unorm/Snorm format of that width, cudaReadModeElementType over floats -> the Float format, "
                    "cudaReadModeElementType over integers (a uint or int texture) -> the Uint/Sint format of that "
                    "width, sampled with nearest filtering (CUDA filters integer texels by point only)",
    }
    # CUDA texture references over linear memory (`texture<T, 1, cudaReadModeElementType> t;` bound with
    # cudaBindTexture, read with tex1Dfetch: element i unconverted, 0 outside the bound range): a device
    # buffer and its length in elements, bound as host-filled __constant__ memory is (metal/texture_buffers.py).
    # The template's arguments after the texel type that keep that meaning (absent: the defaults).
    texture_references = frozenset({"texture"})
    texture_reference_linear = (frozenset({"1", "cudaTextureType1D"}), frozenset({"cudaReadModeElementType"}))
    texture_binders = frozenset({"cudaBindTexture"})  # (&offset, reference, devPtr, [&desc,] bytes)
    texture_buffer_fetches = {"tex1Dfetch": "kp_tex1Dfetch({texture}, {count}, {index})"}
    texture_buffer_params = {"texture": "device const {type}* {name}", "texture_count": "constant uint& {name}"}
    # CUDA's device-side assert(e) and __trap() (name -> its arguments): Metal cannot stop a kernel, so a
    # failure is recorded for the host in a buffer the kernel receives (metal/assertions.py): the call,
    # and the buffer's name and parameter
    assertion_calls = {"assert": 1, "__trap": 0}
    assertion_call = "kp_assert({condition}, {number}u, {flag})"
    assertion_flag = ("kp_assert_failed", "device atomic_uint* {name}")
    # Words of the Metal Shading Language that C++ lacks (the MSL specification: address spaces
    # (4), function qualifiers (5.1), scalar, vector, packed, matrix and atomic types (2.1-2.6),
    # as_type (2.20), the metal namespace (6.1), and types <metal_types> reserves): a name the
    # CUDA file declares with one of these spellings is renamed in the port.  And OpenCL's address-space
    # words, names C++ reserves to the implementation, which the checker's clang (OpenCL C++ mode, as
    # Metal's compiler is a clang) reads as address spaces: a parameter `__local` (yescrypt.h's) is
    # "parameter may not be qualified with an address space" there as it is to hipcc.
    reserved_words = frozenset({
        "__global", "__local", "__constant", "__private", "__generic",
        "device", "constant", "thread", "threadgroup", "threadgroup_imageblock", "ray_data", "object_data",
        "vertex", "fragment", "kernel", "metal", "as_type", "restrict",
        "uchar", "ushort", "uint", "ulong", "half", "bfloat", "llong", "ullong", "quad", "complex", "imaginary",
        "vec", "packed_vec", "matrix", "atomic", "atomic_int", "atomic_uint", "atomic_bool", "atomic_ulong",
        "atomic_float",
        *(f"{p}{t}{n}" for p in ("", "packed_") for t in ("bool", "char", "short", "int", "long", "uchar", "ushort",
                                                        "uint", "ulong", "half", "bfloat", "float")
          for n in (2, 3, 4)),
        *(f"{t}{r}x{c}" for t in ("half", "float") for r in (2, 3, 4) for c in (2, 3, 4)),
    })
    reserved_why = "'{name}' is a word of the Metal Shading Language: renamed everywhere in the port"
    # Metal's own scalar type names, as the C type each is (a CUDA typedef of the same: left out)
    builtin_typedefs = {"uint": "unsigned int", "uchar": "unsigned char", "ushort": "unsigned short",
                        "ulong": "unsigned long"}
    # CUDA's vector types Metal has built in (MSL 2.2), under the same name or VECTOR_BASES' (longlong2 is
    # long2), with their built-in component-wise operators (MSL 2.2.1: vector OP vector, vector OP scalar,
    # scalar OP vector, OP=, unary)
    vector_types = frozenset(f"{t}{n}" for t in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                                 "float", *VECTOR_BASES) for n in (2, 3, 4))
    # a value's bits read as another type of its size (MSL 2.20): a vector component's bytes (element_views.py)
    bit_view = "as_type<{type}>({value})"
    vector_operators = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"})
    vector_unary_operators = frozenset({"-", "+", "~"})
    # CUDA's alignment attribute is C++11's `alignas(n)` in MSL (a C++14 dialect)
    attribute_spellings = {"__align__": "alignas", "__builtin_align__": "alignas", "__device_builtin__": ""}
    # MSL lacks C++14's `register` (the MSL specification's list of C++14 features Metal does not have:
    # "register, thread_local storage attributes"), a hint with no effect in CUDA: it goes from the port
    dropped_keywords = {"register": "Metal has no 'register' storage class (it had no effect in CUDA)"}
    # cache-hinted loads: a plain load on Metal
    plain_loads = ("__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv")
    # cache-hinted stores (`__stcs(p, v)`): a plain store
    plain_stores = ("__stwb", "__stcg", "__stcs", "__stwt")
    # CUDA device functions HIP keeps as written that Metal has under another name (MSL 6.4 integer
    # functions, 2.20 as_type, conversions): the call is renamed; a kp_ polyfill converts the
    # arguments as CUDA's signature does (Metal's mul24 and min take one type)
    renamed_calls = {
        "__mul24": "kp_mul24", "__umul24": "kp_umul24", "umin": "kp_umin", "umax": "kp_umax",
        "__float_as_uint": "as_type<uint>", "__uint_as_float": "as_type<float>",
        "__float_as_int": "as_type<int>", "__int_as_float": "as_type<float>",
        "__float2half": "half", "__float2half_rn": "half", "__half2float": "float",
        # byte and funnel-shift intrinsics (kp_ helpers with CUDA's definitions), high halves of products
        "__byte_perm": "kp_byte_perm", "__funnelshift_l": "kp_funnelshift_l", "__funnelshift_lc": "kp_funnelshift_lc",
        "__funnelshift_r": "kp_funnelshift_r", "__funnelshift_rc": "kp_funnelshift_rc",
        "__umulhi": "kp_umulhi", "__mulhi": "kp_mulhi", "__umul64hi": "kp_umul64hi",
        # C's memcpy and memset, which CUDA device code has and MSL lacks: byte loops in each pointer's space
        "memcpy": "kp_memcpy", "memset": "kp_memset",
        # C's float functions MSL lacks or spells otherwise (metal_polyfills.j2): hypotf (MSL 6.5 has no
        # hypot), modff (MSL's modf(x, thread float&) writes a reference, CUDA's a pointer of any space),
        # CUDA's rhypotf; unsuffixed, CUDA's float overloads of <cmath> (crt/math_functions.hpp: hypot(float,
        # float), modf(float, float*)), which the double ones become where Metal has no double (CUDA has no
        # float rhypot: rhypot is double only, and stays unmapped)
        "hypotf": "kp_hypotf", "modff": "kp_modff", "hypot": "kp_hypotf", "modf": "kp_modff",
        "rhypotf": "kp_rhypotf",
        # C's frexpf(x, exp) and CUDA's frexp(float, int*): MSL's frexp(x, exponent) writes a thread reference
        # (metal_polyfills.j2, over the argument's type: a double or integer argument stays uncompiled)
        "frexpf": "kp_frexp", "frexp": "kp_frexp",
        # C's sincosf(x, sptr, cptr) and CUDA's forms of it (sincos(float, float*, float*), the fast
        # __sincosf, sincospif): MSL's sincos(x, cosval) returns the sine and writes a thread reference,
        # CUDA's write two pointers of any space (metal_polyfills.j2)
        "sincosf": "kp_sincosf", "sincos": "kp_sincosf", "__sincosf": "kp_fast_sincosf",
        "sincospif": "kp_sincospif", "sincospi": "kp_sincospif",
    }

    # CUDA's float math functions Metal has only as overloads over its own types (MSL 6.2's fmin(T, T)
    # for half and float, no integer ones): the port keeps CUDA's name, and the prologue defines it with
    # CUDA's signature over Metal's function, so an argument converts as in CUDA (`fminf(n - i, 64)`
    # of ints is a float minimum) and a project's own overloads of the name (helper_math.h's
    # fminf(float2, float2)) are resolved beside it by C++'s overload resolution, as nvcc resolves them.
    # CUDA's fast intrinsics (`__expf(float)`, `__log2f`, `__powf(float, float)`, `__fdividef`) likewise, over
    # Metal's fast:: forms (MSL 6.5), which take only float types: `__powf(2, i)` of ints is CUDA's float pow
    float_math = {"fminf": ("float", ("float", "float"), "fmin"), "fmaxf": ("float", ("float", "float"), "fmax"),
                  **{f"__{fn}f": ("float", ("float",), f"fast::{fn}") for fn in MATH_FAST},
                  "__powf": ("float", ("float", "float"), "fast::pow"),
                  "__fdividef": ("float", ("float", "float"), "fast::divide"),
                  # CUDA's correctly rounded (round-to-nearest-even) float intrinsics, over the functions MSL's
                  # precise variant (metal::precise, whatever the fast-math option) rounds correctly (MSL spec
                  # 7.4: 1.0 / x, x / y, sqrt and fma correctly rounded); __fadd_rn and its kin: no_meaning above
                  "__fdiv_rn": ("float", ("float", "float"), "precise::divide"),
                  "__frcp_rn": ("float", ("float",), "precise::divide(1.0f, {x})"),
                  "__fsqrt_rn": ("float", ("float",), "precise::sqrt"),
                  "__fmaf_rn": ("float", ("float", "float", "float"), "fma"),
                  # C's float functions (math.h) with no dialect concept that Metal has unsuffixed (MSL 6.5):
                  # the precise:: form where Metal's default fast math could round otherwise
                  # (those the emulator runs too, so a port's checks are real; asinhf, ldexpf, ...: not yet)
                  **{f"{fn}f": ("float", ("float", "float"), f"precise::{fn}") for fn in ("fmod", "atan2", "fdim")},
                  "exp10f": ("float", ("float",), "precise::exp10"), "copysignf": ("float", ("float", "float"), "copysign"),
                  # C's float-to-integer roundings (math.h): to nearest even (rint) or half away from zero (round),
                  # then to CUDA's 64-bit long / long long, Metal's long (out of range is undefined in both)
                  **{f"{pre}{fn}f": ("long", ("float",), f"long({fn}({{x}}))")
                     for pre in ("l", "ll") for fn in ("rint", "round")},
                  # CUDA's rounding conversions (`__float2int_rd`, ...: PTX cvt.rmi/rpi/rni/rzi with .sat): the
                  # rounding, saturated to the type's range, NaN as 0 ({x}: the argument)
                  **{f"__float2int_{r}": ("int", ("float",), f"(isnan({{x}}) ? 0 : {{x}} >= 2147483648.0f ? INT_MAX : "
                                                              f"{{x}} <= -2147483648.0f ? INT_MIN : int({fn}({{x}})))")
                     for r, fn in _ROUNDINGS},
                  **{f"__float2uint_{r}": ("uint", ("float",), f"(isnan({{x}}) ? 0u : {{x}} >= 4294967296.0f ? UINT_MAX : "
                                                                f"{{x}} <= 0.0f ? 0u : uint({fn}({{x}})))")
                     for r, fn in _ROUNDINGS}}

    # cooperative groups' thread_block_tile<32> (tiled_partition<32>(block)): the SIMD-group, 32 wide on
    # Apple GPUs as a full-warp __shfl_sync assumes (metal/cgtiles.py); an empty token type of the prologue.
    # Its members ({0}, {1}: the call's arguments), and cg::reduce(tile, v, cg::OP<T>{}) by OP (MSL 6.9.2).
    cg_tile = ("32", "kp_simd_tile")
    # cooperative groups' thread_block (this_thread_block()): the threadgroup, an empty token type of the
    # prologue (translator.py); its members in the kernel's built-ins, as CUDA defines them (CUDA
    # Programming Guide, "Thread Block Group"): the rank is the linear index, x fastest
    cg_block_members = {
        "thread_rank": "(({thread_idx}.z * {block_dim}.y + {thread_idx}.y) * {block_dim}.x + {thread_idx}.x)",
        "size": "({block_dim}.x * {block_dim}.y * {block_dim}.z)",
        "num_threads": "({block_dim}.x * {block_dim}.y * {block_dim}.z)",
        "thread_index": "{thread_idx}", "group_index": "{block_idx}",
        "group_dim": "{block_dim}", "dim_threads": "{block_dim}",
    }
    cg_tile_members = {
        "thread_rank": "{lane_id}", "size": "32", "num_threads": "32", "meta_group_rank": "{warp_id}",
        "meta_group_size": "(({block_dim}.x * {block_dim}.y * {block_dim}.z + 31) / 32)",
        "sync": "simdgroup_barrier(mem_flags::mem_threadgroup)",
        "shfl": "simd_shuffle({0}, {1})", "shfl_up": "simd_shuffle_up({0}, {1})",
        "shfl_down": "simd_shuffle_down({0}, {1})", "shfl_xor": "simd_shuffle_xor({0}, {1})",
        "any": "simd_any({0})", "all": "simd_all({0})",
        "ballot": "static_cast<uint>(static_cast<ulong>(simd_ballot({0})))",
    }
    # tiles of 16, 8, 4 and 2 threads (tiled_partition<W>): segments of W lanes of the 32-wide SIMD-group,
    # as CUDA's tiles are of a warp; {w}: W, {m}: W - 1, {bits}: W ones.  A shuffle is CUDA's width-W
    # shuffle (the kp_simd_shuffle* helpers: src modulo W, nothing crosses a segment); votes read the
    # tile's bits of the SIMD-group's ballot.  No `sync` (a SIMD-group barrier waits for the other tiles
    # too: in code only one tile reaches, no meaning) and no cg::reduce: KP217.
    cg_subtiles = ("16", "8", "4", "2")
    cg_subtile_members = {
        "thread_rank": "({lane_id} & {m}u)", "size": "{w}u", "num_threads": "{w}u",
        "meta_group_rank": "({warp_id} * (32u / {w}u) + {lane_id} / {w}u)",
        "meta_group_size": "(({block_dim}.x * {block_dim}.y * {block_dim}.z + {m}u) / {w}u)",
        "shfl": "kp_simd_shuffle({0}, {1}, {w}u, {lane_id})", "shfl_up": "kp_simd_shuffle_up({0}, {1}, {w}u, {lane_id})",
        "shfl_down": "kp_simd_shuffle_down({0}, {1}, {w}u, {lane_id})",
        "shfl_xor": "kp_simd_shuffle_xor({0}, {1}, {w}u, {lane_id})",
        "ballot": "static_cast<uint>((static_cast<ulong>(simd_ballot({0})) >> ({lane_id} & ~{m}u)) & {bits}ul)",
        "any": "(static_cast<uint>((static_cast<ulong>(simd_ballot({0})) >> ({lane_id} & ~{m}u)) & {bits}ul) != 0u)",
        "all": "(static_cast<uint>((static_cast<ulong>(simd_ballot({0})) >> ({lane_id} & ~{m}u)) & {bits}ul) == {bits}u)",
    }
    cg_reduce_ops = {"plus": "simd_sum({value})", "greater": "simd_max({value})", "less": "simd_min({value})",
                     "bit_and": "simd_and({value})", "bit_or": "simd_or({value})", "bit_xor": "simd_xor({value})"}

    # C's math constants (math.h, which CUDA device code sees) are doubles; Metal has no double, and
    # its <metal_stdlib> has each as a float constant with an _F suffix (MSL 6.5): a port that uses
    # one defines it as Metal's (the prologue), as Metal reads an unsuffixed literal as a float
    # (<stdint.h>'s exact-width limits, which CUDA device code sees and MSL lacks, likewise: each is the MSL
    # integer limit (MSL 6.5) of the same type and value: UINT32_MAX is unsigned int's UINT_MAX, INT64_MAX long's)
    math_constants = {**{name: f"{name}_F" for name in (
        "M_E", "M_LOG2E", "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI",
        "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2")},
        "INT8_MIN": "SCHAR_MIN", "INT8_MAX": "SCHAR_MAX", "UINT8_MAX": "UCHAR_MAX",
        "INT16_MIN": "SHRT_MIN", "INT16_MAX": "SHRT_MAX", "UINT16_MAX": "USHRT_MAX",
        "INT32_MIN": "INT_MIN", "INT32_MAX": "INT_MAX", "UINT32_MAX": "UINT_MAX",
        "INT64_MIN": "LONG_MIN", "INT64_MAX": "LONG_MAX", "UINT64_MAX": "ULONG_MAX",
        # CUDA's <math_constants.h> single-precision constants: the same float, by MSL's name for it (MSL 6.5;
        # each is the float nearest the constant, as CUDA's literal is)
        "CUDART_INF_F": "INFINITY", "CUDART_NAN_F": "NAN", "CUDART_MAX_NORMAL_F": "FLT_MAX",
        "CUDART_ZERO_F": "0.0f", "CUDART_ONE_F": "1.0f", "CUDART_PI_F": "M_PI_F", "CUDART_PIO2_F": "M_PI_2_F",
        "CUDART_PIO4_F": "M_PI_4_F", "CUDART_2_OVER_PI_F": "M_2_PI_F", "CUDART_SQRT_HALF_F": "M_SQRT1_2_F",
        "CUDART_SQRT_TWO_F": "M_SQRT2_F", "CUDART_LN2_F": "M_LN2_F", "CUDART_L2E_F": "M_LOG2E_F",
        "CUDART_LNT_F": "M_LN10_F"}
    # <stdint.h>'s integer-constant macros (C11 7.20.4.1), which MSL lacks: the literal with the suffix of
    # its type, as glibc defines them (UINT8_C(c) is `c`, an int after promotion; MSL's long is 64-bit, 2.1):
    # the prologue defines each one the port names and does not define itself
    integer_constant_macros = {"INT8_C": "c", "INT16_C": "c", "INT32_C": "c", "INT64_C": "c ## l",
                               "UINT8_C": "c", "UINT16_C": "c", "UINT32_C": "c ## u", "UINT64_C": "c ## ul",
                               "INTMAX_C": "c ## l", "UINTMAX_C": "c ## ul"}

    # cuComplex.h's single-precision complex (a float2 in CUDA: `typedef float2 cuFloatComplex`), which a Metal
    # port cannot include: the prologue defines each name the port uses and does not define itself, as a macro
    # that reads each argument once (componentwise float2 `+`/`-` are cuCaddf/cuCsubf exactly).  The functions
    # that read an argument twice are `complex_functions` below; double complex is KP214 (`double_complex`)
    complex_macros = {"cuFloatComplex": "float2", "cuComplex": "float2",
                      "make_cuFloatComplex(r, i)": "float2((r), (i))", "make_cuComplex(r, i)": "float2((r), (i))",
                      "cuCrealf(z)": "((z).x)", "cuCimagf(z)": "((z).y)",
                      "cuCaddf(a, b)": "((a) + (b))", "cuCsubf(a, b)": "((a) - (b))"}
    # cuComplex.h's single-precision functions that read an argument more than once: inline MSL functions over
    # float2 (a macro would evaluate an argument twice), each CUDA 13's cuComplex.h formula operation for
    # operation, in its order (cuCdivf's scaling by |re| + |im|, cuCabsf's v * sqrt(1 + (w/v)^2) with its
    # zero / overflow case; its sqrtf is IEEE-rounded, so precise::sqrt).  Emitted where the port names one and
    # does not define it itself (the prologue, metal_polyfills.j2)
    complex_functions = {
        "cuConjf": "inline float2 cuConjf(float2 x) { return float2(x.x, -x.y); }",
        "cuCmulf": "inline float2 cuCmulf(float2 x, float2 y) {\n"
                   "    return float2((x.x * y.x) - (x.y * y.y), (x.x * y.y) + (x.y * y.x));\n}",
        "cuCdivf": "inline float2 cuCdivf(float2 x, float2 y) {\n"
                   "    float s = fabs(y.x) + fabs(y.y);\n    float oos = 1.0f / s;\n"
                   "    float ars = x.x * oos, ais = x.y * oos, brs = y.x * oos, bis = y.y * oos;\n"
                   "    s = (brs * brs) + (bis * bis);\n    oos = 1.0f / s;\n"
                   "    return float2(((ars * brs) + (ais * bis)) * oos, ((ais * brs) - (ars * bis)) * oos);\n}",
        "cuCabsf": "inline float cuCabsf(float2 x) {\n"
                   "    float a = fabs(x.x), b = fabs(x.y);\n    float v = a > b ? a : b, w = a > b ? b : a;\n"
                   "    float t = w / v;\n    t = 1.0f + t * t;\n    t = v * precise::sqrt(t);\n"
                   "    if ((v == 0.0f) || (v > 3.402823466e38f) || (w > 3.402823466e38f)) t = v + w;\n"
                   "    return t;\n}",
        "cuCfmaf": "inline float2 cuCfmaf(float2 x, float2 y, float2 d) {\n"
                   "    float re = (x.x * y.x) + d.x, im = (x.x * y.y) + d.y;\n"
                   "    re = -(x.y * y.y) + re;\n    im = (x.y * y.x) + im;\n    return float2(re, im);\n}",
    }
    # cuComplex.h's double-precision complex (double2): Metal has no double, so KP214 at a use, as `double` is
    # (with --demote-double each is its float name above: cuDoubleComplex a float2, cuCmul cuCmulf)
    double_complex = {"cuDoubleComplex": "cuFloatComplex", "make_cuDoubleComplex": "make_cuFloatComplex",
                      "cuCreal": "cuCrealf", "cuCimag": "cuCimagf", "cuConj": "cuConjf", "cuCadd": "cuCaddf",
                      "cuCsub": "cuCsubf", "cuCmul": "cuCmulf", "cuCdiv": "cuCdivf", "cuCabs": "cuCabsf",
                      "cuCfma": "cuCfmaf"}

    # CUDA's barrier votes over the block (`__syncthreads_or(p)`, `_and`, `_count`): a kp_ helper of the
    # prologue that counts the predicate in a threadgroup atomic the kernel declares (`block_vote_scratch`)
    # between threadgroup barriers, as CUDA's barrier-with-vote does
    block_votes = {"__syncthreads_or": "kp_syncthreads_or", "__syncthreads_and": "kp_syncthreads_and",
                   "__syncthreads_count": "kp_syncthreads_count"}
    block_vote_scratch = ("threadgroup atomic_int", "kp_block_vote")

    # C++ standard library names device code spells `std::X` that MSL's standard library has as
    # `metal::X` with the same meaning (MSL specification 6.2 math, 6.4 integer, 6.10 numeric_limits;
    # each is in the checker's model, check/metal_stdlib.h, tests/test_metal_std_names.py): the scope
    # becomes `metal`. Metal has no namespace std, so `using namespace std;` goes from the port (the
    # prologue's `using namespace metal;` reaches these same names unqualified).
    library_namespace = ("std", "metal")
    library_counterparts = frozenset({
        "numeric_limits", "min", "max", "clamp", "abs", "fabs", "fmin", "fmax", "fma", "fmod", "copysign",
        "sqrt", "rsqrt", "exp", "exp2", "log", "log2", "log10", "pow", "sin", "cos", "tan", "asin",
        "acos", "atan", "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "round", "trunc", "isnan", "isinf",
        "isfinite", "signbit", "ldexp", "popcount",
        # <metal_type_traits> (MSL 6.1's type traits): a trait's value a port reads in constant expressions
        "integral_constant", "bool_constant", "true_type", "false_type", "is_same", "enable_if", "enable_if_t",
        "conditional",
        # the same header's classification and transformation traits (metal::is_integral_v, is_signed_v,
        # remove_cv_t, make_unsigned_t ... as Apple's own Metal kernels name them: MLX, PyTorch MPS, ANGLE)
        "conditional_t", "is_integral", "is_floating_point", "is_signed", "is_unsigned", "is_integral_v",
        "is_floating_point_v", "is_signed_v", "is_unsigned_v", "is_same_v", "remove_cv", "remove_cv_t",
    })

    # <cstdint>'s and <cstddef>'s types device code spells `std::int16_t`: MSL has each, same width and
    # signedness (MSL 2.1's scalar types), named without a namespace the port must give (`int16_t`)
    library_types = frozenset({f"{u}int{n}_t" for u in ("", "u") for n in (8, 16, 32, 64)} |
                              {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t"})

    # -- lint --
    lint_reader = "kernelport.lint.units:metal_unit"
    lint_breaks = {"metal": "on Metal (SIMD-group width not guaranteed to be 32)"}
    lint_breaks_own = "on a GPU whose SIMD-group is not 32 wide (Metal does not guarantee 32)"
    lint_host_code = False
    lint_docs_fence = "cpp"

    # -- plan --
    plan_risks = ("float atomics on threadgroup memory", "double")
