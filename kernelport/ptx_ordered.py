"""PTX's memory-model accesses and fences, as lock-free data structures write them (a multiversion
B-tree's `ld.acquire.gpu.b64`, an allocator's `ld.gpu.acquire.u64` / `st.gpu.release.u64`, a queue's
`ld.global.cv.u32` polling a flag, `fence.sc.gpu` / `membar.gl`).  Each is a concept of its order and
scope (ptx_idioms.FORMS takes these rows); a backend spells it with an access of that order and scope
(HIP: __hip_atomic_load / __hip_atomic_store, __builtin_amdgcn_fence) or has none, and the asm stays
KP201 there.  What each form means (the PTX ISA's memory consistency model):
  - `ld|st.relaxed|acquire|release.cta|gpu|sys`: an atomic access of that order at that scope (ptxas
    takes the scope before the order as well, `ld.gpu.acquire`); `.global` may follow;
  - `ld|st.volatile` and `ld.global.cv` (a load that fetches memory again, cached lines being stale):
    a volatile access, which the compiler neither drops, merges nor caches;
  - `ld|st.weak` is a plain access (ptx_idioms' `ld|st.global`, 32 and 64 bits), as is a 16-bit
    `ld.global{.ca,.cg,.nc}` / `st.global{.wb,.cg}` (an allocator's `ld.global.ca.u16`);
  - `fence.sc|acq_rel.cta|gpu|sys`; `membar.cta|gl|sys` is `fence.sc` of the block, the device, the system.
The vector forms, the other cache operators and the .mmio / .L2 qualifiers stay KP201."""
from __future__ import annotations

REG = r"(%[0-9]+)"
SCOPES = ("cta", "gpu", "sys")
# (the access's width, the PTX type suffix, the constraint letter of its register)
TYPES = ((16, r"[bus]16", "h"), (32, r"[bus]32", "r"), (32, r"f32", "f"), (64, r"[bus]64", "l"), (64, r"f64", "d"))
LOAD_ORDERS, STORE_ORDERS = ("relaxed", "acquire"), ("relaxed", "release")


def _ordered(order: str, scope: str) -> str:
    """The qualifiers of an ordered access, in either sequence, `.global` optional after them."""
    return rf"(?:\.{order}\.{scope}|\.{scope}\.{order})(?:\.global)?"


def _rows(op: str, quals: str, key: str, widths=(16, 32, 64), word: str = "") -> list:
    """FORMS rows of `op` (ld, st) with qualifiers `quals`, its concept `key` + `_b{width}` + `word`: a load's
    output is group 1, its address ("l") group 2; a store's address group 1, its value group 2."""
    rows = []
    for n, t, letter in TYPES:
        if n not in widths:
            continue
        if op == "ld":
            rows.append((rf"ld{quals}\.{t} {REG}, ?\[{REG}\]", letter + "l", ((1, f"{key}_b{n}{word}", (1, 2)),)))
        else:
            rows.append((rf"st{quals}\.{t} \[{REG}\], ?{REG}", "l" + letter, ((0, f"{key}_b{n}{word}", (1, 2)),)))
    return rows


FORMS = (
    *(r for o in LOAD_ORDERS for s in SCOPES for r in _rows("ld", _ordered(o, s), f"ptx_ld_{o}_{s}")),
    *(r for o in STORE_ORDERS for s in SCOPES for r in _rows("st", _ordered(o, s), f"ptx_st_{o}_{s}")),
    *_rows("ld", r"(?:\.volatile(?:\.global)?|\.global\.cv)", "ptx_ld_volatile"),
    *_rows("st", r"\.volatile(?:\.global)?", "ptx_st_volatile"),
    # `.weak` is the default order: ptx_idioms' plain global access (of word 0)
    *(r for o in ("ld", "st") for r in _rows(o, r"\.weak(?:\.global)?", f"ptx_{o}_global", (32, 64), "_0")),
    # ... and 16-bit plain global accesses, a cache hint that changes no value dropped (ptx_idioms' 32/64-bit rows)
    *_rows("ld", r"\.global(?:\.ca|\.cg|\.nc)?", "ptx_ld_global", (16,), "_0"),
    *_rows("st", r"\.global(?:\.wb|\.cg)?", "ptx_st_global", (16,), "_0"),
    *((rf"fence\.{o}\.{s}", "", ((0, f"ptx_fence_{o}_{s}", ()),)) for o in ("sc", "acq_rel") for s in SCOPES),
    *((rf"membar\.{m}", "", ((0, f"ptx_fence_sc_{s}", ()),)) for m, s in (("cta", "cta"), ("gl", "gpu"), ("sys", "sys"))),
)
# The concepts and their parameters (kernelport/dialect.py declares them from this list)
CONCEPTS = (
    *((f"ptx_ld_{o}_{s}_b{n}", ("out", "p")) for o in LOAD_ORDERS for s in SCOPES for n in (16, 32, 64)),
    *((f"ptx_st_{o}_{s}_b{n}", ("p", "x")) for o in STORE_ORDERS for s in SCOPES for n in (16, 32, 64)),
    *((f"ptx_ld_volatile_b{n}", ("out", "p")) for n in (16, 32, 64)),
    *((f"ptx_st_volatile_b{n}", ("p", "x")) for n in (16, 32, 64)),
    *((f"ptx_fence_{o}_{s}", ()) for o in ("sc", "acq_rel") for s in SCOPES),
    ("ptx_ld_global_b16_0", ("out", "p")), ("ptx_st_global_b16_0", ("p", "x")),
)
