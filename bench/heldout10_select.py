#!/usr/bin/env python3
"""How the tenth held-out set (bench/heldout10.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout10_select.py      # -> bench/heldout10.toml

Rule, written down before anything was measured on these projects (that of the fourth to ninth
sets, bench/heldout4_select.py and bench/heldout9_select.py), for applications and
graphics/vision/crypto codes: public CUDA projects that no test, corpus, labelled or held-out set
has used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/), whose CUDA
files build with plain include dirs. Files as for the second to ninth sets
(heldout2_select.pick: every `.cu` and `.cuh` file under the project's CUDA folder within the
size cap, less those whose includes do not resolve here and byte-for-byte copies); a project
with more than FULL such files gives every second of them in path order
(heldout4_select.capped). Never chosen by how kernelport does on a file: the set was measured on
main as it was before anyone changed code for it (bench/scoreboard_heldout10_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  DualSPHysics/DualSPHysics  a smoothed-particle-hydrodynamics solver: its GPU kernels
                             (`src/source/*_ker.cu`, `*_iker.cu`: cell division, reductions,
                             gauges, relaxation zones, shifting) (LGPL-2.1, LICENSE);
                             src/source/Makefile's NCCFLAGS: -I./ -D_WITHMR -D_WITHGPU
                             -DCUB_IGNORE_DEPRECATED_CPP_DIALECT -DTHRUST_IGNORE_DEPRECATED_CPP_DIALECT
                             (JSphGpu_ker.cu, JSphGpu_InOut_iker.cu, JSphGpu_VRes_iker.cu are over the
                             size cap);
  alicevision/AliceVision    a photogrammetry framework: the depth-map estimation's CUDA device
                             code (`src/aliceVision/depthMap/cuda/`: patch similarity, colour
                             conversion, 3x3 eigen solver, similarity-volume kernels as `.cuh`)
                             (MPL-2.0, COPYING.md, LICENSE-MPL2.md); src/CMakeLists.txt: include
                             dir `src`, -std=c++17 (the `.cu` files reaching host/memory.hpp or
                             the system logger drop out by the rule: boost);
  mochimodev/cuda-hashing-algos
                             GPU hash functions (blake2b, keccak, md2, md5, sha1, sha256), each a
                             `.cu` with its `.cuh` (public domain, stated in README.md; no
                             LICENSE file); no build file: plain `nvcc -c`;
  stanford-cs149/asst3       a course's CUDA assignment starter code (saxpy, exclusive scan, a
                             circle renderer with `.cu_inl` includes) (no license stated;
                             README.md is the handout); its Makefiles' NVCCFLAGS: -O3 -m64;
  ChorusOne/solanity         a Solana vanity-address searcher: ed25519 field/group/scalar
                             arithmetic, SHA-512/256, AES/ChaCha and proof-of-history kernels
                             (Apache-2.0, LICENSE); src/Makefile: -Icuda-headers -Icuda-sha256
                             -DENDIAN_NEUTRAL -DLTC_NO_ASM, -rdc=true.
Looked at and left out by the rule: ingowald/cudaKDTree (every file reaches cukd/builder.h,
which includes thrust: no rocThrust with this machine's ROCm, so the set would measure the
install), colmap/colmap (src/colmap/mvs reaches colmap/util/logging.h: glog),
rogerallen/raytracinginoneweekendincuda (one `.cu` per chapter branch, no license file),
NVlabs/cudaraster (no snapshot to be had), VVKoishi/CUDANBody (no license),
LesleyLai/cuda-path-tracer (conan dependencies).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout10() -> str:
    out = [set_header("tenth", "heldout10")]
    r = "DualSPHysics/DualSPHysics"; c = head(r)
    out.append(project("dualsphysics", r, c, "LGPL-2.1", ["LICENSE"], ["src/source"],
                       ["_WITHMR", "_WITHGPU", "CUB_IGNORE_DEPRECATED_CPP_DIALECT",
                        "THRUST_IGNORE_DEPRECATED_CPP_DIALECT"], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["src/source"], ["src/source/"]))))
    r = "alicevision/AliceVision"; c = head(r)
    out.append(project("alicevision", r, c, "MPL-2.0", ["COPYING.md", "LICENSE-MPL2.md"], ["src"],
                       [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["src"], ["src/aliceVision/depthMap/cuda/"]))))
    r = "mochimodev/cuda-hashing-algos"; c = head(r)
    out.append(project("cuda-hashing-algos", r, c, "public domain (README.md; no LICENSE file)",
                       ["README.md"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    r = "stanford-cs149/asst3"; c = head(r)
    out.append(project("cs149-asst3", r, c, "none stated (course starter code)", ["README.md"],
                       [], [], ["-std=c++17"], capped(pick_cuda(r, c, [], [""]))))
    r = "ChorusOne/solanity"; c = head(r)
    inc = ["src/cuda-headers", "src/cuda-sha256"]
    out.append(project("solanity", r, c, "Apache-2.0", ["LICENSE"], inc,
                       ["ENDIAN_NEUTRAL", "LTC_NO_ASM"], ["-std=c++17", "-rdc=true"],
                       capped(pick_cuda(r, c, inc, ["src/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout10.toml").write_text(heldout10())
