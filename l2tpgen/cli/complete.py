"""Shell completion of the words l2tpgen knows: site names, platforms, lint rule codes.

Typer calls these while the shell completes (``l2tpgen --install-completion``); each must be
quick and must never fail or print: completion reads only file names (a site's name is its file's
stem, as ``resolve_site`` reads it) and the registries (``l2tpgen.traits``, the lint rules).

Where the site files are: ``sites_directory``, the one place that decides (``--sites`` as typed
on the line, else ``./sites``), so that finding the sites directory another way changes it alone.
"""

from __future__ import annotations

from pathlib import Path

import typer  # noqa: TC002 - typer reads the callbacks' annotations at run time

from l2tpgen.discovery import site_names


def sites_directory(given: object) -> Path:
    """The sites directory completion reads: ``--sites`` as typed, else the one found.

    Found as every command finds it (``l2tpgen.discovery``: $L2TPGEN_SITES, pyproject.toml,
    ./sites here or above).
    """
    from l2tpgen.discovery import DiscoveryError, find_sites  # noqa: PLC0415 - start-up

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
    from l2tpgen.traits import DRIVERS  # noqa: PLC0415 - only when completing

    return [(d.name, d.title) for d in DRIVERS.values() if d.name.startswith(incomplete)]


def complete_rule(incomplete: str) -> list[tuple[str, str]]:
    """Lint rule codes (and names, for a word that is not a code's start), each with its name."""
    from l2tpgen.lint.rules import ALL_RULES  # noqa: PLC0415 - only when completing

    upper = incomplete.upper()
    codes = [(r.code, r.name) for r in ALL_RULES if r.code.startswith(upper)]
    if codes:
        return codes
    return [(r.name, r.code) for r in ALL_RULES if r.name.startswith(incomplete.lower())]
