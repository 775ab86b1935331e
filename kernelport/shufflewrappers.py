"""Shuffle wrappers of included headers, for warpflow.

Projects wrap the shuffle intrinsics in their own headers (faiss's WarpShuffles.cuh:
`T shfl_xor(const T val, int laneMask, int width = kWarpSize) { return __shfl_xor_sync(0xffffffff,
val, laneMask, width); }`).  A wrapper defined in the file itself is analysed through its body; one
from a header is not, so a caller's ladder start or lane reached no shuffle sink there.  A header
function whose body shuffles with some of its parameters as the shuffle's arguments is read as that
shuffle, spelled with its own parameter order: each parameter passed as the lane, delta, lane mask,
value or width takes that name (a width parameter the caller leaves out is the hardware warp, as for
the intrinsic, unless the wrapper gives it a literal default: cudasift's `int width = 32` is a
32-lane group wherever a call leaves it out, as `ShiftDown(v, i, 32)` is).  A wrapper that fixes the width itself (a literal, a logical group) or whose
shuffles disagree on the roles is left out.  A lane mask the wrapper fixes itself (hipDF's
`shuffle_xor(var, delta)` passes `(uint64_t) LANE_MASK_ALL`) is kept as its text: `fixed_full_mask`
says whether it names every lane, so a call of the wrapper where only part of the wave runs is a
full-mask warp operation there (kernelport.lint.divergence, WS012).

A wrapper the file defines itself is analysed through its body, so a literal 16 a call passes as its delta
(Zialus/cumf_ccd's `g += shfl_down(g, 16); ... shfl_down(g, 1)`) reached the shuffle as half a warp and was
rewritten `warpSize / 2`: at wave 64 the unrolled ladder lost its step at 16 (so did `shfl_down(g, 16, 32)`,
whose 32 reaches the body's width and becomes the wave's).  ladder_facts reads the step as warpflow reads the
intrinsic's: a "ladder" site (the step at 32 added before it by laddersteps.wide_step), no longer reaching the
wrapper's body as half a warp.
"""
from __future__ import annotations

from . import backends, dialect, function_table_memo, lazy_re
from .model import Module
from .source import call_args

_SINKS = ("lane", "delta", "lanemask")


def wrappers(module: Module) -> dict[str, tuple[str, tuple[str, ...], str | None]]:
    """Functions of `module` that forward parameters to a shuffle: name -> (the shuffle's concept
    key, a positional name per parameter: the shuffle parameter it is passed as, else `argN`; the
    text of the lane mask the wrapper passes itself, None where a parameter or nothing gives it).
    Read-only; once per model while its functions are the same objects (fold_levels asks per function
    it follows: the file's every function read again per function made a file's cost its size squared)."""
    return function_table_memo.kept(module, "shuffle wrappers", _wrappers)


def _wrappers(module: Module) -> dict[str, tuple[str, tuple[str, ...], str | None]]:
    """wrappers(), computed."""
    src = module.source
    backend = backends.source().name
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for key, f in module.functions.items():
        if key != f.name or f.body is None:  # an overload's other definitions: the first one speaks
            continue
        pos = {p.name: i for i, p in enumerate(f.params)}
        found: tuple[str, tuple[str, ...]] | None = None
        masks: set[str | None] = set()
        for call in src.index.under(f.body, "call_expression"):
            fn = call.child_by_field_name("function")
            hit = dialect.spelled_by(backend, src.text_of(fn)) if fn is not None and fn.type == "identifier" else None
            if hit is None or hit[0].kind != "shuffle":
                continue
            roles = [f"arg{i}" for i in range(len(f.params))]
            fixed_width, mask = False, None
            for pname, a in zip(dialect.call_params(*hit)[0], call_args(call)):
                if a.type == "identifier" and src.text_of(a) in pos:
                    roles[pos[src.text_of(a)]] = pname
                elif pname == "width":
                    fixed_width = True  # the wrapper decides the width: not the caller's to judge
                elif pname == "mask":
                    mask = src.text_of(a)
            masks.add(mask)
            if fixed_width or not any(r in _SINKS for r in roles):
                found = None
                break
            mapping = (hit[0].key, tuple(roles))
            if found is not None and found != mapping:
                found = None
                break
            found = mapping
        if found is not None:
            out[f.name] = (*found, masks.pop() if len(masks) == 1 else None, _default_width(src, f, found[1]))
    return out


def _default_width(src, f, roles: tuple[str, ...]) -> str | None:
    """The literal a wrapper's width parameter defaults to (cudasift's `int width = 32`): a call that
    leaves it out passes that width, a logical group as the same literal written at the call is."""
    if "width" not in roles:
        return None
    node = f.params[roles.index("width")].node
    val = node.child_by_field_name("default_value") if node.type == "optional_parameter_declaration" else None
    return src.text_of(val) if val is not None and val.type == "number_literal" else None


def default_width(module: Module, name: str) -> str | None:
    """The literal width an included header's shuffle wrapper `name` passes where its caller gives none."""
    vis = module.visible
    hit = vis.shuffle_wrappers.get(name) if vis is not None and name not in module.functions else None
    return hit[3] if hit is not None and len(hit) > 3 else None


_CAST = lazy_re.compile(r"^\(\s*(?:unsigned|signed|long|int|uint64_t|uint32_t|int64_t|uint|u64|size_t|\s)+\)|"
                   r"^static_cast<[^<>]*>")


def fixed_full_mask(module: Module, name: str) -> bool:
    """Whether `name` is an included header's shuffle wrapper (not one of `module`'s functions) that
    passes a lane mask of its own naming every lane: all ones, CUDA's 32-bit or a 64-bit one, a cast
    of it, or a constant (the file's or a header's, masksources) whose every definition is one."""
    from .masksources import full_constant
    vis = module.visible
    hit = vis.shuffle_wrappers.get(name) if vis is not None and name not in module.functions else None
    text = hit[2] if hit is not None and len(hit) > 2 else None
    while text:
        t = text.strip()
        stripped = _CAST.sub("", t).strip()
        if stripped.startswith("(") and stripped.endswith(")"):
            stripped = stripped[1:-1]
        if stripped == t:
            break
        text = stripped
    return bool(text) and full_constant(module, text.strip())


def library_call(module: Module, backend: str, name: str) -> tuple[dialect.Concept, list[str], int] | None:
    """(concept, positional parameter names, how many are required) of a call to a library's warp
    helper (dialect.library_call) or an included header's shuffle wrapper, that `module` does not
    define itself; None for anything else."""
    if name in module.functions:
        return None
    lib = dialect.library_call(backend, name)
    if lib is not None:
        return lib
    vis = module.visible
    hit = vis.shuffle_wrappers.get(name) if vis is not None else None
    if hit is None:
        return None
    return dialect.concept(hit[0]), list(hit[1]), len(hit[1])


_LADDER_ROLES = ("delta", "lanemask")


def full_width(src, width) -> bool:
    """A wrapper call's width argument is the literal 32: the whole warp, which the wave port widens (its body's
    width parameter reaches the shuffle), so the call's ladder is the warp's, as with no width named."""
    from .warpsites import int_value
    return width is not None and width.type == "number_literal" and int_value(src.text_of(width)) == 32


def ladder_facts(an, call, args: list, facts: list) -> list:
    """`facts` of `call`'s arguments, with a literal 16 passed as the delta or lane mask of a shuffle wrapper the
    file defines (no width named, or the whole warp's 32) made an unrolled ladder's step at 16 (warpflow's
    intrinsic path: a "ladder" site) whose facts are those of any other literal distance."""
    from .warpsites import OPAQUE, WS, guarded_wide_step, int_value
    from . import fnscopes, xorexchange
    fn = call.child_by_field_name("function")
    name = fnscopes.callee_name(fn) if fn is not None else None
    own = an.m.__dict__.get("_kp_own_wrappers")
    if own is None:
        own = an.m.__dict__["_kp_own_wrappers"] = wrappers(an.m) if "shfl" in an.src.text.lower() else {}
    hit = own.get(name) if name else None
    if hit is None or hit[0] not in ("shfl", "shfl_down", "shfl_xor", "shfl_up"):
        return facts
    out, roles = list(facts), hit[1][:len(args)]
    if hit[0] == "shfl" or ("width" in roles and not full_width(an.src, args[roles.index("width")])):
        return facts  # (a logical width named: the wrapper's body reads it as one)
    for i, role in enumerate(roles):
        a = args[i]
        if role in _LADDER_ROLES and a.type == "number_literal" and int_value(an.src.text_of(a)) == 16:
            out[i] = frozenset({(OPAQUE, -2)})  # (warpflow._SOME_LANES: a lane distance, not half a warp)
            if not guarded_wide_step(an.src, call) and not (role == "lanemask" and
                                                            xorexchange.exchange_step(an, call, a)):
                an.confirm({(WS, an.site(a, "ladder"))}, "an unrolled shuffle ladder starts at 16", call, kinds=(WS,))
    return out
