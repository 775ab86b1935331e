"""Toolchain discovery and compile checks for `kernelport verify` and the tests.

Every check returns a :class:`CompileResult`; a missing tool never raises: the result is
``skipped`` and its ``reason`` says how to install the tool.

- CUDA: ``nvcc -c`` (compile only; no GPU needed).
- HIP: ``hipcc -c --offload-arch=gfx90a|gfx1030`` with ``HIP_PLATFORM=amd`` (otherwise hipcc
  picks the NVIDIA path whenever nvcc is installed); ``hip_wavefront_size`` reads the
  ``.wavefront_size`` of the device code object, so a test can assert what it built for
  (gfx9/CDNA: 64, gfx10+/RDNA: 32).
- Metal: ``xcrun -sdk macosx metal -c`` on macOS (``find_clang`` finds the clang that the Metal
  backend's checker, kernelport.backends.metal.check, type-checks ports with elsewhere).
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = [
    "Toolchain",
    "CompileResult",
    "TIMEOUT_S",
    "HIP_ARCHS",
    "find_nvcc",
    "find_hipcc",
    "find_clang",
    "find_xcrun_metal",
    "find_tool",
    "install_hint",
    "compile_cuda",
    "compile_hip",
    "compile_cuda_many",
    "compile_hip_many",
    "hip_wavefront_size",
    "compile_metal",
]

TIMEOUT_S = 300
HIP_ARCHS = ("gfx90a", "gfx1030")
# The C++ standard a HIP compile check uses where its arguments name none: nvcc's default (C++17
# from CUDA 11; measured: nvcc 13 compiles `static_assert(__cplusplus >= 201703L)` with no -std),
# which the originals are written against.  ROCm 5.2's hipcc defaults HIP to C++11 (`__cplusplus` is
# 201103L), so a port of `auto f() { ... }` or `if constexpr` would fail there and nowhere else.
HIP_DEFAULT_STD = "-std=c++17"

INSTALL_HINTS = {
    "nvcc": "nvcc not found (install: the CUDA toolkit, e.g. apt-get install nvidia-cuda-toolkit, "
            "or put CUDA_HOME/bin on PATH)",
    "hipcc": "hipcc not found (install: apt-get install hipcc, or ROCm)",
    "clang": "clang with C++ for OpenCL (-x clcpp) support not found (install: apt-get install clang-15)",
    "xcrun": "Metal compiler not found (xcrun metal needs macOS with Xcode; on Linux the Metal port is "
             "type-checked with clang instead: apt-get install clang-15)",
}

# The environment each tool reads besides its arguments (nvcc's and HIPCC's documentation; ROCm 5.2's
# hipcc.pl and hipvars.pm; the GCC/clang include variables every driver and nvcc's host compiler read):
# a changed one can change a verdict, so its values are in every cache key of the tool's runs
# (verify_cache.compile_group, pch.build).  PATH: nvcc finds its host compiler there.
_C_DRIVER_ENV = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "COMPILER_PATH",
                 "GCC_EXEC_PREFIX", "CCC_OVERRIDE_OPTIONS")
TOOL_ENV: dict[str, tuple[str, ...]] = {
    "nvcc": ("PATH", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", *_C_DRIVER_ENV),
    "hipcc": ("HIPCC_COMPILE_FLAGS_APPEND", "HIPCC_LINK_FLAGS_APPEND", "HIPCC_VERBOSE", "HIP_PLATFORM",
              "HIP_COMPILER", "HIP_RUNTIME", "HIP_CLANG_PATH", "HIP_PATH", "ROCM_PATH", "HSA_PATH",
              "HIP_ROCCLR_HOME", "HIP_LIB_PATH", "DEVICE_LIB_PATH", "HIP_DEVICE_LIB_PATH",
              "HIP_CLANG_HCC_COMPAT_MODE", "HIP_COMPILE_CXX_AS_HIP", "HCC_AMDGPU_TARGET", "CUDA_PATH",
              *_C_DRIVER_ENV),
    "clang": _C_DRIVER_ENV,
    "xcrun": ("DEVELOPER_DIR", "SDKROOT", "TOOLCHAINS", *_C_DRIVER_ENV),
}
# What every run of a tool is given whatever the caller's environment says: HIP_PLATFORM=amd (hipcc
# picks the NVIDIA path whenever nvcc is installed otherwise).
TOOL_ENV_FIXED: dict[str, dict[str, str]] = {"hipcc": {"HIP_PLATFORM": "amd"}}
# How each compiler is told to read a header before the file (a project's forced include,
# kernelport.compile_flags): nvcc's --pre-include (its -include), clang's -include.
FORCED_INCLUDE_FLAG: dict[str, str] = {"nvcc": "--pre-include", "hipcc": "-include"}


def forced_args(tool: str, forced) -> list[str]:
    """The arguments that make `tool` read each of `forced` (paths) first, in order."""
    return [a for f in forced for a in (FORCED_INCLUDE_FLAG[tool], str(f))]


def tool_env(name: str) -> dict:
    """The environment a run of tool `name` gets: this process's, with the tool's fixed settings."""
    return {**os.environ, **TOOL_ENV_FIXED.get(name, {})}


def steering(name: str, env: dict | None = None) -> tuple[tuple[str, str], ...]:
    """The (variable, value) pairs of TOOL_ENV[name] set in `env` (default: what the tool runs with)."""
    env = tool_env(name) if env is None else env
    return tuple((k, env[k]) for k in TOOL_ENV.get(name, ()) if k in env)


@dataclass(frozen=True)
class Toolchain:
    """A compiler found on this machine."""
    name: str  # "nvcc", "hipcc", "clang", "xcrun" (Apple's Metal compiler)
    path: str
    version: str


@dataclass
class CompileResult:
    """One compile of a port."""
    tool: str
    target: str
    ok: bool
    skipped: bool
    command: list[str] = field(default_factory=list)
    output: str = ""
    reason: str = ""

    @property
    def status(self) -> str:
        """"pass", "fail" or "skip" (the vocabulary of `kernelport verify --format json`)."""
        return "skip" if self.skipped else ("pass" if self.ok else "fail")

    def to_dict(self) -> dict:
        return {
            "tool": self.tool,
            "target": self.target,
            "ok": self.ok,
            "skipped": self.skipped,
            "status": self.status,
            "command": list(self.command),
            "output": self.output,
            "reason": self.reason,
        }


def install_hint(name: str) -> str:
    return INSTALL_HINTS.get(name, f"{name} not found")


# ---------------------------------------------------------------------------------------------
# discovery
# ---------------------------------------------------------------------------------------------
def _run_quiet(cmd: list[str], env: dict | None = None, input_text: str | None = None, timeout: int = 60):
    """A discovery probe (`--version`, a feature test): each CLI run of a session repeats them, so
    they go through the compile cache too (keyed by the executable's size and mtime)."""
    from . import compile_cache

    try:
        return compile_cache.run(cmd, env=env, input_text=input_text, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None


def _env_key() -> tuple:
    """Discovery depends on these; cached results are keyed on them."""
    return tuple(os.environ.get(k, "") for k in ("PATH", "CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "HIP_PATH"))


def _first_existing(candidates) -> str | None:
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


@functools.lru_cache(maxsize=None)
def _find_nvcc(_key: tuple) -> Toolchain | None:
    path = shutil.which("nvcc") or _first_existing(
        [os.path.join(os.environ[v], "bin", "nvcc") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
        + ["/usr/local/cuda/bin/nvcc"]
    )
    if not path:
        return None
    proc = _run_quiet([path, "--version"])
    if proc is None or proc.returncode != 0:
        return None
    m = re.search(r"release [\d.]+, V([\d.]+)", proc.stdout) or re.search(r"release ([\d.]+)", proc.stdout)
    return Toolchain("nvcc", path, m.group(1) if m else "unknown")


def find_nvcc() -> Toolchain | None:
    """nvcc on PATH, else $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin."""
    return _find_nvcc(_env_key())


def _hip_env() -> dict:
    return tool_env("hipcc")


@functools.lru_cache(maxsize=None)
def _find_hipcc(_key: tuple) -> Toolchain | None:
    path = shutil.which("hipcc") or _first_existing(
        [os.path.join(os.environ[v], "bin", "hipcc") for v in ("ROCM_PATH", "HIP_PATH") if os.environ.get(v)]
        + ["/opt/rocm/bin/hipcc"]
    )
    if not path:
        return None
    proc = _run_quiet([path, "--version"], env=_hip_env())
    text = (proc.stdout + proc.stderr) if proc is not None else ""
    m = re.search(r"HIP version:\s*(\S+)", text)
    if proc is None or not m:
        return None
    return Toolchain("hipcc", path, m.group(1))


def find_hipcc() -> Toolchain | None:
    """hipcc on PATH, else $ROCM_PATH/bin, $HIP_PATH/bin, /opt/rocm/bin."""
    return _find_hipcc(_env_key())


_CLCPP_PROBE = "__kernel void kp_probe(__global int* p) { p[0] = 1; }\n"


@functools.lru_cache(maxsize=None)
def _clang_supports_clcpp(path: str) -> bool:
    proc = _run_quiet([path, "-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-fsyntax-only", "-"],
                      input_text=_CLCPP_PROBE)
    return proc is not None and proc.returncode == 0


def _clang_version(path: str) -> str | None:
    proc = _run_quiet([path, "--version"])
    if proc is None or proc.returncode != 0:
        return None
    m = re.search(r"clang version (\S+)", proc.stdout)
    return m.group(1) if m else "unknown"


@functools.lru_cache(maxsize=None)
def _find_clang(_key: tuple) -> Toolchain | None:
    candidates: list[str] = []
    p15 = shutil.which("clang-15")
    if p15:
        candidates.append(p15)
    versioned = {}
    for d in os.environ.get("PATH", "").split(os.pathsep):
        for f in glob.glob(os.path.join(d or ".", "clang-[0-9]*")):
            m = re.fullmatch(r"clang-(\d+)", os.path.basename(f))
            if m and os.access(f, os.X_OK) and int(m.group(1)) not in versioned:
                versioned[int(m.group(1))] = f
    candidates += [versioned[v] for v in sorted(versioned, reverse=True) if v != 15]
    plain = shutil.which("clang")
    if plain:
        candidates.append(plain)
    seen = set()
    for c in candidates:
        if c in seen:
            continue
        seen.add(c)
        if _clang_supports_clcpp(c):
            version = _clang_version(c)
            if version:
                return Toolchain("clang", c, version)
    return None


def find_clang() -> Toolchain | None:
    """clang-15, else the newest other clang-NN, else clang; it must accept ``-x clcpp``
    (C++ for OpenCL 2021, clang >= 14)."""
    return _find_clang(_env_key())


@functools.lru_cache(maxsize=None)
def _find_xcrun_metal(_key: tuple) -> Toolchain | None:
    if sys.platform != "darwin":
        return None
    xcrun = shutil.which("xcrun")
    if not xcrun:
        return None
    proc = _run_quiet([xcrun, "-sdk", "macosx", "-f", "metal"])
    if proc is None or proc.returncode != 0 or not proc.stdout.strip():
        return None
    ver = _run_quiet([xcrun, "-sdk", "macosx", "metal", "--version"])
    m = re.search(r"version (\S+)", ver.stdout if ver else "")
    return Toolchain("xcrun", xcrun, m.group(1) if m else "unknown")


def find_xcrun_metal() -> Toolchain | None:
    """``xcrun -sdk macosx metal`` (macOS with Xcode only); path is xcrun's."""
    return _find_xcrun_metal(_env_key())


def c_compiler() -> str | None:
    """The C compiler of the reference (kernelport.reference): $CC, else gcc, cc, clang."""
    for cc in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if cc and shutil.which(cc):
            return shutil.which(cc)
    return None


def c_compiler_identity() -> tuple[str, str] | None:
    """The reference compiler's path and version line (a cache key: another compiler may round
    differently), probed once per process and environment."""
    cc = c_compiler()
    return None if cc is None else _c_identity(cc, _env_key())


@functools.lru_cache(maxsize=None)
def _c_identity(cc: str, _key: tuple) -> tuple[str, str]:
    proc = _run_quiet([cc, "--version"], timeout=30)
    return cc, (proc.stdout.splitlines() or [""])[0] if proc is not None else ""


_FINDERS = {
    "nvcc": find_nvcc,
    "hipcc": find_hipcc,
    "clang": find_clang,
    "xcrun": find_xcrun_metal,
}


def find_tool(name: str) -> Toolchain | None:
    """Look a tool up by name: "nvcc", "hipcc", "clang" or "xcrun"."""
    try:
        return _FINDERS[name]()
    except KeyError:
        raise ValueError(f"unknown tool {name!r}; expected one of {sorted(_FINDERS)}") from None


# ---------------------------------------------------------------------------------------------
# compile checks
# ---------------------------------------------------------------------------------------------
def _skipped(tool: str, target: str) -> CompileResult:
    return CompileResult(tool=tool, target=target, ok=False, skipped=True, command=[], output="",
                         reason=install_hint(tool))


def _run_compile(tool: str, target: str, cmd: list[str], env: dict | None = None,
                 timeout: int = TIMEOUT_S, *, source=None, inputs=(), outputs=()) -> CompileResult:
    """Run a compile of `source` (stored in the compile cache when one is on: kernelport.compile_cache;
    `inputs`: the other files it reads, a precompiled header)."""
    from . import compile_cache

    try:
        if source is None:
            compile_cache.note("uncached", cmd)
            from .subproc import run as run_group  # a timeout ends the compiler's children too
            proc = run_group(cmd, timeout=timeout, env=env)
        else:
            proc = compile_cache.run(cmd, os.path.abspath(source), inputs=inputs, outputs=outputs, env=env,
                                     timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or "") if isinstance(exc.stdout, str) else ""
        err = (exc.stderr or "") if isinstance(exc.stderr, str) else ""
        return CompileResult(tool, target, False, False, cmd, out + err, f"{tool} timed out after {timeout} s")
    except OSError as exc:
        return CompileResult(tool, target, False, False, cmd, str(exc), f"could not run {tool}: {exc}")
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        return CompileResult(tool, target, False, False, cmd, output, f"{tool} failed (exit {proc.returncode})")
    return CompileResult(tool, target, True, False, cmd, output, "")


def compile_cuda(path, arch: str = "sm_80", *, extra_args=(), forced=(), timeout: int = TIMEOUT_S) -> CompileResult:
    """``nvcc -arch=ARCH -x cu -c PATH`` into a temporary directory; `forced`: headers read first."""
    tc = find_nvcc()
    if tc is None:
        return _skipped("nvcc", arch)
    with tempfile.TemporaryDirectory(prefix="kp-nvcc-") as tmp:
        out = os.path.join(tmp, "kernel.o")
        cmd = [tc.path, f"-arch={arch}", "-x", "cu", "-c", str(path), "-o", out, *extra_args,
               *forced_args("nvcc", forced)]
        return _run_compile("nvcc", arch, cmd, timeout=timeout, source=path, inputs=forced, outputs=(out,))


def _archs(arch) -> list[str]:
    if isinstance(arch, str):
        return [a for a in re.split(r"[,\s]+", arch) if a]
    return list(arch)


def _hip_std(extra_args) -> list[str]:
    """HIP_DEFAULT_STD unless the caller's arguments name a standard."""
    return [] if any(a.startswith(("-std=", "--std=")) for a in extra_args) else [HIP_DEFAULT_STD]


def compile_hip(path, arch="gfx90a", *, extra_args=(), forced=(), timeout: int = TIMEOUT_S) -> CompileResult:
    """``HIP_PLATFORM=amd hipcc -x hip -std=c++17 --offload-arch=ARCH -c PATH`` into a temporary directory
    (the standard nvcc defaults to, unless `extra_args` names one).

    ``arch`` is one architecture ("gfx90a": CDNA2, wave64; "gfx1030": RDNA2, wave32), a
    comma-separated list, or a sequence (one object with a code object per architecture).  `forced`:
    headers read first (-include)."""
    archs = _archs(arch)
    target = ",".join(archs)
    tc = find_hipcc()
    if tc is None:
        return _skipped("hipcc", target)
    with tempfile.TemporaryDirectory(prefix="kp-hipcc-") as tmp:
        out = os.path.join(tmp, "kernel.o")
        cmd = [tc.path, "-x", "hip", *_hip_std(extra_args), *[f"--offload-arch={a}" for a in archs], "-c",
               str(path), "-o", out, *extra_args, *forced_args("hipcc", forced)]
        return _run_compile("hipcc", target, cmd, env=_hip_env(), timeout=timeout, source=path, inputs=forced,
                            outputs=(out,))


def compile_hip_each(path, archs, *, extra_args=(), forced=(), timeout: int = TIMEOUT_S) -> list[CompileResult]:
    """One result per architecture.  A file that opens with a system include (or a guarded local header
    that holds system includes only: kernelport.guarded_headers) is built against its
    precompiled header (kernelport.pch: the host object and each architecture's code object, the
    headers parsed once per toolchain instead of three times a file); otherwise, or when that
    build fails, from one hipcc run that builds every architecture (its host side compiled once).
    Only when that run fails is each architecture built alone, so that a failure is reported
    against the architectures it belongs to, with hipcc's own message."""
    archs = _archs(archs)
    tc = find_hipcc()
    fast, pchs = _compile_hip_parts(tc, path, archs, extra_args, forced, timeout) if tc is not None else (None, [])
    if fast is not None:
        return fast
    together = compile_hip(path, archs, extra_args=extra_args, forced=forced, timeout=timeout)
    if len(archs) == 1 or together.ok or together.skipped:
        results = [replace(together, target=a) for a in archs] if len(archs) > 1 else [together]
    else:
        results = [compile_hip(path, a, extra_args=extra_args, forced=forced, timeout=timeout) for a in archs]
    if pchs and all(r.ok for r in results):  # built without a PCH, not with it: a stale PCH
        from . import pch
        for p in pchs:
            pch.forget(p)
    return results


def _compile_hip_parts(tc: Toolchain, path, archs: list[str], extra_args, forced, timeout) -> tuple[list | None, list]:
    """compile_hip_each with the file's system-header prefix precompiled (kernelport.pch): the
    host object and each architecture's code object built apart, each against the PCH of its own
    target.  (one result per architecture, the PCHs used) when every part builds; (None, the PCHs
    used) otherwise, and the caller compiles the plain way, whose verdict and message stand.  The
    forced includes are read after the PCH, never built into it (its key holds no file's bytes); a
    file opening with a local header (kernelport.guarded_headers) that has any is built the plain way."""
    from . import pch
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None, []
    prefix = pch.system_prefix(text)
    # a header forced first (-include) would come before the local header the PCH puts first
    if not prefix and not forced and not any(a.startswith("-include") for a in extra_args):
        from .guarded_headers import local_header_prefix  # a portable port's kp_warp.h, read whole
        prefix = local_header_prefix(Path(path), text)
    if not prefix:
        return None, []
    env, outputs = _hip_env(), {}
    parts = [("host", [*[f"--offload-arch={a}" for a in archs], "--cuda-host-only"])]
    parts += [(a, [f"--offload-arch={a}", "--cuda-device-only"]) for a in archs]
    used = _build_pchs(tc.path, [["-x", "hip", *_hip_std(extra_args), *flags, *extra_args] for _, flags in parts],
                       prefix, env, timeout)
    if None in used:
        return None, [p for p in used if p is not None]
    from . import hipcc_direct
    with tempfile.TemporaryDirectory(prefix="kp-hipcc-") as tmp:
        for (name, target_flags), p in zip(parts, used):
            out = os.path.join(tmp, f"{name}.o")
            cmd = [tc.path, "-x", "hip", *_hip_std(extra_args), *target_flags, "-include-pch", str(p), "-c",
                   str(path), "-o", out, *extra_args, *forced_args("hipcc", forced)]
            direct = hipcc_direct.command(cmd, str(path), out, env)  # hipcc's clang command, without hipcc
            r = _run_compile("hipcc", name, direct or cmd, env=env if direct else hipcc_direct.verbose_env(env),
                             timeout=timeout, source=path, inputs=(p, *forced), outputs=(out,))
            if direct is None:
                r.output = hipcc_direct.learn(cmd, str(path), out, env, r.output)
            if not r.ok or not os.path.isfile(out):
                return None, used
            outputs[name] = r
    host = outputs["host"]
    return [CompileResult("hipcc", a, True, False, outputs[a].command, host.output + outputs[a].output, "")
            for a in archs], used


def _build_pchs(exe: str, flag_lists: list[list[str]], prefix: str, env: dict, timeout) -> list:
    """pch.build of `prefix` for each flag list (one per target), the builds run at once, results in order:
    a port's first compile builds three (host, gfx90a, gfx1030; ~0.85 s CPU each), which, built one after
    another, held the first file of each verify worker (the other waits on their locks) behind them."""
    from . import pch
    if len(flag_lists) < 2:
        return [pch.build(exe, f, prefix, env, timeout) for f in flag_lists]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=len(flag_lists)) as pool:
        return list(pool.map(lambda f: pch.build(exe, f, prefix, env, timeout), flag_lists))


def _compile_together(tool: str, target: str, cmd: list[str], paths: list[Path], alone, env=None,
                      timeout: int = TIMEOUT_S) -> list[CompileResult]:
    """One result per file of `paths`, from one run of `cmd` + the files (objects written into a
    temporary directory): a compiler's start-up, headers and host pass are paid once, not per file.
    Only when that run fails is each file compiled `alone`, so that a failure is reported against
    the file it belongs to (and a good file beside a bad one still passes)."""
    from . import compile_cache

    if len(paths) < 2 or len({p.stem for p in paths}) < len(paths):  # objects would collide: one by one
        return [alone(p) for p in paths]
    full = [*cmd, *map(str, paths)]
    with tempfile.TemporaryDirectory(prefix=f"kp-{tool}-") as tmp:
        try:  # through the compile cache: xdist workers that each need the same batch run it once
            proc = compile_cache.run(full, None, inputs=paths, env=env, timeout=timeout * len(paths), cwd=tmp)
        except (OSError, subprocess.SubprocessError):
            proc = None
    if proc is None or proc.returncode != 0:
        return [alone(p) for p in paths]
    return [CompileResult(tool, target, True, False, full, proc.stdout + proc.stderr, "") for _ in paths]


def compile_cuda_many(paths, arch: str = "sm_80", *, extra_args=(), timeout: int = TIMEOUT_S) -> list[CompileResult]:
    """`compile_cuda` of each file, from one nvcc run when they all compile (_compile_together)."""
    paths = [Path(p).resolve() for p in paths]
    tc = find_nvcc()
    if tc is None:
        return [_skipped("nvcc", arch) for _ in paths]
    cmd = [tc.path, f"-arch={arch}", "-x", "cu", "-c", *extra_args]
    return _compile_together("nvcc", arch, cmd, paths, lambda p: compile_cuda(p, arch, extra_args=extra_args,
                                                                               timeout=timeout), timeout=timeout)


def compile_hip_many(paths, arch="gfx90a", *, extra_args=(), timeout: int = TIMEOUT_S) -> list[CompileResult]:
    """`compile_hip` of each file (every architecture of `arch`), from one hipcc run when they all
    compile (_compile_together)."""
    paths, archs = [Path(p).resolve() for p in paths], _archs(arch)
    tc = find_hipcc()
    if tc is None:
        return [_skipped("hipcc", ",".join(archs)) for _ in paths]
    cmd = [tc.path, "-x", "hip", *_hip_std(extra_args), *[f"--offload-arch={a}" for a in archs], "-c", *extra_args]
    return _compile_together("hipcc", ",".join(archs), cmd, paths,
                             lambda p: compile_hip(p, archs, extra_args=extra_args, timeout=timeout),
                             env=_hip_env(), timeout=timeout)


_WAVE_META = re.compile(r"\.wavefront_size:\s+(\d+)")
_WAVE32_DIRECTIVE = re.compile(r"\.amdhsa_wavefront_size32\s+(\d)")


def hip_device_asm(path, arch: str, *, timeout: int = TIMEOUT_S) -> tuple[CompileResult, str]:
    """Device-only assembly for one architecture: (result, assembly text or "")."""
    tc = find_hipcc()
    if tc is None:
        return _skipped("hipcc", arch), ""
    with tempfile.TemporaryDirectory(prefix="kp-hipcc-") as tmp:
        out = os.path.join(tmp, "kernel.s")
        cmd = [tc.path, "-x", "hip", "-S", "--cuda-device-only", f"--offload-arch={arch}", str(path), "-o", out]
        res = _run_compile("hipcc", arch, cmd, env=_hip_env(), timeout=timeout, source=path, outputs=(out,))
        asm = Path(out).read_text(errors="replace") if res.ok and os.path.exists(out) else ""
    return res, asm


def hip_wavefront_size(path, arch: str, *, timeout: int = TIMEOUT_S) -> int | None:
    """Wave size of the code hipcc builds for ``arch`` (64 for gfx90a, 32 for gfx1030), read from
    the ``.wavefront_size`` metadata of the device assembly; None when hipcc is missing, the
    compile fails or the file has no kernel."""
    res, asm = hip_device_asm(path, arch, timeout=timeout)
    if not res.ok:
        return None
    sizes = {int(s) for s in _WAVE_META.findall(asm)}
    if len(sizes) == 1:
        return sizes.pop()
    flags = {int(f) for f in _WAVE32_DIRECTIVE.findall(asm)}
    if len(flags) == 1:
        return 32 if flags.pop() else 64
    return None


def compile_metal(path, *, timeout: int = TIMEOUT_S, extra_args=()) -> CompileResult:
    """``xcrun -sdk macosx metal -c`` (macOS with Xcode only; skipped elsewhere, where the Metal
    backend type-checks its ports with clang instead: kernelport.backends.metal.toolchain)."""
    metal = find_xcrun_metal()
    if metal is None:
        return _skipped("xcrun", "apple")
    with tempfile.TemporaryDirectory(prefix="kp-metal-") as tmp:
        cmd = [metal.path, "-sdk", "macosx", "metal", "-c", str(path), "-o", os.path.join(tmp, "kernel.air"),
               *extra_args]
        return _run_compile("xcrun", "apple", cmd, timeout=timeout)
