"""Cisco IOS interface names: canonical spelling and running-config order.

IOS accepts any unambiguous abbreviation (``Gi0/0``, ``int e0/0``) but prints full names; the model,
the renderer and the config parser all go through ``canonical_interface_name`` so that they agree.
"""

from __future__ import annotations

import re

# Full IOS interface type names, in the order IOS lists interfaces in a running config:
# virtual interfaces first, then physical ports, then SVIs and bridge interfaces.
_TYPES: tuple[str, ...] = (
    "Loopback",
    "Tunnel",
    "Port-channel",
    "Ethernet",
    "FastEthernet",
    "GigabitEthernet",
    "TwoGigabitEthernet",
    "FiveGigabitEthernet",
    "TenGigabitEthernet",
    "TwentyFiveGigE",
    "FortyGigabitEthernet",
    "HundredGigE",
    "Serial",
    "Dialer",
    "Virtual-Template",
    "Vlan",
    "BDI",
    "BVI",
)
_RANK = {name.lower(): index for index, name in enumerate(_TYPES)}

# Abbreviations IOS users actually type; longest prefix wins, so "g" and "gi" both mean Gigabit.
_ABBREVIATIONS: dict[str, str] = {
    "lo": "Loopback",
    "tu": "Tunnel",
    "po": "Port-channel",
    "e": "Ethernet",
    "et": "Ethernet",
    "eth": "Ethernet",
    "fa": "FastEthernet",
    "f": "FastEthernet",
    "g": "GigabitEthernet",
    "gi": "GigabitEthernet",
    "gig": "GigabitEthernet",
    "ge": "GigabitEthernet",
    "tw": "TwoGigabitEthernet",
    "fi": "FiveGigabitEthernet",
    "te": "TenGigabitEthernet",
    "ten": "TenGigabitEthernet",
    "twe": "TwentyFiveGigE",
    "fo": "FortyGigabitEthernet",
    "hu": "HundredGigE",
    "se": "Serial",
    "di": "Dialer",
    "vl": "Vlan",
}

_NAME_RE = re.compile(r"^\s*([A-Za-z][A-Za-z-]*)\s*(\d+(?:/\d+)*)(?:\.(\d+))?\s*$")
_PHYSICAL = frozenset(name.lower() for name in _TYPES if name.endswith(("Ethernet", "GigE")))


def _expand_type(word: str) -> str | None:
    lowered = word.lower()
    if lowered in _RANK:
        return _TYPES[_RANK[lowered]]
    if lowered in _ABBREVIATIONS:
        return _ABBREVIATIONS[lowered]
    matches = [name for name in _TYPES if name.lower().startswith(lowered)]
    return matches[0] if len(matches) == 1 else None


def canonical_interface_name(name: str) -> str:
    """Return the full IOS spelling of an interface name: ``gi0/0.10`` -> ``GigabitEthernet0/0.10``.

    Raises:
        ValueError: the name is not an interface name IOS would accept.
    """
    match = _NAME_RE.match(name)
    if match is None:
        raise ValueError(
            f"{name!r} is not an interface name; write it as IOS does, e.g. GigabitEthernet0/0"
        )
    word, port, sub = match.groups()
    full = _expand_type(word)
    if full is None:
        raise ValueError(
            f"{name!r}: unknown interface type {word!r}; write it as IOS does, e.g. "
            "GigabitEthernet0/0"
        )
    return f"{full}{port}" + (f".{sub}" if sub is not None else "")


def interface_sort_key(name: str) -> tuple[int, str, tuple[int, ...], int]:
    """Sort key that puts interfaces in the order ``show running-config`` lists them.

    Virtual interfaces first, then physical ports by type; within a type by slot/port numbers;
    a subinterface right after its parent, subinterfaces in numeric order.
    """
    match = _NAME_RE.match(name)
    if match is None:
        return (len(_TYPES), name, (), -1)
    word, port, sub = match.groups()
    rank = _RANK.get(word.lower(), len(_TYPES))
    numbers = tuple(int(part) for part in port.split("/"))
    return (rank, word, numbers, int(sub) if sub is not None else -1)


def is_subinterface(name: str) -> bool:
    """Whether the name has a ``.N`` subinterface suffix."""
    match = _NAME_RE.match(name)
    return match is not None and match.group(3) is not None


def is_loopback(name: str) -> bool:
    """Whether the interface is a loopback (a stable tunnel source)."""
    return name.lower().startswith("loopback")


def is_ethernet(name: str) -> bool:
    """Whether the interface is a physical Ethernet port that can carry dot1Q subinterfaces."""
    match = _NAME_RE.match(name)
    return match is not None and match.group(1).lower() in _PHYSICAL


_SHORT = {
    "GigabitEthernet": "Gi",
    "FastEthernet": "Fa",
    "TenGigabitEthernet": "Te",
    "Ethernet": "Et",
    "Loopback": "Lo",
    "Port-channel": "Po",
}


def short_interface_name(name: str) -> str:
    """The short form IOS prints in show outputs: ``GigabitEthernet0/0.10`` -> ``Gi0/0.10``."""
    match = _NAME_RE.match(name)
    if match is None:
        return name
    word = match.group(1)
    return _SHORT.get(word, word) + name.strip()[len(word) :].lstrip()
