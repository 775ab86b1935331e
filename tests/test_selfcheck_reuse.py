"""Work translate does once, not per parse or per port (issue 15: NVIDIA/warp's units reach ~54
headers and timed out): the self-check lints a port again only where it differs from its original
beyond the paths of local includes (neither lint reads a local header), and a file's tokens for the
macro repair are made once per text."""
from __future__ import annotations

from kernelport import macro_tokens
from kernelport.lint import engine
from kernelport.source import SourceFile
from kernelport.translate import translate

_HEADER = '#pragma once\n#include "other.h"\n__device__ int twice(int v) { return 2 * v; }\n'
# (stop 44: with its width, 32: a shuffle from lane 0 with none is judged by its callers, and this run
# shows none: kernelport/abscallers.py)
_SHUFFLE = '#pragma once\n#include "other.h"\n__device__ int f(int v) { return __shfl_sync(0xffffffff, v, 0, 32); }\n'


def _lints(monkeypatch, text: str) -> list[str]:
    """The paths the self-check lints, translating `text` as a run that ports "other.h" does."""
    seen: list[str] = []
    real = engine.lint_text

    def counting(t, path="<string>", *a, **k):
        seen.append(path)
        return real(t, path, *a, **k)
    monkeypatch.setattr(engine, "lint_text", counting)
    src = SourceFile.from_text(text, "h.h")
    at = src.text.index('#include "other.h"')
    port, _ = translate(src, "hip", include_map={at: "other.hip.h"})
    assert port.ok, port.diagnostics
    return seen


def test_a_port_that_differs_only_in_a_local_includes_path_is_not_linted_again(monkeypatch):
    assert _lints(monkeypatch, _HEADER) == ["h.h"]  # the original's lint only


def test_a_port_whose_code_changed_is_linted_again(monkeypatch):
    assert _lints(monkeypatch, _SHUFFLE) == ["h.h", "h.h.hip"]


def test_a_files_tokens_are_made_once_per_text():
    data = b"int f(int x) { return x + 1; }\n"
    assert macro_tokens.file_tokens(data) is macro_tokens.file_tokens(bytes(data))
    assert macro_tokens.file_tokens(data) == macro_tokens.tokens(data)
