"""A backend's API table: CUDA runtime/driver/library names and the backend's spelling of each.

The HIP backend ships one (`hip_api.tsv`, generated from HIPIFY's maps by
scripts/gen_hip_api.py); a backend names its file in `Backend.api_table` and reads it through
`Backend.api()`, the first time translate or lint asks (the CLI's start-up never pays for it).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Flags that leave a CUDA name with no spelling on the target (the port cannot use it).
NO_SPELLING = ("unsupported", "removed")


@dataclass(frozen=True)
class Entry:
    cuda: str
    hip: str  # the target's spelling ("" none; for a header: drop the include)
    kind: str  # <api>-function|type|enum|macro|namespace, or header-<api>
    flags: str  # comma-separated, "-" none
    since: str  # the target version that introduced the spelling, "-" unknown
    # checked with the installed compiler: ok | absent | unchecked | - (nothing to check: HIPIFY has
    # no HIP spelling and the installed ROCm lacks it) | present (HIPIFY marks it unsupported, the
    # installed ROCm declares it)
    hipcc: str

    @property
    def flag_set(self) -> frozenset[str]:
        return frozenset() if self.flags == "-" else frozenset(self.flags.split(","))

    @property
    def supported(self) -> bool:
        # HIPIFY says unsupported, the checked ROCm has `target`: measured wins
        return self.hipcc == "present" or self.hipify_supported

    @property
    def hipify_supported(self) -> bool:
        return not (self.flag_set & set(NO_SPELLING)) and (bool(self.hip) or self.is_header)

    @property
    def target(self) -> str:
        """The spelling a port uses (for a `present` device function HIPIFY gives no HIP name: its CUDA name)."""
        return self.hip or (self.cuda if self.hipcc == "present" else "")

    @property
    def call_template(self) -> str | None:
        """A spelling over the call's arguments (`(*({0}))` for `__ldcg(p)`): the target has no
        such function but an expression that means the same (kernelport's rows, flag `kernelport`);
        `__builtin_trap()` for `__trap()` is one over no arguments."""
        return self.hip if "{0}" in self.hip or self.hip.endswith("()") else None

    @property
    def is_header(self) -> bool:
        return self.kind.startswith("header-")

    @property
    def api(self) -> str:
        return self.kind.split("-", 1)[1] if self.is_header else self.kind.split("-", 1)[0]

    @property
    def role(self) -> str:
        return "header" if self.is_header else self.kind.split("-", 1)[1]

    @property
    def why_unsupported(self) -> str:
        """HIPIFY's reason in its own words, for KP210."""
        flags = self.flag_set & set(NO_SPELLING)
        return ", ".join(sorted(flags)) or "no HIP name"


class Table:
    """The rows of a table file, each read into an `Entry` the first time it is asked for: a lint
    asks about the few names its files use, and making all ~9,000 entries up front cost a one-file
    lint about a sixth of its time.  `entries` gives them all (in the file's order).

    The first SCANS names asked for are found by a search of the text (a one-file lint asks ~15:
    indexing the ~9,000 lines took ~10 ms of its start-up); past that, or for a text whose lines a
    search could misread, every row is indexed once.  Either way a name's row is its last line in
    the file with six columns (a comment line, the column line and a malformed line are no row)."""

    SCANS = 64

    def __init__(self, text: str, source: str):
        self._text = "\n" + text  # (every row's line starts after a newline)
        self._index: dict[str, str] | None = None
        self._scanned = 0
        self._made: dict[str, Entry] = {}
        self.source = source  # the header's provenance line
        if odd_breaks(text):
            self._scanned = self.SCANS  # a search could misread its lines: the index from the start

    @property
    def _rows(self) -> dict[str, str]:
        """CUDA name -> its line (six tab-separated columns)."""
        if self._index is None:
            rows: dict[str, str] = {}
            for line in self._text[1:].splitlines():
                if line.startswith("#"):
                    continue
                name, _, rest = line.partition("\t")
                if rest.count("\t") != 4 or name == "cuda":  # six columns; the column line is no row
                    continue
                rows[name] = line
            self._index = rows
        return self._index

    def _line(self, name: str) -> str | None:
        if self._index is None and self._scanned < self.SCANS:
            self._scanned += 1
            if name.startswith("#") or name == "cuda" or any(c in name for c in "\t\n"):
                return None
            text, key, end = self._text, f"\n{name}\t", len(self._text)
            while (at := text.rfind(key, 0, end)) >= 0:
                stop = text.find("\n", at + 1)
                line = text[at + 1:stop if stop >= 0 else len(text)]
                if line.count("\t") == 5:
                    return line
                end = at
            return None
        return self._rows.get(name)

    @property
    def entries(self) -> dict[str, Entry]:
        return {n: self.get(n) for n in self._rows}  # type: ignore[misc]

    def get(self, cuda_name: str) -> Entry | None:
        e = self._made.get(cuda_name)
        if e is None:
            line = self._line(cuda_name)
            if line is None:
                return None
            e = self._made[cuda_name] = Entry(*line.split("\t"))
        return e

    def overload(self, cuda_name: str, arity: int) -> Entry | None:
        """The row for a call of `cuda_name` with `arity` arguments where CUDA's C++ API has an
        overload or a default argument the target lacks (`cudaStreamWaitEvent(s, e)`: HIP needs the
        flags); its spelling is a call template.  None: the name's own row applies."""
        return self.get(f"{cuda_name}/{arity}")

    def spelling(self, cuda_name: str) -> str | None:
        """The target's name for `cuda_name`, None where there is none."""
        e = self.get(cuda_name)
        return e.target if e is not None and e.supported and e.call_template is None else None


def odd_breaks(text: str) -> bool:
    """Whether `text` breaks lines with anything but \\n (str.splitlines() reads more breaks than \\n)."""
    return any(c in text for c in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _provenance(text: str) -> str:
    """The first comment line that names HIPIFY's commit, without its `#`."""
    if odd_breaks(text):
        lines = (ln for ln in text.splitlines() if ln.startswith("#"))
    else:  # only the comment lines, found by search: splitting ~9,000 lines costs a one-file lint ~1 ms
        t = "\n" + text
        lines = (t[at + 1:(t.find("\n", at + 1) + 1 or len(t) + 1) - 1] for at in _starts(t, "\n#"))
    return next((ln[1:].strip() for ln in lines if "HIPIFY" in ln and "commit" in ln), "")


def _starts(text: str, key: str):
    at = text.find(key)
    while at >= 0:
        yield at
        at = text.find(key, at + 1)


def read(path: Path) -> Table:
    text = path.read_text(encoding="utf-8")
    return Table(text, _provenance(text))
