"""Cisco IOS interface names: canonical spelling, short form, running-config order.

IOS accepts any unambiguous, case-insensitive abbreviation of an interface type, with or without a
space before the number (``gi0/0``, ``int e0/0``, ``Loop 0``, ``GigabitEthernet 0/1``), and prints
the full name. Everything in l2tpgen that reads or writes a name goes through
``canonical_interface_name`` so that model, renderer, linter, push and simulator agree.

netutils' abbreviation table (``netutils.constants.BASE_INTERFACES``) supplies the spellings people
type; IOS's own rule (a unique case-insensitive prefix of a type the router has) resolves the
rest. netutils alone does not fit: it is case-sensitive (``tunnel1``, ``gigabitethernet0/0`` stay
as typed), knows no prefixes (``Loop0``, ``Giga0/1``) and maps ``f`` to FourHundredGigabitEthernet
where IOS routers mean FastEthernet. Its short forms (``abbreviated_interface_name``) are what IOS
prints in show outputs, and are used as they are.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

# Full IOS interface type names, in the order IOS lists interfaces in a running config:
# virtual interfaces first, then physical ports, then SVIs and bridge interfaces.
TYPES: tuple[str, ...] = (
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
    "AppGigabitEthernet",
    "Serial",
    "ATM",
    "Async",
    "Cellular",
    "Multilink",
    "Dialer",
    "Virtual-Template",
    "Virtual-PPP",
    "Virtual-Access",
    "Vlan",
    "BDI",
    "BVI",
)
_RANK = {name.lower(): index for index, name in enumerate(TYPES)}
_BY_LOWER = {name.lower(): name for name in TYPES}

# What IOS users type on routers, where netutils' table says otherwise or says nothing.
_OVERRIDES: dict[str, str] = {
    "e": "Ethernet",
    "f": "FastEthernet",
    "g": "GigabitEthernet",
    "s": "Serial",
    "t": "Tunnel",
    "hu": "HundredGigE",
    "vl": "Vlan",
    "vlan": "Vlan",
    "bd": "BDI",
    "bdi": "BDI",
    "twe": "TwentyFiveGigE",
}


@lru_cache(maxsize=1)
def _known() -> dict[str, str]:
    """Netutils' table for the types IOS routers have, keys lower-cased; clashes dropped.

    Loaded on first use: importing netutils costs as much as the rest of a `validate`.
    """
    from netutils.constants import BASE_INTERFACES  # noqa: PLC0415 - startup: netutils

    table: dict[str, str | None] = {}
    for key, value in BASE_INTERFACES.items():
        full = _BY_LOWER.get(value.lower())
        if full is None:
            continue  # a type routers do not have (POS, FourHundredGigabitEthernet, ...)
        lowered = key.lower()
        table[lowered] = full if table.get(lowered, full) == full else None
    return {k: v for k, v in table.items() if v is not None} | _OVERRIDES


# ASCII only: Python's \d also matches other scripts' digits, which IOS never accepts.
_NAME = re.compile(r"^\s*([A-Za-z][A-Za-z-]*)\s*([0-9]+(?:/[0-9]+)*)(?:\.([0-9]+))?\s*$", re.ASCII)
_PHYSICAL = frozenset(name.lower() for name in TYPES if name.endswith(("Ethernet", "GigE")))
MAX_SUBINTERFACE = 4294967295


class InterfaceNameError(ValueError):
    """Not an interface name IOS would accept (the message says how to write one)."""


def _expand_type(word: str) -> str | None:
    lowered = word.lower()
    if lowered in _BY_LOWER:
        return _BY_LOWER[lowered]
    known = _known()
    if lowered in known:
        return known[lowered]
    matches = [name for name in TYPES if name.lower().startswith(lowered)]
    return matches[0] if len(matches) == 1 else None


@lru_cache(maxsize=65536)
def canonical_interface_name(name: str) -> str:
    """The full IOS spelling of an interface name: ``gi 0/0.10`` -> ``GigabitEthernet0/0.10``.

    Raises:
        InterfaceNameError: the name is not one IOS would accept.
    """
    match = _NAME.match(name)
    if match is None:
        raise InterfaceNameError(
            f"{name!r} is not an interface name; write it as IOS does, e.g. GigabitEthernet0/0"
        )
    word, port, sub = match.groups()
    full = _expand_type(word)
    if full is None:
        close = difflib.get_close_matches(word.lower(), list(_BY_LOWER), n=1, cutoff=0.6)
        hint = (
            f"did you mean {_BY_LOWER[close[0]]}{port}?"
            if close
            else "write it as IOS does, e.g. GigabitEthernet0/0"
        )
        raise InterfaceNameError(f"{name!r}: unknown interface type {word!r}; {hint}")
    if sub is not None and not 0 < int(sub[:11]) <= MAX_SUBINTERFACE:
        raise InterfaceNameError(f"{name!r}: a subinterface number is 1-{MAX_SUBINTERFACE}")
    return f"{full}{port}" + (f".{sub}" if sub is not None else "")


def canonical_or_same(name: str) -> str:
    """The canonical name, or the text unchanged when it is not an interface name (for facts)."""
    try:
        return canonical_interface_name(name)
    except InterfaceNameError:
        return name.strip()


def interface_sort_key(name: str) -> tuple[int, str, tuple[int, ...], int]:
    """Sort key that puts interfaces in the order ``show running-config`` lists them.

    Virtual interfaces first, then physical ports by type; within a type by slot/port numbers;
    a subinterface right after its parent, subinterfaces in numeric order.
    """
    match = _NAME.match(name)
    if match is None:
        return (len(TYPES), name, (), -1)
    word, port, sub = match.groups()
    rank = _RANK.get(word.lower(), len(TYPES))
    numbers = tuple(int(part[:11]) for part in port.split("/"))
    return (rank, word, numbers, int(sub[:11]) if sub is not None else -1)


def is_subinterface(name: str) -> bool:
    """Whether the name has a ``.N`` subinterface suffix."""
    match = _NAME.match(name)
    return match is not None and match.group(3) is not None


def parent_interface(name: str) -> str:
    """The main interface of a subinterface (the name itself for a main interface)."""
    return name.split(".", 1)[0]


def is_loopback(name: str) -> bool:
    """Whether the interface is a loopback (a stable tunnel source)."""
    return name.lower().startswith("loopback")


def is_ethernet(name: str) -> bool:
    """Whether the interface is a physical Ethernet port that can carry dot1Q subinterfaces."""
    match = _NAME.match(name)
    return match is not None and match.group(1).lower() in _PHYSICAL


def is_serial(name: str) -> bool:
    """Whether the interface is a serial (HDLC/PPP/Frame Relay) port."""
    match = _NAME.match(name)
    return match is not None and match.group(1).lower() in {"serial", "multilink"}


def short_interface_name(name: str) -> str:
    """The short form IOS prints in show outputs: ``GigabitEthernet0/0.10`` -> ``Gi0/0.10``."""
    if _NAME.match(name) is None:
        return name
    from netutils.interface import abbreviated_interface_name  # noqa: PLC0415 - startup: netutils

    return str(abbreviated_interface_name(name.strip()))
