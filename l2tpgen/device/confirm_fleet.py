"""``l2tpgen confirm``: keep what a timed push left waiting, on every router of a run or none.

``push A B --confirm-within N`` arms one revert timer per router. Confirming one and not the other
lets the other revert: the pair ends split (one end new, the other old, its pseudowires down). So
``confirm`` takes the sites push takes (a pair, several, ``--all``) and goes as a fleet push does
(``l2tpgen.device.fleet``):

1. every router is read first, under its lock, on a session kept open (``show archive config
   rollback timer`` and ``show configuration lock``); a router is ready when a change waits there,
   armed by this login (the timer's ``User:``, as napalm's IOS driver checks before it confirms:
   ``confirm.armed_by``), and no other session holds the configuration lock (``write memory``
   would save their half-typed change with ours);
2. if any router is not ready (nothing waits, another user's change, a lock, not reached),
   nothing is sent to any router: each result says the state its router is in (a change waiting,
   with the router's own description of its timer, or none) and what to do;
3. else ``configure confirm`` on every router, one after another, then ``write memory`` on each.
   The confirmations go first, so that the time between the first and the last is a few round
   trips. A router whose confirmation does not take (its timer ran out meanwhile, a lost session)
   is reported with the state of every router and how to mend the pair.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from l2tpgen.device import confirm, exclusive
from l2tpgen.device.config_replace import close
from l2tpgen.device.connection import connect
from l2tpgen.device.refusals import refusal
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.save import save_config
from l2tpgen.device.session import exec_batch
from l2tpgen.device.state_dir import private_dir, router_lock
from l2tpgen.errors import L2tpgenError
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target

NOTHING_WAITS = (
    "nothing to confirm: no change waits for confirmation on the router (it was confirmed "
    "already, or its timer ran out and the router went back to the config before the push: run "
    "`l2tpgen diff {site}` to see which)"
)


def _not_ready(site: str, timer: str, lock: str, username: str) -> str | None:
    """Why the router's pending change cannot be confirmed by this login now, or None."""
    holder = exclusive.held_by(lock)
    if holder:
        return exclusive.lock_refusal(holder, "confirm again")
    refused = refusal(timer)
    if refused is not None:
        return f"nothing to confirm: the router refused `{confirm.SHOW_TIMER}` ({refused})"
    described = confirm.pending(timer)
    if described is None:
        return NOTHING_WAITS.format(site=site)
    user = confirm.armed_by(timer)
    if user != username:
        return confirm.not_ours(site, user or "", username, described)
    return None


def _held(name: str, refused: Mapping[str, PushResult], described: str, names: str) -> PushResult:
    """A ready router left unconfirmed because another router of the run is not ready."""
    others = ", ".join(sorted(refused))
    return PushResult(
        name,
        Status.REFUSED,
        f"not confirmed: {others} cannot be confirmed now (see "
        f"{'its' if len(refused) == 1 else 'their'} result), and the routers of one run are "
        "confirmed together or not at all (one end kept and the other reverted splits a pair). "
        f"Its change still waits ({described}) and reverts when its timer runs out: fix that and "
        f"run `l2tpgen confirm {names}` before then, or let every router revert (then push them "
        "together again)",
    )


def _confirm_one(connection: Any) -> str | None:  # noqa: ANN401 - netmiko
    """``configure confirm``; None when the router then shows nothing pending, else why not."""
    try:
        said, after = exec_batch(connection, ["configure confirm", confirm.SHOW_TIMER])
    except L2tpgenError as exc:
        return str(exc)
    if confirm.NONE_PENDING in said:  # the timer ran out since the read: nothing was kept
        return f"the router said {mask_secrets(said.strip())[:120]!r}: its timer ran out first"
    if confirm.NONE_PENDING not in after:
        return f"the router said {mask_secrets(said.strip())[:120] or 'no answer'!r}"
    return None


def _split(name: str, why: str, kept: list[str], names: str) -> PushResult:
    """A router whose confirmation failed while others of the run were confirmed."""
    which = ", ".join(kept)
    return PushResult(
        name,
        Status.FAILED,
        f"{_unconfirmed(why)}, while {which} "
        f"{'was' if len(kept) == 1 else 'were'} confirmed and keep the new config: the pair is "
        f"split. To mend it: once it has reverted, `l2tpgen push {names}` brings it to the new "
        f"config too; or `l2tpgen rollback {which}` takes the confirmed routers back",
    )


def _unconfirmed(why: str) -> str:
    return (
        f"NOT confirmed: `configure confirm` did not take ({why}); its change reverts when its "
        "timer runs out (or has reverted)"
    )


def _not_tried(name: str, failed: Mapping[str, str], described: str) -> PushResult:
    """A router left unconfirmed because the first confirmation of the run did not take."""
    others = ", ".join(sorted(failed))
    return PushResult(
        name,
        Status.REFUSED,
        f"not confirmed: {others} could not be confirmed first (see its result), so this router "
        f"was left to revert with it, which keeps the pair whole; its change still waits "
        f"({described}) and reverts when its timer runs out; then push them together again",
    )


def _confirm_all(ready: Mapping[str, tuple[Any, str]]) -> tuple[list[str], dict[str, str]]:
    """``configure confirm`` on each router: the confirmed ones, and why the others were not.

    When the first confirmation does not take, no other is tried (every router then reverts,
    and the pair stays whole); once one is confirmed, every other is (the more that keep the
    change, the fewer to mend).
    """
    kept: list[str] = []
    failed: dict[str, str] = {}
    for name, (connection, _) in ready.items():
        if failed and not kept:
            break
        why = _confirm_one(connection)
        if why is None:
            kept.append(name)
        else:
            failed[name] = why
    return kept, failed


def _saved(
    name: str,
    connection: Any,  # noqa: ANN401 - netmiko
    save_command: str,
    failed: Mapping[str, str],
) -> PushResult:
    """``write memory`` on a confirmed router; a split pair is said here too."""
    split = (
        f"; but {', '.join(sorted(failed))} could NOT be confirmed (see its result): the pair is "
        "split"
        if failed
        else ""
    )
    why = save_config(connection, save_command)
    if why is not None:
        return PushResult(
            name,
            Status.UNSAVED,
            f"confirmed, but `{save_command}` said {why!r}: the change is live and lost at the "
            f"next reload unless you run `{save_command}` on the router{split}",
        )
    return PushResult(name, Status.CHANGED, f"confirmed and saved{split}")


def _outcome(  # noqa: PLR0917 - the run's pieces
    name: str,
    ready: Mapping[str, tuple[Any, str]],
    kept: list[str],
    failed: Mapping[str, str],
    save_command: str,
    names: str,
) -> PushResult:
    """One router's result once every confirmation of the run was tried."""
    if name in failed:
        if kept:
            return _split(name, failed[name], kept, names)
        return PushResult(name, Status.FAILED, _unconfirmed(failed[name]))
    if name in kept:
        return _saved(name, ready[name][0], save_command, failed)
    return _not_tried(name, failed, ready[name][1])


def confirm_routers(
    targets: Mapping[str, Target],
    credentials: Credentials,
    state_dir: Path,
    save_commands: Mapping[str, str],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> tuple[PushResult, ...]:
    """Confirm and save the change waiting on every target, or on none (one result each).

    ``changed``: confirmed and saved; ``refused``: nothing was sent (this router, or another of
    the run, is not ready); ``failed``: ``configure confirm`` did not take; ``unsaved``: confirmed
    but not saved. Never raises for a router problem.
    """
    names = " ".join(targets)
    try:
        private_dir(state_dir.expanduser())
    except L2tpgenError as exc:
        return tuple(PushResult(n, Status.REFUSED, f"not confirmed: {exc}") for n in targets)
    with contextlib.ExitStack() as stack:
        ready: dict[str, tuple[Any, str]] = {}
        refused: dict[str, PushResult] = {}
        for name, target in targets.items():
            try:
                stack.enter_context(router_lock(state_dir, target.host, target.port))
                connection = connector(target, credentials)
                stack.callback(close, connection)
                timer, lock = exec_batch(connection, [confirm.SHOW_TIMER, exclusive.SHOW_LOCK])
            except L2tpgenError as exc:
                refused[name] = PushResult(name, Status.REFUSED, f"not confirmed: {exc}")
                continue
            why = _not_ready(name, timer, lock, credentials.username)
            if why is not None:
                refused[name] = PushResult(name, Status.REFUSED, why)
            else:
                ready[name] = (connection, confirm.pending(timer) or "")
        if refused:
            return tuple(refused.get(n) or _held(n, refused, ready[n][1], names) for n in targets)
        kept, failed = _confirm_all(ready)
        results = {n: _outcome(n, ready, kept, failed, save_commands[n], names) for n in targets}
    return tuple(results[n] for n in targets)
