"""Commands on site files: validate, render, mtu."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import (
    OutputFormat,
    SitesOption,
    app,
    err,
    fail,
    load,
    out,
    problem_dict,
    safe,
)
from l2tpgen.errors import L2tpgenError
from l2tpgen.files import UserFileError, is_stdout, write_output
from l2tpgen.mtu import COOKIE_SIZES, Encapsulation, Esp, budget_matrix, overhead_budget
from l2tpgen.platforms import DRIVERS, NAMES, driver

if TYPE_CHECKING:
    from rich.table import Table

    from l2tpgen.model import Fleet, Problem
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.mtu import OverheadBudget


class EncapChoice(str, Enum):
    """L2TPv3 data encapsulation."""

    ip = "ip"
    udp = "udp"


class IpsecChoice(str, Enum):
    """IPsec ESP around the pseudowire."""

    none = "none"
    transport = "transport"
    tunnel = "tunnel"


class TransformChoice(str, Enum):
    """ESP transforms (the model's ``protection.transform``)."""

    aes_gcm_128 = "aes-gcm-128"
    aes_gcm_256 = "aes-gcm-256"
    aes_cbc_128_sha256 = "aes-cbc-128-sha256"
    aes_cbc_256_sha256 = "aes-cbc-256-sha256"


@app.command()
def validate(
    sites: SitesOption = Path("sites"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Load every site file and check the fleet as a whole.

    Every problem is reported at once, as file:line:column with a hint; exit 1 if there is any.
    Warnings (a peer's tunnel source the site files do not show reachable) leave the exit at 0.
    """
    from l2tpgen.model.interface_checks import interface_hints  # noqa: PLC0415
    from l2tpgen.model.load import locate_problems  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.model.protection import unconfirmed  # noqa: PLC0415
    from l2tpgen.model.underlay import check_underlay, reaches  # noqa: PLC0415

    fleet = load(sites, fmt)
    count = sum(len(site.vlans) for site in fleet.sites.values()) // 2
    pairs = fleet.pairs()
    hints = interface_hints(fleet.sites.values())
    warnings = locate_problems([*hints, *check_underlay(fleet.sites)], fleet.files)
    if fmt is OutputFormat.json:
        summary = {
            "ok": True,
            "sites": list(fleet.sites),
            "pseudowires": count,
            "problems": [],
            "warnings": [problem_dict(w) for w in warnings],
            "underlay": [r.as_dict() for r in reaches(fleet.sites)],
            "pairs": [
                {
                    **_pair_dict(a, b, n, protection),
                    "notes": list(unconfirmed(fleet.sites[a], fleet.sites[b], protection)),
                }
                for a, b, n, protection in pairs
            ],
        }
        out.print_json(json.dumps(summary))
        return
    _print_warnings(warnings)
    noted = f" ({len(warnings)} warnings)" if warnings else ""
    out.print(f"ok: {len(fleet.sites)} sites, {count} pseudowires, no problems{noted}")
    for a, b, n, protection in pairs:
        out.print(f"{a} <-> {b}: {n} pseudowires, {protection.describe()}", markup=False)
        for note in unconfirmed(fleet.sites[a], fleet.sites[b], protection):
            out.print(f"  note: {note}", markup=False)


def _print_warnings(warnings: list[Problem]) -> None:
    """``file:line:column: warning: ...`` and its hint on stderr, as errors are printed."""
    from rich.text import Text  # noqa: PLC0415 - start-up stays cheap

    for warning in warnings:
        err.print(
            Text.assemble(
                (f"{safe(warning.where)}:", "bold"),
                " ",
                ("warning:", "yellow"),
                " ",
                safe(warning.message),
            )
        )
        if warning.hint:
            err.print(Text.assemble("  ", ("hint:", "cyan"), " ", safe(warning.hint)))


def _pair_dict(a: str, b: str, count: int, protection: PathProtection) -> dict[str, object]:
    ipsec = protection.ipsec
    return {
        "sites": [a, b],
        "pseudowires": count,
        "protection": protection.mode,
        "stated": protection.stated,
        "trusted": protection.trusted,
        "reason": protection.reason,
        "transform": protection.transform if ipsec else None,
        "ipsec_mode": protection.ipsec_mode if ipsec else None,
        "nat_t": protection.nat_t if ipsec else None,
    }


@app.command()
def render(
    site: Annotated[str, typer.Argument(help="Site name (site-a) or path to its site file.")],
    sites: SitesOption = Path("sites"),
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform",
            help=f"Render for another platform than the site's ({', '.join(NAMES)}).",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
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
            help="Write to FILE (a directory for networkd) instead of stdout; - is stdout. A "
            "device or FIFO is written into; a symbolic link is refused.",
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
    """Print (or write) the configuration of one site, for its platform (``--platform``).

    The site and its peers are validated first (peer addresses come from the peers' own files);
    `validate` checks the whole fleet. A Cisco config is linted; an error-level finding stops it.
    Files written with --reveal-secrets are readable by their owner only (mode 0600).
    """
    from l2tpgen.model import resolve_site  # noqa: PLC0415 - start-up stays cheap

    if platform is not None and platform not in NAMES:
        raise typer.BadParameter(f"choose one of: {', '.join(NAMES)}", param_hint="--platform")
    try:
        directory, name = resolve_site(site, sites)
    except L2tpgenError as exc:
        fail(str(exc))
    fleet = load(directory, names=[name])
    chosen = driver(platform or fleet.site(name).effective_platform)
    try:
        files = render_files(fleet, name, platform, fmt, reveal_secrets=reveal_secrets)
    except L2tpgenError as exc:
        fail(str(exc))
    if chosen.lint_platform is not None:
        _refuse_lint_errors(name, files[""], chosen.lint_platform)
    if output is None or is_stdout(output):
        sys.stdout.write(join_files(files))
        return
    try:
        written = write_files(output, files, private=reveal_secrets)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {', '.join(map(str, written))}")


def emit_text(output: Path | None, text: str) -> None:
    """One generated text to stdout (no ``-o``, or ``-o -``) or to the file ``-o`` names."""
    if output is None or is_stdout(output):
        sys.stdout.write(text)
        return
    try:
        write_files(output, {"": text}, private=False)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {output}")


def render_files(
    fleet: Fleet, name: str, platform: str | None, fmt: str | None, *, reveal_secrets: bool
) -> dict[str, str]:
    """``l2tpgen.render.render_files``, imported when a command renders (start-up stays cheap)."""
    from l2tpgen.render import render_files as render  # noqa: PLC0415

    return render(fleet, name, fmt, platform=platform, reveal_secrets=reveal_secrets)


def join_files(files: dict[str, str]) -> str:
    """``l2tpgen.render.join_files``."""
    from l2tpgen.render import join_files as join  # noqa: PLC0415

    return join(files)


def write_files(output: Path, files: dict[str, str], *, private: bool) -> list[Path]:
    """Write one config to ``output``, or several files into the directory ``output``.

    Each file goes through ``l2tpgen.files.write_output``: a regular file is written whole or
    not at all (a temporary file, then a rename), with mode 0600 when it holds secrets; a device
    or FIFO is written into; a symbolic link is refused.

    Raises:
        UserFileError: a path cannot be written (names it and says why).
    """
    if list(files) == [""]:
        targets = [(output, files[""])]
    else:
        try:
            output.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserFileError(f"cannot make directory {output}: {exc.strerror}") from exc
        targets = [(output / file, text) for file, text in files.items()]
    for path, text in targets:
        write_output(path, text, mode=0o600 if private else 0o644)
    return [path for path, _ in targets]


def _refuse_lint_errors(name: str, text: str, platform: str) -> None:
    """Lint the rendered config alone (the one site); exit 1 on an error-level finding."""
    from l2tpgen.lint import ConfigText, Severity, lint_configs  # noqa: PLC0415 - start-up
    from l2tpgen.lint.formats import text_line  # noqa: PLC0415
    from l2tpgen.lint.origins import rendered_name  # noqa: PLC0415

    linted = lint_configs([ConfigText(rendered_name(name), text, platform=platform, rendered=True)])
    errors = [f for f in linted if f.severity is Severity.ERROR]
    if errors:
        for finding in errors:
            err.print(text_line(finding), markup=False, style="red")
        fail(f"the rendered config of {name} has error-level findings; nothing was written")


def _budget_table(budget: OverheadBudget) -> Table:
    from rich.table import Table  # noqa: PLC0415 - start-up stays cheap
    from rich.text import Text  # noqa: PLC0415

    over = f", {budget.esp.describe()}" if budget.esp else ""
    family = " IPv6" if budget.ipv6 else ""
    table = Table(
        title=f"L2TPv3 overhead on a {budget.wan_mtu}-byte{family} WAN{over}",
        title_justify="left",
    )
    table.add_column("part")
    table.add_column("bytes", justify="right")
    for name, size in budget.items:
        table.add_row(name, str(size))
    table.add_section()
    if budget.esp:
        table.add_row("of which ESP (at the largest frame)", str(budget.esp_overhead))
    table.add_row("encapsulation overhead (encap size)", str(budget.encap_overhead))
    table.add_row("largest inner Ethernet frame (no FCS)", str(budget.max_frame))
    table.add_row(
        Text("largest inner IP MTU (CE MTU)", "bold"), Text(str(budget.max_inner_mtu), "bold")
    )
    table.add_row("TCP MSS to clamp to", str(budget.tcp_mss))
    return table


def _matrix_table(wan_mtu: int, *, ipv6: bool = False) -> Table:
    from rich.table import Table  # noqa: PLC0415 - start-up stays cheap

    family = " IPv6" if ipv6 else ""
    table = Table(
        title=f"Largest inner IP MTU on a {wan_mtu}-byte{family} WAN", title_justify="left"
    )
    for column in ("encapsulation", "cookie", "sublayer", "untagged", "dot1Q carried"):
        table.add_column(column, justify="right" if column != "encapsulation" else "left")
    rows = budget_matrix(wan_mtu, ipv6=ipv6)
    for untagged, tagged in zip(rows[::2], rows[1::2], strict=True):
        table.add_row(
            untagged.encapsulation.value.upper(),
            str(untagged.cookie),
            "yes" if untagged.sublayer else "no",
            str(untagged.max_inner_mtu),
            str(tagged.max_inner_mtu),
        )
    return table


def _budget_dict(budget: OverheadBudget) -> dict[str, object]:
    return {
        "wan_mtu": budget.wan_mtu,
        "encapsulation": budget.encapsulation.value,
        "cookie": budget.cookie,
        "sublayer": budget.sublayer,
        "dot1q": budget.dot1q,
        "ipv6": budget.ipv6,
        "esp": (
            {
                "transform": budget.esp.transform,
                "mode": budget.esp.mode,
                "nat_t": budget.esp.nat_t,
                "overhead": budget.esp_overhead,
            }
            if budget.esp
            else None
        ),
        "items": [{"part": name, "bytes": size} for name, size in budget.items],
        "encap_overhead": budget.encap_overhead,
        "max_frame": budget.max_frame,
        "max_inner_mtu": budget.max_inner_mtu,
        "tcp_mss": budget.tcp_mss,
    }


@app.command()
def mtu(
    wan_mtu: Annotated[
        int, typer.Option("--wan-mtu", min=576, max=65535, help="IP MTU of the path between PEs.")
    ] = 1500,
    encap: Annotated[EncapChoice, typer.Option("--encap", help="Data encapsulation.")] = (
        EncapChoice.ip
    ),
    cookie: Annotated[int, typer.Option("--cookie", help="Cookie size: 0, 4 or 8 bytes.")] = 0,
    sublayer: Annotated[
        bool | None,
        typer.Option(
            "--sublayer/--no-sublayer",
            help="L2-specific sublayer (default: off for ip, on for udp).",
            show_default=False,
        ),
    ] = None,
    dot1q: Annotated[
        bool,
        typer.Option(
            "--dot1q/--no-dot1q",
            help="The dot1Q tag travels, as l2tpgen renders a pseudowire with a Cisco end; "
            "--no-dot1q: Linux to Linux (the VLAN subinterface removes the tag).",
        ),
    ] = True,
    ipsec: Annotated[
        IpsecChoice,
        typer.Option("--ipsec", help="IPsec ESP around the pseudowire: none, transport or tunnel."),
    ] = IpsecChoice.none,
    transform: Annotated[
        TransformChoice,
        typer.Option("--transform", help="ESP transform (with --ipsec)."),
    ] = TransformChoice.aes_gcm_128,
    nat_t: Annotated[
        bool, typer.Option("--nat-t/--no-nat-t", help="ESP in UDP (NAT traversal, with --ipsec).")
    ] = False,
    ipv6: Annotated[
        bool,
        typer.Option(
            "--ipv6/--ipv4",
            help="The underlay between the PEs: IPv4 (20-byte outer header) or IPv6 (40).",
        ),
    ] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="Compare every encapsulation, cookie and tagging.")
    ] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Show the L2TPv3 overhead budget: the largest CE MTU that crosses without fragmentation."""
    if cookie not in COOKIE_SIZES:
        raise typer.BadParameter("must be 0, 4 or 8", param_hint="--cookie")
    if show_all:
        rows = budget_matrix(wan_mtu, ipv6=ipv6)
        if fmt is OutputFormat.json:
            out.print_json(json.dumps([_budget_dict(b) for b in rows]))
        else:
            out.print(_matrix_table(wan_mtu, ipv6=ipv6))
        return
    esp = None
    if ipsec is not IpsecChoice.none:
        esp = Esp(transform.value, ipsec.value, nat_t)
    budget = overhead_budget(
        wan_mtu,
        Encapsulation(encap.value),
        cookie,
        sublayer=sublayer,
        dot1q=dot1q,
        esp=esp,
        ipv6=ipv6,
    )
    if fmt is OutputFormat.json:
        out.print_json(json.dumps(_budget_dict(budget)))
    else:
        out.print(_budget_table(budget))
