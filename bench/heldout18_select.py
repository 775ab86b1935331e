#!/usr/bin/env python3
"""How the eighteenth held-out set (bench/heldout18.toml) is to be chosen. NOT YET RUN: this file
records the rule, written before anything was fetched or measured; the projects have not been
fetched, the set not built, and no scoreboard exists for it (the session ran out of time).

Rule (that of the fourth to seventeenth sets, bench/heldout17_select.py), for computer vision,
image/video processing and rendering (stereo/optical flow, feature extraction, point clouds,
image codecs, neural graphics, ray tracing): public CUDA projects that no test, corpus, labelled
or held-out set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/,
/work/notes/t36/used.md), whose CUDA files build with plain include dirs (no PyTorch extension
headers, no OptiX SDK, no CMake-generated config). Files as for the second to seventeenth sets
(heldout2_select.pick / heldout9_select.pick_cuda: every `.cu`/`.cuh` file under the project's
CUDA folder within the size cap, less those whose includes do not resolve here, read textually,
and byte-for-byte copies); a project with more than FULL such files gives every second of them in
path order (heldout4_select.capped). Target 40-70 files over 3-5 projects. Never chosen by how
kernelport does on a file.

Candidate projects, in this order, taken while the rule admits them and the total stays <= 70:
  fixstars/libSGM                   semi-global matching stereo (Apache-2.0)
  fixstars/cuda-efficient-features  ORB/BAD/HashSIFT feature extraction (Apache-2.0)
  NVlabs/tiny-cuda-nn               neural graphics MLPs / encodings (BSD-3; only if its
                                    dependencies resolve with plain include dirs)
  a CUDA point-cloud or image-codec project, chosen by the same rule if the total is under 40.
"""
