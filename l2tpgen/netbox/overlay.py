"""The overlay file: what NetBox does not hold (classes, hold-queues, SSH port), kept in the repo.

::

    defaults:            # every pulled site; a value NetBox holds wins over these
      management: {port: 22, device_type: cisco_ios}
      l2tp_class: {name: class1, authentication: digest, hash: sha, secret_env: L2TPGEN_L2TP_SECRET}
    sites:
      site-a:            # one site; setting here what NetBox holds is an error, never a silent win
        wan: {hold_queue: {in: 2048, out: 2048}}
        peers: {site-b: {pseudowire: {signaling: static}}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import yaml

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from pathlib import Path

_FROM_NETBOX_ONLY = frozenset({"name", "hostname", "peers", "vlans"})


class OverlayError(L2tpgenError):
    """The overlay file cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class Overlay:
    """Defaults for every site, and settings per site (``peers`` by peer name)."""

    source: str = "(no overlay)"
    defaults: dict[str, object] = field(default_factory=dict)
    sites: dict[str, dict[str, object]] = field(default_factory=dict)


def _mapping(value: object, where: str, source: str) -> dict[str, object]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise OverlayError(f"{source}: {where} must be a mapping of names to settings")
    return dict(value)


def load_overlay(path: Path) -> Overlay:
    """Read and check the shape of an overlay file (the site model checks the values later)."""
    source = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OverlayError(f"cannot read overlay {source}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise OverlayError(f"{source}{where}: not valid YAML") from None
    top = _mapping(data, "the file", source)
    unknown = sorted(set(top) - {"defaults", "sites"})
    if unknown:
        raise OverlayError(f"{source}: unknown key {unknown[0]!r}; use defaults and sites")
    defaults = _mapping(top.get("defaults"), "defaults", source)
    for key in sorted(_FROM_NETBOX_ONLY & set(defaults)):
        raise OverlayError(f"{source}: defaults.{key} comes from NetBox; remove it")
    sites = {}
    for name, settings in _mapping(top.get("sites"), "sites", source).items():
        site = _mapping(settings, f"sites.{name}", source)
        for key in sorted({"name", "hostname", "vlans"} & set(site)):
            raise OverlayError(f"{source}: sites.{name}.{key} comes from NetBox; remove it")
        _mapping(site.get("peers"), f"sites.{name}.peers", source)
        sites[name] = site
    return Overlay(source, defaults, sites)


def set_leaves(base: dict[str, object], extra: dict[str, object], path: str = "") -> list[str]:
    """Copy ``extra``'s leaves into ``base``; the dotted paths ``base`` already had."""
    clashes = []
    for key, value in extra.items():
        have = base.get(key)
        if isinstance(value, dict) and isinstance(have, dict):
            clashes += set_leaves(have, value, f"{path}{key}.")
        elif key in base:
            clashes.append(f"{path}{key}")
        else:
            base[key] = value
    return clashes


def fill_leaves(base: dict[str, object], extra: dict[str, object]) -> None:
    """Copy ``extra``'s leaves that ``base`` lacks (defaults: what is there wins)."""
    for key, value in extra.items():
        have = base.get(key)
        if isinstance(value, dict) and isinstance(have, dict):
            fill_leaves(have, value)
        elif key not in base:
            base[key] = value
