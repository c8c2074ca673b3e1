"""The last step of an import: validate the sites as a fleet, attach notes, write the texts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from l2tpgen.errors import FleetValidationError
from l2tpgen.importer.notes import Note
from l2tpgen.importer.results import ImportedSite, ImportRefusedError, ImportResult
from l2tpgen.importer.writer import site_yaml
from l2tpgen.model.fleet import Fleet
from l2tpgen.model.problems import format_path
from l2tpgen.model.schema_errors import explain
from l2tpgen.model.site import Site

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.importer.sites import Draft

MANAGEMENT = (
    "management.host is the WAN address: a config does not say how l2tpgen reaches the router "
    "(change it if SSH is elsewhere)"
)


def _header(draft: Draft, notes: Sequence[Note]) -> list[str]:
    router = draft.router
    if router is None:
        peers = ", ".join(sorted({str(v["peer"]) for v in draft.vlans}))
        lines = [
            (
                f"Stub written by `l2tpgen import`: no config was given for the router at "
                f"{draft.address}, the other end of pseudowires of {peers}."
            ),
            (
                "Fill in its wan and lan (`l2tpgen validate` points at them) and check the rest, "
                "or import its config together with the others."
            ),
        ]
    else:
        lines = [
            f"Imported by `l2tpgen import` from {router.file} (hostname {router.hostname}).",
            MANAGEMENT + ".",
        ]
    if notes:
        lines += ["", "Not in this file: what the router has and the model cannot say:"]
        lines += [f"  {n.where}: {n.message}" if n.where else f"  {n.message}" for n in notes]
    return lines


def _validated(sites: Sequence[tuple[Draft, dict[str, object]]]) -> list[Site]:
    """The imported sites as models (stubs left out).

    Raises:
        ImportRefusedError: a site read from a config is not valid (one note per file).
    """
    models: list[Site] = []
    refusals: list[Note] = []
    for draft, data in sites:
        if draft.router is None:
            continue
        try:
            models.append(Site.model_validate(data))
        except ValidationError as exc:
            message, hint = explain(exc.errors(include_url=False, include_input=False)[0])
            refusals.append(
                Note(
                    draft.router.file,
                    0,
                    0,
                    "refused",
                    f"the site read from it is not valid: {message}"
                    + (f" ({hint})" if hint else ""),
                )
            )
    if refusals:
        raise ImportRefusedError(refusals)
    return models


def _warnings(sites: Sequence[tuple[Draft, dict[str, object]]], models: list[Site]) -> list[Note]:
    """The fleet's problems, a note per stub, and the management reminder."""
    files = {draft.name: f"{draft.name}.yaml" for draft, _ in sites}
    warnings: list[Note] = []
    try:
        Fleet.build(models, files)
    except FleetValidationError as exc:
        warnings += [
            Note(
                "", 0, 0, "warning", f"{files[p.site]}: {format_path(p.path)}: {p.message}", p.site
            )
            for p in exc.problems
        ]
    for draft, _ in sites:
        if draft.router is None:
            warnings.append(
                Note(
                    "",
                    0,
                    0,
                    "warning",
                    f"{draft.name}.yaml is a stub for the router at "
                    f"{draft.address} (no config given): fill in its wan and lan, or import its "
                    "config with the others",
                    draft.name,
                )
            )
    if any(d.router is not None for d, _ in sites):
        warnings.append(Note("", 0, 0, "warning", MANAGEMENT))
    return warnings


def finish(sites: Sequence[tuple[Draft, dict[str, object]]], notes: list[Note]) -> ImportResult:
    """Validate, then give each site its notes and its text."""
    models = _validated(sites)
    every = list(notes) + [n for draft, _ in sites for n in draft.notes]
    every += _warnings(sites, models)
    unique = sorted(set(every), key=lambda n: (n.kind != "warning", n.file, n.line, n.message))
    imported = []
    for draft, data in sites:
        source = draft.router.file if draft.router else None
        mine = [n for n in unique if n.kind == "unexpressed" and n.file == source and source]
        imported.append(
            ImportedSite(
                draft.name, source, data, site_yaml(data, _header(draft, mine)), tuple(mine)
            )
        )
    return ImportResult(tuple(imported), tuple(unique))
