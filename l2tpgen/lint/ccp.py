"""The one adapter around ciscoconfparse: IOS text in, a tree of ``Node`` values out.

Everything else in l2tpgen sees only ``Node``; swapping the parser means changing this module
alone. ciscoconfparse logs INFO lines through loguru (to stdout as well as stderr); they are
switched off for its namespace here, so they never reach the user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ciscoconfparse import CiscoConfParse
from loguru import logger

# ciscoconfparse enables its own loguru namespace when imported, so this must come after the import.
logger.disable("ciscoconfparse")

if TYPE_CHECKING:
    from l2tpgen.lint.normalize import NormalizedConfig

COMMENT = "!"


@dataclass(slots=True)
class Node:
    """One config line: its text (stripped), 1-based line and column in the input, its children."""

    text: str
    line: int
    column: int
    children: list[Node] = field(default_factory=list)

    def child(self, prefix: str) -> Node | None:
        """The first child whose text starts with ``prefix``."""
        return next((c for c in self.children if c.text.startswith(prefix)), None)


def parse_tree(config: NormalizedConfig) -> list[Node]:
    """The top-level nodes of a normalized config, comments left out."""
    parsed = CiscoConfParse(config.lines, syntax="ios")
    # Texts come from our own list by line number: ciscoconfparse's .text property is slow, and the
    # normalized lines are exactly what it parsed.
    texts = [line.strip() for line in config.lines]

    def convert(obj: Any) -> Node:  # noqa: ANN401 - ciscoconfparse objects are untyped
        number = obj.linenum
        node = Node(texts[number], number + 1, config.columns[number])
        node.children = [convert(c) for c in obj.children if texts[c.linenum] != COMMENT]
        return node

    return [
        convert(obj)
        for obj in parsed.objs
        if not config.lines[obj.linenum].startswith(" ") and texts[obj.linenum] != COMMENT
    ]
