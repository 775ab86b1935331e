"""What `kernelport bind FILE -o DIR` writes for one kernel file, as (path, sealed text) pairs.

Per file `k.cu`:
  DIR/k_launch.h            the C interface (backend-neutral)
  DIR/k_launch.cu           CUDA launchers, #including the source as written
  DIR/k_launch.hip          HIP launchers, #including the HIP port
  DIR/k.hip                 that port (exactly what `kernelport translate --to hip -o DIR` writes)
  --rust:  DIR/k_rs/{Cargo.toml, build.rs, src/lib.rs}
  --swift: DIR/k.swift, with the Metal port and sidecar it binds (DIR/k.metal, DIR/k.metal.json)
Nothing is written here: the caller writes (kernelport.bind.files) or compares (golden tests).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..depth import big_stack
from .. import annotations, templates
from ..errors import KernelportError
from ..model import build
from ..source import SourceFile
from ..translate import port_file
from . import clauncher, files, signature
from .hosts import SOURCE_BACKEND, host_backends


@dataclass
class Output:
    """One file `bind` writes: its path, text and kind."""
    path: Path
    text: str  # sealed
    kind: str  # "port" (translate's own output, golden-tested there) or "bind"


class NotBound(Exception):
    """A port this file needs could not be made (its diagnostics were already collected)."""

    def __init__(self, diagnostics: list[str]):
        super().__init__("; ".join(diagnostics))
        self.diagnostics = diagnostics


def _rel(target: Path, base: Path) -> str:
    return Path(os.path.relpath(target.resolve(), base.resolve())).as_posix()


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def bind_file(path: Path, out_dir: Path, *, rust: bool = False, swift: bool = False) -> list[Output]:
    src = SourceFile.read(path)
    src.check_syntax()
    module = build(src)
    specs = annotations.parse(module)
    stem = path.stem
    ident = signature.c_identifier(stem)
    prefix = f"kp_{ident}"
    flags = (" --rust" if rust else "") + (" --swift" if swift else "")
    outputs: list[Output] = []

    def header(base: Path) -> str:
        return templates.render("header.j2", source=_rel(path, base),
                                command=f"kernelport bind {_rel(path, base)}{flags} -o {_rel(out_dir, base)}")

    def add(p: Path, body: str) -> None:
        outputs.append(Output(p, files.seal(p, body), "bind"))

    sidecar = None
    if swift:
        port, text = _port(src, "metal", out_dir)
        outputs.append(Output(out_dir / f"{stem}.metal", text, "port"))
        sidecar_text = port.extra_files[".json"]
        outputs.append(Output(out_dir / f"{stem}.metal.json", sidecar_text, "port"))
        sidecar = json.loads(sidecar_text)
    binds = signature.bindings(module, specs, sidecar)
    if not binds:
        raise KernelportError(f"{path}: no annotated kernel to bind",
                              hint="bind reads the // @kp annotations (grid, block, arg, scalar) of each kernel")
    symbols = [b.symbol for b in binds] + [b.symbol + "_config" for b in binds]
    for extra in ("error_string", "last_check", "malloc", "free", "copy_to_device", "copy_to_host"):
        if f"{prefix}_{extra}" in symbols:
            raise KernelportError(f"kernel name '{prefix[3:]}_{extra}' collides with a function bind generates",
                                  binds[0].spec.loc, hint="rename the kernel or the file")

    hosts = [h for h in host_backends()
             if h.name == SOURCE_BACKEND or all(h.name in b.spec.targets for b in binds)]
    header_name = f"{stem}_launch.h"
    launchers = [f"{stem}_launch{h.extension}" for h in hosts]
    add(out_dir / header_name, header(out_dir) + clauncher.header(
        binds, prefix=prefix, source_name=path.name, guard=f"KP_{ident.upper()}_LAUNCH_H", launchers=launchers))
    includes = []
    for h, name in zip(hosts, launchers):
        if h.name == SOURCE_BACKEND:  # the original, as written
            include = _rel(path, out_dir)
        else:
            port, text = _port(src, h.name, out_dir)
            include = f"{stem}{h.extension}"
            outputs.append(Output(out_dir / include, text, "port"))
        includes.append(include)
        add(out_dir / name, header(out_dir) + clauncher.launcher(
            binds, h, prefix=prefix, source_name=path.name, include=include, header_name=header_name, path=name))
    if rust:
        from . import rust as rustgen
        crate = out_dir / f"{stem}_rs"
        inputs = sorted({f"../{header_name}", *(f"../{n}" for n in launchers), *(f"../{i}" for i in includes)})
        for rel, body in rustgen.crate(binds, crate_name=ident, prefix=prefix, source_name=path.name,
                                       launchers={h.name: n for h, n in zip(hosts, launchers)}, hosts=hosts,
                                       inputs=inputs).items():
            p = crate / rel
            head = header(p.parent)
            if p.suffix == ".toml":
                head = "".join("# " + line[3:] for line in head.splitlines(keepends=True))
            add(p, head + body)
    if swift:
        from . import swift as swiftgen
        add(out_dir / f"{stem}.swift", header(out_dir) + swiftgen.snippet(binds, stem=stem, source_name=path.name))
    return outputs


def _port(src: SourceFile, backend: str, out_dir: Path):
    port, text = port_file(src, backend, out_dir)
    if not port.ok:
        raise NotBound([d.format() for d in port.diagnostics if d.severity == "error"])
    return port, text  # sealed by translate
