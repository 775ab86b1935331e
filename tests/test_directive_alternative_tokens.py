"""`#if A or B`: C++'s alternative operator spellings in a conditional directive's test
(kernelport/directive_tokens.py). A stereo matcher's util.h (`#if CSCT or CSCT_RECOMPUTE` in a
template, the header guard closed by `#endif /* UTIL_H_ */`) did not parse ("cannot parse 'CSCT
or'"), so the header was left unported (KP222) and its includer's port did not compile. The grammar
now sees `||`; the port keeps the user's text."""
from __future__ import annotations

from kernelport import directive_tokens
from kernelport.source import SourceFile
from kernelport.translate import translate

HEADER = """#ifndef U_H_
#define U_H_
#include <stdint.h>
__device__ __forceinline__ void to_bytes(const uint32_t s, int *b0, int *b1) {
\t*b0 = __byte_perm(s, 0, 0x4440);
\t//*b1 = (s>>8) & 0xff;
\t*b1 = __byte_perm(s, 0, 0x4441);
}

template<class T>
__device__ __forceinline__ int popcount(T n) {
#if CSCT or CSCT_RECOMPUTE
\treturn __popc(n);
#else
\treturn __popcll(n);
#endif
}

#endif /* U_H_ */
"""


def test_a_condition_with_alternative_operators_parses():
    assert SourceFile.from_text(HEADER, "u.h").syntax_errors() == []


def test_its_header_is_ported_with_the_users_text():
    port, whole = translate(SourceFile.from_text(HEADER + "__global__ void k(int* o, unsigned v) "
                                                 "{ o[0] = popcount(v); }\n", "u.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#if CSCT or CSCT_RECOMPUTE" in whole, whole


def test_only_conditions_are_seen_otherwise_and_lengths_stay():
    data = b"#if A or B\n#elif not C and D\n#define OR(a, b) a or b\nint x; // or not\n#ifdef or_eq_flag\n"
    seen = directive_tokens.seen(data)
    assert len(seen) == len(data)
    assert seen == b"#if A || B\n#elif !   C &&  D\n#define OR(a, b) a or b\nint x; // or not\n#ifdef or_eq_flag\n"
