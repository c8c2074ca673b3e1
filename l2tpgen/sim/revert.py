"""IOS's Configuration Rollback Confirmed Change: a change that reverts itself unless confirmed.

Sources: Cisco, "Configuration Rollback Confirmed Change" (IOS XE 17.x System Management
Configuration Guide,
https://www.cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-rollback-confirmed-change.html):
"If no confirmation is entered within the requested time limit, the configuration reverts to its
previous state", the confirmation being ``configure confirm``, and "You must configure a
configuration archive before performing this procedure" (``archive`` with its ``path``); and
napalm's IOS driver (``napalm/ios/ios.py``, ``commit_config(revert_in=...)``), which enters
``configure terminal revert timer MINUTES``, checks for ``%Please turn config archive on``, reads
``show archive config rollback timer`` ("No Rollback Confirmed Change pending" when none) and
reverts at once with ``configure revert now``. What is modelled:

- ``configure terminal revert timer <1-120>``: refused with ``%Please turn config archive on``
  unless the running config has ``archive`` with a `` path``; else configuration mode is entered
  (taking the exclusive lock as ``configure terminal`` does) and the pre-change running config is
  kept, to come back when the timer expires;
- ``configure confirm``: the change stays (the timer is cancelled);
- ``configure revert now``: back to the pre-change config at once;
- ``show archive config rollback timer``: what is pending, in the fields of Cisco's sample output
  (IOS Configuration Fundamentals Command Reference, ``show archive config rollback timer``:
  ``Time configured(or reconfigured): 22:50:48 UTC Sat Feb 21 2009`` / ``Timer type: absolute
  timer`` / ``Timer value: 2 min`` / ``User: console``; the field table: "User: Displays the
  username"), the user being the session's login that armed the timer (``Terminal.user``: the
  SSH username; ``console`` for a session without one, as in that sample), and ``%No Rollback
  Confirmed Change pending`` when nothing waits (as napalm's IOS integration test asserts it,
  ``assert '%No Rollback Confirmed Change pending' in output``, and as a Japanese lab capture
  prints it);
- ``configure replace`` and ``configure revert now`` under another session's exclusive lock are
  refused as ``configure terminal`` is (``config_lock``): Cisco's lock guide calls the rollback
  lock "complementary" to the exclusive one; the refusal's text there is assumed [U].

Assumed [U] (not in those sources): the timer counts from the ``configure terminal revert
timer`` command; the range 1-120; the texts of ``configure confirm`` with nothing pending and of a
second timer while one is pending. The clock is the router's (``Router.clock``, seconds), and a
minute is ``Router.minute`` seconds of it, so tests run a timer in moments, or drive the clock
themselves. Expiry is checked whenever the router is asked anything (``tick``): nothing can see
the router between two commands, so that is when IOS's own timer would have been seen to fire.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.sim import config_lock
from l2tpgen.sim.config_mode import Frame

if TYPE_CHECKING:
    from l2tpgen.sim.config import Config
    from l2tpgen.sim.router import Router
    from l2tpgen.sim.terminal import Terminal

ARCHIVE_OFF = "%Please turn config archive on"
NONE_PENDING = "%No Rollback Confirmed Change pending"
ALREADY = "% Rollback Confirmed Change already pending"  # [U]


@dataclass(frozen=True)
class Pending:
    """A change waiting for ``configure confirm``: the config to go back to, and when."""

    before: Config
    minutes: int
    started: float
    deadline: float
    user: str = "console"


def archive_on(router: Router) -> bool:
    """Whether the running config has ``archive`` with a ``path`` (the feature's prerequisite)."""
    section = router.running.find("archive")
    return section is not None and any(c.text.startswith("path ") for c in section.children)


def tick(router: Router) -> None:
    """Revert an unconfirmed change whose timer has run out."""
    pending = router.pending_revert
    if pending is not None and router.clock() >= pending.deadline:
        router.pending_revert = None
        router.running = pending.before.copy()
        router.events.append(("revert", f"timer of {pending.minutes} minutes expired"))


def start(t: Terminal, words: list[str]) -> str:
    """``configure terminal revert timer MINUTES``."""
    router = t.router
    if not archive_on(router):
        return ARCHIVE_OFF
    if router.pending_revert is not None:
        return ALREADY
    allowed, said = config_lock.enter(t, lock=False)
    if not allowed:
        return said
    minutes = int(words[-1])
    now = router.clock()
    router.pending_revert = Pending(
        router.running.copy(), minutes, now, now + minutes * router.minute, t.user
    )
    t.stack = [Frame("config")]
    return said


def confirm(t: Terminal, _words: list[str]) -> str:
    """``configure confirm``: keep the change."""
    if t.router.pending_revert is None:
        return NONE_PENDING  # [U] for `configure confirm`: the show command's wording
    t.router.pending_revert = None
    t.router.events.append(("revert", "confirmed"))
    return ""


def revert_now(t: Terminal, _words: list[str]) -> str:
    """``configure revert now``: back to the pre-change config at once."""
    pending = t.router.pending_revert
    if pending is None:
        return NONE_PENDING  # [U] for `configure revert now`: the show command's wording
    locked = config_lock.foreign(t)
    if locked is not None:
        return locked
    t.router.pending_revert = None
    t.router.running = pending.before.copy()
    t.router.events.append(("revert", "now"))
    return ""


def show_timer(t: Terminal, _words: list[str]) -> str:
    """``show archive config rollback timer``: the fields napalm reads."""
    pending = t.router.pending_revert
    if pending is None:
        return NONE_PENDING
    configured = time.strftime("%H:%M:%S UTC %a %b %d %Y", time.gmtime())
    return (
        f"Time configured(or reconfigured): {configured}\nTimer type: absolute timer\n"
        f"Timer value: {pending.minutes} min\nUser: {pending.user}"
    )
