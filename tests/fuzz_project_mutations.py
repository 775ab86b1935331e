"""Mutations of whole CUDA projects for fuzzing kernelport's project model (bench/fuzz_project.py).

Each mutation takes a project directory (already holding sources and headers), the list of its
CUDA sources and a random.Random, changes the tree in place and returns a short description of
what it did, or, for the command-line ones, extra arguments.  What hostile or broken projects
look like: include cycles, an include of itself, missing headers, a header that is a directory, a
symlink loop, binary headers, macro bombs, unterminated `#if`, a malformed
`compile_commands.json` or `[tool.kernelport]`, Latin-1 text, odd file names."""
from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

from fuzz_mutations import mutate

_INCLUDE_AT = re.compile(r"^", re.M)


def _files(root: Path, suffixes=(".cu", ".cuh", ".h", ".hpp")) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes and p.is_file() and not p.is_symlink())


def _read(p: Path) -> str:
    return p.read_bytes().decode("utf-8", errors="surrogateescape")


def _write(p: Path, text: str) -> None:
    p.write_bytes(text.encode("utf-8", errors="surrogateescape"))


def _insert(p: Path, line: str, rng: random.Random, top: bool | None = None) -> None:
    """Put `line` at the top of p or after a random line."""
    text = _read(p)
    starts = [m.start() for m in re.finditer(r"^", text, re.M)]
    at = 0 if (top if top is not None else rng.random() < 0.5) else rng.choice(starts)
    _write(p, text[:at] + line + "\n" + text[at:])


def _some(files: list[Path], rng: random.Random, k: int | None = None) -> list[Path]:
    if not files:
        return []
    return rng.sample(files, min(len(files), k or rng.randint(1, len(files))))


_WARP_HEADER = """#pragma once
#define WARP_SIZE 32
#define KP_HD __host__ __device__
__device__ inline float kp_warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
KP_HD inline int kp_lane(int t) { return t % WARP_SIZE; }
"""


def shared_header(root: Path, rng: random.Random) -> str:
    """One warp header included by several files, quoted and angled, from sources and headers."""
    sub = rng.choice(["", "inc/", "common/deep/"])
    h = root / sub / "kp_common.cuh"
    h.parent.mkdir(parents=True, exist_ok=True)
    _write(h, _WARP_HEADER)
    for f in _some(_files(root), rng):
        if f == h:
            continue
        rel = os.path.relpath(h, f.parent)
        _insert(f, rng.choice([f'#include "{rel}"', f"#include <{sub}kp_common.cuh>", f'#include "{sub}kp_common.cuh"']),
                rng)
    return f"shared header {sub}kp_common.cuh"


def include_cycle(root: Path, rng: random.Random) -> str:
    n = rng.choice([2, 3, 7])
    names = [f"kp_cyc{i}.cuh" for i in range(n)]
    for i, name in enumerate(names):
        guard = rng.random() < 0.3
        body = f'#include "{names[(i + 1) % n]}"\n#define KP_CYC{i} (KP_CYC{(i + 1) % n} + 1)\n'
        _write(root / name, (f"#ifndef G{i}\n#define G{i}\n{body}#endif\n") if guard else body)
    for f in _some(_files(root, (".cu",)), rng, 2):
        _insert(f, f'#include "{rng.choice(names)}"', rng)
    return f"include cycle of {n}"


def self_include(root: Path, rng: random.Random) -> str:
    f = rng.choice(_files(root))
    _insert(f, f'#include "{f.name}"', rng)
    return f"{f.name} includes itself"


def missing_header(root: Path, rng: random.Random) -> str:
    name = rng.choice(["kp_missing.cuh", "nowhere/kp.h", "../../../../kp_none.cuh", "", " ", "kp.cuh\x01"])
    f = rng.choice(_files(root))
    _insert(f, rng.choice([f'#include "{name}"', f"#include <{name}>"]), rng)
    return f"missing header {name!r}"


def header_is_directory(root: Path, rng: random.Random) -> str:
    d = root / rng.choice(["kp_dir.cuh", "kp_dir.h", "kp_src.cu"])
    d.mkdir(exist_ok=True)
    _write(d / "inner.cu", "__global__ void k(float* x) { x[0] = 1; }\n")
    for f in _some(_files(root, (".cu",)), rng, 2):
        _insert(f, f'#include "{d.name}"', rng)
    return f"directory named {d.name}"


def symlink_loop(root: Path, rng: random.Random) -> str:
    kind = rng.choice(["self", "pair", "dir", "dangling", "outside"])
    try:
        if kind == "self":
            os.symlink("kp_loop.cuh", root / "kp_loop.cuh")
            name = "kp_loop.cuh"
        elif kind == "pair":
            os.symlink("kp_b.cuh", root / "kp_a.cuh")
            os.symlink("kp_a.cuh", root / "kp_b.cuh")
            name = "kp_a.cuh"
        elif kind == "dir":
            (root / "kp_sub").mkdir(exist_ok=True)
            os.symlink("..", root / "kp_sub" / "up")
            name = "kp_sub/up/kp_sub/up/x.cuh"
        elif kind == "dangling":
            os.symlink("kp_gone/nothing.cuh", root / "kp_dangling.cuh")
            name = "kp_dangling.cuh"
        else:  # a header that is a link out of the project (the tool reads it, never writes it)
            out = root.parent / "outside.cuh"
            _write(out, _WARP_HEADER)
            os.symlink(os.path.relpath(out, root), root / "kp_outside.cuh")
            name = "kp_outside.cuh"
    except FileExistsError:
        return "symlink exists"
    for f in _some(_files(root, (".cu",)), rng, 2):
        _insert(f, f'#include "{name}"', rng)
    return f"symlink {kind}"


def special_file(root: Path, rng: random.Random) -> str:
    """A header that is a device (a link to /dev/zero) or a FIFO: reading either never ends."""
    kind = rng.choice(["zero", "fifo", "urandom"])
    p = root / f"kp_{kind}.cuh"
    if kind == "fifo":
        os.mkfifo(p)
    else:
        os.symlink(f"/dev/{kind}", p)
    for f in _some(_files(root, (".cu",)), rng, 2):
        _insert(f, f'#include "{p.name}"', rng)
    return f"special file {p.name}"


def binary_header(root: Path, rng: random.Random) -> str:
    size = rng.choice([16, 400, 5000, 200_000])
    data = bytes(rng.randrange(256) for _ in range(min(size, 5000))) * max(1, size // 5000)
    if rng.random() < 0.3:
        data = b"\x7fELF\x02\x01\x01" + data
    name = rng.choice(["kp_bin.cuh", "kp_bin.h", "kp_bin.cu"])
    (root / name).write_bytes(data)
    for f in _some(_files(root, (".cu",)), rng, 2):
        if f.name != name:
            _insert(f, f'#include "{name}"', rng)
    return f"binary {name} ({len(data)} bytes)"


def macro_bomb(root: Path, rng: random.Random) -> str:
    kind = rng.choice(["exponential", "recursive", "mutual", "function", "long", "keyword", "args"])
    if kind == "exponential":
        depth = rng.choice([20, 32, 64])
        lines = ["#define KP_E0 x[0]"] + [f"#define KP_E{i} (KP_E{i - 1} + KP_E{i - 1})" for i in range(1, depth)]
        use = f"KP_E{depth - 1}"
    elif kind == "recursive":
        lines, use = ["#define KP_R (KP_R + 1)", "#define WARP_SIZE WARP_SIZE"], "KP_R + WARP_SIZE"
    elif kind == "mutual":
        lines, use = ["#define KP_A KP_B", "#define KP_B KP_A", "#define KP_F(a) KP_G(a) + KP_F(a)",
                      "#define KP_G(a) KP_F(KP_F(a))"], "KP_A + KP_F(1)"
    elif kind == "function":
        lines, use = ["#define KP_F(a, b) a##b(", "#define KP_ID(x) x", "#define KP_S(x) #x"], "KP_ID((KP_F(x, y)"
    elif kind == "long":
        lines = ["#define KP_L \\\n" + " \\\n".join(f"  x[{i}] +" for i in range(rng.choice([1000, 20000]))) + " 0"]
        use = "KP_L"
    elif kind == "keyword":
        lines, use = ["#define __global__", "#define __device__ __global__", "#define if while",
                      "#define __shfl_down_sync(m, v, o) __shfl_down_sync(m, v, o + KP_K)", "#define KP_K 32"], "0"
    else:
        n = rng.choice([300, 5000])
        lines = ["#define KP_M(" + ", ".join(f"a{i}" for i in range(n)) + ") a0"]
        use = "KP_M(" + ", ".join("1" for _ in range(n)) + ")"
    header = root / "kp_macros.cuh"
    _write(header, "\n".join(lines) + "\n")
    for f in _some(_files(root, (".cu",)), rng, 2):
        _insert(f, '#include "kp_macros.cuh"', rng, top=True)
        _write(f, _read(f) + f"\n__global__ void kp_bomb(float* x) {{ x[threadIdx.x] = {use}; }}\n")
    return f"macro bomb {kind}"


def unterminated_if(root: Path, rng: random.Random) -> str:
    line = rng.choice(["#if KP_X", "#ifdef KP_X", "#ifndef KP_X", "#else", "#endif", "#elif 1", "#if", "#if (",
                       "#if defined(", "#define", "#undef", "#include", "#pragma once"])
    f = rng.choice(_files(root))
    _insert(f, line, rng)
    return f"{line!r} in {f.name}"


def deep_include_chain(root: Path, rng: random.Random) -> str:
    n = rng.choice([50, 300, 1200])
    for i in range(n):
        _write(root / f"kp_chain{i}.cuh", f'#include "kp_chain{i + 1}.cuh"\n#define KP_C{i} {i}\n' if i + 1 < n
               else "#define WARP_SIZE 32\n")
    for f in _some(_files(root, (".cu",)), rng, 1):
        _insert(f, '#include "kp_chain0.cuh"', rng, top=True)
    return f"include chain of {n}"


def odd_include_name(root: Path, rng: random.Random) -> str:
    name = rng.choice(["/etc/passwd", "../" * 12 + "etc/passwd", "/dev/zero", "/dev/stdin", ".", "..", "/",
                       "x" * 5000 + ".cuh", "a/" * 2000 + "b.cuh", "kp\\win.cuh", "kp\u00e9.cuh", "\udcff.cuh",
                       "/proc/self/fd/0"])
    f = rng.choice(_files(root))
    _insert(f, rng.choice([f'#include "{name}"', f"#include <{name}>"]), rng)
    return f"include {name[:40]!r}"


def encoding(root: Path, rng: random.Random) -> str:
    f = rng.choice(_files(root))
    kind = rng.choice(["latin1", "bom", "utf16", "crlf", "cr", "nul", "latin1-ident"])
    raw = f.read_bytes()
    if kind == "latin1":
        raw = b"// caf\xe9 \xb5s \xa9 M\xfcller\n" + raw.replace(b"//", b"// \xe9\xe0", 3)
    elif kind == "latin1-ident":
        raw = raw + b"\n__device__ int caf\xe9 = 1; const char* s = \"\xff\xfe\";\n"
    elif kind == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif kind == "utf16":
        raw = raw.decode("utf-8", errors="replace").encode("utf-16")
    elif kind == "crlf":
        raw = raw.replace(b"\n", b"\r\n")
    elif kind == "cr":
        raw = raw.replace(b"\n", b"\r")
    else:
        raw = raw[: len(raw) // 2] + b"\0\0" + raw[len(raw) // 2:]
    f.write_bytes(raw)
    return f"{kind} {f.name}"


def odd_file_name(root: Path, rng: random.Random) -> str:
    f = rng.choice(_files(root, (".cu",)))
    name = rng.choice(["kp space.cu", "kp:1:2.cu", "-kp.cu", "kp\u00e9.cu", "kp\nnl.cu", ".kp.cu", "kp.CU", "kp.cu.cu"])
    try:
        (f.parent / name).write_bytes(f.read_bytes())
    except OSError:
        return "odd name refused"
    return f"copy named {name!r}"


def mutate_files(root: Path, rng: random.Random) -> str:
    """The single-file mutations of tests/fuzz_mutations.py on one or two files (headers too)."""
    done = []
    for f in _some(_files(root), rng, rng.choice([1, 2])):
        text, applied = mutate(_read(f), rng)
        _write(f, text)
        done.append(f"{f.name}:{'+'.join(applied)}")
    return "mutated " + ",".join(done)


def compile_commands(root: Path, rng: random.Random) -> str:
    srcs = _files(root, (".cu",))
    kind = rng.choice(["malformed", "not-a-list", "bad-entry", "outside", "flags", "build-dir", "huge", "empty"])
    entries = [{"directory": str(root), "file": str(s), "arguments": ["nvcc", "-I", "inc", "-DKP=1", "-c", str(s)]}
               for s in srcs]
    if kind == "malformed":
        text = json.dumps(entries, indent=1)
        text = text[: rng.randrange(len(text) + 1)] + rng.choice(["", ",", "}", "\x00", "\udcff"])
    elif kind == "not-a-list":
        text = json.dumps(rng.choice([{}, 1, "x", None, {"file": "a"}, [[1]], [None]]))
    elif kind == "bad-entry":
        e = rng.choice(entries) if entries else {}
        e.pop(rng.choice(["directory", "file", "arguments"]), None)
        e[rng.choice(["directory", "file", "arguments", "command"])] = rng.choice(
            [None, 5, [], {}, "", "\x00", ["nvcc", 5], "nvcc 'unbalanced -c x.cu", "nvcc -I"])
        text = json.dumps(entries)
    elif kind == "outside":
        for e in entries:
            e["directory"] = rng.choice(["/", "/etc", "/nonexistent", "..", "relative/dir"])
            e["arguments"] += [rng.choice(["-I/", "-I/etc", "-include", "-include/dev/zero", "-I../../..",
                                           "-include/etc/passwd", "-I/proc/self"])]
        entries.append({"directory": "/", "file": "/etc/passwd", "arguments": ["nvcc", "-c", "/etc/passwd"]})
        text = json.dumps(entries)
    elif kind == "flags":
        for e in entries:
            e["arguments"] += rng.sample(["-D", "-D1bad", "-DX=(", "-D=", "-I", "-include", "-isystem", "--",
                                          "-DWARP_SIZE=64", "-DWARP_SIZE", "-UWARP_SIZE", "-D" + "X" * 5000,
                                          "-include" + srcs[0].name if srcs else "-include"], 3)
        text = json.dumps(entries)
    elif kind == "huge":
        text = json.dumps(entries * 2000)
    elif kind == "empty":
        text = rng.choice(["", "[]", " ", "\ufeff[]"])
    else:
        (root / "build").mkdir(exist_ok=True)
        _write(root / "build" / "compile_commands.json", json.dumps(entries)[:-3])
        return "compile_commands in build/, truncated"
    _write(root / "compile_commands.json", text)
    return f"compile_commands {kind}"


def pyproject(root: Path, rng: random.Random) -> str:
    body = rng.choice([
        "[tool.kernelport]\ninclude-dirs = 5\n", "[tool.kernelport]\ninclude-dirs = [5, []]\n",
        "[tool.kernelport]\ndefines = [\"1bad\", \"X=(\"]\n", "[tool.kernelport]\ndefines = [1]\n",
        "[tool.kernelport]\ndefines = \"A=1\"\n", "[tool.kernelport]\nselect = \"WS\"\n",
        "[tool.kernelport]\nselect = [\"NOPE999\"]\n", "[tool.kernelport]\ntargets = [\"foo\"]\n",
        "[tool.kernelport]\ntargets = 3\n", "[tool.kernelport]\nhip-defines = [[]]\n",
        "[tool]\nkernelport = 3\n", "tool = 3\n", "[tool.kernelport\n", "[tool.kernelport]\nx = \n",
        "\xff\xfe[tool.kernelport]\n", "[tool.kernelport]\ninclude-dirs = [\"/\", \"/dev/zero\", \"../../..\"]\n",
        "[tool.kernelport]\ninclude-dirs = [\"\\u0000\"]\n", "[tool.kernelport]\ncompile-commands = \"/etc/passwd\"\n",
        "[tool.kernelport]\nunknown-key = 1\n", "[tool.kernelport]\nignore = [[1]]\n",
        "[tool.kernelport]\nwarp-size = \"x\"\n", "[tool.kernelport]\ndefines = [\"" + "A" * 100000 + "\"]\n",
    ])
    _write(root / "pyproject.toml", body)
    return f"pyproject {body[:60]!r}"


def unreadable(root: Path, rng: random.Random) -> str:
    f = rng.choice(_files(root))
    os.chmod(f, 0)
    return f"unreadable {f.name}"


def empty_files(root: Path, rng: random.Random) -> str:
    f = rng.choice(_files(root))
    f.write_bytes(rng.choice([b"", b"\n", b"#include \"" + f.name.encode() + b"\"\n", b"\xff", b"\\"]))
    return f"emptied {f.name}"


MUTATIONS = {f.__name__: f for f in (
    shared_header, include_cycle, self_include, missing_header, header_is_directory, symlink_loop, special_file,
    binary_header, macro_bomb, unterminated_if, deep_include_chain, odd_include_name, encoding, odd_file_name,
    mutate_files, compile_commands, pyproject, unreadable, empty_files)}


def cli_args(root: Path, rng: random.Random) -> list[str]:
    """Extra -I / -D arguments (hostile ones included), or none."""
    if rng.random() < 0.6:
        return []
    return rng.choice([["-I", "inc"], ["-I", "/nonexistent"], ["-I", "/"], ["-I", str(root)], ["-D", "WARP_SIZE=64"],
                       ["-D", "1bad"], ["-D", "X=("], ["-D", "="], ["-I", rng.choice(_files(root) or [root]).name],
                       ["--compile-commands", "nowhere.json"], ["--compile-commands", str(root)],
                       ["-D", "KP=" + "1" * 10000]])


def mutate_project(root: Path, rng: random.Random, names: list[str] | None = None) -> list[str]:
    """One to three project mutations; the descriptions."""
    applied = []
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        name = rng.choice(names or list(MUTATIONS))
        try:
            applied.append(f"{name}: {MUTATIONS[name](root, rng)}")
        except (IndexError, ValueError):  # nothing to mutate (no file of that kind left)
            applied.append(f"{name}: nothing to mutate")
    return applied
