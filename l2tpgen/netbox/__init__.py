"""NetBox as the source of truth: site files pulled from its REST API (docs/netbox.md).

pynetbox is optional (``pip install 'l2tpgen[netbox]'``); only :mod:`l2tpgen.netbox.client`
imports it, when a command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.netbox.client import Client, Selection
from l2tpgen.netbox.drift import Drift, find_drift
from l2tpgen.netbox.http import DEFAULT_TIMEOUT, Budget, NetBoxError
from l2tpgen.netbox.mapping import Unmapped
from l2tpgen.netbox.overlay import Overlay, OverlayError, load_overlay
from l2tpgen.netbox.pull import PulledSite, PullResult, build_sites
from l2tpgen.netbox.push import Change, Pusher

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model.fleet import Fleet

__all__ = [
    "Budget",
    "Change",
    "Client",
    "Drift",
    "NetBoxError",
    "Overlay",
    "OverlayError",
    "PullResult",
    "PulledSite",
    "Pusher",
    "Selection",
    "Unmapped",
    "build_sites",
    "find_drift",
    "load_overlay",
    "pull",
    "push",
]


def pull(
    url: str,
    token: str,
    selection: Selection,
    overlay_path: Path | None,
    timeout: float = DEFAULT_TIMEOUT,
    *,
    budget: Budget | None = None,
) -> PullResult:
    """Read the selected devices from NetBox and build their site files (nothing is written).

    ``budget``: the whole read's deadline and page limit (``http.Budget``; defaults unless given).

    Raises:
        NetBoxError: NetBox cannot be reached or refuses the token (names the URL), or the read
            passes its deadline or page limit (says which, and how to raise it).
        OverlayError: the overlay file cannot be read.
    """
    overlay = load_overlay(overlay_path) if overlay_path is not None else Overlay()
    inventory = Client(url, token, timeout, budget).inventory(selection)
    return build_sites(inventory, overlay, url)


def push(
    url: str,
    token: str,
    fleet: Fleet,
    *,
    dry_run: bool,
    tag: str,
    timeout: float = DEFAULT_TIMEOUT,
    budget: Budget | None = None,
) -> list[Change]:
    """Record ``fleet`` in NetBox (docs/netbox.md); with ``dry_run`` only list the changes.

    ``budget``: the whole push's deadline and page limit (``http.Budget``; defaults unless given).

    Raises:
        NetBoxError: NetBox cannot be reached, refuses the token or refuses a change, or the
            push passes its deadline or page limit.
    """
    client = Client(url, token, timeout, budget)
    pusher = Pusher(client.api, client.url, dry_run=dry_run, tag=tag, timeout=timeout)
    return pusher.fleet(fleet)
