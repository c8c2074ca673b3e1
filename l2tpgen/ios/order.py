"""The order ``show running-config`` prints top-level lines in (IOS keeps a fixed order)."""

from __future__ import annotations

from l2tpgen.ios.names import interface_sort_key

# Where top-level lines go, by their first words.
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
OTHER = 65

SortKey = tuple[int, object]


def running_config_key(text: str) -> SortKey:
    """Sort key of a top-level line: its rank, then (for interfaces) the interface order."""
    for prefix, rank in _RANK:
        if text == prefix or text.startswith(prefix + " "):
            if prefix == "interface":
                return (rank, interface_sort_key(text.split(" ", 1)[1]))
            return (rank, ())
    return (OTHER, ())
