"""Drift between NetBox's intent (a pull) and the site files: what differs, key by key."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.model.load import load_fleet

if TYPE_CHECKING:
    import os

    from l2tpgen.model.site import Site
    from l2tpgen.netbox.pull import PullResult


@dataclass(frozen=True)
class Drift:
    """One difference: ``key`` of ``site`` (empty: the whole site) in NetBox and in the files."""

    site: str
    key: str
    netbox: str
    files: str


def _flat(value: object, prefix: str = "") -> dict[str, str]:
    if isinstance(value, dict):
        flat: dict[str, str] = {}
        for key, inner in value.items():
            flat.update(_flat(inner, f"{prefix}{key}."))
        return flat
    return {prefix.rstrip("."): repr(value) if not isinstance(value, str) else value}


def _dump(site: Site) -> dict[str, str]:
    return _flat(site.model_dump(mode="json", by_alias=True))


def find_drift(pulled: PullResult, sites: str | os.PathLike[str]) -> list[Drift]:
    """Every difference between the pulled sites and the site files in ``sites``.

    Sites are compared as loaded models (defaults applied), so a key written in one and left to
    its default in the other is no drift. A site pulled without a file, or a file whose site was
    not pulled (not in NetBox, or outside the selection), is drift too.

    Raises:
        FleetValidationError: the site files (or the pulled ones) do not validate.
    """
    files = load_fleet(sites)
    with tempfile.TemporaryDirectory(prefix="l2tpgen-netbox-") as tmp:
        for site in pulled.sites:
            (Path(tmp) / f"{site.name}.yaml").write_text(site.text, encoding="utf-8")
        netbox = load_fleet(tmp) if pulled.sites else None
    intent = dict(netbox.sites) if netbox else {}
    found: list[Drift] = []
    for name in sorted(set(intent) | set(files.sites)):
        if name not in files.sites:
            found.append(Drift(name, "", "in NetBox", "no site file"))
            continue
        if name not in intent:
            found.append(Drift(name, "", "not in NetBox (or not selected)", "a site file"))
            continue
        ours, theirs = _dump(intent[name]), _dump(files.sites[name])
        found.extend(
            Drift(name, key, ours.get(key, "(none)"), theirs.get(key, "(none)"))
            for key in sorted(set(ours) | set(theirs))
            if ours.get(key) != theirs.get(key)
        )
    return found
