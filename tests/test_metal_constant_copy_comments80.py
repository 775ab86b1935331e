"""A `constant` struct copied for a `const T&` helper, whose members carry comments with a `*` (heldout80's
ultra-large virtual screening: `int32_t logp_opt_x100; // ideal logP * 100` in `struct Target`, passed from a
`__constant__ Target` to `score_ligand(const Ligand&, const Target&)`).  The checker lets the copy through as its
model's gap (check/constant_copies.py) only for a struct without pointer members of no written space; main read
the comment's `*` as a pointer member and kept the error (KP224).  Comments are no members now; a real bare
pointer member, with or without a comment beside it, still keeps the error."""
from __future__ import annotations

from kernelport.backends.metal.check.constant_copies import is_constant_struct_copy

from conftest import metal_checked

GAP = "cannot bind reference in address space '__constant' to object in address space '__generic' in 1st argument"
IMPLICIT = [f"candidate constructor (the implicit copy constructor) not viable: {GAP}"]
CAST = "no matching conversion for functional-style cast from '__constant Target' to 'Target'"
COMMENTED = """struct Target {
    int mw_opt;          // ideal molecular weight
    int logp_opt_x100;   // ideal logP * 100
    unsigned feat;       /* features: a * b of the pocket */
};
"""


def test_comments_are_no_pointer_members():
    assert is_constant_struct_copy(CAST, IMPLICIT, COMMENTED)


def test_a_bare_pointer_member_still_keeps_the_error():
    assert not is_constant_struct_copy(CAST, IMPLICIT, COMMENTED.replace("unsigned feat;", "float *feat;"))
    assert not is_constant_struct_copy(CAST, IMPLICIT, COMMENTED.replace("    unsigned feat;       /* features: a * b of the pocket */\n",
                                                                         "    float *p; // no space written\n"))
    assert is_constant_struct_copy(CAST, IMPLICIT, COMMENTED.replace("unsigned feat;", "device float *feat;"))


CUDA = """
struct Target {
    int mw_opt;          // ideal molecular weight
    int logp_opt_x100;   // ideal logP * 100
};
__constant__ Target c_target;
__device__ int score(const int& w, const Target& t) { return w * t.mw_opt - t.logp_opt_x100; }
__global__ void screen(const int* w, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = score(w[i], c_target);
}
"""


def test_the_port_copies_the_commented_struct_and_passes_the_checker():
    text = metal_checked(CUDA)
    assert "score(int(w[i]), Target(c_target))" in text
