"""`#if __CUDA_ARCH__ >= N` where both of nvcc's passes compile the code: a `__host__ __device__` function's
body, file scope (a `#define`, a constant, a host function beside device ones).

nvcc compiles such code twice: on its device pass `__CUDA_ARCH__` is the architecture built (CUDA 13's newest
takes the branch the emulator's original and the device oracle's GPU run: kernelport/arch_branches.py), on its
host pass it is undefined.  hipcc defines it on neither pass, so a port that keeps the conditional compiles the
host's branch on the GPU too: `#if __CUDA_ARCH__ >= 700` / `#define SCALE 2.0f` / `#else` / `#define SCALE 1.0f`
gave the HIP kernel 1.0f where the CUDA kernel reads 2.0f; a `__host__ __device__` function computed its host
arithmetic on the GPU.  The port says what nvcc's passes see, in the target's device-pass macro (the backend's
`device_pass_macros`: HIP's `__HIP_DEVICE_COMPILE__`, defined by hipcc's device pass alone, checked with hipcc
5.2; Metal's `__METAL_VERSION__`; the portable port's `KP_DEVICE_PASS`, which kp_warp.h defines on nvcc's device
pass and on hipcc's):

    #if defined(__HIP_DEVICE_COMPILE__)
    <the branch the newest architecture takes, as arch_branches chooses it (a portable fallback too)>
    #else
    <the branch the host pass takes (`__CUDA_ARCH__` undefined)>
    #endif

Only where the two passes take different branches: where they take the same one, hipcc's reading of the
conditional as written is already that branch on both passes, and the text is kept.  The tests read only
`__CUDA_ARCH__` (as a value or `defined`), numbers and the values arch_branches.known_values decides
(`#define VOLTA 700`, the toolkit's `CUDART_VERSION`); a bare `#ifdef __CUDA_ARCH__` is device_pass's respelling.
A host-only function's conditional keeps its text (only the host pass runs it), but for a test of the
toolkit's version alone, which every pass reads alike (kernelport/version_branches.py).  Branches neither pass takes
(older architectures') are left out, with KP237 where their ports differ from the device pass's.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from . import arch_branches, backends, fnscopes, guards, ptx_branches, version_branches

_DEVICE_PASSES = (guards.NVIDIA_DEVICE, guards.AMD_DEVICE, "no-platform")  # "no-platform": Metal's only pass


@dataclass(frozen=True)
class Split:
    """A conditional whose device and host compiler passes take different branches."""
    choice: arch_branches.Choice  # its `taken`: the device pass's branch
    host: int  # the branch nvcc's host pass takes (len(arms) where there is no `#else`)
    macro: str  # the target's device-pass macro
    alone: bool = False  # in code no host pass compiles (under `#ifdef __CUDA_ARCH__`): the device's branch alone
    version: bool = False  # a test of the toolkit's version alone: every pass's branch, alone (version_branches)


def _both_passes(tr, node: Node) -> bool:
    """Is `node` where nvcc's host and device passes both compile it: a `__host__ __device__` function's body,
    or file scope (no function holds it)."""
    if tr.module.function_at(node) is None:
        return True
    f = fnscopes.of(tr.module).function(fnscopes.owner(tr.module, node))
    return f is not None and f.is_device and f.is_host and f.body is not None and \
        f.body.start_byte < node.start_byte and node.end_byte <= f.body.end_byte


def splits(tr) -> list[Split]:
    """The conditionals of `tr`'s source that nvcc's passes read differently and the port splits (once per
    translator)."""
    got = tr.__dict__.get("_kp_pass_splits")
    if got is not None:
        return got
    got = tr.__dict__["_kp_pass_splits"] = []
    macro = backends.get(tr.backend).device_pass_macros.get(ptx_branches.ARCH)
    at = arch_branches.archs()
    if macro is None or not at:
        return got
    taken = {c.node.id for c in arch_branches.choices(tr)}
    names = arch_branches.known_values(tr)
    for node in tr.src.index.of_type("preproc_if"):
        if node.id in taken:
            continue
        if not _both_passes(tr, node):  # one pass compiles it, which reads the toolkit's version too
            if (v := version_branches.choice(tr, node, names)) is not None:
                got.append(Split(v, v.taken, macro, True, True))
            continue
        c = arch_branches._choice(tr.src, node, at, names)  # noqa: SLF001 - the same reading of the tests
        if c is None and (v := version_branches.choice(tr, node, names)) is not None:
            got.append(Split(v, v.taken, macro, True, True))
            continue
        if c is None or (host := arch_branches._branch_at(tr.src, c, None, names)) is None:
            continue
        if tr.module.function_at(node) is None and arch_branches._device_functions_only(tr.module, c, True):  # noqa: SLF001
            continue  # device code alone (an architecture's specialization, which arch_branches keeps): no host pass reads it
        c = arch_branches._portable(tr, c, at, names)  # noqa: SLF001
        if guards.NVIDIA_HOST not in guards.reach(node, tr.src):  # (nested in `#ifdef __CUDA_ARCH__`)
            got.append(Split(c, c.taken, macro, True))
        elif c.taken != host:
            got.append(Split(c, host, macro))
    return got


def decided(tr) -> dict[int, dict[str, int]]:
    """{test node id: {pass: whether it holds there}} of the split conditionals' tests: the device passes take
    the device branch, the host passes the host's (guards.holds reads a per-pass value)."""
    return {arm.id: {p: int(i == (s.choice.taken if p in _DEVICE_PASSES else s.host)) for p in (*guards.PASSES, "no-platform")}
            for s in splits(tr) for i, arm in enumerate(s.choice.arms) if arm.type != "preproc_else"}


def take_pass(tr) -> None:
    """A translator pass: each split conditional becomes its device branch under the device-pass macro and its
    host branch under `#else`; KP237 where a branch left out ports to other code than the device branch."""
    from .diagnostics import Diagnostic
    for s in splits(tr):
        c = s.choice
        bodies = [arch_branches._body(tr.src, a) for a in c.arms]  # noqa: SLF001
        if c.arms[-1].type != "preproc_else":
            bodies.append((c.node, c.node.end_byte, c.node.end_byte))
        line_start = tr.src.data.rfind(b"\n", 0, c.node.start_byte) + 1
        indent = tr.src.data[line_start:c.node.start_byte].decode("utf-8", "replace")
        indent = indent if not indent.strip() else ""

        def render(rw, node, bodies=bodies, s=s, indent=indent) -> str:
            def text(i: int) -> str:
                holder, a, b = bodies[i]
                t = rw.span(holder, a, b).rstrip(" \t")
                return t if not t or t.endswith("\n") else t + "\n"
            dev, host = text(s.choice.taken), text(s.host)
            if s.alone:
                return dev[:-1] if dev.endswith("\n") else dev  # (the `#endif` line's newline stays)
            if not host.strip():
                return f"#if defined({s.macro})\n{dev}{indent}#endif"
            if not dev.strip():
                return f"#if !defined({s.macro})\n{host}{indent}#endif"
            return f"#if defined({s.macro})\n{dev}{indent}#else\n{host}{indent}#endif"
        ported = [arch_branches._normal(tr.rw.span(h, a, b)) for h, a, b in bodies]  # noqa: SLF001
        if s.alone and indent:
            tr.rw.drop_span(line_start, c.node.start_byte)  # `    #if`: the code keeps its own indentation
        tr.rw.replace(c.node, render)
        rows = arch_branches.rows(tr, c, len(bodies))
        if s.version:
            tr.note(c.node, "(the branch taken)", f"both of nvcc's passes take the branch at {rows[c.taken]} (the CUDA "
                    "toolkit's version macros, which the target does not define)")
            continue
        tr.note(c.node, "(the branch taken)" if s.alone else f"#if defined({s.macro})", f"nvcc's device pass takes the "
                f"branch at {rows[c.taken]} (NVIDIA's newest architecture), " + ("and no host pass compiles it" if s.alone
                                                                                 else f"its host pass the branch at {rows[s.host]}"))
        out = [i for i in range(len(bodies)) if i not in (c.taken, s.host)]
        if s.alone and len(set(ported)) > 1:  # (as arch_branches says it of a device function's)
            tr.port.diagnostics.append(Diagnostic("KP237", tr.src.loc(c.node), arch_branches.warning(tr, c, rows),
                                                  arch_branches.HINT, "warning"))
        elif not s.alone and (any(ported[i] != ported[c.taken] for i in out) or c.unported):
            left = (f"; the branch{'es' if len(out) > 1 else ''} at {', '.join(rows[i] for i in out)} "
                    f"{'are' if len(out) > 1 else 'is'} left out") if out else ""
            held = (f" (the branch NVIDIA GPUs run holds {c.unported}, which {tr.backend.upper()} has no port of: the "
                    "device pass takes the portable one, which kernelport does not show equivalent)" if c.unported else
                    " (their ports differ, which kernelport does not show equivalent)")
            tr.port.diagnostics.append(Diagnostic("KP237", tr.src.loc(c.node), (
                f"code both of nvcc's passes compile branches on the NVIDIA architecture: the port's device pass "
                f"(`{s.macro}`) takes the branch at {rows[c.taken]}, its host pass the branch at {rows[s.host]}, as "
                f"nvcc's do{left}{held}"), arch_branches.HINT, "warning"))
