"""Section headers that are misspelt (``12tp-class``, ``pseudowire-clas``, ``interfce``).

IOS refuses such a line (``% Invalid input detected``), and the lines under it land in global
configuration, where most are refused too: every check that reads the section is silently lost.
A word is a misspelling of a header when it is close to one (``difflib``'s ratio 0.8 or more)
without being it, a prefix IOS accepts for it, or another command.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

HEADERS = ("interface", "l2tp-class", "pseudowire-class")
# Real commands close to a header: `pseudowire` (virtual-ppp), `l2tp` (global L2TP settings).
_REAL = frozenset({"pseudowire", "l2tp", "l2tpv3", "l2vpn", "interfaces"})
_CUTOFF = 0.8


@lru_cache(maxsize=1024)
def misspelt_header(word: str) -> str | None:
    """The header ``word`` is a misspelling of, or None (a header, a prefix of one, or neither)."""
    lowered = word.lower()
    if lowered in _REAL or any(h.startswith(lowered) for h in HEADERS):
        return None
    close = difflib.get_close_matches(lowered, HEADERS, n=1, cutoff=_CUTOFF)
    return close[0] if close else None
