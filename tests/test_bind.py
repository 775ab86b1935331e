"""`kernelport bind`: golden outputs for every example, the generated code's rules, the CLI.

Goldens: tests/golden/bind/ holds every file bind itself writes for examples/*.cu with --rust
--swift (the HIP and Metal ports it also writes are translate's, golden-tested in
test_examples_hip.py / test_metal_translate.py). Regenerate after an intended change with
`KP_UPDATE_GOLDEN=1 python -P -m pytest tests/test_bind.py -k golden` and review the diff.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from kernelport import dialect
from kernelport.bind import bind_file
from kernelport.bind import expr as ex
from kernelport.bind.hosts import host_backends

from bind_support import EXAMPLES, GOLDEN, NAMES, ROOT


@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_golden(path):
    outputs = [o for o in bind_file(path, GOLDEN, rust=True, swift=True) if o.kind == "bind"]
    kinds = {o.path.name for o in outputs}
    stem = path.stem
    assert {f"{stem}_launch.h", f"{stem}_launch.cu", f"{stem}_launch.hip", f"{stem}.swift", "Cargo.toml", "build.rs",
            "lib.rs"} <= kinds
    for o in outputs:
        if os.environ.get("KP_UPDATE_GOLDEN"):
            o.path.parent.mkdir(parents=True, exist_ok=True)
            o.path.write_text(o.text)
        assert o.path.exists(), f"missing golden {o.path.relative_to(ROOT)} (KP_UPDATE_GOLDEN=1 regenerates)"
        assert o.path.read_text() == o.text, f"stale golden {o.path.relative_to(ROOT)} (KP_UPDATE_GOLDEN=1 regenerates)"


def test_no_stray_goldens():
    expected = {o.path for p in EXAMPLES for o in bind_file(p, GOLDEN, rust=True, swift=True) if o.kind == "bind"}
    on_disk = {p for p in GOLDEN.rglob("*") if p.is_file()}
    assert on_disk - expected == set()


def _golden(stem: str, name: str) -> str:
    return (GOLDEN / name.format(stem=stem)).read_text()


@pytest.mark.parametrize("stem", NAMES)
def test_every_launch_and_its_synchronise_are_checked(stem):
    for h in host_backends():
        text = _golden(stem, "{stem}_launch" + h.extension)
        launch = dialect.concept("rt_LaunchKernel").spelling(h.name)
        sync = dialect.concept("rt_DeviceSynchronize").spelling(h.name)
        # One launch site, inside the checked helper; every kernel goes through kp_checked.
        assert text.count(launch + "(") == 1
        assert len(re.findall(r"extern \"C\" int kp_\w+\(const kp_launch_config\*", text)) == \
            text.count("return kp_checked(")
        assert f"status = {sync}();\n    return kp_status(KP_CHECK_SYNC, status);" in text
        assert "<<<" not in text


@pytest.mark.parametrize("stem", NAMES)
def test_runtime_spellings_come_from_the_dialect_table(stem):
    texts = {h.name: _golden(stem, "{stem}_launch" + h.extension) for h in host_backends()}
    for b, text in texts.items():
        for key in ("rt_Malloc", "rt_Free", "rt_Memcpy", "rt_GetLastError", "rt_DeviceSynchronize",
                    "rt_GetErrorString", "rt_Error_t", "rt_Success", "rt_MemcpyHostToDevice", "runtime_header"):
            assert dialect.concept(key).spelling(b) in text, (b, key)
        for other in texts:
            if other != b:
                assert dialect.concept("rt_Malloc").spelling(other) + "(" not in text


@pytest.mark.parametrize("stem", NAMES)
def test_every_struct_that_crosses_is_repr_c(stem):
    lib = _golden(stem, "{stem}_rs/src/lib.rs")
    structs = re.findall(r"((?:#\[[^\n]*\]\n)*)pub struct (\w+)", lib)
    crossing = {"Dim3", "RawLaunchConfig", "Float2", "Float4", "Half"}
    assert {"Dim3", "RawLaunchConfig"} <= {n for _, n in structs}
    for attrs, name in structs:
        if name in crossing:
            assert "#[repr(C" in attrs, name
    # Rule 1: one allocator, and its free in Drop.
    assert re.search(r"impl<T: DeviceCopy> Drop for DeviceBuffer<T> \{.*?_free\(", lib, re.S)
    assert "impl<T: DeviceCopy> Clone" not in lib and "derive(Clone" not in lib.split("pub struct DeviceBuffer")[1][:200]


def test_safe_function_shape():
    lib = _golden("saxpy", "{stem}_rs/src/lib.rs")
    assert "pub fn saxpy(cfg: &LaunchConfig, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>, a: f32)" in lib
    assert 'check_len("saxpy", "y", y.len(), n as i64)?;' in lib
    mm = _golden("matmul_tiled", "{stem}_rs/src/lib.rs")
    assert 'check_len("matmul_tiled", "C", C.len(), (M as i64) * (N as i64))?;' in mm
    rev = _golden("dynamic_shared", "{stem}_rs/src/lib.rs")
    assert "r#in: &DeviceBuffer<f32>" in rev  # a Rust keyword as a parameter name


def test_swift_snippet_binds_the_sidecar_indices():
    import json
    s = _golden("saxpy", "{stem}.swift")
    assert "UNTESTED ON HARDWARE" in s.splitlines()[3]
    side = json.loads((ROOT / "examples" / "saxpy.metal.json").read_text())
    for a in side["kernels"][0]["arguments"]:
        assert f"index: {a['index']})" in s and a["name"] in s
    assert "encoder.setBuffer(x, offset: 0, index: 2)" in s
    assert "dispatchThreadgroups(groups, threadsPerThreadgroup: threads)" in s
    assert "commands.status == .completed" in s
    t = _golden("template_reduce", "{stem}.swift")
    assert 'makeFunction(name: "template_reduce_256")' in t
    d = _golden("dynamic_shared", "{stem}.swift")
    assert "setThreadgroupMemoryLength(kpRoundUp(256 * 4, 16), index: 0)" in d


# -- expressions ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, c, rust, swift", [
    ("ceil_div(n, 256)", "kp_ceil_div((long long)n, 256LL)", "kp_ceil_div(n as i64, 256i64)", "kpCeilDiv(Int(n), 256)"),
    ("M * K", "(long long)M * (long long)K", "(M as i64) * (K as i64)", "Int(M) * Int(K)"),
    ("min(ceil_div(n, 256), 256)", "kp_min(kp_ceil_div((long long)n, 256LL), 256LL)",
     "kp_min(kp_ceil_div(n as i64, 256i64), 256i64)", "Swift.min(kpCeilDiv(Int(n), 256), 256)"),
    ("256 * sizeof(float)", "256LL * ((long long)sizeof(float))", "256i64 * 4i64", "256 * 4"),
    ("(1 << 18) + 7u", "(1LL << 18LL) + 7LL", "(1i64 << 18i64) + 7i64", "(1 << 18) + 7"),
])
def test_expressions(text, c, rust, swift):
    e = ex.parse(text, {"n", "M", "K"}, set())
    assert ex.emit(e, ex.C) == c
    assert ex.emit(e, ex.RUST) == rust
    assert ex.emit(e, ex.SWIFT) == swift


@pytest.mark.parametrize("n, b", [(0, 256), (1, 256), (255, 256), (256, 256), (257, 256), (-5, 2), (7, -2)])
def test_ceil_div_helpers_agree_with_cexpr(n, b, tmp_path):
    """The C helper computes what kernelport.cexpr computes (the annotation's meaning)."""
    from kernelport import cexpr
    import shutil
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    helper = re.search(r"inline long long kp_ceil_div[^\n]*\n", (ROOT / "templates/bind/launcher.j2").read_text())
    src = tmp_path / "t.c"
    src.write_text("#include <stdio.h>\n" + helper.group(0).replace("inline ", "static ") +
                   f"int main(void) {{ printf(\"%lld\", kp_ceil_div({n}LL, {b}LL)); return 0; }}\n")
    subprocess.run([cc, str(src), "-o", str(tmp_path / "t")], check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout
    assert int(out) == cexpr.evaluate(f"ceil_div({n}, {b})", {})


# -- the command line -----------------------------------------------------------------------------
def _kp(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kernelport", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_writes_then_is_unchanged_then_refuses_foreign_files(tmp_path):
    out = tmp_path / "bind"
    r = _kp("bind", str(ROOT / "examples" / "saxpy.cu"), "--rust", "--swift", "-o", str(out))
    assert r.returncode == 0, r.stderr
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert names == {"saxpy_launch.h", "saxpy_launch.cu", "saxpy_launch.hip", "saxpy.hip", "saxpy.metal",
                     "saxpy.metal.json", "saxpy.swift", "saxpy_rs/Cargo.toml", "saxpy_rs/build.rs",
                     "saxpy_rs/src/lib.rs"}
    r = _kp("bind", str(ROOT / "examples" / "saxpy.cu"), "--rust", "--swift", "-o", str(out))
    assert r.returncode == 0 and r.stdout.count("unchanged") == len(names), r.stdout
    for name in ("saxpy_rs/Cargo.toml", "saxpy_launch.cu"):
        (out / name).write_text("# mine\n")
        r = _kp("bind", str(ROOT / "examples" / "saxpy.cu"), "--rust", "-o", str(out))
        assert r.returncode == 1 and "not overwriting" in r.stderr
        assert (out / name).read_text() == "# mine\n"
    r = _kp("bind", str(ROOT / "examples" / "saxpy.cu"), "--rust", "-o", str(out), "--force")
    assert r.returncode == 0 and (out / "saxpy_rs/Cargo.toml").read_text().startswith("# Generated by kernelport")


def test_cli_edited_cargo_toml_is_told_apart(tmp_path):
    out = tmp_path / "b"
    assert _kp("bind", str(ROOT / "examples" / "vector_add.cu"), "--rust", "-o", str(out)).returncode == 0
    toml = out / "vector_add_rs" / "Cargo.toml"
    toml.write_text(toml.read_text().replace('version = "0.1.0"', 'version = "0.2.0"'))
    r = _kp("bind", str(ROOT / "examples" / "vector_add.cu"), "--rust", "-o", str(out))
    assert r.returncode == 1 and "was edited since kernelport generated it" in r.stderr


def test_cli_bad_input_is_one_located_line(tmp_path):
    k = tmp_path / "k.cu"
    k.write_text("// @kp grid ceil_div(n, 256)\n// @kp block 256\n// @kp why x\n// @kp arg x in float[n * s] uniform(0, 1)\n"
                 "// @kp scalar n = 10\n// @kp scalar s = 0.5\n// @kp reference k_ref(x, n, s)\n"
                 "__global__ void k(float* x, int n, float s) { }\nvoid k_ref(float* x, int n, float s) { }\n")
    r = _kp("bind", str(k), "-o", str(tmp_path / "o"))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and re.match(rf"{re.escape(str(k))}:4:\d+: error: length of 'x' 'n \* s' is a float",
                                                    r.stderr), r.stderr
    assert "Traceback" not in r.stderr
    r = _kp("bind", str(tmp_path / "missing.cu"), "-o", str(tmp_path / "o"))
    assert r.returncode == 2 and "no such file" in r.stderr
    r = _kp("bind", str(k))
    assert r.returncode == 2  # -o is required
