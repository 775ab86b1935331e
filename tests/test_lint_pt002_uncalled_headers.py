"""PT002 in a walked header's functions that no file of the run calls: one finding per header
(kernelport/lint/uncalledptx.py; heldout77's vendored OptiX headers gave 266 of 272 findings).

The case: `kernelport lint DIR` over a project whose header holds inline-PTX wrappers, one called by the project's
kernel, two not (one only through a wrapper of the header that nothing calls).  Look-alikes that keep a finding per
statement: the header named on the command line, a wrapper called from the project's kernel, a statement whose line
suppresses PT002, a single uncalled statement (nothing to summarise), and a header no walked path holds (not linted).
"""
from __future__ import annotations

import json

import pytest
from trust_support import kp_inproc

SDK = """\
#pragma once
static __forceinline__ __device__ unsigned sdk_lane() {
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
static __forceinline__ __device__ unsigned sdk_smid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));SUPPRESS
    return r;
}
static __forceinline__ __device__ unsigned sdk_nsmid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r));
    return r;
}
static __forceinline__ __device__ unsigned sdk_ids() { return sdk_smid() + sdk_nsmid(); }
"""
KERNEL = """\
#include "../inc/sdk.h"
__global__ void k(unsigned* out) { out[threadIdx.x] = CALL; }
"""


def _tree(tmp_path, call="threadIdx.x", suppress="", ext=".h"):
    (tmp_path / "inc").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "inc" / f"sdk{ext}").write_text(SDK.replace("SUPPRESS", suppress))
    (tmp_path / "src" / "k.cu").write_text(KERNEL.replace("CALL", call).replace("sdk.h", f"sdk{ext}"))
    return tmp_path


def _lint(*paths):
    rc, out, err = kp_inproc("lint", "--format", "json", *map(str, paths))
    return rc, [f for f in json.loads(out) if f["code"] == "PT002"], json.loads(out)


@pytest.mark.parametrize("ext", [".h", ".cuh"])
def test_walked_header_reports_uncalled_ptx_once(tmp_path, ext):
    root = _tree(tmp_path, call="sdk_lane()", ext=ext)
    rc, pt, _ = _lint(root)
    assert rc == 1
    assert sorted((f["path"].split("/")[-1], f["line"]) for f in pt) == [(f"sdk{ext}", 4), (f"sdk{ext}", 9)]
    summary = next(f for f in pt if f["line"] == 9)
    assert "2 statements in 2 device functions" in summary["message"] and "`sdk_smid`" in summary["message"]
    assert [(r["line"], r["role"]) for r in summary["related"]] == [(14, "site")]


def test_no_call_at_all_is_one_finding(tmp_path):
    rc, pt, _ = _lint(_tree(tmp_path))
    assert rc == 1 and [f["line"] for f in pt] == [4]
    assert "3 statements in 3 device functions" in pt[0]["message"]


def test_named_header_keeps_every_statement(tmp_path):
    root = _tree(tmp_path, call="sdk_lane()")
    rc, pt, _ = _lint(root / "inc" / "sdk.h", root / "src")
    assert rc == 1 and sorted(f["line"] for f in pt) == [4, 9, 14]


def test_called_wrapper_keeps_its_statements(tmp_path):
    rc, pt, _ = _lint(_tree(tmp_path, call="sdk_ids()"))
    assert sorted(f["line"] for f in pt) == [4, 9, 14]  # sdk_lane alone is uncalled: nothing to summarise


def test_suppressed_line_stays_its_own(tmp_path):
    rc, pt, every = _lint(_tree(tmp_path, call="sdk_lane()", suppress="  // NOLINT(PT002)"))
    assert [f["line"] for f in pt] == [4, 14]  # sdk_smid's suppressed; sdk_nsmid alone: no summary
    assert not [f for f in every if f["code"] == "KP003"]  # the suppression is used


def test_a_walked_source_keeps_every_statement(tmp_path):
    root = _tree(tmp_path, call="sdk_lane()")
    (root / "inc" / "sdk.h").rename(root / "inc" / "sdk.cu")  # a translation unit, not a header
    rc, pt, _ = _lint(root / "inc")
    assert rc == 1 and sorted(f["line"] for f in pt) == [4, 9, 14]


def test_header_outside_the_linted_paths_is_not_reported(tmp_path):
    root = _tree(tmp_path, call="sdk_lane()")
    rc, pt, _ = _lint(root / "src")
    assert rc == 0 and pt == []
