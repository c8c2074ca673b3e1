"""`sim up --name` and `--config`: which simulator a command acts on, and what it starts from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import err, fail
from l2tpgen.importer.notes import redact
from l2tpgen.ios.encoding import decode
from l2tpgen.ios.text import clean
from l2tpgen.sim.lifecycle import check_name, running_names
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from l2tpgen.model import Fleet

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


def read_start_config(path: Path) -> tuple[str, list[str]]:
    """A config file read as `import` reads it, what the simulator takes of it, what it skips.

    Returns the text to start from and one line per line left out (``FILE:LINE: TEXT``, cut
    after any secret-bearing word).

    Raises:
        OSError: the file cannot be read.
    """
    from l2tpgen.sim.fleet import start_config  # noqa: PLC0415 - the sim extra (asyncssh)

    # One entry per line of the file (a filler `!` for what is not configuration), so the
    # simulator's line numbers are the file's.
    start = start_config("\n".join(clean(decode(path.read_bytes())[0]).lines))
    return start.text, [f"{path}:{number}: {redact(text)}" for number, text in start.skipped]


def start_configs(files: dict[str, Path]) -> dict[str, str]:
    """Each site's start config, read as `import` reads it; what is skipped said per line."""
    configs = {}
    for site, file in files.items():
        try:
            configs[site], skipped = read_start_config(file)
        except OSError as exc:
            fail(f"cannot read the config of {site}: {exc.strerror} ({file})")
        for line in skipped:
            err.print(
                f"warning: {line}: not simulated (the router starts without it)", markup=False
            )
    return configs


def others(state_dir: Path, name: str) -> str:
    """`` (running: a, b: --name)`` naming the other running simulators, or nothing."""
    others = [n for n in running_names(state_dir) if n != name]
    return f" (other simulators running: {', '.join(others)}; see --name)" if others else ""
