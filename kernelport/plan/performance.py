"""Part 8, performance expectations: per backend GPU, the roofline time of the counted work at the
datasheet peaks (ESTIMATES), and with `--device cuda` the original timed on the GPU (CUDA events,
median of runs) with its achieved bandwidth and throughput as a share of peak (MEASURED)."""
from __future__ import annotations

from .. import backends
from . import hardware
from .facts import Facts

# Below this the fixed cost of a launch (a few microseconds on every vendor's stack) dominates.
LAUNCH_FLOOR_US = 5.0


def _estimate(g: hardware.GPU, t: dict) -> dict:
    b, f = t["global_bytes_compulsory"], t["flops"]
    mem_us = b / (g.bandwidth_gbs * 1e9) * 1e6
    fl_us = f / (g.fp32_tflops * 1e12) * 1e6 if g.fp32_tflops else None
    bound = "memory" if fl_us is None or mem_us >= fl_us else "compute"
    t_us = max(mem_us, fl_us or 0.0)
    share_other = (fl_us / t_us if bound == "memory" and fl_us else mem_us / t_us if t_us else 0.0)
    return {"gpu": g.name, "arch": g.arch, "family": g.family, "bound": bound,
            "roofline_us": round(t_us, 3), "memory_us": round(mem_us, 3),
            "compute_us": None if fl_us is None else round(fl_us, 3),
            "other_resource_share": round(share_other, 4),
            "launch_dominated": t_us < LAUNCH_FLOOR_US, "kind": "estimate"}


def build_part(facts: Facts, analysis: dict, timing: dict | None = None, timing_error: str | None = None) -> dict:
    t = analysis.get("traffic")
    part = {"estimates": [], "measured": None, "basis": "roofline at the datasheet peaks (part 1 table) of the "
            "compulsory traffic and counted flops of part 2: a lower bound on time, an upper bound on throughput; "
            f"below {LAUNCH_FLOOR_US:g} µs the launch overhead (an assumed figure) dominates"}
    if t is None:
        part["basis"] = "no counted run: " + (analysis.get("emulator_error") or "unknown")
        return part
    families = {"cuda"} | {r.target for name in facts.spec.targets for r in backends.get(name).runs}
    part["estimates"] = [_estimate(g, t) for g in hardware.GPUS if g.family in families]
    if timing is not None:
        part["measured"] = _measured(timing, t)
    elif timing_error:
        part["measured"] = {"error": timing_error}
    return part


def _measured(timing: dict, t: dict) -> dict:
    dev = timing.get("device", "")
    # the datasheet entry whose model word (H200, A100, ...) appears in the device's name
    g = next((g for g in hardware.GPUS if g.vendor == "NVIDIA" and g.name.split()[1] in dev), None)
    ms = timing["median_ms"]
    gbs = t["global_bytes_compulsory"] / (ms * 1e-3) / 1e9
    gflops = t["flops"] / (ms * 1e-3) / 1e9
    m = {"kind": "measured", "device": dev, "sm": timing.get("sm"), "runs": timing.get("runs"),
         "median_ms": ms, "min_ms": timing.get("min_ms"), "achieved_gbs": round(gbs, 2),
         "achieved_gflops": round(gflops, 2), "attribute_peak_gbs": timing.get("attribute_peak_gbs")}
    if g is not None:
        m["datasheet"] = g.name
        m["bandwidth_share"] = round(gbs / g.bandwidth_gbs, 4)
        m["flops_share"] = round(gflops / (g.fp32_tflops * 1e3), 4) if g.fp32_tflops else None
    if timing.get("attribute_peak_gbs"):
        m["bandwidth_share_of_attribute_peak"] = round(gbs / timing["attribute_peak_gbs"], 4)
    return m


def markdown(p: dict) -> list[str]:
    out = [f"Estimates (basis: {p['basis']}).", "", "| GPU | bound | roofline time | note |", "|---|---|---|---|"]
    for e in p["estimates"]:
        note = "launch-dominated at this size" if e["launch_dominated"] else ""
        other = e["other_resource_share"]
        note = (note + "; " if note else "") + (f"compute at {other:.0%} of peak when memory is saturated"
                                                if e["bound"] == "memory" else f"memory at {other:.0%} of peak")
        out.append(f"| {e['gpu']} ({e['arch']}) | {e['bound']} | {e['roofline_us']} µs (estimate) | {note} |")
    m = p.get("measured")
    if m and "error" in m:
        out.append(f"\nMeasured (`--device cuda`): not run — {m['error']}.")
    elif m:
        share = f"{m['bandwidth_share']:.1%} of the {m['datasheet']} datasheet bandwidth" if m.get("bandwidth_share") \
            is not None else "no datasheet entry for this device"
        out.append(f"\nMeasured on {m['device']} ({m['sm']}): median {m['median_ms']:.4f} ms of {m['runs']} runs "
                   f"(CUDA events) → {m['achieved_gbs']} GB/s compulsory traffic = {share}"
                   + (f", {m['bandwidth_share_of_attribute_peak']:.1%} of the peak its attributes give"
                      if m.get("bandwidth_share_of_attribute_peak") else "")
                   + f"; {m['achieved_gflops']} GFLOP/s"
                   + (f" = {m['flops_share']:.2%} of FP32 peak" if m.get("flops_share") is not None else "") + ".")
    return out
