#!/usr/bin/env python3
"""How the twenty-third held-out set (bench/heldout23.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout23_select.py      # -> bench/heldout23.toml

RULE, written and committed (h/heldout23, 23:21 UTC) before any candidate was fetched or measured
(only the stored index's repository names were looked up, to name candidates that exist), for
physics and engineering simulation (molecular dynamics, particle methods, Monte Carlo / deterministic
transport, n-body, finite elements / volumes / differences, wave propagation, shallow water):

  Candidates, in this order, named by domain only (none in /work/notes/t40/used.md, none an ML
  project, none chosen by how kernelport does on them):
    1. brucefan1983/GPUMD             molecular dynamics (many-body potentials, NEP)
    2. TinkerTools/tinker9            molecular mechanics / MD (AMOEBA)
    3. msu-sparta/PuReMD              reactive molecular dynamics (ReaxFF)
    4. akaaka928/gothic               gravitational n-body tree code
    5. TUM-I5/SWE                     shallow-water equations (finite volumes)
    6. zer011b/fdtd3d                 FDTD electromagnetics
    7. ANL-CESAR/SimpleMOC-kernel     neutron transport (method of characteristics)
    8. SPECFEM/specfem3d              seismic wave propagation (spectral elements)
    9. halmd-org/halmd                molecular dynamics (Lennard-Jones, hard spheres)
   10. openmm/openmm                  molecular dynamics (its platforms/cuda)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 39's heldout21 rule and reading, bench/heldout21_select.taken): a candidate
  qualifies if at least half of its first 10 `.cu` files by path under the folder its build compiles
  (all of them if fewer than 10) have every `#include` they reach resolve in the repository, the CUDA
  toolkit or the host compiler's search path, read textually with the include dirs of its build and
  without the lines of branches taken only on Windows (heldout21_select.linux_text).
  Files of a qualifying candidate: its `.cu` files only under that folder (local headers are copied
  with them by realcorpus_build.py; no header is a source of its own), within the size cap, less
  those whose includes do not resolve and byte-for-byte copies (heldout2_select.pick); a project
  with more than CAP = 12 such files gives 12 evenly spaced in path order (files[i*n//12], as
  heldout22), so that no one project dominates. Include dirs, defines and nvcc flags are those of
  the project's own build files (read before any measure; `-std=c++17` where its build asks for
  an older standard). A candidate that cannot be fetched, does not qualify or gives 0 files drops
  out (said below). Candidates are taken in order until the set holds at least 50 files.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout23_baseline.txt).
"""
