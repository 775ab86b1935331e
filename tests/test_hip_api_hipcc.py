"""Every HIP spelling of the API table, checked with hipcc (HIP_PLATFORM=amd, gfx90a and gfx1030).

The table's `hipcc` column says what the installed ROCm has: `ok` names (and `present` device
functions HIPIFY marks unsupported) must all compile, in one generated file; `absent` names (newer than the installed ROCm) must each fail; `unchecked` names
belong to libraries whose headers are not installed (the README's apt line is what CI installs).
"""
from __future__ import annotations

from conftest import require_tool

from kernelport import backends, toolchains
from kernelport.backends import api_table, hip_probe

TABLE = backends.get("hip").api()
ENTRIES = list(TABLE.entries.values())


def _names(status: str):
    return [e for e in ENTRIES if e.hipcc == status and not e.is_header]


def _headers(status: str):
    return [e.hip for e in ENTRIES if e.hipcc == status and e.is_header]


def test_every_ok_spelling_compiles_in_one_file(tmp_path):
    require_tool("hipcc")
    ok = list({e.hip: e for e in _names("ok")}.values())
    assert len(ok) > 2000 and {"hipMalloc", "hipDeviceProp_t", "hipMemcpyHostToDevice", "hiprandState",
                               "hipsparseHandle_t", "__hadd", "hipDeviceptr_t"} <= {e.hip for e in ok}
    # device functions HIPIFY marks unsupported that ROCm has (`make_half2`): used in device code
    present = [api_table.Entry(e.cuda, e.target, e.kind, e.flags, e.since, "candidate") for e in _names("present")]
    assert "make_half2" in {e.hip for e in present}
    src, _ = hip_probe.render(ok + present, [*hip_probe.BASE_HEADERS, *_headers("ok")])
    path = tmp_path / "hip_api_ok.hip"
    path.write_text(src)
    result = toolchains.compile_hip(path, ["gfx90a", "gfx1030"])
    assert result.ok, result.output[-3000:]


def test_every_absent_spelling_is_missing_from_the_installed_headers(tmp_path):
    tool = require_tool("hipcc")
    absent = list({e.hip: e for e in _names("absent")}.values())
    assert "hipGraphNodeParams" in {e.hip for e in absent}
    src, at = hip_probe.render(absent, [*hip_probe.BASE_HEADERS, *_headers("ok")])
    errors = hip_probe.errors_by_line(hip_probe._compile(src, tool.path, ("gfx90a",)))
    assert -1 not in errors, errors.get(-1)
    missed = [e.hip for line, e in at.items() if line not in errors]
    assert missed == [], f"marked absent but declared by the installed ROCm: {missed[:20]}"
    assert not hip_probe.installed(_headers("absent"), tool.path)


def test_the_hipcc_column_is_what_the_installed_rocm_says():
    """A fresh probe agrees with the committed column (regenerate: scripts/gen_hip_api.py --probe):
    an installed library is never left unchecked, a name is never marked absent that exists."""
    tool = require_tool("hipcc")
    fresh = hip_probe.probe(ENTRIES, tool.path)
    differ = [(e.cuda, e.hipcc, fresh[e.cuda]) for e in ENTRIES if fresh[e.cuda] != e.hipcc]
    assert differ == [], differ[:20]
