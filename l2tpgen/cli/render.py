"""``l2tpgen render``: the configuration of one site, for its platform."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from l2tpgen.api import render as rendered
from l2tpgen.cli.app import SitesOption, app, check_output_path, err, fail
from l2tpgen.cli.complete import SiteArgument, complete_platform
from l2tpgen.cli.loading import load
from l2tpgen.errors import L2tpgenError, SecretError
from l2tpgen.files import is_stdout
from l2tpgen.lint.formats import text_line
from l2tpgen.model import resolve_site
from l2tpgen.traits import DRIVERS, NAMES, driver

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.lint import Finding


@app.command()
def render(
    site: SiteArgument,
    sites: SitesOption = Path("sites"),
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform",
            metavar="|".join(NAMES),
            autocompletion=complete_platform,
            help="Render for another platform than the site's.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="The platform's format, its first the default: "
            + "; ".join(
                f"{d.short_title or d.title} {' or '.join(d.formats)}" for d in DRIVERS.values()
            )
            + " (networkd: .netdev/.network files).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write to FILE instead of stdout (- is stdout). A config of several files "
            "(networkd, a Linux PE with IPsec) goes into a directory: name one (made if missing); "
            "a file name is refused. A device or FIFO is written into; a symbolic link is refused.",
        ),
    ] = None,
    reveal_secrets: Annotated[
        bool,
        typer.Option(
            "--reveal-secrets",
            help="Write secrets (type 7) from their environment variables instead of masking.",
        ),
    ] = False,
) -> None:
    """Print (or write) the configuration of one site, for its platform (or --platform).

    The site and its peers are validated first (peer addresses come from the peers' own files);
    `validate` checks the whole fleet. A Cisco config is linted; an error-level finding stops it.
    Files written with --reveal-secrets are readable by their owner only (mode 0600).
    """
    if platform is not None and platform not in NAMES:
        raise typer.BadParameter(f"choose one of: {', '.join(NAMES)}", param_hint="--platform")
    try:
        directory, name = resolve_site(site, sites)
    except L2tpgenError as exc:
        fail(str(exc))
    fleet = load(directory, names=[name])
    try:
        rendering = rendered(fleet, name, platform=platform, fmt=fmt, reveal_secrets=reveal_secrets)
    except SecretError as exc:
        fail(f"{exc}; or leave out --reveal-secrets")
    except L2tpgenError as exc:
        fail(str(exc))
    if rendering.errors:
        _refuse_lint_errors(name, rendering.errors)
    if output is None or is_stdout(output):
        sys.stdout.write(rendering.text)
        return
    chosen = driver(platform or fleet.site(name).effective_platform)
    what = f"{name}'s {chosen.short_title or chosen.title} config"
    check_output_path(output, what, list(rendering.files), example=f"{name}.cfg")
    try:
        written = rendering.write(output)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {', '.join(map(str, written))}")


def _refuse_lint_errors(name: str, errors: Sequence[Finding]) -> NoReturn:
    """The rendered config's error-level findings (the site linted alone); exit 1."""
    for finding in errors:
        err.print(text_line(finding), markup=False, style="red")
    fail(f"the rendered config of {name} has error-level findings; nothing was written")
