#!/usr/bin/env python3
"""ROCm's rocThrust and hipCUB headers and roctracer's roctx.h, for measuring HIP ports that include
<thrust/...>, <hipcub/hipcub.hpp> or <roctracer/roctx.h> (NVTX ranges) on a machine whose ROCm lacks them
(Debian packages none of them; a ROCm install has all three: rocthrust-dev, hipcub-dev, roctracer-dev).

    python bench/rocm_libs.py [--tag rocm-5.3.3] [--dest DIR] [--check]

Prerequisite: rocPRIM, which both are header-only on top of: `apt-get install librocprim-dev`
(Debian's is 5.3.3, hence the default tag; the script stops and says so when rocprim/rocprim.hpp
is not on hipcc's path). Reads bare mirrors of github.com/ROCm/rocThrust, github.com/ROCm/hipCUB and
github.com/ROCm/roctracer (--rocthrust-mirror, --hipcub-mirror, --roctracer-mirror; `git clone --bare URL DIR`
makes one) and writes, with
`git archive TAG`, under DEST/TAG (default ~/.cache/kernelport/rocm-libs/TAG, outside any tree):

    include/thrust/...               rocThrust's headers as its install step lays them out
    include/rocthrust_version.hpp    what rocThrust's CMake configures from thrust/rocthrust_version.hpp.in
    include/hipcub/...               hipCUB's hipcub/include/hipcub
    include/hipcub/hipcub_version.hpp  configured from hipcub_version.hpp.in (hipcub.hpp includes it)
    include/roctracer/roctx.h        roctracer's inc/roctx.h, where its install puts it (NVTX's ranges, marks)
    licenses/{rocThrust,hipCUB,roctracer}/  each project's LICENSE (and NOTICES), kept with its headers

The version numbers are read from each project's CMakeLists.txt at TAG (what its
`rocm_setup_version` gets). It prints the include dir: `bench/scoreboard.py --hip-include DIR`.
--check compiles small files with `HIP_PLATFORM=amd hipcc -I DIR` for gfx90a and gfx1030 (a hipcub
BlockReduce kernel; a thrust::device_vector sort; and this checkout's HIP ports of a cub WarpReduce
kernel, of thrust::cuda::par/cub::DeviceReduce host code and of NVTX ranges) and exits 1 if one fails.
No test runs this: it reads fetched mirrors and needs a package CI does not install.
"""
from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # kernelport.toolchains: the hipcc this checkout compiles with

MIRRORS = Path("/work/.mirror")
# project -> (archive paths, the prefix their install drops, where the version sits in CMakeLists.txt,
#             the configured header: (template in the archive, its path under include/) or None, licenses,
#             the folder under include/ the install puts them in)
LIBS = {
    "rocThrust": (["thrust"], "", r'rocm_setup_version\(\s*VERSION\s+"(\d+)\.(\d+)\.(\d+)"',
                  ("thrust/rocthrust_version.hpp.in", "rocthrust_version.hpp"), ["LICENSE", "NOTICES.txt"]),
    "hipCUB": (["hipcub/include/hipcub"], "hipcub/include/", r'set\(\s*VERSION_STRING\s+"(\d+)\.(\d+)\.(\d+)"',
               ("hipcub/include/hipcub/hipcub_version.hpp.in", "hipcub/hipcub_version.hpp"),
               ["LICENSE.txt", "NOTICES.txt"]),
    "roctracer": (["inc/roctx.h"], "inc/", r"project\(\s*roctracer\s+VERSION\s+(\d+)\.(\d+)\.(\d+)", None, ["LICENSE"],
                  "roctracer/"),
}

CHECKS = {
    "hipcub_blockreduce.hip": """#include <hipcub/hipcub.hpp>
__global__ void block_sum(const int* in, int* out) {
    typedef hipcub::BlockReduce<int, 128> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    int s = BlockReduce(temp).Sum(in[blockIdx.x * 128 + threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
""",
    "thrust_sort.hip": """#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
int sorted_first(const int* host, int n) {
    thrust::device_vector<int> v(host, host + n);
    thrust::sort(thrust::hip::par, v.begin(), v.end());
    return v[0];
}
""",
}
# CUDA that kernelport ports first (this checkout's translate), then compiled the same way: a cub
# WarpReduce at its default width, which the port gives 32 lanes (kernelport/collective_widths.py),
# Thrust's CUDA system (thrust::cuda::par, thrust/system/cuda/: rocThrust's hip), a cub device-wide call.
PORTED = {
    "cub_warpreduce.cu": """#include <cub/cub.cuh>
__global__ void warp_sums(const float* in, float* out) {
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[8];
    int warp = threadIdx.x / 32;
    float s = WarpReduce(temp[warp]).Sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0) out[blockIdx.x * 8 + warp] = s;
}
void run(const float* in, float* out, int n) { warp_sums<<<n / 256, 256>>>(in, out); }
""",
    "nvtx_ranges.cu": """#include <nvtx3/nvToolsExt.h>
__global__ void twice(float* a) { a[threadIdx.x] *= 2.0f; }
int run(float* d) {
    nvtxRangePushA("twice");
    twice<<<1, 64>>>(d);
    nvtxMarkA("launched");
    return nvtxRangePop();
}
""",
    "thrust_cuda_par.cu": """#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/system/cuda/execution_policy.h>
#include <cub/device/device_reduce.cuh>
float go(thrust::device_vector<float>& v, cudaStream_t s, void* tmp, size_t bytes, float* out) {
    float* raw = thrust::raw_pointer_cast(v.data());
    thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
    cub::DeviceReduce::Sum(tmp, bytes, raw, out, (int)v.size(), s);
    return thrust::reduce(thrust::cuda::par.on(s), v.begin(), v.end());
}
""",
}


def git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={mirror}", *args], check=True, capture_output=True).stdout


def configured(template: str, name: str, version: tuple[str, str, str]) -> str:
    """CMake's configure_file(@ONLY) for the @<name>_VERSION_{MAJOR,MINOR,PATCH}@ the templates use."""
    for part, value in zip(("MAJOR", "MINOR", "PATCH"), version):
        template = template.replace(f"@{name}_VERSION_{part}@", value)
    left = re.findall(r"@\w+@", template)
    if left:
        raise SystemExit(f"{name}: {left} left unconfigured in its version header (a newer template?)")
    return template


def materialise(lib: str, mirror: Path, tag: str, dest: Path) -> str:
    paths, strip, version_re, configured_header, licenses, *under = LIBS[lib]
    commit = git(mirror, "rev-parse", f"{tag}^{{commit}}").decode().strip()
    cmake = git(mirror, "show", f"{tag}:CMakeLists.txt").decode()
    found = re.search(version_re, cmake)
    if not found:
        raise SystemExit(f"{lib} {tag}: no version in CMakeLists.txt matching {version_re}")
    with tarfile.open(fileobj=io.BytesIO(git(mirror, "archive", tag, *paths, *licenses))) as tar:
        for member in tar.getmembers():
            if member.name in licenses:
                target = dest / "licenses" / lib / member.name
            else:
                target = dest / "include" / "".join(under) / member.name.removeprefix(strip)
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(tar.extractfile(member).read())
    if configured_header is not None:
        template, header = configured_header
        text = git(mirror, "show", f"{tag}:{template}").decode()
        (dest / "include" / header).write_text(configured(text, lib.lower(), found.groups()))
    return f"{lib} {tag} ({commit[:12]}, version {'.'.join(found.groups())})"


def rocprim_present() -> bool:
    """rocprim/rocprim.hpp where hipcc looks by default (Debian's librocprim-dev: /usr/include)."""
    with tempfile.TemporaryDirectory(prefix="kp-rocprim-") as tmp:
        probe = Path(tmp) / "probe.hip"
        probe.write_text("#include <rocprim/rocprim.hpp>\n")
        proc = subprocess.run(["hipcc", "-E", "-x", "hip", "--offload-arch=gfx90a", "--cuda-host-only", str(probe),
                               "-o", os.devnull], capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    return proc.returncode == 0


def check(include: Path) -> bool:
    from kernelport import toolchains

    ok = True
    with tempfile.TemporaryDirectory(prefix="kp-rocm-libs-") as tmp:
        for name, text in PORTED.items():
            (Path(tmp) / name).write_text(text)
            proc = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(Path(tmp) / name), "--to", "hip",
                                   "-o", tmp], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            if proc.returncode != 0:
                print(f"  {name}: kernelport translate --to hip failed\n{proc.stderr[-2000:]}")
                ok = False
        for name in [*CHECKS, *(Path(n).with_suffix(".hip").name for n in PORTED)]:
            src = Path(tmp) / name
            if name in CHECKS:
                src.write_text(CHECKS[name])
            elif not src.is_file():
                continue
            res = toolchains.compile_hip(src, toolchains.HIP_ARCHS, extra_args=[f"-I{include}"], timeout=900)
            print(f"  {name}: hipcc {' '.join('--offload-arch=' + a for a in toolchains.HIP_ARCHS)} "
                  f"-I{include}: {res.status}" + ("" if res.ok else f"\n{(res.output or res.reason)[-2000:]}"))
            ok &= res.ok
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tag", default="rocm-5.3.3", help="the release tag of each (default rocm-5.3.3: Debian's rocPRIM)")
    ap.add_argument("--dest", type=Path, help="default ~/.cache/kernelport/rocm-libs/TAG")
    ap.add_argument("--rocthrust-mirror", type=Path, default=MIRRORS / "ROCm+rocThrust" / "repo")
    ap.add_argument("--hipcub-mirror", type=Path, default=MIRRORS / "ROCm+hipCUB" / "repo")
    ap.add_argument("--roctracer-mirror", type=Path, default=MIRRORS / "ROCm+roctracer" / "repo")
    ap.add_argument("--check", action="store_true", help="compile hipcub, thrust and roctx files against them")
    args = ap.parse_args(argv)
    if not rocprim_present():
        print("rocPRIM is not on hipcc's include path; rocThrust and hipCUB are built on it: "
              "`apt-get install librocprim-dev` (Debian 12: 5.3.3), then run this again", file=sys.stderr)
        return 2
    dest = args.dest or Path.home() / ".cache" / "kernelport" / "rocm-libs" / args.tag
    mirrors = {"rocThrust": args.rocthrust_mirror, "hipCUB": args.hipcub_mirror, "roctracer": args.roctracer_mirror}
    for lib, mirror in mirrors.items():
        if not (mirror / "HEAD").is_file():
            ap.error(f"{mirror}: not a bare git mirror of {lib} (git clone --bare https://github.com/ROCm/{lib})")
    for lib, mirror in mirrors.items():
        print(materialise(lib, mirror, args.tag, dest))
    print(f"include dir: {dest / 'include'}  (bench/scoreboard.py --hip-include {dest / 'include'})")
    return 0 if not args.check or check(dest / "include") else 1


if __name__ == "__main__":
    sys.exit(main())
