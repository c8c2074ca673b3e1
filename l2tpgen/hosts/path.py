"""The network path between two sites as the hosts see it, and the arithmetic the advice rests on.

* Bandwidth-delay product: ``BDP = bandwidth x RTT / 8`` bytes, the data a sender must have in
  flight to fill the path (10 Gb/s x 55 ms = 68 750 000 B, about 66 MiB).
* Mathis bound: a loss-based congestion control (Reno, Cubic) averages at most
  ``MSS / RTT x 1.22 / sqrt(loss)`` (Mathis et al., 1997): at 55 ms and 1 % loss with a 1422-byte
  MSS that is about 2.5 Mb/s, whatever the link's speed. The lab measured about 3 Mb/s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from l2tpgen.errors import L2tpgenError

MIB = 1 << 20
MATHIS_CONSTANT = 1.22  # sqrt(3/2): periodic loss, delayed ACKs off (Mathis et al. 1997)
MAX_BANDWIDTH = 10**13  # 10 Tb/s: beyond this the input is a typo


class HostsInputError(L2tpgenError):
    """A path or workload given to the host advice is impossible (negative, over 100 % loss...)."""


@dataclass(frozen=True)
class NetworkPath:
    """What the hosts' traffic crosses: bandwidth (bit/s), round-trip time (ms), loss (0..1)."""

    bandwidth_bps: int
    rtt_ms: float
    loss: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.bandwidth_bps <= MAX_BANDWIDTH:
            raise HostsInputError(
                f"bandwidth must be above 0 and at most 10 Tb/s, not {self.bandwidth_bps} bit/s"
            )
        if not 0 < self.rtt_ms <= 10_000:  # noqa: PLR2004 - 10 s: beyond it the input is a typo
            raise HostsInputError(f"RTT must be above 0 and at most 10000 ms, not {self.rtt_ms}")
        if not 0 <= self.loss < 1:
            raise HostsInputError(
                f"loss is a fraction from 0 up to (not including) 1, not {self.loss}"
            )

    @property
    def bdp_bytes(self) -> int:
        """Bandwidth-delay product in bytes, rounded up."""
        return math.ceil(self.bandwidth_bps * self.rtt_ms / 1000 / 8)

    def mathis_bps(self, mss: int) -> float:
        """The most a loss-based congestion control averages on this path (inf without loss)."""
        if self.loss == 0:
            return math.inf
        return mss * 8 / (self.rtt_ms / 1000) * MATHIS_CONSTANT / math.sqrt(self.loss)

    def describe(self) -> str:
        """``10 Gb/s, 55 ms RTT, 1 % loss``."""
        return f"{rate(self.bandwidth_bps)}, {self.rtt_ms:g} ms RTT, {self.loss * 100:g} % loss"


def rate(bps: float) -> str:
    """A bit rate for people: ``10 Gb/s``, ``2.5 Mb/s``."""
    for unit, scale in (("Tb/s", 1e12), ("Gb/s", 1e9), ("Mb/s", 1e6), ("kb/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:.3g} {unit}"
    return f"{bps:.3g} b/s"


def size(nbytes: int) -> str:
    """A byte count for people: ``64 MiB``, ``62 500 B``."""
    if nbytes >= MIB and nbytes % MIB == 0:
        return f"{nbytes // MIB} MiB"
    return f"{nbytes:,} B".replace(",", " ")


def power_of_two(nbytes: float) -> int:
    """The smallest power of two holding ``nbytes`` (a window size), in bytes."""
    return 1 << max(0, math.ceil(nbytes) - 1).bit_length()


def power_of_two_mib(nbytes: float) -> int:
    """The smallest power-of-two number of MiB (1, 2, 4 ...) holding ``nbytes``, in bytes."""
    mib = max(1, math.ceil(nbytes / MIB))
    return (1 << (mib - 1).bit_length()) * MIB
