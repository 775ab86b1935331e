"""A token prescan: units whose text and includes name nothing of a warp (issue 15).

Every rule of the warp-size family reports a wave-width assumption: a site warpflow confirms
from a seed (a shuffle, vote or mask operation, a name of the warp size, a warp-level helper, a
pointer into shared memory: kernelport/warpreach.py) or a lane-width literal it reads itself (32,
31, 16, 5, 64, a full mask).  A unit none of whose tokens can be one of those has no such site,
and warpflow's fixpoint and those rules would find nothing in it: they are not run (QUIET: the
families whose rules are skipped).  Conservative by construction, the test errs to "loud":
- an integer literal of LITERALS (the lane-width values warpflow gives a fact, and those the rules
  compare: 64, 63, a lane share of laneshares.py), any hex or octal literal (a full mask), `~0`;
- any word naming a warp, wave, lane, tile, shuffle, vote, mask bit operation, shared memory or
  inline assembly (WORDS, case-insensitive, as part of a word), or that any backend reads as a
  concept of those kinds, a warp-level one or a library's warp helper (kernelport.dialect);
- a `@kp` annotation (a warp width or block the analyses read);
- a word the unit's includes give it (kernelport.model.Visible) as a warp helper, mask helper,
  shuffle wrapper, wave constant or a decided macro, or a macro or constant whose value is loud.
The engine still runs every other rule (barriers, platform features, kernelport's own) on the
unit, with an empty warp analysis (they read only its shuffle masks, empty where no shuffle is
named)."""
from __future__ import annotations

from .. import backends, dialect, lazy_re, textwords

QUIET = ("WS",)  # the rule families a quiet unit skips (kernelport.lint.rule.FAMILIES)
_KINDS = ("shuffle", "vote", "mask", "bitop")
WORDS = ("warp", "wave", "lane", "tile", "shfl", "ballot", "vote", "popc", "ffs", "clz", "brev", "activemask",
         "simd", "quad", "cooperative", "coalesced", "cub", "match", "shared", "threadgroup", "subgroup", "asm",
         "mma", "kp_")
LITERALS = frozenset({5, 6, 15, 16, 31, 32, 48, 63, 64} | set(range(12, 32, 4)))
# one C-level search: a literal of LITERALS, a hex or octal literal (a full mask), `~0`
_NUMBER = lazy_re.compile(r"(?<![\w.])(?:0[0-7xX][0-9a-fA-FxX']*|" + "|".join(map(str, sorted(LITERALS, reverse=True)))
                          + r")[uUlL]*(?![\w.])|~\s*0")
_NAME = lazy_re.compile(r"[A-Za-z_]\w*")
_NAMED: dict[str, bool] = {}


def warp_name(word: str) -> bool:
    """Whether a backend reads `word` as a shuffle, vote, mask or bit operation, a warp-level
    concept, or a library's warp helper (kernelport.dialect), once per word and process."""
    got = _NAMED.get(word)
    if got is None:
        got = _NAMED[word] = any((c := dialect.lookup(b, word)) is not None and (c.kind in _KINDS or c.warp_level)
                                 or dialect.library_call(b, word) is not None for b in backends.names())
    return got


def loud_text(text: str, words=None) -> bool:
    """Whether a text holds a lane-width literal or a warp word (the test above, on text alone);
    `words`: its words where the caller has them (textwords)."""
    low = text.lower()  # (substring tests of the lowered text: a tenth of a case-blind pattern's time)
    if "@kp" in text or any(w in low for w in WORDS) or _NUMBER.search(text) is not None:
        return True
    return any(map(warp_name, _NAME.findall(text) if words is None else words))


def quiet(src, visible, header_macros, macros) -> bool:
    """Whether a unit (its SourceFile, what its includes give it, its header warp-size macros, the
    macro definitions its includes and -D give its parse) names nothing a warp-size rule or warpflow
    could report on."""
    words = textwords.of(src)
    if loud_text(src.text, words):
        return False
    if header_macros and not words.isdisjoint(header_macros):
        return False
    if any(loud_text(macros[name].body) for name in words & macros.keys()):
        return False  # a macro of its includes (function-like ones too) that expands to a warp word
    if visible is None:
        return True
    given = (visible.warp_functions, {q.split("::")[-1] for q in visible.warp_qualified}, visible.confirmed,
             visible.lane_slots, visible.wave_helpers, visible.warp_multiples, visible.mask_helpers,
             visible.shuffle_wrappers, visible.wave_widths)
    if any(not words.isdisjoint(names) for names in given):
        return False
    for table in (visible.macros, visible.constants, visible.hip_macros):  # (the HIP build's: a body)
        for name in words & table.keys():
            mac = table[name]
            if loud_text(" ".join(x for x in (getattr(mac, "value", None), getattr(mac, "body", None)) if
                                  isinstance(x, str))):
                return False
    return True
