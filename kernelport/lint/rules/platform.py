"""PT: CUDA-only features outside platform guards.  Errors when a HIP or Metal target is on."""
from __future__ import annotations

from ... import backends
from ..rule import BACKEND, SOURCE_TARGETS, Rule, ex, register
from ..triggers import INLINE_ASM


def _missing(c, targets) -> list[str]:
    names = sorted({BACKEND[t] for t in targets if not backends.get(BACKEND[t]).is_source})
    return [b for b in names if c.spelling(b) is None]


@register
class CudaOnlyIntrinsic(Rule):
    code, name = "PT001", "cuda-only-intrinsic"
    summary = "A CUDA-only intrinsic is used outside a platform guard."
    docs = """\
Intrinsics the dialect table has no HIP (or Metal) spelling for: `__nanosleep`,
`__isShared`/`__isGlobal`, `__prof_trigger`, and on Metal `__cvta_generic_to_shared` (HIP: the
LDS offset clang's address-space cast gives, as for PTX's cvta.to.shared) and `__cvta_generic_to_global`
(HIP: the pointer's own bits, AMD's flat and global addresses being one), `__reduce_add_sync`
and the other `__reduce_*_sync` (HIP: an xor tree of shuffles over the group's lanes, for CUDA's
full mask) and `__match_any_sync`/`__match_all_sync` (HIP: a loop of ballots over the group's
lanes, for CUDA's full mask).  The port does not compile on AMD (and Metal).

**Fix**: rewrite with portable warp operations (shuffles and ballots), or keep the CUDA path
under `#ifdef __CUDA_ARCH__` / `#if !defined(__HIP_PLATFORM_AMD__)` with a portable `#else`.
Uses inside any platform guard stay silent."""
    flags = (
        ex("""
__device__ unsigned peers(int key) {
    return __match_any_sync(0xffffffff, key);  // !
}"""),
    )
    passes = (
        ex("""
__device__ unsigned peers(int key) {
#ifdef __CUDA_ARCH__
    return __match_any_sync(0xffffffff, key);
#else
    return 0;
#endif
}"""),
    )

    def severity(self, targets):
        return "error" if targets - SOURCE_TARGETS else None

    def check(self, ctx) -> None:
        for use in ctx.module.uses:
            c, node = use.concept, use.node
            if node.type != "call_expression" or c.kind not in ("cuda_only", "warp_reduce"):
                continue
            missing = _missing(c, ctx.targets)
            if not missing or ctx.guarded(node):
                continue
            fn = node.child_by_field_name("function")
            where = " and ".join(backends.get(b).display_name for b in missing)
            way = "rewrite it with shuffles and ballots, or guard" if c.kind == "warp_reduce" or c.warp_level else "guard"
            ctx.report(self, fn, f"`{ctx.text(fn)}` is CUDA-only: it has no {where} equivalent, so the port does not "
                       f"compile there; {way} it with `#ifdef __CUDA_ARCH__` and a portable `#else`")


@register
class InlinePtx(Rule):
    code, name = "PT002", "inline-ptx"
    triggers = INLINE_ASM  # every report is one of the model's asm statements
    summary = "Inline PTX assembly outside a platform guard."
    docs = """\
`asm("mov.u32 %0, %%laneid;" : "=r"(lane))` and other inline PTX only assemble for NVIDIA
GPUs; HIP and Metal compilers reject it.  Lane-id PTX is also a warp-size assumption in
disguise.  The message says what `kernelport translate` does with the statement per backend: a
known idiom written in the port's spelling, a carry-flag statement (`add.cc`, `addc`) ported with
the flag as a variable passed through the calls where the backend spells one, or refused (KP201).

**Fix**: use the intrinsic (`__lane_id()` on HIP, `threadIdx.x % warpSize`, `__activemask()`),
or guard the PTX with `#ifdef __CUDA_ARCH__` and give the other platforms a portable path.
Assembly inside any platform guard (including AMD GCN assembly under
`#ifdef __HIP_PLATFORM_AMD__`) stays silent, and so does a guard spelled through the project's
own macros where its definitions decide it: ggml's `#ifdef TURING_MMA_AVAILABLE`, a macro its
header defines only under `#if __CUDA_ARCH__ >= GGML_CUDA_CC_TURING` (kernelport.unitdefines).
In device code under `#if __CUDA_ARCH__ >= N`, the branch the newest NVIDIA architecture takes is
what the ports compile (kernelport.arch_branches) and the others are NVIDIA's: PTX there is reported
only where a port refuses it (a build of the source as it is compiles the `#else` instead).

In a header the directory walk found (not one named on the command line), the PTX of device functions that no
file of the run calls (directly, or only through the header's own functions that none calls) is reported once:
one PT002 at the first such statement that counts them and names the functions, each statement a `site` of it
(JSON `related`, SARIF `relatedLocations`): a vendored SDK's wrappers (OptiX's `optix_device_impl.h`) are not
compiled into any kernel of the project.  Statements of functions the run calls, a header named on the command
line and a line that suppresses PT002 keep one finding each; the severity, so the exit code, is unchanged
(kernelport/lint/uncalledptx.py)."""
    flags = (
        ex("""
__device__ unsigned lane_id() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));  // !
    return lane;
}"""),
    )
    passes = (
        ex("""
__device__ unsigned lane_id() {
#if defined(__CUDA_ARCH__)
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
#else
    return threadIdx.x % warpSize;
#endif
}"""),
    )

    def severity(self, targets):
        return "error" if targets - SOURCE_TARGETS else None

    def check(self, ctx) -> None:
        from ..portedtests import port_backends
        from ..uncalledptx import uncalled
        targets = port_backends(ctx.targets)
        found = []
        for node, _fn in ctx.module.asm:
            if ctx.guarded(node):
                continue
            said = _what_translate_does(ctx, node, targets, (ctx.arch_reading(node) or (True,))[0] is False)
            if said:
                found.append((node, said))
        summed = uncalled(ctx, [n for n, _ in found])
        for node, said in found:
            if node.start_byte not in summed:
                ctx.report(self, node, "inline PTX assembly only assembles for NVIDIA GPUs: " + said)
        if summed:
            self._summary(ctx, [(n, s) for n, s in found if n.start_byte in summed])

    def _summary(self, ctx, found) -> None:
        """One finding for a walked header's PTX in functions no code of the run calls (uncalledptx.py)."""
        names = list(dict.fromkeys(ctx.module.function_at(n).name for n, _ in found))
        shown = ", ".join(f"`{x}`" for x in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        ctx.report(self, found[0][0], f"inline PTX assembly only assembles for NVIDIA GPUs: {len(found)} statements "
                   f"in {len(names)} device function{'s' * (len(names) > 1)} of this header ({shown}) that no "
                   f"file of this run calls, each a site of this finding; reported once, as none is compiled into "
                   f"a kernel of the run (`kernelport translate` declares such a function unavailable: a call "
                   f"compiled later is an error); the first: " + found[0][1],
                   related=tuple(ctx.related(n, "inline PTX in a function no file of the run calls", site=True)
                                 for n, _ in found[1:]))


def _what_translate_does(ctx, node, targets: list[str], settled: bool = False) -> str:
    """What `kernelport translate` writes for the asm statement, per backend (as kernelport.inline_asm
    decides: a known idiom in the backend's spelling; a carry flag's statement as a C variable passed
    through the calls where the backend spells one), so lint says what the port does.  `settled`: in the branch of
    an `#if __CUDA_ARCH__ >= N` the ports take (ctx.arch_reading), which a build of the source as written never
    compiles: "" where every port writes it (nothing fails to build)."""
    from ... import asm_templates, dialect, ptx_idioms
    from ...carry_calls import flag_statement
    text = asm_templates.text(ctx.src, node, getattr(ctx.settings.includes, "defines", ()) or ())  # (macros' literals)
    ported, carried, refused, trapped = [], [], [], []
    names = ctx.unit_defines.values if "#" in text else None  # (`#if __CUDA_ARCH__ >= VOLTA` inside the template)
    idiom = ptx_idioms.match(text)
    for b in targets:
        f = ctx.module.function_at(node)
        if ptx_idioms.port(text, b, True, ptx_idioms.shared_in(ctx.src, f), names=names) is not None:
            ported.append(b)
        elif flag_statement(text) and dialect.concept("ptx_carry_param").spelling(b) is not None:
            carried.append(b)
        elif idiom is not None and idiom.key == "ptx_trap" and len(idiom.writes) == 1 and \
                "__trap" in getattr(backends.get(b), "assertion_calls", {}):
            trapped.append(b)  # (kernelport/backends/metal/assertions.py's asm_traps)
        else:
            refused.append(b)
    def name(bs: list[str]) -> str:
        shown = [backends.get(b).display_name for b in bs]
        return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
    said = []
    if ported:
        said.append(f"`kernelport translate` writes this idiom in the {name(ported)} port{'s' * (len(ported) > 1)}' own spelling"
                    .replace("port' own", "port's own"))
    if carried:
        said.append(f"`kernelport translate` ports this carry-flag statement for {name(carried)} with the flag as a "
                    "C variable passed through the calls that chain it (KP201 where it cannot follow the flag)")
    if trapped:
        said.append(f"the {name(trapped)} port{'s' * (len(trapped) > 1)} record{'s' * (len(trapped) == 1)} this trap as "
                    "CUDA's __trap(): a check the host reads back, since the kernel cannot be stopped")
    if settled and not refused:
        return ""
    if refused:
        said.append(f"the {name(refused)} port{' refuses' if len(refused) == 1 else 's refuse'} it (KP201): use the equivalent intrinsic, or guard it with "
                    "`#ifdef __CUDA_ARCH__` and a portable `#else`")
    return "; ".join(said) + ("" if refused or settled else "; a build that compiles this CUDA source as it is "
                              "(hipify) fails on it")
