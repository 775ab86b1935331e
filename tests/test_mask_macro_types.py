"""A ballot kept in a type named by an object-like macro (`#define WORD uint32_t`, a Hopfield
network's bit-packed recall: `WORD newStates = __ballot(newState); states[i / 32] = newStates;`).
The macro was not read as a type: the HIP port compiled and kept 32 of a 64-lane wave's ballot
bits in the `WORD` array (with 64-thread blocks, lanes 32-63 lost), and lint said nothing.  Now
the macro is an alias like a typedef (warpsites.type_aliases): the store is refused KP207 and lint
reports WS008; a macro naming a 64-bit type, and macros that are not types, change nothing."""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

PACK = """
#include <cstdint>
#define WORD TYPE
#define WORD_SIZE 32
#define BLOCK_SIZE 64

__global__ void pack(size_t size, WORD *states, const float *v) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        bool b = v[i] > 0.0f;
        WORD bits = __ballot_sync(__activemask(), b);
        states[i / WORD_SIZE] = bits;
    }
}

void run(size_t size, WORD *s, const float *v) {
    pack<<<(size + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(size, s, v);
}
"""


def hip(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port


def errors(port) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def ws008(code: str) -> set[int]:
    return {f.line for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS008"}


def test_a_ballot_stored_in_memory_of_a_macro_named_32_bit_type_is_refused():
    for t in ("uint32_t", "unsigned int", "unsigned"):
        code = PACK.replace("TYPE", t)
        port = hip(code)
        assert not port.ok, t
        assert errors(port) == [("KP207", 12)], (t, [d.format() for d in port.diagnostics])
        assert ws008(code) == {11, 12}, t


def test_a_macro_defined_twice_under_if_branches_takes_the_32_bit_one():
    code = PACK.replace("#define WORD TYPE", "#ifdef WIDE\n#define WORD uint64_t\n#else\n#define WORD uint32_t\n#endif")
    port = hip(code)
    assert not port.ok
    assert [c for c, _ in errors(port)] == ["KP207"], [d.format() for d in port.diagnostics]


def test_a_macro_named_64_bit_type_keeps_the_ballot_and_is_written():
    for t in ("uint64_t", "unsigned long long"):
        code = PACK.replace("TYPE", t)
        port = hip(code)
        assert port.ok, (t, [d.format() for d in port.diagnostics])
        assert "WORD bits = __ballot(b);" in port.body
        assert ws008(code) == set(), t


def test_a_32_bit_macro_type_holding_no_ballot_stays():
    code = PACK.replace("TYPE", "uint32_t").replace("__ballot_sync(__activemask(), b)", "b ? 1u : 0u")
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "WORD bits = b ? 1u : 0u;" in port.body
    assert ws008(code) == set()


def test_only_macros_naming_types_are_aliases():
    from kernelport.warpsites import type_aliases
    src = SourceFile.from_text(textwrap.dedent("""
        typedef unsigned int mask32;
        #define WORD uint32_t
        #define LWORD unsigned long long
        #define MASK mask32
        #define my_min fminf
        #define WIDTH 32
        #define REAL float
        #define CALL(x) uint32_t(x)
        """), "t.cu")
    aliases = type_aliases(src)
    assert {k: aliases.get(k) for k in ("WORD", "LWORD", "MASK")} == \
        {"WORD": "uint32_t", "LWORD": "unsigned long long", "MASK": "mask32"}
    assert not {"my_min", "WIDTH", "REAL", "CALL"} & set(aliases)
