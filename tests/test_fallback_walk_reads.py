"""The walk that finds toolkit headers with a fallback behind a file's local includes
(kernelport/api_fallbacks.reached) reads each local header once per file, however many of the file's
includes reach it, and tries the include path once per include spelling and directory: on main each
include walked its headers again (OpenHurricane's chemistry unit, 77 -I directories: 1,383 header
walks, 106k paths built and 44k stats for 62 ports).  The definitions carried stay where they were:
after the first include that reaches the header, in a file that uses them."""
from __future__ import annotations

from pathlib import Path

from kernelport import backends, includes
from kernelport.api_fallbacks import reached
from kernelport.source import SourceFile

COMMON = """\
#pragma once
#include <math_constants.h>
#include "leaf.h"
"""

UNIT = """\
#include "a.h"
#include "b.h"
#include "c.h"
__global__ void k(float *o) { o[threadIdx.x] = CUDART_PI_F; }
"""


def _project(tmp_path: Path, dirs: int = 0) -> Path:
    (tmp_path / "inc").mkdir()
    for name in ("a.h", "b.h", "c.h"):
        (tmp_path / "inc" / name).write_text('#pragma once\n#include "common.h"\n')
    (tmp_path / "inc" / "common.h").write_text(COMMON)
    (tmp_path / "inc" / "leaf.h").write_text("#pragma once\n#define LEAF 1\n")
    unit = tmp_path / "src" / "k.cu"
    unit.parent.mkdir()
    unit.write_text(UNIT)
    return unit


def _dirs(tmp_path: Path, n: int) -> tuple[str, ...]:
    """n empty -I directories before the one that holds the headers (a project's long include path)."""
    out = []
    for i in range(n):
        (tmp_path / f"empty{i}").mkdir()
        out.append(str(tmp_path / f"empty{i}"))
    return (*out, str(tmp_path / "inc"))


def test_each_header_is_read_once_and_the_definitions_follow_the_first_include(tmp_path, monkeypatch):
    unit = _project(tmp_path)
    dirs = _dirs(tmp_path, 20)
    reads: list[str] = []
    real_read = Path.read_text

    def counted(self, *a, **k):
        reads.append(self.name)
        return real_read(self, *a, **k)
    monkeypatch.setattr(Path, "read_text", counted)
    stats: list[str] = []
    real_regular = includes.is_regular
    monkeypatch.setattr(includes, "is_regular", lambda p: stats.append(str(p)) or real_regular(p))
    src = SourceFile.from_text(UNIT, str(unit))
    backends.get("hip").api(), backends.get("hip").fallback_definitions("hip/hip_math_constants.h")  # (its tables)
    reads.clear()
    got = reached(src, backends.get("hip"), dirs)
    assert [(h, list(names)) for found in got.values() for h, names in found] == [("hip/hip_math_constants.h", ["HIP_PI_F"])]
    first = src.index.of_type("preproc_include")[0].start_byte
    assert list(got) == [first]  # after `#include "a.h"`, the first that reaches it
    assert sorted(reads) == ["a.h", "b.h", "c.h", "common.h", "leaf.h"], reads  # main: common.h and leaf.h 3 times each
    assert len(stats) <= 6 * 21  # each of 6 spellings-and-places tried once along the path (main: 3x for 2 of them)


def test_a_header_changed_between_two_files_is_read_as_it_is_now(tmp_path):
    """The reads are kept for one file's walk only: a header edited before the next file is read again."""
    unit = _project(tmp_path)
    dirs = (str(tmp_path / "inc"),)
    src = SourceFile.from_text(UNIT, str(unit))
    assert reached(src, backends.get("hip"), dirs)
    (tmp_path / "inc" / "common.h").write_text('#pragma once\n#include "leaf.h"\n')  # no toolkit header now
    other = SourceFile.from_text(UNIT + "// another file\n", str(unit))
    assert reached(other, backends.get("hip"), dirs) == {}
