"""What the port tests share: a snippet's port (asserted written) or its refusal (the errors), and a
HIP port run at wave 64 against its original at 32 in the emulator (a port's hipcc compile:
conftest.hip_compiles)."""
from __future__ import annotations

import textwrap


def ported(code: str, name: str = "t.cu", to: str = "hip", dedent: bool = True, **options):
    """(port, text) of `code` translated to `to` as a file called `name`; the port must be written.
    `options` go to translate as they are (defines=, arch=, ...)."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, text = translate(SourceFile.from_text(textwrap.dedent(code) if dedent else code, name), to, **options)
    assert port.ok, [d.format() for d in port.diagnostics]
    return port, text


def port_text(code: str, name: str = "t.cu", to: str = "hip", dedent: bool = True, **options) -> str:
    """The written port's text (`ported`)."""
    return ported(code, name, to, dedent, **options)[1]


def refusal(code: str, name: str = "t.cu", to: str = "hip", dedent: bool = True, expect: str | None = None,
            **options) -> list:
    """The errors (diagnostics of severity error: .code, .line, .column, .message) of `code` translated to
    `to` as a file called `name`: what refuses its port, which is then not written (`[]` where it is
    written, so a look-alike reads `refusal(...) == []`).  With `expect`, the port must be refused by an
    error of that code.  `options` go to translate as they are (defines=, allow_unported=, ...)."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code) if dedent else code, name), to, **options)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert expect is None or any(d.code == expect for d in errors), (expect, [d.format() for d in port.diagnostics])
    return errors


def assert_port_at_64_is_original_at_32(original: str, port: str, kernel: str, args: dict, grid, block,
                                        outputs=("out",)) -> None:
    """The HIP port at wave 64 stores what the original stores at CUDA's 32 in `outputs`, without a race."""
    import numpy as np

    from kernelport.emulator import run_kernel
    want = run_kernel(original, kernel, args=args, grid=grid, block=block, wave=32).outputs
    got = run_kernel(port, kernel, args=args, grid=grid, block=block, wave=64, backend="hip")
    assert not got.races, got.races
    for k in outputs:
        assert np.array_equal(got.outputs[k], want[k]), (k, got.outputs[k], want[k])


def assert_port_at_32_is_original_at_32(original: str, port: str, args: dict, grid=(2, 1, 1), block=(128, 1, 1),
                                        kernel: str = "k", out: str = "out") -> None:
    """The HIP port on a 32-lane wave (gfx1030's, where the wave is CUDA's warp) stores what the original stores."""
    import numpy as np

    from kernelport.emulator import run_kernel
    want = run_kernel(original, kernel, args={k: v.copy() for k, v in args.items()}, grid=grid, block=block,
                      wave=32).outputs[out]
    got = run_kernel(port, kernel, args={k: v.copy() for k, v in args.items()}, grid=grid, block=block, wave=32,
                     backend="hip").outputs[out]
    assert np.array_equal(got, want), (got, want)


def scale_kernel(target: str, body: str = "2.0f * x[i]", head: str = "") -> str:
    """An annotated kernel `scale` doubling x[256] (its reference doubles) for `target`; `body` is the
    kernel's new x[i] (another value makes it differ from the reference), `head` lines come first."""
    return (f"{head}// @kp kernel     scale\n// @kp grid       ceil_div(n, 64)\n// @kp block      64\n"
            "// @kp arg        x   inout  float[n]   uniform(-1, 1)\n// @kp scalar     n = 256\n"
            "// @kp reference  scale_ref(n, x)\n// @kp tolerance  auto\n"
            f"// @kp targets    {target}\n"
            "__global__ void scale(int n, float* x)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"    if (i < n) x[i] = {body};\n}}\n\n"
            "void scale_ref(int n, float* x)\n{\n    for (int i = 0; i < n; ++i) x[i] = 2.0f * x[i];\n}\n")


def metal_numeric_checks(tmp_path, name: str, code: str) -> list[dict]:
    """verify's Metal `numeric` checks of an annotated snippet (its port written beside it first): verify runs
    the port's own text on the emulator beside the original, Metal at wave 32.  Asserted non-empty."""
    import json
    import subprocess
    import sys
    src = tmp_path / name
    src.write_text(textwrap.dedent(code))
    run = [sys.executable, "-P", "-m", "kernelport"]
    subprocess.run([*run, "translate", str(src), "--to", "metal", "-o", str(tmp_path)], check=True, capture_output=True)
    r = subprocess.run([*run, "verify", str(src), "--format", "json"], capture_output=True, text=True)
    checks = [c for f in json.loads(r.stdout) for c in f["checks"] if c["backend"] == "metal" and c["kind"] == "numeric"]
    assert checks, r.stdout[-3000:] + r.stderr[-2000:]
    return checks


def metal_errors(port) -> list[str]:
    """A port's errors, formatted (`[]` where it is written)."""
    return [d.format() for d in port.diagnostics if d.severity == "error"]


def metal_checker(text: str) -> list[str]:
    """kernelport's Metal checker's diagnostics on a port's text (`[]`: clean)."""
    from kernelport.backends.metal.check import check_metal_source
    return [str(d) for d in check_metal_source(text, "t.metal")]
