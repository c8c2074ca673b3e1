"""Cross-device security rule: IPsec at both ends of a pseudowire, or at neither.

Apart from ``pairs.py`` for its size only; pairing is ``l2tpgen.lint.pairing``'s, and "protected"
is what L2T024 decides for each end (``security.way_out``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import FleetRule
from l2tpgen.lint.rules.security import way_out

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.lint.finding import Finding
    from l2tpgen.lint.pairing import End, Pairing

_ENCRYPTED = {"protected": True, "clear": False, "missed": False}


class IpsecAtOneEndOnly(FleetRule):
    """IPsec protects a pseudowire at one end and not at the other.

    ## What it does
    For two ends paired on evidence (see "pairing" in the docs), decides for each, as L2T024 does
    but for any peer address, whether its packets leave under IPsec (`tunnel protection`, or a
    crypto map entry whose access list permits them) or in clear (no crypto map on the way out,
    or one that does not match them). Flags the end that sends in clear when the other end
    encrypts. An end l2tpgen cannot judge (a dynamic map, an object group, no known way out) is
    not compared.

    ## Why is this bad?
    Half the traffic crosses the WAN in clear, and the pseudowire breaks: the encrypting end
    expects its crypto ACL's traffic to arrive protected and drops what arrives in clear (inbound
    packets that match a crypto ACL but arrive unprotected are discarded: Cisco Press, "31 Days
    Before Your CCNA Security Exam", crypto ACLs).

    ## Use instead
    The same protection at both ends: a crypto map at each end whose access lists mirror each other
    (`permit 115 host A host B` here, `permit 115 host B host A` there).
    """

    code = "L2T107"
    name = "ipsec-at-one-end-only"
    severity = Severity.ERROR

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        seen: set[frozenset[tuple[str, int]]] = set()
        for link in pairing.links:
            if link.mirror is None or link.other is None:
                continue
            ends = (link.end, link.mirror)
            key = frozenset((e.device.file, e.xconnect.at.line) for e in ends)
            if key in seen:
                continue
            seen.add(key)
            ways = [way_out(e.device, e.xconnect) for e in ends]
            states = [_ENCRYPTED.get(w.state) for w in ways]
            if sorted(s for s in states if s is not None) != [False, True]:
                continue
            clear = states.index(False)
            end, other = ends[clear], ends[1 - clear]
            yield self._finding(end, other, ways[clear].why)

    def _finding(self, end: End, other: End, why: str) -> Finding:
        xc = end.xconnect
        return self.finding(
            end.device.file,
            xc.at,
            f"VC ID {xc.vc_id}: {other.device.file} encrypts this pseudowire with IPsec, but "
            f"here it leaves in clear ({why})",
            "protect it here too: a crypto map on the way out whose access list mirrors the "
            "other end's",
        )
