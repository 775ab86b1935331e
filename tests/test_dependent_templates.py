"""A member template called on a dependent object without `template` (hip66c item 4; heldout101 spmv-acc's
`BlockScanT(*temp).InclusiveScan<ITEMS_PER_THREAD>(...)`): nvcc takes it, clang rejects it ("missing 'template'
keyword prior to dependent template name").  The port writes `.template f<N>(...)` where the grammar shows the
object dependent (kernelport/dependent_templates.py).  Look-alikes: a non-dependent object, one already written
with `template`, a call outside any template, an object whose type the grammar does not show (`auto`)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported

SRC = """template <int N> struct Scan {
  template <int M> __device__ int run(int x) { return x * M + N; }
};
template <typename S> struct Holder {
  S member;
  template <int K> __device__ int go(int x) { return member.run<K>(x); }
};
template <typename S, int K> __device__ int use(S s, int x) {
  using Alias = Scan<K>;
  typedef S Same;
  S t = s;
  S *p = &t;
  Scan<K> c;
  Scan<3> e;
  auto g = e;
  int a = t.run<K>(x) + S(s).run<K>(x) + p->run<K>(x) + (*p).run<K>(x) + c.run<2>(x);
  int b = Alias().run<1>(x) + Same(s).run<2>(x) + Holder<S>{s}.template go<K>(x);
  int keep = e.run<2>(x) + g.run<2>(x) + t.template run<K>(x);
  return a + b + keep;
}
__device__ int plain(Scan<1> s, int x) { return s.run<2>(x); }
__global__ void k(int *o) { o[0] = use<Scan<1>, 4>(Scan<1>(), o[1]) + plain(Scan<1>(), o[2]); }
"""


def test_dependent_objects_get_the_template_keyword(tmp_path):
    port, text = ported(SRC)
    for want in ("member.template run<K>(x)", "t.template run<K>(x) + S(s).template run<K>(x)",
                 "p->template run<K>(x)", "(*p).template run<K>(x)", "c.template run<2>(x)",
                 "Alias().template run<1>(x)", "Same(s).template run<2>(x)"):
        assert want in text, (want, text)
    hip_compiles(tmp_path, text)


def test_look_alikes_are_left_as_written():
    _, text = ported(SRC)
    assert "int keep = e.run<2>(x) + g.run<2>(x) + t.template run<K>(x);" in text  # no second `template`
    assert "return s.run<2>(x); }" in text  # no template encloses it
    assert "Holder<S>{s}.template go<K>(x)" in text and "template template" not in text


COMPARE = """struct P {
  int x;
  template <int M> __device__ int run(int y) const { return x * M + y; }
};
template <int N, typename S> __device__ int cmp(S s, int y) {
  return (s.x < N > (y)) + s.run<N>(y);
}
__global__ void k(int *o) { P p{o[1]}; o[0] = cmp<2>(p, o[2]); }
"""


def test_a_data_member_compared_is_no_member_template(tmp_path):
    """review66f: `s.x < N > (y)` on a dependent `s` is `(s.x < N) > (y)` in C++ (`x` is no template; the grammar reads
    a template argument list); the port wrote `s.template x < N > (y)`, which hipcc rejects.  A name the file declares
    only as a data member is left as written; the member template beside it still gets `template`."""
    _, text = ported(COMPARE)
    assert "return (s.x < N > (y)) + s.template run<N>(y);" in text, text
    hip_compiles(tmp_path, text)
