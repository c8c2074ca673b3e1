"""l2tpgen: build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites.

The public API is named here; everything else is an implementation detail.
"""

from l2tpgen.errors import (
    FleetValidationError,
    L2tpgenError,
    ModelError,
    RenderError,
    SecretError,
)
from l2tpgen.model import Fleet, Problem, Site, load_fleet
from l2tpgen.mtu import Encapsulation, OverheadBudget, overhead_budget
from l2tpgen.render import render_site

__version__ = "0.1.0"

__all__ = [
    "Encapsulation",
    "Fleet",
    "FleetValidationError",
    "L2tpgenError",
    "ModelError",
    "OverheadBudget",
    "Problem",
    "RenderError",
    "SecretError",
    "Site",
    "__version__",
    "load_fleet",
    "overhead_budget",
    "render_site",
]
