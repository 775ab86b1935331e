"""Part 3, abstraction strategy: HIP single-source, the thin portability header, per-backend
dispatch, or a library / framework operator, with the reason drawn from parts 1, 2 and 4."""
from __future__ import annotations

from .. import backends

from .facts import Facts

# What a team reaches for instead of a hand-written kernel, by operation class (vendor libraries).
_LIBRARIES = {
    "GEMM-like": "cuBLAS / hipBLAS (rocBLAS, hipBLASLt) / MPSMatrixMultiplication, or a Triton matmul",
    "reduction": "CUB DeviceReduce / hipCUB / MPSMatrixSum, or a framework reduction (torch.sum, torch.softmax)",
    "scan": "CUB DeviceScan / DeviceSelect, hipCUB, or a framework operator (torch.cumsum, boolean indexing)",
    "histogram": "CUB DeviceHistogram / hipCUB, or torch.bincount",
    "elementwise": "a framework elementwise operator (torch / CuPy), or a fused Triton kernel",
}


def build_part(facts: Facts, analysis: dict, risks: dict) -> dict:
    cls = analysis["class"]
    warp_ops = sorted({u.concept.key for u in facts.uses() if u.concept.warp_level})
    ws_sites = [i for i in risks["items"] if i["code"].startswith("WS")]
    blocked = {name: [d.code for d in p.diagnostics if d.severity == "error"]
               for name, p in facts.ports.items() if not p.ok and name in facts.spec.targets}
    portable_ok = facts.ports.get("portable") is not None and facts.ports["portable"].ok
    # the rewrites of the ports built with a host toolchain of their own (HIP's hipcc)
    hip_rewrites = sum(len(p.notes) for n, p in facts.ports.items() if backends.get(n).host_build is not None)
    reasons, per_backend = [], {}
    if cls == "GEMM-like" or any(i["code"] == "API" and "tensor" in i["what"] for i in risks["items"]):
        choice = "library"
        reasons.append(f"a {cls} kernel written with SIMT FMAs reaches a fraction of what the vendors' matrix "
                       "units and tuned libraries reach on every backend")
    elif blocked:
        choice = "per-backend dispatch"
        reasons.append("translate stops for " + ", ".join(f"{b} ({', '.join(c)})" for b, c in blocked.items())
                       + ": those backends need their own implementation behind a dispatch")
    elif warp_ops or ws_sites:
        choice = "portability header" if portable_ok else "HIP single-source"
        reasons.append(f"{len(warp_ops)} warp-level primitive(s) ({', '.join(warp_ops) or 'none'}) and "
                       f"{len(ws_sites)} wave-width assumption(s): one source through kp_warp.h builds with nvcc "
                       "and hipcc for wave 32 and 64 without #ifdefs in the kernel")
    else:
        choice = "HIP single-source"
        reasons.append(f"no warp-level code and {hip_rewrites} rewrite(s) in the HIP port: the CUDA text is "
                       "already HIP (hipify-level renames only)")
    if cls == "elementwise" and analysis.get("traffic") and (analysis["traffic"]["flops_per_element"] or 0) <= 4:
        reasons.append("memory-bound elementwise work: a framework operator reaches the same bandwidth; keep the "
                       "kernel only to fuse it with neighbours")
    for name in facts.spec.targets:
        p, b = facts.ports[name], backends.get(name)
        if "msl_version" in p.context:
            per_backend[name] = (f"generated MSL port (`translate --to {name}`), MSL " +
                                 str(p.context.get("msl_version")) if p.ok else "hand-written MSL: translate stops")
        elif "hipcc" in b.tools:
            per_backend[name] = ("kp_warp.h portable source built with hipcc" if choice == "portability header"
                                 else f"generated {b.display_name} port" if p.ok
                                 else f"hand-written {b.display_name}: translate stops")
    per_backend[backends.source().name] = "the original (source of truth)" + (
        ", or the portable source with nvcc" if choice == "portability header" else "")
    return {"choice": choice, "reasons": reasons, "alternative": _LIBRARIES.get(cls),
            "per_backend": per_backend, "risks_open": risks["open"]}


def markdown(p: dict) -> list[str]:
    out = [f"**{p['choice']}** — " + "; ".join(p["reasons"]) + "."]
    out += [f"- {b}: {how}" for b, how in p["per_backend"].items()]
    if p["alternative"]:
        out.append(f"- instead of a kernel: {p['alternative']}")
    out.append(f"- open risks to resolve first: {p['risks_open']} (part 4)")
    return out
