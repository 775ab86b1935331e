"""A `case` label a function-like macro writes (heldout51: sacabench's cuda/cuda_util.cu,
`#define map_single_error_code(e) case e: out << #e; break;` used once per cudaError enumerator in
a switch; the cases here are synthetic): a use whose expansion is whole arms labelled with
enumerators HIP lacks is left out of the port whole, where main refused each such use (KP210);
anything less certain (a body that is not whole arms, an arm control falls into) stays refused."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def hip(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port


def errors(port) -> list[str]:
    return [d.code for d in port.diagnostics if d.severity == "error"]


SWITCH = """\
    #include <cuda_runtime.h>
    #include <ostream>
    #define ARM(e) BODY
    static void describe(cudaError e, std::ostream& out) {
        switch (e) {
        BEFORE
        ARM(cudaErrorMemoryAllocation)
        ARM(cudaErrorInvalidHostPointer)
        ARM(cudaErrorInvalidValue)
        default:
            out << "unknown";
        }
    }
    """
ARM = "case e: out << #e; break;"


def switch(body: str = ARM, before: str = "") -> str:
    return SWITCH.replace("BODY", body).replace("BEFORE", before)


def test_a_use_whose_expansion_is_a_whole_arm_for_an_enumerator_hip_lacks_is_left_out():
    port = hip(switch())
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "InvalidHostPointer" not in port.body
    assert "ARM(hipErrorOutOfMemory)\n    \n    ARM(hipErrorInvalidValue)\n" in port.body  # the others stay, renamed
    assert "#define ARM(e) case e: out << #e; break;" in port.body
    warn = [d for d in port.diagnostics if d.code == "KP210"]
    assert len(warn) == 1 and warn[0].severity == "warning"
    assert (warn[0].location.line, warn[0].location.column) == (8, 9)
    assert "`ARM(cudaErrorInvalidHostPointer)` writes `case cudaErrorInvalidHostPointer:`" in warn[0].message


def test_a_use_written_with_its_semicolon_is_left_out_too():
    code = switch().replace("ARM(cudaErrorInvalidHostPointer)", "ARM(cudaErrorInvalidHostPointer);")
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "InvalidHostPointer" not in port.body and "ARM(hipErrorInvalidValue)" in port.body


def test_a_list_of_arms_goes_only_where_every_label_is_one_hip_lacks():
    two = textwrap.dedent("""\
        #include <cuda_runtime.h>
        #define TWO(a, b) case a: return 1; case b: { return 2; }
        #define TWO_ARMS(a, b) case a: return 1; case b: return 2;
        int f(cudaError e) {
            switch (e) {
            TWO_ARMS(cudaErrorInvalidTexture, cudaErrorInvalidHostPointer)
            default: return 0;
            }
        }
        """)
    port = hip(two)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "InvalidTexture" not in port.body and "InvalidHostPointer" not in port.body
    assert len([d for d in port.diagnostics if d.code == "KP210"]) == 2
    # one label HIP has: the use cannot go, so the label HIP lacks stays refused, located
    port = hip(two.replace("cudaErrorInvalidTexture,", "cudaErrorInvalidValue,"))
    assert not port.ok and errors(port) == ["KP210"]
    # an arm that ends in a block, not a jump, is not read as whole
    port = hip(two.replace("TWO_ARMS(cudaErrorInvalidTexture", "TWO(cudaErrorInvalidTexture"))
    assert not port.ok and errors(port) == ["KP210", "KP210"]


def test_a_body_that_is_not_a_whole_arm_stays_refused():
    for body in ("case e:",  # a label alone: the statements after the use would lose their label
                 "case e: out << #e;",  # no jump: the arm falls into the next
                 "default: case e: out << #e; break;"):  # a label the use's argument does not write
        port = hip(switch(body))
        assert not port.ok, body
        assert errors(port) == ["KP210"], body
        assert port.diagnostics[0].location.line == 8
    # a pasted label (`e##_x`) names no enumerator of the toolkit: its argument is spelled, not read, and keeps
    # its CUDA spelling (kernelport/verbatim_args.py, since h/hip64b), so the label is the CUDA build's own name
    # so is one only stringified with no label at all (`out << #e;`: the CUDA build's string, no enumerator read)
    for body in ("case e##_x: out << 1; break;", "out << #e; break;"):
        port = hip(switch(body))
        assert port.ok and "    ARM(cudaErrorInvalidHostPointer)\n" in port.body, [d.format() for d in port.diagnostics]


def test_an_arm_control_falls_into_from_above_stays_refused():
    def above(arm: str) -> str:
        return switch(before=arm).replace("ARM(cudaErrorMemoryAllocation)", "")
    port = hip(above('case cudaErrorInitializationError: out << "init ";'))
    assert not port.ok and errors(port) == ["KP210"]
    port = hip(above("case cudaErrorInitializationError:"))  # the use's arm shares that label
    assert not port.ok and errors(port) == ["KP210"]
    # the same arm above ending in a jump: nothing falls into the use, which goes
    port = hip(above('case cudaErrorInitializationError: out << "init "; break;'))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "InvalidHostPointer" not in port.body
    # a use of whole arms above it (kept, renamed) ends in a jump too, whatever falls into that one
    port = hip(switch(before='case cudaErrorInitializationError: out << "init ";'))
    assert port.ok and "ARM(hipErrorOutOfMemory)" in port.body and "InvalidHostPointer" not in port.body


def test_a_use_naming_enumerators_hip_has_is_renamed_and_kept():
    port = hip(switch().replace("ARM(cudaErrorInvalidHostPointer)\n", ""))
    assert port.ok and not [d for d in port.diagnostics if d.code == "KP210"]
    assert "ARM(hipErrorOutOfMemory)" in port.body and "ARM(hipErrorInvalidValue)" in port.body


def test_a_use_outside_a_switch_stays_refused():
    port = hip(textwrap.dedent("""\
        #include <cuda_runtime.h>
        #define SET(e) x = e;
        int f() {
            int x = 0;
            SET(cudaErrorInvalidHostPointer)
            return x;
        }
        """))
    assert not port.ok and errors(port) == ["KP210"]
