"""IOS's exclusive configuration mode (the "Configuration Lock"), as Cisco documents it.

Source: Cisco, "Exclusive Configuration Change Access and Access Session Locking",
https://cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-lock-0.html
(first in 12.3(14)T): "Exclusive configuration change access can be set to auto, so that the
Cisco IOS configuration mode is locked whenever anyone uses the configure terminal command, or it
can be set to manual, so that the Cisco IOS configuration mode is locked only when the configure
terminal lock command is issued", and "the configuration lock is automatically released when the
user exits Cisco IOS configuration mode". What is modelled:

- ``configuration mode exclusive auto|manual`` in the running config turns it on;
- auto: ``configure terminal`` takes the lock; manual: ``configure terminal lock`` does;
- while one session holds it, any other session's ``configure terminal`` (with or without
  ``lock``) is refused and that session stays at the exec prompt, with the text quoted by
  ipnet.xyz (2010) and blog.networkbits.es (2014) from real routers: "Configuration mode locked
  exclusively by user 'unknown' process '88' from terminal '0'. Please try later.";
- the holder leaving configuration mode (``end``, ``exit``), or its session ending, frees it;
- the holder is told "Configuration mode locked exclusively. The lock will be cleared once you
  exit out of configuration mode using end/exit" (quoted by dummies.com, "Cisco Exclusive
  Configuration Editing").

- ``show configuration lock``: the fields of the outputs quoted by booches.nl (2008, a lock held:
  ``Type : EXCLUSIVE`` / ``State : LOCKED``) and darenmatthews.com (2009, none: ``Type : NO
  LOCK`` / ``State : FREE``), under the header ``Parser Configure Lock``;
- ``configure replace`` (``sim/storage.py``) under another session's lock is refused with the
  ``configure terminal`` text: Cisco's guide calls the exclusive lock "complementary with the
  locking mechanism for the Configuration Replace and Configuration Rollback feature (rollback
  lock)" (https://cisco.com/c/en/us/td/docs/ios-xml/ios/config-mgmt/configuration/xe-16-10/config-mgmt-xe-16-10-book/cm-config-lock.html);
  the text a replace prints then is not quoted anywhere [U].

Not modelled (not documented in those sources): ``configure terminal lock`` on a router without
exclusive mode (here it takes the lock as in manual mode), and what happens to sessions already
in configuration mode when the lock is taken (they go on). This module imports nothing from
l2tpgen outside ``l2tpgen.sim``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.sim.router import Router
    from l2tpgen.sim.terminal import Terminal

TAKEN = (
    "Configuration mode locked exclusively. The lock will be cleared once you exit out of "
    "configuration mode using end/exit"
)
ENTERED = "Enter configuration commands, one per line.  End with CNTL/Z."
_MODE = re.compile(r"^configuration mode exclusive (auto|manual)$")
# The session holding each router's lock (by the router's id: a Router is not hashable); checked
# against the router itself, so a stale entry never locks another router.
_HOLDERS: dict[int, Terminal] = {}


def exclusive_mode(router: Router) -> str | None:
    """``auto`` or ``manual`` when the router's running config turns exclusive mode on."""
    for line in router.running.lines:
        found = _MODE.match(line.text)
        if found:
            return found.group(1)
    return None


def holder(router: Router) -> Terminal | None:
    """The session that holds the router's configuration lock, or None.

    The lock goes with the holder's leaving configuration mode or its session's end.
    """
    held = _HOLDERS.get(id(router))
    if held is None or held.router is not router or held.closed or not held.in_config:
        _HOLDERS.pop(id(router), None)
        return None
    return held


def refusal(router: Router, other: Terminal) -> str:
    """What another session is told while ``other`` holds the lock."""
    terminals = sorted(_HOLDERS)  # a stable small number per holder, as IOS's tty number
    return (
        f"Configuration mode locked exclusively by user 'unknown' process "
        f"'{100 + terminals.index(id(router))}' from terminal '{id(other) % 16}'. "
        "Please try later."
    )


def enter(t: Terminal, *, lock: bool) -> tuple[bool, str]:
    """``configure terminal [lock]`` on session ``t``: whether it may enter, and what IOS prints.

    The caller enters configuration mode when allowed.
    """
    router = t.router
    held = holder(router)
    if held is not None and held is not t:
        return False, refusal(router, held)
    if lock or exclusive_mode(router) == "auto":
        _HOLDERS[id(router)] = t
        return True, f"{ENTERED}\n{TAKEN}"
    return True, ENTERED


def foreign(t: Terminal) -> str | None:
    """The refusal another session's lock earns ``t`` for a change made from the exec prompt."""
    held = holder(t.router)
    return refusal(t.router, held) if held is not None and held is not t else None


def show(t: Terminal, _words: list[str]) -> str:
    """``show configuration lock``."""
    held = holder(t.router)
    if held is None:
        owner, user, tty, kind, state, debug = "-1", "unknown", "-1", "NO LOCK", "FREE", ""
    else:
        owner, user, tty = str(100 + sorted(_HOLDERS).index(id(t.router))), "unknown", "0"
        kind, state, debug = "EXCLUSIVE", "LOCKED", "configure terminal lock"
    rows = [
        ("Owner PID", owner),
        ("User", user),
        ("TTY", tty),
        ("Type", kind),
        ("State", state),
        ("Class", "EXPOSED" if held is not None else "unknown"),
        ("Count", "1" if held is not None else "0"),
        ("Pending Requests", "0"),
        ("User debug info", debug),
    ]
    return "Parser Configure Lock\n---------------------\n" + "\n".join(
        f"{key:<22}: {value}" for key, value in rows
    )
