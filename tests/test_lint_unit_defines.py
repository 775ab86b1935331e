"""Architecture tests spelled through the project's own macros (kernelport.unitdefines): ggml's
mmq_common.cuh (heldout24's mistralrs-quant) defines `GGML_CUDA_CC_TURING 750` and, only under
`#if __CUDA_ARCH__ >= GGML_CUDA_CC_TURING`, `TURING_MMA_AVAILABLE`; the PTX under
`#ifdef TURING_MMA_AVAILABLE` in mmq_mma.cuh is never compiled by hipcc (no `__CUDA_ARCH__`), so
PT002/WS007 leave it alone, where a definition an AMD pass can reach, a second different value, an
`#undef` or a -D keeps the code the AMD build's and its hazards reported."""
from __future__ import annotations

from pathlib import Path

from kernelport import guards
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.source import SourceFile
from kernelport.unitdefines import unit_defines

COMMON = """\
#ifndef COMMON_CUH
#define COMMON_CUH
#define CC_TURING 750
#define CC_AMPERE 800
#if __CUDA_ARCH__ >= CC_TURING
#define MMA_AVAILABLE
#endif
#endif
"""
USE = """\
__device__ int mma(int x) {
#ifdef MMA_AVAILABLE
    asm("mov.u32 %0, %1;" : "=r"(x) : "r"(x));
#endif
#if __CUDA_ARCH__ >= CC_AMPERE
    return __reduce_add_sync(0xffffffff, x);
#else
    return x;
#endif
}
"""


def _codes(findings) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in findings if f.code in ("PT001", "PT002", "WS007"))


# The `#if __CUDA_ARCH__ >= CC_AMPERE` branch is what the ports compile (the newest architecture's: stop 52,
# kernelport.arch_branches), so its 32-bit mask is WS007's at USE's line 6; the `#ifdef MMA_AVAILABLE` PTX stays
# NVIDIA's (a file-scope `#define` under an architecture test is not settled: no AMD pass defines it).
NEWEST = 6


def test_nvidia_only_macros_of_the_file_guard_their_code():
    assert _codes(lint_text(COMMON + USE, "t.cu")) == [("WS007", COMMON.count("\n") + NEWEST)]
    d = unit_defines([SourceFile.from_text(COMMON, "t.cu")])
    assert d.values == {"CC_TURING": 750, "CC_AMPERE": 800}
    assert d.nvidia_only == frozenset({"MMA_AVAILABLE"})


def test_the_definitions_in_an_included_header_decide(tmp_path: Path):
    (tmp_path / "common.cuh").write_text(COMMON)
    (tmp_path / "mma.cu").write_text('#include "common.cuh"\n' + USE)
    found = [f for r in lint_paths([tmp_path / "mma.cu"], jobs=1) for f in r.findings]
    assert _codes(found) == [("WS007", 1 + NEWEST)]


def test_a_definition_an_amd_pass_reaches_keeps_the_hazards():
    # also defined for the HIP build: the PTX and the `_sync` branch are the AMD build's too
    amd = COMMON.replace("#endif\n#endif", "#endif\n#ifdef __HIP_PLATFORM_AMD__\n#define MMA_AVAILABLE\n#endif\n#endif")
    assert _codes(lint_text(amd + USE.replace(">= CC_AMPERE", ">= CC_AMPERE || defined(MMA_AVAILABLE)"), "t.cu")) == \
        [("PT002", 14), ("WS007", 17)]
    # a test the AMD passes may pass (`||` an unknown option)
    either = COMMON.replace(">= CC_TURING", ">= CC_TURING || defined(USE_MMA)")
    assert _codes(lint_text(either + USE, "t.cu")) == [("PT002", 11), ("WS007", either.count("\n") + NEWEST)]


def test_values_must_be_one_unconditional_integer():
    # defined twice with different values, under an option, #undef'd, or given by -D: unknown
    for common in (COMMON.replace("#define CC_AMPERE 800", "#define CC_AMPERE 800\n#undef CC_AMPERE\n#define CC_AMPERE 0"),
                   COMMON.replace("#define CC_AMPERE 800", "#ifdef OLD\n#define CC_AMPERE 0\n#else\n#define CC_AMPERE 800\n#endif")):
        src = SourceFile.from_text(common, "t.cu")
        assert "CC_AMPERE" not in unit_defines([src]).values
        assert ("WS007", common.count("\n") + 6) in _codes(lint_text(common + USE, "t.cu"))
    src = SourceFile.from_text(COMMON, "t.cu")
    given = unit_defines([src], frozenset({"CC_TURING", "MMA_AVAILABLE"}))
    assert "CC_TURING" not in given.values and given.nvidia_only == frozenset()


def test_platform_macros_are_never_the_units():
    src = SourceFile.from_text("#define __CUDA_ARCH__ 800\n#define CUDA_VERSION 12000\n", "t.cu")
    d = unit_defines([src])
    assert d.values == {} and d.nvidia_only == frozenset()
    assert guards.macro("__CUDA_ARCH__") is not None


def test_a_macro_defined_under_an_nvidia_only_one_is_nvidia_only_too():
    chain = COMMON.replace("#endif\n#endif", "#endif\n#if defined(MMA_AVAILABLE) && CC_AMPERE > 700\n#define FAST_MMA\n#endif\n#endif")
    assert unit_defines([SourceFile.from_text(chain, "t.cu")]).nvidia_only == frozenset({"MMA_AVAILABLE", "FAST_MMA"})
    assert _codes(lint_text(chain + USE.replace("#ifdef MMA_AVAILABLE", "#ifdef FAST_MMA"), "t.cu")) == \
        [("WS007", chain.count("\n") + NEWEST)]
    either = chain.replace("defined(MMA_AVAILABLE) &&", "defined(MMA_AVAILABLE) || defined(USE_FAST) ||")
    assert unit_defines([SourceFile.from_text(either, "t.cu")]).nvidia_only == frozenset({"MMA_AVAILABLE"})
