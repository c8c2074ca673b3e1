"""Where routers are: the site files' management addresses, or an inventory that overrides them.

An inventory is YAML or JSON: ``{"sites": {"site-a": {"host": ..., "port": ..., "device_type": ...,
"known_hosts": ...}}}`` (``l2tpgen sim up`` writes one). ``known_hosts`` is the file of trusted host
keys for that router; without it, the user's ``~/.ssh/known_hosts`` is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from yaml import YAMLError

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


_ENTRY_KEYS = frozenset({"host", "port", "device_type", "known_hosts"})
_DEVICE_TYPES = frozenset({"cisco_ios", "cisco_xe"})


def load_inventory(path: str | os.PathLike[str]) -> Inventory:
    """Read an inventory file; raise ``InventoryError`` naming the file, the entry and the problem.

    Read with the site files' bounded YAML reader (JSON is YAML): fast on thousands of routers,
    and an alias bomb or a monstrous number stops with a located error instead of eating memory.
    """
    from l2tpgen.model.yamlparse import YamlProblem, parse  # noqa: PLC0415 - libyaml on demand

    file = Path(path)
    try:
        parsed = parse(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InventoryError(f"cannot read inventory {file}: {exc.strerror}") from exc
    except UnicodeDecodeError:
        raise InventoryError(f"inventory {file} is not UTF-8 text") from None
    except YamlProblem as exc:
        line, column = exc.position
        raise InventoryError(f"{file}:{line + 1}:{column + 1}: {exc}") from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{file}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(file)
        problem = getattr(exc, "problem", None) or "not valid YAML or JSON"
        raise InventoryError(f"{where}: inventory is not valid YAML/JSON: {problem}") from None
    data = parsed[0] if parsed is not None else None
    sites = data.get("sites") if isinstance(data, dict) else None
    if not isinstance(sites, dict):
        raise InventoryError(
            f"inventory {file} needs a `sites:` mapping of site -> {{host, port, device_type, "
            "known_hosts}}"
        )
    return {str(name): _entry(file, str(name), entry) for name, entry in sites.items()}


def _entry(file: Path, name: str, entry: object) -> dict[str, object]:
    where = f"inventory {file}, site {name}"
    if not isinstance(entry, dict):
        raise InventoryError(f"{where}: write a mapping such as {{host: 127.0.0.1, port: 22}}")
    unknown = sorted(set(entry) - _ENTRY_KEYS)
    if unknown:
        raise InventoryError(
            f"{where}: unknown key {unknown[0]} (known: {', '.join(sorted(_ENTRY_KEYS))})"
        )
    if not isinstance(entry.get("host"), str) or not entry["host"]:
        raise InventoryError(f"{where}: `host` is required (an address or a DNS name)")
    port = entry.get("port", 22)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:  # noqa: PLR2004
        raise InventoryError(f"{where}: `port` is a whole number from 1 to 65535")
    if "device_type" in entry and entry["device_type"] not in _DEVICE_TYPES:
        raise InventoryError(
            f"{where}: device_type is one of {', '.join(sorted(_DEVICE_TYPES))} (push and verify "
            "handle Cisco routers)"
        )
    if "known_hosts" in entry and not isinstance(entry["known_hosts"], str):
        raise InventoryError(f"{where}: `known_hosts` is the path of a known_hosts file")
    return dict(entry)


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
