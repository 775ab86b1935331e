"""A file's own typedef of a <stdint.h> name as another type (kernelport/stdint_typedefs.py): g2flip's Flip.h
(heldout55) writes `typedef unsigned long long uint64_t;`, which hip_runtime.h's <cstdint> declares `unsigned
long`; hipcc stopped at "typedef redefinition with different types".  The port keeps the user's type and
renames the name out of the runtime's way, so overloads on both types resolve as under nvcc."""
from __future__ import annotations

import textwrap

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import hip_compiles, assert_hip_file_compiles
    from .realcorpus_support import run_cli
except ImportError:  # pragma: no cover
    from conftest import hip_compiles, assert_hip_file_compiles
    from realcorpus_support import run_cli

from kernelport.source import SourceFile
from kernelport.stdint_typedefs import canonical
from kernelport.translate import translate

KERNEL = """
    __global__ void count(const uint64_t* boards, int* out, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = __popcll(boards[i]);
    }
    int main()
    {
        uint64_t b = 18374403900871474942ULL;
        printf("%llu\\n", b);
        return 0;
    }
    """


def _hip(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")


def test_the_g2flip_shape_a_header_typedef_reached_through_another_header(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "Flip.h").write_text("#ifndef FLIP_H\n#define FLIP_H\n\ntypedef unsigned long long uint64_t ;\n\n\n#endif")
    (src / "mapper.h").write_text('#ifndef MAPPER_H\n#define MAPPER_H\n\n#include "Flip.h"\n\nuint64_t* initFilter();\n\n#endif')
    (src / "flip4.cu").write_text('#include <stdio.h>\n#include <cuda_runtime.h>\n#include "mapper.h"\n' + textwrap.dedent(KERNEL))
    out = tmp_path / "out"
    code, said = run_cli(["--color", "never", "translate", str(src / "flip4.cu"), "--to", "hip", "-o", str(out)])
    assert code == 0, said
    port = (out / "flip4.hip").read_text()
    define = port.index("#define uint64_t kp_uint64_t")
    assert "Flip.h:4" in port[define:port.index("\n", define)] and define < port.index('#include "mapper'), port
    assert_hip_file_compiles(out / "flip4.hip")


def test_a_typedef_in_the_file_with_overloads_on_both_types_keeps_the_users_type(tmp_path):
    # look-alike with a trap: dropping the typedef would make f(uint64_t) pick the `unsigned long` overload
    port, text = _hip("""
        typedef unsigned long long uint64_t;
        struct One { char c[1]; };
        struct Two { char c[2]; };
        One f(unsigned long);
        Two f(unsigned long long);
        static_assert(sizeof(f((uint64_t)0)) == 2, "uint64_t is the file's unsigned long long");
        template <class T> struct Is { static const int v = 0; };
        template <> struct Is<unsigned long long> { static const int v = 1; };
        static_assert(Is<uint64_t>::v == 1, "the specialisation of the file's type");
        """ + KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert text.index("#define uint64_t kp_uint64_t") < text.index("typedef unsigned long long uint64_t;"), text
    assert any("kp_uint64_t" in n.after for n in port.notes)
    hip_compiles(tmp_path, text)


def test_a_typedef_that_agrees_with_stdint_is_left_alone(tmp_path):
    port, text = _hip("""
        typedef unsigned long uint64_t;
        typedef unsigned int uint32_t;
        using int8_t = signed char;
        """ + KERNEL.replace('"%llu', '"%lu'))
    assert port.ok and "kp_" not in text, text
    hip_compiles(tmp_path, text)


def test_a_conditional_or_scoped_typedef_is_left_as_written():
    port, text = _hip("""
        #ifdef _MSC_VER
        typedef unsigned __int64 uint64_t;
        typedef unsigned long long uint64_t;
        #else
        #include <stdint.h>
        #endif
        namespace board { typedef unsigned long long uint64_t; }
        struct S { typedef unsigned long long uint64_t; uint64_t x; };
        """ + KERNEL)
    assert port.ok and "kp_" not in text, text


def test_std_qualified_name_after_the_typedef_is_located_kp240():
    port, _ = _hip("""
        // typedef unsigned long long uint32_t; (a comment: not a typedef)
        typedef unsigned long long uint64_t;
        __global__ void k(std::uint64_t* p) { *p = 1; }
        """)
    bad = [d for d in port.diagnostics if d.code == "KP240"]
    assert len(bad) == 1 and (bad[0].location.line, bad[0].location.column) == (4, 19), [d.format() for d in port.diagnostics]
    assert "std::uint64_t" in bad[0].message and "line 3's" in bad[0].message and "uint32" not in bad[0].message


def test_canonical_integer_spellings():
    assert canonical("long long unsigned int") == canonical("unsigned long long") == "unsigned long long"
    assert canonical("short int") == "short" and canonical("signed char") == "signed char" and canonical("char") == "char"
    assert canonical("long long long") is None and canonical("unsigned signed int") is None and canonical("long char") is None


def test_which_typedefs_clash_file_scope_and_extern_c_only():
    from kernelport import backends
    from kernelport.stdint_typedefs import typedefs
    text = ('extern "C" {\ntypedef unsigned long long uint64_t;\n}\n'  # file scope for the name: clashes
            'namespace a { typedef unsigned long long int64_t; }\nstruct S { typedef long long uint32_t; };\n'
            '/* typedef char int8_t; */ const char *s = "typedef char int8_t;";\nusing int16_t = short int;\n'
            'using uint16_t = unsigned int;\n')
    got = typedefs(text, backends.get("hip").runtime_typedefs)
    assert [(name, mine) for _, name, mine in got] == [("uint64_t", "unsigned long long"), ("uint16_t", "unsigned int")]
    assert typedefs(text, backends.get("metal").runtime_typedefs) == []


def test_a_header_read_once_per_text_for_the_process_and_again_when_it_changes(tmp_path, monkeypatch):
    # each translation follows its quoted includes (stop 61: every translation of a run scanned the same headers
    # again); the header's facts are kept by its text, so an edited header is read as it now is, and a look-alike
    # header (the same typedef inside `#ifdef`) is not answered from the other's facts
    from kernelport import stdint_typedefs
    stdint_typedefs._FACTS.clear()
    scans = []
    real = stdint_typedefs._unconditional
    monkeypatch.setattr(stdint_typedefs, "_unconditional", lambda text: scans.append(text) or real(text))
    (tmp_path / "Flip.h").write_text("#ifndef FLIP_H\n#define FLIP_H\ntypedef unsigned long long uint64_t;\n#endif\n")
    (tmp_path / "Cond.h").write_text("#ifdef BIG\ntypedef unsigned long long uint64_t;\n#endif\n")
    for name, header in (("a.cu", "Flip.h"), ("b.cu", "Flip.h"), ("c.cu", "Cond.h")):
        (tmp_path / name).write_text(f'#include "{header}"\n' + textwrap.dedent(KERNEL))
    got = [translate(SourceFile.read(tmp_path / n), "hip")[1] for n in ("a.cu", "b.cu", "c.cu")]
    assert "#define uint64_t kp_uint64_t  // Flip.h:3's" in got[0] and got[1].count("kp_uint64_t") == 1
    assert "kp_" not in got[2], got[2]
    assert len([t for t in scans if "FLIP_H" in t]) == 1 and len([t for t in scans if "BIG" in t]) == 1, scans
    (tmp_path / "Flip.h").write_text("#ifndef FLIP_H\n#define FLIP_H\n\ntypedef unsigned long uint64_t;\n#endif\n")
    assert "kp_" not in translate(SourceFile.read(tmp_path / "b.cu"), "hip")[1]  # agrees with <stdint.h> now
