"""`typedef cudaStream_t cudaStream_t;` redeclares the toolkit's type as itself: the name stays CUDA's, and the
port renames both sides and every use (kernelport/declared_names._same_typedef); a typedef of another type
under a CUDA name is the user's own name, left as written."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate


def _hip(text: str) -> list[str]:
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip")
    return port.body.splitlines()


def test_a_self_typedef_of_a_runtime_type_is_renamed_with_its_uses():
    lines = _hip("#include <cuda_runtime.h>\ntypedef cudaStream_t cudaStream_t;\n"
                 "void f(cudaStream_t s) { cudaStreamSynchronize(s); }\n")
    assert "typedef hipStream_t hipStream_t;" in lines
    assert "void f(hipStream_t s) { hipStreamSynchronize(s); }" in lines


def test_a_typedef_of_another_type_under_a_cuda_name_stays_the_users():
    lines = _hip("#include <cuda_runtime.h>\ntypedef int cudaStream_t;\nvoid f(cudaStream_t s) { }\n")
    assert "typedef int cudaStream_t;" in lines
    assert "void f(cudaStream_t s) { }" in lines


def test_an_alias_typedef_renames_its_type_side_only():
    lines = _hip("#include <cuda_runtime.h>\ntypedef cudaStream_t stream_t;\nvoid f(stream_t s) { }\n")
    assert "typedef hipStream_t stream_t;" in lines
    assert "void f(stream_t s) { }" in lines
