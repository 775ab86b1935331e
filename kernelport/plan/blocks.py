"""Part 6, block and tile strategy per backend: today's block size in each target's waves, shared
memory per block against each target's limit, occupancy notes, and the annotated `why` checked
against the numbers it claims."""
from __future__ import annotations

import re

from .. import backends
from . import hardware
from .analysis import port_shared_bytes
from .facts import Facts


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _why_checks(why: str, threads: int, facts: Facts, elements: int, blocks: int) -> list[dict]:
    """Numbers the `why` states, recomputed: 'N warps' (of 32), 'N waves' (of 64), 'N threads',
    'about N of the M' elements per thread."""
    out = []
    for m in re.finditer(r"(\d+)\s+(NVIDIA\s+|CDNA\s+|AMD\s+)?(warps|waves|threads)\b", why):
        n, unit = int(m.group(1)), m.group(3)
        width = 64 if unit == "waves" or (m.group(2) or "").strip() in ("CDNA", "AMD") else 32
        actual = threads if unit == "threads" else _ceil(threads, width)
        out.append({"claim": m.group(0), "actual": actual if unit == "threads" else f"{actual} of {width} lanes",
                    "holds": n == actual})
    m = re.search(r"about\s+(\d+)\s+of\s+the\s+(\d+)", why)
    if m:
        per_thread = int(m.group(2)) / threads
        out.append({"claim": m.group(0), "actual": f"{per_thread:.1f} per thread", "holds":
                    abs(per_thread - int(m.group(1))) <= max(1.0, 0.25 * int(m.group(1)))})
    return out


def build_part(facts: Facts, analysis: dict) -> dict:
    spec = facts.spec
    threads = analysis["launch"]["threads_per_block"]
    base_shared = analysis["shared_memory"]["bytes_per_block"]
    per_warp = any(r["how"].startswith("per-warp partials") for r in analysis["reductions"])
    rows = []
    for b in [backends.source()] + [backends.get(t) for t in spec.targets]:
        for run in b.runs:
            if b.name != backends.source().name and b.name in facts.ports and backends.get(run.dialect).host_build is not None:
                # the port's own text: per-warp arrays it sized by the wave macro of this run
                shared = port_shared_bytes(facts, b.name, {"KP_WAVE_SIZE": run.wave, "KP_WAVE_MAX": 64})
            else:
                shared = base_shared
            for g in hardware.by_family(run.target):
                if any(r["backend"] == b.name and r["gpu"] == g.name for r in rows):
                    continue
                waves = _ceil(threads, run.wave)
                notes = []
                if threads % run.wave:
                    notes.append(f"{threads} is not a multiple of {run.wave}: the last wave runs "
                                 f"{threads % run.wave} of {run.wave} lanes")
                if per_warp:
                    fits = waves <= run.wave
                    notes.append(f"{waves} per-warp partials {'fit in' if fits else 'do NOT fit in'} one "
                                 f"{run.wave}-lane wave for the final fold")
                if shared is not None:
                    over_default = shared > g.shared_default_kb * 1024
                    over_max = shared > g.shared_max_kb * 1024
                    if over_max:
                        notes.append(f"shared memory {shared} B exceeds the {g.shared_max_kb} KB limit")
                    elif over_default:
                        notes.append(f"shared memory {shared} B needs the opt-in (cudaFuncSetAttribute) above "
                                     f"{g.shared_default_kb} KB")
                    if shared * 4 > g.shared_max_kb * 1024:
                        notes.append(f"shared memory is {shared / (g.shared_max_kb * 1024):.0%} of the per-block "
                                     "limit: few blocks fit per " + g.unit_name[:-1])
                rows.append({"backend": b.name, "gpu": g.name, "arch": g.arch, "wave": run.wave,
                             "threads": threads, "waves_per_block": waves, "multiple_of_wave": threads % run.wave == 0,
                             "shared_bytes": shared, "shared_limit_kb": g.shared_max_kb, "notes": notes})
    elements, blocks = analysis["elements"], analysis["launch"]["blocks"]
    checks = _why_checks(spec.why, threads, facts, elements, blocks)
    ok_all = all(r["multiple_of_wave"] for r in rows) and not any("NOT" in n or "exceeds" in n
                                                                      for r in rows for n in r["notes"])
    suggestion = None
    if not ok_all:
        best = max(64, _ceil(threads, 64) * 64)
        suggestion = f"{min(best, 1024)} threads: a multiple of every wave width (32 and 64)"
    return {"block": list(spec.dims("block")), "threads": threads, "why": spec.why, "why_checks": checks,
            "rows": rows, "portable_across_waves": ok_all, "suggestion": suggestion,
            "occupancy": "resident blocks per SM/CU also depend on registers per thread, which kernelport does not "
                         "compile for; check with the compiler's resource usage (nvcc -Xptxas -v, hipcc "
                         "-Rpass-analysis=kernel-resource-usage)"}


def markdown(p: dict) -> list[str]:
    out = [f"Block {tuple(p['block'])} = {p['threads']} threads. Annotated why: “{p['why'] or '(none: add // @kp why)'}”"]
    for c in p["why_checks"]:
        out.append(f"- why says “{c['claim']}”: {c['actual']} — {'holds' if c['holds'] else 'STALE: update the why'}")
    out += ["", "| backend | GPU | wave | waves/block | shared B (limit) | notes |", "|---|---|---|---|---|---|"]
    for r in p["rows"]:
        out.append(f"| {r['backend']} | {r['gpu']} ({r['arch']}) | {r['wave']} | {r['waves_per_block']} | "
                   f"{r['shared_bytes']} ({r['shared_limit_kb']} KB) | {'; '.join(r['notes']) or '—'} |")
    out.append(f"- occupancy: {p['occupancy']}")
    if p["suggestion"]:
        out.append(f"- suggestion: {p['suggestion']}")
    return out
