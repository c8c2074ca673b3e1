"""The simulated router's configuration: an ordered tree of lines, printed as IOS prints it.

``show running-config`` lists top-level lines in a fixed order, whatever order they were typed
in. The simulator keeps its own table of that order (not ``l2tpgen.ios.order``, which it is there
to check), read off real ``show running-config`` captures in ``tests/realworld/configs``:
``ciscoconfparse-sample01.cfg`` (IOS 12.4: version, service, hostname, boot markers, the
buffer's logging settings, enable, aaa, clock, ip cef, ip domain / name-server, username,
interfaces, routing, ip route, ip http, ip access-list, logging hosts, access-list, snmp-server,
control-plane, banner, line, ntp) and ``byteworks-xconnect-over-ipsec-site1.cfg`` (l2tp-class,
then pseudowire-class, then crypto, then interfaces). Between ``ip forward-protocol``, ``ip
http`` and ``ip route`` the captures disagree (12.4 above; ``aviacao-cme-rtop-cme.cfg``: ip
http, ip route, ip forward-protocol); the simulator prints ip forward-protocol, ip http, ip
route, which is an assumption. Lines the table does not know go between the routing protocols
and control-plane, in the order they were entered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from l2tpgen.sim.names import sort_key
from l2tpgen.sim.order import rank

SortKey = tuple[int, object]

# Where top-level lines go, by their first words (the longest prefix that fits wins).
_RANK: dict[str, int] = {
    "version": 0,
    "service": 1,
    "no service": 1,
    "hostname": 2,
    "boot-start-marker": 3,
    "boot": 3,
    "boot-end-marker": 4,
    "logging buffered": 5,
    "logging rate-limit": 5,
    "logging console": 5,
    "no logging console": 5,
    "logging snmp-authfail": 5,
    "enable": 6,
    "aaa": 7,
    "no aaa": 7,
    "clock": 8,
    "ip cef": 9,
    "no ip cef": 9,
    "ip domain": 10,
    "no ip domain": 10,
    "ip domain-name": 10,
    "ip name-server": 11,
    "ipv6 unicast-routing": 12,
    "multilink": 13,
    "license": 13,
    "username": 14,
    "l2tp-class": 20,
    "pseudowire-class": 21,
    "crypto": 22,
    "interface": 30,
    "router": 40,
    "ip forward-protocol": 50,
    "ip http": 51,
    "no ip http": 51,
    "ip ssh": 52,
    "ip route": 53,
    "ip access-list": 54,
    "logging": 55,
    "no logging": 55,
    "access-list": 56,
    "cdp": 60,
    "no cdp": 60,
    "lldp": 60,
    "snmp-server": 61,
    "control-plane": 70,
    "banner": 75,
    "line": 80,
    "ntp": 85,
}
OTHER = 65
_LONGEST_FIRST = sorted(_RANK, key=len, reverse=True)


@dataclass
class Line:
    """One configuration line, the key of the setting it holds, and its children."""

    text: str
    key: tuple[str, ...] | None = None
    children: list[Line] = field(default_factory=list)
    seq: int | None = None  # an access list entry's sequence number (not printed)

    def copy(self) -> Line:
        """A deep copy."""
        return Line(self.text, self.key, [c.copy() for c in self.children], self.seq)


def place(container: list[Line], line: Line, mode: str) -> None:
    """Put a new line among its siblings where IOS shows it (``l2tpgen.sim.order``).

    An access list entry goes by its sequence number; in a mode without an order of its own the
    line goes last, as typed.
    """
    if line.seq is not None:
        at = next((i for i, x in enumerate(container) if (x.seq or 0) > line.seq), None)
    else:
        mine = rank(mode, line.text)
        at = next((i for i, x in enumerate(container) if rank(mode, x.text) > mine), None)
    container.insert(len(container) if at is None else at, line)


def _rank(line: Line) -> SortKey:
    text = line.text
    for prefix in _LONGEST_FIRST:
        if text == prefix or text.startswith(prefix + " "):
            if prefix == "interface":
                return (_RANK[prefix], sort_key(text.split(" ", 1)[1]))
            return (_RANK[prefix], ())
    return (OTHER, ())


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
