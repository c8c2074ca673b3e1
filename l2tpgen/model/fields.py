"""The site-file reference: one table for docs/site-files.md and the JSON Schema's descriptions.

``site_fields.md`` (beside this module, shipped with it) is the table of every field of a site
file: its label (the fields' dotted paths in backticks; ``.out`` continues the path before it,
``.*`` stands for an object and its fields), their type and default, and notes. docs/site-files.md
shows it word for word between its ``site-fields`` markers (tests/test_site_fields.py keeps the two
equal; ``pytest --update-golden`` copies it there), and ``l2tpgen schema`` gives every property the
plain text of its row (``description``): no Markdown, since editors show it as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

TABLE_FILE = "site_fields.md"
_CELL = re.compile(r"(?<!\\)\|")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


@dataclass(frozen=True)
class Row:
    """One row of the table: the fields it describes (dotted paths), type and default, notes."""

    label: str
    kind: str
    notes: str
    paths: tuple[str, ...]

    @property
    def description(self) -> str:
        """The row as plain text, for a property's ``description``."""
        return plain(f"{self.kind}: {self.notes}" if self.notes else self.kind)


def table() -> str:
    """The Markdown table, as docs/site-files.md shows it."""
    return resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")


def _paths(label: str) -> tuple[str, ...]:
    paths: list[str] = []
    for written in re.findall(r"`([^`]+)`", label):
        path = paths[-1].rsplit(".", 1)[0] + written if written.startswith(".") else written
        paths.append(path)
    return tuple(paths)


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    """Every row of the table, in order."""
    found: list[Row] = []
    for line in table().splitlines()[2:]:  # the header and its rule
        label, kind, notes = (cell.strip() for cell in _CELL.split(line)[1:-1])
        found.append(Row(label, kind, notes, _paths(label)))
    return tuple(found)


def plain(text: str) -> str:
    """Markdown (and reStructuredText literals) as plain text: what an editor's hover shows."""
    text = _LINK.sub(r"\1", text).replace("\\|", "|").replace("**", "")
    return text.replace("``", "").replace("`", "")


def _covers(written: str, path: str) -> bool:
    if written.endswith(".*"):
        return path == written[:-2] or path.startswith(written[:-1])
    return path == written


def row_for(path: str) -> Row | None:
    """The first row that describes the field at ``path`` (``vlans[].vc_id``), if any."""
    return next((row for row in rows() if any(_covers(p, path) for p in row.paths)), None)
