"""A header that includes itself under its guard (stop 65's note: `#ifndef UTIL_CUH` / `#include "util.cuh"`):
the port of util.cuh kept `#include "util.cuh"`, the CUDA header, beside its own port (`util.hip.h`), so the
port read the CUDA original again (or did not compile where it is not on the path).  project_ports left a file's
own include out of its include map; now it is spelled as the port's own name.  Look-alike: a header that
includes another header keeps that header's spelling as before."""
from __future__ import annotations

from conftest import hip_compiles
from trust_support import kp_inproc


def test_a_guarded_self_include_names_the_port(tmp_path):
    (tmp_path / "util.cuh").write_text('#ifndef UTIL_CUH\n#define UTIL_CUH\n#include "util.cuh"\n#include "plain.h"\n'
                                       "#include <cuda_runtime.h>\n__device__ inline float twice(float x) { return 2.0f * x; }\n#endif\n")
    (tmp_path / "plain.h").write_text("#pragma once\ninline int one() { return 1; }\n")
    (tmp_path / "main.cu").write_text('#include "util.cuh"\n__global__ void k(float* x) { x[threadIdx.x] = '
                                      "twice(x[threadIdx.x]); }\n")
    rc, out, err = kp_inproc("translate", tmp_path / "main.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    util = (tmp_path / "out" / "util.hip.h").read_text()
    assert '#include "util.hip.h"' in util and "util.cuh\"" not in util, util
    assert '#include "../plain.h"' in util, util  # (the host header, left alone, reached from the port's folder)
    main = (tmp_path / "out" / "main.hip").read_text()
    assert '#include "util.hip.h"' in main
    hip_compiles(tmp_path / "out", main, "main.hip")
