"""The simulated IOS router: an SSH server netmiko drives as it drives a real router."""

from l2tpgen.sim.faults import FaultError, Faults, parse_faults
from l2tpgen.sim.flavor import FLAVORS, Flavor
from l2tpgen.sim.fleet import SimFleet, SimSpec
from l2tpgen.sim.router import Router
from l2tpgen.sim.server import Credentials, SimDevice

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
