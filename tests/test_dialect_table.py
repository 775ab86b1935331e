"""The concept table's look-ups (kernelport.dialect): which name is which concept on each backend,
API names, argument binding, and which names are warp-level."""
from __future__ import annotations

import pytest

from kernelport import backends, dialect

WARP_LEVEL_CUDA = {
    "__activemask", "__all", "__all_sync", "__any", "__any_sync", "__ballot", "__ballot_sync",
    "__match_all_sync", "__match_any_sync", "__reduce_add_sync", "__reduce_and_sync", "__reduce_max_sync",
    "__reduce_min_sync", "__reduce_or_sync", "__reduce_xor_sync", "__shfl", "__shfl_down", "__shfl_down_sync",
    "__shfl_sync", "__shfl_up", "__shfl_up_sync", "__shfl_xor", "__shfl_xor_sync", "__syncwarp"}


def test_warp_level_names_of_cuda():
    """Lint and warpflow treat a function that calls one of these as warp-level code (its leader
    tests are sinks): a name missing here silences real hazards."""
    assert dialect.warp_level_names("cuda") == WARP_LEVEL_CUDA
    # a port read back: HIP's and the portable prologue's lane-mask helpers are warp-level too
    assert {"__lanemask_lt", "__ballot", "__shfl_down", "kp_syncwarp"} <= dialect.warp_level_names("hip")
    assert {"kp_lanemask_lt", "kp_ballot_sync", "kp_syncwarp"} <= dialect.warp_level_names("portable")


def test_first_concept_of_a_shared_spelling_wins():
    # HIP spells both ballot and activemask with __ballot (activemask is __ballot(1)): a HIP port's
    # __ballot(pred) is a ballot
    assert dialect.lookup("hip", "__ballot").key == "ballot"
    assert dialect.lookup("metal", "popcount").key == "popc"
    assert dialect.lookup("metal", "kp_ffs").key == "ffs"


def test_api_names_are_spelled_by_the_table_never_by_a_prefix_guess():
    c = dialect.lookup("cuda", "cudaMemcpyFromSymbol")
    assert c is not None and c.key == "api"
    assert dialect.rename(c, "cudaMemcpyFromSymbol", "cuda", "hip") == "hipMemcpyFromSymbol"
    assert dialect.rename(c, "cudaMemcpyFromSymbol", "cuda", "metal") is None
    # HIP's name is not cudaX -> hipX: the table knows (a prefix rename gave hipDeviceProp)
    assert dialect.concept("rt_DeviceProp").spelling("hip") == "hipDeviceProp_t"
    assert dialect.rename(dialect.lookup("cuda", "cudaDeviceProp"), "cudaDeviceProp", "cuda", "hip") == "hipDeviceProp_t"
    # looks like CUDA API, in no table: recognised (translate refuses it, KP210), and spelled nowhere
    c = dialect.lookup("cuda", "cudaFooBar")
    assert c is not None and c.key == "api" and dialect.rename(c, "cudaFooBar", "cuda", "hip") is None
    for user in ("cudafoo", "cumsum", "cur", "cuda", "CUDA_CHECK", "cuda_sum", "cublas_check", "cuWelfordMuSigma2",
                 "not_a_concept"):
        assert dialect.lookup("cuda", user) is None, user
    assert dialect.lookup("hip", "cudaMalloc") is None  # only the source dialect's text is read as CUDA API


def test_known_names_are_not_taken_by_the_api_table():
    c = dialect.lookup("cuda", "__shfl_down_sync")
    assert c.key == "shfl_down"
    assert dialect.rename(c, "__shfl_down_sync", "cuda", "hip") == "__shfl_down"


def test_bind_takes_only_the_argument_counts_the_spelling_allows():
    c = dialect.concept("shfl_down")
    assert dialect.bind(c, "cuda", ["m", "v", "d"]) == {"mask": "m", "value": "v", "delta": "d", "width": None}
    assert dialect.bind(c, "cuda", ["m", "v", "d", "16"])["width"] == "16"
    assert dialect.bind(c, "cuda", ["m", "v"]) is None                  # too few
    assert dialect.bind(c, "cuda", ["m", "v", "d", "16", "x"]) is None  # too many
    assert dialect.bind(c, "hip", ["v", "d"]) == {"mask": None, "value": "v", "delta": "d", "width": None}


def test_translate_written_helpers_are_not_read_as_concepts():
    """kp_simd_shuffle(v, src, width, lane) is a helper the Metal port ships: the emulator must run
    the helper's own text (what a Metal compiler will build), not the concept behind it."""
    for name in ("kp_simd_shuffle", "kp_simd_shuffle_up", "kp_simd_shuffle_down", "kp_simd_shuffle_xor"):
        assert dialect.lookup("metal", name) is None, name


def test_vector_makers_of_every_type_and_width_are_concepts():
    """CUDA's make_<t><n> is a constructor on Metal (`float4(...)`): a width the table misses is
    left as a call Metal does not have."""
    for t in ("float", "int", "uint", "half"):
        for n in (2, 3, 4):
            c = dialect.lookup("cuda", f"make_{t}{n}")
            assert c is not None and c.key == f"make_{t}{n}", (t, n)
            assert dialect.rename(c, f"make_{t}{n}", "cuda", "metal") == f"{t}{n}"
            assert dialect.lookup("metal", f"{t}{n}").key == f"make_{t}{n}"
            args = dialect.bind(c, "cuda", list("abcd"[:n]))
            assert dialect.render(c, "metal", args) == f"{t}{n}(" + ", ".join("abcd"[:n]) + ")"
    assert dialect.lookup("cuda", "make_float5") is None


def test_words_of_c_type_names_are_no_concepts():
    """`unsigned long long` and `long long` have Metal spellings (ulong, long) but are written by
    translate from the type as a whole: their first word read alone as the concept would turn
    every `unsigned` into a 64-bit type."""
    for backend in ("cuda", "hip"):
        for word in ("unsigned", "long", "int"):
            assert dialect.lookup(backend, word) is None, (backend, word)


def test_the_concept_table_cannot_be_changed_by_a_reader():
    """Concepts are shared by every translation of the process (the look-ups are cached): one
    consumer editing one would change the next file's port."""
    import dataclasses

    import pytest

    c = dialect.concept("shfl_down")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.matchable = False
    assert hash(c) == hash(dialect.concept("shfl_down"))


def test_every_run_is_a_wave_real_hardware_has():
    """Warp code the emulator runs (xor butterflies, lane masks, `lane & (W - 1)`) presumes a wave
    of 32 or 64 lanes; a backend's run of another width would verify ports on no real GPU."""
    from kernelport import backends

    for r in backends.all_runs():
        assert r.wave in (32, 64), r
    for b in backends.all():
        for w in {r.wave for r in b.runs}:
            assert any(r.wave == w for r in b.compile_runs()), (b, w)


def test_a_file_is_read_as_the_backend_of_its_longest_ending():
    from kernelport import backends

    for name, want in (("k.cu", "cuda"), ("K.CUH", "cuda"), ("k.hip", "hip"), ("k.metal", "metal"),
                       ("k.portable.cu", "portable"), ("dir.metal/k.cu", "cuda")):
        assert backends.by_source_extension(name).name == want, name
    for name in ("k.cpp", "k.cu.txt", "metal"):
        assert backends.by_source_extension(name) is None, name


def test_hip_predefines_the_architecture_its_wave_runs_on():
    """`#if __AMDGCN_WAVEFRONT_SIZE == 64` and `#ifdef __GFX10__` pick code paths: the emulator's
    wave-32 HIP pass must see RDNA's macros, the wave-64 pass CDNA's."""
    from kernelport import backends

    hip = backends.get("hip")
    d32, d64 = hip.wave_defines(32), hip.wave_defines(64)
    assert d32["__AMDGCN_WAVEFRONT_SIZE"] == "32" and "__GFX10__" in d32 and "__gfx1030__" in d32
    assert "__GFX9__" not in d32 and "__gfx90a__" not in d32
    assert d64["__AMDGCN_WAVEFRONT_SIZE__"] == "64" and "__GFX9__" in d64 and "__gfx90a__" in d64
    assert "__GFX10__" not in d64
    assert backends.get("cuda").wave_defines(32) == {}


def test_a_call_is_renamed_by_its_name_unless_the_value_is_spelled_as_a_call():
    """`__activemask()` -> `kp_activemask()`: the name is renamed and the call's own parentheses
    stay; only an index read as a plain value (`warpSize`) takes the whole call spelling."""
    c = dialect.lookup("cuda", "__activemask")
    assert dialect.rename(c, "__activemask", "cuda", "portable") == "kp_activemask"
    assert dialect.rename(dialect.lookup("cuda", "warpSize"), "warpSize", "cuda", "portable") == "kp_wave_size()"
    # a barrier spelled as a call with no arguments is still renamed by name: `kp_syncwarp()(mask)` is no call
    assert dialect.rename(dialect.lookup("cuda", "__syncwarp"), "__syncwarp", "cuda", "hip") == "kp_syncwarp"
    assert dialect.rename(dialect.lookup("cuda", "__syncthreads"), "__syncthreads", "cuda", "hip") == "__syncthreads"


def test_driver_api_names_are_api_by_the_table_alone():
    """The driver API's bare cuX names are no `api_pattern` shape (user code has cuX names too):
    a name is API because the table lists it with another spelling."""
    for name, hip in (("cuInit", "hipInit"), ("cuDeviceGet", "hipDeviceGet"), ("CUdevice", "hipDevice_t")):
        c = dialect.lookup("cuda", name)
        assert c is not None and c.key == "api", name
        assert dialect.rename(c, name, "cuda", "hip") == hip
    assert dialect.lookup("cuda", "cuMyHelper") is None


def test_metal_vector_type_names_of_every_width_are_renamed_in_a_port():
    """`bfloat2`, `packed_int3`, `uchar4` are plain names in CUDA but types in Metal: a variable
    of that name is renamed in the port, whatever the vector width."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    src = ("__global__ void k(float* out) {\n"
           "    float bfloat2 = 1.0f, packed_int3 = 2.0f, uchar4 = 3.0f, lane = 4.0f;\n"
           "    out[threadIdx.x] = bfloat2 + packed_int3 + uchar4 + lane;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "metal")
    assert port.ok and "out[tid.x] = bfloat2_ + packed_int3_ + uchar4_ + lane;" in port.body, port.body


@pytest.mark.parametrize("rows", [2, 3, 4])
def test_metal_matrix_type_names_of_every_shape_are_renamed_in_a_port(rows):
    """`float3x4`, `half2x2`: plain names in CUDA, matrix types in Metal (rows and columns 2 to 4);
    a 5-row name is no Metal type and stays."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    names = [f"float{rows}x4", f"half{rows}x2", "float5x2"]
    src = ("__global__ void k(float* out) {\n    float " + ", ".join(f"{n} = 1.0f" for n in names) + ";\n"
           "    out[threadIdx.x] = " + " + ".join(names) + ";\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "metal")
    assert port.ok and f"out[tid.x] = float{rows}x4_ + half{rows}x2_ + float5x2;" in port.body, port.body


def test_a_name_translate_writes_is_never_read_as_its_concept():
    """A port's `KP_WAVE_SIZE` (HIP) or `KP_WAVE_MAX` (portable) is a macro its prologue defines: the
    emulator, reading the port, must expand that macro, not take the name for the concept that wrote it."""
    seen = 0
    for c in dialect.CONCEPTS:
        if c.matchable:
            continue
        for b in backends.names():
            name = c.name(b)
            if name:
                seen += 1
                assert dialect.lookup(b, name) is not c, (c.key, b, name)
    assert seen and dialect.lookup("hip", "KP_WAVE_SIZE") is None and dialect.lookup("portable", "KP_WAVE_MAX") is None
    # the host's question for the wave (a helper each port's prologue defines), whatever its table flag says
    assert dialect.lookup("hip", "kp_device_warp_size") is None
    assert dialect.lookup("portable", "kp_device_wave_size") is None


def test_a_wave_given_as_a_numpy_integer_picks_the_same_architecture():
    """A wave width read from an array (`for w in np.array([32, 64])`) is equal to, not the same
    object as, the run's int: the defines are chosen by value."""
    import numpy as np

    hip = backends.get("hip")
    for w in (32, 64):
        assert hip.wave_defines(np.int64(w)) == hip.wave_defines(w)


def test_a_cuda_api_name_metal_lacks_is_refused_once_as_undefined():
    """Metal has no API table: a CUDA API call in a Metal port is a name neither the file nor Metal
    defines (KP223), reported once, not also as a concept without a Metal spelling (KP202)."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    src = "__global__ void k(float* x) {\n    x[threadIdx.x] = 1.0f;\n    cudaFooBar(x);\n}\n"
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "metal")
    assert not port.ok and [(d.code, d.location.line) for d in port.diagnostics] == [("KP223", 3)]


def test_a_name_every_backend_spells_alike_is_no_api_name_even_in_a_branch_left_as_written():
    """HIP's table lists `fmin` as `fmin` (supported): nothing to port, so an unparsed branch that
    uses it is left as written without a warning; `threadIdx` there is not ported, and says so."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    # (nothing defines FAST: the `#else` is the branch ported, `#ifdef FAST`'s is left as written)
    src = ("__global__ void k(float* x) {\n#ifdef FAST\n    if (fmin(x[0], x[1]) > 0.0f) {\n#else\n"
           "    if (fminf(x[0], x[1]) > 0.0f) {\n#endif\n        x[2] = 1.0f;\n    }\n}\n")
    assert not dialect.is_api_name("cuda", "fmin") and dialect.is_api_name("cuda", "umin")
    for target in ("metal", "hip"):
        port, _ = translate(SourceFile.from_text(src, "k.cu"), target)
        assert port.ok and port.diagnostics == [], [d.format() for d in port.diagnostics]
    port, _ = translate(SourceFile.from_text(src.replace("fmin(x[0]", "fmin(x[threadIdx.x]"), "k.cu"), "metal")
    kp230 = [d.message for d in port.diagnostics if d.code == "KP230"]
    assert len(kp230) == 1 and "'threadIdx' there is not ported" in kp230[0], kp230


@pytest.mark.parametrize("target,prefix", [("portable", "kp"), ("hip", "hip")])
def test_runtime_calls_are_spelled_by_each_backend_s_own_runtime_names(target, prefix):
    """The portable backend spells the CUDA runtime itself (kp_warp.h: kpMalloc), HIP through its API
    table; a user's helper named like the runtime is left alone."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    src = ("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\nvoid cudaMallocChecked(float** p) {}\n"
           "int main() {\n    float* d; cudaMalloc(&d, 64 * sizeof(float)); cudaMallocChecked(&d);\n"
           "    k<<<1, 64>>>(d);\n    cudaDeviceSynchronize(); cudaFree(d);\n    return 0;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), target)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert (f"{prefix}Malloc(&d, 64 * sizeof(float)); cudaMallocChecked(&d);" in port.body and
            f"{prefix}DeviceSynchronize(); {prefix}Free(d);" in port.body), port.body


def test_a_backend_s_host_build_cannot_be_changed_by_a_reader():
    """Each backend's host build (bind's compiler and flags) is one shared object: a consumer
    editing it would change the next launcher's build line."""
    import dataclasses

    for name in backends.names():
        hb = backends.get(name).host_build
        if hb is not None:
            with pytest.raises(dataclasses.FrozenInstanceError):
                hb.compiler = "cc"
            assert hash(hb) == hash(backends.get(name).host_build)


@pytest.mark.parametrize("target,codes", [("hip", ["KP210"]), ("portable", ["KP210"]), ("metal", ["KP223"])])
def test_a_kernel_launched_from_device_code_is_refused_once_where_a_run_cannot_build_it(target, codes):
    """CUDA's dynamic parallelism: ROCm has none, so HIP and the portable port (built by hipcc for its
    AMD runs too) refuse the launch at its line; Metal refuses it as its own construct, once.  A launch
    from the host is no such launch."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    child = "__global__ void child(float* x) { x[threadIdx.x] = 1.0f; }\n"
    src = child + "__global__ void parent(float* x) { if (threadIdx.x == 0) child<<<1, 32>>>(x); }\n"
    port, _ = translate(SourceFile.from_text(src, "k.cu"), target)
    assert [(d.code, d.location.line) for d in port.diagnostics] == [(c, 2) for c in codes]
    assert not any("in 's " in d.message for d in port.diagnostics)  # a backend checked against no release
    host = child + "void run(float* x) { child<<<1, 32>>>(x); }\n"
    port, _ = translate(SourceFile.from_text(host, "k.cu"), target)
    assert port.ok, [d.format() for d in port.diagnostics]


def test_a_macro_body_is_ported_where_it_holds_a_name_the_target_respells():
    """Macro bodies are ported only where they hold a name the target spells otherwise (the table's
    `respelled`): `__syncthreads` is Metal's threadgroup_barrier, even with no API-looking name
    beside it; a body of names every backend spells alike is left as written."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    src = ("#define SYNC() __syncthreads()\n#define TWICE(v) ((v) * 2)\n"
           "__global__ void k(float* x) {\n    SYNC();\n    x[0] = TWICE(x[1]);\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "metal")
    assert port.ok and "#define SYNC() threadgroup_barrier(mem_flags::mem_threadgroup)" in port.body, port.body
    assert "#define TWICE(v) ((v) * 2)" in port.body
    assert "__syncthreads" in dialect.respelled("cuda", "metal") and "__syncthreads" not in dialect.respelled("cuda", "hip")


def test_a_backend_s_runs_cannot_be_changed_by_a_reader():
    """Each backend's runs (wave, architecture, lint target) are shared by every lint and verify of
    the process: a consumer editing one would change the next file's runs.  A run is a value (a set
    or dict key, equal by its fields)."""
    import dataclasses

    for r in backends.all_runs():
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.wave = 16
        assert {r: 1}[dataclasses.replace(r)] == 1  # hashable, by value


def test_a_name_canonical_on_the_dialect_binds_by_its_own_order_not_an_earlier_backend_s(monkeypatch):
    """A name two backends share with different argument orders (here HIP spelling `__shfl_down_sync`
    without its mask, as a later ROCm might): read as HIP, the call binds by HIP's own template, never by
    CUDA's, which the name also spells and which comes first in the registry."""
    def clear():
        for f in (dialect._by_name, dialect.lookup, dialect.respelled, dialect._library):
            f.cache_clear()

    monkeypatch.setitem(backends.get("hip").spellings, "shfl_down", "__shfl_down_sync({value}, {delta}[, {width}])")
    clear()
    try:
        name = "".join(["__shfl_down", "_sync"])  # a name read from source text: not the table's string object
        c, order = dialect.spelled_by("hip", name)
        assert (c.key, order) == ("shfl_down", "hip")
        assert dialect.bind(c, order, ["v", "d"]) == {"mask": None, "value": "v", "delta": "d", "width": None}
        assert dialect.spelled_by("cuda", name) == (c, "cuda")  # CUDA reads its own order
    finally:
        monkeypatch.undo()
        clear()
