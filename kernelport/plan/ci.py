"""Part 7, CI matrix: which hardware tests which backend, the exact `kernelport verify` lines and a
GitHub Actions snippet, from the targets in scope."""
from __future__ import annotations

from .. import backends
from . import hardware
from .facts import Facts


def build_part(facts: Facts) -> dict:
    f = facts.path.name
    targets = list(facts.spec.targets)
    require = ",".join(targets + ["nvcc"])
    sched = "block,warp,thread"
    jobs = [{"runner": "cpu", "hardware": "any x86-64 Linux host (emulator, reference, hipcc, Metal checker)",
             "tests": targets + ["cuda (emulated)"],
             "commands": [f"kernelport translate {f} --to {','.join(targets)} --check",
                          f"kernelport verify {f} --require {require} --schedules {sched} --format junit"]}]
    device_ok = [b.name for b in backends.all() if b.device_runner]
    src = backends.source()
    own = {r.target for r in src.runs}  # the original's hardware, tested on the GPU itself
    for arch in (a for t in own for a in hardware.CI_HARDWARE.get(t, ())):
        gpus = ", ".join(g.name for g in hardware.by_arch(arch))
        jobs.append({"runner": f"nvidia-{arch}", "hardware": gpus, "tests": [src.name],
                     "commands": [f"kernelport verify {f} --require {','.join(src.tools)} --device {src.name}"]})
    for name in targets:
        b = backends.get(name)
        for run in b.compile_runs():
            if "xcrun" in b.tools:  # Apple's compiler runs only on macOS
                jobs.append({"runner": "macos-arm64", "hardware": "Apple silicon (xcrun metal)", "tests": [name],
                             "commands": [f"kernelport verify {f} --require {name}"],
                             "gap": "kernelport runs no Metal kernel on the GPU yet: the Mac job compiles with xcrun "
                                    "metal; numerics come from the emulator at wave 32"})
            elif run.target in hardware.CI_HARDWARE and run.target not in own:
                for arch in hardware.CI_HARDWARE[run.target]:
                    gpus = ", ".join(g.name for g in hardware.by_arch(arch)) or arch
                    jobs.append({"runner": f"amd-{arch}", "hardware": gpus, "tests": [name],
                                 "commands": [f"kernelport verify {f} --require hipcc"],
                                 "gap": "no `verify --device hip` yet (device runners: " + ", ".join(device_ok)
                                        + "): the AMD job builds for the GPU present; run the port with your "
                                        "harness until a HIP device runner exists"})
    seen, uniq = set(), []
    for j in jobs:
        if j["runner"] not in seen:
            seen.add(j["runner"])
            uniq.append(j)
    return {"jobs": uniq, "workflow": _workflow(f, uniq)}


def _workflow(f: str, jobs: list[dict]) -> str:
    lines = ["name: kernelport-" + f.rsplit(".", 1)[0], "on: [push, pull_request]", "jobs:", "  verify:",
             "    strategy:", "      matrix:", "        include:"]
    for j in jobs:
        label = "ubuntu-24.04" if j["runner"] == "cpu" else ("macos-14" if j["runner"] == "macos-arm64"
                                                             else f"[self-hosted, {j['runner']}]")
        lines.append(f"          - runner: {label}")
        lines.append(f"            run: \"{' && '.join(j['commands'])}\"")
    lines += ["    runs-on: ${{ matrix.runner }}", "    steps:", "      - uses: actions/checkout@v4",
              "      - run: pip install kernelport", "      - run: ${{ matrix.run }}"]
    return "\n".join(lines) + "\n"


def markdown(p: dict) -> list[str]:
    out = ["| runner | hardware | tests | commands |", "|---|---|---|---|"]
    for j in p["jobs"]:
        out.append(f"| {j['runner']} | {j['hardware']} | {', '.join(j['tests'])} | "
                   + "<br>".join(f"`{c}`" for c in j["commands"]) + (f"<br>gap: {j['gap']}" if j.get("gap") else "")
                   + " |")
    out += ["", "```yaml", p["workflow"].rstrip(), "```"]
    return out
