"""Build a C++ model check for the host with g++ (-Werror, UBSan, device qualifiers defined away) and
run it: the stdout words.  The SIMD and DPX polyfill tests compare ports' device functions so."""
from __future__ import annotations

import subprocess
from pathlib import Path


def run_host_cpp(gxx, tmp_path: Path, name: str, src: str) -> list[str]:
    (tmp_path / f"{name}.cpp").write_text(src)
    exe = tmp_path / name
    subprocess.run([str(getattr(gxx, "path", gxx)), "-std=c++17", "-O1", "-Wall", "-Werror", "-D__device__=",
                    "-D__host__=", "-fsanitize=undefined", "-fno-sanitize-recover", "-o", str(exe),
                    str(tmp_path / f"{name}.cpp")], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
