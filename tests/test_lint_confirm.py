"""`kernelport lint --confirm` and `kernelport verify --wave-invariance` (issue 18): warp-size
findings confirmed by running their kernel at wave 32 and 64, latent where the outputs agree,
not run (with the reason) where the kernel cannot be run; text, JSON and SARIF; .hip input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _annotated(name: str, params: str, args: list[str], body: str, grid: int = 4, ref: str = "") -> str:
    """A kernel with 64-thread blocks, its `// @kp` lines and a reference `NAME_ref` (which a
    comparison of two widths never runs)."""
    names = [p.split()[-1].lstrip("*") for p in params.split(",")]
    return "\n".join([f"void {name}_ref({params})", "{", ref, "}", "", f"// @kp kernel     {name}",
                      f"// @kp grid       {grid}", "// @kp block      64", *(f"// @kp arg        {a}" for a in args),
                      f"// @kp reference  {name}_ref({', '.join(names)})", "// @kp tolerance  exact",
                      f"__global__ void {name}({params})", "{", body, "}", ""])


# A ballot kept in 32 bits and counted by the lanes `% 32` picks: wrong on a 64-lane wave.
HITS = _annotated("count_hits", "const float* x, int* count",
                  ["x      in   float[256]  uniform(0, 1)", "count  out  int[4]"], """\
    unsigned int b = __ballot_sync(0xffffffff, x[blockIdx.x * 64 + threadIdx.x] > 0.5f);
    if (threadIdx.x % 32 == 0) atomicAdd(&count[blockIdx.x], __popc(b));""",
                  ref="    for (int i = 0; i < 256; i++) count[i / 64] += x[i] > 0.5f;")
# The look-alike: a 32-lane ladder with its leaders `% 32`: each half of a 64-lane wave folds its own 32.
SUMS = _annotated("sums", "const int* x, int* out", ["x    in   int[256]  integers(0, 8)", "out  out  int[4]"], """\
    int v = x[blockIdx.x * 64 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) atomicAdd(&out[blockIdx.x], v);""",
              ref="    for (int i = 0; i < 256; i++) out[i / 64] += x[i];")
# No annotations and no host code that launches it: nothing says how big its buffer is.
UNSIZED = """\
__global__ void unsized(int* out)
{
    out[threadIdx.x] += __shfl_sync(0xffffffff, out[threadIdx.x], 0);
}
"""


def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd or ROOT, timeout=600, env={"PATH": "/usr/bin:/bin"})
    assert "Traceback" not in r.stderr and "internal error" not in r.stdout, r.stderr + r.stdout
    return r


def _write(tmp_path: Path, name: str, *parts: str) -> Path:
    p = tmp_path / name
    p.write_text("\n".join(parts))
    return p


def _by_line(findings) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for f in findings:
        out.setdefault(f["line"], []).append(f)
    return out


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1) if needle in l)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """One file, three kernels: confirmed, latent, not run; its lint --confirm JSON."""
    d = tmp_path_factory.mktemp("mixed")
    p = _write(d, "k.cu", HITS, SUMS, UNSIZED)
    r = kp("lint", "--confirm", "--format", "json", "k.cu", cwd=d)
    assert r.returncode == 1, r.stderr
    return p, json.loads(r.stdout)


def test_confirmed_finding_shows_the_first_differing_element(mixed):
    p, data = mixed
    ballot = _by_line(data)[_line_of(p, "__ballot_sync")]
    assert {f["code"] for f in ballot} >= {"WS008"}
    for f in ballot:
        c = f["confirmation"]
        assert c["status"] == "confirmed" and c["kernel"] == "count_hits" and c["inputs"] == "annotated"
        assert c["buffer"] == "count" and c["index"] == 0 and c["waves"] == [32, 64]
        assert c["narrow"] != c["wide"]  # the element at each width, as the detail says
        assert f"count[0] = {c['wide']} at wave 64, {c['narrow']} at wave 32" in c["detail"]


def test_lookalike_is_latent_and_unsized_kernel_is_not_run(mixed):
    p, data = mixed
    by = _by_line(data)
    ladder = by[_line_of(p, "for (int o = 16")]
    assert ladder and all(f["confirmation"]["status"] == "latent" for f in ladder)
    assert "same output at wave 32 and 64" in ladder[0]["confirmation"]["detail"]
    unsized = by[_line_of(p, "out[threadIdx.x] += __shfl_sync")]
    c = unsized[0]["confirmation"]
    assert c["status"] == "not run" and c["reason"] == "needs sizes" and c["kernel"] == "unsized"
    # only warp-size findings are run: no other rule's finding carries a confirmation
    assert all(("confirmation" in f) == f["code"].startswith("WS") for f in data)


def test_text_formats_show_the_confirmation(tmp_path):
    p = _write(tmp_path, "k.cu", HITS, SUMS)
    r = kp("lint", "--confirm", "--format", "concise", p.name, cwd=tmp_path)
    lines = r.stdout.splitlines()
    assert any("WS008" in l and "[confirmed: kernel count_hits: count[0] = " in l for l in lines), r.stdout
    assert any("WS004" in l and "[latent: kernel sums: same output" in l for l in lines), r.stdout
    assert "Confirmed by running at both wave widths:" in r.stderr and "confirmed" in r.stderr
    full = kp("lint", "--confirm", p.name, cwd=tmp_path).stdout
    assert "= confirmed: kernel count_hits: count[0] = " in full and "= latent: kernel sums:" in full
    gh = kp("lint", "--confirm", "--format", "github", p.name, cwd=tmp_path).stdout
    assert "[confirmed: kernel count_hits" in gh


def test_sarif_carries_the_confirmation_as_a_result_property(tmp_path):
    p = _write(tmp_path, "k.cu", HITS, SUMS)
    doc = json.loads(kp("lint", "--confirm", "--format", "sarif", p.name, cwd=tmp_path).stdout)
    results = doc["runs"][0]["results"]
    status = {(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]):
              r["properties"]["confirmation"]["status"] for r in results if r["ruleId"].startswith("WS")}
    assert status[(_line_of(p, "__ballot_sync"), "WS008")] == "confirmed"
    assert status[(_line_of(p, "for (int o = 16"), "WS004")] == "latent"
    conf = next(r["properties"]["confirmation"] for r in results if r["ruleId"] == "WS008")
    assert conf["buffer"] == "count" and isinstance(conf["index"], int)


def test_without_confirm_nothing_runs_and_the_json_is_unchanged(tmp_path):
    p = _write(tmp_path, "k.cu", HITS)
    r = kp("lint", "--format", "json", p.name, cwd=tmp_path)
    assert r.stdout.strip() and all("confirmation" not in f for f in json.loads(r.stdout))
    code = ("import sys\nfrom kernelport.cli import app\n"
            f"try:\n    app(['lint', {str(p)!r}, '--format', 'json'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('kernelport.emulator', 'kernelport.wave_compare', "
            "'kernelport.lint.confirm', 'numpy'))), file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stderr.strip().splitlines()[-1] == "[]", out.stderr  # lint's start-up: no emulator, no numpy


def test_hip_file_runs_against_itself_and_its_warp_size_twin_is_silent(tmp_path):
    hazard = _write(tmp_path, "ballot.hip", _annotated("hk", "int* c", ["c  out  int[2]"], """\
    unsigned int b = __ballot(threadIdx.x < 40);
    if (threadIdx.x % 32 == 0) atomicAdd(&c[blockIdx.x], __popc(b));""", grid=2))
    data = json.loads(kp("lint", "--confirm", "--format", "json", hazard.name, cwd=tmp_path).stdout)
    ws = [f for f in data if f["code"].startswith("WS")]
    assert ws and all(f["confirmation"]["status"] == "confirmed" for f in ws)
    assert "c[0] = " in ws[0]["confirmation"]["detail"]
    twin = tmp_path / "twin"
    twin.mkdir()
    fixed = _write(twin, "ballot.hip", hazard.read_text().replace("unsigned int b", "unsigned long long b")
                   .replace("% 32", "% warpSize").replace("__popc(", "__popcll("))
    r = kp("lint", "--confirm", "--format", "json", fixed.name, cwd=twin)
    assert [f for f in json.loads(r.stdout) if f["code"].startswith("WS")] == []  # silent
    inv = kp("verify", "--wave-invariance", "--format", "json", fixed.name, cwd=twin)
    assert inv.returncode == 0 and [r["status"] for r in json.loads(inv.stdout)] == ["same"]


def test_kernel_the_emulator_cannot_run_is_not_run_with_the_reason(tmp_path):
    p = _write(tmp_path, "cast.cu", _annotated("addr", "int* c", ["c  out  int[64]"], """\
    int v = threadIdx.x;
    int *q = &v;  /* the address of a register: the emulator refuses it */
    c[threadIdx.x] = *q + (threadIdx.x & 31) + __shfl_sync(0xffffffff, 1, 0);""", grid=1))
    data = json.loads(kp("lint", "--confirm", "--format", "json", p.name, cwd=tmp_path).stdout)
    ws = [f for f in data if f["code"].startswith("WS")]
    assert ws
    for f in ws:
        c = f["confirmation"]
        assert c["status"] == "not run" and c["reason"] == "emulator", c
        assert f"cast.cu:{_line_of(p, 'int *q')}" in c["detail"]  # located


def test_findings_follow_calls_and_a_helper_no_kernel_calls_is_not_run(tmp_path):
    p = _write(tmp_path, "helper.cu", """\
__device__ int lane_bits(float v)
{
    unsigned int b = __ballot_sync(0xffffffff, v > 0.5f);
    return __popc(b);
}

__device__ int unused_bits(float v)
{
    unsigned int b = __ballot_sync(0xffffffff, v > 0.25f);
    return __popc(b);
}

void ref(const float* x, int* count) {}
// @kp kernel     via_helper
// @kp grid       4
// @kp block      64
// @kp arg        x      in   float[256]  uniform(0, 1)
// @kp arg        count  out  int[4]
// @kp reference  ref(x, count)
// @kp tolerance  exact
__global__ void via_helper(const float* x, int* count)
{
    int n = lane_bits(x[blockIdx.x * 64 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0) atomicAdd(&count[blockIdx.x], n);
}
""")
    by = _by_line(json.loads(kp("lint", "--confirm", "--format", "json", p.name, cwd=tmp_path).stdout))
    used = by[3][0]["confirmation"]
    assert used["status"] == "confirmed" and used["kernel"] == "via_helper"
    assert used["fix_changes_wide"] is True  # the helper's own fixes change the kernel's output at 64
    unused = by[9][0]["confirmation"]
    assert unused["status"] == "not run" and "in no kernel" in unused["detail"]


def test_invalid_annotation_is_not_run_never_guessed(tmp_path):
    p = _write(tmp_path, "bad.cu", HITS.replace("// @kp block      64\n", ""))
    data = json.loads(kp("lint", "--confirm", "--format", "json", p.name, cwd=tmp_path).stdout)
    ws = [f["confirmation"] for f in data if f["code"].startswith("WS")]
    assert ws and all(c["status"] == "not run" and c["reason"] == "invalid annotation" for c in ws)
    assert "has annotations but no block size" in ws[0]["detail"]


def test_confirm_does_not_combine_with_fix(tmp_path):
    p = _write(tmp_path, "k.cu", HITS)
    r = kp("lint", "--confirm", "--fix", p.name, cwd=tmp_path)
    assert r.returncode == 2 and "--confirm" in r.stderr


def test_bundled_examples_known_hazards_are_confirmed():
    names = ["stream_compact", "warp_vote", "warp_reduce"]
    r = kp("lint", "--confirm", "--format", "json", *(EXAMPLES / f"{n}.cu" for n in names))
    by_file: dict[str, list[dict]] = {}
    for f in json.loads(r.stdout):
        if f["code"].startswith("WS"):
            by_file.setdefault(Path(f["path"]).stem, []).append(f["confirmation"])
    # stream_compact's 32-bit ballot and warp_vote's 32-bit lane mask give different output at 64 ...
    for n, buf in (("stream_compact", "out"), ("warp_vote", "count")):
        assert by_file[n] and all(c["status"] == "confirmed" and c["buffer"] == buf for c in by_file[n]), by_file[n]
        assert f"{buf}[{by_file[n][0]['index']}] = " in by_file[n][0]["detail"]
    # ... warp_reduce's 32s are one consistent 32-lane group: correct at 64, so its findings are latent
    assert by_file["warp_reduce"] and all(c["status"] == "latent" for c in by_file["warp_reduce"])


def test_wave_invariance_per_kernel_table_json_and_exit(tmp_path):
    _write(tmp_path, "k.cu", HITS, SUMS, UNSIZED)
    r = kp("verify", "--wave-invariance", ".", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr  # a kernel depends on the wave width
    out = r.stdout
    assert "count_hits: depends on the wave width: count[0] = " in out
    assert "sums: invariant: same output at wave 32 and 64" in out
    assert "unsized: not run: needs sizes" in out
    assert "3 kernel(s) at wave 32 and 64: 1 invariant, 1 depend on the wave width, 1 not run" in out
    rows = json.loads(kp("verify", "--wave-invariance", "--format", "json", "k.cu", cwd=tmp_path).stdout)
    assert [(x["kernel"], x["status"]) for x in rows] == [("count_hits", "differs"), ("sums", "same"),
                                                          ("unsized", "not run")]
    assert rows[0]["line"] == _line_of(tmp_path / "k.cu", "__global__ void count_hits")
    only = tmp_path / "only"
    only.mkdir()
    _write(only, "s.cu", SUMS)
    assert kp("verify", "--wave-invariance", ".", cwd=only).returncode == 0


def test_wave_invariance_bad_input_is_located_not_a_traceback(tmp_path):
    r = kp("verify", "--wave-invariance", "missing.cu", cwd=tmp_path)
    assert r.returncode == 2 and "no such file or directory: missing.cu" in r.stderr
    (tmp_path / "empty").mkdir()
    r = kp("verify", "--wave-invariance", "empty", cwd=tmp_path)
    assert r.returncode == 2 and "no kernels under empty" in r.stderr
    _write(tmp_path, "k.cu", SUMS)
    r = kp("verify", "--wave-invariance", "--format", "junit", "k.cu", cwd=tmp_path)
    assert r.returncode == 2 and "table or json" in r.stderr


UNSIZED_INPUTS = """\
# the unsized kernel's inputs, kept outside its file
@kp kernel  unsized
@kp file    k.cu
@kp grid    1
@kp block   64
@kp arg     out  inout  int[64]  arange(0, 1)
@kp tolerance exact
"""


def test_inputs_file_runs_a_kernel_without_annotations(tmp_path):
    p = _write(tmp_path, "k.cu", UNSIZED)
    (tmp_path / "inputs.kp").write_text(UNSIZED_INPUTS)
    data = json.loads(kp("lint", "--confirm", "--inputs", "inputs.kp", "--format", "json", p.name,
                         cwd=tmp_path).stdout)
    c = data[0]["confirmation"]
    # lane 0's value broadcast to a whole 64-lane wave instead of to each 32: lanes 32-63 differ
    assert c["status"] == "confirmed" and c["inputs"] == "given" and c["index"] == 32, c
    rows = json.loads(kp("verify", "--wave-invariance", "--inputs", "inputs.kp", "--format", "json", p.name,
                         cwd=tmp_path).stdout)
    assert [(r["kernel"], r["status"], r["inputs"]) for r in rows] == [("unsized", "differs", "given")]
    # a block for another file does not apply
    (tmp_path / "other.kp").write_text(UNSIZED_INPUTS.replace("k.cu", "src/k.cu"))
    data = json.loads(kp("lint", "--confirm", "--inputs", "other.kp", "--format", "json", p.name,
                         cwd=tmp_path).stdout)
    assert data[0]["confirmation"]["reason"] == "needs sizes"


def test_inputs_file_errors_are_located(tmp_path):
    p = _write(tmp_path, "k.cu", UNSIZED)
    (tmp_path / "bad.kp").write_text("@kp kernel unsized\n@kp grid 1\n  nonsense here\n")
    r = kp("lint", "--confirm", "--inputs", "bad.kp", p.name, cwd=tmp_path)
    assert r.returncode == 2 and "bad.kp:3:3" in r.stderr and "@kp KEY VALUE" in r.stderr
    (tmp_path / "ref.kp").write_text("@kp kernel unsized\n@kp reference r(out)\n")
    r = kp("lint", "--confirm", "--inputs", "ref.kp", p.name, cwd=tmp_path)
    assert r.returncode == 2 and "ref.kp:2:5" in r.stderr and "not an input key" in r.stderr
    # checked against the kernel as annotations are: the kernel is not run, the error points into the file
    (tmp_path / "param.kp").write_text(UNSIZED_INPUTS.replace("arg     out", "arg     outt"))
    data = json.loads(kp("lint", "--confirm", "--inputs", "param.kp", "--format", "json", p.name,
                         cwd=tmp_path).stdout)
    c = data[0]["confirmation"]
    assert c["status"] == "not run" and c["reason"] == "bad inputs" and "param.kp:6:" in c["detail"], c
    r = kp("lint", "--inputs", "param.kp", p.name, cwd=tmp_path)
    assert r.returncode == 2 and "add --confirm" in r.stderr


def test_labelled_wave64_fix_is_confirmed_with_its_inputs():
    """HeCBench mpc before its wave-64 fix: the 32-bit ballot (a labelled hazard) gives another
    compressed word at 64; the inputs live in tests/labelled/confirm_inputs.kp."""
    f = ROOT / "tests/labelled/hecbench/dc4ff86a47/src/mpc-hip/main.cu"
    r = kp("lint", "--confirm", "--inputs", ROOT / "tests/labelled/confirm_inputs.kp", "--format", "json", f)
    by = _by_line(json.loads(r.stdout))
    ballot = by[218][0]["confirmation"]  # labels.tsv: `unsigned int bitmap = __ballot(loc);`
    assert ballot["status"] == "confirmed" and ballot["kernel"] == "MPCcompress" and ballot["inputs"] == "given"
    assert ballot["buffer"] == "compressed" and f"compressed[{ballot['index']}] = " in ballot["detail"]
    # the decompressor has no inputs given and its host code reads them from a file: not run, with the reason
    assert by[83][0]["confirmation"]["status"] == "not run"


def test_labelled_library_kernels_with_ptx_and_class_templates_are_confirmed_in_sarif():
    """apex groupbn before its wave-64 fix: fp16 packing in inline PTX, helpers overloaded by array
    length (`ldg(int (&)[2])`), class templates (`ParallelSums<16, 4>::dispatch<512>`); both
    labelled kernels run and differ at 64 (SARIF's `confirmation` property shows where)."""
    f = ROOT / "tests/labelled/apex/e57c84e087/apex/contrib/csrc/groupbn/nhwc_batch_norm_kernel.h"
    r = kp("lint", "--confirm", "--inputs", ROOT / "tests/labelled/confirm_inputs.kp", "--format", "sarif", f)
    conf = {}
    for res in json.loads(r.stdout)["runs"][0]["results"]:
        if "confirmation" in res.get("properties", {}):
            conf[res["locations"][0]["physicalLocation"]["region"]["startLine"]] = res["properties"]["confirmation"]
    for line, kernel in ((1292, "nhwc_batch_norm_fwd"), (2366, "nhwc_batch_norm_bwd_add_relu")):  # labels.tsv
        c = conf[line]
        assert c["status"] == "confirmed" and c["kernel"] == kernel and c["buffer"].startswith("params.gmem_"), c
        assert f"{c['buffer']}[{c['index']}] = " in c["detail"] and "at wave 64" in c["detail"]
    assert conf[546]["status"] == "not run"  # a helper no kernel of the file calls


def test_labelled_layer_norm_shuffle_at_the_default_width_is_confirmed():
    """apex layer norm before its fix: PyTorch's WARP_SHFL (its header is not in the set) shuffles
    at the wave's width, so at 64 the 32-lane rows read the next row's lanes; instantiated <float,
    float> by the inputs file, past the file's at::Half specialization (never taken)."""
    f = ROOT / "tests/labelled/apex/7eed38aa73/csrc/layer_norm_cuda_kernel.cu"
    r = kp("lint", "--confirm", "--inputs", ROOT / "tests/labelled/confirm_inputs.kp", "--format", "json", f)
    by = _by_line(json.loads(r.stdout))
    c = by[91][0]["confirmation"]  # labels.tsv: `U muB = WARP_SHFL(mu, srcLaneB);`
    assert c["status"] == "confirmed" and c["kernel"] == "cuApplyLayerNorm" and c["buffer"] == "output_vals", c
    assert "at wave 64" in c["detail"] and "at wave 32" in c["detail"]


def test_metal_and_embedded_cuda_are_not_run_with_the_reason(tmp_path):
    (tmp_path / "ops.py").write_text(
        'import cupy\nk = cupy.RawKernel(r"""\n__global__ void k(float* x) {\n    int lane = threadIdx.x % 32;\n'
        '    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[0], 1) + (lane == 0);\n}\n""", "k")\n')
    (tmp_path / "k.metal").write_text(
        "kernel void k(device float* x [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {\n"
        "    float v = x[tid];\n    for (ushort o = 16; o > 0; o /= 2) v += simd_shuffle_down(v, o);\n"
        "    x[tid] = v;\n}\n")
    data = json.loads(kp("lint", "--confirm", "--format", "json", "--select", "WS", ".", cwd=tmp_path).stdout)
    reasons = {Path(f["path"]).name: f["confirmation"]["reason"] for f in data}
    assert reasons == {"ops.py": "embedded CUDA", "k.metal": "metal code runs at one wave width"}, data


def test_stdin_text_is_what_runs(tmp_path):
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--confirm", "-", "--stdin-filename",
                        "not/on/disk.cu", "--format", "json"], input=HITS, capture_output=True, text=True,
                       cwd=tmp_path, timeout=300, env={"PATH": "/usr/bin:/bin"})
    ws = [f["confirmation"] for f in json.loads(r.stdout) if f["code"].startswith("WS")]
    assert ws and all(c["status"] == "confirmed" for c in ws), r.stderr


def test_inputs_inferred_from_host_code_where_the_inference_is_installed(tmp_path):
    host = """
int main()
{
    const int n = 256;
    float* x;
    int* count;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&count, 4 * sizeof(int));
    count_hits<<<4, 64>>>(x, count);
    return 0;
}
"""
    body = HITS[HITS.index("__global__"):]  # the kernel without its annotations
    p = _write(tmp_path, "host.cu", body, host)
    data = json.loads(kp("lint", "--confirm", "--format", "json", p.name, cwd=tmp_path).stdout)
    c = next(f["confirmation"] for f in data if f["code"] == "WS008")
    assert c["inputs"] == "inferred" and c["inferred"], c
    assert c["status"] == "confirmed" and c["buffer"] == "count", c  # the launch's sizes: the hazard shows


def test_a_consistent_helper_in_a_kernel_that_differs_is_latent(tmp_path):
    """The kernel's 32-bit ballot makes it differ at 64; its helper's 32-lane groups (lane, group,
    ladder and group count all from 32) are consistent: with the helper's findings fixed the
    wave-64 output is the same, so they are latent, and the ballot's findings stay confirmed."""
    helper = """\
__device__ int block_sum(int v, int* slots)
{
    int lane = threadIdx.x & 31;
    int group = threadIdx.x >> 5;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) slots[group] = v;
    __syncthreads();
    int s = 0;
    for (int g = 0; g < blockDim.x / 32; g++) s += slots[g];
    return s;
}
"""
    kernel = _annotated("total_and_hits", "const int* x, int* out",
                        ["x    in   int[256]  integers(0, 8)", "out  out  int[8]"], """\
    __shared__ int slots[2];
    int v = x[blockIdx.x * 64 + threadIdx.x];
    int s = block_sum(v, slots);
    unsigned int b = __ballot_sync(0xffffffff, v > 3);
    if (threadIdx.x % 32 == 0) atomicAdd(&out[blockIdx.x], __popc(b));
    if (threadIdx.x == 0) out[4 + blockIdx.x] = s;""")
    p = _write(tmp_path, "k.cu", helper, kernel)
    data = json.loads(kp("lint", "--confirm", "--format", "json", p.name, cwd=tmp_path).stdout)
    helper_lines = range(1, _line_of(p, "return s;") + 1)
    marks = {(f["line"], f["code"]): f["confirmation"] for f in data if f["code"].startswith("WS")}
    inside = [c for (line, _), c in marks.items() if line in helper_lines]
    assert inside and all(c["status"] == "latent" and c["fix_changes_wide"] is False for c in inside), inside
    assert "with the findings in `block_sum` fixed, its output at wave 64 is the same" in inside[0]["detail"]
    ballot = marks[(_line_of(p, "unsigned int b"), "WS008")]
    assert ballot["status"] == "confirmed" and ballot["buffer"] == "out", ballot
