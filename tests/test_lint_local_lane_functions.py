"""The file's own function-like lane or warp macro (kernelport/header_lane_macros.py function_macro): `#define
LANE_OF(t) ((t) & 31)` written in the .cu itself and used in its kernel was silent (stop 65 read only a header's);
now it is read as the header's is (WS002 / WS003 at the use, naming the definition in the file).  The look-alikes
are the header test's (rows of 32 elements, a macro modulo the wave, one chosen per platform, a block index), all
with the definitions moved into the .cu."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_paths
from test_lint_header_lane_functions import HEADER, LEADER, ROWS, SLOTS

OWN = HEADER.replace("#pragma once\n", "")


def _lint(tmp_path, user: str) -> list[tuple[str, int]]:
    """The findings of k.cu with the header's definitions written in it (their lines come first: offset back)."""
    (tmp_path / "k.cu").write_text(user.replace('#include "lanes.cuh"\n', OWN))
    shift = OWN.count("\n") - 1
    return sorted((f.code, f.line - shift) for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
                  if f.code not in ("WS007", "WS016"))


def test_own_function_like_lane_reaching_a_leader_test(tmp_path):
    assert _lint(tmp_path, LEADER.replace("LANE", "LANE_OF(threadIdx.x)", 1)) == [("WS002", 3)]


def test_own_function_like_warp_index_indexing_per_warp_slots(tmp_path):
    assert ("WS003", 6) in _lint(tmp_path, SLOTS)


@pytest.mark.parametrize("lane", ["WAVE_LANE_OF(threadIdx.x)", "PLAT_LANE_OF(threadIdx.x)", "LANE_OF(blockIdx.x)"])
def test_wave_or_per_platform_or_non_thread_lane_is_quiet(tmp_path, lane):
    assert _lint(tmp_path, LEADER.replace("LANE", lane, 1)) == []


def test_rows_of_32_elements_are_quiet(tmp_path):
    assert _lint(tmp_path, ROWS) == []


def test_the_message_names_the_definition_in_the_file(tmp_path):
    (tmp_path / "k.cu").write_text(LEADER.replace("LANE", "LANE_OF(threadIdx.x)", 1).replace('#include "lanes.cuh"\n', OWN))
    msgs = [f.message for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings if f.code == "WS002"]
    assert len(msgs) == 1 and "`LANE_OF(t)` is `((t) & 31)`" in msgs[0] and "k.cu:1" in msgs[0]
