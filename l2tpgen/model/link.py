"""The path between two sites and what a stretched VLAN carries (both optional).

A ``peers`` entry may state its ``link``: the bandwidth, round-trip time and loss the hosts' traffic
meets between the two sites. Either end may state it; if both do they must agree (``checks.py``),
and one statement applies to the pair. A VLAN may say what it ``carries``; again either end, or
both alike. ``l2tpgen hosts`` turns them into host settings, the linter into warnings about known
failures, and ``lab build`` into WAN shaping and workload labels.

Units are written as ``tc`` writes them: ``10Gbit``, ``500Mbit`` (or ``Gb/s``), or a plain number
of bit/s. ``bps`` is refused: ``tc`` reads it as *bytes* per second.
"""

from __future__ import annotations

import math
import re
from typing import Annotated

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from l2tpgen.hosts.path import rate
from l2tpgen.model.base import StrictModel

MIN_BANDWIDTH = 1_000  # 1 kbit/s: the lab's smallest rate; a bare 10 is a unit left out
MAX_BANDWIDTH = 10**12  # 1 Tbit/s: the lab's largest rate, far beyond any pseudowire
MAX_RTT_MS = 10_000.0
BANDWIDTH_ERROR = "link_bandwidth"
LOSS_ERROR = "link_loss"
_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
# "bit" in any case, as tc reads it; "b/s" with a small b only: "B/s" is bytes.
_BANDWIDTH = re.compile(r"(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:(?i:bit)(?:/s)?|b/s)")
_BYTES = re.compile(r"\d+(?:\.\d+)?\s*[kKmMgGtT]?(?:(?i:bps|byte)|B/s)")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def _bandwidth(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PydanticCustomError(BANDWIDTH_ERROR, "write a rate such as 10Gbit or 500Mbit")
    if isinstance(value, str):
        text = value.strip()
        match = _BANDWIDTH.fullmatch(text)
        if match is None:
            if _BYTES.fullmatch(text):
                raise PydanticCustomError(
                    BANDWIDTH_ERROR,
                    "a rate in bytes per second? tc reads `bps` and `B/s` as bytes: write bits, "
                    "as 10Gbit or 500Mbit",
                )
            raise PydanticCustomError(
                BANDWIDTH_ERROR, "write a rate such as 10Gbit or 500Mbit, or a number of bit/s"
            )
        bps = float(match.group(1)) * _UNITS[match.group(2).lower()]
    else:
        bps = float(value)
    if not math.isfinite(bps) or not MIN_BANDWIDTH <= bps <= MAX_BANDWIDTH:
        raise PydanticCustomError(
            BANDWIDTH_ERROR,
            "bandwidth must be from 1kbit to 1Tbit; a plain number is bit/s (did a unit go "
            "missing?)",
        )
    return round(bps)


def _loss(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PydanticCustomError(LOSS_ERROR, 'write the loss as a fraction (0.01) or "1%"')
    if isinstance(value, str):
        match = _PERCENT.fullmatch(value.strip())
        if match is None:
            raise PydanticCustomError(LOSS_ERROR, 'write the loss as a fraction (0.01) or "1%"')
        fraction = float(match.group(1)) / 100
    else:
        fraction = float(value)
    if not (math.isfinite(fraction) and 0 <= fraction < 1):
        raise PydanticCustomError(
            LOSS_ERROR,
            'loss is the fraction of packets lost, from 0 up to (not including) 1: 0.01 or "1%" '
            "is one packet in a hundred",
        )
    return float(f"{fraction:.12g}")  # "1%" and 0.01 compare equal


# Site files write rates and losses as text too ("10Gbit", "1%"): the JSON Schema says so.
Bandwidth = Annotated[int, BeforeValidator(_bandwidth, json_schema_input_type=int | str)]
Loss = Annotated[float, BeforeValidator(_loss, json_schema_input_type=float | str)]


class Link(StrictModel):
    """The path between two sites as the hosts' traffic meets it.

    ``bandwidth`` in bit/s (written ``10Gbit``), ``rtt_ms`` the round-trip time in milliseconds,
    ``loss`` the fraction of packets lost in each direction (written ``0.01`` or ``"1%"``).
    """

    bandwidth: Bandwidth
    rtt_ms: float = Field(gt=0, le=MAX_RTT_MS, strict=True)
    loss: Loss = 0.0

    def describe(self) -> str:
        """``10 Gb/s, 55 ms RTT, 1 % loss``."""
        return f"{rate(self.bandwidth)}, {self.rtt_ms:g} ms RTT, {self.loss * 100:g} % loss"
