"""``l2tpgen netbox pull``: site files from NetBox (docs/netbox.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, app, check_output_path, err, fail, out, safe
from l2tpgen.cli.loading import load, report_problems
from l2tpgen.errors import FleetValidationError, L2tpgenError
from l2tpgen.files import make_directory, write_files
from l2tpgen.netbox import Selection, find_drift, pull, push
from l2tpgen.netbox.client import Client
from l2tpgen.netbox.http import Budget

if TYPE_CHECKING:
    from l2tpgen.device.inventory import Target
    from l2tpgen.model import Fleet
    from l2tpgen.netbox import PullResult

netbox_app = typer.Typer(help="NetBox as the source of truth.", no_args_is_help=True)
app.add_typer(netbox_app, name="netbox")
TOKEN_ENV = "L2TPGEN_NETBOX_TOKEN"  # noqa: S105 - the name of a variable
# l2tpgen.netbox.client.DEFAULT_TIMEOUT, repeated so that --help does not import pynetbox; a test
# keeps the two equal.
DEFAULT_TIMEOUT = 30.0
TIMEOUT_ENV = "L2TPGEN_NETBOX_TIMEOUT"
# l2tpgen.netbox.http's DEFAULT_DEADLINE, DEFAULT_MAX_PAGES and their variables, likewise.
DEFAULT_DEADLINE = 300.0
DEFAULT_MAX_PAGES = 5000
DEADLINE_ENV = "L2TPGEN_NETBOX_DEADLINE"
MAX_PAGES_ENV = "L2TPGEN_NETBOX_MAX_PAGES"


def _token() -> str:
    token = os.environ.get(TOKEN_ENV, "")
    if not token:
        fail(f"set {TOKEN_ENV} to a NetBox API token")
    return token


def _timeout() -> float:
    return _positive(TIMEOUT_ENV, DEFAULT_TIMEOUT, "a number of seconds, e.g. 30")


def _positive(variable: str, default: float, what: str) -> float:
    """A positive number from the environment (``default`` when unset); exit 2 otherwise."""
    text = os.environ.get(variable) or str(default)
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        fail(f"{variable} is {text[:20]!r}: write {what}")
    return value


def _budget(deadline: float, max_pages: int) -> Budget:
    """The command's limits over all its NetBox requests (``l2tpgen.netbox.http.Budget``)."""
    return Budget(deadline, max_pages)


def _env_budget() -> Budget:
    """The limits of a NetBox read without options (``--inventory netbox``): the variables."""
    deadline = _positive(DEADLINE_ENV, DEFAULT_DEADLINE, "a number of seconds, e.g. 300")
    pages = _positive(MAX_PAGES_ENV, DEFAULT_MAX_PAGES, "a whole number of pages, e.g. 5000")
    if pages != int(pages):
        fail(f"{MAX_PAGES_ENV} is {pages:g}: write a whole number of pages, e.g. 5000")
    return _budget(deadline, int(pages))


def netbox_targets(fleet: Fleet, names: list[str], text: str) -> dict[str, Target] | None:
    """The routers of ``names`` from NetBox (``--inventory netbox...``); None: not a NetBox spec.

    Every device that cannot be a router is printed with its NetBox URL; one of the sites asked
    for (or a site NetBox does not have) stops the command before any router is contacted.
    """
    from l2tpgen.netbox.hosts import map_hosts, parse_spec, targets  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    try:
        spec = parse_spec(text)
    except L2tpgenError as exc:
        fail(str(exc))
    if spec is None:
        return None
    if text == "netbox" and Path(text).exists():
        fail(
            "--inventory netbox: a file named netbox is here too; for the file, give its path "
            "with a directory (e.g. $PWD/netbox)"
        )
    url = os.environ.get("L2TPGEN_NETBOX_URL", "")
    if not url:
        fail("--inventory netbox: set L2TPGEN_NETBOX_URL to NetBox's address")
    try:
        hosts = map_hosts(Client(url, _token(), _timeout(), _env_budget()).devices(spec.selection))
    except L2tpgenError as exc:
        fail(str(exc))
    asked = set(names)
    for site, problems in sorted(hosts.problems.items()):
        for problem in problems:
            label = ("not usable:", "red") if site in asked else ("not used:", "yellow")
            err.print(
                Text.assemble(
                    (f"{safe(problem.url)}:", "bold"), " ", label, " ", safe(problem.message)
                )
            )
    try:
        return targets(hosts, fleet, names, spec)
    except L2tpgenError as exc:
        fail(str(exc))


def _json(result: PullResult, written: list[Path]) -> None:
    report = {
        "ok": not result.unmapped,
        "written": [str(p) for p in written],
        "unmapped": [{"url": u.url, "message": u.message} for u in result.unmapped],
    }
    out.print_json(json.dumps(report))


def _pull(
    url: str, selection: Selection, overlay: Path | None, timeout: float, budget: Budget
) -> PullResult:
    """Pull, printing every object that cannot be mapped; exit 1 on an error."""
    token = _token()
    try:
        result = pull(url, token, selection, overlay, timeout, budget=budget)
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
    return result


def _write(result: PullResult, output: Path, *, force: bool) -> list[Path]:
    targets = [output / f"{s.name}.yaml" for s in result.sites]
    existing = [str(t) for t in targets if t.exists()]
    if existing and not force:
        fail(f"{', '.join(existing)} exist(s); nothing was written (--force overwrites)")
    written: list[Path] = []
    try:
        for pulled, target in zip(result.sites, targets, strict=True):
            make_directory(output)
            written += write_files(target, {"": pulled.text}, private=False)
    except (L2tpgenError, OSError) as exc:
        fail(str(exc))
    return written


Url = Annotated[
    str,
    typer.Option(
        "--url",
        metavar="URL",
        envvar="L2TPGEN_NETBOX_URL",
        help=f"NetBox's address (or L2TPGEN_NETBOX_URL). The API token is read from {TOKEN_ENV}, "
        "never from the command line.",
        show_default=False,
    ),
]
Tag = Annotated[
    str | None,
    typer.Option("--tag", metavar="SLUG", help="Only devices with this tag.", show_default=False),
]
SiteSlug = Annotated[
    str | None,
    typer.Option(
        "--site", metavar="SLUG", help="Only devices of this NetBox site.", show_default=False
    ),
]
Role = Annotated[
    str | None,
    typer.Option("--role", metavar="SLUG", help="Only devices with this role.", show_default=False),
]
Timeout = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        min=0.1,
        envvar="L2TPGEN_NETBOX_TIMEOUT",
        help="How long one request to NetBox may take before l2tpgen gives up (or "
        "L2TPGEN_NETBOX_TIMEOUT).",
    ),
]
Deadline = Annotated[
    float,
    typer.Option(
        "--deadline",
        metavar="SECONDS",
        min=0.1,
        envvar=DEADLINE_ENV,
        help="How long the whole command may talk to NetBox, every request together, before "
        f"l2tpgen gives up (or {DEADLINE_ENV}).",
    ),
]
MaxPages = Annotated[
    int,
    typer.Option(
        "--max-pages",
        metavar="N",
        min=1,
        envvar=MAX_PAGES_ENV,
        help="How many pages (GET requests) the command may read from NetBox before l2tpgen "
        f"gives up (or {MAX_PAGES_ENV}); a `next` link back to a page already read always stops.",
    ),
]
OverlayFile = Annotated[
    Path | None,
    typer.Option(
        "--overlay",
        metavar="FILE",
        help="YAML with what NetBox does not hold (classes, hold-queues, SSH port): defaults for "
        "every site, settings per site.",
        show_default=False,
    ),
]


@netbox_app.command("pull")
def pull_command(
    url: Url,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="DIR", help="Directory to write site files to."),
    ] = Path("sites"),
    tag: Tag = None,
    site: SiteSlug = None,
    role: Role = None,
    overlay: OverlayFile = None,
    timeout: Timeout = DEFAULT_TIMEOUT,
    deadline: Deadline = DEFAULT_DEADLINE,
    max_pages: MaxPages = DEFAULT_MAX_PAGES,
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
    result = _pull(url, Selection(tag, site, role), overlay, timeout, _budget(deadline, max_pages))
    if not result.sites and not result.unmapped:
        fail("no device in NetBox matches the selection; nothing was written")
    names = [f"{s.name}.yaml" for s in result.sites]
    check_output_path(output, "the pull", names, directory=True)
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


@netbox_app.command("diff")
def diff_command(
    url: Url,
    sites: Annotated[
        Path,
        typer.Option("--sites", metavar="DIR", help="Directory of the site files to compare."),
    ] = Path("sites"),
    tag: Tag = None,
    site: SiteSlug = None,
    role: Role = None,
    overlay: OverlayFile = None,
    timeout: Timeout = DEFAULT_TIMEOUT,
    deadline: Deadline = DEFAULT_DEADLINE,
    max_pages: MaxPages = DEFAULT_MAX_PAGES,
) -> None:
    """Drift check: NetBox's intent (what pull would write) against the site files.

    Prints each site and key that differ. Exit 0 when they agree, 1 on drift or when an object
    cannot be mapped; usable in CI. (Site files against the routers: l2tpgen diff --exit-code.)
    """
    result = _pull(url, Selection(tag, site, role), overlay, timeout, _budget(deadline, max_pages))
    try:
        drift = find_drift(result, sites)
    except FleetValidationError as exc:
        report_problems(exc, OutputFormat.text)
    except L2tpgenError as exc:
        fail(str(exc))
    for item in drift:
        if item.key:
            line = f"{item.site}: {item.key}: NetBox {item.netbox} / site files {item.files}"
        else:
            line = f"{item.site}: {item.netbox}; {item.files}"
        out.print(safe(line))
    if result.unmapped:
        fail(f"{len(result.unmapped)} NetBox object(s) could not be mapped")
    if drift:
        fail(f"{len(drift)} difference(s) between NetBox and {sites}")
    err.print(f"NetBox and {safe(str(sites))} agree")


@netbox_app.command("push")
def push_command(
    url: Url,
    sites: Annotated[
        Path,
        typer.Option("--sites", metavar="DIR", help="Directory of the site files to record."),
    ] = Path("sites"),
    tag: Annotated[
        str,
        typer.Option("--tag", metavar="SLUG", help="Tag the recorded devices get (pull --tag)."),
    ] = "l2tpgen",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list the changes.", metavar="")
    ] = False,
    timeout: Timeout = DEFAULT_TIMEOUT,
    deadline: Deadline = DEFAULT_DEADLINE,
    max_pages: MaxPages = DEFAULT_MAX_PAGES,
) -> None:
    """Record the fleet's site files (e.g. what import wrote) in NetBox, idempotently.

    Devices, interfaces, addresses, VLANs and VPWS L2VPNs with their terminations, as pull reads
    them back; a second push changes nothing. --dry-run lists the changes and writes nothing.
    """
    token = _token()
    fleet = load(sites)
    try:
        changes = push(
            url,
            token,
            fleet,
            dry_run=dry_run,
            tag=tag,
            timeout=timeout,
            budget=_budget(deadline, max_pages),
        )
    except L2tpgenError as exc:
        fail(str(exc))
    verb = "would " if dry_run else ""
    for change in changes:
        fields = f" ({', '.join(change.fields)})" if change.fields else ""
        out.print(safe(f"{verb}{change.action} {change.kind} {change.name}{fields}"))
    if not changes:
        err.print("NetBox already records this fleet: no change")
    else:
        err.print(f"{len(changes)} change(s){' (dry run: nothing written)' if dry_run else ''}")
