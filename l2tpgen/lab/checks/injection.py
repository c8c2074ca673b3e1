"""The ``injection`` protection check: forged frames reach the far CE 0 times."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.attack import FORGED
from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.secchecks import PHASES, AttackCheck, figures, xfrm_moved

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Injection(AttackCheck):
    """Forged frames with the right session ID and cookie reach the far CE 0 times.

    From the WAN router, on the path: 5 forged L2TPv3 frames to the far PE with the right
    session ID (and cookie, as read off the wire) from the attacker's own address and 5 from the
    near PE's address (spoofed); a watcher on the far CE counts them. 0 may arrive when
    protected, and the control (before protection) must show more than 0 of each. A far PE
    labelled ``l2tpgen.inbound-filter: none`` (its platform renders no inbound filter) has the
    own-address half reported N/A with the reason; only the spoofed half is judged.
    """

    name = "injection"
    order = 10

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """0 of each kind protected; more than 0 of each in the control."""
        c, p = (figures(self.attacked, phase, results) for phase in PHASES)
        t = self.attacked.target
        ok = p.forged_sent == c.forged_sent == FORGED and p.spoofed == 0 and c.spoofed > 0
        if t.inbound_filter:
            ok = ok and p.own == 0 and c.own > 0
            own = f"{p.own}/{FORGED} reached {self.pair.far.node}"
        else:  # charon's policies name the peer only: nothing stops the attacker's own address
            own = (
                f"N/A, {t.far_pe} has no inbound filter (its platform renders none; "
                f"`protection.inbound_filter` off), {p.own}/{FORGED} reached {self.pair.far.node}"
            )
        detail = (
            f"forged from the attacker's own address {t.wan_address}: {own}, "
            f"from {t.near_address} (spoofed): {p.spoofed}/{FORGED}; "
            f"control before protection: {c.own}/{FORGED} and {c.spoofed}/{FORGED}; "
            f"{t.far_pe} xfrm counters: {xfrm_moved(p)}"
        )
        return CheckResult("injection", self.pair.vlan, self.pair.sites, ok, detail)


CHECKS = (Injection,)
