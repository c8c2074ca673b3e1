"""What the commands that talk to routers share: choosing sites, their targets, credentials."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import OutputFormat, err, fail, safe
from l2tpgen.cli.complete import complete_site
from l2tpgen.cli.loading import load
from l2tpgen.cli.netbox import netbox_targets
from l2tpgen.discovery import SIM_NAME_ENV, find_inventory
from l2tpgen.errors import L2tpgenError
from l2tpgen.model import resolve_site
from l2tpgen.traits import DRIVERS, driver

if TYPE_CHECKING:
    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Inventory, Target
    from l2tpgen.model import Fleet

# l2tpgen.device.fleet.DEFAULT_WORKERS, repeated so that --help does not import Nornir and
# netmiko; a test keeps the two equal.
DEFAULT_WORKERS = 20


# Where push keeps local rollback copies (they hold the router's type 7 secrets; mode 0600).
STATE_DIR = "L2TPGEN_STATE_DIR"


SitesArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[SITE]...", help="Sites (names or site files).", autocompletion=complete_site
    ),
]
AllOption = Annotated[bool, typer.Option("--all", help="Every site of the fleet.")]
InventoryOption = Annotated[
    Path | None,
    typer.Option(
        "--inventory",
        metavar="FILE|netbox",
        help="Inventory file overriding the site files' management; or netbox[:FILTER] for the "
        "routers of NetBox's devices (FILTER: tag=SLUG, site=SLUG, role=SLUG, known_hosts=FILE, "
        "comma-separated), from L2TPGEN_NETBOX_URL with L2TPGEN_NETBOX_TOKEN (docs/netbox.md).",
    ),
]
FormatOption = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]
AcceptNewOption = Annotated[
    bool,
    typer.Option(
        "--accept-new-host-keys",
        help="First contact, as ssh's StrictHostKeyChecking=accept-new: a router its known_hosts "
        "file has no entry for gets the key it offers now added to that file (each key learned "
        "is printed with its SHA256 fingerprint); a router whose entry holds another key is "
        "still refused.",
    ),
]


WorkersOption = Annotated[int, typer.Option("--workers", min=1, help="Routers worked on at once.")]


def select_sites(sites_args: list[str] | None, every: bool, sites: Path) -> tuple[Fleet, list[str]]:
    """The fleet and the sites to work on: with --all every site, else the named ones.

    Named sites are loaded with their peers only (what a push needs: the peers' addresses, and
    both ends of each pseudowire for the lint gate), whatever the size of the fleet.
    """
    names = list(sites_args or [])
    if not names and not every:
        raise typer.BadParameter("name at least one site, or use --all", param_hint="SITE")
    directory = sites
    if names:
        try:
            resolved = [resolve_site(n, sites) for n in names]
        except L2tpgenError as exc:
            fail(str(exc))
        directory, names = resolved[0][0], [name for _, name in resolved]
    fleet = load(directory, names=[] if every else names)
    for name in names:
        try:
            site = fleet.site(name)
        except L2tpgenError as exc:
            fail(str(exc))
        if not driver(site.effective_platform).pushable:
            fail(not_pushable(name, site.effective_platform))
    if names:
        return fleet, names
    chosen = [n for n, s in fleet.sites.items() if driver(s.effective_platform).pushable]
    for name in sorted(set(fleet.sites) - set(chosen)):
        err.print(f"{name}: skipped ({fleet.sites[name].effective_platform} PE: not pushed)")
    return fleet, chosen


def not_pushable(name: str, platform: str) -> str:
    """Why push, diff and verify leave a site alone."""
    handled = " and ".join(d.title for d in DRIVERS.values() if d.pushable)
    formats = " or ".join(f"--format {fmt}" for fmt in driver(platform).formats)
    return (
        f"{name} is a {platform} PE: push, diff and verify handle {handled} routers only; "
        f"configure it from `l2tpgen render {name}` ({formats})"
    )


def _inventory(path: Path | None) -> Inventory | None:
    from l2tpgen.device import load_inventory  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    if path is None:
        return None
    try:
        return load_inventory(path)
    except L2tpgenError as exc:
        fail(str(exc))


def read_credentials() -> Credentials:
    """The routers' credentials from the environment, or a clear error and exit 1."""
    from l2tpgen.device import credentials_from_env  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    try:
        return credentials_from_env()
    except L2tpgenError as exc:
        fail(str(exc))


def router_targets(
    fleet: Fleet, names: list[str], inventory: Path | None, *, accept_new: bool = False
) -> dict[str, Target]:
    """Where each site's router is: its site file's management, or the inventory's entry.

    ``accept_new``: learn the host key of a router its known_hosts file does not know yet (each
    key learned is printed on stderr).
    """
    found = _targets(fleet, names, _discovered(fleet, inventory))
    if not accept_new:
        return found
    _announce_learned_keys()
    return {name: replace(t, accept_new_host_keys=True) for name, t in found.items()}


def _discovered(fleet: Fleet, inventory: Path | None) -> Path | None:
    """``--inventory``, else the simulator running for these sites (said on stderr), else None."""
    if inventory is not None or not fleet.files:
        return inventory
    sites = Path(next(iter(fleet.files.values()))).parent
    try:
        found = find_inventory(None, sites, os.environ.get(SIM_NAME_ENV) or None)
    except L2tpgenError as exc:
        fail(str(exc))
    if found is None:
        return None
    err.print(
        safe(f"using {found.source}: its inventory {found.path} (--inventory FILE overrides it)"),
        style="dim",
    )
    return found.path


class _Announce(logging.Handler):
    """Prints each host key learned (``l2tpgen.device.accept_new``) on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(safe(record.getMessage()), style="yellow", markup=False, highlight=False)


def _announce_learned_keys() -> None:
    from l2tpgen.device.accept_new import LOGGER  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    if not any(isinstance(h, _Announce) for h in LOGGER.handlers):
        LOGGER.addHandler(_Announce())


def _targets(fleet: Fleet, names: list[str], inventory: Path | None) -> dict[str, Target]:
    from l2tpgen.device import target_for  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    if inventory is not None and str(inventory).startswith("netbox"):
        found = netbox_targets(fleet, names, str(inventory))
        if found is not None:
            return found
    table = _inventory(inventory)
    try:
        return {name: target_for(fleet.site(name), table) for name in names}
    except L2tpgenError as exc:
        fail(str(exc))


def quiet_libraries() -> None:
    """Keep Nornir's, paramiko's and netmiko's log records (tracebacks among them) off stderr.

    Each failure is reported as one line by l2tpgen; without a handler of their own, Python
    would print these libraries' warnings and errors through its last-resort handler.
    """
    for name in ("nornir", "paramiko", "netmiko"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())
