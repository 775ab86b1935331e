"""What a backend is: one target's spellings, wave widths, lowering, toolchain and lint targets.

A backend is a subclass of `Backend` holding data as class attributes; defining it registers one
instance (sqlglot's dialects work the same way).  Consumers (translate, lint, verify, the
emulator, the CLI) ask the registry (`kernelport.backends`) instead of comparing names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..toolchains import CompileResult

REGISTRY: dict[str, "Backend"] = {}


@dataclass(frozen=True)
class Run:
    """One way a backend's code runs: a wave width on an architecture, linted as `target`."""
    backend: str
    wave: int
    arch: str
    target: str  # lint target name (`--targets`, `[tool.kernelport] targets`)
    hardware: str  # how diagnostics name the hardware
    # The backend whose dialect this run's text is read as, where it differs (a source built as
    # CUDA on NVIDIA and as HIP on AMD is emulated and compiled as each).
    reads_as: str | None = None

    @property
    def dialect(self) -> str:
        return self.reads_as or self.backend


@dataclass(frozen=True)
class Lowering:
    """How the emulator's C99 front end reads this backend's text."""
    # dialect concept key -> how its spelling is lowered:
    #   "kernel" (marks a kernel, removed), "drop" (removed), "shared" (-> _Thread_local),
    #   "drop_call" (removed with its parenthesised arguments), "const" (-> const)
    qualifier_concepts: dict[str, str]
    extra_drop: tuple[str, ...] = ()  # C++/vendor words with no concept (not GPU spellings)
    address_spaces: dict[str, str] = field(default_factory=dict)  # Metal: device -> "", threadgroup -> shared
    attributes: bool = False  # `[[...]]` attributes are recorded and removed
    defines: dict[str, str] = field(default_factory=dict)


class Backend:
    name: ClassVar[str]
    # Suffix of the port file `translate --to NAME` writes; None: not a translation target.
    extension: ClassVar[str | None] = None
    # The dialect kernels are written in (CUDA): linted for every target, run as the original.
    is_source: ClassVar[bool] = False
    # File suffixes whose text is written in this dialect (lint reads them as this backend).
    source_extensions: ClassVar[tuple[str, ...]] = ()
    runs: ClassVar[tuple[Run, ...]] = ()
    spellings: ClassVar[dict[str, str | None]] = {}
    aliases: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Built-in inputs passed as attributed kernel parameters: concept key -> (type, attribute).
    attributes: ClassVar[dict[str, tuple[str, str]]] = {}
    lowering: ClassVar[Lowering]
    # Tool names `verify --require` accepts for this backend's toolchain (besides the backend's name).
    tools: ClassVar[tuple[str, ...]] = ()
    # What the backend's compile-time wave constant (concept wave_size_const) is: "exact" (the
    # width of the device pass: HIP's KP_WAVE_SIZE), "assumed" (the width every device of the
    # backend has in practice: Metal's 32), or "bound" (only an upper bound: translate refuses it
    # where a constant expression means the exact width).
    wave_constant: ClassVar[str] = "exact"
    # "module:Class" of the Translator subclass that writes this backend's ports.
    translator_path: ClassVar[str | None] = None
    # "module:function" that runs this backend's original on a real GPU (`verify --device NAME`).
    device_runner: ClassVar[str | None] = None

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            REGISTRY[cls.name] = cls()

    # -- behaviour a backend may override -------------------------------------------------------
    def wave_defines(self, wave: int) -> dict[str, str]:
        """Predefined macros a real compiler sets for a target of this wave width."""
        return {}

    def prologue(self, body: str, **context) -> str:
        """What a port starts with after the generated-file header (the backend's includes and
        helpers), from templates/<name>_prologue.j2; `body` is the translated text."""
        from .. import templates
        return templates.render(f"{self.name}_prologue.j2", body=body, **context)

    def extra_files(self) -> dict[str, str]:
        """Files every port of this backend needs beside it: name -> content."""
        return {}

    def translator(self):
        if self.translator_path is None:
            raise LookupError(f"kernelport cannot translate to {self.name}")
        module, cls = self.translator_path.split(":")
        return getattr(import_module(module), cls)

    def run_on_device(self):
        """The function that runs a kernel of this dialect on a real GPU."""
        if self.device_runner is None:
            raise LookupError(f"kernelport cannot run {self.name} kernels on a device")
        module, fn = self.device_runner.split(":")
        return getattr(import_module(module), fn)

    def compile(self, path, run: Run) -> "CompileResult":
        """Compile (or type-check) a file of this backend's text for one run."""
        raise NotImplementedError(f"{self.name}: no toolchain")

    def compile_runs(self) -> tuple[Run, ...]:
        """The runs that need a compile of their own (one per architecture)."""
        seen, out = set(), []
        for r in self.runs:
            if r.arch not in seen:
                seen.add(r.arch)
                out.append(r)
        return tuple(out)

    @property
    def lint_targets(self) -> frozenset[str]:
        """The targets code in this dialect runs on: the original runs on all of them."""
        if self.is_source:
            return frozenset(r.target for b in REGISTRY.values() for r in b.runs)
        return frozenset(r.target for r in self.runs)

    def __repr__(self) -> str:
        return f"<backend {self.name}>"
