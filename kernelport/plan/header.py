"""Part 5, portability header: the primitives of kp_warp.h this kernel needs, in the header's
spelling, each with what it replaces in the original (read from the portable port)."""
from __future__ import annotations

import re

from .. import backends
from .facts import Facts


def _docs(header: str) -> dict[str, str]:
    """Each primitive's comment line in the header (the line above its first definition)."""
    out: dict[str, str] = {}
    prev = None
    lines = header.splitlines()
    for i, ln in enumerate(lines):
        m = re.match(r"\s*(?:#define|typedef [\w ]+|__device__ inline \w+)\s+(kp_\w+|KP_\w+)", ln)
        if not m or m.group(1) in out:
            continue
        j, doc = i - 1, []
        while j >= 0 and lines[j].lstrip().startswith("//"):
            t = lines[j].strip().lstrip("/").strip()
            if t and not t.startswith(("----", "====")):
                doc.insert(0, t)
            j -= 1
        if not doc and j >= 0 and re.match(r"\s*#define\s+kp_", lines[j]) and prev:
            doc = [out[prev]]  # a family defined together shares the comment above its first member
        out[m.group(1)] = " ".join(doc)
        prev = m.group(1)
    return out


def build_part(facts: Facts) -> dict:
    b = backends.get("portable")
    port = facts.ports.get("portable")
    header = next(iter(b.extra_files().values()))
    docs = _docs(header)
    by_name = {}
    for key, spelling in b.spellings.items():
        if spelling and spelling.startswith(("kp_", "KP_")):
            by_name.setdefault(re.match(r"[A-Za-z_]\w*", spelling).group(0), key)
    if port is None or not port.ok:
        return {"header": "kp_warp.h", "ok": False, "primitives": [],
                "reason": "; ".join(f"{d.location}: {d.code} {d.message}" for d in (port.diagnostics if port else [])
                                    if d.severity == "error") or "the portable port could not be written"}
    used = []
    for name in sorted(set(re.findall(r"\b(kp_\w+|KP_\w+)\b", port.body)) - {"kp_warp"}):
        notes = [n for n in port.notes if re.search(r"\b%s\b" % re.escape(name), n.after)]
        key = by_name.get(name)
        # concept renames leave no note: the original's uses of the concept are what it replaces
        uses = facts.uses(key=key) if key else []
        cuda = {u.concept.name("cuda") for u in uses} - {None}
        used.append({"primitive": name, "concept": key, "spelling": b.spellings.get(key or "") or name,
                     "doc": docs.get(name, ""), "replaces": sorted({n.before for n in notes} | cuda),
                     "lines": sorted({n.location.line for n in notes} | {facts.line(u.node) for u in uses})})
    return {"header": "kp_warp.h", "ok": True, "primitives": used,
            "include": '#include "kp_warp.h"', "command": f"kernelport translate {facts.path.name} --to portable"}


def markdown(p: dict) -> list[str]:
    if not p["ok"]:
        return [f"The portable port cannot be written: {p['reason']}."]
    if not p["primitives"]:
        return ["The kernel needs no primitive of `kp_warp.h`: it has no warp-level or wave-width-dependent code "
                "(the portable port is the original with the runtime names of the header)."]
    out = [f"`{p['include']}` (`{p['command']}` writes the port and the header). Primitives used:", "",
           "| primitive | replaces | lines | what it is |", "|---|---|---|---|"]
    for u in p["primitives"]:
        out.append(f"| `{u['spelling']}` | {', '.join(f'`{r}`' for r in u['replaces']) or '—'} | "
                   f"{', '.join(map(str, u['lines'])) or '—'} | {u['doc'][:140]} |")
    return out
