"""docs/rules.md is generated from the rules; it must not drift."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint.docs import markdown
from kernelport.lint.rule import all_rules

ROOT = Path(__file__).resolve().parent.parent


def test_rules_md_is_up_to_date():
    assert (ROOT / "docs" / "rules.md").read_text() == markdown(), \
        "regenerate: python -m kernelport.lint.docs > docs/rules.md"


def test_every_rule_is_in_the_docs():
    text = markdown()
    for r in all_rules():
        assert f"## {r.code} {r.name}" in text
