"""A typedef whose declarator is parenthesized, a pointer to an array (heldout87: a radio-astronomy kernel's
`typedef float (*OutputDataType)[TABS][STOKES][SAMPLES][CHANNELS];`, then `__global__ void k(OutputDataType out,
...)`), was not among the names the file declares (reserved_names.declared_names stopped at the parenthesized
declarator), so the Metal port refused its uses as "defined neither in this file nor in Metal's standard library"
(KP223), which is false: the file defines it.  The name is now read through `(*P)`; the port is still refused
where Metal needs what the typedef lacks (an address space on a kernel's pointer parameter: KP224, located)."""
from __future__ import annotations

import textwrap

from trust_support import kp_inproc

KERNEL = """\
    typedef float (*OutT)[4][8];
    __global__ void fill(OutT out, const float *in)
    {
      out[blockIdx.x][threadIdx.x / 8][threadIdx.x % 8] = in[threadIdx.x] * 2.0f;
    }
    """


def test_a_pointer_to_array_typedef_of_the_file_is_not_called_undefined(tmp_path):
    f = tmp_path / "fill.cu"
    f.write_text(textwrap.dedent(KERNEL))
    rc, out, err = kp_inproc("translate", f, "--to", "metal", "-o", tmp_path / "out")
    assert "'OutT' is defined neither" not in err, err
    assert rc != 0 and "fill.cu:2:" in err and "KP224" in err, err  # still refused, at the kernel's line


def test_a_name_nothing_defines_is_still_called_undefined(tmp_path):
    # look-alike: the typedef removed, so `OutT` comes from nowhere the port can see
    f = tmp_path / "fill.cu"
    f.write_text(textwrap.dedent(KERNEL).replace("typedef float (*OutT)[4][8];\n", "#include \"types.h\"\n"))
    (tmp_path / "types.h").write_text("#pragma once\n")
    rc, out, err = kp_inproc("translate", f, "--to", "metal", "-o", tmp_path / "out")
    assert rc != 0 and "KP223 'OutT' is defined neither" in err, err
