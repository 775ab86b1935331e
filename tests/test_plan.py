"""`kernelport plan`: every example gets all eight parts, the checklist and the CPU fallback; the JSON
validates against the committed schema; each part is derived from the kernel (a changed block size,
data type or removed shuffle changes the part that depends on it); the timing driver builds."""
from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
PARTS = ("backend_matrix", "operation", "strategy", "risks", "header", "blocks", "ci", "performance")


@lru_cache(maxsize=None)
def plan_of(path: str, kernel: str | None = None) -> dict:
    from kernelport.plan import build_plan
    return build_plan(Path(path), kernel)


def schema() -> dict:
    import kernelport.plan
    return json.loads((Path(kernelport.plan.__file__).parent / "plan.schema.json").read_text())


def kp(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_gets_every_part_and_validates(example):
    import jsonschema
    from kernelport.plan.render import as_json, as_markdown
    plan = plan_of(str(example))
    jsonschema.validate(json.loads(as_json(plan)), schema())
    assert tuple(plan["parts"]) == PARTS
    assert plan["review"] and all(i["answer"] in ("yes", "no") for i in plan["review"])
    assert plan["cpu_fallback"]["measured_us"] is not None, plan["cpu_fallback"]
    t = plan["parts"]["operation"]["traffic"]
    assert t is not None and t["global_bytes_compulsory"] > 0
    md = as_markdown(plan)
    for i in range(1, 9):
        assert f"\n## {i}. " in md
    assert "## Review checklist" in md and "## CPU fallback" in md


def test_counts_are_the_kernels_own():
    """saxpy: y = a*x + y over n floats reads x and y and writes y once per element: 12 B, and one FMA."""
    t = plan_of(str(ROOT / "examples/saxpy.cu"))["parts"]["operation"]["traffic"]
    n = 1 << 18
    assert t["global_bytes_compulsory"] == 12 * n
    assert t["flops"] == 2 * n and t["flops_by_type"] == {"float32": 2 * n}
    assert plan_of(str(ROOT / "examples/saxpy.cu"))["parts"]["operation"]["class"] == "elementwise"


def test_classes_follow_structure():
    cls = {p.stem: plan_of(str(p))["parts"]["operation"]["class"] for p in EXAMPLES}
    assert cls["matmul_tiled"] == "GEMM-like"
    assert cls["histogram"] == "histogram"
    assert cls["warp_scan"] == "scan" and cls["stream_compact"] == "scan"
    assert cls["block_reduce"] == "reduction" and cls["softmax"] == "reduction"
    assert cls["vector_add"] == "elementwise"


def _variant(tmp_path, example: str, edits: list[tuple[str, str]]) -> Path:
    text = (ROOT / "examples" / example).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    p = tmp_path / example
    p.write_text(text)
    return p


def test_block_size_changes_block_part(tmp_path):
    base = plan_of(str(ROOT / "examples/softmax.cu"))["parts"]["blocks"]
    p = _variant(tmp_path, "softmax.cu", [("// @kp block      256", "// @kp block      512")])
    from kernelport.plan import build_plan
    new = build_plan(p)["parts"]["blocks"]
    assert base["threads"] == 256 and new["threads"] == 512
    assert {r["waves_per_block"] for r in new["rows"]} == {16, 8}
    claim = next(c for c in new["why_checks"] if c["claim"] == "8 warps")
    assert not claim["holds"] and next(c for c in base["why_checks"] if c["claim"] == "8 warps")["holds"]


def test_block_not_multiple_of_wave_is_flagged(tmp_path):
    p = _variant(tmp_path, "saxpy.cu", [("// @kp block      256", "// @kp block      96")])
    from kernelport.plan import build_plan
    b = build_plan(p)["parts"]["blocks"]
    assert not b["portable_across_waves"] and b["suggestion"]
    assert any(not r["multiple_of_wave"] and r["wave"] == 64 for r in b["rows"])


def test_data_type_changes_operation_and_risks(tmp_path):
    p = _variant(tmp_path, "saxpy.cu", [("float", "double")])  # buffers, scalar, kernel and reference
    from kernelport.plan import build_plan
    plan = build_plan(p)
    op = plan["parts"]["operation"]
    assert op["data_types"]["buffers"] == {"x": "double", "y": "double"}
    assert op["traffic"]["flops_by_type"] == {"float64": 2 * (1 << 18)}
    assert op["traffic"]["global_bytes_compulsory"] == 24 * (1 << 18)
    codes = {i["code"] for i in plan["parts"]["risks"]["items"]}
    assert "MTL-DOUBLE" in codes or "KP214" in codes
    assert "MTL-DOUBLE" not in {i["code"] for i in plan_of(str(ROOT / "examples/saxpy.cu"))["parts"]["risks"]["items"]}


def test_removing_a_shuffle_changes_header_risks_and_reductions(tmp_path):
    base = plan_of(str(ROOT / "examples/warp_reduce.cu"))["parts"]
    p = _variant(tmp_path, "warp_reduce.cu", [("val += __shfl_down_sync(0xffffffff, val, offset);", "val += 0.0f;")])
    from kernelport.plan import build_plan
    new = build_plan(p)["parts"]
    prims = lambda parts: {u["primitive"] for u in parts["header"]["primitives"]}  # noqa: E731
    assert "kp_shfl_down_sync" in prims(base) and "kp_shfl_down_sync" not in prims(new)
    assert any(i["code"] == "WS007" for i in base["risks"]["items"])
    assert not any(i["code"] == "WS007" for i in new["risks"]["items"])
    assert any("shuffle" in r["how"] for r in base["operation"]["reductions"])
    assert not any("shuffle" in r["how"] for r in new["operation"]["reductions"])


def test_translate_status_per_risk():
    items = plan_of(str(ROOT / "examples/softmax.cu"))["parts"]["risks"]["items"]
    ws004 = next(i for i in items if i["code"] == "WS004")
    assert ws004["translate"]["hip"].startswith("yes") and "warpSize / 2" in ws004["translate"]["hip"]


def test_hardware_table_has_a_source_for_every_gpu():
    from kernelport.plan import hardware
    archs = {g.arch for g in hardware.GPUS}
    assert {"sm_80", "sm_90", "gfx90a", "gfx942", "gfx1030", "gfx1100", "apple"} <= archs
    for g in hardware.GPUS:
        assert g.sources and all("http" in s for s in g.sources), g.name
    assert all(f.source.startswith("http") for f in hardware.FLOORS.values())


def test_cli_markdown_json_and_errors(tmp_path):
    r = kp("plan", ROOT / "examples/vector_add.cu")
    assert r.returncode == 0, r.stderr
    assert "## 8. Performance expectations" in r.stdout
    r = kp("plan", ROOT / "examples/vector_add.cu", "--format", "yaml")
    assert r.returncode == 2 and "unknown format" in r.stderr and "Traceback" not in r.stderr
    r = kp("plan", tmp_path / "missing.cu")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = kp("plan", ROOT / "examples/vector_add.cu", "--kernel", "nope")
    assert r.returncode == 2 and "no kernel named 'nope'" in r.stderr
    out = tmp_path / "plan.json"
    out.write_text("my notes\n")
    r = kp("plan", ROOT / "examples/vector_add.cu", "--format", "json", "-o", out)
    assert r.returncode == 2 and out.read_text() == "my notes\n"  # never overwrite a user's file
    r = kp("plan", ROOT / "examples/vector_add.cu", "--format", "json", "-o", out, "--force")
    assert r.returncode == 0 and json.loads(out.read_text())["kernel"] == "vector_add"


def test_measured_timing_is_a_share_of_peak(tmp_path):
    """A result line of the timing driver (as the lead's H200 run prints it) becomes part 8's figures."""
    plan = plan_of(str(ROOT / "examples/saxpy.cu"))
    nbytes = plan["parts"]["operation"]["traffic"]["global_bytes_compulsory"]
    line = {"kernel": "saxpy", "device": "NVIDIA H200", "sm": "sm_90", "runs": 50, "median_ms": 0.002,
            "min_ms": 0.0019, "max_ms": 0.003, "bytes": nbytes, "flops": 0, "achieved_gbs": 0,
            "achieved_gflops": 0, "attribute_peak_gbs": 4800.0}
    res = tmp_path / "result.json"
    res.write_text("build output\n" + json.dumps(line) + "\n")
    r = kp("plan", ROOT / "examples/saxpy.cu", "--format", "json", "--timing", res)
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["parts"]["performance"]["measured"]
    gbs = nbytes / 2e-6 / 1e9
    assert m["kind"] == "measured" and m["datasheet"] == "NVIDIA H200 SXM"
    assert m["achieved_gbs"] == pytest.approx(gbs, rel=1e-3)
    assert m["bandwidth_share"] == pytest.approx(gbs / 4800, rel=1e-3)


def test_timing_driver_is_standalone_and_compiles(tmp_path):
    nvcc = require_tool("nvcc")
    d = tmp_path / "drv"
    r = kp("plan", ROOT / "examples/softmax.cu", "--emit-timing-driver", d)
    assert r.returncode == 0, r.stderr
    assert {"timing.cu", "softmax.cu", "x.bin", "out.bin"} <= {p.name for p in d.iterdir()}
    assert (d / "x.bin").stat().st_size == 64 * 1000 * 4
    text = (d / "timing.cu").read_text()
    assert '#include "softmax.cu"' in text and "cudaEventElapsedTime" in text
    c = subprocess.run([nvcc.path, "-arch=sm_80", "-c", "-o",
                        str(d / "timing.o"), str(d / "timing.cu")], capture_output=True, text=True, timeout=600,
                       cwd=d)
    assert c.returncode == 0, c.stderr


def test_device_cuda_without_a_gpu_says_why():
    import shutil
    if shutil.which("nvidia-smi"):
        pytest.skip("a GPU is present: the run is measured instead")
    r = kp("plan", ROOT / "examples/vector_add.cu", "--format", "json", "--device", "cuda")
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["parts"]["performance"]["measured"]
    assert "error" in m and m["error"]
