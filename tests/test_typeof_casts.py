"""GNU `typeof` in a C-style cast and as sizeof's operand (heldout101: an SpMV code's allocation helpers,
`(typeof(mat->IRP)) calloc(...)`, in a header every source includes; the whole file was a parse error).  nvcc's
EDG front end takes `typeof` in every C++ mode; tree-sitter's grammar has no place for it and clang takes it in
GNU modes only (`hipcc -std=c++17`: "use of undeclared identifier 'typeof'").  The parse now sees the cast as
blanks (kernelport/typeof_casts.py) and the ports write `__typeof__`, which clang and g++ take in every mode."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles
from trust_support import kp_inproc

KERNEL = """\
    #include <stdlib.h>
    struct Mat { int *rows; float *vals; };
    inline size_t val_bytes(Mat *m, int n) { return sizeof(typeof(*m->vals)) * n; }
    inline int alloc(Mat *m, int n) {
      if (!(m->rows = (typeof(m->rows)) calloc(n + 1, sizeof(*(m->rows))))) return 1;
      m->vals = (__typeof__(m->vals)) malloc(val_bytes(m, n));
      int typeofs = (int)(n) + (int)sizeof(int);
      return typeofs > 0 ? 0 : 1;
    }
    __global__ void twice(float *a) {
      float v = a[threadIdx.x];
      a[threadIdx.x] = (typeof(v)) (v * 2.0f);
    }
    """


def _translate(tmp_path, kernel: str, *extra):
    f = tmp_path / "mat.cu"
    f.write_text(textwrap.dedent(kernel))
    return kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out", *extra)


def test_typeof_casts_parse_and_the_port_spells_them_for_clang(tmp_path):
    rc, out, err = _translate(tmp_path, KERNEL)
    assert rc == 0, err
    port = (tmp_path / "out" / "mat.hip").read_text()
    assert "(__typeof__(m->rows)) calloc(n + 1, sizeof(*(m->rows)))" in port
    assert "sizeof(__typeof__(*m->vals)) * n" in port and "(__typeof__(v)) (v * 2.0f)" in port
    assert "(typeof(" not in port
    # look-alikes: the spelling clang takes stays, a name that starts so stays, casts to other types stay
    assert "(__typeof__(m->vals)) malloc(val_bytes(m, n))" in port
    assert "int typeofs = (int)(n) + (int)sizeof(int);" in port and "return typeofs > 0" in port
    hip_compiles(tmp_path / "out", port, "mat.hip", extra_args=("-std=c++17",))


def test_a_typeof_declaration_stays_a_located_parse_error(tmp_path):
    # what the repair does not read (a declaration of a typeof type): a located error, never a guess
    rc, out, err = _translate(tmp_path, "__global__ void k(float *a) { typeof(a[0]) v = a[0]; a[1] = v; }\n")
    assert rc != 0 and "mat.cu:1:" in err and "syntax error" in err
    # and lint reads the casts: no parse error there
    f = tmp_path / "lint.cu"
    f.write_text(textwrap.dedent(KERNEL))
    rc, out, err = kp_inproc("lint", f)
    assert "KP001" not in out + err


MACROS = """\
    #include <stdlib.h>
    #include <stdio.h>
    #define ALLOC(p, n) ((p) = (typeof(p)) malloc((n) * sizeof(*(p))))
    #define SZ(x) sizeof(typeof(x))
    #define KEEP(x) sizeof(__typeof__(x))
    #define typeofs(x) (x)
    #define SAY(x) printf("typeof(" #x ")\\n")
    __global__ void k(float *a) {
      float v = a[threadIdx.x];
      a[threadIdx.x] = v * SZ(v) * KEEP(v) * typeofs(2);
    }
    int main() { float *h; ALLOC(h, 10); SAY(h); free(h); return 0; }
    """


def test_typeof_in_a_macro_value_is_spelled_for_clang(tmp_path):
    # h/heldout101 respelled the parsed casts only: a `#define` value kept `typeof` ("use of undeclared
    # identifier 'typeof'" under hipcc -std=c++17); the look-alikes: `__typeof__`, a longer name, a string
    rc, out, err = _translate(tmp_path, MACROS)
    assert rc == 0, err
    port = (tmp_path / "out" / "mat.hip").read_text()
    assert "#define ALLOC(p, n) ((p) = (__typeof__(p)) malloc((n) * sizeof(*(p))))" in port
    assert "#define SZ(x) sizeof(__typeof__(x))" in port and "#define KEEP(x) sizeof(__typeof__(x))" in port
    assert "#define typeofs(x) (x)" in port and 'printf("typeof(" #x ")\\n")' in port
    hip_compiles(tmp_path / "out", port, "mat.hip", extra_args=("-std=c++17",))


def test_a_cast_after_return_or_else_parses(tmp_path):
    # h/heldout101's repair took a word before the `(` for a call's name (`f(typeof(x))`), `return` and `else`
    # too: `return (typeof(m->rows)) malloc(...)` stayed "syntax error: expected ';'" (nvcc takes it)
    rc, out, err = _translate(tmp_path, """\
        #include <stdlib.h>
        struct Mat { int *rows; float *vals; };
        inline int *mk(Mat *m, int n) { return (typeof(m->rows)) malloc(n * sizeof(int)); }
        inline float *mv(Mat *m, int n) { if (n) return (typeof(m->vals)) malloc(n); else return (typeof(m->vals)) 0; }
        __device__ float g(float v) { return (typeof(v)) -v; }
        __global__ void k(float *a) { a[threadIdx.x] = g(a[threadIdx.x]); }
        """)
    assert rc == 0, err
    port = (tmp_path / "out" / "mat.hip").read_text()
    assert "return (__typeof__(m->rows)) malloc(n * sizeof(int));" in port
    assert "else return (__typeof__(m->vals)) 0;" in port and "return (__typeof__(v)) -v;" in port
    hip_compiles(tmp_path / "out", port, "mat.hip", extra_args=("-std=c++17",))


def test_a_typeof_cast_inside_a_rewritten_call_is_kept(tmp_path):
    # the repair showed the whole cast as blanks, outside every argument node: a call the port writes again from
    # its arguments lost it, `__shfl_sync(F, (typeof(s->i)) v, 0)` -> `__shfl(v, 0, 32)`, shuffling the float
    # (CUDA shuffles the int): a port that compiles and computes something else.  The look-alike: a plain cast.
    rc, out, err = _translate(tmp_path, """\
        struct S { int i; };
        __global__ void k(float *a, S *s) {
          float v = a[threadIdx.x] * 0.5f;
          a[threadIdx.x] = __shfl_sync(0xffffffff, (typeof(s->i)) v, 0) + __shfl_sync(0xffffffff, (int) v, 1);
        }
        """)
    assert rc == 0, err
    port = (tmp_path / "out" / "mat.hip").read_text()
    assert "__shfl((__typeof__(s->i)) v, 0" in port and "__shfl((int) v, 1" in port, port
    hip_compiles(tmp_path / "out", port, "mat.hip", extra_args=("-std=c++17",))
