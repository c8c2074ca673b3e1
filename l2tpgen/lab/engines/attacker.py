"""The independent attacker's run and judges: the lab as rendered, and its control, in one VM.

Two copies of the lab are set up side by side in one guest: the **protected** one runs every
command l2tpgen rendered, the xfrm policies included, from the start (as a PE's script runs at
boot); the **control** is the same with every ``action block`` xfrm policy left out. In each, in
order (``adversary.py``): the boot phase (no IKE daemon), charon started and IKEv2 initiated,
the forgeries at steady state, a graceful restart of the attacked PE's charon, then a crash.

A check passes when the protected copy lets 0 through and the control more than 0: the control
shows that the attack, the sender and the counting work, so a 0 is the protection's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from l2tpgen.lab.adversary import (
    SENT,
    XFRM_STAT,
    Aim,
    aim,
    boot_probes,
    forge_probes,
    near_address,
    outage_probes,
    watched,
)
from l2tpgen.lab.attack import watch_counts, xfrm_stats
from l2tpgen.lab.engines.guest import GuestLab
from l2tpgen.lab.engines.vm import guest_extras, run_guest, setup_extras, xfrm_extras
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.probes import CheckResult, Probe
from l2tpgen.lab.security import (
    _CHILDREN,
    _initiate,
    protection,
    reveal_secrets,
    start_charon,
    swanctl_text,
)
from l2tpgen.lab.strongswan import protection_extras

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.lab.inputs import Lab

CONTROL, PROTECTED = "control", "protected"
_BLOCK = re.compile(r"^(?:ip (?:-6 )?xfrm policy (?:add|update) .*\baction block\b|nft )")


def without_blocks(lab: Lab) -> Lab:
    """The control: the lab with every ``action block`` xfrm policy and the binding left out."""
    nodes = tuple(
        replace(node, exec=tuple(c for c in node.exec if not _BLOCK.match(c))) for node in lab.nodes
    )
    return replace(lab, nodes=nodes)


def _restart(lab: Lab, pe: str) -> str:
    return 'rm -f "$L2TPGEN_TMP/charon.vici"\n' + start_charon(swanctl_text(lab.node(pe)))


def _initiate_all(lab: Lab, pe: str) -> str:
    children = dict.fromkeys(_CHILDREN.findall(swanctl_text(lab.node(pe))))
    return " && ".join(_initiate(child) for child in children)


def attack_probes(lab: Lab, a: Aim, prefix: str) -> tuple[Probe, ...]:
    """Every phase's probes, in order, for one copy of the lab."""
    ipsec = sorted(n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec")
    near = dict.fromkeys(p.near.pe for p in pairs(lab) if {p.near.pe, p.far.pe} <= set(ipsec))
    boot_ce = watched(a, "boot", sentinel=False)
    steady_ce = watched(a, "steady")
    return (
        *boot_probes(a),
        boot_ce[0],
        *forge_probes(a, "boot", prefix),
        boot_ce[1],
        *(Probe(f"adv.charon.{pe}", pe, _restart(lab, pe), phase="start") for pe in ipsec),
        *(Probe(f"adv.initiate.{pe}", pe, _initiate_all(lab, pe)) for pe in near),
        Probe("adv.steady.reach", a.pair.far.node, f"ping -c 3 -W 3 {near_address(a)}"),
        steady_ce[0],
        Probe("adv.steady.xfrm.before", a.pe, XFRM_STAT, "out"),
        *forge_probes(a, "steady", prefix),
        steady_ce[1],
        Probe("adv.steady.xfrm.after", a.pe, XFRM_STAT, "out"),
        *outage_probes(a, "restart", "TERM", _restart(lab, a.pe), _initiate_all(lab, a.pe)),
        *outage_probes(a, "crash", "KILL", _restart(lab, a.pe), _initiate_all(lab, a.pe)),
    )


@dataclass(frozen=True)
class Phase:
    """What one copy of the lab measured in one phase of forgeries."""

    sent: dict[str, tuple[str, int]]  # marker label -> (destination, frames sent)
    delivered: dict[str, int]  # marker label -> frames the CE got

    def total(self, kinds: str) -> tuple[int, int]:
        """(delivered, sent) over the labels whose kind letter is in ``kinds``."""
        chosen = [label for label in self.sent if label[0] in kinds]
        return (
            sum(max(self.delivered.get(label, 0), 0) for label in chosen),
            sum(self.sent[label][1] for label in chosen),
        )

    def by_destination(self, kinds: str) -> dict[str, int]:
        """Frames delivered per destination over the chosen kinds (every variant)."""
        found: dict[str, int] = {}
        for label, (destination, _) in self.sent.items():
            if label[0] in kinds:
                found[destination] = found.get(destination, 0) + max(
                    self.delivered.get(label, 0), 0
                )
        return found


def phase_figures(results: Mapping[str, str], phase: str) -> Phase:
    """The labels sent (``send`` and the mixed probes) and what the CE counted."""
    sent: dict[str, tuple[str, int]] = {}
    for line in results.get(f"adv.{phase}.send", "").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith(phase) and parts[2].isdigit():  # noqa: PLR2004
            sent[parts[0][len(phase) :]] = (parts[1], int(parts[2]))
    counts = watch_counts(results.get(f"adv.{phase}.ce", ""))
    prefix = f"hit:PWZ{phase}"
    delivered = {k[len(prefix) :]: v for k, v in counts.items() if k.startswith(prefix)}
    for label in delivered:
        if label.startswith("x"):
            sent.setdefault(label, ("mixed", SENT))
    return Phase(sent, delivered)


def clear_packets(results: Mapping[str, str], phase: str) -> int:
    """L2TPv3 packets between the IPsec pair's tunnel addresses on the PE's WAN link."""
    return watch_counts(results.get(f"adv.{phase}.wan", "")).get("l2tp_pair", -1)


def xfrm_deltas(results: Mapping[str, str], phase: str) -> str:
    """The PE's xfrm block counters that moved in ``phase`` (``XfrmInPolBlock +5``)."""
    before = xfrm_stats(results.get(f"adv.{phase}.xfrm.before", ""))
    after = xfrm_stats(results.get(f"adv.{phase}.xfrm.after", ""))
    moved = [
        f"{name} +{after[name] - before.get(name, 0)}"
        for name in sorted(after)
        if name.endswith("PolBlock") and after[name] != before.get(name, 0)
    ]
    return ", ".join(moved) or "no xfrm block counted"


def _pings(results: Mapping[str, str], phase: str) -> str:
    found = re.search(r"(\d+) packets transmitted, (\d+) received", results.get(phase, ""))
    return f"{found.group(2)}/{found.group(1)} answered" if found else "no ping figures"


def _places(figures: Phase, kinds: str) -> str:
    return ", ".join(f"{d} {n}" for d, n in figures.by_destination(kinds).items()) or "none"


def _judge_steady(
    a: Aim, protected: Mapping[str, str], control: Mapping[str, str], dead: str
) -> Iterator[CheckResult]:
    """The forgeries at steady state: to what a neighbour finds, and to every PE address."""
    alive = not dead
    for name, kinds, what in (
        ("attack-discovered", "debBmM", "to what a WAN neighbour finds"),
        ("attack-every-address", "af", "to every address the PE holds"),
    ):
        p, c = phase_figures(protected, "steady"), phase_figures(control, "steady")
        (pd, ps), (cd, cs) = p.total(kinds), c.total(kinds)
        ok = alive and ps > 0 and pd == 0 and cd > 0
        detail = (
            f"forged frames {what} (session {a.session}, IPv4 and IPv6, with and without cookie "
            f"and sublayer): {pd}/{ps} reached {a.pair.far.node} ({_places(p, kinds)}; "
            f"{xfrm_deltas(protected, 'steady')}); "
            f"control without the block policies: {cd}/{cs} ({_places(c, kinds)})"
        )
        yield CheckResult(name, a.pair.vlan, f"wan->{a.pe}", ok, detail + dead)


def _judge_boot(
    a: Aim, protected: Mapping[str, str], control: Mapping[str, str], dead: str
) -> CheckResult:
    """The boot phase: no clear L2TPv3 on the WAN and no forgery delivered before IKE."""
    p, c = phase_figures(protected, "boot"), phase_figures(control, "boot")
    (pd, ps), (cd, cs) = p.total("debBmMaf"), c.total("debBmMaf")
    pc, cc = clear_packets(protected, "boot"), clear_packets(control, "boot")
    ok = not dead and ps > 0 and pd == 0 and pc == 0 and cd > 0 and cc > 0
    detail = (
        f"script applied, no IKE daemon: {pc} clear L2TPv3 packets on the WAN while "
        f"{a.pair.far.node} pinged ({_pings(protected, 'adv.boot.ping')}), forgeries {pd}/{ps} "
        f"delivered; control: {cc} clear, {cd}/{cs} delivered"
    )
    return CheckResult("attack-boot", a.pair.vlan, f"wan->{a.pe}", ok, detail + dead)


def _judge_outages(
    a: Aim, protected: Mapping[str, str], control: Mapping[str, str]
) -> Iterator[CheckResult]:
    """The restart and the crash of charon: no clear L2TPv3 on the WAN, and the pseudowire back."""
    for phase, what in (("restart", "SIGTERM and start"), ("crash", "SIGKILL and start")):
        pc, cc = clear_packets(protected, phase), clear_packets(control, phase)
        back = protected.get(f"adv.{phase}.back") == "0"
        # a crash leaves the kernel's SAs and policies: its control may well be 0 too; the
        # graceful restart's control shows that the count works
        ok = pc == 0 and back and (cc > 0 if phase == "restart" else cc >= 0)
        detail = (
            f"charon on {a.pe} {what} while {a.pair.far.node} pinged across: {pc} clear L2TPv3 "
            f"packets on the WAN ({_pings(protected, f'adv.{phase}.ping')}, "
            f"{'answering again' if back else 'NOT answering again'}; "
            f"{xfrm_deltas(protected, phase)}); control: {cc} clear"
        )
        yield CheckResult(f"attack-{phase}", a.pair.vlan, f"wan->{a.pe}", ok, detail)


def _judge_mixed(
    a: Aim, protected: Mapping[str, str], control: Mapping[str, str], dead: str
) -> CheckResult:
    """The clear peer, and whoever spoofs it, kept out of the IPsec session."""
    p, c = phase_figures(protected, "steady"), phase_figures(control, "steady")
    guessed = [f"x{w}{t}{s}" for w in "ps" for t in "no" for s in "ns"]
    pd = sum(max(p.delivered.get(label, 0), 0) for label in guessed)
    right = [max(c.delivered.get(f"x{w}r", 0), 0) for w in "ps"]
    pr = [max(p.delivered.get(f"x{w}r", 0), 0) for w in "ps"]
    ok = not dead and pd == 0 and min(right) > 0
    detail = (
        f"from the clear peer {a.clear_peer} ({a.clear_address}) and spoofed from the WAN, "
        f"to session {a.session} on {a.tunnel}, with no cookie or the peer's own: "
        f"{pd}/{len(guessed) * SENT} reached {a.pair.far.node}; with the session's right "
        f"cookie (never sent in clear): {pr[0]}/{SENT} and {pr[1]}/{SENT}; control: "
        f"{right[0]}/{SENT} and {right[1]}/{SENT}"
    )
    return CheckResult("attack-mixed", a.pair.vlan, f"wan->{a.pe}", ok, detail + dead)


def judge(a: Aim, protected: Mapping[str, str], control: Mapping[str, str]) -> list[CheckResult]:
    """The verdicts: each 0 in the protected copy and more than 0 in the control."""
    # a 0 counts only if the pseudowire works: a session that was never created delivers nothing
    alive = protected.get("adv.steady.reach") == "0"
    dead = "" if alive else f"; the pseudowire did NOT answer at steady state ({a.pe})"
    out = [*_judge_steady(a, protected, control, dead), _judge_boot(a, protected, control, dead)]
    out += _judge_outages(a, protected, control)
    if a.clear_peer is not None:
        out.append(_judge_mixed(a, protected, control, dead))
    return out


@dataclass(frozen=True)
class AttackReport:
    """The attack checks' verdicts, the set-up errors, the VM's wall time."""

    results: tuple[CheckResult, ...]
    setup_errors: tuple[str, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """Every check passed and the set-up ran cleanly."""
        return bool(self.results) and all(r.ok for r in self.results) and not self.setup_errors


def run_attacks(lab: Lab, *, timeout: float = 600) -> AttackReport:
    """Both copies of ``lab`` (secrets throwaway) in one VM, attacked; their verdicts."""
    lab = reveal_secrets(lab)
    control = without_blocks(lab)
    a = aim(lab)
    guests = [
        GuestLab(lab, attack_probes(lab, a, "p-"), "p-"),
        GuestLab(control, attack_probes(control, a, "c-"), "c-"),
    ]
    extras = guest_extras(xfrm_extras, protection_extras, *setup_extras(lab))  # nft: a hub
    run = run_guest(guests, timeout=timeout, extras=extras)
    protected, unprotected = run.labs
    errors = tuple(f"{CONTROL}: {e}" for e in unprotected.setup_errors)
    return AttackReport(
        tuple(judge(a, protected.results, unprotected.results)),
        (*protected.setup_errors, *errors),
        run.seconds,
    )
