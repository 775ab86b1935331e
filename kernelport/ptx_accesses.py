"""PTX's plain loads and stores as ptx_idioms FORMS rows: global (or generic) accesses under a cache
operator that changes no value, or the streaming one, and accesses at a shared-window address; scalar
and `.v2`/`.v4`.  What each concept computes is the backend's spelling (kernelport/backends/)."""
from __future__ import annotations

from .ptx_ordered import REG

# PTX's cache operators on global loads (stores) as (a pattern, the concepts' suffix): those that change
# no value read or written (ld: .ca, .cg, each optionally with the read-only path's .nc after it, as PTX
# orders them, st: .wb, .cg) are plain accesses, the streaming .cs (.cs.nc) a nontemporal one; the others (.lu, .cv, .wt, L1/L2 eviction qualifiers) stay KP201.  A generic access
# (no state space) takes the same operators but .nc (ld.global.nc alone): the same plain or nontemporal
# access through the pointer, HIP's flat one reaching whichever space the address is in
# `.L2::64B|128B|256B` (after the cache operator) asks the L2 to prefetch that many bytes around the
# access: a performance hint that changes no value, dropped alike
L2_PREFETCH = r"(?:\.L2::(?:64|128|256)B)?"
LD_HINTS = ((r"(?:\.ca|\.cg)?(?:\.nc)?" + L2_PREFETCH, ""), (r"\.cs(?:\.nc)?" + L2_PREFETCH, "_cs"))
ST_HINTS = ((r"(?:\.wb|\.cg)?", ""), (r"\.cs", "_cs"))
GENERIC_LD_HINTS = ((r"(?:\.ca|\.cg)?" + L2_PREFETCH, ""), (r"\.cs" + L2_PREFETCH, "_cs"))
# where the state space stands among the qualifiers ({h}: the cache operator): PTX writes it first
# (`ld.global.cg`); ptxas takes it after as well (`st.cs.global`: gpumembench), or absent (generic)
GLOBAL_SPELLINGS = r"(?:\.global{h}|{h}\.global)"
# The accesses' elements: (their width, each type suffix with the constraint letter its register takes (an
# untyped .bN word also a float's register, as PTX lets it), the vector lengths PTX has)
ACCESS_TYPES = ((32, ((r"[bus]32", "r"), (r"(?:b32|f32)", "f")), (1, 2, 4)), (64, ((r"[bus]64", "l"), (r"(?:b64|f64)", "d")), (1, 2)))


def accesses(op: str, space: str, hints, address: str, spelled: str = "") -> list:
    """FORMS rows of `op` (ld, st) in state space `space`, scalar and vector, under each of `hints` (a
    pattern, the concepts' suffix), the address a register of letter `address`: word i of a vector is
    concept `ptx_{op}_{space}{hint}_b{width}_{i}`.  `spelled`: the qualifiers' pattern, `{h}` the hint
    (`.space{h}` unless given)."""
    rows = []
    for cop, h in hints:
        hint = (spelled or rf"\.{space}{{h}}").replace("{h}", cop)
        for n, types, lengths in ACCESS_TYPES:
            for t, letter in types:
                for k in lengths:
                    vec, regs = ("", REG) if k == 1 else (rf"\.v{k}", r"\{ ?" + ", ?".join([REG] * k) + r" ?\}")
                    key = f"ptx_{op}_{space}{h}_b{n}"
                    if op == "ld":
                        rows.append((rf"ld{hint}{vec}\.{t} {regs}, ?\[{REG}\]", letter * k + address,
                                     tuple((i + 1, f"{key}_{i}", (i + 1, k + 1)) for i in range(k))))
                    else:
                        rows.append((rf"st{hint}{vec}\.{t} \[{REG}\], ?{regs}", address + letter * k,
                                     tuple((0, f"{key}_{i}", (1, i + 2)) for i in range(k))))
    return rows


FORMS = (
    *accesses("ld", "global", LD_HINTS, "l", GLOBAL_SPELLINGS),
    *accesses("st", "global", ST_HINTS, "l", GLOBAL_SPELLINGS),
    # ... and at a generic address (no state space: `ld.cg.u32`), the same access through the pointer
    *accesses("ld", "global", GENERIC_LD_HINTS, "l", "{h}"), *accesses("st", "global", ST_HINTS, "l", "{h}"),
    *accesses("ld", "shared", ((r"", ""),), "s"), *accesses("st", "shared", ((r"", ""),), "s"),
)
