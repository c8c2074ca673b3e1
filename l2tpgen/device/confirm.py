"""A push that reverts itself unless confirmed (``push --confirm-within``), and ``confirm``.

The mechanism is IOS's Configuration Rollback Confirmed Change (Cisco, IOS XE 17.x System
Management Configuration Guide, "Configuration Rollback Confirmed Change",
https://www.cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-rollback-confirmed-change.html):
configuration mode is entered with ``configure terminal revert timer MINUTES``, and "If no
confirmation is entered within the requested time limit, the configuration reverts to its previous
state"; the confirmation is ``configure confirm``. Chosen over ``configure replace URL time
MINUTES`` because push changes the running config line by line, not by replacing it with a file.

Its prerequisite, in Cisco's words: "You must configure a configuration archive before performing
this procedure" (``archive`` with a ``path``). Push never changes the router's global config for
it: without an archive path in the running config, ``--confirm-within`` is refused before anything
is changed. napalm's IOS driver (``napalm/ios/ios.py``, ``commit_config(revert_in=...)``) uses the
same command and reads ``show archive config rollback timer`` ("No Rollback Confirmed Change
pending" when nothing waits), as ``confirm_site`` does.

What the router prints (``show archive config rollback timer``): with a change pending, Cisco's
sample output (IOS Configuration Fundamentals Command Reference, ``show archive config rollback
timer``) is ``Time configured(or reconfigured): 22:50:48 UTC Sat Feb 21 2009`` / ``Timer type:
absolute timer`` / ``Timer value: 2 min`` / ``User: console`` (the fields napalm's
``_get_pending_commits`` reads); with none, ``%No Rollback Confirmed Change pending`` (napalm's IOS
integration test of commit confirm asserts exactly that). Push, rollback and confirm read it first
(``pending``): a change waiting for confirmation is reverted by the router when its timer runs
out, taking along whatever was changed after it, so push refuses to change (or save) the router
then, quoting the router's fields; rollback ends the timer after its replace.

Ending a timer that must not fire (``end_timer``): ``configure confirm``, which keeps the running
config as it is. A failed timed push first restores the pre-push config (``configure replace``),
so confirming then keeps exactly that; ``configure revert now`` ("To cancel the timed rollback and
trigger the rollback immediately", Cisco's ``configure revert`` command reference, also the
``cisco-ia`` YANG model's ``revert``/``now``) would go back to the config at the timer's start
instead, which is the same config only when nobody else changed the router meanwhile.

Not handled: a router in *manual* exclusive configuration mode (push would have to combine
``lock`` with the timer; that syntax is not documented in the sources above): refused.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from l2tpgen.device import exclusive
from l2tpgen.device.config_replace import close
from l2tpgen.device.refusals import refusal
from l2tpgen.device.result import Status
from l2tpgen.device.session import alive, exec_batch
from l2tpgen.errors import L2tpgenError
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from l2tpgen.device.config_replace import Link

_ARCHIVE_PATH = re.compile(r"^archive\s*\n(?: .*\n)*? path \S+", re.MULTILINE)
SHOW_TIMER = "show archive config rollback timer"
# What IOS answers `configure terminal revert timer` with: without the archive (napalm's IOS
# driver looks for it), and while a change is pending already (the simulator's wording, [U]).
ARCHIVE_OFF = "Please turn config archive on"
ALREADY_PENDING = "Rollback Confirmed Change already pending"
NONE_PENDING = "No Rollback Confirmed Change pending"
_FIELDS = re.compile(
    r"^\s*(Time configured[^:]*|Timer type|Timer value|User)\s*:\s*(.*?)\s*$", re.MULTILINE
)
_USER = re.compile(r"^\s*User\s*:[ \t]*(\S*)[ \t]*$", re.MULTILINE)


def unsupported(site: str, platform: str) -> str:
    """Why ``--confirm-within`` is refused on a platform without a timed confirm."""
    return (
        f"not pushed: {site} is a {platform} PE, which has no change that reverts itself unless "
        "confirmed; push without --confirm-within"
    )


def has_archive(running: str) -> bool:
    """Whether the running config has ``archive`` with a ``path`` (the feature's prerequisite)."""
    return _ARCHIVE_PATH.search(running.replace("\r\n", "\n")) is not None


def lacking(running: str, minutes: int | None) -> str | None:
    """Why a timed push cannot go ahead on this router, or None (also None without a timer)."""
    if minutes is None:
        return None
    if not has_archive(running):
        return (
            "not pushed: --confirm-within needs the router's configuration archive (Cisco's "
            "Configuration Rollback Confirmed Change requires it): configure `archive` with "
            "` path flash:NAME` (or bootflash:) on the router first; push never changes it for you"
        )
    if exclusive.exclusive_mode(running) == "manual":
        return (
            "not pushed: --confirm-within on a router in manual exclusive configuration mode is "
            "not supported (the lock and the revert timer are not documented together)"
        )
    return None


def pending(output: str) -> str | None:
    """The change waiting for confirmation, as the router describes it, or None.

    ``output``: ``show archive config rollback timer``. A router that refuses the command (no
    such feature on its release) or says nothing is pending has none.
    """
    if NONE_PENDING in output or refusal(output) is not None:
        return None
    fields = {key.split("(")[0].strip(): value for key, value in _FIELDS.findall(output)}
    if "Timer value" not in fields and "Timer type" not in fields:
        return None
    said = ", ".join(f"{key}: {value}" for key, value in fields.items() if value)
    return mask_secrets(said)[:200]


def armed_by(output: str) -> str | None:
    """The ``User:`` of the change waiting for confirmation (who armed its timer), or None.

    ``output``: ``show archive config rollback timer``. Cisco's field table for that command
    (IOS Configuration Fundamentals Command Reference): "User: Displays the username" (its sample:
    ``User: console``). napalm's IOS driver (``napalm/ios/ios.py``, ``confirm_commit`` and
    ``rollback``, reading ``_get_pending_commits``'s ``User: (?P<user>.*)``) acts on a pending
    change only when that user is its own login, and raises "Configuration session active but not
    owned by USER" otherwise; ``confirm`` does the same.
    """
    if pending(output) is None:
        return None
    found = _USER.search(output.replace("\r\n", "\n"))
    return found.group(1) if found is not None else ""


def not_ours(site: str, user: str, username: str, described: str) -> str:
    """Why ``confirm`` leaves a change armed by another login alone (nothing is sent)."""
    who = f"`User: {user}`" if user else "no `User:`"
    return (
        f"not confirmed: the change waiting on {site} is not this login's: the router says {who} "
        f"(`{SHOW_TIMER}`: {described}), and l2tpgen logs in as `{username}`; it confirms "
        "only a change its own login armed (nothing was sent). Whoever armed it confirms it "
        "(`configure confirm` on the router) or lets it revert"
    )[:600]


def waiting(site: str, described: str, doing: str, user: str | None = None) -> str:
    """Why ``doing`` (push, rollback) is refused while a change waits.

    ``user``: the timer's ``User:`` when it is not this login's (``armed_by``): ``l2tpgen
    confirm`` would refuse that change, so its user is named instead.
    """
    keep = (
        f"Run `l2tpgen confirm {site}` to keep it (or `configure revert now` on the router to "
        "drop it), then run this again"
        if user is None
        else f"It is not this login's change (`User: {user}`): whoever armed it confirms it "
        "(`configure confirm` on the router) or lets it revert; then run this again"
    )
    return (
        f"{doing}: a change on the router waits for confirmation (`{SHOW_TIMER}`: {described}); "
        "when its timer runs out the router goes back to the config from before that change, "
        f"taking along anything changed since. {keep}"
    )


def foreign_user(timer: str, username: str) -> str | None:
    """The timer's ``User:`` when a change waits that this login did not arm, else None."""
    user = armed_by(timer)
    return None if user is None or user == username else user


def end_timer(connection: Any) -> str | None:  # noqa: ANN401 - netmiko
    """``configure confirm``: the revert timer ends and the running config stays as it is.

    Returns None when the router then shows nothing pending, else what it said.
    """
    try:
        said, after = exec_batch(connection, ["configure confirm", SHOW_TIMER])
    except L2tpgenError as exc:
        return str(exc)
    if NONE_PENDING in after:
        return None
    return mask_secrets(said.strip() or after.strip())[:120] or "no answer"


def after_failure(
    link: Link,
    connection: Any,  # noqa: ANN401 - netmiko
    status: Status,
    minutes: int,
    entered: float | None,
) -> str:
    """A failed timed push ends the revert timer it started; what to add to its message.

    Rolled back (or nothing sent): the running config is the pre-push one, and ``configure
    confirm`` keeps exactly that, so the timer can no longer undo a later push. Not rolled back:
    the timer is left running (it is then the way back to the pre-push config), and said so.
    """
    if status is not Status.ROLLED_BACK:
        when = reverts_at(entered, minutes) if entered is not None else "the timer's end"
        return (
            f"; the router's revert timer still runs: at {when} it goes back to the config "
            "from before this push unless `configure confirm` is entered"
        )
    fresh = None
    try:
        if not alive(connection):
            fresh = connection = link.connector(link.target, link.credentials)
        problem = end_timer(connection)
    except L2tpgenError as exc:
        problem = str(exc)
    finally:
        if fresh is not None:
            close(fresh)
    if problem is None:
        return "; its revert timer was ended (`configure confirm`), so it cannot undo a later push"
    return (
        f"; its revert timer could NOT be ended ({problem}): run `configure confirm` on the "
        "router, or a push made before the timer runs out is undone when it does"
    )


def enter_command(running: str, minutes: int | None) -> str:
    """How push enters configuration mode: with the revert timer when one is asked for."""
    if minutes is None:
        return exclusive.enter_command(running)
    return f"configure terminal revert timer {minutes}"


def reverts_at(entered: float, minutes: int) -> str:
    """``HH:MM UTC``: the earliest the router goes back (the timer started at ``entered``)."""
    return time.strftime("%H:%M UTC", time.gmtime(entered + minutes * 60))


def unconfirmed(site: str, applied: str, when: str) -> str:
    """Push's message for a change left waiting for ``configure confirm``.

    ``site``: the sites to confirm together (every site of the run: confirming one end of a pair
    alone lets the other revert).
    """
    return (
        f"{applied}, NOT saved (unconfirmed: reverts at {when} unless confirmed with "
        f"`l2tpgen confirm {site}`)"
    )
