"""The review checklist answered for this kernel, and the CPU fallback (the annotated reference,
timed here, and the size below which it beats a GPU launch)."""
from __future__ import annotations

import time

import numpy as np

from .facts import Facts
from .performance import LAUNCH_FLOOR_US


def checklist(facts: Facts, parts: dict) -> list[dict]:
    codes = [i["code"] for i in parts["risks"]["items"]]
    items = parts["risks"]["items"]
    ws = [i for i in items if i["code"].startswith("WS")]
    ws_open = [i for i in ws if not i["translate"] or any(v.startswith("no") for v in i["translate"].values())]
    blocks = parts["blocks"]
    stale = [c for c in blocks["why_checks"] if not c["holds"]]
    out = [
        _q("Every wave-width assumption is found and handled", not ws_open,
           f"{len(ws)} lint finding(s) (WS*); {len(ws) - len(ws_open)} rewritten by translate on every target"),
        _q("Lane masks and ballots are 64-bit on AMD and Metal", not {"WS007", "WS008", "WS009", "WS010"} & set(codes)
           or all(i["translate"] for i in items if i["code"] in ("WS007", "WS008", "WS009", "WS010")),
           ", ".join(f"line {i['line']} {i['code']}" for i in items if i["code"] in ("WS007", "WS008", "WS009",
                                                                                   "WS010")) or "no mask use"),
        _q("No reliance on implicit warp lockstep", "SY002" not in codes,
           "SY002 at " + ", ".join(str(i["line"]) for i in items if i["code"] == "SY002") if "SY002" in codes
           else "lint SY002 clean; verify's thread schedule checks it numerically"),
        _q("Barriers are reached by every thread", "SY001" not in codes, "lint SY001"),
        _q("Block size is a multiple of every target's wave", all(r["multiple_of_wave"] for r in blocks["rows"]),
           f"{blocks['threads']} threads vs waves " + ", ".join(sorted({str(r['wave']) for r in blocks['rows']}))),
        _q("Shared memory fits every target's per-block limit",
           not any("exceeds" in n for r in blocks["rows"] for n in r["notes"]),
           f"{parts['operation']['shared_memory']['bytes_per_block']} B per block"),
        _q("The annotated why still matches the numbers", bool(facts.spec.why) and not stale,
           "; ".join(f"“{c['claim']}” → {c['actual']}" for c in blocks["why_checks"]) or
           ("no number to check" if facts.spec.why else "no // @kp why")),
        _q("A CPU reference and a tolerance are declared", facts.spec.reference is not None,
           f"{facts.spec.reference[0] if facts.spec.reference else '—'}, tolerance {facts.spec.tolerance}"),
        _q("Every target translates without hand edits", all(p.ok for n, p in facts.ports.items()
                                                             if n in facts.spec.targets),
           ", ".join(f"{n}: {'ok' if p.ok else 'stops'}" for n, p in facts.ports.items() if n in facts.spec.targets)),
        _q("Committed ports are up to date", _fresh(facts), _fresh_detail(facts)),
        _q("CI runs two NVIDIA generations, one CDNA GPU and the CPU reference host",
           {"nvidia-sm_80", "nvidia-sm_90", "cpu"} <= {j["runner"] for j in parts["ci"]["jobs"]}
           and any(j["runner"].startswith("amd-gfx9") for j in parts["ci"]["jobs"]),
           ", ".join(j["runner"] for j in parts["ci"]["jobs"])),
    ]
    return out


def _q(item: str, ok: bool, evidence: str) -> dict:
    return {"item": item, "answer": "yes" if ok else "no", "evidence": evidence}


def _port_state(facts: Facts) -> dict[str, str]:
    from ..translate import destination, port_file
    out = {}
    for name in facts.spec.targets:
        dest = destination(facts.path, name)
        if not dest.exists():
            out[name] = "missing"
            continue
        _, text = port_file(facts.src, name, dest.parent)
        out[name] = "fresh" if dest.read_text(encoding="utf-8", errors="replace") == text else "stale"
    return out


def _fresh(facts: Facts) -> bool:
    return all(v == "fresh" for v in _port_state(facts).values())


def _fresh_detail(facts: Facts) -> str:
    return ", ".join(f"{k}: {v}" for k, v in _port_state(facts).items())


def cpu_fallback(facts: Facts, parts: dict) -> dict:
    """Time the scalar reference here; compare with a launch plus the fastest GPU's roofline time."""
    from .. import inputs
    from ..cexpr import evaluate
    from ..reference import run_reference
    spec = facts.spec
    fname, rargs = spec.reference
    ref_fn = facts.module.functions[fname]
    args = inputs.make_args(facts.kernel, spec)
    vals = {**spec.scalar_values(), **{k: v for k, v in args.items() if not isinstance(v, np.ndarray)}}
    call = {p.name: (args[a.text].copy() if isinstance(args.get(a.text), np.ndarray) else evaluate(a.text, vals))
            for p, a in zip(ref_fn.params, rargs)}
    elements = parts["operation"]["elements"]
    out = {"reference": fname, "elements": elements, "measured_us": None}
    try:
        best = _time_reference(facts, fname, call)
        out["measured_us"] = round(best * 1e6, 1)
    except Exception as e:  # the reference is the user's code: report, do not fail the plan
        out["error"] = str(e)
        return out
    est = parts["performance"]["estimates"]
    gpu_us = min((e["roofline_us"] for e in est), default=0.0)
    cpu_ns = best * 1e9 / max(elements, 1)
    gpu_ns = gpu_us * 1e3 / max(elements, 1)
    out["cpu_ns_per_element"] = round(cpu_ns, 3)
    out["break_even_elements"] = (int(LAUNCH_FLOOR_US * 1e3 / (cpu_ns - gpu_ns)) if cpu_ns > gpu_ns else None)
    out["basis"] = (f"the scalar C reference timed on this host (best of 3 runs of the compiled reference in a "
                    f"child process, whose start is included; it is not an optimised CPU path) against a {LAUNCH_FLOOR_US:g} µs launch (assumed) plus the fastest GPU's "
                    "roofline time per element; data already resident where it is used (no PCIe copy)")
    return out


def _time_reference(facts: Facts, fname: str, call: dict) -> float:
    """Seconds of one run of the reference, best of 3. It runs as verify runs it, in a child
    process (never loaded into kernelport's own), so each figure includes that process's start."""
    from .. import reference as R
    if R.c_compiler() is None:
        raise RuntimeError("no C compiler")
    best = None
    for _ in range(3):
        args = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v) for k, v in call.items()}
        t0 = time.perf_counter()
        R.run_reference(facts.src.text, fname, args, path=str(facts.path))
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def markdown_checklist(items: list[dict]) -> list[str]:
    return [f"- [{'x' if i['answer'] == 'yes' else ' '}] {i['item']} — {i['evidence']}" for i in items]


def markdown_fallback(p: dict) -> list[str]:
    if p.get("measured_us") is None:
        return [f"CPU reference `{p['reference']}`: not timed ({p.get('error', 'unknown')})."]
    be = p["break_even_elements"]
    return [f"CPU path: the annotated reference `{p['reference']}` ({p['elements']} elements in "
            f"{p['measured_us']} µs here, {p['cpu_ns_per_element']} ns/element). "
            + (f"Below about {be} elements the CPU beats a GPU launch." if be else
               "The GPU estimate is slower per element than the CPU here: the CPU path wins at every size.")
            + f" Basis: {p['basis']}."]
