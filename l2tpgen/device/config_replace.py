"""Taking a router back to its rollback copy: ``configure replace``, then a check that it took.

The check compares the running config with the pre-push one, ignoring lines that change by
themselves (``l2tpgen.ios.volatile``: ``ntp clock-period`` and the like, as hier_config's IOS
driver does), so a good rollback is never reported as failed. After a lost connection the router
is reached again first.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.device import rollback_copy
from l2tpgen.device.connection import connect
from l2tpgen.device.exclusive import foreign_change, locked_by
from l2tpgen.device.result import Status
from l2tpgen.device.save import save_config
from l2tpgen.device.session import alive, exec_batch
from l2tpgen.errors import L2tpgenError
from l2tpgen.ios.volatile import config_body

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target


@dataclass(frozen=True)
class Link:
    """How to reach the router again (for a rollback after a lost connection)."""

    target: Target
    credentials: Credentials
    connector: Callable[[Target, Credentials], Any]


@dataclass(frozen=True)
class Guard:
    """What the router must hold for a rollback to undo only this push's change.

    ``expected``: the running config push last read itself (None: unknown, the connection was
    lost); ``edits``: the top-level lines the change edits (``exclusive.touched``).
    """

    expected: str | None
    edits: frozenset[str]


def roll_back(
    connection: Any,  # noqa: ANN401
    link: Link,
    rollback_file: str,
    before: str,
    guard: Guard | None = None,
) -> tuple[Status, str]:
    """Replace the running config with the copy (reconnecting if needed) and check it took.

    The check ignores lines that change by themselves (``l2tpgen.ios.volatile``). With a
    ``guard``, the running config is read first: when someone else changed the router since push
    last read it, nothing is rolled back (their change would go too) and the result says what
    changed (``rollback-failed``, exit 4: check by hand). ``refused``: the replace met another
    session's configuration lock and changed nothing.
    """
    command = f"configure replace {rollback_file} force"
    for attempt in range(2):
        fresh = None
        try:
            if attempt or not alive(connection):
                fresh = connection = link.connector(link.target, link.credentials)
            if guard is not None:
                (now,) = exec_batch(connection, ["show running-config"])
                foreign = foreign_change(now, before, guard.expected, guard.edits)
                if foreign is not None:
                    return Status.ROLLBACK_FAILED, (
                        f"NOT rolled back: someone else changed the router during this push "
                        f"({foreign}), and a rollback to {rollback_file} would undo their change "
                        "too; check the router by hand (the pre-push config is in "
                        f"{rollback_file} and in the local state directory)"
                    )
            output, after = exec_batch(connection, [command, "show running-config"], timeout=120)
        except L2tpgenError:
            continue
        finally:
            if fresh is not None:
                close(fresh)
        locked = locked_by(output)
        if locked:  # IOS's rollback lock meets another session's exclusive one: nothing replaced
            return Status.REFUSED, (
                f"NOT rolled back: another session holds the router's configuration lock "
                f"(exclusive configuration mode: {locked}), so `{command}` was refused"
            )
        if not rollback_copy.replace_failed(output) and config_body(after) == config_body(before):
            return Status.ROLLED_BACK, f"rolled back to {rollback_file}; the router is as before"
        return (
            Status.ROLLBACK_FAILED,
            (
                f"rollback from {rollback_file} did not restore the pre-push config; check the "
                f"router by hand (the pre-push config is in {rollback_file} and in the local "
                "state directory)"
            ),
        )
    return (
        Status.ROLLBACK_FAILED,
        (
            "could not reconnect to roll back; the router may hold part of the change. Restore "
            f"it with `{command}` (a local copy is in the state directory)"
        ),
    )


def restore(
    target: Target,
    credentials: Credentials,
    rollback_file: str,
    local_copy: Path,
    *,
    save_command: str | None = None,
    connector: Callable[[Target, Credentials], Any] = connect,
    edits: frozenset[str] | None = None,
) -> tuple[Status, str]:
    """Roll a router that was changed back to its rollback copy (``--rollback-pairs``).

    ``local_copy`` is the pre-push config kept locally; the router must match it afterwards.
    ``save_command``: the change had been saved, so the restored config is saved too (else a
    reload would bring the change back). ``edits``: the top-level lines the push edited; every
    other section must still be as before, or nothing is rolled back (someone else changed it).
    """
    link = Link(target, credentials, connector)
    try:
        before = local_copy.read_text(encoding="utf-8")
        connection = connector(target, credentials)
    except (OSError, L2tpgenError) as exc:
        return Status.ROLLBACK_FAILED, f"could not roll back: {exc}"
    status, outcome = Status.ROLLBACK_FAILED, "could not roll back"
    try:
        guard = Guard(None, edits) if edits is not None else None
        status, outcome = roll_back(connection, link, rollback_file, before, guard)
        if status is Status.REFUSED:  # the change stays on the router: check by hand
            status = Status.ROLLBACK_FAILED
        if status is not Status.ROLLED_BACK or save_command is None:
            return status, outcome
        # A fresh session: the one rolled back on may hold a timed-out read's unread output
        # (its prompts would pass for the save's answer).
        close(connection)
        connection = connector(target, credentials)
        unsaved = save_config(connection, save_command)
    except L2tpgenError as exc:
        if status is not Status.ROLLED_BACK:
            return Status.ROLLBACK_FAILED, f"could not roll back: {exc}"
        unsaved = str(exc)
    finally:
        close(connection)
    if unsaved is not None:
        message = (
            f"{outcome}, but `{save_command}` said {unsaved!r}: the startup config still holds "
            f"the change (a reload brings it back); run `{save_command}` on the router"
        )
        return Status.ROLLBACK_FAILED, message
    return status, f"{outcome}, and saved"


def close(connection: Any) -> None:  # noqa: ANN401
    """End the SSH session at once: ``exit`` typed, the socket closed, nothing waited for.

    (netmiko's ``disconnect`` first asks the router whether it is in config mode: a round trip
    for a session that l2tpgen always leaves at the exec prompt.)
    """
    with contextlib.suppress(Exception):  # a dead session takes no `exit`
        connection.write_channel("exit\n")
    with contextlib.suppress(Exception):  # closing a dead connection is not an error
        connection.paramiko_cleanup()
