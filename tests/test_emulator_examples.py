"""Run every bundled example's kernel (and its HIP port) on the emulator against its C reference.

The annotations are read by a small LOCAL parser (`_local_annotations`) so that this test does not
depend on the source layer; switch `_local_annotations` to `kernelport.annotations` when wanted.
"""
from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.reference import _signature, run_reference

try:
    from kernelport.cexpr import evaluate as _cexpr
except Exception:  # pragma: no cover
    _cexpr = None

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
DT = {"float": np.float32, "double": np.float64, "int": np.int32, "unsigned": np.uint32, "uint": np.uint32,
      "unsigned int": np.uint32, "uint32_t": np.uint32, "int32_t": np.int32, "char": np.int8,
      "unsigned char": np.uint8, "long long": np.int64, "unsigned long long": np.uint64}


def _split(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for c in text:
        depth += c in "(["
        depth -= c in ")]"
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    return out + ([cur] if cur.strip() else [])


def _eval(expr: str, names: dict):
    expr = expr.strip()
    if _cexpr is not None:
        return _cexpr(expr, names)
    e = re.sub(r"ceil_div\(([^,]+),([^)]+)\)", r"(-(-(\1)//(\2)))", expr).replace("/", "//")
    return eval(e, {"min": min, "max": max}, dict(names))  # noqa: S307


def _local_annotations(text: str) -> list[dict]:
    specs, cur = [], None
    for ln in text.split("\n"):
        m = re.match(r"\s*//\s*@kp\s+(\w+)\s*(.*)$", ln)
        if m:
            key, val = m.group(1), m.group(2).strip()
            if key == "kernel" or cur is None:
                cur = {"args": [], "scalars": [], "instantiate": [], "shared": "0", "seed": "0"}
                specs.append(cur)
            if key in ("kernel", "grid", "block", "shared", "reference", "tolerance", "targets", "seed"):
                cur[key] = val
            elif key == "arg":
                name, role, rest = val.split(None, 2)
                depth, end = 0, len(rest)
                for k, c in enumerate(rest):
                    depth += c == "["
                    depth -= c == "]"
                    if c == "]" and depth == 0:
                        end = k + 1
                        break
                parts = [name, role, rest[:end].strip()] + ([rest[end:].strip()] if rest[end:].strip() else [])
                cur["args"].append(parts)
            elif key == "scalar":
                name, e = val.split("=", 1)
                cur["scalars"].append((name.strip(), e.strip()))
            elif key == "instantiate":
                cur["instantiate"].append(val.strip().strip("<>"))
        elif cur is not None and re.match(r"\s*(template\b|__global__)", ln) and "name" not in cur:
            m2 = re.search(r"(\w+)\s*\(", ln[ln.find("__global__"):] if "__global__" in ln else "")
            if m2:
                cur["name"] = m2.group(1)
    for s in specs:
        if s.get("kernel"):
            s["name"] = s["kernel"].split()[0]
    return [s for s in specs if s.get("name")]


def _make_inputs(spec, names):
    rng = np.random.default_rng(int(spec.get("seed", "0")))
    arrays = {}
    for parts in spec["args"]:
        name, role, ty = parts[0], parts[1], parts[2]
        gen = parts[3] if len(parts) > 3 else None
        m = re.match(r"(.+?)\[(.*)\]$", ty)
        dt = np.dtype(DT[m.group(1).strip()])
        n = int(_eval(m.group(2), names))
        if gen is None:
            a = np.zeros(n, dt)
        else:
            gm = re.match(r"(\w+)\((.*)\)", gen)
            kind = gm.group(1)
            ps = [float(_eval(p, names)) for p in _split(gm.group(2)) if p.strip()]
            if kind == "uniform":
                a = rng.uniform(ps[0], ps[1], n)
            elif kind == "normal":
                a = rng.normal(ps[0], ps[1], n)
            elif kind == "integers":
                a = rng.integers(int(ps[0]), int(ps[1]), n)
            elif kind == "constant":
                a = np.full(n, ps[0])
            else:
                start = ps[0] if ps else 0
                step = ps[1] if len(ps) > 1 else 1
                a = start + step * np.arange(n)
            a = a.astype(dt)
        arrays[name] = (role, a)
    return arrays


def _cases():
    out = []
    if not EXAMPLES.is_dir():
        return out
    for cu in sorted(EXAMPLES.glob("*.cu")):
        for spec in _local_annotations(cu.read_text()):
            if spec.get("reference"):
                out.append(pytest.param(cu, spec, id=f"{cu.stem}:{spec['name']}"))
    return out


def _prepare(path, spec):
    src = path.read_text()
    names: dict = {}
    for name, e in spec["scalars"]:
        names[name] = _eval(e, names)
    arrays = _make_inputs(spec, names)
    grid = [int(_eval(e, names)) for e in _split(spec["grid"])] if "grid" in spec else [1]
    block = [int(_eval(e, names)) for e in _split(spec["block"])]
    shared = int(_eval(spec.get("shared", "0"), names))
    args = {k: a for k, (_, a) in arrays.items()}
    args.update(names)
    # reference: FUNC(ARG, ...) with parameter names or scalar expressions
    rm = re.match(r"(\w+)\((.*)\)", spec["reference"])
    rfunc, ractuals = rm.group(1), [a.strip() for a in _split(rm.group(2)) if a.strip()]
    params = _signature(src, rfunc, str(path), "cuda")
    rargs = {}
    for (pname, kind, _), actual in zip(params, ractuals):
        if actual in arrays:
            rargs[pname] = arrays[actual][1].copy()
        else:
            rargs[pname] = _eval(actual, names)
    ref = run_reference(src, rfunc, rargs, path=str(path))
    ref_by_arg = {actual: ref[p] for (p, _, _), actual in zip(params, ractuals) if actual in arrays}
    targs = _split(spec["instantiate"][0]) if spec["instantiate"] else None
    return src, args, grid, block, shared, arrays, ref_by_arg, targs


def _run_and_compare(prep, spec, text, backend, wave, p, schedule="block"):
    _, args, grid, block, shared, arrays, ref_by_arg, targs = prep
    res = run_kernel(text, spec["name"], args=args, grid=tuple(grid), block=tuple(block), shared_bytes=shared,
                     wave=wave, backend=backend, path=p, template_args=targs, schedule=schedule)
    for name, (role, _) in arrays.items():
        if role == "in" or name not in ref_by_arg:
            continue
        got, want = res.outputs[name], ref_by_arg[name]
        where = f"{p} at wave {wave} ({schedule}): {name}"
        if got.dtype.kind == "f":
            scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
            assert np.allclose(got, want, rtol=1e-4, atol=1e-5 * scale), where
        else:
            assert np.array_equal(got, want), where


@pytest.mark.parametrize("path,spec", _cases())
def test_example_matches_reference(path, spec):
    prep = _prepare(path, spec)
    runs = [(prep[0], "cuda", 32, str(path))]
    hip = path.with_suffix(".hip")
    if hip.exists():
        runs += [(hip.read_text(), "hip", 32, str(hip)), (hip.read_text(), "hip", 64, str(hip))]
    for text, backend, wave, p in runs:
        _run_and_compare(prep, spec, text, backend, wave, p)


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("path,spec", _cases())
def test_metal_port_matches_reference_in_every_schedule(path, spec, schedule):
    """Each example's Metal port, parsed back from its own text, at the SIMD width 32: dynamic
    threadgroup parameters, atomics on address-space casts, simd_sum/max/min, template kernels."""
    metal = path.with_suffix(".metal")
    if not metal.exists():
        pytest.skip("no Metal port")
    prep = _prepare(path, spec)
    _run_and_compare(prep, spec, metal.read_text(), "metal", 32, str(metal), schedule)
