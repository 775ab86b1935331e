"""A file's macro tokens (macro_tokens.file_tokens) are kept by the bytes they hold, least recently asked first:
a one-command translate of a tree repairs each file with parse errors in its plan, and its translator asks
again after the plan has parsed the rest of the tree (stop 61: a count of 16 files had let them go, and 89
tokenisations served 110 asks over tests/realcorpus)."""
from __future__ import annotations

from kernelport import macro_tokens


def _counted(monkeypatch) -> list[bytes]:
    made: list[bytes] = []
    real = macro_tokens.tokens
    monkeypatch.setattr(macro_tokens, "tokens", lambda data: made.append(data) or real(data))
    monkeypatch.setattr(macro_tokens, "_SEEN", {})
    monkeypatch.setattr(macro_tokens, "_SIZE", 0)
    return made


def test_a_file_asked_again_after_forty_others_is_not_tokenised_again(monkeypatch):
    made = _counted(monkeypatch)
    texts = [f"__global__ void k{i}(int *p) {{ p[threadIdx.x] = {i}; }}\n".encode() for i in range(40)]
    first = [macro_tokens.file_tokens(t) for t in texts]
    again = [macro_tokens.file_tokens(bytes(t)) for t in texts]
    assert len(made) == 40 and all(a is b for a, b in zip(first, again))
    assert again[3] == macro_tokens.tokens(texts[3])


def test_past_the_bytes_kept_the_least_recently_asked_goes_first(monkeypatch):
    # look-alike: a bound that is reached drops the oldest ask, not the one asked again
    made = _counted(monkeypatch)
    monkeypatch.setattr(macro_tokens, "_KEEP", 100)
    a, b, c = (bytes([ord("a") + i]) * 40 for i in range(3))
    macro_tokens.file_tokens(a), macro_tokens.file_tokens(b), macro_tokens.file_tokens(a)  # a: the latest
    macro_tokens.file_tokens(c)  # 120 bytes: b goes
    assert set(macro_tokens._SEEN) == {a, c} and macro_tokens._SIZE == 80
    macro_tokens.file_tokens(b)
    assert made == [a, b, c, b] and macro_tokens.file_tokens(c) == macro_tokens.tokens(c)
