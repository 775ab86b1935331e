"""Errors and findings of an emulated run, each pointing at a line of the original file."""
from __future__ import annotations

from dataclasses import dataclass, field


class EmulatorError(Exception):
    """Something a GPU would not report but a user needs: barrier divergence, a bad lane mask,
    an out-of-bounds access, an exhausted step budget, or an unsupported construct."""

    def __init__(self, message: str, path: str = "<kernel>", line: int = 0, column: int = 0):
        super().__init__(f"{path}:{line}:{column}: {message}")
        self.message = message
        self.path = path
        self.line = line
        self.column = column


class KernelFault(EmulatorError):
    """A fault the kernel itself commits (an out-of-bounds access): a defect of the code, not a
    construct the emulator lacks."""

    # An out-of-bounds access of a global buffer: which, at what element, its size (else None).
    buffer: str | None = None
    index: int | None = None
    size: int | None = None
    space: str | None = None  # the memory an out-of-bounds access was of ("shared": a size the kernel fixes)


class BudgetExceeded(EmulatorError):
    """The run's step budget or wall-clock budget ran out (at the loop where it did)."""


class TimedOut(BudgetExceeded):
    """The run's wall-clock budget (verify --timeout) ran out: at line:col of the loop (`site`) the
    emulator was in, after `elapsed` of its `seconds`; a check it cuts is a skip (check_budget)."""

    def __init__(self, message: str, path: str, line: int, column: int, *, seconds: float, elapsed: float,
                 site: str = "loop", steps: int = 0):
        super().__init__(message, path, line, column)
        self.seconds, self.elapsed, self.site = seconds, elapsed, site
        self.progress = f", after {steps} loop iterations" if steps else ""


class HeapExhausted(EmulatorError):
    """A device malloc (or `new`) whose call the heap holds for some threads only, NULL in the
    rest: a pointer NULL in some threads only, which the emulator does not model.  At sizes the
    run chose (verify's inferred inputs), smaller ones may fit (verify_oracle.run_oracle)."""


@dataclass
class Diagnostic:
    """A located message of the emulator."""
    path: str
    line: int
    column: int
    severity: str  # error | warning | info
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message}"


@dataclass
class Race:
    """Two accesses to one shared-memory location by different threads with no barrier (or,
    within a warp, no warp sync) between them.  `line` is the later access, `other_line` the
    earlier one."""
    path: str
    line: int
    other_line: int
    kind: str  # read-after-write | write-after-read | write-after-write | lane-choice (emulator.lane_writes)
    buffer: str
    index: int
    thread: int
    other_thread: int
    block: tuple[int, int, int] = field(default=(0, 0, 0))

    @property
    def message(self) -> str:
        from .lane_writes import LANE_CHOICE, WORDING
        if self.kind == LANE_CHOICE:
            return (f"shared-memory race ({WORDING[LANE_CHOICE]}) on {self.buffer}[{self.index}]: threads {self.thread} "
                    f"and {self.other_thread} at line {self.line} (block {self.block})")
        return (f"shared-memory race ({self.kind}) on {self.buffer}[{self.index}]: thread {self.thread} "
                f"at line {self.line} and thread {self.other_thread} at line {self.other_line} "
                f"(block {self.block}) with no barrier or warp sync between")

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: warning: {self.message}"


@dataclass
class UninitRead(Race):
    """A read of a shared-memory location no thread of the block wrote (`kind` "read-before-write"):
    the emulator's shared memory starts at zero, a GPU's holds whatever was there, so a kernel that
    reads it computes what no GPU guarantees (a port whose wider wave writes fewer of a block's
    per-warp slots, `part[lane]` for lane < 8 with 4 waves, sums stale values on the GPU and zeros here)."""

    @property
    def message(self) -> str:
        return (f"read of shared memory no thread wrote: {self.buffer}[{self.index}] by thread {self.thread} at "
                f"line {self.line} (block {self.block}): a GPU's shared memory starts undefined")
