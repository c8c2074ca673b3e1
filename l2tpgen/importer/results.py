"""What an import gives back: the sites, their notes, or the refusal (``l2tpgen.importer``).

Apart from the importer's package so that ``finish``, which builds them, imports them at its top
and the package imports ``finish`` at its own (no circle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.importer.notes import Note


class ImportRefusedError(L2tpgenError):
    """The configs cannot be imported; ``notes`` say why, each at its file:line."""

    def __init__(self, notes: Sequence[Note]) -> None:
        self.notes = tuple(notes)
        count = len({n.file for n in self.notes})
        super().__init__(
            f"nothing was written: {count} config{'s' if count != 1 else ''} cannot be imported"
        )


@dataclass(frozen=True)
class ImportedSite:
    """One site: its name, its data (a site file's content), its file's text and its notes."""

    name: str
    source: str | None  # the config file; None for a stub
    data: Mapping[str, object]
    text: str
    notes: tuple[Note, ...]

    @property
    def stub(self) -> bool:
        """A site made for a peer whose config was not given (its wan and lan are missing)."""
        return self.source is None


@dataclass(frozen=True)
class ImportResult:
    """The imported sites and every note (warnings and what the model cannot express)."""

    sites: tuple[ImportedSite, ...]
    notes: tuple[Note, ...]

    @property
    def warnings(self) -> tuple[Note, ...]:
        """The notes that ask for an action."""
        return tuple(n for n in self.notes if n.kind == "warning")

    @property
    def unexpressed(self) -> tuple[Note, ...]:
        """What the routers have and the site files cannot say."""
        return tuple(n for n in self.notes if n.kind == "unexpressed")
