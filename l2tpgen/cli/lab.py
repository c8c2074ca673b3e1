"""`l2tpgen lab build` and `l2tpgen lab run`: containerlab topologies and their checks."""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from dataclasses import replace as dataclass_replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text
from ruamel.yaml import YAML

from l2tpgen.api import lab_build, lab_of
from l2tpgen.cli.app import (
    EXIT_FINDINGS,
    OutputFormat,
    SitesOption,
    check_output_path,
    err,
    fail,
    out,
)
from l2tpgen.cli.lab_progress import lab_progress
from l2tpgen.cli.loading import load
from l2tpgen.errors import L2tpgenError
from l2tpgen.files import is_stdout, write_output

# The engines by module: tests put fakes in their place (monkeypatch).
from l2tpgen.lab.engines import attacker, clab, vm
from l2tpgen.lab.fields import WHY, check_lab_name, check_writable, parse_workloads
from l2tpgen.lab.kept_ports import kept_port_rows
from l2tpgen.lab.kinds import IOL_KIND, LINUX_KIND
from l2tpgen.workloads import WORKLOADS  # pure: what the --workload help lists

if TYPE_CHECKING:
    from l2tpgen.hosts import Workload
    from l2tpgen.lab.build import WanOptions
    from l2tpgen.lab.engines.vm import LabReport
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

lab_app = typer.Typer(
    help="Labs: containerlab topologies and a real L2TPv3 data plane.", no_args_is_help=True
)


class FlavorChoice(str, Enum):
    """Node kinds of the PEs."""

    linux = LINUX_KIND
    cisco_iol = IOL_KIND


class VariantChoice(str, Enum):
    """The design under test."""

    per_vlan = "per-vlan"
    single_trunk = "single-trunk"


class EngineChoice(str, Enum):
    """Where the lab runs."""

    vm = "vm"
    containerlab = "containerlab"


def _wan(flag: str, low: float, high: float, text: str, *, from_model: bool = False) -> Any:  # noqa: ANN401 - typer's OptionInfo
    """A WAN shaping option; ``lab build`` takes what it is not given from the model's link."""
    if from_model:
        text += " [default: from the model's link]"
        return typer.Option(flag, min=low, max=high, help=text, show_default=False)
    return typer.Option(flag, min=low, max=high, help=text)


_DELAY = (
    "--wan-delay-ms",
    0,
    10_000,
    "One-way WAN delay added in each direction (RTT = 2 x this).",
)
_LOSS = ("--wan-loss-pct", 0, 100, "WAN loss in each direction, percent.")
_RATE = ("--wan-rate-mbit", 0.001, 1e6, "WAN rate in each direction.")
DelayOption = Annotated[float | None, _wan(*_DELAY)]
LossOption = Annotated[float | None, _wan(*_LOSS)]
RateOption = Annotated[float | None, _wan(*_RATE)]
BuildDelayOption = Annotated[float | None, _wan(*_DELAY, from_model=True)]
BuildLossOption = Annotated[float | None, _wan(*_LOSS, from_model=True)]
BuildRateOption = Annotated[float | None, _wan(*_RATE, from_model=True)]


def lab_from(source: Path, name: str | None, wan: WanOptions = (None, None, None)) -> Lab:
    """The lab of a sites directory (as `lab build` writes it) or a topology file, or exit 1."""
    try:
        return lab_of(source, name, wan)
    except L2tpgenError as exc:
        fail(str(exc))


def _workloads(items: list[str]) -> dict[int, Workload]:
    problems: list[str] = []
    vlans = tuple(int(i.split("=", 1)[0]) for i in items if i.split("=", 1)[0].isdigit())

    found = parse_workloads(",".join(items), vlans, "--workload", problems)
    if problems:
        fail("; ".join(problems))
    return dict(found)


@lab_app.command("build")
def build(
    sites: SitesOption = Path("sites"),
    flavor: Annotated[FlavorChoice, typer.Option("--flavor", help="PE node kind.")] = (
        FlavorChoice.linux
    ),
    variant: Annotated[VariantChoice, typer.Option("--variant", help="Design under test.")] = (
        VariantChoice.per_vlan
    ),
    name: Annotated[str, typer.Option("--name", help="Lab name.")] = "l2tpgen",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write FILE (.clab.yml) instead of stdout (-)."),
    ] = None,
    delay: BuildDelayOption = None,
    loss: BuildLossOption = None,
    rate: BuildRateOption = None,
    workload: Annotated[
        list[str] | None,
        typer.Option(
            "--workload",
            metavar="VLAN=KIND",
            help=f"What a VLAN carries ({', '.join(WORKLOADS)}); repeat per VLAN. Wins over "
            "the VLAN's carries in the model.",
        ),
    ] = None,
) -> None:
    """Write a containerlab topology for the fleet: PEs, a WAN router, a CE per site.

    The linux flavor configures every node with exec (static sessions: Linux's data plane); the
    cisco_iol flavor gives each PE its rendered IOS config as a partial startup config (written
    next to -o, its secret left as ${VARIABLE} for containerlab to fill in at deploy time).
    The WAN's shaping comes from the model's link (one link for every pair: the lab has one
    WAN; half the RTT each way) and the workloads from what the VLANs carry, unless the options
    say otherwise (each option wins on its own). A Linux PE whose pseudowires get IPsec binds
    the swanctl.conf l2tpgen renders for it (written next to -o, its key masked); `lab run
    --engine vm` then attacks the pseudowires before and after starting strongSwan. A Linux or
    VyOS PE with a Cisco peer names, in its l2tpgen.frames label, the file of its frames checks
    (pe-SITE.frames.yaml, written next to -o), which `lab run FILE` runs.
    """
    check_output_path(output, "the topology", [f"{name}.clab.yml"], flag="--output")
    to_stdout = output is None or is_stdout(output)
    try:
        if output is not None and not to_stdout:
            check_writable(output, "--output")
        check_lab_name(name)
    except L2tpgenError as exc:
        fail(str(exc))
    fleet = load(sites)
    try:
        built = lab_build(
            fleet,
            name=name,
            flavor=flavor.value,
            variant=variant.value,
            shaping=(delay, loss, rate),
            workloads=_workloads(workload or []),
        )
    except L2tpgenError as exc:
        fail(str(exc))
    _note_kept_ports(fleet)
    topology = built.topology
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.width = 4096  # one exec command per line
    if output is None or to_stdout:
        yaml.dump(topology, sys.stdout)
        return
    text = io.StringIO()
    text.write(f"# generated by `l2tpgen lab build --flavor {flavor.value}`; do not edit\n")
    yaml.dump(topology, text)
    beside = built.files  # the files the topology binds or names, written next to it
    try:
        write_output(output, text.getvalue())
        for file, config in beside.items():
            write_output(output.parent / file, config)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {output}")
    for file in beside:
        err.print(f"wrote {output.parent / file} (the topology names it)")


def _note_kept_ports(fleet: Fleet) -> None:
    """A note per kept port-mode pseudowire: the lab names it and does not run it."""
    for port in fleet.kept_ports():
        err.print(
            f"note: {port.site.name} <-> {port.peer.name} (VC ID {port.vc_id}, the kept "
            f"port-mode xconnect of {port.interface}): {WHY}",
            style="yellow",
            markup=False,
        )


def print_report(result: LabReport, *, full: bool = False, report: Path | None = None) -> None:
    """The failed checks (every check with ``full``), set-up errors, then one line of counts.

    The line: ``40 ok, 2 failed, 1 n/a in 31 s`` (n/a: checks that do not apply to this lab).
    """
    failed = [r for r in result.results if not r.ok]
    shown = result.results if full else tuple(failed)
    which = "every check" if full else "failed checks"
    table = Table(title=f"lab {result.lab} ({result.engine}): {which}", title_justify="left")
    for column in ("check", "VLAN", "sites", "result", "detail"):
        table.add_column(column, overflow="fold")
    for r in shown:
        verdict = Text("ok" if r.ok else "FAIL", "green" if r.ok else "red")
        table.add_row(r.check, str(r.vlan), r.sites, verdict, r.detail)
    for r in result.not_run:  # named by the lab, not run: never a pass
        table.add_row(r.check, "all", r.sites, Text("N/A", "yellow"), r.detail)
    if shown or result.not_run:
        out.print(table)
    for error in result.setup_errors:
        err.print(error, style="red", markup=False)
    if result.setup_errors and not result.results:
        err.print("the lab stopped at this set-up command: no check ran", style="red")
    if report is not None:
        every = "" if full else " (--full prints them here)"
        err.print(f"report: {report}: every check{every}", markup=False, highlight=False)
    out.print(
        f"{len(result.results) - len(failed)} ok, {len(failed)} failed, "
        f"{len(result.skipped) + len(result.not_run)} n/a in {result.seconds:.0f} s",
        style="red" if failed or result.setup_errors else "green",
        markup=False,
        highlight=False,
    )


class AttackChoice(str, Enum):
    """Which attacks `lab run` makes on a protected lab."""

    usual = "usual"
    full = "full"


def _with_attacks(result: LabReport, lab: Lab) -> LabReport:
    """``result`` with the independent attacker's checks (``engines/attacker.py``) appended.

    Raises:
        L2tpgenError: the lab has no pair of IPsec PEs to attack, or the run failed.
    """
    attacks = attacker.run_attacks(lab)
    return replace(
        result,
        results=(*result.results, *attacks.results),
        setup_errors=(*result.setup_errors, *attacks.setup_errors),
        seconds=result.seconds + attacks.seconds,
    )


@lab_app.command("run")
def run(
    topology_file: Annotated[
        Path,
        typer.Argument(
            metavar="SITES|TOPOLOGY",
            help="A topology from `lab build`, or a sites directory (the lab it would write).",
        ),
    ],
    engine: Annotated[EngineChoice, typer.Option("--engine", help="Where to run it.")] = (
        EngineChoice.vm
    ),
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", help="JSON report (default: FILE.report.json, SITES.report.json)."
        ),
    ] = None,
    delay: DelayOption = None,
    loss: LossOption = None,
    rate: RateOption = None,
    attack: Annotated[
        AttackChoice,
        typer.Option(
            "--attack",
            help="full: also the attacker that has not read the site files (a protected lab, "
            "vm engine; a second VM, minutes: see docs/lab.md).",
        ),
    ] = AttackChoice.usual,
    fmt: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="text: progress on stderr, the failed checks, a line of counts; json: the "
            "report only.",
        ),
    ] = OutputFormat.text,
    full: Annotated[
        bool,
        typer.Option("--full", help="Text: every check in the table, not only the failed ones."),
    ] = False,
) -> None:
    """Deploy the lab, run its checks (reach, isolation, MTU, multicast per VLAN), tear it down.

    Everything is validated first: the topology, its labels, the report path. The WAN gets the
    delay, loss and rate of the wan node's labels, or of these options. The vm engine runs a
    linux-flavor lab in QEMU here; the containerlab engine drives the containerlab CLI (needs
    Docker and containerlab, and root). From a sites directory (vm engine) the lab is the one
    `lab build` writes, and each pair of a Linux (or VyOS) PE with a Cisco peer gets a frames
    check: that PE as rendered puts on the WAN the frame the Cisco end's config implies. Each
    step (boot, each node's set-up, each probe) is shown on stderr as it starts; the first
    set-up command that fails stops the run and is named. The text output is the failed checks
    (every check with --full; the report file and --format json always hold them all) and a
    last line of counts: `N ok, M failed, K n/a in T s`. Exit 1 if any check fails.
    """
    sites = topology_file.is_dir()
    if sites and engine is not EngineChoice.vm:
        fail(
            "`lab run SITES` runs on the vm engine; for containerlab write the topology first: "
            "`l2tpgen lab build --sites SITES -o FILE`, then `l2tpgen lab run FILE`"
        )
    where = topology_file.resolve() if sites else topology_file  # `.` has no name to replace
    target = report or where.with_name(where.name.removesuffix(".yml") + ".report.json")
    check_output_path(target, "the report", ["lab.report.json"], flag="--report")
    try:
        check_writable(target, "--report")
    except L2tpgenError as exc:
        fail(str(exc))
    lab = lab_from(topology_file, None, (delay, loss, rate))
    try:
        if engine is EngineChoice.vm:
            with lab_progress(quiet=fmt is OutputFormat.json) as progress:
                result = vm.run_vm(lab, progress=progress)
            if attack is AttackChoice.full:
                result = _with_attacks(result, lab)
        else:
            result = clab.run_containerlab(topology_file, lab)
    except L2tpgenError as exc:
        fail(str(exc))
    result = dataclass_replace(result, not_run=kept_port_rows(lab))
    try:
        write_output(target, result.to_json() + "\n")
    except L2tpgenError as exc:
        fail(str(exc))
    if fmt is OutputFormat.json:
        out.print_json(result.to_json())
    else:
        print_report(result, full=full, report=target)
    if not result.ok:
        raise typer.Exit(EXIT_FINDINGS)
