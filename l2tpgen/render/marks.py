"""The marks l2tpgen writes into configs so that push knows later what it owns.

The VLAN description is written here once and read back here (``import`` gives the VLAN its
name from it): a field added to it changes both, or neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARK = "l2tpgen:"  # every managed subinterface's description starts with it
ROUTE_NAME = "l2tpgen"  # static routes to the peers' loopbacks are named l2tpgen-PEER

# `VLAN <id> <name> to <peer>`: a VLAN name and a site name hold no space (the model's patterns).
_DESCRIPTION = re.compile(r"^VLAN (\d+) (\S+) to (\S+)$")


@dataclass(frozen=True)
class VlanDescription:
    """What a pseudowire's description says: the VLAN, its name, the peer site."""

    vlan: int
    name: str
    peer: str

    def text(self, *, marked: bool = True) -> str:
        """``l2tpgen: VLAN 2996 public to site-b`` (IOS); VyOS writes it without the mark."""
        words = f"VLAN {self.vlan} {self.name} to {self.peer}"
        return f"{MARK} {words}" if marked else words


def read_description(text: str | None) -> VlanDescription | None:
    """The description l2tpgen wrote (with or without its mark), or None for anyone else's."""
    if not text:
        return None
    words = text[len(MARK) :].lstrip() if text.startswith(MARK) else text
    found = _DESCRIPTION.match(words)
    if found is None:
        return None
    return VlanDescription(int(found.group(1)), found.group(2), found.group(3))
