"""Where routers are: the site files' management addresses, or an inventory that overrides them.

An inventory is YAML or JSON: ``{"sites": {"site-a": {"host": ..., "port": ..., "device_type": ...,
"known_hosts": ...}}}`` (``l2tpgen sim up`` writes one). ``known_hosts`` is the file of trusted host
keys for that router; without it, the user's ``~/.ssh/known_hosts`` is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from yaml import YAMLError

from l2tpgen.errors import DeviceError, L2tpgenError
from l2tpgen.model.yamlparse import YamlProblem, parse
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    import os

    from l2tpgen.model import Site
    from l2tpgen.model.yamlparse import Node

USER_KNOWN_HOSTS = Path("~/.ssh/known_hosts")


class InventoryError(L2tpgenError):
    """The inventory file cannot be read or is malformed."""


@dataclass(frozen=True)
class Target:
    """How to reach one site's router.

    ``accept_new_host_keys``: a router with no entry in ``known_hosts`` has the key it offers
    learned into that file (OpenSSH's ``accept-new``, ``l2tpgen.device.accept_new``); a router
    whose entry holds another key is refused all the same.
    """

    site: str
    host: str
    port: int
    device_type: str
    known_hosts: Path
    accept_new_host_keys: bool = False

    def __str__(self) -> str:
        return f"{self.site} ({self.host}:{self.port})"


Inventory = dict[str, dict[str, object]]


_ENTRY_KEYS = frozenset({"host", "port", "device_type", "known_hosts"})
_DEVICE_TYPES = frozenset(d.device_type for d in DRIVERS.values() if d.pushable)
# A host is one word: an address or a DNS name (no space, no control character).
_HOST = re.compile(r"[^\s\x00-\x1f\x7f]+")
# How much of a wrong value a message quotes.
_QUOTED = 40


def load_inventory(path: str | os.PathLike[str]) -> Inventory:
    """Read an inventory file; raise ``InventoryError`` naming the file, the entry and the problem.

    Read with the site files' bounded YAML reader (JSON is YAML): fast on thousands of routers,
    and an alias bomb or a monstrous number stops with a located error instead of eating memory.
    Each problem is reported at ``file:line:column`` with the site and the key.
    """
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
    data, node = parsed if parsed is not None else (None, None)
    shape = "a `sites:` mapping of site -> {host, port, device_type, known_hosts}"
    if not isinstance(data, dict) or not isinstance(data.get("sites"), dict):
        raise InventoryError(f"{_at(file, node)}: not an inventory: it needs {shape}")
    extra = sorted(set(data) - {"sites"})
    if extra:
        where = _at(file, node, extra[0], key_pos=True)
        raise InventoryError(f"{where}: unknown key {extra[0]} in the inventory (it holds {shape})")
    return {
        str(name): _entry(file, str(name), entry, _child(node, "sites", str(name)))
        for name, entry in data["sites"].items()
    }


def _child(node: Node | None, *keys: str) -> Node | None:
    """The node of the value at ``keys`` (None when the file has none there)."""
    for key in keys:
        parts = node[1] if node is not None else None
        if not isinstance(parts, dict) or key not in parts:
            return None
        node = parts[key][1]
    return node


def _at(file: Path, node: Node | None, key: str | None = None, *, key_pos: bool = False) -> str:
    """``file:line:column`` of ``node`` (or of its ``key``: the value, or the key itself)."""
    position = node[0] if node is not None else None
    parts = node[1] if node is not None else None
    if key is not None and isinstance(parts, dict) and key in parts:
        key_at, value = parts[key]
        position = key_at if key_pos else value[0]
    if position is None:
        return str(file)
    return f"{file}:{position[0] + 1}:{position[1] + 1}"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _QUOTED else text[: _QUOTED - 3] + "..."


def _entry(file: Path, name: str, entry: object, node: Node | None) -> dict[str, object]:
    def fail(key: str | None, message: str, *, key_pos: bool = False) -> NoReturn:
        where = _at(file, node, key, key_pos=key_pos)
        raise InventoryError(f"{where}: inventory entry {name}: {message}")

    if not isinstance(entry, dict):
        fail(None, "write a mapping such as {host: 127.0.0.1, port: 22}")
    unknown = sorted(set(entry) - _ENTRY_KEYS)
    if unknown:
        known = ", ".join(sorted(_ENTRY_KEYS))
        fail(unknown[0], f"unknown key {unknown[0]} (known: {known})", key_pos=True)
    host = entry.get("host")
    if host is None:
        fail(None, "`host` is required (an address or a DNS name)")
    if not isinstance(host, str) or not _HOST.fullmatch(host):
        fail("host", f"`host` is an address or a DNS name (one word), not {_shown(host)}")
    port = entry.get("port", 22)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:  # noqa: PLR2004
        fail("port", f"`port` is a whole number from 1 to 65535, not {_shown(port)}")
    if "device_type" in entry and entry["device_type"] not in _DEVICE_TYPES:
        fail(
            "device_type",
            f"`device_type` is one of {', '.join(sorted(_DEVICE_TYPES))}, not "
            f"{_shown(entry['device_type'])} (push and verify handle Cisco routers)",
        )
    known_hosts = entry.get("known_hosts", "~")
    if not isinstance(known_hosts, str) or not known_hosts.strip():
        fail("known_hosts", "`known_hosts` is the path of a known_hosts file")
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
