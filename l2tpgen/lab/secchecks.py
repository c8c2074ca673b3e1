"""The protection checks' judges: figures from the attacks of both phases, and verdicts.

Each check compares the protected phase with the control (``security.py`` runs both): a
protection check passes only when the control shows the attack works on an unprotected
pseudowire and the protection stops it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.attack import FORGED, PINGS, REPLAYED, Attacked, watch_counts, xfrm_stats
from l2tpgen.lab.probes import CheckResult, Probe

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.pairs import Pair

PHASES = ("control", "protected")


def _int(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else -1


@dataclass(frozen=True)
class Figures:
    """What one phase of the attacks measured."""

    own: int
    spoofed: int
    forged_sent: int
    wan_l2tp: int
    wan_esp: int
    wan_hits: int
    replies: int
    far_hits: int
    pings_delivered: int
    saved: int
    replay_sent: int
    xfrm: dict[str, int]

    @property
    def replayed_delivered(self) -> int:
        """Copies of the pings' pattern the far CE got after the pings: replays delivered."""
        return self.far_hits


def figures(attacked: Attacked, phase: str, results: Mapping[str, str]) -> Figures:
    """One phase's figures from its probes' results."""
    k, m = attacked.key(phase), attacked.markers(phase)
    far = watch_counts(results.get(f"{k}.far", ""))
    delivered = watch_counts(results.get(f"{k}.far.traffic", "")).get(f"hit:{m['pattern']}", -1)
    wan = watch_counts(results.get(f"{k}.wan", ""))
    before = xfrm_stats(results.get(f"{k}.xfrm.before", ""))
    after = xfrm_stats(results.get(f"{k}.xfrm.after", ""))
    sent = [_int(r"sent (\d+)", results.get(f"{k}.forge.{w}", "")) for w in ("own", "spoofed")]
    return Figures(
        own=far.get(f"hit:{m['own']}", -1),
        spoofed=far.get(f"hit:{m['spoofed']}", -1),
        forged_sent=min(sent),
        wan_l2tp=wan.get("l2tp_pair", wan.get("l2tp", -1)),
        wan_esp=wan.get("esp_pair", wan.get("esp", -1)),
        wan_hits=wan.get(f"hit:{m['pattern']}", -1) + wan.get(f"sent:{m['pattern']}", 0),
        replies=_int(r"(\d+) (?:packets )?received", results.get(f"{k}.traffic", "")),
        far_hits=far.get(f"hit:{m['pattern']}", -1),
        pings_delivered=delivered,
        saved=wan.get("saved", 0),
        replay_sent=_int(r"sent (\d+)", results.get(f"{k}.replay", "")),
        xfrm={
            name: after[name] - before.get(name, 0)
            for name in after
            if after[name] != before.get(name, 0)
        },
    )


def _xfrm(found: Figures) -> str:
    return ", ".join(f"{name} +{delta}" for name, delta in sorted(found.xfrm.items())) or "none"


@dataclass(frozen=True)
class _AttackCheck:
    """What the security checks share: the pair attacked, and no probe of their own.

    The security plan runs the attacks in sequence; each check judges its part of the results.
    """

    attacked: Attacked

    @property
    def pair(self) -> Pair:
        """The pair attacked."""
        return self.attacked.pair

    @property
    def probes(self) -> tuple[Probe, ...]:
        """None of its own."""
        return ()


@dataclass(frozen=True)
class Injection(_AttackCheck):
    """Forged frames with the right session ID and cookie reach the far CE 0 times."""

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
            f"{t.far_pe} xfrm counters: {_xfrm(p)}"
        )
        return CheckResult("injection", self.pair.vlan, self.pair.sites, ok, detail)


@dataclass(frozen=True)
class Capture(_AttackCheck):
    """A WAN capture during traffic holds no clear L2TPv3 and no payload pattern."""

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


@dataclass(frozen=True)
class Replay(_AttackCheck):
    """A captured packet sent again is not delivered."""

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
            f"delivered to {self.pair.far.node} ({_xfrm(p)}); control: a clear L2TPv3 packet "
            f"sent again {c.replay_sent} times: {control}"
        )
        if not p.saved or not c.saved:
            detail = f"nothing captured to replay (protected {p.saved}, control {c.saved})"
        return CheckResult("replay", self.pair.vlan, self.pair.sites, ok, detail)


@dataclass(frozen=True)
class Ike(_AttackCheck):
    """strongSwan negotiated IKEv2 and installed a transport-mode CHILD SA on both PEs."""

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
