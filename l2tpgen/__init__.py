"""l2tpgen: build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites.

The public API is named here and in ``l2tpgen.api`` (one function per command, typed results:
``docs/api.md``); everything else is an implementation detail. The model and the renderer are
imported on first use, so that ``l2tpgen --version`` (which imports this package)
does not pay for pydantic and jinja2.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from l2tpgen.errors import (
    FleetValidationError,
    L2tpgenError,
    ModelError,
    RenderError,
    SecretError,
)
from l2tpgen.mtu import Encapsulation, OverheadBudget, overhead_budget

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Problem, Site, load_fleet, load_sites
    from l2tpgen.platforms.render import render_site

__version__ = "0.1.0"

_LAZY = {
    "Fleet": "l2tpgen.model",
    "Problem": "l2tpgen.model",
    "Site": "l2tpgen.model",
    "load_fleet": "l2tpgen.model",
    "load_sites": "l2tpgen.model",
    "render_site": "l2tpgen.platforms.render",
}

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
    "load_sites",
    "overhead_budget",
    "render_site",
]


def __getattr__(name: str) -> object:
    """Import the model or the renderer when one of their names is first used."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'l2tpgen' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
