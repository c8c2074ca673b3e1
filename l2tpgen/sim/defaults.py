"""Settings IOS does not show in ``show running-config`` when they equal its default.

Typing a default value stores nothing: the line disappears from the running config (and a
non-default line it replaces goes with it). Rendering such a line would make every push see a
difference that is not one; the simulator behaves as the router does, so tests catch that.
Sources: the brief (hello 60, hold-queue 75 in / 40 out, digest hash md5 are IOS's defaults).
"""

from __future__ import annotations

# (mode, words typed) -> the words IOS stores ([] = nothing)
_HIDDEN: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {
    ("l2tp-class", ("hello", "60")): (),
    ("interface", ("hold-queue", "75", "in")): (),
    ("interface", ("hold-queue", "40", "out")): (),
}


def as_stored(mode: str, words: list[str]) -> list[str]:
    """What IOS keeps of a configuration line (``[]``: the default, not shown)."""
    mode = "interface" if mode == "subinterface" else mode
    hidden = _HIDDEN.get((mode, tuple(words)))
    if hidden is not None:
        return list(hidden)
    if mode == "l2tp-class" and words[:1] == ["digest"] and words[-2:] == ["hash", "md5"]:
        return words[:-2]
    return words
