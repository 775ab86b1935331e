"""`rule.selected` (--select / --ignore as rule codes) is kept per selection for the process: translate's
self-check lints every original and port with the same selection, and stop 61's profile found the selection
computed again for each (48 rules x 30 selectors per lint, ~2% of a tree translate)."""
from __future__ import annotations

from kernelport.lint import rule
from kernelport.lint.rule import all_rules, selected


def _computed(select, ignore=()) -> frozenset[str]:
    sel = list(select) if select else ["ALL"]
    return rule._selected(sel, list(ignore), all_rules())


def test_the_kept_selection_is_the_computed_one_for_each_selector_shape():
    codes = [r.code for r in all_rules()]
    for select, ignore in ((None, ()), (["WS"], ()), (["WS"], ["WS0"]), (["ALL"], ["SY"]), (codes[:5], codes[2:3]),
                           (["WS00"], ["WS002"]), (["WS002"], ["WS"])):
        assert selected(select, ignore) == selected(iter(select) if select else None, iter(ignore)) == _computed(select, ignore)
    assert selected(["WS002"], ["WS"]) == {"WS002"} and selected(["WS"], ["WS002"]) != selected(["WS"])


def test_a_rule_registered_later_is_selected_by_a_selection_asked_before(monkeypatch):
    before = selected(["WS"])
    fake = type("Fake", (rule.Rule,), {"code": "WS999"})
    monkeypatch.setitem(rule.REGISTRY, "WS999", object.__new__(fake))
    assert selected(["WS"]) == before | {"WS999"} and "WS999" not in selected(["SY"])
