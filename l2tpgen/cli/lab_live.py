"""`l2tpgen lab up`, `status`, `exec`, `check`, `down`: a lab that stays up to be inspected."""

from __future__ import annotations

import json
import os
import signal
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from l2tpgen.cli.app import EXIT_FINDINGS, OutputFormat, app, err, fail, out
from l2tpgen.cli.lab import DelayOption, LossOption, RateOption, lab_app, lab_from, print_report
from l2tpgen.cli.lab_progress import lab_progress
from l2tpgen.discovery import STATE_ENV
from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.engines.live import start
from l2tpgen.lab.engines.liveops import check as check_lab
from l2tpgen.lab.engines.liveops import run_in, sessions, start_in, wait_job
from l2tpgen.lab.engines.livestate import recorded, remove, starting, stop
from l2tpgen.lab.kept_ports import kept_port_rows

if TYPE_CHECKING:
    from l2tpgen.lab.engines.liveops import Session
    from l2tpgen.lab.engines.livestate import LiveLab

LabOption = Annotated[
    str | None, typer.Option("--lab", help="Which lab (default: the only one that is up).")
]

# lab.py makes the lab group, this module adds the live lab's commands: `lab` is loaded from here.
app.add_typer(lab_app, name="lab")


def _state_dir() -> Path:
    return Path(os.environ.get(STATE_ENV, "~/.local/state/l2tpgen"))


def _records() -> list[tuple[Path, LiveLab | None]]:
    try:
        return recorded(_state_dir())
    except OSError as exc:
        fail(f"cannot read the labs' state directory: {exc.strerror} ({exc.filename})")
    except L2tpgenError as exc:
        fail(f"not read: {exc}")


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


@lab_app.command("up")
def up(
    source: Annotated[
        Path,
        typer.Argument(
            metavar="SITES|TOPOLOGY",
            help="A sites directory (the lab `lab build` would write) or a topology file.",
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option("--name", help="Lab name [default: the topology's; l2tpgen for sites]."),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=10, help="Seconds the VM may take to be ready.")
    ] = 300,
    delay: DelayOption = None,
    loss: LossOption = None,
    rate: RateOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")] = False,
) -> None:
    """Boot the lab in QEMU in the background, set it up, and leave it up to be inspected.

    Sets it up as `lab run` does (namespaces, links, the PEs' L2TPv3 sessions and bridges, the
    CEs, the WAN shaping; on a protected lab strongSwan and the xfrm policies), then returns.
    `lab status`, `lab exec`, `lab check` use it; `lab down` stops it. Its state is kept under
    $L2TPGEN_STATE_DIR/lab/NAME (default ~/.local/state/l2tpgen). Each step is shown on
    stderr as it starts (unless --quiet). Exit 1 if a set-up command failed: the set-up stops
    there, names it, and the lab stays up, to be inspected.
    """
    lab = lab_from(source, name, (delay, loss, rate))
    err.print(f"starting lab {lab.name} ({len(lab.nodes)} nodes) in QEMU...")
    # Stopped (SIGTERM) or interrupted (Ctrl-C): no VM left behind. SIGINT too, explicitly: a
    # command a script started in the background inherits SIGINT ignored, and would finish.
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with lab_progress(quiet=quiet) as progress:
            started = start(
                lab, str(source.resolve()), _state_dir(), timeout=timeout, progress=progress
            )
    except L2tpgenError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot start the lab: {exc.strerror or exc} ({exc.filename})")
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    live = started.live
    out.print(
        f"lab {live.name} is up ({started.seconds:.0f} s, pid {live.pid}, state {live.directory})",
        markup=False,
    )
    node = next((n for n in live.nodes if n.startswith("ce-")), live.nodes[0])
    out.print(
        f"nodes: {' '.join(live.nodes)}\n"
        f"  l2tpgen lab status\n"
        f"  l2tpgen lab exec {node} -- ip -d link\n"
        f"  l2tpgen lab check\n"
        f"  l2tpgen lab down {live.name}",
        markup=False,
    )
    for error in started.setup_errors:
        err.print(error, style="red", markup=False)
    if started.setup_errors:
        err.print("some set-up commands failed; the lab stays up to be inspected")
        raise typer.Exit(EXIT_FINDINGS)


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def _describe(directory: Path, live: LiveLab | None) -> dict[str, object]:
    """One lab as status reports it; a stale one is removed."""
    if (live is None or not live.running) and starting(directory):
        return {"name": live.name if live else directory.name, "state": "starting"}
    if live is None or not live.running:
        removed = remove(directory)
        return {"name": live.name if live else directory.name, "state": "stale", "removed": removed}
    found: dict[str, object] = {
        "name": live.name,
        "state": "up" if live.ready else "starting",
        "pid": live.pid,
        "started": live.started,
        "uptime_s": round(live.uptime()),
        "source": live.source,
        "directory": live.directory,
        "nodes": list(live.nodes),
    }
    if live.ready:
        try:
            listed: tuple[Session, ...] = sessions(live)
        except L2tpgenError as exc:
            found["error"] = str(exc)
        else:
            found["pseudowires"] = {
                "up": sum(s.up for s in listed),
                "down": sum(not s.up for s in listed),
            }
            found["sessions"] = [asdict(s) for s in listed]
    return found


@lab_app.command("status")
def status(
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """List the labs that are up: pid, uptime, nodes, pseudowires up and down.

    The pseudowires are the PEs' L2TPv3 sessions as the lab's kernel reports them (`ip l2tp
    show session`), up when their device is. A lab whose VM has died is reported as stale and
    its state removed. Exit 0 when some lab is up, 1 when none is.
    """
    labs = [_describe(directory, live) for directory, live in _records()]
    running = [lab for lab in labs if lab["state"] != "stale"]
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps({"labs": labs}, indent=2) + "\n")
    else:
        _table(labs)
    if not running:
        raise typer.Exit(EXIT_FINDINGS)


def _table(labs: list[dict[str, object]]) -> None:
    for lab in labs:
        if lab["state"] == "stale":
            done = (
                "its state was removed" if lab.get("removed") else "its state could NOT be removed"
            )
            err.print(f"lab {lab['name']}: its VM is gone (stale); {done}")
    running = [lab for lab in labs if lab["state"] != "stale"]
    if not running:
        err.print("no lab is up (start one with `l2tpgen lab up SITES|TOPOLOGY`)")
        return
    table = Table(title="labs", title_justify="left")
    for column in ("lab", "state", "pid", "up for", "nodes", "pseudowires", "source"):
        table.add_column(column, overflow="fold")
    for lab in running:
        wires = lab.get("pseudowires")
        if isinstance(wires, dict):
            shown = f"{wires['up']} up, {wires['down']} down"
        else:
            shown = str(lab.get("error", "-"))
        nodes = lab.get("nodes")
        table.add_row(
            str(lab["name"]),
            str(lab["state"]),
            str(lab.get("pid", "-")),
            _duration(float(str(lab.get("uptime_s", 0)))),
            str(len(nodes) if isinstance(nodes, list) else "?"),
            shown,
            str(lab.get("source", "-")),
        )
    out.print(table)


def _running(name: str | None) -> LiveLab:
    """The lab named, or the only one up; exit 1 with what to do otherwise."""
    up_now = [live for _, live in _records() if live is not None and live.running]
    if name is not None:
        found = next((live for live in up_now if live.name == name), None)
        if found is None:
            names = ", ".join(live.name for live in up_now) or "none"
            fail(f"no lab named {name} is up (up: {names})")
        chosen = found
    elif not up_now:
        fail("no lab is up: start one with `l2tpgen lab up SITES|TOPOLOGY`")
    elif len(up_now) > 1:
        names = ", ".join(live.name for live in up_now)
        fail(f"several labs are up ({names}): name one with --lab")
    else:
        chosen = up_now[0]
    if not chosen.ready:
        fail(f"lab {chosen.name} is still starting (`l2tpgen lab status` shows when it is up)")
    return chosen


@lab_app.command("exec", context_settings={"ignore_unknown_options": True})
def exec_(
    node: Annotated[str, typer.Argument(help="A node of the lab (ce-site-a, pe-site-a, wan).")],
    command: Annotated[
        list[str], typer.Argument(metavar="-- COMMAND [ARG]...", help="What to run there.")
    ],
    lab: LabOption = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Kill the command after this many seconds.")
    ] = 60,
    background: Annotated[
        bool,
        typer.Option(
            "--background", "-b", help="Start it and return its job number (`lab wait JOB`)."
        ),
    ] = False,
) -> None:
    """Run a command in a node's network namespace in the running lab (netlab's `connect`).

    Prints what it printed (stdout and stderr together) and exits with its exit status (137
    when killed at --timeout). Not interactive: its stdin is empty. Example: `l2tpgen lab exec
    ce-site-a -- ping -c 3 172.27.180.2`. With --background it returns once the command has
    printed its first line (tcpdump: listening) or after 5 s, printing its job number; other
    commands run meanwhile, and `l2tpgen lab wait JOB` prints its output and exit status.
    """
    live = _running(lab)
    try:
        if background:
            job = start_in(live, node, command, timeout=timeout)
            out.print(str(job))
            err.print(f"job {job} started on {node}; its output: l2tpgen lab wait {job}")
            return
        code, output = run_in(live, node, command, timeout=timeout)
    except L2tpgenError as exc:
        fail(str(exc))
    sys.stdout.buffer.write(output)
    sys.stdout.flush()
    raise typer.Exit(code)


@lab_app.command("wait")
def wait(
    job: Annotated[int, typer.Argument(help="The job number `lab exec --background` printed.")],
    lab: LabOption = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Seconds to wait for it to end.")
    ] = 60,
) -> None:
    """Wait for a background command (`lab exec --background`); its output and exit status."""
    live = _running(lab)
    try:
        code, output = wait_job(live, job, timeout=timeout)
    except L2tpgenError as exc:
        fail(str(exc))
    sys.stdout.buffer.write(output)
    sys.stdout.flush()
    raise typer.Exit(code)


@lab_app.command("check")
def check(
    lab: LabOption = None,
    full: Annotated[
        bool,
        typer.Option("--full", help="Every check in the table, not only the failed ones."),
    ] = False,
) -> None:
    """Run the checks of `lab run` (reach, isolation, MTU, multicast) on the running lab.

    The lab is read again from where `lab up` took it; from a sites directory, the frames
    check of each Cisco to Linux pair runs too. On a protected lab the usual checks run over
    ESP; the attacks (which need the lab unprotected first) are `lab run`'s. Prints the failed
    checks (--full: every one) and a line of counts, as `lab run`. Exit 1 if a check fails.
    """
    live = _running(lab)
    found = lab_from(Path(live.source), live.name)
    try:
        report = check_lab(live, found)
    except L2tpgenError as exc:
        fail(str(exc))
    print_report(replace(report, not_run=kept_port_rows(found)), full=full)
    if not report.ok:
        raise typer.Exit(EXIT_FINDINGS)


@lab_app.command("down")
def down(
    name: Annotated[str | None, typer.Argument(help="The lab [default: the only one up].")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every lab that is up.")] = False,
) -> None:
    """Stop a lab started with `lab up` and remove its state (nothing up: says so, exit 0)."""
    records = _records()
    if name is not None:
        records = [(d, live) for d, live in records if (live.name if live else d.name) == name]
        if not records:
            err.print(f"lab {name} is not up")
            return
    elif not every and len(records) > 1:
        names = ", ".join(live.name if live else d.name for d, live in records)
        fail(f"several labs are up ({names}): name one, or --all")
    if not records:
        err.print("no lab is up")
        return
    for directory, live in records:
        if live is None and starting(directory):
            fail(f"lab {directory.name} is being started (no VM yet): try again in a moment")
        elif live is None:
            remove(directory)
            err.print(f"lab {directory.name}: removed what a failed start left")
        elif not stop(live):
            fail(f"lab {live.name} (pid {live.pid}) did not stop; kill it by hand")
        else:
            err.print(f"lab {live.name} stopped (pid {live.pid})")
