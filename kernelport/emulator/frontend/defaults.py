"""C++ default arguments of device functions (`int width = warpSize`, PyTorch's WARP_SHFL):
C has none, so each `= value` leaves the parameter list (blanked: lines and columns stay) and
is kept as text; a call that omits trailing arguments gets them from that text, evaluated in the
caller as C++ does."""
from __future__ import annotations

from .items import balanced


def strip_defaults(text: str, params_at: int) -> tuple[str, dict[int, str]]:
    """(text without the default values of the parameter list that opens at text[params_at],
    {parameter index: default value text})."""
    end = balanced(text, params_at) - 1
    inner = text[params_at + 1:end]
    defaults: dict[int, str] = {}
    out, depth, index, i = [], 0, 0, 0
    while i < len(inner):
        c = inner[i]
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            index += 1
        elif c == "=" and depth == 0 and inner[i + 1:i + 2] != "=" and inner[i - 1:i] not in ("=", "!", "<", ">"):
            j, d = i + 1, 0
            while j < len(inner) and not (d == 0 and inner[j] == ","):
                d += inner[j] in "([{"
                d -= inner[j] in ")]}"
                j += 1
            defaults[index] = inner[i + 1:j].strip()
            out.append("".join(ch if ch == "\n" else " " for ch in inner[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    if not defaults:
        return text, {}
    return text[:params_at + 1] + "".join(out) + text[end:], defaults
