"""Validation problems: data, never exceptions, each pointing at the place in a site file to fix."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Iterable

PathItem = str | int
# An error stops the fleet from loading; a warning is reported and leaves the exit status alone.
Level = Literal["error", "warning"]
# Site names a message lists; a fleet of thousands is summed up after these.
MAX_NAMES_LISTED = 20


def listed(names: Iterable[str]) -> str:
    """``site-a, site-b``: the first names in order, then how many there are in all."""
    ordered = sorted(names)
    text = ", ".join(ordered[:MAX_NAMES_LISTED]) or "none"
    if len(ordered) > MAX_NAMES_LISTED:
        text += f", ... ({len(ordered)} in all)"
    return text


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based line and column in a file."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def format_path(path: tuple[PathItem, ...]) -> str:
    """``("vlans", 2, "vc_id")`` -> ``vlans[2].vc_id``, as a reader of the YAML thinks of it."""
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return text.removeprefix(".")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the site files.

    ``site`` and ``path`` say where in the model the problem is (``("vlans", 2, "vc_id")``);
    ``location`` is filled in by the loader from the YAML source. ``message`` says what is wrong,
    ``hint`` how to fix it. Neither ever contains a secret. ``level``: an ``error`` (the default)
    makes the fleet invalid; a ``warning`` is something l2tpgen cannot tell from the site files
    (``validate`` prints it and still succeeds). ``code`` names the kind of problem, stable across
    releases (``docs/problems.md``).
    """

    site: str
    path: tuple[PathItem, ...]
    message: str
    hint: str = ""
    location: Location | None = field(default=None, compare=False)
    point_at_key: bool = field(default=False, compare=False)
    level: Level = "error"
    # The problem's stable code (``V001``...; l2tpgen/model/problem_codes.py says what each means).
    code: str = field(default="", compare=False)

    def located(self, location: Location) -> Problem:
        """The same problem, placed in its file."""
        return replace(self, location=location)

    @property
    def where(self) -> str:
        """``file:line:column`` when known, else the site name and the path in the model."""
        if self.location is not None:
            return str(self.location)
        return f"{self.site}: {format_path(self.path)}" if self.path else self.site

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order problems by file and position, as a compiler lists errors."""
        if self.location is None:
            return (self.site, 0, 0, self.message)
        return (self.location.file, self.location.line, self.location.column, self.message)

    def __str__(self) -> str:
        text = f"{self.where}: {self.level}: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text
