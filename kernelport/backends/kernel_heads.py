"""How a backend writes a kernel's head: the settings `Backend` takes from here (base.py is at the module cap).

Each is a class attribute a backend overrides as data; consumers read it from the backend
(`backends.get(name).kernel_block_written`), never by comparing names.
"""
from __future__ import annotations

from typing import ClassVar


class KernelHeads:
    """A kernel head's spellings and what the port writes at a kernel's block."""

    # A kernel's head must also match this (MSL's qualifier `kernel` is an ordinary word too).
    kernel_head_pattern: ClassVar[str | None] = None
    # Parameter attributes that bind no built-in: a kernel argument (`[[buffer(i)]]`) and the
    # dynamic shared buffer (`[[threadgroup(i)]]`, CUDA's `extern __shared__`).
    argument_attribute: ClassVar[str | None] = None
    dynamic_shared_attribute: ClassVar[str | None] = None
    # Parameter attributes of built-ins that are no concept: attribute -> the emulator's built-in
    # (`global_idx`: the thread's index in the grid, `linear_tid`: its index in the block).
    derived_builtin_attributes: ClassVar[dict[str, str]] = {}
    # Whether the port writes a kernel's signature and coordinates at its block's `{` (Metal: the
    # built-in parameters, then `int threadIdx_x = ...` lines), so a kernel whose whole block is an
    # object-like macro cannot be ported without overwriting the macro (body_macros.py: KP250).
    kernel_block_written: ClassVar[bool] = False
