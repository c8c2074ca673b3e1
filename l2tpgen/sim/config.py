"""The simulated router's configuration: an ordered tree of lines, printed as IOS prints it."""

from __future__ import annotations

from dataclasses import dataclass, field

from l2tpgen.ios.order import SortKey, running_config_key


@dataclass
class Line:
    """One configuration line, the key of the setting it holds, and its children."""

    text: str
    key: tuple[str, ...] | None = None
    children: list[Line] = field(default_factory=list)

    def copy(self) -> Line:
        """A deep copy."""
        return Line(self.text, self.key, [c.copy() for c in self.children])


def _rank(line: Line) -> SortKey:
    return running_config_key(line.text)


@dataclass
class Config:
    """A whole configuration: top-level lines in the order they were entered."""

    lines: list[Line] = field(default_factory=list)

    def copy(self) -> Config:
        """A deep copy (for startup-config, flash files and rollback)."""
        return Config([line.copy() for line in self.lines])

    def find(self, text: str) -> Line | None:
        """The top-level line with exactly this text."""
        return next((line for line in self.lines if line.text == text), None)

    def body(self) -> str:
        """The configuration as IOS prints it, without the header and ``end``."""
        out: list[str] = []
        previous_rank = None
        for line in sorted(self.lines, key=_rank):
            rank = _rank(line)[0]
            if out and (line.children or rank != previous_rank) and out[-1] != "!":
                out.append("!")
            out.append(line.text)
            out.extend(_children(line, 1))
            if line.children:
                out.append("!")
            previous_rank = rank
        if out and out[-1] != "!":
            out.append("!")
        return "\n".join(out) + "\n"

    def show(self) -> str:
        """``show running-config`` output."""
        body = "!\n" + self.body()
        return (
            f"Building configuration...\n\nCurrent configuration : {len(body)} bytes\n{body}end\n"
        )


def _children(line: Line, depth: int) -> list[str]:
    out = []
    for child in line.children:
        out.append(" " * depth + child.text)
        out.extend(_children(child, depth + 1))
    return out
