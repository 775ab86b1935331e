"""The GPU driver of `verify --device cuda` gives the original what the emulator's run read (stop 61).

Stop 60's H100 run over tests/realcorpus (bench/device/oracle_device_h100_60c.txt) skipped 41 kernels on the
GPU: 12 read host-filled constant memory the driver did not copy in, 13 read macros the inputs redefine (sizes
scaled down for the emulator: polybench's N), 4 took a uchar4 by value and 3 a buffer of structs.  The driver
now copies the emulator's constant contents in with cudaMemcpyToSymbol, builds the file and its local headers
with the emulator's macro values, fills a by-value struct field by field and passes a buffer of structs as the
emulator's bytes, checked against the compiled type's sizeof/offsetof (kernelport/device_inputs.py).  Built
here with the real nvcc for sm_90 (no GPU needed to compile); a static_assert in the kernel file proves what
the build read.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace as NS

import numpy as np
import pytest

from conftest import require_tool
from kernelport import device, device_inputs

SIZES = """\
#ifndef SIZES_H
#define SIZES_H
# if !defined(N)
#  define N 4096
# endif
#define WIDTH \\
   (N * 2)
#define SQ(N) ((N) * (N))
#endif
"""

# what the build read: N as the emulator had it, WIDTH (not redefined) through it, SQ's parameter untouched
CHECKED = """\
#include "sizes.h"
static_assert(N == 64, "N is the emulator's");
static_assert(WIDTH == 128, "WIDTH reads the new N");
static_assert(SQ(3) == 9, "a function-like macro's parameter is not the object-like N");
__global__ void k(float* y) { y[threadIdx.x] = N; }
"""

OPT = np.dtype({"names": ["s", "x", "n"], "formats": ["<f4", "<f8", "<i4"], "offsets": [0, 8, 16], "itemsize": 24})


def _nvcc() -> str:
    return require_tool("nvcc").path


def _build(tmp_path: Path, source: Path, params, args, flags=(), symbols=None, redefine=None, variants=()):
    kernel = NS(name="k", params=[NS(name=n, type=t) for n, t in params], template_params=[])
    spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0)
    out = tmp_path / "build"
    out.mkdir(exist_ok=True)
    return device.build_driver(_nvcc(), "sm_90", tuple(flags), out, source, kernel, spec, args, None, variants,
                               symbols, redefine)


def _y():
    return [("y", "float")], {"y": np.zeros(4, np.float32)}


def test_macros_the_inputs_redefine_are_built_with_the_emulators_values(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sizes.h").write_text(SIZES)
    f = tmp_path / "k.cu"
    f.write_text(CHECKED.replace('"sizes.h"', '"inc/sizes.h"'))
    params, args = _y()
    with pytest.raises(RuntimeError, match="N is the emulator's"):
        _build(tmp_path, f, params, args)  # the file as it is: N is 4096
    assert _build(tmp_path, f, params, args, redefine={"N": "64"}).exists()
    copy = tmp_path / "build" / "tree" / str(tmp_path / "inc" / "sizes.h").lstrip("/")
    text = copy.read_text()
    assert text.startswith(f'#line 1 "{tmp_path / "inc" / "sizes.h"}"\n') and "#define N 64\n" in text
    assert text.count("\n") == SIZES.count("\n") + 1, "every line of the header stays where it was"
    assert (tmp_path / "inc" / "sizes.h").read_text() == SIZES, "the project's own files are untouched"


def test_a_header_on_the_include_path_and_a_build_define_take_the_emulators_values(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sizes.h").write_text(SIZES)
    f = tmp_path / "k.cu"
    f.write_text(CHECKED.replace('"sizes.h"', "<sizes.h>") + 'static_assert(M == 8, "M is the emulator\'s");\n')
    params, args = _y()
    assert _build(tmp_path, f, params, args, flags=(f"-I{tmp_path / 'inc'}", "-DM=32"),
                  redefine={"N": "64", "M": "8"}).exists()


def test_a_redefined_variant_of_the_file_is_built_in_the_files_place(tmp_path):
    """Host code that does not compile is left out (kernelport.device_source) in the mirror's copy, whose
    quoted includes still find the rewritten header."""
    from kernelport import device_source, model
    from kernelport.source import SourceFile
    from kernelport.verify_oracle import includer_context
    (tmp_path / "sizes.h").write_text(SIZES)
    f = tmp_path / "k.cu"
    f.write_text(CHECKED + "double elapsed() { return rtclock(); }\n")
    params, args = _y()
    variants = device_source.variants(SourceFile.read(f), model.build, includer_context)
    assert _build(tmp_path, f, params, args, redefine={"N": "64"}, variants=variants).exists()


def test_host_filled_constant_memory_is_copied_in_before_the_launch(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__constant__ float w[4];\n__constant__ int n;\n"
                 "__global__ void k(float* y) { y[threadIdx.x] = w[threadIdx.x] * n; }\n")
    params, args = _y()
    w = np.array([0.5, -0.25, 1.0, 2.0], np.float32)
    assert _build(tmp_path, f, params, args, symbols={"w": w, "n": np.array([3], np.int32)}).exists()
    d = tmp_path / "build"
    assert (d / "w.sym").read_bytes() == w.tobytes()
    main = (d / "driver.cu").read_text().split("int main() {")[1]
    assert main.index('kp_symbol(w, "') < main.index("k<<<"), "copied in before the launch"
    with pytest.raises(device.Unpassable, match=r"constant-memory variable `w` is not the emulator's 12 bytes"):
        _build(tmp_path, f, params, args, symbols={"w": w[:3]})


def test_a_struct_by_value_is_filled_field_by_field(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("struct P { float scale; int w[3]; struct { short a; } in; };\n"
                 "__global__ void k(float* y, uchar4 c, P p) { y[threadIdx.x] = c.x + p.scale * p.w[2] + p.in.a; }\n")
    params = [("y", "float"), ("c", "uchar4"), ("p", "const P")]
    args = {"y": np.zeros(4, np.float32), "c": {"x": 3, "y": 4, "z": 5, "w": 250},
            "p": {"scale": 0.75, "w": np.array([1, 2, 3], np.int32), "in": {"a": -2}}}
    assert _build(tmp_path, f, params, args).exists()
    main = (tmp_path / "build" / "driver.cu").read_text().split("int main() {")[1]
    assert "kp_arg_c.w = (decltype(kp_arg_c.w))250;" in main and "kp_arg_p.in.a = (decltype(kp_arg_p.in.a))-2;" in main
    assert f"kp_arg_p.scale = (decltype(kp_arg_p.scale)){(0.75).hex()};" in main
    assert "(float*)y, kp_arg_c, kp_arg_p)" in main
    # a pointer field: the emulator's buffer has no device allocation here (refused, the field named)
    f.write_text("struct P { float* buf; };\n__global__ void k(float* y, P p) { y[threadIdx.x] = p.buf[0]; }\n")
    with pytest.raises(device.Unpassable, match=r"`p\.buf` is not an array field"):
        _build(tmp_path, f, [("y", "float"), ("p", "P")], {"y": np.zeros(4, np.float32),
                                                           "p": {"buf": np.zeros(4, np.float32)}})


def test_a_buffer_of_structs_is_the_emulators_bytes_checked_against_the_compiled_layout(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("struct Opt { float s; double x; int n; };\n"
                 "__global__ void k(float* y, const Opt* o) { y[threadIdx.x] = o[threadIdx.x].x; }\n")
    params, args = [("y", "float"), ("o", "const Opt")], {"y": np.zeros(4, np.float32), "o": np.zeros(4, OPT)}
    assert _build(tmp_path, f, params, args).exists()
    assert "::load<::elem_t<const Opt, unsigned char>, unsigned char>(" in (tmp_path / "build" / "driver.cu").read_text()
    packed = np.dtype({"names": ["s", "x", "n"], "formats": ["<f4", "<f8", "<i4"], "offsets": [0, 4, 12],
                       "itemsize": 16})
    with pytest.raises(device.Unpassable, match=r"the field `x` of const Opt is not where the emulator's layout "
                                                r"has it \(8 bytes at offset 4\)"):
        _build(tmp_path, f, params, {**args, "o": np.zeros(4, packed)})
    renamed = np.dtype({"names": ["s", "xx", "n"], "formats": ["<f4", "<f8", "<i4"], "offsets": [0, 8, 16],
                        "itemsize": 24})
    with pytest.raises(device.Unpassable, match=r"field `xx` .* or the compiled type has no such field"):
        _build(tmp_path, f, params, {**args, "o": np.zeros(4, renamed)})


def test_the_emulators_curand_state_is_checked_by_curands_own_field_names(tmp_path):
    """The emulator's model of curandState names v[5] as v0..v4 (emulator/frontend/curand_model.py): checked as
    `v[0]`..`v[4]` for cuRAND's type; a struct of another name keeps the emulator's names."""
    from kernelport.emulator.frontend import curand_model
    state = np.dtype({"names": ["d", "v0", "v1", "v2", "v3", "v4", "boxmuller_flag", "boxmuller_flag_double",
                                "boxmuller_extra", "boxmuller_extra_double"],
                      "formats": ["<u4"] * 6 + ["<i4", "<i4", "<f4", "<f8"],
                      "offsets": [0, 4, 8, 12, 16, 20, 24, 28, 32, 40], "itemsize": 48})
    assert device_inputs.real_fields("curandState") == curand_model.REAL_FIELDS
    assert device_inputs.real_fields("const curandStateXORWOW_t")["v4"] == "v[4]"
    assert device_inputs.real_fields("State") == {}
    f = tmp_path / "k.cu"
    body = ("{ unsigned int d, v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; "
            "double boxmuller_extra_double; };\n")
    f.write_text("struct curandState " + body + "struct State " + body +
                 "__global__ void k(curandState* s, State* t) { s[threadIdx.x].v[1] += t[threadIdx.x].v[2]; }\n")
    args = {"s": np.zeros(4, state), "t": np.zeros(4, state)}
    with pytest.raises(device.Unpassable, match=r"`t`, a buffer of structs: the field `v0` of State"):
        _build(tmp_path, f, [("s", "curandState"), ("t", "State")], args)
    f.write_text("struct curandState " + body + "__global__ void k(curandState* s) { s[threadIdx.x].v[1] += 1; }\n")
    assert _build(tmp_path, f, [("s", "curandState")], {"s": args["s"]}).exists()


def test_pointer_fields_holding_the_emulators_addresses_are_refused():
    ptr = np.dtype("<u8", metadata={"pointer": "float"})
    node = np.dtype({"names": ["v", "next"], "formats": ["<f4", ptr], "offsets": [0, 8], "itemsize": 16})
    kernel = NS(name="k", params=[NS(name="nodes", type="Node")])
    device.passable(kernel, {"nodes": np.zeros(4, node)})  # null pointers: null on the GPU too
    held = np.zeros(4, node)
    held["next"][1] = 4096
    with pytest.raises(device.Unpassable, match=r"pointer fields \(next\) hold the emulator's addresses"):
        device.passable(kernel, {"nodes": held})


def test_a_file_the_emulator_ran_after_its_includers_lines_is_built_after_them(tmp_path):
    """hecbench's radixsort Scan_kernels.cu and ss kernels.cu run on the emulator only after main.cu's lines
    (verify_oracle.includer_context): 6 device skips at stop 60.  The driver builds what the emulator read,
    never the file alone (which here builds, with another SCALE); a macro the inputs redefine in a header those
    lines read takes the emulator's value too."""
    from kernelport import device_source, model
    from kernelport.source import SourceFile
    from kernelport.verify_oracle import includer_context
    (tmp_path / "types.h").write_text("typedef unsigned char uchar;\n#define SCALE 3\n")
    (tmp_path / "main.cu").write_text('#ifndef MAIN_GUARD\n#define MAIN_GUARD\n#include "types.h"\n'
                                      '#include "k.cu"\n#endif\nint main() { return 0; }\n')
    f = tmp_path / "k.cu"
    f.write_text('#ifndef SCALE\n#define SCALE 2\n#endif\nstatic_assert(SCALE == WANT, "the SCALE the emulator read");\n'
                 "__global__ void k(float* y) { y[threadIdx.x] = SCALE; }\n")
    params, args = _y()
    context = includer_context(f)
    assert context is not None and context[0] == str(tmp_path / "main.cu")

    def build(want: int, redefine=None, alone=False):
        variants = device_source.variants(SourceFile.read(f), model.build, includer_context, context)
        kernel = NS(name="k", params=[NS(name=n, type=t) for n, t in params], template_params=[])
        spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0)
        out = tmp_path / f"build{want}"
        out.mkdir(exist_ok=True)
        return device.build_driver(_nvcc(), "sm_90", (f"-DWANT={want}",), out, f, kernel, spec, args, None,
                                   variants, None, redefine, alone)
    assert build(3).exists()
    assert "main.cu" in (tmp_path / "build3" / "original.cu").read_text().split("\n")[0]
    assert build(7, {"SCALE": "7"}).exists()
    with pytest.raises(RuntimeError, match="the SCALE the emulator read"):
        build(2)  # the file alone (SCALE 2) is never what the driver builds for such a run
    assert build(2, alone=True).exists()  # (as it is where the emulator ran the file alone)


def test_a_pointer_host_code_steps_is_passed_that_many_elements_in():
    """prna's `cudaMalloc(&w5, ...); w5++;` (kernelport/host_offsets.py): the emulator runs the kernel with the
    pointer one element into the whole buffer; the driver passes `w5 + 1` and saves the whole buffer."""
    import tempfile
    kernel = NS(name="k", params=[NS(name="w5", type="float"), NS(name="y", type="float")], template_params=[])
    spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0,
              args={"w5": NS(offset=1), "y": NS(offset=0)})
    with tempfile.TemporaryDirectory() as tmp:
        text = device.write_driver(Path(tmp), Path(tmp) / "k.cu", kernel, spec,
                                   {"w5": np.zeros(9, np.float32), "y": np.zeros(4, np.float32)}, None).read_text()
    assert "k<<<dim3(1), dim3(4), 0>>>((float*)w5 + 1, (float*)y);" in text
    assert '::save<::elem_t<float, float>, float>(' in text and ', w5, 9);' in text


def test_a_forced_include_takes_the_emulators_values_too(tmp_path):
    """A project's `-include` header (forced-includes: the emulator reads it through the same rewrite) is
    given in its copy; the project's own file stays as it is."""
    (tmp_path / "forced.h").write_text("#define N 4096\n")
    f = tmp_path / "k.cu"
    f.write_text('static_assert(N == 64, "N is the emulator\'s");\n__global__ void k(float* y) { y[threadIdx.x] = N; }\n')
    params, args = _y()
    flags = ("-include", str(tmp_path / "forced.h"))
    with pytest.raises(RuntimeError, match="N is the emulator's"):
        _build(tmp_path, f, params, args, flags=flags)
    assert _build(tmp_path, f, params, args, flags=flags, redefine={"N": "64"}).exists()
    assert (tmp_path / "forced.h").read_text() == "#define N 4096\n"
