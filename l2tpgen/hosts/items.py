"""One item of host advice: where it goes, the value, why, the figures, and when it applies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["sysctl", "interface", "application", "hypervisor", "network"]


@dataclass(frozen=True)
class Advice:
    """One recommendation: where it goes, the value, why, its figures, and when it applies.

    ``takes_effect``: what makes it take effect (at once, new connections, a service restart, a
    VM power cycle...).
    """

    kind: Kind
    setting: str
    value: str
    reason: str
    basis: tuple[str, ...] = ()
    takes_effect: str = ""
