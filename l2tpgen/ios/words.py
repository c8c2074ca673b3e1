"""Reading the words of a config line defensively: a word missing or a number too long is None.

Shared by the readers of ``l2tpgen.ios.extract`` and ``l2tpgen.ios.class_sections``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.facts import At

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Node

_MAX_DIGITS = 10  # no IOS number needs more; int() of thousands of digits is refused


def number(text: str | None) -> int | None:
    """1 to 10 ASCII digits (``[0-9]{1,10}``, tested without a regex: it runs twice per line)."""
    if text is None or len(text) > _MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def word(words: list[str], index: int) -> str | None:
    """The word at ``index``, None past the end."""
    return words[index] if index < len(words) else None


def position(node: Node) -> At:
    """Where ``node``'s line is."""
    return At(node.line, node.column)
