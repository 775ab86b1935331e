"""API enumerators and scopes on HIP (found on the seventeenth held-out set, chrxh/alien's
Macros.cuh and CellProcessor.cuh; the cases here are synthetic): a `case` label naming an
enumerator HIP lacks is left out (the runtime never produces it) where it refused every file that
included the header; an enum's name as a scope (`cudaError::X`) is renamed with its value; CUDA's
block-scoped atomics are the device-scoped ones ROCm 5.2 has."""
from __future__ import annotations

import textwrap

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate


def hip(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port


SWITCH = """\
    #include <cuda_runtime.h>
    const char* describe(cudaError_t result)
    {
        switch (result) {
        case cudaError::cudaErrorInsufficientDriver:
            return "driver";
        case LABEL:
            return "ptx";
        case cudaErrorMemoryAllocation:
        case cudaErrorInitializationError:
            return "memory";
        default:
            return "other";
        }
    }
    """


def test_a_case_label_naming_an_enumerator_hip_lacks_is_left_out_its_statements_stay():
    port = hip(SWITCH.replace("LABEL", "cudaError::cudaErrorUnsupportedPtxVersion"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "UnsupportedPtxVersion" not in port.body
    assert "    \n        return \"ptx\";" in port.body  # the label's line stays, blank
    assert "case hipErrorOutOfMemory:\n    case hipErrorNotInitialized:" in port.body
    warn = [d for d in port.diagnostics if d.code == "KP210"]
    assert len(warn) == 1 and warn[0].severity == "warning" and warn[0].location.line == 7
    assert "never produces that value" in warn[0].message


def test_a_bare_label_too_and_its_body_falls_through_as_before():
    port = hip(SWITCH.replace("LABEL", "cudaErrorUnsupportedPtxVersion"))
    assert port.ok and "UnsupportedPtxVersion" not in port.body


def test_the_same_enumerator_anywhere_but_a_case_label_is_still_refused():
    for use in ("cudaError_t e = cudaErrorUnsupportedPtxVersion;",
                "if (result == cudaErrorUnsupportedPtxVersion) return \"ptx\";"):
        port = hip(f"#include <cuda_runtime.h>\nconst char* f(cudaError_t result) {{ {use} return \"\"; }}\n")
        assert not port.ok
        assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP210"]


def test_a_case_label_naming_a_macro_hip_lacks_is_not_an_enumerator():
    """Only an enumerator: a label naming a macro the table has no spelling for (a value the program
    may well produce itself) stays refused."""
    table = backends.get("hip").api()
    missing = next(e.cuda for e in table.entries.values()
                   if not e.supported and e.kind.endswith("-macro") and e.cuda.startswith("CUDA"))
    port = hip(SWITCH.replace("LABEL", missing))
    assert not port.ok
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP210"]


def test_an_enums_name_as_a_scope_is_renamed_with_its_value():
    port = hip(SWITCH.replace("LABEL", "cudaErrorInvalidValue"))
    assert port.ok
    assert "case hipError_t::hipErrorInsufficientDriver:" in port.body
    assert "cudaError::" not in port.body


def test_block_scoped_atomics_are_the_device_scoped_ones():
    port = hip("""\
        __global__ void count(int* bins, const int* keys, float* sum, const float* v, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                atomicAdd_block(&bins[keys[i]], 1);
                atomicAdd_block(sum, v[i]);
                atomicCAS_block(&bins[0], 0, keys[i]);
            }
        }
        """)
    assert port.ok
    assert "atomicAdd(&bins[keys[i]], 1);" in port.body and "atomicAdd(sum, v[i]);" in port.body
    assert "atomicCAS(&bins[0], 0, keys[i]);" in port.body and "_block" not in port.body
