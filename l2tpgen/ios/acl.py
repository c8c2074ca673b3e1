"""IOS access lists: their entries, and what the first entry that matches a packet does.

Extended and standard lists, named (``ip access-list extended|standard NAME`` and its entries, with
or without sequence numbers) and numbered (``access-list N ...``: 1-99 and 1300-1999 standard,
100-199 and 2000-2699 extended). An address match l2tpgen cannot read (an object group, a wildcard
that is not contiguous) is None: the rules then give no answer rather than a wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network
from typing import TYPE_CHECKING, Literal

from l2tpgen.ios.facts import At

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.ios.tree import Node

ANY = IPv4Network("0.0.0.0/0")
_ALL_ONES = 0xFFFFFFFF
_HOST = "255.255.255.255"
_MAX_DIGITS = 5
_TCP, _UDP = 6, 17
# IOS access-list protocol keywords and their IP protocol numbers; `ip` matches every protocol.
_PROTOCOLS = {
    "icmp": 1,
    "igmp": 2,
    "ipinip": 4,
    "tcp": 6,
    "udp": 17,
    "gre": 47,
    "esp": 50,
    "ahp": 51,
    "eigrp": 88,
    "ospf": 89,
    "nos": 94,
    "pim": 103,
    "pcp": 108,
    "sctp": 132,
}
_PORT_OPERATORS = {"eq": 1, "neq": 1, "lt": 1, "gt": 1, "range": 2}
Verdict = Literal["permit", "deny", "unknown"]


@dataclass(frozen=True)
class AclEntry:
    """One ``permit``/``deny`` entry; None where l2tpgen cannot tell (object groups, odd masks)."""

    action: str
    protocol: int | None  # -1: `ip`, every protocol
    source: IPv4Network | None
    destination: IPv4Network | None
    at: At
    protocol_word: str = ""  # as written: `udp`, `115`, `ip`

    def matches(
        self, protocol: int, source: IPv4Address | None, destination: IPv4Address
    ) -> bool | None:
        """Whether a packet matches this entry; None when it cannot be told."""
        if self.protocol is None:
            return None
        if self.protocol not in (-1, protocol):
            return False
        found = (_within(source, self.source), _within(destination, self.destination))
        if False in found:
            return False
        return None if None in found else True


def _within(address: IPv4Address | None, network: IPv4Network | None) -> bool | None:
    if network is None:
        return None
    if network == ANY:
        return True
    return None if address is None else address in network


@dataclass(frozen=True)
class Acl:
    """An access list: its entries in the order the router reads them."""

    name: str
    at: At
    entries: tuple[AclEntry, ...] = ()

    def verdict(
        self, protocol: int, source: IPv4Address | None, destination: IPv4Address
    ) -> tuple[Verdict, AclEntry | None]:
        """What the first entry that matches the packet does (``deny`` at the end: implicit)."""
        for entry in self.entries:
            hit = entry.matches(protocol, source, destination)
            if hit is None:
                return "unknown", entry
            if hit:
                return "permit" if entry.action == "permit" else "deny", entry
        return "deny", None


def number(word: str | None) -> int | None:
    """A small decimal number (up to five digits), or None."""
    return (
        int(word)
        if word is not None and word.isascii() and word.isdigit() and len(word) <= _MAX_DIGITS
        else None
    )


def _address(words: list[str], i: int) -> tuple[IPv4Network | None, int]:
    """The address match starting at ``words[i]`` and the index after it."""
    word = words[i].lower() if i < len(words) else ""
    if word == "any":
        return ANY, i + 1
    if word == "host":
        return _network(words, i + 1, _HOST), i + 2
    if word in {"object-group", "addrgroup"}:
        return None, i + 2
    if i + 1 >= len(words):
        return _network(words, i, _HOST), i + 1  # a bare address (standard lists): one host
    return _network(words, i, _wildcard_to_mask(words[i + 1])), i + 2


def _wildcard_to_mask(wildcard: str) -> str:
    try:
        return str(IPv4Address(int(IPv4Address(wildcard)) ^ _ALL_ONES))
    except ValueError:
        return "invalid"


def _network(words: list[str], i: int, mask: str) -> IPv4Network | None:
    try:
        return IPv4Network(f"{words[i]}/{mask}", strict=False)
    except (ValueError, IndexError):
        return None  # not an address, or a wildcard that is not contiguous


def _skip_ports(words: list[str], i: int) -> int:
    word = words[i].lower() if i < len(words) else ""
    return i + 1 + _PORT_OPERATORS[word] if word in _PORT_OPERATORS else i


def entry(words: list[str], at: At, *, standard: bool) -> AclEntry | None:
    """An entry from its words (sequence number already dropped); None for remarks and the like."""
    if not words or words[0].lower() not in {"permit", "deny"}:
        return None
    action = words[0].lower()
    if standard:
        source, _ = _address(words, 1) if len(words) > 1 else (ANY, 1)
        return AclEntry(action, -1, source, ANY, at, "ip")
    word = words[1].lower() if len(words) > 1 else ""
    protocol = -1 if word == "ip" else _PROTOCOLS.get(word, number(word))
    source, i = _address(words, 2)
    i = _skip_ports(words, i) if protocol in (_TCP, _UDP) else i
    destination, _ = _address(words, i)
    return AclEntry(action, protocol, source, destination, at, word)


def named_acl(node: Node, words: list[str]) -> Acl:
    """An ``ip access-list extended|standard NAME`` section."""
    standard = words[2].lower() == "standard"
    entries = []
    for child in node.children:
        sub = child.text.split()
        if sub and sub[0].isdigit():  # a sequence number
            sub = sub[1:]
        found = entry(sub, At(child.line, child.column), standard=standard)
        if found is not None:
            entries.append(found)
    return Acl(words[3], At(node.line, node.column), tuple(entries))


def numbered_kind(number: int) -> bool | None:
    """True: a standard numbered ACL; False: extended; None: another kind (MAC, ...)."""
    if 1 <= number <= 99 or 1300 <= number <= 1999:  # noqa: PLR2004 - IOS's ranges
        return True
    if 100 <= number <= 199 or 2000 <= number <= 2699:  # noqa: PLR2004
        return False
    return None


def entry_text(line: str) -> str:
    """An access list line without indentation or sequence number (IOS-XE prints the number)."""
    words = line.split()
    if words and words[0].isascii() and words[0].isdigit():
        words = words[1:]
    return " ".join(words)


def acl_from_lines(name: str, lines: Iterable[str]) -> Acl:
    """An extended access list from its entry lines (``permit ...``, ``20 deny ...``, remarks).

    For access lists that are not read from a config: a plan's intermediate states, a test's.
    """
    entries = []
    for number, line in enumerate(lines, start=1):
        found = entry(entry_text(line).split(), At(number, 1), standard=False)
        if found is not None:
            entries.append(found)
    return Acl(name, At(0, 0), tuple(entries))
