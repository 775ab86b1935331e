"""C++ the grammar lacks, found on fdtd3d (heldout23): a destructor named with its class template's
arguments, an unnamed pointer parameter's default, directives between a constructor's member
initializers (an X-macro's `#include` of more initializers) or between an `if`'s block and its
`else` (one of more `else if` arms), and a macro that stands for member initializers (with the
attribute macros of the constructor's head, in every constructor of the file at once).  Each parses,
keeps the user's text in the port, and masks only what it must (kernelport/grammar_gaps.py); the
look-alikes that parse as they are (`x *= 2`, a ternary's `: name`) are masked nowhere."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "g.cu")


def hip(code: str) -> SourceFile:
    s = src(code)
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert textwrap.dedent(code).strip() in text  # the user's text, unchanged
    return s


def masked(s: SourceFile) -> list[str]:
    return [" ".join(s.data[m.start:m.end].decode().split()) for m in s.masks]


KERNEL = """
__global__ void scale(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
"""

# fdtd3d's GridCoordinate3D.h: `CUDA_DEVICE CUDA_HOST ~GridCoordinate3DTemplate<TcoordType, doSignChecks> () {}`
DESTRUCTOR = """
template <typename T, bool check>
class Coord
{
  T x;
public:
  __host__ __device__ Coord (T v) : x (v) {}
  __host__ __device__ ~Coord<T, check> () {}
  __host__ __device__ T get () const { return x; }
};
""" + KERNEL


def test_a_destructor_named_with_template_arguments_parses():
    s = hip(DESTRUCTOR)
    assert masked(s) == ["<T, check>"]


# fdtd3d's Grid.h: `Grid (int, const char * = "unnamed");`
POINTER_DEFAULT = """
class Grid
{
  int n;
public:
  __host__ Grid (int, const char * = "unnamed");
  __host__ Grid (const int &, int & = *(int *) 0, int = 3);
  __host__ __device__ int size () const { return n; }
};
__device__ int twice (int x) { x *= 2; return x; }
""" + KERNEL


def test_an_unnamed_pointer_parameters_default_parses_and_a_compound_assignment_is_kept():
    s = hip(POINTER_DEFAULT)
    assert masked(s) == ['= "unnamed"']  # (`int & = ...` parses as it is)


# fdtd3d's Settings.h and Settings.cpp: an X-macro list included between member initializers and
# between the `if` of a chain of `else if` and its last arms
X_MACRO = """
class Settings
{
  int dimension;
  bool ready;
  int nx;
  int ny;
public:
  __host__ Settings ()
    : dimension (0)
    , ready (false)
#define ELEM(fieldName, defaultVal) \\
    , fieldName (defaultVal)
#include "fields.inc"
#undef ELEM
  {
  }
  __host__ int parse (const char *arg, int index)
  {
    if (arg[0] == 'h')
    {
      return 0;
    }
#define ELEM(fieldName, defaultVal) \\
    else if (arg[0] == #fieldName[1]) \\
    { \\
      fieldName = defaultVal; \\
    }
#include "fields.inc"
#undef ELEM
    else if (arg[0] == 'v')
    {
      return 1;
    }
    return index;
  }
};
""" + KERNEL


def test_directives_between_member_initializers_and_before_an_else_parse():
    s = hip(X_MACRO)
    assert [m.name for m in s.masks] == ["directives", "directives"]
    assert all("#include" in t for t in masked(s))


# fdtd3d's YeeGridLayout.cpp: `, DEFAULT_VALS_LIST_E_CENTERED` among a constructor's initializers
INITIALIZER_MACRO = """
#define DEFAULT_INITS \\
  b (1) \\
  , c (2)
template <int K>
class Layout
{
public:
  int a, b, c;
  __host__ __device__ Layout (int x);
  __host__ __device__ Layout (int x, int y) : DEFAULT_INITS, a (x + y) {}
};
template <>
__host__ __device__
Layout<3>::Layout (int x)
: a (x)
, DEFAULT_INITS
{
}
__device__ int pick (bool p, int x, int y) { return p ? x : y; }
__device__ int pick2 (bool p, int x, int y) { return p ? pick (p, x, y) : y; }
""" + KERNEL


def test_a_macro_of_member_initializers_parses_and_a_ternary_is_kept():
    s = hip(INITIALIZER_MACRO)
    assert masked(s) == ["DEFAULT_INITS,", ", DEFAULT_INITS"]
    assert {m.name for m in s.masks} == {"initializers"}


# fdtd3d's YeeGridLayout.cpp: some 20 specialised constructors, each with an attribute macro in its
# head lines above the error and a macro of initializers (neither mask alone shrinks the error)
HEAD = """
#ifdef __CUDACC__
#define HOST __host__
#else
#define HOST
#endif
#define INITS_E b (1), c (2)
#define INITS_H b (2), c (1)
template <int K, int C>
class Layout
{
public:
  int a, b, c;
  HOST Layout (int x,
               int y,
               int z);
};
""" + "".join(f"""
template <>
HOST
Layout<{k}, {c}>::Layout
  (int x, /**< x */
   int y, /**< y */
   int z) /**< z */
: a (x + y + z)
, INITS_{"E" if c else "H"}
// a comment
{{
}}
""" for k in range(6) for c in range(2)) + KERNEL


def test_constructors_with_a_head_macro_and_a_macro_of_initializers_parse():
    s = src(HEAD)
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert textwrap.dedent(HEAD).replace("__CUDACC__", "__HIPCC__").strip() in text  # only the test's name
    assert sorted(set(masked(s))) == [", INITS_E", ", INITS_H", "HOST"]
    assert len(s.masks) == 24
