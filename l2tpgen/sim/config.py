"""The simulated router's configuration: an ordered tree of lines, printed as IOS prints it."""

from __future__ import annotations

from dataclasses import dataclass, field

from l2tpgen.ifname import interface_sort_key


@dataclass
class Line:
    """One configuration line, the key of the setting it holds, and its children."""

    text: str
    key: tuple[str, ...] | None = None
    children: list[Line] = field(default_factory=list)

    def copy(self) -> Line:
        """A deep copy."""
        return Line(self.text, self.key, [c.copy() for c in self.children])


# Where top-level lines go in `show running-config`, by their first words (IOS keeps a fixed order).
_RANK: tuple[tuple[str, int], ...] = (
    ("version", 0),
    ("service", 1),
    ("no service", 1),
    ("hostname", 2),
    ("boot", 3),
    ("enable", 4),
    ("username", 5),
    ("aaa", 5),
    ("no aaa", 5),
    ("clock", 6),
    ("ip cef", 7),
    ("no ip cef", 7),
    ("ip domain", 8),
    ("no ip domain", 8),
    ("ip name-server", 8),
    ("multilink", 9),
    ("license", 9),
    ("l2tp-class", 20),
    ("pseudowire-class", 21),
    ("interface", 30),
    ("router", 40),
    ("ip forward-protocol", 50),
    ("ip http", 51),
    ("no ip http", 51),
    ("ip ssh", 52),
    ("ip route", 53),
    ("ip access-list", 54),
    ("access-list", 55),
    ("cdp", 60),
    ("no cdp", 60),
    ("lldp", 60),
    ("snmp-server", 61),
    ("control-plane", 70),
    ("banner", 75),
    ("line", 80),
    ("ntp", 85),
)


def _rank(line: Line) -> tuple[int, object]:
    for prefix, rank in _RANK:
        if line.text == prefix or line.text.startswith(prefix + " "):
            if prefix == "interface":
                return (rank, interface_sort_key(line.text.split(" ", 1)[1]))
            return (rank, ())
    return (65, ())


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
