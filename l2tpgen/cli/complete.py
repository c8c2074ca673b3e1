"""Shell completion of the words l2tpgen knows: site names and platforms (rule codes: ``lint.py``).

Typer calls these while the shell completes (``l2tpgen --install-completion``); each must be
quick and must never fail or print: completion reads only file names (a site's name is its file's
stem, as ``resolve_site`` reads it) and the registry (``l2tpgen.traits``).

Where the site files are: ``sites_directory``, the one place that decides (``--sites`` as typed
on the line, else ``./sites``), so that finding the sites directory another way changes it alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from l2tpgen.discovery import DiscoveryError, find_sites, site_names
from l2tpgen.traits import DRIVERS


def sites_directory(given: object) -> Path:
    """The sites directory completion reads: ``--sites`` as typed, else the one found.

    Found as every command finds it (``l2tpgen.discovery``: $L2TPGEN_SITES, pyproject.toml,
    ./sites here or above).
    """
    try:
        return find_sites(Path(str(given)) if given else None).path
    except DiscoveryError:
        return Path("sites")


def complete_site(ctx: typer.Context, incomplete: str) -> list[str]:
    """Site names for a SITE argument, from the sites directory this command line names."""
    directory = sites_directory(ctx.params.get("sites"))
    taken = ctx.params.get("sites_args") or ()
    return [n for n in site_names(directory) if n.startswith(incomplete) and n not in taken]


def complete_platform(incomplete: str) -> list[tuple[str, str]]:
    """The platforms of the registry (``l2tpgen.traits``), each with its title."""
    return [(d.name, d.title) for d in DRIVERS.values() if d.name.startswith(incomplete)]


# A command's SITE argument (render, hosts): a site's name or its file, completed from the sites.
SiteArgument = Annotated[
    str,
    typer.Argument(
        help="Site name (site-a) or path to its site file.", autocompletion=complete_site
    ),
]
