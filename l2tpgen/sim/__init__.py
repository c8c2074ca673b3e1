"""The simulated IOS router: an SSH server netmiko drives as it drives a real router.

The names below are imported when first used (PEP 562): ``l2tpgen.sim.lifecycle`` (which
simulators run, read by every command that looks for one) must not pull in asyncssh, the ``sim``
extra, which a plain install lacks.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.sim.faults import FaultError, Faults, parse_faults
    from l2tpgen.sim.flavor import FLAVORS, Flavor
    from l2tpgen.sim.fleet import SimFleet, SimSpec
    from l2tpgen.sim.router import Router
    from l2tpgen.sim.server import Credentials, SimDevice

_HOMES = {
    "FLAVORS": "flavor",
    "Credentials": "server",
    "FaultError": "faults",
    "Faults": "faults",
    "Flavor": "flavor",
    "Router": "router",
    "SimDevice": "server",
    "SimFleet": "fleet",
    "SimSpec": "fleet",
    "parse_faults": "faults",
}

__all__ = [
    "FLAVORS",
    "Credentials",
    "FaultError",
    "Faults",
    "Flavor",
    "Router",
    "SimDevice",
    "SimFleet",
    "SimSpec",
    "parse_faults",
]


def __getattr__(name: str) -> object:
    """The package's names, each imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
