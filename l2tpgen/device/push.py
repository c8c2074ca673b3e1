"""Push one site: diff, apply in one batch, verify, save; roll back on any failure.

The order of events on the router: ``show running-config``; (dry run stops here, never entering
config mode); ``copy running-config flash:l2tpgen-rollback-...`` (also saved locally, mode 0600);
the change in one batch; ``show running-config`` again, which must leave no remaining change;
``write memory`` unless told not to. On a refused line, a timeout or a lost connection:
``configure replace`` the flash copy (reconnecting if needed) and check the router is back to its
pre-push config (exit 3), or say exactly what may be left (exit 4).
"""

from __future__ import annotations

import enum
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from l2tpgen.device.connection import connect
from l2tpgen.device.plan import plan_change
from l2tpgen.device.session import answer_prompts, config_body, send_batch, show
from l2tpgen.errors import DeviceError, L2tpgenError
from l2tpgen.lint import Severity, lint_sites
from l2tpgen.render import render_site

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.device.connection import Credentials
    from l2tpgen.device.inventory import Target
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
    """How to push."""

    dry_run: bool = False
    save: bool = True
    state_dir: Path = Path("~/.local/state/l2tpgen/rollback")
    environ: Mapping[str, str] | None = None


def _intended(fleet: Fleet, name: str, options: PushOptions) -> str:
    """The rendered config with real secrets when they are set; masked (dry run only) when not."""
    try:
        return render_site(fleet, name, reveal_secrets=True, environ=options.environ)
    except L2tpgenError:
        if not options.dry_run:
            raise
        return render_site(fleet, name)


def _lint_gate(fleet: Fleet, name: str) -> str | None:
    errors = [f for f in lint_sites(fleet, [name]) if f.severity is Severity.ERROR]
    if errors:
        first = errors[0]
        return f"{len(errors)} error-level lint findings, first: {first.code} {first.message}"
    return None


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
    started = time.monotonic()

    def result(status: Status, message: str = "", **kwargs: Any) -> PushResult:  # noqa: ANN401
        return PushResult(name, status, message, seconds=time.monotonic() - started, **kwargs)

    blocked = _lint_gate(fleet, name)
    if blocked:
        return result(Status.REFUSED, f"not pushed: {blocked}")
    try:
        intended = _intended(fleet, name, options)
        connection = connector(target, credentials)
    except L2tpgenError as exc:
        return result(Status.REFUSED, str(exc))
    try:
        before = show(connection, "show running-config")
        plan = plan_change(fleet.site(name), before, intended)
        shown = {"diff": plan.diff(name), "commands": plan.commands}
        if plan.empty:
            return result(Status.UNCHANGED, "no change needed", **shown)
        if options.dry_run:
            return result(Status.WOULD_CHANGE, f"{len(plan.send)} lines would be sent", **shown)
        rollback = _save_rollback(connection, name, before, options)
    except L2tpgenError as exc:
        _close(connection)
        return result(Status.FAILED, f"nothing was changed: {exc}")
    sent = len(plan.send)
    try:
        errors = send_batch(connection, plan.send)
        if errors:
            raise _Refused(errors)
        after = show(connection, "show running-config")
        remaining = plan_change(fleet.site(name), after, intended)
        if not remaining.empty:
            raise DeviceError(
                f"the router does not show the intended config; still different: "
                f"{'; '.join(remaining.commands[:3])}"
            )
        if options.save:
            answer_prompts(connection, "write memory")
    except (L2tpgenError, _Refused) as exc:
        rolled = _roll_back(connection, target, credentials, connector, rollback, before)
        problem = exc.describe() if isinstance(exc, _Refused) else str(exc)
        return result(
            rolled[0],
            f"{problem}; {rolled[1]}",
            lines_sent=sent,
            rollback_file=rollback,
            errors=tuple(exc.lines()) if isinstance(exc, _Refused) else (),
            **shown,
        )
    _close(connection)
    saved = "saved" if options.save else "not saved (--no-save)"
    return result(Status.CHANGED, f"{sent} lines applied, verified, {saved}", lines_sent=sent, rollback_file=rollback, **shown)


class _Refused(Exception):  # noqa: N818 - internal signal, never leaves this module
    def __init__(self, errors: list[Any]) -> None:
        self.errors = errors

    def describe(self) -> str:
        first = self.errors[0]
        return f"the router refused `{first.line}`: {first.error}"

    def lines(self) -> list[str]:
        return [f"{e.line}: {e.error}" for e in self.errors]


def _save_rollback(connection: Any, name: str, running: str, options: PushOptions) -> str:  # noqa: ANN401
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    file = f"l2tpgen-rollback-{name}-{stamp}.cfg"
    output = answer_prompts(connection, f"copy running-config flash:{file}")
    if "%" in output or "bytes copied" not in output:
        raise DeviceError(f"could not save a rollback copy to flash:{file}; nothing was changed")
    local = options.state_dir.expanduser()
    local.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = local / file
    # The copy holds the router's type 7 secrets: readable by the user only.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(running)
    return file


def _roll_back(
    connection: Any,  # noqa: ANN401
    target: Target,
    credentials: Credentials,
    connector: Callable[[Target, Credentials], Any],
    rollback: str,
    before: str,
) -> tuple[Status, str]:
    """Replace the running config with the flash copy and check it took."""
    for attempt in range(2):
        try:
            if attempt or not connection.is_alive():
                _close(connection)
                connection = connector(target, credentials)
            output = show(connection, f"configure replace flash:{rollback} force", timeout=60)
            after = show(connection, "show running-config")
        except L2tpgenError:
            continue
        _close(connection)
        if "%" not in output and config_body(after) == config_body(before):
            return Status.ROLLED_BACK, f"rolled back to flash:{rollback}; the router is as before"
        return (
            Status.ROLLBACK_FAILED,
            f"rollback from flash:{rollback} did not restore the pre-push config; check the router "
            f"by hand (the pre-push config is in flash:{rollback} and in the local state directory)",
        )
    return (
        Status.ROLLBACK_FAILED,
        f"could not reconnect to roll back; the router may hold part of the change. Restore it "
        f"with `configure replace flash:{rollback} force` (a local copy is in the state directory)",
    )


def _close(connection: Any) -> None:  # noqa: ANN401
    try:
        connection.disconnect()
    except Exception:  # noqa: BLE001, S110 - closing a dead connection is not an error
        pass
