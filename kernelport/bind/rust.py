"""The Rust crate: Cargo.toml, build.rs (the launcher built by the feature's compiler) and src/lib.rs.

Standard library only (the machines reach no crate registry). The safe function of a kernel
takes its buffers as `DeviceBuffer`s (in: `&`, out/inout: `&mut`, so Rust's borrow rules forbid
passing one buffer as both), then the scalars that no buffer's length gives; it checks every
length against the annotated expression before the launch.
"""
from __future__ import annotations

from .. import templates
from . import expr as ex
from .hosts import HostBackend
from .signature import Binding, Param

_KEYWORDS = {"as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl",
             "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static",
             "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
             "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual",
             "yield", "try", "gen"}
_NOT_RAW = {"self", "Self", "super", "crate"}  # keywords a raw identifier cannot spell

# The crate's #[repr(C)] mirrors of CUDA's vector and half types: (fields, alignment, CUDA name).
STRUCTS = {
    "Float2": ((("x", "f32"), ("y", "f32")), 8, "float2"),
    "Float4": ((("x", "f32"), ("y", "f32"), ("z", "f32"), ("w", "f32")), 16, "float4"),
    "Half": ((("bits", "u16"),), None, "__half"),
}
PRIMITIVES = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64")


def ident(name: str) -> str:
    if name in _NOT_RAW:
        return name + "_"
    return f"r#{name}" if name in _KEYWORDS else name


def _ffi_param(p: Param) -> str:
    if not p.buffer:
        return f"{ident(p.name)}: {p.type.rust}"
    return f"{ident(p.name)}: *{'const' if p.const else 'mut'} {p.type.rust}"


def _pointer(p: Param) -> str:
    n = ident(p.name)
    if p.role == "in":
        return f"{n}.as_ptr()" + ("" if p.const else f" as *mut {p.type.rust}")
    return f"{n}.as_mut_ptr()" + (f" as *const {p.type.rust}" if p.const else "")


def _kernel(b: Binding) -> dict:
    name = ident(b.symbol[3:])
    cfg = "kp_cfg" if any(p.name == "cfg" for p in b.params) else "cfg"
    safe = [f"{ident(p.name)}: &{'' if p.role == 'in' else 'mut '}DeviceBuffer<{p.type.rust}>" for p in b.buffers]
    safe += [f"{ident(p.name)}: {p.type.rust}" for p in b.explicit_scalars]
    body, doc = [], []
    for s in b.scalars:
        if s.inferred_from:
            buf = ident(s.inferred_from)
            body.append(f"let {ident(s.name)} = <{s.type.rust}>::try_from({buf}.len()).map_err(|_| Error::Overflow "
                        f"{{ kernel: \"{b.kernel}\", scalar: \"{s.name}\", buffer: \"{s.inferred_from}\", "
                        f"len: {buf}.len() }})?;")
    for p in b.buffers:
        given = next((s.name for s in b.scalars if s.inferred_from == p.name), None)
        doc.append(f"* `{p.name}`: {p.role}, `{p.length.text}` elements of `{p.kernel_type}`"
                   + (f" (`{given}` is `{p.name}.len()`)" if given else ""))
        if given is None:
            body.append(f"check_len(\"{b.kernel}\", \"{p.name}\", {ident(p.name)}.len(), "
                        f"{ex.emit(p.length, ex.RUST, ident)})?;")
    names = ", ".join(ident(s.name) for s in b.scalars)
    body.append(f"let kp_raw = {cfg}.resolve(unsafe {{ ffi::{b.symbol}_config({names}) }});")
    args = ", ".join(_pointer(p) if p.buffer else ident(p.name) for p in b.params)
    body.append(f"let kp_status = unsafe {{ ffi::{b.symbol}(&kp_raw, {args}) }};")
    body.append(f"check_status(\"{b.kernel}\", kp_status)")
    return {
        "kernel": b.kernel, "launch": b.launch, "symbol": b.symbol, "name": name, "cfg": cfg,
        "geometry": b.geometry_text().replace("grid ", "grid `", 1).replace(", block ", "`, block `", 1) + "`",
        "ffi_scalars": ", ".join(_ffi_param(p) for p in b.scalars), "ffi_params": [_ffi_param(p) for p in b.params],
        "safe_params": safe, "safe_scalars": ", ".join(_ffi_param(p) for p in b.scalars), "scalar_names": names,
        "body": body, "doc": doc,
    }


def crate(bindings: list[Binding], *, crate_name: str, prefix: str, source_name: str, launchers: dict[str, str],
          hosts: list[HostBackend], inputs: list[str]) -> dict[str, str]:
    """Relative path -> unsealed body (the caller adds the generated-file header).

    `launchers`: backend -> launcher file name in the directory above the crate; `inputs`: what
    the launchers #include, relative to the crate (build.rs rebuilds when one changes)."""
    kernels = [_kernel(b) for b in bindings]
    code = " ".join(line for k in kernels for line in k["body"])
    helpers = {h for h in ex.RUST.call.values() if h + "(" in code}
    used = [n for n in STRUCTS if any(p.type.struct == n for b in bindings for p in b.params)]
    structs = [{"name": n, "fields": STRUCTS[n][0], "align": STRUCTS[n][1], "device_type": STRUCTS[n][2]} for n in used]
    lib = templates.render("bind/lib.rs.j2", source_name=source_name, header=f"{prefix[3:]}_launch.h", prefix=prefix,
                           kernels=kernels, helpers=helpers, structs=structs, device_copy=list(PRIMITIVES) + used)
    build = templates.render("bind/build.rs.j2", source_name=source_name, hosts=hosts, launchers=launchers,
                             inputs=inputs, library=f"{prefix}_launch")
    toml = templates.render("bind/Cargo.toml.j2", crate=crate_name, source_name=source_name, hosts=hosts,
                            default_feature=hosts[0].name)
    return {"Cargo.toml": toml, "build.rs": build, "src/lib.rs": lib}
