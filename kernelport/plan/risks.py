"""Part 4, portability risk register: every NVIDIA-specific thing this kernel uses (lint findings,
translate's diagnostics, and model-level constructs lint does not report), each with its
mitigation and whether `translate` already applies it per backend.  The implementation checklist."""
from __future__ import annotations

from .. import backends

import re

from .facts import Facts

# Constructs found in the kernel's text that need a decision on every non-NVIDIA backend.
_TEXT_RISKS = (
    (re.compile(r"\b(nvcuda::)?wmma::|\bmma_sync\b|\bmma\.sync\b"), "tensor-core API (WMMA/MMA)",
     "rocWMMA on CDNA (different fragment shapes; no RDNA2 support), simdgroup_matrix on Metal: a per-backend "
     "dispatch, or a library GEMM"),
    (re.compile(r"__nv_fp8|\bfp8_e4m3\b|\bfp8_e5m2\b"), "FP8 types",
     "HIP's __hip_fp8 (gfx942: FNUZ encodings differ from OCP FP8 on NVIDIA); no FP8 on Metal"),
    (re.compile(r"cudaLaunchCooperativeKernel|\bgrid\.sync\(\)|this_grid\(\)"), "cooperative launch / grid sync",
     "hipLaunchCooperativeKernel (occupancy-limited grid); Metal has no grid-wide barrier: split the kernel"),
    (re.compile(r"__ldg\s*\("), "__ldg read-only cache loads",
     "plain loads of `const __restrict__` pointers (HIP accepts __ldg; Metal: `const device`)"),
    (re.compile(r"\bcuda::(atomic|barrier|pipeline)|__pipeline_memcpy_async|cp\.async"), "libcu++ / async copy",
     "no HIP or Metal equivalent: plain loads through shared memory"),
)


def _fix_text(code: str) -> str:
    from ..lint import rule
    r = rule.get(code)
    if r is None:
        return ""
    m = re.search(r"\*\*Fix\*\*:\s*(.+?)(?:\n\n|$)", r.docs, re.S)
    text = " ".join((m.group(1) if m else r.summary).split())
    return text.split(". ")[0].rstrip(".") + "."


def _applied(facts: Facts, line: int) -> dict[str, str]:
    out = {}
    for name, port in facts.ports.items():
        if name not in facts.spec.targets and not backends.get(name).plan_always:
            continue
        notes = [n for n in port.notes if n.location.line == line]
        errs = [d for d in port.diagnostics if d.location.line == line and d.severity == "error"]
        if errs:
            out[name] = f"no: {errs[0].code} stops the translation"
        elif notes:
            out[name] = "yes: " + "; ".join(sorted({f"{n.before} -> {n.after}" for n in notes}))[:160]
        elif port.ok:
            out[name] = _line_in_port(facts, port, line)
    return out


def _line_in_port(facts: Facts, port, line: int) -> str:
    """Whether the port rewrote the source line (a renamed intrinsic leaves no note): the port's
    closest line when it differs."""
    import difflib
    src_lines = facts.src.text.splitlines()
    text = src_lines[line - 1].strip() if 0 < line <= len(src_lines) else ""
    body = [ln.strip() for ln in port.body.splitlines()]
    if len(body) == len(src_lines):  # a line-aligned port (HIP, portable): the same line
        same = body[line - 1]
        return "no rewrite at this line" if same == text else f"yes: `{same[:150]}`"
    if not text or text in body:
        return "no rewrite at this line"
    close = difflib.get_close_matches(text, body, 1, 0.6)
    return "yes: " + (f"closest port line `{close[0][:130]}`" if close else "the line is rewritten")


def build_part(facts: Facts) -> dict:
    items = []
    for f in facts.findings:
        items.append({"source": "lint", "code": f.code, "name": f.name, "line": f.line, "severity": f.severity,
                      "what": f.message.split(": ", 1)[0], "detail": f.message,
                      "mitigation": (f.fix.message if f.fix else "") or _fix_text(f.code),
                      "translate": _applied(facts, f.line)})
    seen = {(i["line"], i["code"]) for i in items}
    for name, port in facts.ports.items():
        for d in port.diagnostics:
            if (d.location.line, d.code) in seen:
                continue
            seen.add((d.location.line, d.code))
            items.append({"source": f"translate --to {name}", "code": d.code, "name": "no safe rewrite",
                          "line": d.location.line, "severity": d.severity, "what": d.message, "detail": d.message,
                          "mitigation": d.hint or "rewrite by hand for this backend",
                          "translate": {name: "no: the translation stops" if d.severity == "error" else "warned"}})
    items += _model_risks(facts)
    items.sort(key=lambda i: (i["line"], i["code"]))
    open_items = [i for i in items if any(v.startswith("no:") for v in i["translate"].values())
                  or not i["translate"]]
    return {"items": items, "open": len(open_items),
            "summary": f"{len(items)} item(s); {len(items) - len(open_items)} handled by translate on every "
                       f"target in scope, {len(open_items)} need a decision"}


def _model_risks(facts: Facts) -> list[dict]:
    out = []
    for node, fn in facts.module.asm:
        if fn in {f.name for f in facts.scope}:
            line = facts.line(node)
            out.append(_item("model", "PTX", "inline PTX", line, "inline assembly is NVIDIA-only",
                             "an intrinsic per backend (translate maps only the %laneid idiom)", facts))
    for f, n in facts.nodes("call_expression"):
        if any(c.type == "kernel_call_syntax" for c in n.children) and f.is_device:
            out.append(_item("model", "DYNPAR", "dynamic parallelism", facts.line(n),
                             "a kernel launch from device code", "HIP supports none, Metal none: launch from the host",
                             facts))
    text_lines = facts.src.text.splitlines()
    for ln in sorted(facts.lines):
        if ln - 1 >= len(text_lines):
            continue
        t = text_lines[ln - 1].split("//", 1)[0]
        for rx, what, fix in _TEXT_RISKS:
            if rx.search(t):
                out.append(_item("model", "API", what, ln, what + " is NVIDIA-specific", fix, facts))
    exposed = {r for t in facts.spec.targets for r in backends.get(t).plan_risks}
    if "float atomics on threadgroup memory" in exposed:
        from .analysis import _atomic_target
        shared_types = {s.name: s.type for s in facts.module.shared}
        from ..source import call_args
        for u in facts.uses("atomic"):
            args = call_args(u.node)
            if not args:
                continue
            m = re.match(r"&?\s*\(?\s*(\w+)", facts.text(args[0]))
            name = m.group(1) if m else ""
            if _atomic_target(facts, u) == "shared" and shared_types.get(name, "").strip() in ("float", "half"):
                out.append(_item("model", "MTL-ATOMIC", "float atomic on threadgroup memory (Metal)", facts.line(u.node),
                                 "Metal has no float atomic on threadgroup memory",
                                 "a compare-and-swap loop (translate emits kp_atomic_* helpers): slower under "
                                 "contention; consider per-SIMD-group partials", facts))
    if "double" in exposed:
        for u in facts.uses(key="double"):
            out.append(_item("model", "MTL-DOUBLE", "double on Metal", facts.line(u.node), "Metal has no double",
                             "translate --demote-double computes in float (accuracy changes: re-verify), or keep a "
                             "float kernel for Metal", facts))
    return out


def _item(source, code, name, line, what, mitigation, facts) -> dict:
    return {"source": source, "code": code, "name": name, "line": line, "severity": "warning", "what": what,
            "detail": what, "mitigation": mitigation, "translate": _applied(facts, line)}


def markdown(p: dict) -> list[str]:
    out = [p["summary"] + ".", "", "| line | code | risk | mitigation | translate applies it |", "|---|---|---|---|---|"]
    for i in p["items"]:
        tr = "; ".join(f"{k}: {v}" for k, v in i["translate"].items()) or "—"
        out.append(f"| {i['line']} | {i['code']} | {i['what']} | {i['mitigation']} | {tr} |")
    if not p["items"]:
        out.append("| — | — | nothing NVIDIA-specific found | — | — |")
    return out
