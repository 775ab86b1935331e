"""The reviewed mutation survivors (scripts/mutation_known.toml) stay true to the code: each entry
names a line its module still has, a kind, and a reason; the script matches them as documented."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("mutation_test", ROOT / "scripts" / "mutation_test.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_reviewed_survivor_names_a_line_its_module_has():
    mt = _script()
    known = mt.load_known()
    assert known
    for (module, line), entries in known.items():
        lines = {ln.strip() for ln in (ROOT / module).read_text(encoding="utf-8").splitlines()}
        assert line in lines, f"{module}: stale entry, no line {line!r} (the code changed: review it again)"
        for e in entries:
            assert e["operator"] == "*" or e["operator"].startswith("core/"), e


def test_entries_match_by_operator_family_and_index_on_the_line(tmp_path):
    mt = _script()
    path = tmp_path / "known.toml"
    path.write_text('[[mutant]]\nmodule = "m.py"\noperator = "core/ReplaceComparisonOperator_Gt_*"\n'
                    'line = "if a > b:"\nkind = "equivalent"\nwhy = "w"\n\n'
                    '[[mutant]]\nmodule = "m.py"\noperator = "core/NumberReplacer"\nline = "x = 1 + 2"\nnth = 1\n'
                    'kind = "accepted"\nwhy = "v"\n')
    known = mt.load_known(path)
    assert mt.known_entry(known, ("m.py", "core/ReplaceComparisonOperator_Gt_Lt", "if a > b:", 3))["why"] == "w"
    assert mt.known_entry(known, ("m.py", "core/ReplaceComparisonOperator_GtE_Lt", "if a > b:", 0)) is None
    assert mt.known_entry(known, ("m.py", "core/NumberReplacer", "x = 1 + 2", 1))["kind"] == "accepted"
    assert mt.known_entry(known, ("m.py", "core/NumberReplacer", "x = 1 + 2", 0)) is None
    assert mt.known_entry(known, ("n.py", "core/NumberReplacer", "x = 1 + 2", 1)) is None
    path.write_text('[[mutant]]\nmodule = "m.py"\noperator = "*"\nline = "y"\nkind = "maybe"\nwhy = "w"\n')
    with pytest.raises(SystemExit, match="kind must be equivalent or accepted"):
        mt.load_known(path)


def test_the_runtime_names_the_table_entries_rely_on_are_runtime_concepts():
    """mutation_known.toml counts `kind <= 'runtime'` beside `key.startswith('rt_')` as equivalent:
    true while every rt_ concept is a runtime one."""
    from kernelport import dialect

    assert {c.kind for c in dialect.CONCEPTS if c.key.startswith("rt_")} == {"runtime"}


def test_shards_are_parsed_and_their_results_combine_as_one_run(tmp_path):
    import argparse
    import json

    mt = _script()
    assert mt._shard("3/16") == (2, 16)
    for bad in ("0/4", "5/4", "x/4", "4"):
        with pytest.raises(argparse.ArgumentTypeError):
            mt._shard(bad)
    counts = {"total": 100, "killed": 2, "survived": 1, "timeout": 0, "incompetent": 0, "equivalent": 7, "not_run": 0}
    survivor = {"where": "m.py:3 core/NumberReplacer", "id": ["m.py", "core/NumberReplacer", "x = 1", 0],
                "why": None, "diff": "-x = 1\n+x = 2"}
    parts = []
    for i, ran in enumerate((["a"], ["b"])):
        path = tmp_path / f"part{i}.json"
        path.write_text(json.dumps({"seed": 5, "sample": 3, "modules": {"m": counts},
                                    "survivors": [survivor] if i else [], "ran": [ran]}))
        parts.append(path)
    r = mt._combine(parts, {})
    # killed and survived add up; the module's mutant and equivalent counts are each part's, not a sum
    assert r["modules"]["m"] == {**counts, "killed": 4, "survived": 2}
    assert [s["where"] for s in r["survivors"]] == ["m.py:3 core/NumberReplacer"]
    reviewed = {("m.py", "x = 1"): [{"operator": "core/NumberReplacer", "kind": "equivalent", "why": "w"}]}
    assert mt._combine(parts, reviewed)["survivors"][0]["why"] == "equivalent: w"  # reviewed since the run
    parts[1].write_text(parts[1].read_text().replace('"b"', '"a"'))
    with pytest.raises(SystemExit, match="ran in more than one part"):
        mt._combine(parts, {})
    parts[1].write_text(parts[1].read_text().replace('"seed": 5', '"seed": 6'))
    with pytest.raises(SystemExit, match="differ from the other parts"):
        mt._combine(parts, {})
