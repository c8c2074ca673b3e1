"""The way forward again: a copy of a router's config made right before a rollback replaces it.

A rollback of several routers (``rollback_fleet``) must end with every router rolled back or every
router as it was. When a later router refuses or fails, the ones already rolled back are put back
as they were: ``configure replace`` of the copy made here (the running config read before the
replace, written with ``copy running-config FS:NAME`` and kept locally under the state
directory's ``forward/``), checked as push checks a rollback (``config_replace.restore``). This is
what push does for a pair (``fleet.roll_back_pairs``), in the other direction.

The copies are named ``l2tpfwd-SITE-STAMP-xxxx.cfg``: never taken for push's rollback copies
(``l2tpgen-SITE-...``, which ``rollback --list`` shows), and deleted once the run is over (kept,
and named in the result, when a router could not be put back with one).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from l2tpgen.device import rollback_copy
from l2tpgen.device.config_replace import close, restore
from l2tpgen.device.connection import connect
from l2tpgen.device.session import exec_batch, exec_prompts, read_count
from l2tpgen.errors import DeviceError, L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.manual_rollback import RollbackOptions
    from l2tpgen.device.result import Status

PREFIX = "l2tpfwd-"


def forward_name(site: str) -> str:
    """``l2tpfwd-SITE-YYYYmmddTHHMMSSffffff-xxxx.cfg``: unique, and no rollback copy's name."""
    return PREFIX + rollback_copy.rollback_name(site).removeprefix("l2tpgen-")


def local(state_dir: Path, name: str) -> Path:
    """Where the local text of a forward copy is kept."""
    return state_dir.expanduser() / "forward" / name


def make(
    connection: Any,  # noqa: ANN401 - netmiko
    file_system: str,
    name: str,
    running: str,
    options: RollbackOptions,
) -> None:
    """Copy the running config to ``FS:NAME`` (its question answered ahead) and keep its text.

    Raises:
        DeviceError: the router did not write it (nothing was changed).
    """
    fs = rollback_copy.FileSystem(file_system)
    try:
        connection.write_channel(f"{rollback_copy.copy_command(fs, name)}\n\n")
        said = read_count(connection, exec_prompts(connection), 1, 60)
        rollback_copy.check_copy(said, fs, name)
    except DeviceError as exc:
        raise DeviceError(
            f"could not copy the running config to {fs.name}{name} before the replace (the way "
            f"back should another router of the run fail): {exc}"
        ) from exc
    rollback_copy.keep_locally(options.state_dir / "forward", name, running)


def roll_forward(
    target: Target,
    credentials: Credentials,
    path: str,
    state_dir: Path,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> tuple[Status, str]:
    """``configure replace`` of the forward copy ``FS:NAME``; ``rolled-back`` when it took."""
    name = path.split(":", 1)[-1].lstrip("/")
    status, outcome = restore(
        target, credentials, path, local(state_dir, name), connector=connector
    )
    return status, outcome.replace("rolled back to", "restored from", 1)


def discard(
    target: Target,
    credentials: Credentials,
    path: str,
    state_dir: Path,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> None:
    """Delete a forward copy on the router and locally (best effort: a leftover is harmless)."""
    name = path.split(":", 1)[-1].lstrip("/")
    local(state_dir, name).unlink(missing_ok=True)
    with contextlib.suppress(L2tpgenError):
        connection = connector(target, credentials)
        try:
            exec_batch(connection, [f"delete /force {path}"])
        finally:
            close(connection)
