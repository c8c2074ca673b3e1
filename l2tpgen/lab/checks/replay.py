"""The ``replay`` protection check: a captured packet sent again is not delivered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.attack import REPLAYED
from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.secchecks import PHASES, AttackCheck, figures, xfrm_moved

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Replay(AttackCheck):
    """A captured packet sent again is not delivered.

    The first captured packet of the pings is sent again 3 times: 0 delivered when protected
    (``XfrmInStateSeqError`` counts them), more than 0 in the control. A session either end of
    which numbers its packets has the clear control reported N/A (each kernel drops a sequence
    number it has seen, ``l2tp_recv_data_seq`` in net/l2tp/l2tp_core.c).
    """

    name = "replay"
    order = 30

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """0 delivered protected; more than 0 in the control; a packet was captured in both."""
        c, p = (figures(self.attacked, phase, results) for phase in PHASES)
        t = self.attacked.target
        ok = p.saved == c.saved == 1 and p.replay_sent == c.replay_sent == REPLAYED
        ok = ok and p.pings_delivered > 0 and p.replayed_delivered == 0
        control = f"{c.replayed_delivered} delivered"
        if t.sequenced:  # the kernel drops a copy's old sequence number, even in clear
            control += (
                " (N/A as a control: the session numbers its packets, and the far kernel drops "
                "a sequence number it has seen, net/l2tp/l2tp_core.c l2tp_recv_data_seq)"
            )
        else:
            ok = ok and c.replayed_delivered > 0
        detail = (
            f"a captured ESP packet sent again {p.replay_sent} times: {p.replayed_delivered} "
            f"delivered to {self.pair.far.node} ({xfrm_moved(p)}); control: a clear L2TPv3 packet "
            f"sent again {c.replay_sent} times: {control}"
        )
        if not p.saved or not c.saved:
            detail = f"nothing captured to replay (protected {p.saved}, control {c.saved})"
        return CheckResult("replay", self.pair.vlan, self.pair.sites, ok, detail)


CHECKS = (Replay,)
