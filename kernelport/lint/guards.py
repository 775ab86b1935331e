"""Preprocessor platform guards: which branch of `#if`/`#ifdef` a node sits in.

A branch is `nvidia` (`#ifdef __CUDA_ARCH__`, `#ifndef __HIP_PLATFORM_AMD__`, the `#else` of an AMD
test), `amd` (`#ifdef __HIP_PLATFORM_AMD__`, `#if defined(USE_ROCM)`), or `arch` when its test names
the architecture itself (`__GFX9__`, `__AMDGCN_WAVEFRONT_SIZE`): the one honest way to derive a
compile-time wave width on AMD.
"""
from __future__ import annotations

import re

from tree_sitter import Node

NVIDIA = re.compile(r"\b(__CUDA_ARCH__|__CUDA_ARCH_LIST__|__NVCC__|__CUDACC__|__CUDACC_VER_MAJOR__|CUDA_VERSION|"
                    r"__HIP_PLATFORM_NVIDIA__|__HIP_PLATFORM_NVCC__|__NVCOMPILER)\b")
AMD = re.compile(r"\b(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HIP_DEVICE_COMPILE__|__AMDGCN__|"
                 r"__HCC__|USE_ROCM|\w*_USE_HIP\w*|\w*_USE_ROCM\w*|\w*HIP_PLATFORM\w*|__HIP_ARCH\w*)\b")
ARCH = re.compile(r"\b(__GFX\d+\w*__|__gfx\d+\w*__|__AMDGCN_WAVEFRONT_SIZE\w*|__AMDGCN_WAVEFRONT_SIZE)\b")

_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef")


def _condition(node: Node, src) -> tuple[str, bool]:
    """(condition text, negated) of an #if / #ifdef / #ifndef / #elif node."""
    if node.type in ("preproc_ifdef", "preproc_elifdef"):
        name = node.child_by_field_name("name")
        neg = bool(node.children) and src.text_of(node.children[0]).endswith("ndef")
        return (src.text_of(name) if name is not None else ""), neg
    cond = node.child_by_field_name("condition")
    text = src.text_of(cond) if cond is not None else ""
    t = text.strip()
    m = re.fullmatch(r"!\s*(\(?\s*defined\s*\(?\s*\w+\s*\)?\s*\)?|\w+)", t)
    if m:
        return t[1:], True
    return text, False


def _side(text: str, negated: bool) -> str | None:
    if ARCH.search(text):
        return "arch"
    if NVIDIA.search(text):
        return "amd" if negated else "nvidia"
    if AMD.search(text):
        return "nvidia" if negated else "amd"
    return None


def branches(node: Node, src) -> list[tuple[str, Node]]:
    """Platform sides of the enclosing preprocessor branches, innermost first: [(side, test node)]."""
    out: list[tuple[str, Node]] = []
    child, n = node, node.parent
    while n is not None:
        if n.type in _CONDITIONALS:
            alt = n.child_by_field_name("alternative")
            in_alt = alt is not None and (alt.start_byte, alt.end_byte) == (child.start_byte, child.end_byte)
            if not in_alt:
                text, neg = _condition(n, src)
                side = _side(text, neg)
                if side:
                    out.append((side, n))
        elif n.type == "preproc_else":
            cond_owner = n.parent
            if cond_owner is not None and cond_owner.type in _CONDITIONALS:
                text, neg = _condition(cond_owner, src)
                side = _side(text, not neg)
                if side:
                    out.append((side, cond_owner))
        child, n = n, n.parent
    return out


def platform_guarded(node: Node, src) -> bool:
    """Inside any platform- or architecture-specific preprocessor branch."""
    return bool(branches(node, src))


def side_of(node: Node, src) -> str | None:
    b = branches(node, src)
    return b[0][0] if b else None
