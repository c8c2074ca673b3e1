"""The ``capture`` protection check: no clear L2TPv3 and no payload pattern on the WAN."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.attack import PINGS
from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.secchecks import PHASES, AttackCheck, figures

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Capture(AttackCheck):
    """A WAN capture during traffic holds no clear L2TPv3 and no payload pattern.

    The WAN router captures its link to the far PE during 3 pings carrying a payload pattern:
    0 clear L2TPv3 packets between the pair's tunnel addresses and 0 pattern hits (and some
    ESP) when protected; some of both in the control.
    """

    name = "capture"
    order = 20

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """0 clear packets and 0 hits (and ESP seen) protected; some of both in the control."""
        c, p = (figures(self.attacked, phase, results) for phase in PHASES)
        t = self.attacked.target
        ok = p.replies > 0 and p.wan_l2tp == 0 and p.wan_hits == 0 and p.wan_esp > 0
        ok = ok and c.wan_l2tp > 0 and c.wan_hits > 0
        detail = (
            f"{t.wan} {t.wan_interface} during {PINGS} pings ({p.replies} answered): "
            f"{p.wan_l2tp} clear L2TPv3 packets between {t.near_address} and {t.far_address}, "
            f"{p.wan_hits} payload-pattern hits, {p.wan_esp} ESP packets; control: "
            f"{c.wan_l2tp} clear L2TPv3, {c.wan_hits} hits"
        )
        return CheckResult("capture", self.pair.vlan, self.pair.sites, ok, detail)


CHECKS = (Capture,)
