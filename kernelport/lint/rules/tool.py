"""KP: kernelport's own findings: files it could not read or parse, and suppressions that do
nothing.  The engine reports them (they are not about the code's meaning); they are rules so that
they can be selected, ignored, documented and shown in SARIF like the others."""
from __future__ import annotations

from ... import lazy_re
from ...macros import NEVER
from ..rule import Rule, ex, register

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
# Words that only device code holds: what a hidden branch must hold to be reported (KP008).
_DEVICE_WORDS = frozenset("""__global__ __device__ threadIdx blockIdx blockDim __syncthreads __syncwarp warpSize
__shfl __shfl_sync __shfl_xor __shfl_xor_sync __shfl_down __shfl_down_sync __shfl_up __shfl_up_sync __ballot
__ballot_sync __activemask __any_sync __all_sync""".split())


class EngineRule(Rule):
    def check(self, ctx) -> None:
        """Reported by the engine (`kernelport.lint.engine`), not by walking the code."""


@register
class ParseError(EngineRule):
    code, name = "KP001", "parse-error"
    summary = "The file has a syntax error; it is linted where it could be parsed."
    docs = """\
kernelport reads CUDA C++ with an error-tolerant grammar: the rest of the file is still linted,
and the first problem of each statement is reported at its location.  The exit code is 2 (a
parse error), unless `--exit-zero`.  `--fix` never touches a file with a syntax error.

**Fix**: make the code compile with nvcc.  Macro-heavy code that nvcc accepts but the grammar
cannot read (a function-like macro expanding to a declaration without a trailing `;`) can be
suppressed per file with `per-file-ignores`."""
    flags = (ex("""
__global__ void k(float* x) {
    x[0] = (1 + ;  // !
}"""),)
    passes = (ex("""
__global__ void k(float* x) { x[0] = 1.0f; }"""),)


@register
class UnreadableFile(EngineRule):
    code, name = "KP002", "unreadable-file"
    summary = "A file could not be read (missing, unreadable, or not UTF-8)."
    docs = """\
Reported at the first byte that is not UTF-8 (line and column), or at 1:1.  Exit code 2.

**Fix**: save the file as UTF-8."""


@register
class UnusedSuppression(EngineRule):
    code, name = "KP003", "unused-suppression"
    summary = "A suppression comment suppresses nothing."
    docs = """\
`// kernelport: ignore[WS002] ...` or `// NOLINT(WS002)` on a line where no WS002 finding is
reported any more: the code was fixed, or the comment is on the wrong line.  Stale suppressions
hide future findings, so they are reported (like ruff's RUF100).  Only codes of rules that are
enabled for the file are checked; a bare `NOLINT` (shared with clang-tidy) never is.

**Fix**: delete the suppression (or the unused code in its list)."""
    flags = (ex("""
__global__ void k(float* x) {
    x[threadIdx.x] = 0.0f;  // kernelport: ignore[WS002] leftover  // !
}"""),)
    passes = (ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % 32;  // kernelport: ignore[WS002] NVIDIA-only kernel
    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], lane + 1);  // NOLINT(WS007)
}"""),)

    def severity(self, targets):
        return "warning"


@register
class SuppressionWithoutReason(EngineRule):
    code, name = "KP004", "suppression-without-reason"
    summary = "A `kernelport: ignore[...]` suppression gives no reason."
    docs = """\
Write why the finding does not apply after the code list:
`// kernelport: ignore[WS002] this kernel only ever runs on NVIDIA`.  The reason is what a
reviewer (or you, porting to MI300 next year) reads.  clang-tidy style `NOLINT` comments are
accepted without a reason.

**Fix**: add the reason."""
    flags = (ex("""
__global__ void k(float* x) {
    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], threadIdx.x % 32 ^ 1);  // kernelport: ignore[WS002]  // !
}"""),)

    def severity(self, targets):
        return "warning"


@register
class UnknownRuleCode(EngineRule):
    code, name = "KP005", "unknown-rule-code"
    summary = "A suppression names a rule code that does not exist."
    docs = """\
`// kernelport: ignore[WS099]` or `NOLINT(WS99)`: a typo, or a rule that was renamed.  The
suppression has no effect.

**Fix**: use a code from `kernelport rule` (or a family prefix such as `WS`)."""
    flags = (ex("""
__global__ void k(float* x) {
    x[threadIdx.x] = 0.0f;  // kernelport: ignore[WS099] typo  // !
}"""),)

    def severity(self, targets):
        return "warning"


@register
class InvalidAnnotation(EngineRule):
    code, name = "KP007", "invalid-annotation"
    summary = "A `// @kp` annotation is invalid (the other commands stop on it with exit 2)."
    docs = """\
The annotations that `verify` runs a kernel with (docs/annotations.md) are checked as translate
and verify check them: an unknown key, a malformed value, an expression that is not valid C or
whose value is out of range (a division by zero, a grid over the hardware limit, a scalar that
does not fit its type).  The first problem of the file is reported at its location, with a hint.
The exit code is 2, as for a parse error, unless `--exit-zero`.

**Fix**: correct the annotation; the message says what and where."""
    flags = (ex("""
// @kp kernel    k
// @kp grid      ceil_div(n, 0)  // !
// @kp block     256
// @kp arg       x out float[n]
// @kp scalar    n = 1000
// @kp reference k_ref(x, n)
__global__ void k(float* x, int n) { x[threadIdx.x] = 0.0f; }
void k_ref(float* x, int n) { for (int i = 0; i < n; ++i) x[i] = 0.0f; }"""),)
    passes = (ex("""
// @kp kernel    k
// @kp grid      ceil_div(n, 256)
// @kp block     256
// @kp why       one thread per element
// @kp arg       x out float[n]
// @kp scalar    n = 1000
// @kp reference k_ref(x, n)
__global__ void k(float* x, int n) { x[threadIdx.x] = 0.0f; }
void k_ref(float* x, int n) { for (int i = 0; i < n; ++i) x[i] = 0.0f; }"""),)


@register
class InternalError(EngineRule):
    code, name = "KP006", "internal-error"
    summary = "A rule, or the analysis of this file, failed (a kernelport bug); every other file is still linted."
    docs = """\
kernelport never stops on one bad rule or one bad file: the failure is reported at the top of the
file with the rule (or the stage: the model, warpflow, the engine) and the exception, every other
rule still runs, and every other file is linted and reported.  It is an error like any other
finding (exit 1); exit 3 is left for a failure outside any one file.  Please report it with the
input file.

**Fix**: none on your side; `--ignore` the failing rule until it is fixed."""


@register
class CodeHiddenToParse(Rule):
    code, name = "KP008", "code-hidden-to-parse"
    summary = "To parse the file, kernelport read a conditional as one build's branch, hiding device code with no other branch kept."
    docs = """\
Where the grammar cannot read a file, kernelport tries each preprocessor conditional near the error
as taken and as not taken, and keeps the reading that leaves the least in error.  When that
reading blanks device code with no other branch in its place (AMReX's `AMReX_Scan.H` linted without
its build's `-DAMREX_USE_GPU`: `#if defined(AMREX_USE_GPU)` read as not taken blanks every kernel),
that code is not linted at all: reported here, at the hidden branch, so that "no findings" is not
read as "checked".  A branch hidden while its `#else` is kept, and `#if 0`, are not reported; an
include guard (`#ifndef X` / `#define X`) is read as taken, as the file's first compile reads it.

**Fix**: let kernelport read the macros the code needs (`-I` to the project's headers, `-D` for its
configuration), or make each branch of the conditional parse on its own."""
    flags = (ex("""
#ifdef USE_GPU
#include <cstdint>  // !
template <typename T>
struct Status {
    T v;
    DEV_FN DEV_INLINE
#ifdef USE_SYCL
    void put (T a, sycl::nd_item<1> const& item) {
#else
    void put (T a) {
#endif
        v = a;
    }
    DEV_FN DEV_INLINE
    T get () volatile { return v; }
    DEV_FN DEV_INLINE
#if defined(USE_SYCL)
    T wait (sycl::nd_item<1> const& item) volatile {
#else
    T wait () volatile {
#endif
        T r;
        do {
#if defined(USE_SYCL)
            sycl::group_barrier(item.get_sub_group());
#else
            __threadfence_block();
#endif
            r = v;
        } while (r == 0);
        return r;
    }
};
template <typename T>
__global__ void k(Status<T>* s, T* x) { x[threadIdx.x] += __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1); }
#endif""", note="the header's parse fails early; reading `#ifdef USE_GPU` as not taken hides it all, the 32-bit mask with it"),)
    passes = (ex("""
#if defined(__HIP_PLATFORM_AMD__)
__global__ void k(float* x) { x[threadIdx.x] = __shfl_xor(x[threadIdx.x], 1); }
#else
__global__ void k(float* x) { x[threadIdx.x] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1); }
#endif"""),)

    def severity(self, targets):
        return "warning"

    def check(self, ctx) -> None:
        for m in ctx.src.masks:
            if not m.reason.startswith("conditional (") or m.alternative or m.reason == NEVER:
                continue
            words = set(_WORD.findall(ctx.src.text[m.start:m.end]))
            device = sorted(words & _DEVICE_WORDS)
            if not device:
                continue
            first, last = ctx.src.location(m.start), ctx.src.location(max(m.start, m.end - 1))
            taken = "not taken" if m.reason.endswith("(not taken)") else "taken"
            eol = ctx.src.data.find(b"\n", m.start, m.end)
            ctx.report(self, (m.start, eol if eol > m.start else m.end),
                       f"to get past a syntax error kernelport read `#{m.name}` as {taken}: lines {first.line}-{last.line} "
                       f"({', '.join('`' + w + '`' for w in device[:3])} among them) are blank to it and not linted; give it "
                       f"the project's -I and -D, or make each branch parse on its own")
