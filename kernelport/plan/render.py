"""The plan as Markdown (for a review) or JSON (plan.schema.json beside this module)."""
from __future__ import annotations

import json

from . import PARTS, analysis, blocks, ci, header, matrix, performance, review, risks, strategy

_MD = {"backend_matrix": matrix.markdown, "operation": analysis.markdown, "strategy": strategy.markdown,
       "risks": risks.markdown, "header": header.markdown, "blocks": blocks.markdown, "ci": ci.markdown,
       "performance": performance.markdown}


def as_json(plan: dict) -> str:
    return json.dumps(plan, indent=2, default=_default) + "\n"


def _default(o):
    import numpy as np
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    raise TypeError(f"not JSON: {type(o).__name__}")


def as_markdown(plan: dict) -> str:
    out = [f"# Plan: `{plan['kernel']}` ({plan['source']})", "",
           f"Written by kernelport {plan['kernelport']} from the kernel, its annotations, lint, translate and a "
           "counted emulator run. Figures marked estimate are roofline bounds; measured ones say how.", ""]
    for i, (key, title) in enumerate(PARTS, 1):
        out += [f"## {i}. {title}", ""] + _MD[key](plan["parts"][key]) + [""]
    out += ["## Review checklist", ""] + review.markdown_checklist(plan["review"]) + [""]
    out += ["## CPU fallback", ""] + review.markdown_fallback(plan["cpu_fallback"]) + [""]
    return "\n".join(out)
