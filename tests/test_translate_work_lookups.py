"""Look-ups that warpflow and the port's writer repeat, worked out once: counted, not timed (issue 15).

- which `using namespace` directives are in force at a call (fnscopes.Scopes._nominated): every
  call's candidates and every unresolved call's look-up, at every depth of the caller's scope,
  read all the file's directives again; the answer depends only on the caller, the depth and how
  many directives start before the call, so it is worked out once per those.
- the rewriter's dropped spans (macro words the parse saw as blanks): every gap between two
  children of a rewritten node sorted the whole list again; now once per change to it.

The ports are byte-identical (bench/port_hashes.py --to hip,metal,portable over tests/realcorpus and
examples); each count below is what the old code does where the test would fail.
"""
from __future__ import annotations

import textwrap

from kernelport import fnscopes, rewrite
from kernelport.model import build
from kernelport.rewrite import Rewriter
from kernelport.source import SourceFile

_CALLS = 12
_CODE = textwrap.dedent("""\
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    namespace lib { namespace detail { __device__ float scale(float v) { return 2.0f * v; } } }
    using namespace cooperative_groups;
    namespace app {
    using namespace lib::detail;
    __device__ float sum(float v) {
    %s
        return v;
    }
    }
    """) % "\n".join(f"    v += __shfl_down_sync(0xffffffff, v, {i}) + scale(v) + tiled_partition_{i}(v);"
                     for i in range(_CALLS))


class _Reads(list):
    """The directives list, counting the reads of it (one a look-up that went through them all)."""
    reads = 0

    def __iter__(self):
        _Reads.reads += 1
        return super().__iter__()


def _lookups(code: str):
    m = build(SourceFile.from_text(code, "u.cu"))
    scopes = fnscopes.of(m)
    scopes._usings = _Reads(scopes._usings)
    _Reads.reads = 0
    fn = next(f for f in m.functions.values() if f.name.endswith("sum"))
    calls = m.source.index.under(fn.body, "call_expression")
    got = [(scopes.candidates(fn, c.child_by_field_name("function")),
            [g.name for g in scopes.resolve(fn, c.child_by_field_name("function"), [])]) for c in calls]
    return got, _Reads.reads


def test_the_directives_in_force_are_read_once_per_caller_depth_and_count_not_per_call():
    got, reads = _lookups(_CODE)
    assert len(got) == 3 * _CALLS
    # what C++ looks up: the caller's scope outwards, then the namespaces the directives nominate, in
    # the directives' order (both into the global scope: the nearest namespace enclosing each
    # directive and the one it nominates)
    shfl = got[0]
    assert shfl == (("app::__shfl_down_sync", "__shfl_down_sync", "cooperative_groups::__shfl_down_sync",
                     "lib::detail::__shfl_down_sync"), [])
    assert got[1][1] == ["scale"]  # found through `using namespace lib::detail`
    assert all(g == (tuple(s.replace("__shfl_down_sync", "scale") for s in shfl[0]), ["scale"])
               for g in got[1::3])
    # two depths (app, the global scope), one set of directives before every call: two reads.  The old
    # look-up read them for each call's candidates at each depth and again for each unresolved call's
    # look-up (3 * 12 calls: 144 reads)
    assert reads == 2


def test_a_directive_between_two_calls_is_in_force_only_for_the_later_one():
    code = textwrap.dedent("""\
        namespace lib { __device__ float scale(float v) { return v; } }
        __device__ float f(float v) {
            v = scale(v);
            using namespace lib;
            return scale(v);
        }
        """)
    got, _ = _lookups(code.replace("f(float", "sum(float"))
    assert [r for _, r in got] == [[], ["scale"]]  # (the first call names no function of this file)


def test_the_dropped_spans_are_sorted_once_per_change_not_per_gap(monkeypatch):
    sorts: list[bool] = []
    src = SourceFile.from_text("".join(f"HD float f{i}(float x) {{ return x + {i}.0f; }}\n" for i in range(20)),
                               "d.cu")
    rw = Rewriter(src)
    real = sorted
    monkeypatch.setattr(rewrite, "sorted", lambda it, **k: sorts.append(it is rw.dropped) or real(it, **k),
                        raising=False)
    for i in range(20):  # each `HD` (the parse's blanks), in reverse order: the spans are kept sorted here
        at = src.text.index(f"HD float f{19 - i}(")
        rw.drop_span(at, at + 2, "" if i % 2 else "__device__")
    for n in src.index.of_type("number_literal"):
        rw.replace(n, "1.0f")
    out = rw.result()
    assert out == "".join(f"{'' if i % 2 == 0 else '__device__'} float f{i}(float x) {{ return x + 1.0f; }}\n"
                          for i in range(20))
    assert out == rw.result()  # (again: nothing changed, nothing sorted again)
    # once for the whole run of gaps; the old writer sorted the list again for each gap between two
    # children of every rewritten node (here 686 over the two results)
    assert sorts.count(True) == 1


def test_a_headers_calls_are_read_once_per_parse_not_once_per_project(tmp_path, monkeypatch, capsys):
    """translate FILE (and verify) make one project per file: each project that reaches a header read
    the header's calls again (a Scopes of its model, each call resolved) for the warp helpers it
    defines; they are a fact of the header's parse, read once for the process."""
    from kernelport.project_ports import make, single
    (tmp_path / "red.cuh").write_text(textwrap.dedent("""\
        #pragma once
        namespace red {
        __device__ inline float warp_sum(float v) {
            for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
            return v;
        }
        __device__ inline float twice(float v) { return warp_sum(v) + warp_sum(v); }
        __device__ inline float plain(float v) { return v + 1.0f; }
        }
        """))
    built: dict[int, int] = {}
    init = fnscopes.Scopes.__init__

    def counted(self, module):
        if module.source.path.endswith("red.cuh"):
            built[id(module)] = built.get(id(module), 0) + 1
        init(self, module)
    monkeypatch.setattr(fnscopes.Scopes, "__init__", counted)
    seen = []
    for name in ("a.cu", "b.cu"):
        f = tmp_path / name
        f.write_text(f'#include "red.cuh"\n__global__ void k_{name[0]}(float* x) {{ x[threadIdx.x] = '
                     'red::twice(x[threadIdx.x]) + red::plain(1.0f); }\n')
        run = single(f, SourceFile.read(f))
        make(run, ["hip"], None, True)
        seen.append(sorted(run.project.warp_qualified(tmp_path / "red.cuh")))
    capsys.readouterr()
    assert seen == [["red::twice", "red::warp_sum"]] * 2  # (`plain` is no warp helper, in either project)
    # one Scopes for each model of the header; the old look-up built one for the same include-free
    # model in each project (2 here), besides the one its analyses use
    assert built and max(built.values()) == 1


def test_attribute_spellings_tokenise_a_file_only_where_one_stands_as_a_word(monkeypatch):
    """HIP respells `__builtin_align__`, drops `register` ...: the pass tokenised every file where one
    of those words stood anywhere, `registers` in a comment included (23 of tests/realcorpus's 396
    files; 8 hold one as a word)."""
    from kernelport import macro_tokens
    from kernelport.translate import translate
    seen: list[int] = []
    real = macro_tokens.tokens
    monkeypatch.setattr(macro_tokens, "tokens", lambda data: seen.append(len(data)) or real(data))
    body = "__global__ void k(float* x) {\n    // uses 32 registers_per_thread: see the registers table\n" \
           "    x[threadIdx.x] *= 2.0f;\n}\n"
    port, _ = translate(SourceFile.from_text(body, "regs_words.cu"), "hip")
    assert seen == []  # the old gate (`register` anywhere in the bytes) tokenised it
    assert "registers table" in port.body
    # the look-alike that holds the word: tokenised, and the keyword dropped
    port, _ = translate(SourceFile.from_text(body.replace("x[threadIdx.x] *=", "register float r = 2.0f; "
                                                          "x[threadIdx.x] *= r *"), "regs_kw.cu"), "hip")
    assert seen and "register float" not in port.body and " float r = 2.0f;" in port.body
