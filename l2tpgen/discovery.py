"""Where the site files and the running simulator are, when the command line does not say.

As the tools of the field find theirs (ruff and pytest their settings in the nearest
``pyproject.toml``, Ansible its ``ansible.cfg``, netlab the lab running in the current
directory), in this order, the first that answers wins:

Sites directory:

1. ``--sites DIR`` on the command line;
2. the ``L2TPGEN_SITES`` environment variable;
3. ``sites = "DIR"`` in the ``[tool.l2tpgen]`` table of the nearest ``pyproject.toml`` (the
   current directory, then its parents), relative to that file;
4. a directory named ``sites`` in the current directory or a parent, up to the repository root
   (the first directory holding ``.git``) or the filesystem root; from inside ``sites/`` itself,
   that directory.

Inventory (commands that talk to routers):

1. ``--inventory FILE`` on the command line;
2. the simulator running for this sites directory (``l2tpgen sim up`` started from it): when one
   is running it is used; when several are, ``L2TPGEN_SIM_NAME`` names one,
   and without it the command stops and lists them;
3. none: the routers are the ones in the site files (``management``).

Nothing here prints: the command line says which answer it used.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.sim.lifecycle import SimStatus

SITES_ENV = "L2TPGEN_SITES"
SIM_NAME_ENV = "L2TPGEN_SIM_NAME"
STATE_ENV = "L2TPGEN_STATE_DIR"
DEFAULT_STATE = "~/.local/state/l2tpgen"
SITES = "sites"
SITE_SUFFIXES = (".yaml", ".yml")  # a site file; its stem is the site's name


class DiscoveryError(L2tpgenError):
    """The sites or the simulator cannot be found as the settings say."""


@dataclass(frozen=True)
class Found:
    """A directory or file, and what said so (for the line the command prints)."""

    path: Path
    source: str


def _pyproject_sites(start: Path) -> Found | None:
    """``[tool.l2tpgen] sites`` of the nearest pyproject.toml that has the table."""
    if sys.version_info >= (3, 11):
        import tomllib  # noqa: PLC0415 - startup: tomllib, when no --sites names the sites
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # noqa: PLC0415 - startup: tomli, when no --sites names the sites
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if not candidate.is_file():
            continue
        try:
            document = tomllib.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # not ours to judge here; lint's settings say what is wrong with it
        table = document.get("tool", {}).get("l2tpgen")
        if not isinstance(table, dict) or "sites" not in table:
            continue
        value = table["sites"]
        if not isinstance(value, str) or not value:
            raise DiscoveryError(
                f'{candidate}: [tool.l2tpgen] sites must be a directory name, e.g. sites = "sites"'
            )
        return Found(directory / value, f"[tool.l2tpgen] sites in {candidate}")
    return None


def _upward(start: Path) -> Found | None:
    """``sites/`` here or in a parent, up to the repository root; ``start`` itself if so named."""
    for directory in (start, *start.parents):
        if directory.name == SITES and directory.is_dir():
            return Found(directory, f"{directory} (the sites directory you are in)")
        candidate = directory / SITES
        if candidate.is_dir():
            return Found(candidate, f"{candidate} (found from {start})")
        if (directory / ".git").exists():
            break
    return None


def find_sites(
    given: Path | None, *, cwd: Path | None = None, environ: Mapping[str, str] | None = None
) -> Found:
    """The sites directory (see the module's order); ``./sites`` when nothing answers.

    Raises:
        DiscoveryError: ``[tool.l2tpgen] sites`` is not a directory name.
    """
    if given is not None:
        return Found(given, "--sites")
    env = os.environ if environ is None else environ
    if env.get(SITES_ENV):
        return Found(Path(env[SITES_ENV]), SITES_ENV)
    here = (cwd or Path.cwd()).resolve()
    return (
        _pyproject_sites(here)
        or _upward(here)
        or Found(Path(SITES), "the default (./sites: none found here or above)")
    )


def site_names(directory: Path) -> tuple[str, ...]:
    """The sites in ``directory``: its site files' stems, sorted, once each; none if unreadable.

    A site file is a regular file (or a link to one) named ``*.yaml`` or ``*.yml``; two files
    for one site (``a.yaml``, ``a.yml``) name it once. Only names are read (shell completion
    calls this on every key press; ``validate`` for the sites of a fleet that does not load).
    """
    try:
        with os.scandir(directory) as entries:
            named = [(os.path.splitext(e.name), e) for e in entries]  # noqa: PTH122 - a name
            found = {stem for (stem, suffix), e in named if suffix in SITE_SUFFIXES and e.is_file()}
    except OSError:
        return ()
    return tuple(sorted(found))


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The state directory: ``L2TPGEN_STATE_DIR``, else ``~/.local/state/l2tpgen``."""
    env = os.environ if environ is None else environ
    return Path(env.get(STATE_ENV) or DEFAULT_STATE).expanduser()


@dataclass(frozen=True)
class Simulator:
    """A running simulator: its name, and what its status file says."""

    name: str
    status: SimStatus


def running_simulators(state: Path) -> list[Simulator]:
    """The simulators alive under ``state``, in name order."""
    # startup: the simulators' status files, read by the commands that talk to routers only
    from l2tpgen.sim.lifecycle import STATUS_FILE, SimStatus, alive  # noqa: PLC0415

    found = []
    for path in sorted((state / "sim").glob(f"*/{STATUS_FILE}")):
        status = SimStatus.read(path)
        if status is not None and alive(status.pid):
            found.append(Simulator(path.parent.name, status))
    return found


def _same_directory(a: str | Path, b: Path) -> bool:
    try:
        return Path(a).resolve() == b.resolve()
    except OSError:
        return False


def find_inventory(
    given: Path | None, sites: Path, name: str | None = None, *, state: Path | None = None
) -> Found | None:
    """The inventory to use (see the module's order); None: the site files' own routers.

    Only a simulator started from ``sites`` counts: one started from another fleet is another
    rehearsal, never this one's routers.

    Raises:
        DiscoveryError: ``name`` runs no simulator of these sites, or several run and none is named.
    """
    if given is not None:
        return Found(given, "--inventory")
    mine = [
        sim
        for sim in running_simulators(state or state_dir())
        if _same_directory(sim.status.sites_dir, sites)
    ]
    if name:
        chosen = [sim for sim in mine if sim.name == name]
        if not chosen:
            listed = ", ".join(sim.name for sim in mine) or "none"
            raise DiscoveryError(
                f"no simulator named {name} runs for {sites} (running for it: {listed}); "
                f"start it with `l2tpgen sim up --name {name} -d`"
            )
        mine = chosen
    if not mine:
        return None
    if len(mine) > 1:
        listed = ", ".join(f"{sim.name} (pid {sim.status.pid})" for sim in mine)
        raise DiscoveryError(
            f"{len(mine)} simulators run for {sites}: {listed}; name one with "
            f"{SIM_NAME_ENV}=NAME, or give --inventory FILE"
        )
    (sim,) = mine
    return Found(
        Path(sim.status.inventory),
        f"the simulator {sim.name} (pid {sim.status.pid}) running for {sites}",
    )
