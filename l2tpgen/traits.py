"""The platforms' traits: the ground floor the model, the IOS reader and every layer above read.

A platform is one folder, ``l2tpgen/platforms/<name>/``: its traits as plain data
(``traits.py``, listing its ``TRAITS`` of ``l2tpgen.platforms.traits.Traits``; it imports
nothing above ``l2tpgen.ios`` and ``l2tpgen.errors``), its renderer and templates, bound in
``driver.py``. This module finds
every ``traits.py`` by scanning that folder, so the model keeps a site's platform as a name and
reads what differs from ``DRIVERS`` here, without importing the platforms (nor the renderers they
bind): the layers are errors < ios < traits < model < render < platforms' drivers < lint <
device < lab < cli (``tests/test_layers.py``). No module outside ``l2tpgen/platforms`` names a
platform (``tests/test_platform_registry.py``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from l2tpgen.platforms.traits import InterfaceNames, Traits

if TYPE_CHECKING:
    from types import ModuleType

PLATFORMS = Path(__file__).parent / "platforms"  # one folder per platform


def platform_modules(name: str) -> list[ModuleType]:
    """Every platform folder's module ``name`` (``traits``, ``driver``), imported, in folder order.

    What finds the platforms: no list of them is kept anywhere.
    """
    folders = sorted(p.name for p in PLATFORMS.iterdir() if (p / f"{name}.py").is_file())
    return [importlib.import_module(f"l2tpgen.platforms.{folder}.{name}") for folder in folders]


def platform_tables(name: str, table: str, *, optional: bool = False) -> dict[str, Any]:
    """The dicts named ``table`` of every platform folder's module ``name``, in folder order.

    ``RENDERERS`` and ``STARTS`` of ``driver.py``, ``NEEDS`` of ``needs.py``, merged.

    Raises:
        AttributeError: a module lacks the table (unless ``optional``: it then adds nothing).
    """
    found: dict[str, Any] = {}
    for module in platform_modules(name):
        found.update(getattr(module, table, {}) if optional else getattr(module, table))
    return found


def _discover() -> dict[str, Traits]:
    """Every platform folder's ``traits.py`` (each lists its ``TRAITS``), in folder name order."""
    found: dict[str, Traits] = {}
    for module in platform_modules("traits"):
        listed: tuple[Traits, ...] = module.TRAITS
        found.update((t.name, t) for t in listed)
    return found


DRIVERS: dict[str, Traits] = _discover()
NAMES: tuple[str, ...] = tuple(DRIVERS)
DEFAULT = next(t.name for t in DRIVERS.values() if t.default)  # a site stating no platform
# netmiko's device type of each platform, and the other way round.
DEVICE_TYPES: dict[str, str] = {d.name: d.device_type for d in DRIVERS.values()}
BY_DEVICE_TYPE: dict[str, str] = {d.device_type: d.name for d in DRIVERS.values()}


def driver(platform: str) -> Traits:
    """The traits of a platform name (one of ``NAMES``).

    Raises:
        KeyError: an unknown platform (the model only admits ``NAMES``).
    """
    return DRIVERS[platform]


def linted(lint_platform: str | None) -> Traits:
    """The platform whose configs the linter reads as ``lint_platform`` (None: the default's).

    Raises:
        KeyError: no platform is linted as that.
    """
    if lint_platform is None:
        return DRIVERS[DEFAULT]
    return next(d for d in DRIVERS.values() if d.lint_platform == lint_platform)


def read_as(software: str | None) -> Traits:
    """The platform a config read as IOS ``software`` (``DeviceFacts.software``) is (None: default).

    Raises:
        KeyError: no platform runs that software.
    """
    if software is None:
        return DRIVERS[DEFAULT]
    found = [d for d in DRIVERS.values() if d.ios_software == software]
    if not found:
        raise KeyError(software)
    return found[0]


def simulated() -> tuple[str, ...]:
    """The platforms the simulator has a router flavor for."""
    return tuple(d.name for d in DRIVERS.values() if d.simulated)


def lab_platform(kind: str) -> str:
    """The platform a lab PE node of containerlab ``kind`` runs (the first that is its own plane).

    Raises:
        KeyError: no platform runs on that kind of node.
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
    "PLATFORMS",
    "InterfaceNames",
    "Traits",
    "driver",
    "lab_platform",
    "linted",
    "read_as",
    "simulated",
]
