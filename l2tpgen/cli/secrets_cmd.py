"""``l2tpgen secrets``: the variables the fleet's secrets come from, set or not, never a value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, fail, load, out, safe
from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from l2tpgen.model.needs import SecretNeed

_MARK = {"set": "set", "missing": "MISSING", "refused": "REFUSED"}


@app.command()
def secrets(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="Sites to check (default: every site in --sites).",
            metavar="[SITE]...",
            show_default=False,
        ),
    ] = None,
    sites: SitesOption = Path("sites"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """List every environment variable the sites' secrets come from, and whether it is set.

    The sites are rendered as render and push render them; each variable their configs read is
    listed with what it is for, the sites that need it, and its state: set, MISSING (unset or
    empty) or REFUSED (set to a value l2tpgen would not use, with the reason). Never a value.
    Exit 1 when one is missing or refused.
    """
    from l2tpgen.model.needs import PURPOSES  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.platforms.render import secret_needs  # noqa: PLC0415 - start-up stays cheap

    fleet = load(sites, fmt, names or ())
    try:
        needs = secret_needs(fleet, names or None)
    except L2tpgenError as exc:
        fail(str(exc))
    bad = [n for n in needs if n.state != "set"]
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps(
                {
                    "ok": not bad,
                    "variables": [n.as_dict() for n in needs],
                    "missing": [n.variable for n in needs if n.state == "missing"],
                    "refused": [n.variable for n in needs if n.state == "refused"],
                }
            )
        )
    else:
        _print(needs, PURPOSES)
    if bad:
        raise typer.Exit(1)


def _print(needs: list[SecretNeed], purposes: dict[str, str]) -> None:
    if not needs:
        out.print("no secrets: no site selected renders a secret", markup=False)
        return
    for need in needs:
        out.print(
            f"{_MARK[need.state]:<8} {need.variable}  ({', '.join(need.sites)})", markup=False
        )
        for purpose in need.purposes:
            out.print(f"         {purposes[purpose]}", markup=False)
        if need.problem:
            out.print(f"         {need.problem}", markup=False)
    bad = [n.variable for n in needs if n.state != "set"]
    if bad:
        err.print(
            safe(
                f"{len(bad)} of {len(needs)} variables missing or refused: export "
                + " ".join(bad)
                + " (for example `read -rs NAME && export NAME`; a master key: "
                "`openssl rand -hex 32`)"
            ),
            markup=False,
        )
    else:
        out.print(f"ok: all {len(needs)} variables set", markup=False)


def warn_unset(unset: list[SecretNeed]) -> None:
    """One warning per missing or refused variable, on stderr (``validate``)."""
    for need in unset:
        state = "is not set" if need.state == "missing" else "is refused"
        err.print(
            f"warning: environment variable {need.variable} {state} (needed by "
            f"{', '.join(need.sites)}); `l2tpgen secrets` says what each variable is for",
            style="yellow",
            markup=False,
        )
