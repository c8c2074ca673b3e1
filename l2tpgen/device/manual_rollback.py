"""``l2tpgen rollback``: take a router back to a rollback copy push made, later, on request.

Each push copies the router's running config before changing it (``l2tpgen.device.rollback_copy``:
``FS:l2tpgen-SITE-STAMP-xxxx.cfg`` on the router, the same file under the state directory's
``rollback/``). This module lists a site's copies and restores one:

1. ``show running-config`` and ``dir`` (one round trip); the copy is chosen (by default the newest:
   the state before the most recent push);
2. the copy must be on the router (l2tpgen does not upload files: a copy found only locally is
   refused, naming the local file) and kept locally (it is what the diff is made from, and what
   the router must hold afterwards);
3. the diff (running config to the copy, secrets masked) is shown and approved (``approve``);
4. ``configure replace FS:COPY force`` through ``config_replace.roll_back``: the router must still
   hold what was read in step 1 (someone else's change since is never replaced away: exit 4, naming
   it), and afterwards must hold the copy (lines that change by themselves aside,
   ``l2tpgen.ios.volatile``);
5. ``write memory`` on a fresh session, unless told not to save.

A lock per router keeps a push and a rollback from this machine apart; on the router, the check
in step 4 is the guard against another session (push's fingerprint, ``l2tpgen.device.exclusive``).
Rollback never enters configuration mode itself. ``configure replace`` is sent without
``nolock`` (its syntax, ``configure replace target-url [nolock] [list] [force] ...``, is in Cisco's
"Configuration Rollback Confirmed Change" guide); that the replace therefore locks the running
config against other sessions is read from that keyword, not quoted [U].
"""

from __future__ import annotations

import calendar
import difflib
import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from l2tpgen.device import confirm, exclusive, rollback_copy, rollback_forward
from l2tpgen.device.config_replace import Guard, Link, close, roll_back
from l2tpgen.device.connection import connect
from l2tpgen.device.refusals import running_config_checked
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.save import save_config
from l2tpgen.device.session import comparable, exec_batch
from l2tpgen.device.state_dir import private_dir, router_lock
from l2tpgen.device.steps import Clock
from l2tpgen.errors import L2tpgenError
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target

# A copy's name as `--list` prints it, optionally after its file system (`flash:NAME`).
_NAME = re.compile(r"(?:[A-Za-z0-9_-]+:/?)?[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Copy:
    """One rollback copy of a site: where it is (the router, locally) and when push made it."""

    name: str
    on_router: bool
    local: Path | None
    file_system: str = ""

    @property
    def made(self) -> str:
        """When the push that made it started (UTC, from the name): the state before that push."""
        stamp = self.name.rsplit("-", 2)[-2]
        moment = calendar.timegm(time.strptime(stamp[:15], "%Y%m%dT%H%M%S"))
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(moment))

    @property
    def where(self) -> str:
        """``router and local``, ``router only`` or ``local only``."""
        if self.on_router and self.local is not None:
            return "router and local"
        return "router only" if self.on_router else "local only"


@dataclass(frozen=True)
class RollbackOptions:
    """What the user asked: the copy (None: the newest), the state directory, saving."""

    state_dir: Path
    to: str | None = None
    save: bool = True
    save_command: str = "write memory"
    file_systems: tuple[str, ...] = ()
    # A rollback of several routers (``rollback_fleet``): the name of a copy of the running config
    # made right before the replace (the way forward again if a later router fails), and saving
    # left to the caller (``save_rolled_back``), once every router is rolled back.
    forward: str | None = None
    defer_save: bool = False


def local_copies(state_dir: Path, site: str) -> dict[str, Path]:
    """The site's copies kept in the state directory (regular files named as push names them)."""
    folder = state_dir.expanduser() / "rollback"
    if not folder.is_dir():
        return {}
    return {
        p.name: p
        for p in folder.iterdir()
        if rollback_copy.is_copy_of(p.name, site) and p.is_file() and not p.is_symlink()
    }


def copies(listing: str, state_dir: Path, site: str, fallbacks: tuple[str, ...]) -> list[Copy]:
    """Every copy of ``site`` on the router (``dir`` output) or kept locally, newest first."""
    fs = rollback_copy.file_system(listing, fallbacks).name
    there = set(rollback_copy.listed_copies(listing, site))
    here = local_copies(state_dir, site)
    return [
        Copy(name, name in there, here.get(name), fs)
        for name in sorted(there | set(here), reverse=True)  # the name carries the time
    ]


def list_copies(
    target: Target,
    credentials: Credentials,
    site: str,
    options: RollbackOptions,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> list[Copy]:
    """The site's copies, newest first (reads the router's ``dir``).

    Raises:
        L2tpgenError: the router could not be reached or read.
    """
    connection = connector(target, credentials)
    try:
        (listing,) = exec_batch(connection, ["dir"])
    finally:
        close(connection)
    return copies(listing, options.state_dir, site, options.file_systems)


def masked_diff(site: str, running: str, copy: Copy, text: str) -> str:
    """What the rollback changes: the running config to the copy, unified, secrets masked."""
    lines = difflib.unified_diff(
        comparable(running).splitlines(),
        comparable(text).splitlines(),
        f"{site} (running)",
        f"{site} ({copy.name}, before the push of {copy.made})",
        lineterm="",
        n=1,
    )
    return "".join(mask_secrets(line) + "\n" for line in lines)


def rollback_site(
    target: Target,
    credentials: Credentials,
    site: str,
    options: RollbackOptions,
    approve: Callable[[str], bool],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> PushResult:
    """Take the router back to a rollback copy; never raises for a router problem.

    ``approve`` is shown the diff and says whether to go ahead.
    """
    clock = Clock(site)
    try:
        private_dir(options.state_dir.expanduser())
        with router_lock(options.state_dir, target.host, target.port):
            link = Link(target, credentials, connector)
            connection = connector(target, credentials)
            try:
                return _roll_back(connection, link, site, options, approve=approve, clock=clock)
            finally:
                close(connection)
    except L2tpgenError as exc:
        return clock.result(Status.REFUSED, f"nothing was changed: {exc}")


def _named(found: list[Copy], options: RollbackOptions, site: str) -> str:
    """The copy name ``--to`` gives, or why it cannot be one (starting "not rolled back").

    A control character is never printed raw (``ascii``), and a file system other than the one
    the copies are on is refused naming the accepted ones (``bootflash:X`` is not ``flash:X``).
    """
    assert options.to is not None  # noqa: S101 - the caller's condition
    if not _NAME.fullmatch(options.to):
        return (
            f"not rolled back: --to {options.to!a} is not a copy's name: give it as "
            f"`l2tpgen rollback {site} --list` prints it (letters, digits, `.`, `_`, `-`, "
            "optionally after the router's file system, `flash:NAME`)"
        )
    system, colon, rest = options.to.rpartition(":")
    wanted, given = rest.lstrip("/"), f"{system}{colon}"
    where = {c.file_system for c in found} or set(options.file_systems[:1])
    if given and given not in where:
        accepted = ", ".join(f"`{fs}{wanted}`" for fs in sorted(where))
        return (
            f"not rolled back: --to names {given}, but {site}'s rollback copies are on "
            f"{', '.join(sorted(where)) or 'another file system'}; give {accepted} "
            "(or the name alone)"
        )
    return wanted


def _chosen(found: list[Copy], options: RollbackOptions, site: str) -> Copy | str:
    """The copy to restore, or why none can be."""
    if options.to is None:
        if not found:
            return f"not rolled back: {site} has no rollback copy (push makes one before a change)"
        chosen = found[0]
    else:
        wanted = _named(found, options, site)
        if wanted.startswith("not rolled back"):
            return wanted
        match = [c for c in found if c.name == wanted]
        if not match:
            return (
                f"not rolled back: {site} has no rollback copy named {wanted}; "
                f"`l2tpgen rollback {site} --list` lists them"
            )
        chosen = match[0]
    if not chosen.on_router:
        return (
            f"not rolled back: {chosen.name} is no longer on the router (pruned or deleted); a "
            f"local copy is {chosen.local}. l2tpgen does not upload files: copy it to "
            f"{chosen.file_system}{chosen.name} on the router yourself, then run this again"
        )
    if chosen.local is None:
        return (
            f"not rolled back: {chosen.name} is on the router but not in the local state "
            "directory, so its diff cannot be shown nor the result checked; restore it by hand "
            f"(`configure replace {chosen.file_system}{chosen.name}`) or name another copy"
        )
    return chosen


def _end_timer(link: Link) -> str | None:
    """End the revert timer of a change that waited for confirmation (on a fresh session).

    Returns None when it is ended, else what to say (the timer would undo the rollback).
    """
    try:
        fresh = link.connector(link.target, link.credentials)
    except L2tpgenError as exc:
        problem: str | None = str(exc)
    else:
        try:
            problem = confirm.end_timer(fresh)
        finally:
            close(fresh)
    if problem is None:
        return None
    return (
        f"but the revert timer of the change that waited for confirmation could NOT be ended "
        f"({problem}): when it runs out the router goes back to the config from before that "
        "change; run `configure confirm` on the router now"
    )


def _roll_back(  # noqa: C901, PLR0911 - one return per way it ends
    connection: Any,  # noqa: ANN401 - netmiko
    link: Link,
    site: str,
    options: RollbackOptions,
    *,
    approve: Callable[[str], bool],
    clock: Clock,
) -> PushResult:
    read = ["show running-config", "dir", confirm.SHOW_TIMER, exclusive.SHOW_LOCK]
    running, listing, timer, lock = exec_batch(connection, read)
    running_config_checked(running)
    holder = exclusive.held_by(lock)
    if holder:
        return clock.result(Status.REFUSED, exclusive.lock_refusal(holder, "roll back again"))
    waits = confirm.pending(timer)
    other = confirm.foreign_user(timer, link.credentials.username)
    if waits is not None and other is not None:  # its `configure confirm` would end their timer
        return clock.result(Status.REFUSED, confirm.waiting(site, waits, "not rolled back", other))
    chosen = _chosen(copies(listing, options.state_dir, site, options.file_systems), options, site)
    if isinstance(chosen, str):
        return clock.result(Status.REFUSED, chosen)
    assert chosen.local is not None  # noqa: S101 - _chosen's promise
    text = chosen.local.read_text(encoding="utf-8")
    path = f"{chosen.file_system}{chosen.name}"
    if exclusive.same_config(running, text):
        return clock.result(
            Status.UNCHANGED, f"the running config already is {chosen.name}", rollback_file=path
        )
    diff = masked_diff(site, running, chosen, text)
    if not approve(diff):
        return clock.result(Status.UNCHANGED, "nothing was changed", diff=diff, rollback_file=path)
    if options.forward is not None:
        rollback_forward.make(connection, chosen.file_system, options.forward, running, options)
    status, outcome = roll_back(connection, link, path, text, Guard(running, frozenset()))
    if status is Status.REFUSED:  # another session's lock met the replace: nothing changed
        outcome = outcome.replace("NOT rolled back", "nothing was changed", 1)
    if status is not Status.ROLLED_BACK:
        return clock.result(status, outcome, diff=diff, rollback_file=path)
    done = f"rolled back to {path} (the config before the push of {chosen.made})"
    if waits is not None:
        ended = _end_timer(link)
        if ended is not None:
            return clock.result(Status.ROLLBACK_FAILED, f"{done}, {ended}", diff=diff)
        done += (
            f"; the change that waited for confirmation ({waits}) was ended with `configure "
            "confirm` after the replace, so its timer cannot undo this rollback"
        )
    if options.defer_save:
        return clock.result(Status.CHANGED, done, diff=diff, rollback_file=path)
    return _save(link, options, clock.result(Status.CHANGED, done, diff=diff, rollback_file=path))


def save_rolled_back(
    target: Target,
    credentials: Credentials,
    options: RollbackOptions,
    result: PushResult,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> PushResult:
    """Save a router ``rollback_site`` rolled back with ``defer_save`` (unless told not to save).

    Never raises for a router problem (an unreachable router is ``unsaved``).
    """
    try:
        return _save(Link(target, credentials, connector), options, result)
    except L2tpgenError as exc:
        return replace(
            result,
            status=Status.UNSAVED,
            message=f"{result.message}, but NOT saved ({exc}); a reload brings the pushed change "
            f"back unless you run `{options.save_command}` on the router",
        )


def _save(link: Link, options: RollbackOptions, result: PushResult) -> PushResult:
    """``write memory`` on a fresh session (the replace's may hold unread output)."""
    done = result.message
    if not options.save:
        return replace(result, message=f"{done}, not saved (--no-save)")
    fresh = link.connector(link.target, link.credentials)
    try:
        why = save_config(fresh, options.save_command)
    finally:
        close(fresh)
    if why is not None:
        return replace(
            result,
            status=Status.UNSAVED,
            message=f"{done}, but NOT saved: `{options.save_command}` said {why!r}; a reload "
            f"brings the pushed change back unless you run `{options.save_command}` on the router",
        )
    return replace(result, message=f"{done}, saved")
