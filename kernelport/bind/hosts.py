"""The host backends a launcher is generated for, and how each one builds it.

One row per backend that has a host runtime (its API spellings are the dialect table's; this
table holds only what the dialect table does not: file extension, compiler and link line).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import dialect, toolchains


SOURCE_BACKEND = "cuda"  # the dialect kernelport reads: its launcher #includes the source as written


@dataclass(frozen=True)
class HostBackend:
    name: str  # the dialect backend
    title: str
    extension: str  # of the launcher source
    compiler: str  # executable, also the cargo feature's compiler
    compiler_env: str  # environment variable that overrides it (build.rs)
    compile_args: tuple[str, ...]  # before the source file
    pic_args: tuple[str, ...]  # position-independent host code (a Rust binary is a PIE)
    env: tuple[tuple[str, str], ...]  # the compiler needs these
    arch_env: str  # environment variable with the target architectures (build.rs)
    arch_flag: str  # one architecture as a flag
    default_archs: tuple[str, ...]  # built when arch_env is unset (none: the compiler's default)
    runtime_lib: str  # the runtime library the launcher links
    home_envs: tuple[str, ...]  # environment variables naming the toolkit's install prefix
    lib_dirs: tuple[str, ...]  # where to look for it: relative to the install prefix, or absolute

    def build_command(self, path: str) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env)
        archs = " ".join(self.arch_flag.format(a) for a in self.default_archs)
        return " ".join(x for x in (env, self.compiler, *self.compile_args, archs, "-c", path) if x)


HOSTS: dict[str, HostBackend] = {
    "cuda": HostBackend("cuda", "CUDA", ".cu", "nvcc", "NVCC", ("-x", "cu"), ("-Xcompiler", "-fPIC"), (), "KERNELPORT_CUDA_ARCH",
                        "-arch={}", (), "cudart", ("CUDA_HOME", "CUDA_PATH"),
                        ("lib64", "lib", "targets/x86_64-linux/lib", "/usr/local/cuda/lib64")),
    "hip": HostBackend("hip", "HIP", ".hip", "hipcc", "HIPCC", ("-x", "hip"), ("-fPIC",), (("HIP_PLATFORM", "amd"),),
                       "KERNELPORT_HIP_ARCHS", "--offload-arch={}", toolchains.HIP_ARCHS, "amdhip64",
                       ("ROCM_PATH", "HIP_PATH"), ("lib", "lib64", "/opt/rocm/lib")),
}


def host_backends() -> list[HostBackend]:
    """Backends with a host runtime in the dialect table, in its order (Metal's host is Swift)."""
    return [HOSTS[b] for b in dialect.BACKENDS if dialect.concept("runtime_header").spelling(b) is not None]
