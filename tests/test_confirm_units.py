"""``device/confirm.py``'s pre-flight, as units: what the mutation run found no test reached.

Issue 26's mutation run of confirm.py (with the mutation selection's tests) left `lacking` wholly
untested there: a timed push on a router without the archive, or in manual exclusive mode, must be
refused before anything is sent, and one with the archive must go ahead. The wording is the
router-facing message's; these tests hold to its substance (what is missing), not its letters.
"""

from __future__ import annotations

from l2tpgen.device.confirm import lacking

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
