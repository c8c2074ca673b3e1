"""`l2tpgen sim up`: one simulated IOS router per site on 127.0.0.1, for rehearsal and tests."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer
from rich.table import Table

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, fail, out
from l2tpgen.cli.loading import load
from l2tpgen.cli.sim_run import Timer, serve, start, status_of
from l2tpgen.cli.sim_scope import NameOption, checked_name, configs_of, others, start_configs
from l2tpgen.discovery import STATE_ENV
from l2tpgen.sim.faults import FaultError, parse_faults
from l2tpgen.sim.lifecycle import (
    INVENTORY_FILE,
    LOG_FILE,
    STATUS_FILE,
    SimStatus,
    alive,
    forget,
    sim_dir,
    start_detached,
    stop,
)
from l2tpgen.traits import DEFAULT, driver, simulated

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.model import Fleet

START_TIMEOUT = 120.0  # seconds a detached simulator may take to listen (a loaded CI machine)

sim_app = typer.Typer(help="Simulated IOS routers for rehearsal and tests.", no_args_is_help=True)
app.add_typer(sim_app, name="sim")


if TYPE_CHECKING:
    SimFlavor = str
else:  # what the simulated routers are: the platforms whose drivers the simulator handles
    SimFlavor = Literal[simulated()]


def _check_faults(words: list[str]) -> list[str]:
    """Usage error (exit 2) for a fault the simulator cannot take, before anything starts."""
    try:
        parse_faults(words)
    except FaultError as exc:
        raise typer.BadParameter(str(exc), param_hint="--fault") from None
    return words


MAX_LATENCY_MS = 60_000.0  # a minute per response: longer only makes every client time out
MAX_REVERT_MINUTE = 3_600.0  # an hour per minute: the 120-minute timer then lasts five days


def _bounded(option: str, low: float, high: float) -> Callable[[float], float]:
    """A check for a number option: finite and in [low, high], else a usage error (exit 2).

    Click's own range lets ``inf`` above no maximum and ``nan`` through every comparison.
    """

    def check(value: float) -> float:
        if not math.isfinite(value) or not low <= value <= high:
            raise typer.BadParameter(
                f"{value} is not a number from {low:g} to {high:g}", param_hint=option
            )
        return value

    return check


def _fault_sites(fleet: Fleet, names: list[str], faults: list[str]) -> set[str]:
    """The sites the faults apply to (every simulated one when none is named)."""
    if names and not faults:
        raise typer.BadParameter(
            "names a site for --fault; give a --fault too", param_hint="--fault-site"
        )
    simulated = {n for n, s in fleet.sites.items() if driver(s.effective_platform).simulated}
    for name in names:
        if name not in simulated:
            known = ", ".join(sorted(simulated))
            raise typer.BadParameter(
                f"{name} is not a simulated router (simulated: {known})", param_hint="--fault-site"
            )
    return set(names) or simulated


@sim_app.command("up")
def up(
    sites: SitesOption = Path("sites"),
    name: NameOption = "default",
    config: Annotated[
        list[str] | None,
        typer.Option(
            "--config",
            metavar="SITE=FILE",
            help="Start SITE's router from FILE, a real running config (what `import` read), "
            "instead of the base config, to rehearse a brownfield push (repeatable).",
        ),
    ] = None,
    inventory_out: Annotated[
        Path | None,
        typer.Option(
            "--inventory-out",
            help=(
                "Where to write the inventory (and known_hosts) [default: "
                "$L2TPGEN_STATE_DIR/sim/NAME/inventory.json, ~/.local/state/l2tpgen/sim/...]."
            ),
        ),
    ] = None,
    detach: Annotated[
        bool,
        typer.Option(
            "--detach",
            "-d",
            help="Run in the background (`sim status` shows it, `sim down` stops it).",
        ),
    ] = False,
    status_file: Annotated[
        Path | None, typer.Option("--status-file", hidden=True, help="Internal: -d's child.")
    ] = None,
    latency_ms: Annotated[
        float,
        typer.Option(
            "--latency-ms",
            callback=_bounded("--latency-ms", 0.0, MAX_LATENCY_MS),
            help="Delay every response by this much (0 to 60000).",
        ),
    ] = 0.0,
    flavor: Annotated[
        SimFlavor,
        typer.Option(
            "--flavor",
            help="Classic IOS (flash:) or IOS-XE (bootflash:, its show version and legend).",
        ),
    ] = DEFAULT,
    archive: Annotated[
        bool,
        typer.Option(
            "--archive",
            help="Start each router with `archive` / `path` (what `push --confirm-within` needs).",
        ),
    ] = False,
    revert_minute: Annotated[
        float,
        typer.Option(
            "--revert-minute",
            metavar="SECONDS",
            callback=_bounded("--revert-minute", 0.1, MAX_REVERT_MINUTE),
            help=(
                "How long a minute of the revert timer lasts, to rehearse a timed push quickly "
                "(0.1 to 3600)."
            ),
        ),
    ] = 60.0,
    fault: Annotated[
        list[str] | None,
        typer.Option(
            "--fault",
            metavar="FAULT",
            callback=lambda words: _check_faults(words or []),
            help=(
                "Misbehave, to rehearse a rollback (repeatable): refuse=REGEX (commands matching "
                "it get % Invalid input), drop-after=N (the connection drops after the Nth "
                "configuration line), refuse-save (write memory fails: NVRAM busy)."
            ),
        ),
    ] = None,
    fault_site: Annotated[
        list[str] | None,
        typer.Option(
            "--fault-site",
            metavar="SITE",
            help="The routers the faults apply to (repeatable; default: every router).",
        ),
    ] = None,
) -> None:
    """Start a simulated router per site (hostnames and WAN addressing from the site files).

    Each starts with its base config (hostname, WAN address and routes, bare LAN port), or with
    --config the running config given (lines the simulator does not take are listed), and accepts
    the credentials in L2TPGEN_USERNAME / L2TPGEN_PASSWORD. Runs until interrupted (Ctrl-C), or
    with -d in the background until `l2tpgen sim down`.
    """
    from l2tpgen.device.credentials import PASSWORD, USERNAME  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    username, password = os.environ.get(USERNAME, ""), os.environ.get(PASSWORD, "")
    if not username or not password:
        fail(f"set {USERNAME} and {PASSWORD}: the simulated routers accept those credentials")
    name = checked_name(name)
    fleet = load(sites)
    faulty = _fault_sites(fleet, fault_site or [], fault or [])
    files = configs_of(fleet, config or [])
    starts = start_configs(files)
    inventory_out = inventory_out or _sim_dir(name) / INVENTORY_FILE
    if detach:
        argv = ["--sites", str(sites.resolve()), "--inventory-out", str(inventory_out.resolve())]
        argv += ["--name", name, *(f"--config={site}={file}" for site, file in files.items())]
        argv += ["--latency-ms", str(latency_ms), "--flavor", flavor]
        argv += ["--revert-minute", str(revert_minute), *(["--archive"] if archive else [])]
        argv += [f"--fault={word}" for word in fault or []]
        argv += [f"--fault-site={name}" for name in fault_site or []]
        _detach(argv, name)
        return
    timer = Timer(archive=archive, minute=revert_minute)
    simulators = start(fleet, flavor, latency_ms, (fault or [], faulty), timer, starts)
    try:
        known = simulators.write_inventory(inventory_out)
    except (OSError, ValueError) as exc:
        simulators.close()
        fail(str(exc))
    running = status_of(simulators, sites, inventory_out, known)
    _show(running, "Ctrl-C to stop")
    out.print(f"try: l2tpgen push {next(iter(fleet.sites))} --dry-run --inventory {inventory_out}")
    serve(simulators, running, status_file)


def _state_dir() -> Path:
    return Path(os.environ.get(STATE_ENV, "~/.local/state/l2tpgen"))


def _sim_dir(name: str) -> Path:
    try:
        return sim_dir(_state_dir(), name)
    except OSError as exc:
        fail(f"cannot make the simulator's state directory: {exc.strerror} ({exc.filename})")


def _running(name: str) -> tuple[Path, SimStatus | None]:
    path = _sim_dir(name) / STATUS_FILE
    return path, SimStatus.read(path)


def _detach(argv: list[str], name: str) -> None:
    """Start ``sim up`` in its own session, wait until its routers listen, and show them."""
    path, status = _running(name)
    if status is not None and alive(status.pid):
        fail(
            f"simulator {name} is already running (pid {status.pid}, inventory "
            f"{status.inventory}): `l2tpgen sim down --name {name}` stops it, or start another "
            "with --name"
        )
    command = [sys.executable, "-m", "l2tpgen", "sim", "up", *argv, "--status-file", str(path)]
    child = start_detached(command, path)
    log = path.with_name(LOG_FILE)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        _, status = _running(name)
        if status is not None and status.pid == child.pid:
            _show(status)
            stop_it = "`l2tpgen sim down" + ("`" if name == "default" else f" --name {name}`")
            out.print(f"started in the background (pid {child.pid}, log {log}): {stop_it}")
            return
        if child.poll() is not None:
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
            fail("the simulator did not start:\n" + "\n".join(tail))
        time.sleep(0.1)
    child.terminate()
    fail(f"the simulator did not listen within {START_TIMEOUT:.0f} s (its log: {log})")


def _show(status: SimStatus, note: str = "") -> None:
    title = f"simulated routers ({note or f'pid {status.pid}'})"
    table = Table(title=title, title_justify="left")
    for column in ("site", "hostname", "address", "flavor", "faults"):
        table.add_column(column, overflow="fold")
    for name, router in status.routers.items():
        address = f"127.0.0.1:{router.port}"
        table.add_row(name, router.hostname, address, router.flavor, " ".join(router.faults) or "-")
    out.print(table)
    out.print(f"inventory: {status.inventory}  (host keys: {status.known_hosts})", markup=False)


@sim_app.command("status")
def status(
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
    name: NameOption = "default",
) -> None:
    """Show the simulator started with `sim up -d` (this --name only): routers, ports, inventory.

    Exit 0 when one is running, 1 when none is (or the one recorded has died).
    """
    name = checked_name(name)
    _, running = _running(name)
    up_now = running is not None and alive(running.pid)
    if fmt is OutputFormat.json:
        document = {"name": name, "running": up_now, **(asdict(running) if running else {})}
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    elif running is None:
        err.print(
            f"no simulator is running under the name {name} (start one with `l2tpgen sim up -d`)"
            + others(_state_dir(), name),
            markup=False,
        )
    elif not up_now:
        err.print(
            f"the simulator (pid {running.pid}) is no longer running; `l2tpgen sim down` "
            "clears what it left"
        )
    else:
        _show(running)
    if not up_now:
        raise typer.Exit(1)


@sim_app.command("down")
def down(name: NameOption = "default") -> None:
    """Stop the simulator started with `sim up -d` under this --name (none runs: exit 0)."""
    name = checked_name(name)
    path, running = _running(name)
    if running is None:
        err.print(
            f"no simulator is running under the name {name}" + others(_state_dir(), name),
            markup=False,
        )
        return
    if not stop(running):
        fail(f"the simulator (pid {running.pid}) did not stop; kill it by hand")
    forget(path)
    err.print(f"simulated routers stopped (pid {running.pid})")
