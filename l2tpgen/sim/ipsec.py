"""Whether a simulated router encrypts the L2TPv3 packets of a tunnel (its crypto map).

A router protects the packets between its tunnel source and a peer when a crypto map applied to
one of its interfaces (`` crypto map NAME``) has an entry (``crypto map NAME SEQ ipsec-isakmp``)
whose ``set peer`` is that peer, or whose ``match address`` access list permits traffic naming
both ends (``permit 115 host A host B``). Cisco: [IKEV2-LEGACY]
https://www.cisco.com/en/US/docs/ios-xml/ios/sec_conn_ike2vpn/configuration/15-2mt/sec-apx-ikev2-legacy.html
(crypto map entries, ``set peer``, ``match address``, ``crypto map NAME`` on the interface).
The simulator does not encrypt: it only compares the two ends (``pseudowires.is_up``). This
module imports nothing from l2tpgen outside ``l2tpgen.sim``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.sim.router import Router

_APPLIED = re.compile(r"^crypto map (\S+)$")
_ENTRY = re.compile(r"^crypto map (\S+) \d+ ipsec-isakmp")
_SET_PEER = re.compile(r"^set peer (\S+)$")
_MATCH = re.compile(r"^match address (\S+)$")
_HOST = re.compile(r"\bhost (\S+)")


def encrypted(router: Router, source: str | None, peer: str) -> bool:
    """Whether ``router`` protects L2TPv3 between ``source`` and ``peer``."""
    applied = {
        found.group(1)
        for line in router.running.lines
        if line.text.startswith("interface ")
        for child in line.children
        if (found := _APPLIED.match(child.text))
    }
    for line in router.running.lines:
        entry = _ENTRY.match(line.text)
        if entry is None or entry.group(1) not in applied:
            continue
        for child in line.children:
            set_peer, match = _SET_PEER.match(child.text), _MATCH.match(child.text)
            if set_peer is not None and set_peer.group(1) == peer:
                return True
            if match is not None and _names_both(router, match.group(1), source, peer):
                return True
    return False


def _names_both(router: Router, acl: str, source: str | None, peer: str) -> bool:
    """Whether the access list permits something between exactly ``source`` and ``peer``."""
    section = router.running.find(f"ip access-list extended {acl}")
    if section is None or source is None:
        return False
    return any(
        child.text.startswith("permit ") and set(_HOST.findall(child.text)) == {source, peer}
        for child in section.children
    )
