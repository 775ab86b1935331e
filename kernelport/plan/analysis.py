"""Part 2, operation analysis: what the kernel computes, read from its structure, its annotations
and one counted emulator run (memory traffic measured, flops counted per evaluated lane)."""
from __future__ import annotations

import re

from .. import cexpr, inputs
from ..model import build
from ..source import SourceFile
from . import hardware
from .facts import Facts

_SIZES = {"float": 4, "int": 4, "unsigned": 4, "unsigned int": 4, "uint": 4, "uint32_t": 4, "int32_t": 4,
          "half": 2, "__half": 2, "__nv_bfloat16": 2, "double": 8, "char": 1, "unsigned char": 1, "uint8_t": 1,
          "int8_t": 1, "short": 2, "unsigned short": 2, "long long": 8, "unsigned long long": 8, "int64_t": 8,
          "uint64_t": 8, "float2": 8, "float4": 16, "int2": 8, "int4": 16}


def type_size(t: str) -> int | None:
    t = " ".join(t.replace("const", "").replace("volatile", "").split())
    return _SIZES.get(t)


def names_for(module, template_args: list[str] | None, kernel, extra: dict | None = None) -> dict:
    """Values of the file's numeric macros (and template parameters) for constant expressions."""
    names: dict = {}
    for _ in range(3):  # macros defined from other macros
        for m in module.macros.values():
            if m.name in names:
                continue
            try:
                names[m.name] = cexpr.evaluate(m.value, names)
            except Exception:
                pass
    for p, v in zip(kernel.template_params if kernel else (), template_args or ()):
        try:
            names[p] = cexpr.evaluate(v, names)
        except Exception:
            pass
    names.update(extra or {})
    return names


def shared_arrays(module, kernel_names: set[str], names: dict, dynamic_bytes: int) -> list[dict]:
    out = []
    for s in module.shared:
        if s.function not in kernel_names:
            continue
        size = type_size(s.type)
        if s.dynamic:
            out.append({"name": s.name, "type": s.type, "dims": [], "bytes": dynamic_bytes, "dynamic": True,
                        "line": s.node.start_point[0] + 1})
            continue
        dims_text = [module.source.text_of(d) for d in s.dims]
        try:
            count = 1
            for d in dims_text:
                count *= int(cexpr.evaluate(d, names))
            nbytes = count * size if size else None
        except Exception:
            nbytes = None
        out.append({"name": s.name, "type": s.type, "dims": dims_text, "bytes": nbytes, "dynamic": False,
                    "line": s.node.start_point[0] + 1})
    return out


def port_shared_bytes(facts: Facts, backend: str, defines: dict) -> int | None:
    """Shared memory per block of a CUDA-syntax port (HIP, portable) with its wave macros set."""
    port = facts.ports.get(backend)
    if port is None or not port.ok:
        return None
    mod = build(SourceFile.from_text(port.body, f"<{backend}>"))
    k = next((f for f in mod.kernels if f.name == facts.name), None)
    if k is None:
        return None
    names = names_for(mod, facts.template_args, k, defines)
    scope = {facts.name} | {f.name for f in facts.scope}
    arrays = shared_arrays(mod, scope, names, facts.spec.shared_bytes())
    if any(a["bytes"] is None for a in arrays):
        return None
    return sum(a["bytes"] for a in arrays)


# -- structure ------------------------------------------------------------------------------------
def _reductions(facts: Facts) -> list[dict]:
    pats = []
    shfl = [u for u in facts.uses("shuffle") if u.concept.key in ("shfl_xor", "shfl_down")]
    if shfl:
        kinds = sorted({u.concept.key for u in shfl})
        pats.append({"level": "warp", "how": f"shuffle ladder ({', '.join(kinds)})",
                     "lines": sorted({facts.line(u.node) for u in shfl})})
    votes = [u for u in facts.uses("vote") if u.concept.key in ("any", "all", "ballot")]
    if votes:
        pats.append({"level": "warp", "how": "votes (" + ", ".join(sorted({u.concept.key for u in votes})) + ")",
                     "lines": sorted({facts.line(u.node) for u in votes})})
    # a shared tree: `s[tid] += s[tid + k]` in a loop whose step halves
    tree = []
    for f, n in facts.nodes("for_statement", "while_statement"):
        t = facts.text(n)
        if re.search(r"(>>=\s*1|/=\s*2|>>\s*1\b|/\s*2\b)", t) and re.search(r"\w+\[[^\]]*\]\s*\+=\s*\w+\[", t) \
                and any(s.name in t for s in facts.module.shared):
            tree.append(facts.line(n))
    if tree:
        pats.append({"level": "block", "how": "shared-memory tree (halving stride)", "lines": sorted(set(tree))})
    if shfl and facts.uses("barrier", "syncthreads") and any(
            a["name"] for a in facts.extra.get("shared", []) if not a["dynamic"]):
        pats.append({"level": "block", "how": "per-warp partials through shared memory, combined by one warp",
                     "lines": sorted({a["line"] for a in facts.extra["shared"]})})
    atom = [u for u in facts.uses("atomic")]
    glob = [u for u in atom if _atomic_target(facts, u) == "global"]
    if glob:
        pats.append({"level": "grid", "how": "blocks combine through global atomics ("
                     + ", ".join(sorted({u.concept.key.removeprefix("atomic_") for u in glob})) + ")",
                     "lines": sorted({facts.line(u.node) for u in glob})})
    return pats


def _atomic_target(facts: Facts, use) -> str:
    """"global" when an atomic's address names a pointer parameter, "shared" for a shared array."""
    from ..source import call_args
    args = call_args(use.node)
    if not args:
        return "unknown"
    text = facts.text(args[0])
    m = re.match(r"&?\s*\(?\s*(\w+)", text)
    name = m.group(1) if m else ""
    if any(s.name == name for s in facts.module.shared):
        return "shared"
    if any(p.name == name and p.pointer for f in facts.scope for p in f.params):
        return "global"
    return "unknown"


def _data_dependent_atomic(facts: Facts) -> bool:
    from ..source import call_args
    for u in facts.uses("atomic"):
        args = call_args(u.node)
        if args and re.search(r"\[[^\]]*\w+\s*\[", facts.text(args[0])):
            return True  # &bins[data[i]]: the address is itself loaded
    return False


def classify(facts: Facts, reductions: list[dict], flops: int) -> tuple[str, str]:
    keys = {u.concept.key for u in facts.uses()}
    shared = facts.extra.get("shared", [])
    if _data_dependent_atomic(facts):
        return "histogram", "atomics at addresses loaded from the input (scattered increments)"
    if "shfl_up" in keys or "lanemask_lt" in keys:
        return "scan", "prefix over lanes (" + ", ".join(sorted(keys & {"shfl_up", "lanemask_lt"})) + ")"
    if "ballot" in keys and ({"popc", "popc64"} & keys):
        return "scan", "stream compaction: ballot + popcount give each kept element its output slot"
    two_d = [a for a in shared if len(a["dims"]) >= 2]
    for f, n in facts.nodes("for_statement"):
        t = facts.text(n)
        if len(two_d) >= 2 and re.search(r"\+=\s*\w+\s*\[[^;]*\]\s*\*\s*\w+\s*\[", t):
            return "GEMM-like", "a loop accumulating products of two shared-memory tiles"
    if reductions and all(r["level"] == "grid" for r in reductions) and all(
            u.concept.key in ("atomic_or", "atomic_and", "atomic_xor") for u in facts.uses("atomic")):
        return "custom", "per-element predicates packed into bit words with atomic bit operations"
    if reductions:
        where = ", ".join(sorted({p["level"] for p in reductions}))
        c = facts.counts
        if c is not None:
            read = sum(b.distinct(False) for b in c.of_kind("global") if b.distinct(True) == 0)
            written = sum(b.distinct(True) for b in c.of_kind("global"))
            if written * 4 >= read > 0:
                return "reduction", f"{where} reductions, then every element is rewritten from them " \
                                    "(row-wise, normalising: output as large as the input)"
        return "reduction", f"{where} reductions to fewer outputs than inputs"
    if two_d and flops == 0:
        return "custom", "data movement through a shared-memory tile (transpose/permutation)"
    if _neighbours(facts):
        return "stencil", "reads of the same input at constant offsets"
    if shared and flops == 0:
        return "custom", "data movement through shared memory (permutation)"
    if not shared and not facts.uses("shuffle") and not facts.uses("vote"):
        if facts.uses("atomic"):
            return "custom", "per-element predicate packed into words with atomics"
        return "elementwise", "each output element from the same index of the inputs"
    return "custom", "no known pattern"


def _neighbours(facts: Facts) -> bool:
    for f, n in facts.nodes("subscript_expression"):
        t = facts.text(n)
        if re.search(r"\[\s*\w+\s*[+-]\s*\d+\s*\]", t):
            arr = t.split("[", 1)[0].strip()
            if any(p.name == arr and p.pointer for p in facts.kernel.params):
                return True
    return False


def data_types(facts: Facts) -> dict:
    buffers = {a.name: a.type for a in facts.spec.args.values()}
    scalar = {p.name: p.type for p in facts.kernel.params if not p.pointer}
    special = sorted({u.concept.key for u in facts.uses() if u.concept.key in ("half", "bfloat16", "double")})
    compute = sorted(facts.counts.flops) if facts.counts else []
    return {"buffers": buffers, "scalars": scalar, "special_types": special,
            "arithmetic": [{"float32": "float", "float16": "half", "float64": "double"}.get(c, c) for c in compute]}


def build_part(facts: Facts) -> dict:
    spec = facts.spec
    names = names_for(facts.module, facts.template_args, facts.kernel)
    scope_names = {f.name for f in facts.scope}
    shared = shared_arrays(facts.module, scope_names, names, spec.shared_bytes())
    facts.extra["shared"] = shared
    c = facts.counts
    flops = sum(c.flops.values()) if c else 0
    reductions = _reductions(facts)
    cls, why = classify(facts, reductions, flops)
    elements = max((spec.length(a) * inputs.LANES.get(spec.args[a].type, 1) for a in spec.args), default=0)
    part = {"class": cls, "class_reason": why, "data_types": data_types(facts), "reductions": reductions,
            "shared_memory": {"arrays": shared,
                              "bytes_per_block": (None if any(a["bytes"] is None for a in shared)
                                                  else sum(a["bytes"] for a in shared))},
            "launch": {"grid": list(spec.dims("grid")), "block": list(spec.dims("block")),
                       "threads_per_block": _prod(spec.dims("block")), "blocks": _prod(spec.dims("grid"))},
            "elements": elements}
    if c is None:
        part["traffic"] = None
        part["emulator_error"] = facts.emulator_error
        return part
    glob = c.of_kind("global")
    accessed = sum(b.read_bytes + b.write_bytes for b in glob)
    compulsory = sum((b.distinct(False) + b.distinct(True)) * b.itemsize for b in glob)
    shared_bytes = sum(b.read_bytes + b.write_bytes for b in c.of_kind("shared"))
    intensity = flops / compulsory if compulsory else None
    part["traffic"] = {
        "measured": "emulator run on the annotated sizes (thread schedule), every active lane's access",
        "buffers": [{"name": b.name, "read_bytes": b.read_bytes, "write_bytes": b.write_bytes,
                     "distinct_read": b.distinct(False) * b.itemsize, "distinct_written": b.distinct(True) * b.itemsize,
                     "atomics": b.atomic_ops} for b in glob],
        "global_bytes_accessed": accessed, "global_bytes_compulsory": compulsory,
        "shared_bytes_accessed": shared_bytes,
        "flops": flops, "flops_by_type": dict(c.flops), "special_function_ops": c.special,
        "flops_counted": "per lane the emulator evaluates a float operation on (FMA = 2); exact per thread in "
                         "the thread schedule, except lanes masked off by a branch that diverges between blocks",
        "bytes_per_element": round(compulsory / elements, 3) if elements else None,
        "flops_per_element": round(flops / elements, 3) if elements else None,
        "arithmetic_intensity": None if intensity is None else round(intensity, 4),
        "intensity_basis": "flops per byte of compulsory device-memory traffic (each distinct element read "
                           "and written once: perfect caching); the accessed traffic is the bound without caches",
    }
    part["verdicts"] = verdicts(intensity, facts)
    return part


def verdicts(intensity: float | None, facts: Facts) -> list[dict]:
    out = []
    atomics = sum(b.atomic_ops for b in facts.counts.of_kind("global")) + \
        sum(b.atomic_ops for b in facts.counts.of_kind("shared")) if facts.counts else 0
    for g in hardware.GPUS:
        ridge = g.balance
        if intensity is None or ridge is None:
            v = "memory-bound" if (intensity is not None and intensity < 1) else "unknown (no FP32 peak)"
        else:
            v = "compute-bound" if intensity >= ridge else "memory-bound"
        if atomics and intensity is not None and intensity < 0.05:
            v += " (atomic throughput may limit first)"
        out.append({"gpu": g.name, "arch": g.arch, "ridge_flops_per_byte": None if ridge is None else round(ridge, 2),
                    "verdict": v})
    return out


def _prod(xs) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def markdown(p: dict) -> list[str]:
    out = [f"- **Class**: {p['class']} — {p['class_reason']}."]
    dt = p["data_types"]
    out.append("- **Data types**: buffers " + ", ".join(f"`{k}` {v}" for k, v in dt["buffers"].items())
               + (("; scalars " + ", ".join(f"`{k}` {v}" for k, v in dt["scalars"].items())) if dt["scalars"] else "")
               + (f"; arithmetic in {', '.join(dt['arithmetic'])}" if dt["arithmetic"] else "; no float arithmetic")
               + (f"; special types: {', '.join(dt['special_types'])}" if dt["special_types"] else "") + ".")
    if p["reductions"]:
        out.append("- **Reduction pattern**: " + "; ".join(
            f"{r['level']}: {r['how']} (line{'s' if len(r['lines']) > 1 else ''} {', '.join(map(str, r['lines']))})"
            for r in p["reductions"]) + ".")
    else:
        out.append("- **Reduction pattern**: none.")
    sm = p["shared_memory"]
    arrays = ", ".join(f"`{a['name']}` {a['type']}[{']['.join(a['dims']) or 'dynamic'}] = {a['bytes']} B"
                       for a in sm["arrays"]) or "none"
    out.append(f"- **Shared memory per block**: {sm['bytes_per_block']} B ({arrays}).")
    la = p["launch"]
    out.append(f"- **Launch**: grid {tuple(la['grid'])} × block {tuple(la['block'])} = {la['blocks']} blocks of "
               f"{la['threads_per_block']} threads; {p['elements']} elements in the largest buffer.")
    t = p.get("traffic")
    if t is None:
        out.append(f"- **Traffic**: not measured ({p.get('emulator_error')}).")
        return out
    out.append(f"- **Bytes moved** (measured, emulator): {t['global_bytes_compulsory']} B compulsory "
               f"({t['bytes_per_element']} B/element), {t['global_bytes_accessed']} B accessed by all loads and "
               f"stores; shared memory {t['shared_bytes_accessed']} B.")
    out.append(f"- **Flops** (counted per evaluated lane): {t['flops']} ({t['flops_per_element']}/element)"
               + (f", plus {t['special_function_ops']} special-function calls" if t["special_function_ops"] else "")
               + f"; arithmetic intensity {t['arithmetic_intensity']} flop/B.")
    groups: dict[str, list[dict]] = {}
    for v in p["verdicts"]:
        groups.setdefault(v["verdict"], []).append(v)
    out.append("- **Bound** (intensity vs each GPU's ridge point, FP32 peak / bandwidth): " + "; ".join(
        f"{verdict} on {', '.join(v['arch'] + ' ' + v['gpu'].split(' ', 1)[1] for v in vs)} (ridge "
        + ", ".join(str(v["ridge_flops_per_byte"]) for v in vs) + " flop/B)" for verdict, vs in groups.items()) + ".")
    return out
