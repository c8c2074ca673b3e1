"""What the protection checks share: the attacks of both phases, their figures, and N/A.

The checks (``lab/checks/injection.py``, ``capture.py``, ``replay.py``, ``ike.py``) each judge
their part of one attack run: the control (``before`` stage, the lab set up without its
protection) and the protected phase (``after`` stage, once the usual checks ran over ESP).
Each compares the protected phase with the control: a protection check passes only when the
control shows the attack works on an unprotected pseudowire and the protection stops it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from l2tpgen.lab.attack import Attacked, watch_counts, xfrm_stats
from l2tpgen.lab.checks.base import ProtectionCheck
from l2tpgen.lab.security import is_protected
from l2tpgen.lab.strongswan import protection_extras

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.checks.base import Runner, Stage
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair
    from l2tpgen.lab.probes import Probe

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


def xfrm_moved(found: Figures) -> str:
    """The xfrm counters that moved in a phase: ``XfrmInPolBlock +5, ...`` (``none``)."""
    return ", ".join(f"{name} +{delta}" for name, delta in sorted(found.xfrm.items())) or "none"


@dataclass(frozen=True)
class AttackCheck(ProtectionCheck):
    """What the attack checks share: the pair attacked, the attacks' two phases as probes.

    Each check of a pair names the same attack run (the registry keeps each probe once); each
    judges its part of the results.
    """

    extras = (protection_extras,)
    never: ClassVar[Mapping[Runner, str]] = {
        "live": "it needs the lab as it was before protection (`lab run` attacks it)",
        "containerlab": "the containerlab nodes' image has no strongSwan (use --engine vm)",
    }

    attacked: Attacked

    @classmethod
    def applies(cls, lab: Lab, runner: Runner) -> str | None:
        """On a lab some PE of which runs IPsec (``l2tpgen.protection: ipsec``)."""
        never = super().applies(lab, runner)
        if never is not None:
            return never
        return None if is_protected(lab) else "no PE runs IPsec (no l2tpgen.protection: ipsec)"

    @classmethod
    def for_attacked(cls, lab: Lab, attacked: Attacked) -> AttackCheck:  # noqa: ARG003
        """The check of the ``attacked`` pair."""
        return cls(attacked)

    @property
    def pair(self) -> Pair:
        """The pair attacked."""
        return self.attacked.pair

    def staged(self, stage: Stage) -> tuple[Probe, ...]:
        """The control attacks before protection, the same attacks after the usual checks."""
        phase = {"before": "control", "after": "protected"}.get(stage)
        return self.attacked.probes(phase) if phase else ()
