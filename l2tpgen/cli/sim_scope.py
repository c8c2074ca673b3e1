"""`sim up --name` and `--config`: which simulator a command acts on, and what it starts from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import err, fail
from l2tpgen.platforms import driver

if TYPE_CHECKING:
    from l2tpgen.model import Fleet
    from l2tpgen.sim.fleet import StartConfig

NameOption = Annotated[
    str,
    typer.Option(
        "--name",
        envvar="L2TPGEN_SIM_NAME",
        help="The simulator's name: its files are under $L2TPGEN_STATE_DIR/sim/NAME, and `sim "
        "status` / `sim down` act on this name only.",
    ),
]


def checked_name(name: str) -> str:
    """``name`` if it can name a simulator, else a usage error (exit 2)."""
    from l2tpgen.sim.lifecycle import check_name  # noqa: PLC0415 - start-up stays cheap

    try:
        return check_name(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--name") from None


def configs_of(fleet: Fleet, words: list[str]) -> dict[str, Path]:
    """``--config SITE=FILE`` words as site -> file (usage error for a word that is not one)."""
    simulated = {n for n, s in fleet.sites.items() if driver(s.effective_platform).simulated}
    found: dict[str, Path] = {}
    for word in words:
        site, sep, file = word.partition("=")
        if not sep or not site or not file:
            raise typer.BadParameter(f"write SITE=FILE, not {word!r}", param_hint="--config")
        if site not in simulated:
            known = ", ".join(sorted(simulated))
            raise typer.BadParameter(
                f"{site} is not a simulated router (simulated: {known})", param_hint="--config"
            )
        if site in found:
            raise typer.BadParameter(f"{site} has two configs", param_hint="--config")
        found[site] = Path(file).expanduser().resolve()
    return found


def start_configs(files: dict[str, Path]) -> dict[str, StartConfig]:
    """Each site's start config, read as `import` reads it; what is skipped said per line."""
    from l2tpgen.sim.fleet import read_start_config  # noqa: PLC0415 - start-up stays cheap

    configs = {}
    for site, file in files.items():
        try:
            configs[site] = read_start_config(file)
        except OSError as exc:
            fail(f"cannot read the config of {site}: {exc.strerror} ({file})")
        for line in configs[site].skipped:
            err.print(
                f"warning: {line}: not simulated (the router starts without it)", markup=False
            )
    return configs


def others(state_dir: Path, name: str) -> str:
    """`` (running: a, b: --name)`` naming the other running simulators, or nothing."""
    from l2tpgen.sim.lifecycle import running_names  # noqa: PLC0415

    others = [n for n in running_names(state_dir) if n != name]
    return f" (other simulators running: {', '.join(others)}; see --name)" if others else ""
