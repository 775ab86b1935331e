"""A nested conditional that parses with every branch kept is not configured away (kernelport/split_configurations.py).

rodinia huffman's vlc_kernel_sm64huff.cu: `#ifdef SMATOMICS` around a kernel whose parameter list holds
`#ifdef TESTING` parameters and whose body holds `#ifdef CACHECWLUT` ... `#else` ... `#endif` (two
declarations of `as`, one per branch).  Where the nest's configurations parse the file, main hid a branch
of every group in the nest, the body's `#else` too: code the parse sees as blanks is kept as written, so
the Metal port wrote `unsigned int* as = (unsigned int*) sm;` there, without `threadgroup`, and the
TESTING parameters without `device` (which the checker refused).  stop 54 kept huffman right only by
leaving nests rooted at an include guard to the one-group candidates.  Now a group below the nest's root
that parses as written (or with its directive lines alone masked) keeps every branch, and each is ported."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

NEST = """
#define SMATOMICS
#define CACHE

#ifdef SMATOMICS
__global__ void k(float *out,
#ifdef TESTING
                  float *dbg,
#endif
                  const float *in, int n)
{
    extern __shared__ float sm[];
#ifdef CACHE
    float *as = (float *) sm;
    as[threadIdx.x] = in[threadIdx.x];
#else
    float *as = (float *) sm + 1;
    as[threadIdx.x] = 2.0f * in[threadIdx.x];
#endif
    __syncthreads();
    out[threadIdx.x] = as[threadIdx.x];
}
#endif
"""


def test_every_branch_of_a_group_that_parses_whole_is_ported(tmp_path: Path):
    _write(tmp_path, {"k.cu": NEST})
    text = _port(tmp_path / "k.cu")  # main: KP224, 'dbg' without an address space
    assert "#ifdef TESTING\n              device float *dbg [[buffer(1)]],\n#endif" in text, text
    # both branches of CACHE, each with the threadgroup space (main kept the #else as written)
    assert "#ifdef CACHE\n    threadgroup float *as = (threadgroup float *) sm;" in text, text
    assert "#else\n    threadgroup float *as = (threadgroup float *) sm + 1;\n    as[tid.x] = 2.0f * in[tid.x];" in text, text
    assert "threadIdx" not in text


def test_the_source_keeps_each_group_s_branches_for_the_parse(tmp_path: Path):
    """The parse of the nest: the CACHE group is a preprocessor node with both declarations of `as`."""
    _write(tmp_path, {"k.cu": NEST})
    src = SourceFile.read(tmp_path / "k.cu")
    hidden = [src.data[m.start:m.end].decode() for m in src.masks if m.reason.startswith("conditional (")]
    assert not any("as[threadIdx.x]" in h for h in hidden), hidden
    assert any(n.type == "preproc_ifdef" and b"CACHE" in src.data[n.start_byte:n.end_byte][:14]
               for n in src.index.of_type("preproc_ifdef")), [m for m in src.masks]


def test_a_head_written_per_branch_is_still_one_configuration(tmp_path: Path):
    """Look-alike: two heads of one body under `#ifdef`/`#else` inside the nest cannot parse together, so
    that group is configured as before (the run's branch kept, the other hidden and checked)."""
    _write(tmp_path, {"k.cu": """
        #ifdef OUTER
        #ifdef WIDE
        __device__ float pick(const float *p, int i, int j)
        #else
        __device__ float pick(const float *p, int i)
        #endif
        #else
        __device__ float pick(const float *p, int i)
        #endif
        {
            return p[i];
        }
        """})
    src = SourceFile.read(tmp_path / "k.cu")
    hidden = [src.data[m.start:m.end].decode() for m in src.masks if m.reason.startswith("conditional (")]
    assert any("int j" in h for h in hidden), hidden
    port, text = translate(src, "hip")
    assert port.ok and text.count("__device__ float pick(") == 3, text
