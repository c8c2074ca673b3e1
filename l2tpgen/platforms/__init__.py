"""Platforms, the way hier_config has them: one driver per platform holds what differs.

A site's platform (``platform:``, or ``management.device_type``) picks its driver: how the site
is rendered (and in which formats), which hier_config platform diffs it, how a router saves and
where its file system is, which show commands report its pseudowires, which lint rules apply,
whether push and the simulator handle it, and the traits the model, the importer, the lab and
the CLI read (``Driver``). A new platform is one driver module plus its templates and tests:
each module of this package lists its ``DRIVERS`` and is found here; the model's ``platform``
and ``device_type`` values, the CLI's choices and the lab's node kinds are built from
``DRIVERS``, and no module outside this package names a platform
(tests/test_platform_registry.py).
"""

from __future__ import annotations

import importlib
import pkgutil

from l2tpgen.platforms.base import Driver
from l2tpgen.platforms.ios import IOS


def _discover() -> dict[str, Driver]:
    """Every driver module of this package (each lists its ``DRIVERS``), in module name order."""
    found: dict[str, Driver] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if module != "base":
            drivers: tuple[Driver, ...] = importlib.import_module(f"{__name__}.{module}").DRIVERS
            found.update((d.name, d) for d in drivers)
    return found


DRIVERS: dict[str, Driver] = _discover()
NAMES: tuple[str, ...] = tuple(DRIVERS)
DEFAULT = IOS.name  # a site that states neither ``platform`` nor ``management.device_type``
# netmiko's device type of each platform, and the other way round.
DEVICE_TYPES: dict[str, str] = {d.name: d.device_type for d in DRIVERS.values()}
BY_DEVICE_TYPE: dict[str, str] = {d.device_type: d.name for d in DRIVERS.values()}


def driver(platform: str) -> Driver:
    """The driver of a platform name (one of ``NAMES``).

    Raises:
        KeyError: an unknown platform (the model only admits ``NAMES``).
    """
    return DRIVERS[platform]


def linted(lint_platform: str | None) -> Driver:
    """The driver whose configs the linter reads as ``lint_platform`` (None: the default's).

    Raises:
        KeyError: no driver is linted as that.
    """
    if lint_platform is None:
        return DRIVERS[DEFAULT]
    return next(d for d in DRIVERS.values() if d.lint_platform == lint_platform)


def simulated() -> tuple[str, ...]:
    """The platforms the simulator has a router flavor for."""
    return tuple(d.name for d in DRIVERS.values() if d.simulated)


def lab_platform(kind: str) -> str:
    """The platform a lab PE node of containerlab ``kind`` runs (the first that is its own plane).

    Raises:
        KeyError: no driver runs on that kind of node.
    """
    for found in DRIVERS.values():
        if found.lab_kind == kind and found.lab_platform == found.name:
            return found.name
    raise KeyError(kind)


__all__ = [
    "BY_DEVICE_TYPE",
    "DEFAULT",
    "DEVICE_TYPES",
    "DRIVERS",
    "NAMES",
    "Driver",
    "driver",
    "lab_platform",
    "linted",
    "simulated",
]
