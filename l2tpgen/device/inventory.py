"""Where routers are: the site files' management addresses, or an inventory that overrides them.

An inventory is YAML or JSON: ``{"sites": {"site-a": {"host": ..., "port": ..., "device_type": ...,
"known_hosts": ...}}}`` (``l2tpgen sim up`` writes one). ``known_hosts`` is the file of trusted host
keys for that router; without it, the user's ``~/.ssh/known_hosts`` is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from l2tpgen.errors import DeviceError, L2tpgenError

if TYPE_CHECKING:
    import os

    from l2tpgen.model import Site

USER_KNOWN_HOSTS = Path("~/.ssh/known_hosts")


class InventoryError(L2tpgenError):
    """The inventory file cannot be read or is malformed."""


@dataclass(frozen=True)
class Target:
    """How to reach one site's router."""

    site: str
    host: str
    port: int
    device_type: str
    known_hosts: Path

    def __str__(self) -> str:
        return f"{self.site} ({self.host}:{self.port})"


Inventory = dict[str, dict[str, object]]


def load_inventory(path: str | os.PathLike[str]) -> Inventory:
    """Read an inventory file; raise ``InventoryError`` naming the file and the problem."""
    file = Path(path)
    try:
        data = YAML(typ="safe").load(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InventoryError(f"cannot read inventory {file}: {exc.strerror}") from exc
    except YAMLError as exc:
        raise InventoryError(f"inventory {file} is not valid YAML/JSON: {exc}") from exc
    sites = data.get("sites") if isinstance(data, dict) else None
    if not isinstance(sites, dict):
        raise InventoryError(f"inventory {file} needs a `sites:` mapping of site -> host, port")
    return {str(k): dict(v) for k, v in sites.items() if isinstance(v, dict)}


def target_for(site: Site, inventory: Inventory | None) -> Target:
    """The site's router: the inventory entry if there is one, else the site file's management."""
    entry = (inventory or {}).get(site.name)
    if inventory is not None and entry is None:
        raise DeviceError(f"{site.name} is not in the inventory; add it or leave out --inventory")
    if entry is None:
        return Target(
            site.name,
            site.management.host,
            site.management.port,
            site.device_type,
            USER_KNOWN_HOSTS.expanduser(),
        )
    try:
        return Target(
            site.name,
            str(entry["host"]),
            int(str(entry.get("port", 22))),
            str(entry.get("device_type", site.device_type)),
            Path(str(entry.get("known_hosts", USER_KNOWN_HOSTS))).expanduser(),
        )
    except (KeyError, ValueError) as exc:
        raise InventoryError(
            f"inventory entry of {site.name} needs host and a numeric port"
        ) from exc
