"""The ``ike`` protection check: IKEv2 negotiated, a transport-mode CHILD SA on both PEs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.secchecks import AttackCheck
from l2tpgen.lab.security import status_probes

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.attack import Attacked
    from l2tpgen.lab.checks.base import Stage
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import Probe


@dataclass(frozen=True)
class Ike(AttackCheck):
    """strongSwan negotiated IKEv2 and installed a transport-mode CHILD SA on both PEs.

    ``swanctl --list-sas`` on both PEs of the pair, read last: the IKE SA ESTABLISHED (IKEv2)
    and a CHILD SA INSTALLED in TRANSPORT mode, from the ``swanctl.conf`` l2tpgen rendered.
    """

    name = "ike"
    order = 40

    status: tuple[Probe, ...] = ()  # every IPsec PE's SAs, listed once the attacks are over

    @classmethod
    def for_attacked(cls, lab: Lab, attacked: Attacked) -> Ike:
        """The IKE check of the ``attacked`` pair, with every IPsec PE's SA listing."""
        return cls(attacked, status_probes(lab))

    def staged(self, stage: Stage) -> tuple[Probe, ...]:
        """The SA listings, last (the attacks' probes are the other checks')."""
        return self.status if stage == "last" else ()

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Both PEs list an ESTABLISHED IKEv2 SA and an INSTALLED TRANSPORT CHILD SA."""
        t = self.attacked.target
        states = []
        ok = True
        for pe in (t.near_pe, t.far_pe):
            text = results.get(f"ike.{pe}", "")
            ike = re.search(r"ESTABLISHED, (IKEv2)", text)
            child = re.search(r"INSTALLED, (TRANSPORT), (ESP:\S+)", text)
            proposal = re.search(r"^\s+([A-Z0-9_]+-\d+/PRF\S+)", text, re.MULTILINE)
            ok = ok and bool(ike and child)
            states.append(
                f"{pe}: IKE SA {'ESTABLISHED (IKEv2' if ike else 'NOT established ('}"
                f"{', ' + proposal.group(1) if proposal else ''}), CHILD SA "
                + (f"INSTALLED {child.group(1)} {child.group(2)}" if child else "NOT installed")
            )
        version = re.search(
            r"strongSwan (?:swanctl )?(\d[\w.]*)", results.get(f"ike.{t.near_pe}", "")
        )
        who = f"strongSwan {version.group(1)}" if version else "strongSwan"
        detail = f"{who}, from the swanctl.conf l2tpgen rendered: " + "; ".join(states)
        return CheckResult("ike", self.pair.vlan, self.pair.sites, ok, detail)


CHECKS = (Ike,)
