"""What the GPU driver (kernelport/device.py) gives the original besides buffers of numbers and scalars, so
that it runs on what the emulator's run of it read (before stop 61 each of these was a device skip):

- host-filled constant memory (`__constant__ float w[16];` that host code fills with cudaMemcpyToSymbol):
  the contents the emulator gave it, copied in with cudaMemcpyToSymbol before the launch;
- macros the inputs redefine (sizes scaled down for the emulator: polybench's N): the file and every local
  header it reads, rewritten as the emulator's preprocessor rewrites them (each object-like `#define NAME`
  takes the value; lines kept), in a mirror tree under the driver's directory that the driver includes;
- a struct or vector by value (Mandelbrot's `uchar4 colors`): the kernel's parameter type, filled field by
  field by name, as host code fills it; an array field from its bytes;
- a buffer of structs (and an array of structs in constant memory): the bytes of the emulator's layout,
  checked at compile time against the compiled type: its sizeof, and each field's offsetof and sizeof.
  Where one differs nvcc stops at a static_assert, and the run is a skip naming the field (`refusal`).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np

# a static_assert's message: "kernelport refuses N", N indexing the reasons the driver's writer kept
REFUSES = "kernelport refuses "
_REFUSED = re.compile(re.escape(REFUSES) + r"(\d+)")
_SUMMARY = re.compile(r"errors? detected in the compilation")


def _variable_type(ctype: str) -> str:
    """A parameter's type as a variable's: without what only a kernel's parameter may carry (the source
    dialect's grid_constant, CUDA's `__grid_constant__`; a restrict qualifier)."""
    from . import backends, dialect
    word = dialect.concept("grid_constant").name(backends.source().name)
    return re.sub(rf"\b(?:{re.escape(word)}|__restrict__|__restrict)(?!\w)", "", ctype).strip()


class Checks:
    """The compile-time checks of one driver: C++ text before its main, and why each may fail."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasons: list[str] = []

    def check(self, condition: str, reason: str) -> None:
        self.text.append(self.assertion(condition, reason))

    def assertion(self, condition: str, reason: str) -> str:
        """The static_assert of one check, for a scope of the caller's choosing (a local's in main)."""
        self.reasons.append(reason)
        return f'static_assert({condition}, "{REFUSES}{len(self.reasons) - 1}");'

    def refusal(self, stderr: str) -> str | None:
        """Why nvcc stopped, where it stopped at some of these checks (None otherwise): each failed one, the
        fields' before the sizes' (a field out of place is what makes a size differ)."""
        errors = [ln for ln in stderr.splitlines() if re.search(r"\berror\b", ln) and not _SUMMARY.search(ln)]
        if not errors or not all(REFUSES in ln for ln in errors):  # another error first: that one is the news
            return None
        got = sorted({int(m.group(1)) for m in _REFUSED.finditer(stderr) if int(m.group(1)) < len(self.reasons)},
                     key=lambda k: ("field" not in self.reasons[k], k))
        return "; ".join(self.reasons[k] for k in got[:3]) + ("; ..." if len(got) > 3 else "") if got else None


def _leaves(dt: np.dtype, prefix: str = ""):
    """(C member path, offset, bytes, is a pointer) of each field of a structured dtype, nested structs by
    their own fields."""
    for name in dt.names or ():
        sub, off = dt.fields[name][0], dt.fields[name][1]
        path = f"{prefix}{name}"
        base = sub.subdtype[0] if sub.subdtype else sub
        if base.names is not None and not sub.subdtype:
            for p, o, n, ptr in _leaves(sub, path + "."):
                yield p, off + o, n, ptr
        else:
            yield path, off, sub.itemsize, bool((sub.metadata or {}).get("pointer")) or \
                bool((base.metadata or {}).get("pointer"))


def layout_checks(checks: Checks, tag: str, ctype: str, dt: np.dtype, what: str, spelled: dict[str, str],
                  shown: str) -> None:
    """Checks that the compiled `ctype` has the emulator's layout `dt`: sizeof, each field's offsetof and
    sizeof (a field the compiled type lacks counts as elsewhere).  tag: a C identifier for this type's helpers;
    spelled: a field's spelling in the real type where the emulator's model names it otherwise (cuRAND's
    state: the model's v0..v4 are `v[0]`..`v[4]`); shown: the type as the messages name it."""
    t = f"kp_layout_{tag}"
    checks.text.append(f"typedef typename std::remove_cv<{ctype}>::type {t};")
    checks.check(f"sizeof({t}) == {dt.itemsize}", f"{what}: sizeof({shown}) in the compiled driver is not the "
                 f"emulator's {dt.itemsize} bytes")
    for k, (path, off, size, _) in enumerate(_leaves(dt)):
        real = spelled.get(path, path)
        helper = f"kp_field_{tag}_{k}"
        checks.text.append(
            f"template <typename T, typename = void> struct {helper} {{ static constexpr long at = -1, bytes = -1; }};\n"
            f"template <typename T> struct {helper}<T, std::void_t<decltype(std::declval<T&>().{real})>> {{\n"
            f"    static constexpr long at = offsetof(T, {real}), bytes = sizeof(std::declval<T&>().{real}); }};")
        checks.check(f"{helper}<{t}>::at == {off} && {helper}<{t}>::bytes == {size}",
                     f"{what}: the field `{real}` of {shown} is not where the emulator's layout has it "
                     f"({size} bytes at offset {off}), or the compiled type has no such field")


def pointer_fields(value: np.ndarray) -> list[str]:
    """The pointer fields of a buffer of structs that hold something other than null (the emulator's
    addresses mean nothing on the GPU)."""
    out = []
    for path, off, size, ptr in _leaves(value.dtype):
        if ptr and value.size and np.any(value.view(np.uint8).reshape(value.size, -1)[:, off:off + size]):
            out.append(path)
    return out


def real_fields(ctype: str) -> dict[str, str]:
    """A model type's fields as the real type spells them (the emulator's cuRAND state: v0 is `v[0]`)."""
    from .emulator.frontend import curand_model
    name = re.sub(r"\b(const|volatile|struct)\b", "", ctype).strip()
    return curand_model.REAL_FIELDS if name in curand_model.TYPES else {}


def symbol_code(checks: Checks, d: Path, symbols: dict[str, np.ndarray]) -> list[str]:
    """Lines of the driver's main that copy each host-filled constant-memory variable's contents (the
    emulator's) in before the launch, each file NAME.sym beside the driver; sizes checked at compile time."""
    lines = []
    for k, (name, value) in enumerate(sorted(symbols.items())):
        data = np.ascontiguousarray(value)
        (d / f"{name}.sym").write_bytes(data.tobytes())
        what = f"the constant-memory variable `{name}`"
        checks.check(f"sizeof({name}) == {data.nbytes}", f"{what} is not the emulator's {data.nbytes} bytes in "
                     "the compiled driver")
        if data.dtype.names is not None:
            layout_checks(checks, f"sym{k}", f"std::remove_all_extents<decltype({name})>::type", data.dtype,
                          what, {}, "its element type")
        lines.append(f'    ::kp_symbol({name}, "{d / (name + ".sym")}", {data.nbytes});')
    return lines


NUMBERS = (int, float, bool, np.integer, np.floating, np.bool_)


def unknown_fields(name: str, value: dict) -> str:
    """The first field of a by-value argument (nested dicts) that is neither a number nor an array ('' if none)."""
    for f, v in value.items():
        if isinstance(v, dict):
            if odd := unknown_fields(f"{name}.{f}", v):
                return odd
        elif not isinstance(v, (np.ndarray, *NUMBERS)):
            return f"`{name}.{f}`"
    return ""


def _number(v, ctype: str) -> str:
    if isinstance(v, (float, np.floating)):
        return f"({ctype}){float(v).hex()}"
    return f"({ctype}){int(v)}"


def by_value_code(checks: Checks, d: Path, name: str, ctype: str, value: dict) -> tuple[list[str], str]:
    """Lines that fill a struct or vector parameter (`value`: the emulator's fields, nested dicts) field by
    field by name, and the argument's expression; an array field (a numpy array) from its bytes."""
    var = f"kp_arg_{name}"
    lines = [f"    typename std::remove_cv<{_variable_type(ctype)}>::type {var}{{}};"]

    def fill(at: str, path: str, v) -> None:
        if isinstance(v, dict):
            for f, x in v.items():
                fill(f"{at}.{f}", f"{path}.{f}", x)
        elif isinstance(v, np.ndarray):
            file = d / f"{path}.in"
            file.write_bytes(np.ascontiguousarray(v).tobytes())
            lines.append("    " + checks.assertion(
                f"std::is_array<decltype({at})>::value && sizeof({at}) == {v.nbytes}",
                f"`{path}` is not an array field of the emulator's {v.nbytes} bytes (a pointer field would need a "
                "device allocation, which the GPU driver does not make for a struct's field)"))
            lines.append(f'    ::kp_bytes(&{at}, "{file}", {v.nbytes});')
        else:
            lines.append(f"    {at} = {_number(v, f'decltype({at})')};")
    fill(var, name, value)
    return lines, var


def _rewrite(text: str, redefine: dict[str, str]) -> tuple[str, set[str]]:
    """`text` with each object-like `#define NAME` of `redefine` given its value, as the emulator's
    preprocessor does (emulator.frontend.preprocess.redefined), and the names it rewrote."""
    from .emulator.frontend.preprocess import _DEFINE, redefined
    out: list[str] = []
    seen, lines, i = set(), text.split("\n"), 0
    while i < len(lines):
        at = redefined(lines, i, redefine, out)
        if at is None:
            out.append(lines[i])
        else:
            seen.add(_DEFINE.match(lines[i]).group(1))
            i = at
        i += 1
    return "\n".join(out), seen


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"][^>"\n]+[>"])', re.M)
MAX_MIRRORED = 400  # local headers one file reads: far beyond real code


class Redefined:
    """The file and the local headers it reads (quoted includes beside each file, then on the project's
    include dirs; angle includes on those dirs), copied under `d/tree` at their own absolute paths with the
    emulator's macro values, so that each copy's includes find the copies: the driver includes the file's
    copy, the copies of the include dirs before the dirs themselves (`flags`)."""

    def __init__(self, source: Path, redefine: dict[str, str], d: Path, include_dirs: tuple[str, ...] = ()):
        self.redefine, self.tree, self.include_dirs = dict(redefine), d / "tree", tuple(include_dirs)
        self.source = Path(os.path.abspath(source))
        self.seen: set[str] = set()  # the macros some #define of the copies gave the emulator's value
        self.done: set[str] = set()
        self._mirror(self.source, None)
        self.dirs = tuple(f"-I{self.tree}{os.path.abspath(x)}" for x in include_dirs)

    def _mirror(self, first: Path, text: str | None) -> Path:
        """Copy `first` (with `text` in place of its own, where given) and every local header it reads."""
        from .includes import MAX_HEADER_BYTES, is_regular, within_project
        todo: list[tuple[Path, str | None]] = [(first, text)]
        out = None
        while todo and len(self.done) < MAX_MIRRORED:
            f, given = todo.pop()
            if given is None and str(f) in self.done:
                continue
            self.done.add(str(f))
            try:
                text_f = given if given is not None else f.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            new, got = _rewrite(text_f, self.redefine)
            self.seen |= got
            wrote = self._write(f, new if given is not None else f'#line 1 "{f}"\n' + new)
            out = out or wrote
            for inc in _INCLUDE.findall(text_f):  # beside the file (a quoted one), then on the include dirs
                for here in ([str(f.parent)] if inc.startswith('"') else []) + list(self.include_dirs):
                    p = Path(os.path.normpath(os.path.join(here, inc[1:-1])))
                    if is_regular(p):
                        if str(p) not in self.done and within_project(f, p.resolve()) and \
                                p.stat().st_size <= MAX_HEADER_BYTES:
                            todo.append((p, None))
                        break
        return out if out is not None else self.file

    def _write(self, f: Path, text: str) -> Path:
        out = Path(f"{self.tree}{f}")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        return out

    @property
    def file(self) -> Path:
        return Path(f"{self.tree}{self.source}")

    def place(self, text: str) -> Path:
        """A variant of the file's text (kernelport.device_source: its own #line markers), rewritten, in the
        file's place; the headers its lines read (an includer's lines before the file's) copied too."""
        return self._mirror(self.source, text)

    def flags(self, flags: tuple[str, ...]) -> tuple[str, ...]:
        """The build's flags with the mirror's include dirs first, a forced include's copy in its place and each
        -D the emulator redefined given its value (one it redefined that no #define of the copies gives: added,
        as the emulator's -D)."""
        out = [*self.dirs]
        for k, f in enumerate(flags):
            m = re.match(r"-D([A-Za-z_]\w*)(?:=(.*))?$", f)
            if k and flags[k - 1] == "-include" and Path(f).is_file():  # a forced include, read as the file is
                self._mirror(Path(os.path.abspath(f)), None)
                f = f"{self.tree}{os.path.abspath(f)}"
            out.append(f"-D{m.group(1)}={self.redefine[m.group(1)]}" if m and m.group(1) in self.redefine else f)
        given = {m.group(1) for f in flags if (m := re.match(r"-D([A-Za-z_]\w*)", f))}
        return (*out, *(f"-D{n}={v}" for n, v in self.redefine.items() if n not in self.seen and n not in given))
