"""A header's constant that is CUDA's full lane mask, read by translate where a file passes it to a warp intrinsic.

StreamLZ-style code keeps `static constexpr uint32_t FULL_WARP_MASK = 0xFFFFFFFFu;` in a common header and
passes it to every `__shfl_sync` / `__ballot_sync` of its kernels.  Lint reads a header's constants like its
macros (kernelport.headerconsts, `Visible.constants`), so its analysis knows the name is all 32 lanes;
translate does not read them (a header's `WS = 32` would become the wave in the includer's uses with no
rewrite of the definition), so the mask was an unknown name: "may name only some lanes", KP203, and a port
refused for a mask that is the full one.  Only this question is answered here: whether a name the file
does not define itself is, in a header it includes, an unconditional `const`/`constexpr` integer whose one
literal is a full 32-bit mask (fullmask.is_full: `0xffffffff`, `4294967295u`, ...).  Its value moves no
width; a 64-bit all-ones value, a partial mask or a definition under `#if` is not one (left unknown).
"""
from __future__ import annotations

from . import fullmask, headerconsts


def full_mask_constant(module, name: str) -> bool:
    """Whether `name` is a full-mask constant of a header `module` includes (and not a macro or a
    constant the analysis already reads: lint's `Visible.constants`)."""
    vis = getattr(module, "visible", None)
    if vis is None or vis.elsewhere is None or name in vis.macros or name in vis.constants:
        return False
    names = vis.__dict__.get("_kp_full_masks")
    if names is None:
        proj, seen, names = vis.elsewhere._project, set(), set()
        for p in vis.elsewhere.paths:  # the headers in include order: the first definition of a name holds
            for n, c in proj._per_file("constants", p, lambda f: headerconsts.constants(f.src), {}).items():
                if n not in seen:
                    seen.add(n)
                    if fullmask.is_full(c.value):
                        names.add(n)
        vis.__dict__["_kp_full_masks"] = names = frozenset(names)
    return name in names
