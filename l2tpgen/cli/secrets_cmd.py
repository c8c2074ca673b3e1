"""``l2tpgen secrets``: the variables the fleet's secrets come from, set or not, never a value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.api.sites import pair_keys
from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, fail, out, safe
from l2tpgen.cli.loading import load
from l2tpgen.errors import L2tpgenError
from l2tpgen.model.needs import PURPOSES
from l2tpgen.platforms.render import secret_needs

if TYPE_CHECKING:
    from l2tpgen.model.needs import SecretNeed
    from l2tpgen.model.pair_keys import KeyComparison

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
    Where the two ends of a pair name different master-key variables, their pair keys are
    compared (a fingerprint, in memory, never shown): DIFFER when they would not match, or why
    the comparison could not be made. Exit 1 when one is missing, refused or differs.
    """
    fleet = load(sites, fmt, names or ())
    try:
        needs = secret_needs(fleet, names or None)
    except L2tpgenError as exc:
        fail(str(exc))
    comparisons = _selected(pair_keys(fleet)[0], names)  # compared by fingerprint only
    bad = [n for n in needs if n.state != "set"]
    differ = [c for c in comparisons if c.outcome == "differ"]
    if fmt is OutputFormat.json:
        out.print_json(json.dumps(_as_json(needs, comparisons)))
    else:
        _print(needs, PURPOSES, comparisons)
        _print_pairs(comparisons)
    if bad or differ:
        raise typer.Exit(1)


def _selected(comparisons: list[KeyComparison], names: list[str] | None) -> list[KeyComparison]:
    """The comparisons of pairs with an end among ``names`` (all without names)."""
    return [c for c in comparisons if not names or {c.a, c.b} & set(names)]


def _as_json(needs: list[SecretNeed], comparisons: list[KeyComparison]) -> dict[str, object]:
    """``secrets --format json``: states and comparisons, never a value."""
    bad = any(n.state != "set" for n in needs)
    return {
        "ok": not bad and all(c.outcome != "differ" for c in comparisons),
        "variables": [n.as_dict() for n in needs],
        "missing": [n.variable for n in needs if n.state == "missing"],
        "refused": [n.variable for n in needs if n.state == "refused"],
        "pair_keys": [c.as_dict() for c in comparisons],
    }


_PAIR_MARK = {"same": "same", "differ": "DIFFER", "unknown": "UNKNOWN"}


def _print_pairs(comparisons: list[KeyComparison]) -> None:
    """Each pair whose ends name different variables: the comparison, never a value."""
    for c in comparisons:
        out.print(safe(f"{_PAIR_MARK[c.outcome]:<8} {c.a} <-> {c.b}"), markup=False)
        out.print(safe(f"         {c.describe()}"), markup=False)
    differ = [c for c in comparisons if c.outcome == "differ"]
    if differ:
        err.print(
            f"{len(differ)} pair key(s) differ between the two ends: name the same variable at "
            "both ends, or give both variables the same value",
            markup=False,
        )


def _pairs_summary(comparisons: list[KeyComparison]) -> str:
    """``; 1 pair's keys DIFFER; 2 pairs' keys not compared (UNKNOWN)``: what is not the same."""
    said = []
    for outcome, what in (("differ", "DIFFER"), ("unknown", "not compared (UNKNOWN)")):
        count = sum(c.outcome == outcome for c in comparisons)
        if count:
            pairs = "pair's" if count == 1 else "pairs'"
            said.append(f"{count} {pairs} keys {what}")
    return "".join(f"; {part}" for part in said)


def _print(
    needs: list[SecretNeed], purposes: dict[str, str], comparisons: list[KeyComparison]
) -> None:
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
    else:  # "ok" as the exit status: a pair that DIFFERs is not (an UNKNOWN one is said, exit 0)
        ok = "" if any(c.outcome == "differ" for c in comparisons) else "ok: "
        pairs = _pairs_summary(comparisons)
        out.print(f"{ok}all {len(needs)} variables set{pairs}", markup=False)
