"""What a VLAN carries (``vlans[].carries``): the names the model, the lab and host advice share.

A module of its own so the model and the CLI read the names without importing host advice.
"""

from __future__ import annotations

from typing import Literal, get_args

Workload = Literal["cluster-heartbeat", "live-migration", "storage", "general"]
WORKLOADS: tuple[Workload, ...] = get_args(Workload)
