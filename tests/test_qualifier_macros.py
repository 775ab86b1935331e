"""The macros that go with a function (`HD float f()`, `NOINL INL void host_only()`), found by position
(kernelport/qualifier_macros.py), where main scanned every mask per function: the same answers as the
scan (checked here against it, on generated spans and masks), in time that does not multiply the two
counts (heldout48's fractal_renderer.cu: docs/performance-history.md, stop 54)."""
from __future__ import annotations

import random
from types import SimpleNamespace

from kernelport.backends.metal.headers import device_macro_uses
from kernelport.model import build, device_references
from kernelport.qualifier_macros import Spans, masks_before, right_before
from kernelport.source import SourceFile

_TEXT = """#define HD __host__ __device__
#define INL inline
#define NOINL __noinline__
HD INL float twice(float x) { return 2.f * x; }
NOINL INL void host_only() { }
__global__ void k(float* o) { o[0] = twice(o[0]); }
"""


def test_a_host_functions_chain_of_qualifier_macros_goes_with_it():
    src = SourceFile.from_text(_TEXT, "q.cu")
    assert sorted(m.name for m in src.masks) == ["HD", "INL", "INL", "NOINL"]
    # the device function's macros are the port's; `NOINL INL` before the host function leave with it
    assert device_macro_uses(src, build(src)) == {"HD", "INL"}


def test_the_macro_right_before_a_device_function_is_needed():
    src = SourceFile.from_text(_TEXT, "q.cu")
    assert {"INL", "twice"} <= device_references(build(src))
    assert "NOINL" not in device_references(build(src)), "the look-alike: a host function's macro"


def test_right_before_is_the_scan_it_replaces():
    rng = random.Random(54)
    for _ in range(300):
        data = bytes(rng.choice(b"ab \t\n") for _ in range(rng.randint(0, 40)))
        masks = []
        for _ in range(rng.randint(0, 6)):
            s = rng.randint(0, len(data))
            masks.append(SimpleNamespace(start=s, end=rng.randint(s, len(data))))
        src = SimpleNamespace(data=data)
        before = masks_before(src, masks)
        for start in range(len(data) + 1):
            want = [m for m in masks if m.end <= start and not data[m.end:start].strip()]
            assert sorted(map(id, right_before(src, before, start))) == sorted(map(id, want)), (data, start)


def test_spans_hold_what_any_span_holds():
    rng = random.Random(15)
    for _ in range(300):
        spans = [(s, s + rng.randint(0, 12)) for s in (rng.randint(0, 30) for _ in range(rng.randint(0, 6)))]
        got = Spans(spans)
        for pos in range(-1, 45):
            assert got.holds(pos) == any(s <= pos < e for s, e in spans), (spans, pos)
