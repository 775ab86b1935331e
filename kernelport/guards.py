"""Preprocessor platform guards: on which compile passes the code under an `#if` exists.

CUDA and HIP sources are compiled in passes: NVIDIA device and host (nvcc), AMD device and host
(hipcc).  Each platform macro is defined on some of them (`__CUDA_ARCH__` on NVIDIA's device pass,
`__CUDACC__` on both NVIDIA passes, `__HIP_PLATFORM_AMD__` on both AMD passes, `__GFX9__` on
some AMD device passes); any other macro is unknown.  An `#if`/`#elif` test is evaluated on each
pass with three-valued logic (true, false, unknown), so compound tests (`!defined(A) || B`), `#elif`
chains, `#else` parts and `# ifndef` read alike for every consumer:

- translate: `cuda_only` (dead on every AMD pass: nothing to port) and `amd_only` (never
  compiled by nvcc: already written per platform, left as it is);
- lint: `side_of` / `platform_guarded` (device code written for one platform, or per
  architecture: `__GFX9__`, `__AMDGCN_WAVEFRONT_SIZE`, the honest way to a compile-time wave width);
  an `#if __CUDA_ARCH__ >= N` the ports settle (kernelport.arch_branches) read as they compile it.
"""
from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tree_sitter import Node
from . import lazy_re

NVIDIA_DEVICE, NVIDIA_HOST, AMD_DEVICE, AMD_HOST = "nvidia-device", "nvidia-host", "amd-device", "amd-host"
PASSES = (NVIDIA_DEVICE, NVIDIA_HOST, AMD_DEVICE, AMD_HOST)
NVIDIA = frozenset({NVIDIA_DEVICE, NVIDIA_HOST})
AMD = frozenset({AMD_DEVICE, AMD_HOST})
DEVICE = frozenset({NVIDIA_DEVICE, AMD_DEVICE})
# A macro name as the code will spell it (translate: after the port's renames), given the name and the
# identifier node of that use (`#ifdef __CUDA_ARCH__` is respelled test by test: kernelport/device_pass.py).
Spell = Callable[[str, Node], str]


def written(name: str, node: Node | None = None) -> str:
    """The default Spell: every name as written."""
    return name
# What side_of answers.
SIDE_ARCH, SIDE_NVIDIA, SIDE_AMD = "arch", "nvidia", "amd"


@dataclass(frozen=True)
class PlatformMacro:
    """A macro a compiler defines on some platforms, and its value there."""
    pattern: str
    defined_on: frozenset[str]
    value: int | None = 1  # where defined (None: a number we cannot know, e.g. the architecture)
    sometimes: bool = False  # defined on only some compiles of those passes (one architecture's)
    arch: bool = False  # names an architecture, not a platform


# Order matters: the first pattern that matches a name wins (NVIDIA's before AMD's `*HIP_PLATFORM*`).
MACROS = (
    PlatformMacro(r"__CUDA_ARCH__", frozenset({NVIDIA_DEVICE}), None),
    # The toolkit's version macros: cuda.h's CUDA_VERSION, cuda_runtime_api.h's CUDART_VERSION, nvcc's
    # __CUDACC_VER_*__; hipcc defines none of them (HIP_VERSION is its own).
    PlatformMacro(r"__CUDA_ARCH_LIST__|__CUDACC_VER_(MAJOR|MINOR|BUILD)__|CUDA_VERSION|CUDART_VERSION|__CUDA_API_VERSION",
                  NVIDIA, None),
    PlatformMacro(r"__NVCC__|__CUDACC__|__HIP_PLATFORM_NVIDIA__|__HIP_PLATFORM_NVCC__|__NVCOMPILER", NVIDIA),
    PlatformMacro(r"__AMDGCN_WAVEFRONT_SIZE\w*", frozenset({AMD_DEVICE}), None, arch=True),
    PlatformMacro(r"__GFX\d+\w*__|__gfx\d+\w*__", frozenset({AMD_DEVICE}), sometimes=True, arch=True),
    PlatformMacro(r"__HIP_DEVICE_COMPILE__|__AMDGCN__|__HIP_ARCH\w*", frozenset({AMD_DEVICE})),
    PlatformMacro(r"__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HCC__|\w*USE_(AMD_)?ROCM\w*|"
                  r"\w*_USE_HIP\w*|\w*HIP_PLATFORM\w*", AMD),
)


@dataclass(frozen=True)
class Defines:
    """A translation unit's own macros whose definitions decide them (kernelport.unitdefines builds it):
    `values`, integers it defines once and unconditionally (`#define GGML_CUDA_CC_AMPERE 800`);
    `nvidia_only`, names every definition of which is in code no AMD pass compiles
    (`#if __CUDA_ARCH__ >= GGML_CUDA_CC_TURING` / `#define TURING_MMA_AVAILABLE`): undefined there."""
    values: Mapping[str, int] = field(default_factory=dict)
    nvidia_only: frozenset[str] = frozenset()


_COMPILED = tuple((lazy_re.compile(m.pattern), m) for m in MACROS)
CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef")
_ALTERNATIVES = ("preproc_else", "preproc_elif", "preproc_elifdef")


def macro(name: str) -> PlatformMacro | None:
    m = next((m for rx, m in _COMPILED if rx.fullmatch(name)), None)
    return m if m is not None else _language_macros().get(name) or _port_device_passes().get(name)


@functools.cache
def _language_macros() -> dict[str, PlatformMacro]:
    """The language's own macros (`__cplusplus`: the source backend's `language_macros`, the data
    macro_groups.builtin_macros gives the parse repair), defined on every pass, Metal's too; their number unknown here
    (nvcc and hipcc read C++17's, Metal's compiler its own standard's)."""
    from .backends import source
    return {n: PlatformMacro(re.escape(n), frozenset((*PASSES, "no-platform")), None) for n in source().language_macros}


_PORT_DEVICE_PASSES: dict[str, PlatformMacro] = {}


def _port_device_passes() -> dict[str, PlatformMacro]:
    """The ports' own device-pass macros (a backend's `device_pass_macros`) the table above lacks, each defined on
    the device passes of the compilers its runs are read as, where that compiler's spelling is in the table: the
    portable port's `KP_DEVICE_PASS`, which kp_warp.h defines from nvcc's `__CUDA_ARCH__` and hipcc's
    `__HIP_DEVICE_COMPILE__` (both device passes), as 1.  One read by no compiler modelled here (Metal's
    `__METAL_VERSION__`) stays unknown."""
    if not _PORT_DEVICE_PASSES:
        from . import backends  # (lazily: a name the table lacks; the ports' data, loaded by whoever asks)
        table = {}
        for b in backends.all():
            for name, mine in b.device_pass_macros.items():
                read = [next((m for rx, m in _COMPILED if rx.fullmatch(backends.get(r.dialect).device_pass_macros.get(
                    name, name))), None) for r in b.runs]
                if read and None not in read and not any(rx.fullmatch(mine) for rx, _ in _COMPILED):
                    table[mine] = PlatformMacro(re.escape(mine), frozenset().union(*(m.defined_on for m in read)))
        _PORT_DEVICE_PASSES.update(table or {"": PlatformMacro("", frozenset())})  # (asked once: never a name)
    return _PORT_DEVICE_PASSES


# -- evaluating a test on one pass: an int, or None when it cannot be known ------------------------
def _defined(name: str, p: str, amd: frozenset[str] = frozenset(), pinned: frozenset[str] = frozenset(),
             known: Defines | None = None) -> int | None:
    if name in amd:  # a name the project's (or the user's) HIP configuration defines
        return int(p in AMD)
    if known is not None and name in known.nvidia_only:
        return 0 if p in AMD else None
    if known is not None and name in known.values:
        return 1
    m = macro(name)
    if m is None:
        return None
    if p not in m.defined_on:
        return None if p in AMD and name in pinned else 0
    return None if m.sometimes else 1


def _value(name: str, p: str, amd: frozenset[str] = frozenset(), pinned: frozenset[str] = frozenset(),
           known: Defines | None = None) -> int | None:
    if name in ("true", "false"):
        return int(name == "true")
    if name in amd:
        return int(p in AMD)
    if known is not None and name in known.nvidia_only:
        return 0 if p in AMD else None
    if known is not None and name in known.values:
        return known.values[name]
    m = macro(name)
    if m is None:
        return None
    if p not in m.defined_on:
        return None if p in AMD and name in pinned else 0
    return None if m.sometimes else m.value


def _int(text: str) -> int | None:
    t = text.rstrip("uUlL")
    try:
        return int(t, 0) if not re.fullmatch(r"0\d+", t) else int(t, 8)
    except ValueError:
        return None


_BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
           "/": lambda a, b: int(a / b) if b else None, "%": lambda a, b: a % b if b else None,
           "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
           "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
           "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
           "<=": lambda a, b: int(a <= b), ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b)}


def evaluate(node: Node | None, src, p: str, spell: Spell = written,
             amd: frozenset[str] = frozenset(), pinned: frozenset[str] = frozenset(),
             known: Defines | None = None) -> int | None:
    """The value of a preprocessor expression on pass `p` (None: unknown there); each macro name
    as `spell` writes it (a port's rename: `__CUDACC__` -> `__HIPCC__`); `amd`: further names
    defined on the AMD passes only (kernelport.hipbuild); `pinned`: NVIDIA names the AMD build
    must define too, with a value we cannot know (`pinned_on_amd`); `known`: the project's own macros
    whose value or platform its definitions decide (kernelport.unitdefines)."""
    if node is None:
        return None
    t = node.type
    if t == "number_literal":
        return _int(src.text_of(node))
    if t == "identifier":
        v = _value(spell(src.text_of(node), node), p, amd, pinned, known)
        return v if v is not None or macro(spell(src.text_of(node), node)) is not None else _derived(src.text_of(node), src, p)
    if t == "preproc_defined":
        name = next((c for c in node.named_children if c.type == "identifier"), None)
        return _defined(spell(src.text_of(name), name), p, amd, pinned, known) if name is not None else None
    if t == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        return evaluate(inner[0], src, p, spell, amd, pinned, known) if len(inner) == 1 else None
    if t == "unary_expression":
        op, v = src.text_of(node.child_by_field_name("operator")), evaluate(node.child_by_field_name("argument"), src, p, spell, amd, pinned, known)
        if v is None:
            return None
        return {"!": int(not v), "-": -v, "+": v, "~": ~v}.get(op)
    if t == "binary_expression":
        op = src.text_of(node.child_by_field_name("operator"))
        a = evaluate(node.child_by_field_name("left"), src, p, spell, amd, pinned, known)
        b = evaluate(node.child_by_field_name("right"), src, p, spell, amd, pinned, known)
        if op == "&&":
            return 0 if 0 in (a, b) else (1 if a is not None and b is not None else None)
        if op == "||":
            return 1 if (a is not None and a != 0) or (b is not None and b != 0) else (0 if a == b == 0 else None)
        return None if a is None or b is None or op not in _BINARY else _BINARY[op](a, b)
    if t == "conditional_expression":
        c = evaluate(node.child_by_field_name("condition"), src, p, spell, amd, pinned, known)
        if c is None:
            return None
        return evaluate(node.child_by_field_name("consequence" if c else "alternative"), src, p, spell, amd, pinned, known)
    return None  # a function-like macro, `__has_include`, a parse error: unknown


_DERIVING = threading.local()  # the (file, macro) pairs whose value _derived is deciding now


def _derived(name: str, src, p: str) -> int | None:
    """A file's own macro whose number the platform decides (ccminer: `#if !defined(__CUDA_ARCH__)`
    `#define USE_XOR_ASM_OPTS 0` `#else` `#define USE_XOR_ASM_OPTS 1`): its value on pass `p` where
    the file defines it, for certain, once there and as a number, and not the same on every pass; None
    otherwise (a value the same everywhere, or one a -D or another header may give, stays unknown).

    A definition under a test of the macro itself (alpaka's BoostPredef.hpp: `#if defined(X) && X`
    `#undef X` `#define X ...`), or of a macro that is decided by it, is a cycle: its value there is
    unknown (None), where the recursion used to run until Python's limit (KP006 on every includer)."""
    index = getattr(src, "index", None)
    if index is None:
        return None
    busy = getattr(_DERIVING, "keys", None)
    if busy is None:
        busy = _DERIVING.keys = set()
    key = (id(src), name)
    if key in busy or len(busy) > 8:
        return None
    busy.add(key)
    try:
        return _derived_on(name, src, p, index)
    finally:
        busy.discard(key)


def _derived_on(name: str, src, p: str, index) -> int | None:
    defs = [d for d in index.of_type("preproc_def") if d.child_by_field_name("name") is not None
            and src.text_of(d.child_by_field_name("name")) == name and d.child_by_field_name("value") is not None]
    if len(defs) < 2:
        return None

    around = {d.id: branches(d, src) for d in defs}
    shared = set.intersection(*({(b.test.id, b.in_else) for b in bs} for bs in around.values()))  # an include guard

    def on(q: str) -> int | None:
        hit = [d for d in defs if all(holds(b.test, src, q) is not None and bool(holds(b.test, src, q)) != b.in_else
                                      for b in around[d.id] if (b.test.id, b.in_else) not in shared)]
        return _int(src.text_of(hit[0].child_by_field_name("value")).strip()) if len(hit) == 1 else None
    values = {q: on(q) for q in {*PASSES, p}}  # `p` may be another target's pass (Metal's: no platform macro)
    return values[p] if len(set(values.values())) > 1 else None


# -- the branches around a node -----------------------------------------------------------------
@dataclass(frozen=True)
class Branch:
    """One branch of a preprocessor conditional around a node."""
    test: Node  # the #if / #ifdef / #elif node whose test decides this branch
    in_else: bool  # the node is in that test's #else / #elif part (the test is false there)

    def reached(self, src, p: str, spell: Spell = written, pinned: frozenset[str] = frozenset(),
                known: Defines | None = None, decided: Mapping[int, int] | None = None) -> bool:
        """Can code in this branch be compiled on pass `p`?"""
        v = holds(self.test, src, p, spell, pinned=pinned, known=known, decided=decided)
        return v is None or bool(v) != self.in_else


def test_node(cond: Node) -> Node | None:
    return cond.child_by_field_name("condition") or cond.child_by_field_name("name")


def holds(cond: Node, src, p: str, spell: Spell = written,
             amd: frozenset[str] = frozenset(), pinned: frozenset[str] = frozenset(),
             known: Defines | None = None, decided: Mapping | None = None) -> int | None:
    """Whether the test of an #if / #ifdef / #ifndef / #elif node holds on pass `p` (None: unknown);
    `decided`: {test node id: value} of tests a port settles on every pass (kernelport/arch_branches.py), or
    {test node id: {pass: value}} where it settles them pass by pass (kernelport/pass_branches.py)."""
    if decided and cond.id in decided:
        v = decided[cond.id]
        return v if v is None or isinstance(v, int) else v.get(p)  # None: settled by a reader that cannot know it
    t = test_node(cond)
    if cond.type in ("preproc_ifdef", "preproc_elifdef"):
        v = _defined(spell(src.text_of(t), t), p, amd, pinned, known) if t is not None else None
        negated = bool(cond.children) and src.text_of(cond.children[0]).endswith("ndef")  # `# ifndef` too
        return v if v is None or not negated else int(not v)
    return evaluate(t, src, p, spell, amd, pinned, known)


def branches(node: Node, src) -> list[Branch]:
    """The preprocessor branches around `node`, innermost first."""
    out: list[Branch] = []
    child, n = node, node.parent
    while n is not None:
        if n.type in CONDITIONALS:
            t = test_node(n)
            if t is None or (t.start_byte, t.end_byte) != (child.start_byte, child.end_byte):
                out.append(Branch(n, child.type in _ALTERNATIVES))
        child, n = n, n.parent
    return out


def reach(node: Node, src, spell: Spell = written, memo: dict | None = None,
          decided: Mapping[int, int] | None = None) -> frozenset[str]:
    """The passes on which `node` is compiled.  `memo` (one per src and spell): the answer by the
    branches around the node, so that each conditional's tests are evaluated once, not once for every
    node asked about inside it (translate asks for most functions, API uses and macros of a file)."""
    bs = branches(node, src)
    if memo is None:
        return frozenset(p for p in PASSES if all(b.reached(src, p, spell, decided=decided) for b in bs))
    key = tuple((b.test.id, b.in_else) for b in bs)
    got = memo.get(key)
    if got is None:  # (the tests are kept too: their tree lives as long as the ids that name its nodes)
        got = memo[key] = (frozenset(p for p in PASSES if all(b.reached(src, p, spell, decided=decided) for b in bs)), bs)
    return got[0]


def names_platform(cond: Node, src, *, arch: bool | None = None) -> bool:
    """Does the test of this #if name a platform macro (only architecture ones with arch=True)?"""
    t = test_node(cond)
    if t is None:
        return False
    names = [t] if t.type == "identifier" else list(_identifiers(t))
    for n in names:
        m = macro(src.text_of(n))
        if m is not None and (arch is None or m.arch == arch):
            return True
    return False


def _identifiers(node: Node):
    for c in node.named_children:
        if c.type == "identifier":
            yield c
        else:
            yield from _identifiers(c)


# -- what translate asks ------------------------------------------------------------------------
def cuda_only(node: Node, src, spell: Spell = written, memo: dict | None = None,
              decided: Mapping[int, int] | None = None) -> bool:
    """Compiled on no AMD pass (`#if __CUDA_ARCH__`, the #else of `#ifdef __HIP_PLATFORM_AMD__`)."""
    return not reach(node, src, spell, memo, decided) & AMD


def amd_only(node: Node, src, spell: Spell = written, memo: dict | None = None) -> bool:
    """Compiled on no NVIDIA pass (`#ifdef __HIP_PLATFORM_AMD__`, `#if __GFX9__`)."""
    return not reach(node, src, spell, memo) & NVIDIA


def never_on_amd(cond: Node, src, spell: Spell = written, decided: Mapping[int, int] | None = None) -> bool:
    """Is the test of this #if false on every AMD pass (its body vanishes there)?"""
    return all(holds(cond, src, p, spell, decided=decided) == 0 for p in AMD)


def never_compiled(cond: Node, src, spell: Spell = written) -> bool:
    """Is the test of this #if false on every pass, NVIDIA's too (`#if 0`): no build has its body."""
    return all(holds(cond, src, p, spell) == 0 for p in PASSES)


# -- what lint asks (device code) ---------------------------------------------------------------
def side_of(node: Node, src, pinned: frozenset[str] = frozenset(), known: Defines | None = None,
            memo: dict | None = None, ported: Mapping[int, int | None] | None = None) -> str | None:
    """'arch' under a test of the AMD architecture, else the one platform whose device code this is
    ('nvidia' / 'amd'), else None.  `pinned`: NVIDIA macros the project requires on every build
    (`pinned_on_amd`), unknown on the AMD passes rather than undefined; `known`: the unit's own macros
    its definitions decide (kernelport.unitdefines: `#define TURING_MMA_AVAILABLE` only under
    `#if __CUDA_ARCH__ >= 750`).  `memo` (one per src, pinned and known): the answer by the branches
    around the node, each conditional judged once however many nodes inside it are asked about.  `ported`:
    {test node id: value} of the NVIDIA architecture's tests the ports settle (arch_branches.ported): code an
    AMD pass compiles is what the build of the source as written compiles there (`__CUDA_ARCH__` undefined:
    the `#else`) and what the ports compile (the branch the newest architecture takes); a branch neither
    takes (`#elif __CUDA_ARCH__ >= 700` below `>= 800`) is NVIDIA's alone."""
    bs = branches(node, src)
    if memo is not None:
        key = tuple((b.test.id, b.in_else) for b in bs)
        if key not in memo:  # (with the branches: see `reach`)
            memo[key] = (side_of(node, src, pinned, known, ported=ported), bs)
        return memo[key][0]
    if any(names_platform(b.test, src, arch=True) for b in bs):
        return SIDE_ARCH
    dev = frozenset(p for p in DEVICE if all(b.reached(src, p, pinned=pinned, known=known) for b in bs) or
                    p in AMD and ported and all(b.reached(src, p, pinned=pinned, known=known, decided=ported) for b in bs))
    if dev == {AMD_DEVICE}:
        return SIDE_AMD
    if dev == {NVIDIA_DEVICE}:
        return SIDE_NVIDIA
    return None


def platform_guarded(node: Node, src, pinned: frozenset[str] = frozenset(), known: Defines | None = None) -> bool:
    """Device code written for one platform or one architecture (lint leaves its hazards alone)."""
    return side_of(node, src, pinned, known) is not None


def pinned_on_amd(src) -> frozenset[str]:
    """NVIDIA macros (kernelport.guards.MACROS) that the AMD build of `src` must define all the same:
    those tested by an `#if` that holds on every AMD pass and whose body is an `#error` reached there
    (faiss: `#if CUDA_VERSION < 8000` / `#error "CUDA >= 8.0 is required"`).  A build that compiles the
    file defines them (hipify spells CUDA_VERSION as HIP_VERSION), so code under `#if CUDA_VERSION >= 9000`
    is code the AMD build may compile, not NVIDIA's alone."""
    out: set[str] = set()
    for cond in src.index.of_types("preproc_if", "preproc_ifdef", "preproc_elif"):
        if not any(c.type == "preproc_call" and src.text_of(c.child_by_field_name("directive")) == "#error"
                   for c in cond.named_children):
            continue
        if not all(holds(cond, src, p) == 1 for p in AMD) or not reach(cond, src) & AMD:
            continue
        t = test_node(cond)
        names = [t] if t is not None and t.type == "identifier" else list(_identifiers(t)) if t is not None else []
        out.update(n for n in (src.text_of(i) for i in names)
                   if (m := macro(n)) is not None and not m.defined_on & AMD)
    return frozenset(out)
