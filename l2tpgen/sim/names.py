"""Interface names as the simulated router reads, prints and orders them: its own table.

The simulator does not borrow ``l2tpgen.ios.names`` (the code it is there to check); it keeps its
own table, which may disagree with it. Where they disagree, the sources below decide.

- IOS accepts a command word typed "with only the first few letters", once only one reading
  is left (https://searchnetworking.techtarget.com/tip/Abbreviated-command-notation), interface
  types included, with or without a space before the number (``gi0/0``, ``GigabitEthernet 0/0``).
  Where a prefix fits several types (``t``: Tunnel, TenGigabitEthernet), the simulator takes the
  first of ``TYPES`` below, in the order of that table: an inference, not a documented rule.
- Short forms (``Gi0/0/0:8(Ethernet)`` in ``show xconnect all``) as IOS prints them: the
  genieparser capture ``tests/realworld/show/genieparser-show-xconnect-all-1.txt`` (``Gi``);
  for the other types netutils' ``abbreviated_interface_name`` (an outside table; the types it
  has no short form for keep their full name), which the tests check this table against.
- Running-config order: loopbacks, then Null, tunnels and port-channels, then physical ports by
  type, then dialers and SVIs, as in real ``show running-config`` captures in
  ``tests/realworld/configs`` (``ciscoconfparse-sample01.cfg``: Loopback Null ATM FastEthernet
  Virtual-Template Dialer; ``pybatfish-hybrid-cloud-exitgw.cfg``: Loopback Tunnel
  GigabitEthernet; ``batfish-ios-interface-show-run-all.cfg``: Loopback Port-channel
  GigabitEthernet; ``aviacao-cme-rtop-cme.cfg``: Loopback GigabitEthernet Serial). Within a type,
  numerically by slot/port, a subinterface right after its parent.
"""

from __future__ import annotations

import re

# (full name, short form, running-config rank), in the order an ambiguous prefix resolves.
TYPES: tuple[tuple[str, str, int], ...] = (
    ("Ethernet", "Et", 10),
    ("FastEthernet", "Fa", 11),
    ("GigabitEthernet", "Gi", 12),
    ("Loopback", "Lo", 0),
    ("Tunnel", "Tu", 2),
    ("TenGigabitEthernet", "Te", 15),
    ("Serial", "Se", 20),
    ("Port-channel", "Po", 3),
    ("Vlan", "Vlan", 31),
    ("BDI", "BDI", 32),
    ("BVI", "Bv", 33),
    ("ATM", "At", 9),
    ("Async", "Async", 21),
    ("Cellular", "Cellular", 22),
    ("Dialer", "Di", 30),
    ("Multilink", "Mu", 23),
    ("Null", "Null", 1),
    ("Virtual-Template", "Vt", 24),
    ("Virtual-PPP", "Virtual-PPP", 25),
    ("TwoGigabitEthernet", "Tw", 13),
    ("FiveGigabitEthernet", "FiveGigabitEthernet", 14),
    ("TwentyFiveGigE", "Twe", 16),
    ("FortyGigabitEthernet", "Fo", 17),
    ("HundredGigE", "Hu", 18),
    ("AppGigabitEthernet", "Ap", 19),
)
_BY_LOWER = {full.lower(): (full, short, rank) for full, short, rank in TYPES}
_NAME = re.compile(r"^([A-Za-z][A-Za-z-]*) ?([0-9]+(?:/[0-9]+)*)(?:\.([0-9]+))?$", re.ASCII)
_NUMBER = re.compile(r"^[0-9]+(?:/[0-9]+)*(?:\.[0-9]+)?$", re.ASCII)
MAX_SUBINTERFACE = 4294967295
UNKNOWN_RANK = 99


def _type(word: str) -> tuple[str, str, int] | None:
    lowered = word.lower()
    exact = _BY_LOWER.get(lowered)
    if exact is not None:
        return exact
    return next((row for row in TYPES if row[0].lower().startswith(lowered)), None)


def canonical(text: str) -> str | None:
    """The full name IOS stores for ``text`` (``gi0/0.10`` -> ``GigabitEthernet0/0.10``).

    None when IOS would not take it as an interface name.
    """
    match = _NAME.match(text.strip())
    if match is None:
        return None
    word, port, sub = match.groups()
    row = _type(word)
    if row is None:
        return None
    if sub is not None and not 0 < int(sub) <= MAX_SUBINTERFACE:
        return None
    return row[0] + port + (f".{sub}" if sub is not None else "")


def is_number(text: str) -> bool:
    """Whether ``text`` is the number part of an interface name (``0/1``, ``0/0.10``)."""
    return _NUMBER.match(text) is not None


def short(name: str) -> str:
    """The short form show outputs print: ``GigabitEthernet0/0.10`` -> ``Gi0/0.10``."""
    match = _NAME.match(name)
    row = _BY_LOWER.get(match.group(1).lower()) if match else None
    if match is None or row is None:
        return name
    return row[1] + name[len(match.group(1)) :].lstrip()


def sort_key(name: str) -> tuple[int, str, tuple[int, ...], int]:
    """Where ``interface NAME`` goes in ``show running-config`` (see the module's sources)."""
    match = _NAME.match(name)
    if match is None:
        return (UNKNOWN_RANK, name, (), -1)
    word, port, sub = match.groups()
    row = _BY_LOWER.get(word.lower())
    rank = row[2] if row else UNKNOWN_RANK
    numbers = tuple(int(part) for part in port.split("/"))
    return (rank, word, numbers, int(sub) if sub is not None else -1)
