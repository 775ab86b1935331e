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
    """One row of a backend's API table: a CUDA spelling and the target's."""
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
    lint about a sixth of its time.  `entries` gives them all (in the file's order)."""

    def __init__(self, rows: dict[str, str], source: str):
        self._rows = rows  # CUDA name -> its line (six tab-separated columns)
        self._made: dict[str, Entry] = {}
        self.source = source  # the header's provenance line

    @property
    def entries(self) -> dict[str, Entry]:
        return {n: self.get(n) for n in self._rows}  # type: ignore[misc]

    def get(self, cuda_name: str) -> Entry | None:
        e = self._made.get(cuda_name)
        if e is None:
            line = self._rows.get(cuda_name)
            if line is None:
                return None
            e = self._made[cuda_name] = Entry(*line.split("\t"))
        return e

    def overload(self, cuda_name: str, arity: int) -> Entry | None:
        """The row for a call of `cuda_name` with `arity` arguments where CUDA's C++ API has an
        overload or a default argument the target lacks (`cudaStreamWaitEvent(s, e)`: HIP needs the
        flags); its spelling is a call template.  None: the name's own row applies."""
        return self.get(f"{cuda_name}/{arity}")

    def conditional(self, cuda_name: str, arity: int) -> list[tuple[str, Entry]]:
        """[(condition, row)] of the rows `name/N:cond` for a call of `cuda_name` with `arity` arguments: an
        overload the arity alone does not tell apart (kernelport/cub_overloads.py reads the condition)."""
        index = self.__dict__.get("_conditional")
        if index is None:
            index = self.__dict__["_conditional"] = {}
            for n in self._rows:
                head, _, tail = n.rpartition("/")
                count, _, cond = tail.partition(":")
                if head and cond and count.isdigit():
                    index.setdefault((head, int(count)), []).append((cond, n))
        return [(cond, e) for cond, n in index.get((cuda_name, arity), ()) if (e := self.get(n)) is not None]

    def spelling(self, cuda_name: str) -> str | None:
        """The target's name for `cuda_name`, None where there is none."""
        e = self.get(cuda_name)
        return e.target if e is not None and e.supported and e.call_template is None else None


def read(path: Path) -> Table:
    rows: dict[str, str] = {}
    source = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            if "HIPIFY" in line and "commit" in line and not source:
                source = line[1:].strip()
            continue
        name, _, rest = line.partition("\t")
        if rest.count("\t") != 4 or name == "cuda":  # six columns; the column line is no row
            continue
        rows[name] = line
    return Table(rows, source)
