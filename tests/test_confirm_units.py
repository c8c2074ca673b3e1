"""``device/confirm.py``'s pre-flight, as units: what the mutation run found no test reached.

Issue 26's mutation run of confirm.py (with the mutation selection's tests) left `lacking` wholly
untested there: a timed push on a router without the archive, or in manual exclusive mode, must be
refused before anything is sent, and one with the archive must go ahead. The wording is the
router-facing message's; these tests hold to its substance (what is missing), not its letters.
"""

from __future__ import annotations

from l2tpgen.device.confirm import armed_by, lacking

ARCHIVE = "archive\n path flash:l2tpgen-archive\n!\n"


def test_a_timed_push_needs_the_archive() -> None:
    said = lacking("hostname r1\n", 5)
    assert said is not None
    assert said.startswith("not pushed: --confirm-within needs the router's configuration archive")
    assert "` path flash:NAME`" in said


def test_a_timed_push_on_a_router_with_the_archive_goes_ahead() -> None:
    assert lacking("hostname r1\n" + ARCHIVE, 5) is None
    assert lacking("hostname r1\n" + ARCHIVE + "configuration mode exclusive auto\n", 5) is None


def test_a_timed_push_in_manual_exclusive_mode_is_refused() -> None:
    said = lacking(ARCHIVE + "configuration mode exclusive manual\n", 5)
    assert said is not None
    assert said.startswith("not pushed: --confirm-within on a router in manual exclusive")


def test_an_ordinary_push_is_never_refused_here() -> None:
    assert lacking("hostname r1\n", None) is None
    assert lacking("configuration mode exclusive manual\n", None) is None


def test_the_archive_is_found_in_a_config_with_windows_line_ends() -> None:
    assert lacking(("hostname r1\n" + ARCHIVE).replace("\n", "\r\n"), 5) is None


# -- who armed the timer: `User:` of `show archive config rollback timer` --------------------------
# Cisco's sample output (IOS Configuration Fundamentals Command Reference, `show archive config
# rollback timer`; field table: "User: Displays the username"), as napalm's IOS driver reads it
# (napalm-automation/napalm, napalm/ios/ios.py, `_get_pending_commits`: `User: (?P<user>.*)`).
CISCO_SAMPLE = (
    "Time configured(or reconfigured): 22:50:48 UTC Sat Feb 21 2009\n"
    "Timer type: absolute timer\n"
    "Timer value: 2 min\n"
    "User: console\n"
)


def test_the_user_who_armed_the_timer_is_read_from_ciscos_sample_output() -> None:
    assert armed_by(CISCO_SAMPLE) == "console"
    assert armed_by(CISCO_SAMPLE.replace("console", "NetOps").replace("\n", "\r\n")) == "NetOps"


def test_no_user_is_read_when_nothing_waits_and_an_empty_one_when_the_router_names_none() -> None:
    assert armed_by("%No Rollback Confirmed Change pending") is None
    assert armed_by(CISCO_SAMPLE.replace("User: console\n", "")) == ""
    assert armed_by(CISCO_SAMPLE.replace("User: console", "User:")) == ""
