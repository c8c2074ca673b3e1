"""The WAN's delay, loss and rate as commands.

tc (netem, tbf) for the vm engine, containerlab's own ``tools netem`` for the containerlab engine.
Applied to every interface of the wan node, so each direction between two sites crosses one
shaped egress: the one-way delay is ``delay_ms``, the RTT ``2 x delay_ms``, the loss ``loss_pct``
each way. netem holds the delayed packets (its queue must hold a bandwidth-delay product of them)
and hands them to tbf, which sets the rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

WAN_DELAY, WAN_LOSS, WAN_RATE = (
    "l2tpgen.wan.delay-ms",
    "l2tpgen.wan.loss-pct",
    "l2tpgen.wan.rate-mbit",
)
UNSHAPED_RATE_BPS = 10e9  # what netem's queue must absorb when no rate is set
PACKET = 1500


@dataclass(frozen=True)
class Shaping:
    """What the WAN does to every packet, in each direction."""

    delay_ms: float = 0.0
    loss_pct: float = 0.0
    rate_mbit: float | None = None

    @property
    def active(self) -> bool:
        """Whether there is anything to apply."""
        return bool(self.delay_ms or self.loss_pct or self.rate_mbit)

    def overridden(
        self,
        delay_ms: float | None = None,
        loss_pct: float | None = None,
        rate_mbit: float | None = None,
    ) -> Shaping:
        """This shaping with each value given instead of its own (the lab commands' options)."""
        return Shaping(
            self.delay_ms if delay_ms is None else delay_ms,
            self.loss_pct if loss_pct is None else loss_pct,
            self.rate_mbit if rate_mbit is None else rate_mbit,
        )

    def labels(self) -> dict[str, str]:
        """The wan node's labels for this shaping (none for an untouched WAN)."""
        found = {WAN_DELAY: self.delay_ms, WAN_LOSS: self.loss_pct, WAN_RATE: self.rate_mbit}
        return {key: f"{value:g}" for key, value in found.items() if value}


def netem_limit(shaping: Shaping) -> int:
    """Packets netem may hold: twice what the path has in flight, at least its default 1000."""
    bps = shaping.rate_mbit * 1e6 if shaping.rate_mbit else UNSHAPED_RATE_BPS
    in_flight = bps * shaping.delay_ms / 1000 / 8 / PACKET
    return max(1000, math.ceil(2 * in_flight))


def tc_commands(shaping: Shaping, interfaces: Sequence[str]) -> tuple[str, ...]:
    """``tc qdisc replace`` commands for the wan node (none when nothing is shaped)."""
    if not shaping.active:
        return ()
    netem = ["netem"]
    if shaping.delay_ms:
        netem.append(f"delay {shaping.delay_ms:g}ms")
    if shaping.loss_pct:
        netem.append(f"loss {shaping.loss_pct:g}%")
    netem.append(f"limit {netem_limit(shaping)}")
    commands: list[str] = []
    for interface in interfaces:
        commands.append(f"tc qdisc replace dev {interface} root handle 1: {' '.join(netem)}")
        if shaping.rate_mbit:
            # burst: 10 ms at the rate (tbf needs at least rate / HZ), queue: 50 ms.
            burst = max(16_000, math.ceil(shaping.rate_mbit * 1e6 / 8 / 100))
            commands.append(
                f"tc qdisc replace dev {interface} parent 1:1 handle 10: tbf "
                f"rate {shaping.rate_mbit:g}mbit burst {burst} latency 50ms"
            )
    return tuple(commands)


def clab_netem_commands(
    shaping: Shaping, container: str, interfaces: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    """``containerlab tools netem set`` command lines for the wan node's interfaces."""
    if not shaping.active:
        return ()
    options: list[str] = []
    if shaping.delay_ms:
        options += ["--delay", f"{shaping.delay_ms:g}ms"]
    if shaping.loss_pct:
        options += ["--loss", f"{shaping.loss_pct:g}"]
    if shaping.rate_mbit:
        options += ["--rate", str(math.ceil(shaping.rate_mbit * 1000))]  # kbit/s
    return tuple(
        ("containerlab", "tools", "netem", "set", "-n", container, "-i", interface, *options)
        for interface in interfaces
    )
