"""The router's own words for a configuration lock and a pending revert timer, as read by l2tpgen.

Each text is quoted from a real router or Cisco's documentation:

- the refusal of ``configure terminal`` under another session's exclusive lock: "Configuration
  mode locked exclusively by user 'unknown' process '88' from terminal '0'. Please try later."
  (ipnet.xyz, 2010, and blog.networkbits.es, 2014, from real routers); the holder's notice,
  printed with a log timestamp on a console: "*Apr 22 19:31:44.825: Configuration mode locked
  exclusively. The lock will be cleared once you exit out of configuration mode using end/exit"
  (dummies.com, "Cisco Exclusive Configuration Editing"), which is no refusal;
- ``show configuration lock`` with a lock held (booches.nl, "Configuration Mode Locking", 2008)
  and with none (darenmatthews.com, "IOS Configuration Lock", 2009);
- ``show archive config rollback timer`` with a change pending (Cisco IOS Configuration
  Fundamentals Command Reference, its sample output) and with none (``%No Rollback Confirmed
  Change pending``, napalm's IOS commit-confirm integration test).
"""

from __future__ import annotations

from l2tpgen.device.confirm import pending
from l2tpgen.device.exclusive import held_by, locked_by

REFUSED = (
    "Configuration mode locked exclusively by user 'unknown' process '88' from terminal '0'. "
    "Please try later."
)
HOLDER_NOTICE = (
    "*Apr 22 19:31:44.825: Configuration mode locked exclusively. The lock will be cleared once "
    "you exit out of configuration mode using end/exit"
)
LOCK_HELD = """Parser Configure Lock
---------------------
Owner PID : 261
User : booches
TTY : 1
Type : EXCLUSIVE
State : LOCKED
Class : EXPOSED
Count : 1
Pending Requests : 0
User debug info : configure terminal lock
"""
LOCK_FREE = """Parser Configure Lock
---------------------
Owner PID             : -1
User                  : 6200networks
TTY                   : -1
Type                  : NO LOCK
State                 : FREE
Class                 : unknown
Count                 : 0
Pending Requests      : 0
User debug info       :
Session idle state    : TRUE
"""
TIMER = """Time configured(or reconfigured): 22:50:48 UTC Sat Feb 21 2009
Timer type: absolute timer
Timer value: 2 min
User: console
"""


def test_the_refusal_of_configure_terminal_under_a_lock_is_read_as_the_lock() -> None:
    assert locked_by(f"\n{REFUSED}\nrouter#") == REFUSED


def test_the_refusal_in_the_is_locked_wording_is_read_as_the_lock() -> None:
    worded = REFUSED.replace("mode locked", "mode is locked")
    assert locked_by(worded) == worded


def test_the_holders_own_notice_is_not_someone_elses_lock() -> None:
    assert locked_by(HOLDER_NOTICE) == ""


def test_show_configuration_lock_names_the_holder_of_a_lock() -> None:
    assert held_by(LOCK_HELD) == (
        "exclusive configuration mode: locked by User booches, TTY 1, Owner PID 261"
    )


def test_show_configuration_lock_with_no_lock_names_nobody() -> None:
    assert held_by(LOCK_FREE) == ""


def test_a_router_without_show_configuration_lock_has_no_lock() -> None:
    assert held_by("                ^\n% Invalid input detected at '^' marker.\n") == ""


def test_a_pending_timer_is_described_in_the_routers_fields() -> None:
    assert pending(TIMER) == (
        "Time configured: 22:50:48 UTC Sat Feb 21 2009, Timer type: absolute timer, "
        "Timer value: 2 min, User: console"
    )


def test_no_pending_change_and_a_refused_command_are_no_timer() -> None:
    assert pending("%No Rollback Confirmed Change pending") is None
    assert pending("% Invalid input detected at '^' marker.") is None
    assert pending("") is None
