"""Build the GPU driver of `verify --device cuda` for each kernel of the given files, here, with nvcc and
no GPU (the build needs none): which drivers build, which are skips (a header not installed) and which
fail, with the oracle's inputs and tests/realcorpus's manifest flags, as bench/device/run_oracle_device.sh
builds them.  Nothing runs on a GPU: each built driver is reported as `built`, never as a pass.
    PYTHONPATH=$PWD python -P bench/device/driver_builds.py [--arch sm_90] [--keep DIR] FILE...
--keep DIR: each built driver's directory (driver.cu, the inputs, the copies of a file built with redefined
macros under tree/) is kept as DIR/FILESTEM.KERNEL, to read what the GPU run would build.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class Built(RuntimeError):
    pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--timeout", type=float, default=60, help="seconds of the emulator's run (60, as the GPU run's)")
    ap.add_argument("files", nargs="+", type=Path)
    a = ap.parse_args()
    import oracle_corpus
    from kernelport import device, verify_device, verify_oracle
    from kernelport.verify import Verifier
    oracle_corpus._with_build_flags(oracle_corpus.build_flags(oracle_corpus.CORPUS))
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc is needed"

    def build_only(source, kernel, spec, args, targs, arch="native", flags=(), variants=(), symbols=None,
                   redefine=None, alone=True):
        with tempfile.TemporaryDirectory(prefix="kernelport-gpu-") as tmp:
            device.build_driver(nvcc, a.arch, flags, Path(tmp), source, kernel, spec, args, targs, variants,
                                symbols, redefine, alone)
            if a.keep is not None:
                shutil.copytree(tmp, a.keep / f"{Path(source).stem}.{kernel.name}", dirs_exist_ok=True)
        raise Built("built")
    device.run_cuda = build_only
    own = verify_device.gpu_outputs

    def outputs(*args, **kw):  # a built driver is neither a pass nor a fail: its row says `built`
        got, why, status = own(*args, **kw)
        return (got, why, "built") if why == "built" else (got, why, status)
    verify_device.gpu_outputs = outputs
    run = getattr(verify_oracle.run_oracle, "__wrapped__", verify_oracle.run_oracle)
    verify_oracle.run_oracle = lambda v, src, module, name, got, ports, rep, smaller=None: \
        run(v, src, module, name, got, {}, rep, smaller)  # the original's run only
    for f in a.files:
        rep = Verifier(schedules=("block",), cache=False, timeout=a.timeout, device="cuda").verify(f)
        for c in rep.checks:
            if c.kind == "device" or c.kind == "oracle" and c.status != "pass":  # (no device row without an oracle)
                print(f"{f}: {c.kernel}: {'oracle ' if c.kind == 'oracle' else ''}{c.status}: {c.detail[:300]}")


if __name__ == "__main__":
    main()
