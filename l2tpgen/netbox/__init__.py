"""NetBox as the source of truth: site files pulled from its REST API (docs/netbox.md).

pynetbox is optional (``pip install 'l2tpgen[netbox]'``); only :mod:`l2tpgen.netbox.client`
imports it, when a command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.netbox.client import Client, NetBoxError, Selection
from l2tpgen.netbox.drift import Drift, find_drift
from l2tpgen.netbox.mapping import Unmapped
from l2tpgen.netbox.overlay import Overlay, OverlayError, load_overlay
from l2tpgen.netbox.pull import PulledSite, PullResult, build_sites

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "Client",
    "Drift",
    "NetBoxError",
    "Overlay",
    "OverlayError",
    "PullResult",
    "PulledSite",
    "Selection",
    "Unmapped",
    "build_sites",
    "find_drift",
    "load_overlay",
    "pull",
]


def pull(url: str, token: str, selection: Selection, overlay_path: Path | None) -> PullResult:
    """Read the selected devices from NetBox and build their site files (nothing is written).

    Raises:
        NetBoxError: NetBox cannot be reached or refuses the token (names the URL).
        OverlayError: the overlay file cannot be read.
    """
    overlay = load_overlay(overlay_path) if overlay_path is not None else Overlay()
    inventory = Client(url, token).inventory(selection)
    return build_sites(inventory, overlay, url)
