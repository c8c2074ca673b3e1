"""Push one site: diff, apply in one batch, verify, save; roll back on any failure.

The order of events on the router: ``show running-config``; (dry run stops here, never entering
config mode); ``copy running-config flash:l2tpgen-rollback-...`` (also saved locally, mode 0600);
the change in one batch; ``show running-config`` again, which must leave no remaining change;
``write memory`` unless told not to. On a refused line, a timeout or a lost connection:
``configure replace`` the flash copy (reconnecting if needed) and check the router is back to its
pre-push config (exit 3), or say exactly what may be left (exit 4).
"""

from __future__ import annotations

import contextlib
import enum
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from l2tpgen.device.connection import connect
from l2tpgen.device.plan import plan_change
from l2tpgen.device.session import alive, answer_prompts, running_config, send_batch, show
from l2tpgen.errors import DeviceError, L2tpgenError
from l2tpgen.ios.volatile import config_body
from l2tpgen.lint import Severity, lint_sites
from l2tpgen.lint.sites import rendered_name
from l2tpgen.platforms import driver
from l2tpgen.render import render_site

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from l2tpgen.device.connection import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.plan import Plan
    from l2tpgen.lint import Finding
    from l2tpgen.model import Fleet


class Status(enum.Enum):
    """How a push ended; ``exit_code`` is the command line's."""

    UNCHANGED = "unchanged"
    WOULD_CHANGE = "would-change"
    CHANGED = "changed"
    REFUSED = "refused"
    ROLLED_BACK = "rolled-back"
    ROLLBACK_FAILED = "rollback-failed"
    FAILED = "failed"

    @property
    def exit_code(self) -> int:
        """0 fine, 1 nothing changed because of the input or access, 3 rolled back, 4 unknown."""
        return {
            Status.UNCHANGED: 0,
            Status.WOULD_CHANGE: 0,
            Status.CHANGED: 0,
            Status.REFUSED: 1,
            Status.FAILED: 1,
            Status.ROLLED_BACK: 3,
            Status.ROLLBACK_FAILED: 4,
        }[self]


@dataclass(frozen=True)
class PushResult:
    """The outcome of pushing one site: everything here is safe to print (secrets masked)."""

    site: str
    status: Status
    message: str = ""
    diff: str = ""
    commands: tuple[str, ...] = ()
    lines_sent: int = 0
    seconds: float = 0.0
    rollback_file: str | None = None
    errors: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class PushOptions:
    """How to push. ``progress`` is told each phase of each site (from worker threads)."""

    dry_run: bool = False
    save: bool = True
    state_dir: Path = Path("~/.local/state/l2tpgen/rollback")
    environ: Mapping[str, str] | None = None
    progress: Callable[[str, str], None] | None = None
    # The fleet runner lints every site once, up front, and turns the per-site gate off.
    lint_gate: bool = True

    def tell(self, site: str, phase: str) -> None:
        """Report a phase, if anyone listens."""
        if self.progress is not None:
            self.progress(site, phase)


def _intended(fleet: Fleet, name: str, options: PushOptions) -> str:
    """The rendered config with real secrets when they are set; masked (dry run only) when not."""
    try:
        return render_site(fleet, name, reveal_secrets=True, environ=options.environ)
    except L2tpgenError:
        if not options.dry_run:
            raise
        return render_site(fleet, name)


def lint_gate(fleet: Fleet, names: Sequence[str]) -> dict[str, str]:
    """Why each of ``names`` must not be pushed (error-level lint findings), linting once."""
    site_of = {rendered_name(name): name for name in names}
    errors: dict[str, list[Finding]] = {}
    for finding in lint_sites(fleet, names):
        if finding.severity is Severity.ERROR and finding.file in site_of:
            errors.setdefault(site_of[finding.file], []).append(finding)
    return {
        name: f"{len(found)} error-level lint findings, first: {found[0].code} {found[0].message}"
        for name, found in errors.items()
    }


@dataclass(frozen=True)
class _Clock:
    """Builds results that carry the site name and the time since the push started."""

    site: str
    started: float = field(default_factory=time.monotonic)

    def result(self, status: Status, message: str = "", **kwargs: Any) -> PushResult:  # noqa: ANN401
        return PushResult(
            self.site, status, message, seconds=time.monotonic() - self.started, **kwargs
        )


@dataclass(frozen=True)
class _Prepared:
    before: str
    plan: Plan
    rollback: str


@dataclass(frozen=True)
class _Link:
    """How to reach the router again (for a rollback after a lost connection)."""

    target: Target
    credentials: Credentials
    connector: Callable[[Target, Credentials], Any]


def push_site(
    fleet: Fleet,
    name: str,
    target: Target,
    credentials: Credentials,
    options: PushOptions,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> PushResult:
    """Push one site; never raises for a router problem (it is in the result)."""
    clock = _Clock(name)
    platform = fleet.site(name).effective_platform
    if not driver(platform).pushable:
        return clock.result(
            Status.REFUSED, f"{name} is a {platform} PE: push handles Cisco IOS and IOS-XE only"
        )
    blocked = None
    if options.lint_gate:
        options.tell(name, "linting")
        blocked = lint_gate(fleet, [name]).get(name)
    if blocked:
        return clock.result(Status.REFUSED, f"not pushed: {blocked}")
    try:
        intended = _intended(fleet, name, options)
        options.tell(name, "connecting")
        connection = connector(target, credentials)
    except L2tpgenError as exc:
        return clock.result(Status.REFUSED, str(exc))
    prepared = _prepare(fleet, name, connection, intended=intended, options=options, clock=clock)
    if isinstance(prepared, PushResult):
        _close(connection)
        return prepared
    link = _Link(target, credentials, connector)
    return _apply(
        fleet,
        name,
        connection,
        intended=intended,
        prepared=prepared,
        options=options,
        link=link,
        clock=clock,
    )


def _prepare(
    fleet: Fleet,
    name: str,
    connection: Any,  # noqa: ANN401 - netmiko
    *,
    intended: str,
    options: PushOptions,
    clock: _Clock,
) -> _Prepared | PushResult:
    """Read the router, plan; stop here for no change or a dry run; else save a rollback copy."""
    try:
        options.tell(name, "reading the running config")
        before = running_config(connection)
        plan = plan_change(fleet.site(name), before, intended)
        shown = {"diff": plan.diff(name), "commands": plan.commands}
        if plan.empty:
            return clock.result(Status.UNCHANGED, "no change needed", **shown)
        if options.dry_run:
            return clock.result(
                Status.WOULD_CHANGE, f"{len(plan.send)} lines would be sent", **shown
            )
        options.tell(name, "saving a rollback copy")
        return _Prepared(before, plan, _save_rollback(connection, name, before, options))
    except L2tpgenError as exc:
        return clock.result(Status.FAILED, f"nothing was changed: {exc}")


def _apply(
    fleet: Fleet,
    name: str,
    connection: Any,  # noqa: ANN401 - netmiko
    *,
    intended: str,
    prepared: _Prepared,
    options: PushOptions,
    link: _Link,
    clock: _Clock,
) -> PushResult:
    """Send the change, check it, save it; roll back if anything goes wrong."""
    plan = prepared.plan
    details: dict[str, Any] = {
        "diff": plan.diff(name),
        "commands": plan.commands,
        "lines_sent": len(plan.send),
        "rollback_file": prepared.rollback,
    }
    problem: str | None
    refused: tuple[str, ...] = ()
    try:
        options.tell(name, f"sending {len(plan.send)} lines")
        batch = send_batch(connection, plan.send)
        errors = batch.refused
        refused = tuple(f"{e.line}: {e.error}" for e in errors)
        if errors:
            problem = f"the router refused `{errors[0].line}`: {errors[0].error}"
        else:
            options.tell(name, "checking")
            problem = _leftover(fleet, name, connection, intended)
        if problem is None and options.save:
            options.tell(name, "saving")
            answer_prompts(connection, "write memory")
    except L2tpgenError as exc:
        problem = str(exc)
    if problem is not None:
        options.tell(name, "rolling back")
        status, outcome = _roll_back(connection, link, prepared.rollback, prepared.before)
        return clock.result(status, f"{problem}; {outcome}", errors=refused, **details)
    _close(connection)
    saved = "saved" if options.save else "not saved (--no-save)"
    message = f"{len(plan.send)} lines applied, verified, {saved}"
    return clock.result(Status.CHANGED, message, **details)


def _leftover(fleet: Fleet, name: str, connection: Any, intended: str) -> str | None:  # noqa: ANN401
    """What the router still lacks after the change (None: it holds the intended config)."""
    after = show(connection, "show running-config")
    remaining = plan_change(fleet.site(name), after, intended)
    if remaining.empty:
        return None
    return f"the router does not hold the intended config; still to do: {remaining.commands[0]}"


def _save_rollback(connection: Any, name: str, running: str, options: PushOptions) -> str:  # noqa: ANN401
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    file = f"l2tpgen-rollback-{name}-{stamp}.cfg"
    output = answer_prompts(connection, f"copy running-config flash:{file}")
    if "%" in output or "bytes copied" not in output:
        raise DeviceError(f"could not save a rollback copy to flash:{file}")
    local = options.state_dir.expanduser()
    local.mkdir(parents=True, exist_ok=True, mode=0o700)
    # The copy holds the router's type 7 secrets: readable by the user only.
    fd = os.open(local / file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(running)
    return file


def _roll_back(connection: Any, link: _Link, rollback: str, before: str) -> tuple[Status, str]:  # noqa: ANN401
    """Replace the running config with the flash copy (reconnecting if needed) and check it took."""
    for attempt in range(2):
        try:
            if attempt or not alive(connection):
                _close(connection)
                connection = link.connector(link.target, link.credentials)
            output = show(connection, f"configure replace flash:{rollback} force", timeout=60)
            after = show(connection, "show running-config")
        except L2tpgenError:
            continue
        _close(connection)
        if "%" not in output and config_body(after) == config_body(before):
            return Status.ROLLED_BACK, f"rolled back to flash:{rollback}; the router is as before"
        return (
            Status.ROLLBACK_FAILED,
            (
                f"rollback from flash:{rollback} did not restore the pre-push config; check the "
                f"router by hand (the pre-push config is in flash:{rollback} and in the local "
                "state directory)"
            ),
        )
    return (
        Status.ROLLBACK_FAILED,
        (
            "could not reconnect to roll back; the router may hold part of the change. Restore "
            f"it with `configure replace flash:{rollback} force` (a local copy is in the state "
            "directory)"
        ),
    )


def _close(connection: Any) -> None:  # noqa: ANN401
    with contextlib.suppress(Exception):  # closing a dead connection is not an error
        connection.disconnect()
