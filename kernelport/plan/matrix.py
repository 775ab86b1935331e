"""Part 1, backend matrix: the targets in scope (`@kp targets`), the hardware each runs on and the
software floors the features this kernel uses need."""
from __future__ import annotations

from .. import backends
from . import hardware
from .facts import Facts

_WARP_KEYS = ("shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "syncwarp")


def _lines(facts: Facts, keys) -> list[int]:
    return sorted({facts.line(u.node) for u in facts.uses() if u.concept.key in keys})


def _floor(key: str, lines: list[int] | None = None) -> dict:
    f = hardware.FLOORS[key]
    d = {"toolkit": f.toolkit, "version": f.version, "why": f.why, "source": f.source}
    if lines:
        d["lines"] = lines
    return d


def _max_version(floors: list[dict], toolkit: str) -> str | None:
    vs = [tuple(int(x) for x in f["version"].split(".")) for f in floors
          if f["toolkit"] == toolkit and f.get("kind") != "compatibility" and f["version"][:1].isdigit()]
    return ".".join(map(str, max(vs))) if vs else None


def build_part(facts: Facts) -> dict:
    targets = list(facts.spec.targets)
    rows = []
    sync_lines = _lines(facts, _WARP_KEYS)
    cuda = backends.source()
    # the original, on NVIDIA
    floors = [_floor("sm_80"), _floor("sm_90")]
    if sync_lines:
        floors.append(_floor("sync_warp_cuda", sync_lines))
    if facts.uses(key="bfloat16"):
        floors.append(_floor("bf16_cuda", _lines(facts, ("bfloat16",))))
    if any(u.concept.kind == "warp_reduce" for u in facts.uses()):
        floors.append(_floor("reduce_sync", [facts.line(u.node) for u in facts.uses()
                                             if u.concept.kind == "warp_reduce"]))
    rows.append(_row(cuda.name, "original", [r for r in cuda.runs], floors, facts))
    for name in targets:
        b = backends.get(name)
        port = facts.ports.get(name)
        floors = []
        if any("hipcc" in backends.get(r.dialect).tools for r in b.runs):
            floors.append(_floor("hip_gfx942"))
            # what the port needs, and what compiling the original's spellings unchanged would need
            hip_text = port.body if port else ""
            if "_sync(" in hip_text:
                floors.append(_floor("sync_warp_hip", _lines(facts, _WARP_KEYS)))
            if facts.uses(key="syncwarp") and "__syncwarp(" in hip_text:
                floors.append(_floor("syncwarp_hip", _lines(facts, ("syncwarp",))))
            ws13 = [f.line for f in facts.findings if f.code == "WS013"]
            uses_const = "KP_WAVE_SIZE" in hip_text or "KP_WAVE_MAX" in hip_text
            if ws13 or uses_const:
                floors.append({**_floor("warpsize_constexpr", ws13), "kind": "compatibility", "status":
                               "handled: the port's compile-time uses spell the width as a macro"
                               if uses_const else "the original's compile-time warpSize breaks from ROCm 7"})
        if any("nvcc" in backends.get(r.dialect).tools for r in b.runs):
            floors += [_floor("sm_80"), _floor("sm_90")]
        if port is not None and "msl_version" in port.context:
            msl = port.context.get("msl_version") if port.ok else None
            reasons = port.context.get("msl_reasons", []) if port.ok else []
            floors.append({"toolkit": "MSL", "version": msl or "n/a (not translated)",
                           "why": "; ".join(reasons) or "no feature above MSL 2.0",
                           "source": "the Metal translator's feature floor (port header)"})
        role = "port" + ("" if port is None or port.ok else " (translate stops: see risks)")
        rows.append(_row(name, role, list(b.runs), floors, facts))
    from ..reference import c_compiler
    fn = facts.spec.reference[0] if facts.spec.reference else None
    rows.append({"backend": "cpu", "role": "reference", "hardware": [{"name": "the CI host CPU", "arch": "host",
                 "wave": 1}], "floors": [{"toolkit": "C99", "version": "C99", "why": f"scalar reference `{fn}` "
                 "compiled by the system C compiler", "source": c_compiler() or "no C compiler found here"}],
                 "summary": {}})
    return {"targets": targets, "rows": rows}


def _row(name: str, role: str, runs, floors: list[dict], facts: Facts) -> dict:
    hw = []
    for r in runs:
        gpus = hardware.by_family(r.target)
        hw.append({"run": f"{r.arch} (wave {r.wave})", "arch": r.arch, "wave": r.wave, "target": r.target,
                   "gpus": [g.name for g in gpus], "description": r.hardware})
    summary = {t: _max_version(floors, t) for t in ("CUDA", "ROCm", "MSL") if _max_version(floors, t)}
    return {"backend": name, "role": role, "hardware": hw, "floors": floors, "summary": summary}


def markdown(p: dict) -> list[str]:
    out = [f"Targets in scope (`@kp targets`): {', '.join(p['targets'])}.", "",
           "| backend | role | hardware | floors |", "|---|---|---|---|"]
    for r in p["rows"]:
        hw = "; ".join(f"{h.get('run', h.get('name'))}: {', '.join(h.get('gpus', [])) or h.get('name', '')}"
                       for h in r["hardware"])
        fl = "; ".join((f"{f['toolkit']} {f['version']}: {f['status']} ({f['why']}" if f.get("kind") == "compatibility"
                        else f"{f['toolkit']} ≥ {f['version']} ({f['why']}")
                       + (f", lines {', '.join(map(str, f['lines']))}" if f.get("lines") else "") + ")"
                       for f in r["floors"])
        if r["summary"]:
            fl = "**" + ", ".join(f"{k} ≥ {v}" for k, v in r["summary"].items()) + "**: " + fl
        out.append(f"| {r['backend']} | {r['role']} | {hw} | {fl} |")
    return out
