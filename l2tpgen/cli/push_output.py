r"""How push, diff and verify report: results, progress rows, the summary, one error line each.

Everything a router said (its config lines in the diff and the commands, its answers in errors and
messages) goes through ``safe`` before it reaches the terminal: an escape sequence or a
bidirectional override inside an owned section must not act on the operator's terminal while they
read the diff they approve. JSON needs nothing: ``json.dumps`` writes every control and non-ASCII
character as a ``\uNNNN`` escape, so the document stays valid and the values exact.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import TYPE_CHECKING

from rich import progress as bars
from rich.table import Table
from rich.text import Text

from l2tpgen.cli.app import err, out, safe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.progress import TaskID

    from l2tpgen.device import PushResult
    from l2tpgen.device.fleet import FleetReport, PairState


def print_diff(diff: str) -> None:
    """A unified diff, colored."""
    styles = {"+": "green", "-": "red", "@": "cyan"}
    for line in diff.splitlines():
        out.print(Text(safe(line), style=styles.get(line[:1], "")))


def result_dict(result: PushResult) -> dict[str, object]:
    """One router's result as JSON."""
    return {
        "site": result.site,
        "status": result.status.value,
        "exit_code": result.status.exit_code,
        "message": result.message,
        "lines_sent": result.lines_sent,
        "seconds": round(result.seconds, 3),
        "commands": list(result.commands),
        "diff": result.diff,
        "rollback_file": result.rollback_file,
        "errors": list(result.errors),
        "notices": list(result.notices),
        "migration": result.migration,
        "notes": list(result.notes),
    }


STATUS_STYLE = {  # by Status value
    "unchanged": "green",
    "would-change": "yellow",
    "changed": "green",
    "refused": "red",
    "stopped": "yellow",
    "unsaved": "bold red",
    "failed": "red",
    "rolled-back": "red",
    "rollback-failed": "bold red",
}


# Results that mean the router was not reached, not read or not allowed: nothing was changed.
NOT_DONE = frozenset({"refused", "failed"})


def error_line(where: str, message: str) -> None:
    """One line on stderr: the router (site, address) and what went wrong and what to do."""
    err.print(Text.assemble(("error:", "bold red"), " ", safe(f"{where}: {message}")))


def print_result(result: PushResult, where: str, *, diff: bool = True) -> None:
    """One router's diff, commands and result; a failure as one error line naming ``where``.

    ``diff``: print the diff and commands (not when they were shown before the question).
    """
    if diff and result.diff:
        print_diff(result.diff)
    for note in result.notes:
        out.print(safe(f"note: {result.site}: {note}"), markup=False, highlight=False)
    for notice in result.notices:
        out.print(safe(f"  notice: {notice}"), markup=False, highlight=False)
    if diff and result.commands and result.status.value != "unchanged":
        out.print(safe(f"commands for {result.site}:"), style="bold")
        for command in result.commands:
            out.print(safe(f"  {command}"), markup=False, highlight=False)
    for error in result.errors:
        err.print(safe(f"  refused: {error}"), style="red", markup=False)
    if result.status.value in NOT_DONE:
        error_line(where, result.message)
        return
    out.print(
        Text.assemble(
            (safe(f"{result.site}: {result.status.value}"), STATUS_STYLE[result.status.value]),
            safe(f" ({result.lines_sent} lines sent, {result.seconds:.1f} s) {result.message}"),
        )
    )


class Progress:
    """Per-router progress: a live row each on a terminal, plain lines otherwise (thread-safe)."""

    def __init__(self, names: list[str]) -> None:
        self.live = err.is_terminal
        self.rows: dict[str, TaskID] = {}
        # transient: the live rows vanish when done (the summary table follows), so no spinner
        # frame stays in the scrollback
        self.bar = bars.Progress(
            bars.SpinnerColumn(),
            bars.TextColumn("{task.description}"),
            bars.TimeElapsedColumn(),
            console=err.console,
            transient=True,
        )
        if self.live:
            self.rows = {name: self.bar.add_task(f"{name}: waiting", total=None) for name in names}

    def __call__(self, site: str, phase: str) -> None:
        """Show ``site``'s current phase."""
        if self.live:
            self.bar.update(self.rows[site], description=safe(f"{site}: {phase}"))
        else:
            err.print(safe(f"{site}: {phase}"), markup=False, highlight=False)

    def __enter__(self) -> Progress:  # noqa: PYI034 - a final private class; Self needs 3.11
        if self.live:
            self.bar.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.live:
            self.bar.stop()


def counts_line(results: Sequence[PushResult], seconds: float) -> str:
    """The closing line of a run over routers, in `lab run`'s style.

    ``2 ok (2 changed), 1 failed (refused) in 4.2 s``: each side's statuses in brackets.
    """

    def detail(chosen: list[PushResult]) -> str:
        counts = Counter(r.status.value for r in chosen)
        return f" ({', '.join(f'{n} {status}' for status, n in counts.items())})" if counts else ""

    ok = [r for r in results if not r.status.exit_code]
    failed = [r for r in results if r.status.exit_code]
    return f"{len(ok)} ok{detail(ok)}, {len(failed)} failed{detail(failed)} in {seconds:.1f} s"


def summary(report: FleetReport, *, title: str = "push summary", seconds: float = 0.0) -> None:
    """The table of every router's result, the pairs verified and verify's errors, one line."""
    table = Table(title=title, title_justify="left")
    for column in ("site", "result", "lines sent", "time", "detail"):
        table.add_column(
            column, overflow="fold", justify="right" if column in {"lines sent", "time"} else "left"
        )
    for r in report.results:
        status = Text(r.status.value, STATUS_STYLE[r.status.value])
        table.add_row(
            safe(r.site), status, str(r.lines_sent), f"{r.seconds:.1f} s", safe(r.message)
        )
    out.print(table)
    if report.pairs:
        one_sided = [p for p in report.pairs if p.one_sided]
        down = [p for p in report.pairs if not p.up_both and not p.one_sided]
        up = len(report.pairs) - len(one_sided) - len(down)
        out.print(f"pairs verified: {up} pseudowires up at both ends", markup=False)
        for p in one_sided + down:
            out.print(
                safe(
                    f"  {p.site} <-> {p.peer} {_wire(p.port, p.vlan)} (VC {p.vc_id}): {p.here} at "
                    f"{p.site}, "
                    f"{p.there} at {p.peer}" + (" (up on one side only)" if p.one_sided else "")
                ),
                style="red",
                markup=False,
            )
    for error in report.verify_errors:
        err.print(Text.assemble(("error:", "bold red"), " verify: ", safe(error)))
    out.print(counts_line(report.results, seconds), markup=False, highlight=False)


def pair_dict(pair: PairState) -> dict[str, object]:
    """A verified pair as JSON."""
    return {**asdict(pair), "up_both": pair.up_both, "one_sided": pair.one_sided}


def _wire(port: bool, vlan: int) -> str:
    """``VLAN 2996``, or ``port`` for a kept port-mode xconnect (every VLAN of the trunk)."""
    return "port (every VLAN)" if port else f"VLAN {vlan}"
