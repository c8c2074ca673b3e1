"""``l2tpgen netbox pull``: site files from NetBox (docs/netbox.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, err, fail, out, safe
from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from l2tpgen.netbox import PullResult

netbox_app = typer.Typer(help="NetBox as the source of truth.", no_args_is_help=True)
TOKEN_ENV = "L2TPGEN_NETBOX_TOKEN"  # noqa: S105 - the name of a variable


def _json(result: PullResult, written: list[Path]) -> None:
    report = {
        "ok": not result.unmapped,
        "written": [str(p) for p in written],
        "unmapped": [{"url": u.url, "message": u.message} for u in result.unmapped],
    }
    out.print_json(json.dumps(report))


def _write(result: PullResult, output: Path, *, force: bool) -> list[Path]:
    from l2tpgen.cli.sites import write_files  # noqa: PLC0415 - start-up stays cheap

    targets = [output / f"{s.name}.yaml" for s in result.sites]
    existing = [str(t) for t in targets if t.exists()]
    if existing and not force:
        fail(f"{', '.join(existing)} exist(s); nothing was written (--force overwrites)")
    written: list[Path] = []
    try:
        for pulled, target in zip(result.sites, targets, strict=True):
            output.mkdir(parents=True, exist_ok=True)
            written += write_files(target, {"": pulled.text}, private=False)
    except (L2tpgenError, OSError) as exc:
        fail(str(exc))
    return written


@netbox_app.command("pull")
def pull_command(
    url: Annotated[
        str,
        typer.Option(
            "--url",
            metavar="URL",
            envvar="L2TPGEN_NETBOX_URL",
            help="NetBox's address (or L2TPGEN_NETBOX_URL). The API token is read from "
            f"{TOKEN_ENV}, never from the command line.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="DIR", help="Directory to write site files to."),
    ] = Path("sites"),
    tag: Annotated[
        str | None,
        typer.Option(
            "--tag", metavar="SLUG", help="Only devices with this tag.", show_default=False
        ),
    ] = None,
    site: Annotated[
        str | None,
        typer.Option(
            "--site", metavar="SLUG", help="Only devices of this NetBox site.", show_default=False
        ),
    ] = None,
    role: Annotated[
        str | None,
        typer.Option(
            "--role", metavar="SLUG", help="Only devices with this role.", show_default=False
        ),
    ] = None,
    overlay: Annotated[
        Path | None,
        typer.Option(
            "--overlay",
            metavar="FILE",
            help="YAML with what NetBox does not hold (classes, hold-queues, SSH port): "
            "defaults for every site, settings per site.",
            show_default=False,
        ),
    ] = None,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help="Write the sites that map even if some objects do not (still exit 1).",
            metavar="",
        ),
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite site files that exist.", metavar="")
    ] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Write one site file per selected NetBox device, from its VPWS L2VPNs and addresses.

    Every object that cannot be mapped is reported with its NetBox URL, and then nothing is
    written (exit 1) unless --partial. What NetBox does not hold comes from --overlay.
    """
    from l2tpgen.netbox import Selection, pull  # noqa: PLC0415 - start-up stays cheap

    token = os.environ.get(TOKEN_ENV, "")
    if not token:
        fail(f"set {TOKEN_ENV} to a NetBox API token")
    try:
        result = pull(url, token, Selection(tag, site, role), overlay)
    except L2tpgenError as exc:
        fail(str(exc))
    for unmapped in result.unmapped:
        err.print(
            Text.assemble(
                (f"{safe(unmapped.url)}:", "bold"),
                " ",
                ("not mapped:", "red"),
                " ",
                safe(unmapped.message),
            )
        )
    if not result.sites and not result.unmapped:
        fail("no device in NetBox matches the selection; nothing was written")
    written = _write(result, output, force=force) if not result.unmapped or partial else []
    if fmt is OutputFormat.json:
        _json(result, written)
    else:
        for path in written:
            out.print(f"wrote {safe(str(path))}")
    if result.unmapped:
        count = len(result.unmapped)
        done = f"wrote {len(written)} site file(s)" if partial else "nothing was written"
        fail(f"{count} NetBox object(s) could not be mapped; {done}")
    err.print(f"next: l2tpgen validate --sites {safe(str(output))}")
