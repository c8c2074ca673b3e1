"""``l2tpgen import``: site files from running configs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, app, check_output_path, err, fail, out, safe
from l2tpgen.errors import L2tpgenError
from l2tpgen.files import make_directory, read_limited, write_files
from l2tpgen.importer import (
    ImportOptions,
    ImportRefusedError,
    import_configs,
    parse_port_choice,
    parse_vlans,
)
from l2tpgen.importer.port_mode import PortChoiceError
from l2tpgen.ios.encoding import decode

if TYPE_CHECKING:
    from l2tpgen.importer import ImportResult, Note

STDIN = "-"
_STYLE = {"warning": "yellow", "unexpressed": "cyan", "refused": "red"}


def _read(paths: list[Path]) -> list[tuple[str, str]]:
    configs = []
    for path in paths:
        name = "<stdin>" if str(path) == STDIN else str(path)
        try:
            data = read_limited(path)  # `-` is standard input; 64 MiB at most
        except L2tpgenError as exc:
            fail(str(exc))
        configs.append((name, decode(data)[0]))
    return configs


def _names(values: list[str] | None) -> dict[str, str]:
    names = {}
    for value in values or []:
        key, sep, name = value.partition("=")
        if not sep or not key.strip() or not name.strip():
            raise typer.BadParameter(
                f"{value!r}: write KEY=NAME (KEY: a config file, a hostname or a peer address)",
                param_hint="--name",
            )
        names[key.strip()] = name.strip()
    return names


def _print_note(note: Note) -> None:
    where = f"{safe(note.where)}: " if note.where else ""
    label = "not in the model" if note.kind == "unexpressed" else note.kind
    err.print(Text.assemble(where, (f"{label}:", _STYLE[note.kind]), " ", safe(note.message)))


def _json(result: ImportResult | None, written: list[Path], refused: tuple[Note, ...]) -> None:
    notes = result.notes if result else ()
    sites = result.sites if result else ()
    report = {
        "ok": not refused,
        "written": [
            {"site": s.name, "file": str(p), "source": s.source, "stub": s.stub}
            for s, p in zip(sites, written, strict=False)
        ],
        "warnings": [n.as_dict() for n in notes if n.kind == "warning"],
        "unexpressed": [n.as_dict() for n in notes if n.kind == "unexpressed"],
        "refused": [n.as_dict() for n in refused],
    }
    out.print_json(json.dumps(report))


def _write_sites(output: Path, result: ImportResult, targets: list[Path]) -> None:
    make_directory(output, "cannot write to")
    for site, target in zip(result.sites, targets, strict=True):
        write_files(target, {"": site.text}, private=False)


def _refused(notes: tuple[Note, ...], fmt: OutputFormat) -> None:
    """The notes of a refused import, as JSON or one line each."""
    if fmt is OutputFormat.json:
        _json(None, [], notes)
        return
    for note in notes:
        _print_note(note)


def _print_written(result: ImportResult, targets: list[Path], output: Path) -> None:
    """The notes, each file written, and the next step (none while a stub is left to fill)."""
    for note in result.notes:
        _print_note(note)
    for site, target in zip(result.sites, targets, strict=True):
        what = "stub" if site.stub else f"from {site.source}"
        out.print(f"wrote {safe(str(target))} ({what})")
    if any(site.stub for site in result.sites):
        raise typer.Exit(0)
    err.print(f"next: l2tpgen validate --sites {safe(str(output))}")


@app.command("import")
def import_command(
    configs: Annotated[
        list[Path],
        typer.Argument(
            metavar="CONFIG...",
            help="Running configs, one file per router (show running-config, or pasted); - reads "
            "standard input.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="DIR", help="Directory to write site files to."),
    ] = Path("sites"),
    vlans: Annotated[
        list[str] | None,
        typer.Option(
            "--vlans",
            metavar="LIST",
            help="VLANs a single-trunk router carries: 2996-2999,3000 for every such router, or "
            "SITE=LIST for one (repeatable).",
            show_default=False,
        ),
    ] = None,
    port_xconnect: Annotated[
        list[str] | None,
        typer.Option(
            "--port-xconnect",
            metavar="CHOICE",
            help="What to do with a port-mode (single-trunk) xconnect: keep (as it stands, owned "
            "and linted) or migrate (one pseudowire per VLAN, needs --vlans), for every router "
            "or SITE=CHOICE for one (repeatable; default: migrate where --vlans gives the VLANs, "
            "else keep).",
            show_default=False,
        ),
    ] = None,
    names: Annotated[
        list[str] | None,
        typer.Option(
            "--name",
            metavar="KEY=NAME",
            help="Site name for a config file, a hostname or a stub's peer address (default: the "
            "hostname; repeatable).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite site files that exist.", metavar="")
    ] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Write one site file per router from its running config (brownfield).

    Peers are matched by address across the given configs; an xconnect to a router not given
    becomes a stub site with a warning. Secrets become secret_env names, never values. What the
    model cannot express is listed, here and as comments in the files. A single-trunk router
    (xconnect on the whole LAN port) keeps it as it stands, or is migrated to one pseudowire per
    VLAN when --vlans gives them (--port-xconnect decides otherwise). Exit 1 (nothing written) if
    a config cannot be imported.
    """
    try:
        chosen = parse_vlans(vlans or [])
    except L2tpgenError as exc:
        raise typer.BadParameter(str(exc), param_hint="--vlans") from None
    try:
        port = parse_port_choice(port_xconnect or [])
    except L2tpgenError as exc:
        raise typer.BadParameter(str(exc), param_hint="--port-xconnect") from None
    options = ImportOptions(_names(names), chosen, port)
    try:
        result = import_configs(_read(configs), options)
    except ImportRefusedError as exc:
        _refused(exc.notes, fmt)
        fail(str(exc))
    except PortChoiceError as exc:  # a SITE= that names no router given
        raise typer.BadParameter(str(exc), param_hint="--port-xconnect") from None
    targets = [output / f"{site.name}.yaml" for site in result.sites]
    names = [t.name for t in targets]
    check_output_path(output, "the import", names, directory=True)
    existing = [str(t) for t in targets if t.exists()]
    if existing and not force:
        fail(
            f"{', '.join(existing)} exist{'s' if len(existing) == 1 else ''}; nothing was "
            "written (--force overwrites)"
        )
    try:
        _write_sites(output, result, targets)
    except L2tpgenError as exc:
        fail(str(exc))
    if fmt is OutputFormat.json:
        _json(result, targets, ())
        return
    _print_written(result, targets, output)
