"""`l2tpgen sim up`: one simulated IOS router per site on 127.0.0.1, for rehearsal and tests."""

from __future__ import annotations

import os
import signal
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from l2tpgen.cli.app import SitesOption, err, fail, load, out
from l2tpgen.platforms import driver

sim_app = typer.Typer(help="Simulated IOS routers for rehearsal and tests.", no_args_is_help=True)


class SimFlavor(str, Enum):
    """What the simulated routers are."""

    ios = "ios"
    iosxe = "iosxe"


@sim_app.command("up")
def up(
    sites: SitesOption = Path("sites"),
    inventory_out: Annotated[
        Path,
        typer.Option("--inventory-out", help="Where to write the inventory (and known_hosts)."),
    ] = Path("l2tpgen-sim-inventory.json"),
    latency_ms: Annotated[
        float, typer.Option("--latency-ms", min=0, help="Delay every response by this much.")
    ] = 0.0,
    flavor: Annotated[
        SimFlavor,
        typer.Option(
            "--flavor",
            help="Classic IOS (flash:) or IOS-XE (bootflash:, its show version and legend).",
        ),
    ] = SimFlavor.ios,
) -> None:
    """Start a simulated router per site (hostnames and WAN addressing from the site files).

    Each starts with its base config (hostname, WAN address and routes, bare LAN port) and accepts
    the credentials in L2TPGEN_USERNAME / L2TPGEN_PASSWORD. Runs until interrupted (Ctrl-C).
    """
    from l2tpgen.device.connection import PASSWORD, USERNAME  # noqa: PLC0415 - start-up
    from l2tpgen.render import render_base  # noqa: PLC0415
    from l2tpgen.sim import FLAVORS, Credentials, Faults, SimFleet, SimSpec  # noqa: PLC0415
    from l2tpgen.sim.server import run_forever  # noqa: PLC0415

    username, password = os.environ.get(USERNAME, ""), os.environ.get(PASSWORD, "")
    if not username or not password:
        fail(f"set {USERNAME} and {PASSWORD}: the simulated routers accept those credentials")
    fleet = load(sites)
    simulators = SimFleet(Credentials(username, password))
    try:
        for name, site in fleet.sites.items():
            if not driver(site.effective_platform).simulated:
                err.print(f"{name}: no simulated router ({site.effective_platform} PE)")
                continue
            base = render_base(fleet, name)
            spec = SimSpec(name, site.hostname, base, flavor=FLAVORS[flavor.value])
            simulators.add(spec, Faults(latency_ms=latency_ms))
        known = simulators.write_inventory(inventory_out)
    except (OSError, ValueError) as exc:
        simulators.close()
        fail(str(exc))
    from rich.table import Table  # noqa: PLC0415 - start-up stays cheap

    table = Table(title="simulated routers (Ctrl-C to stop)", title_justify="left")
    for column in ("site", "hostname", "address", "flavor"):
        table.add_column(column)
    for name, device in simulators.devices.items():
        table.add_row(
            name,
            device.router.hostname,
            f"127.0.0.1:{device.port}",
            device.router.flavor.name,
        )
    out.print(table)
    out.print(f"inventory: {inventory_out}  (host keys: {known})", markup=False)
    out.print(f"try: l2tpgen push {next(iter(fleet.sites))} --dry-run --inventory {inventory_out}")
    stopping: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        run_forever(lambda: bool(stopping))
    except KeyboardInterrupt:
        pass
    finally:
        simulators.close()
        err.print("simulated routers stopped")
