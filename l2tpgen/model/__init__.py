"""Site models, YAML loading with line numbers, and fleet cross-validation."""

from l2tpgen.model.fleet import Fleet
from l2tpgen.model.load import load_fleet, load_sites, resolve_site
from l2tpgen.model.port_mode import KeptPort
from l2tpgen.model.problems import Location, Problem
from l2tpgen.model.pseudowire import Pseudowire
from l2tpgen.model.site import (
    HoldQueue,
    L2tpClass,
    Lan,
    Loopback,
    Management,
    PseudowireClass,
    Site,
    Vlan,
    Wan,
)

__all__ = [
    "Fleet",
    "HoldQueue",
    "KeptPort",
    "L2tpClass",
    "Lan",
    "Location",
    "Loopback",
    "Management",
    "Problem",
    "Pseudowire",
    "PseudowireClass",
    "Site",
    "Vlan",
    "Wan",
    "load_fleet",
    "load_sites",
    "resolve_site",
]
