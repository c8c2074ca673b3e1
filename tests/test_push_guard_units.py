"""The pieces behind push's guards, on real router text: which files are push's rollback copies
(on a real IOSv `dir`), which configuration-mode command takes exclusive mode's lock, and when two
reads of a running config are the same configuration.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from l2tpgen.device import exclusive, rollback_copy
from l2tpgen.device.session import comparable
from l2tpgen.errors import DeviceError

SHOW = Path(__file__).parent / "realworld" / "show"
MINE = [
    "l2tpgen-site-a-20261101T101010000001-0a1b.cfg",
    "l2tpgen-site-a-20261102T101010000001-ffff.cfg",
    "l2tpgen-site-a-20261103T101010000001-1234.cfg",
]
NOT_MINE = [
    "l2tpgen-site-a-backup.cfg",  # l2tpgen-looking, not push's form
    "l2tpgen-site-a-20261101T101010000001-zzzz.cfg",  # not hex
    "l2tpgen-site-ab-20261101T101010000001-0a1b.cfg",  # another site
    "l2tpgen-site-a-20261101T1010100000-0a1b.cfg",  # the stamp cut short
]


def _dir_with(names: list[str]) -> str:
    """genieparser's IOSv `dir` capture with rows for ``names`` in the same format."""
    real = (SHOW / "genieparser-dir-1.txt").read_text(encoding="utf-8")
    head, blank, tail = real.rpartition("\n\n")
    rows = "".join(
        f"\n  {300 + i}  -rw-        4242  Nov  1 2026 10:10:10 +00:00  {name}"
        for i, name in enumerate(names)
    )
    return head + rows + blank + tail


def test_only_pushs_own_copies_of_the_site_are_listed_from_a_real_dir_output() -> None:
    listing = _dir_with([*reversed(MINE), *NOT_MINE])
    assert rollback_copy.listed_copies(listing, "site-a") == MINE
    assert "vios-adventerprisek9-m" in listing  # the image is in the listing, never picked


def test_pruning_keeps_the_newest_including_the_copy_about_to_be_made() -> None:
    assert rollback_copy.to_prune(MINE, keep=3) == MINE[:1]
    assert rollback_copy.to_prune(MINE, keep=1) == MINE
    assert rollback_copy.to_prune(MINE, keep=10) == []


def test_exclusive_mode_is_read_from_the_running_config_and_entered_accordingly() -> None:
    assert exclusive.enter_command("hostname r\nconfiguration mode exclusive manual\n") == (
        "configure terminal lock"
    )
    assert exclusive.enter_command("configuration mode exclusive auto\n") == "configure terminal"
    assert exclusive.enter_command("hostname r\n") == "configure terminal"


def test_two_reads_of_one_config_compare_equal_despite_headers_and_a_logged_line() -> None:
    first = "Building configuration...\n\nCurrent configuration : 120 bytes\n!\nhostname r\nend\n"
    second = (
        "Building configuration...\n\nCurrent configuration : 121 bytes\n"
        "*Apr 22 19:31:44.825: Configuration mode locked exclusively. The lock will be cleared "
        "once you exit out of configuration mode using end/exit\n!\nhostname r\nend\n"
    )
    assert comparable(first) == comparable(second)
    assert exclusive.same_config(first, second)
    assert not exclusive.same_config(first, second.replace("hostname r", "hostname s"))


def test_a_foreign_change_is_found_outside_the_sections_a_change_edits() -> None:
    before = "interface Gi0/0.10\n description old\n!\nip route 0.0.0.0 0.0.0.0 192.0.2.1\n"
    edits = exclusive.touched(["interface Gi0/0.10", " description new", "no interface Gi0/0.11"])
    assert edits == {"interface Gi0/0.10", "interface Gi0/0.11"}
    ours = before.replace("description old", "description new")
    assert exclusive.foreign_change(ours, before, None, edits) is None
    theirs = ours.replace("192.0.2.1", "192.0.2.9")
    found = exclusive.foreign_change(theirs, before, None, edits)
    assert found == "`-ip route 0.0.0.0 0.0.0.0 192.0.2.1`, `+ip route 0.0.0.0 0.0.0.0 192.0.2.9`"
    # with what push last saw itself, any difference is someone else's
    assert exclusive.foreign_change(ours, before, ours, edits) is None
    assert exclusive.foreign_change(theirs, before, ours, edits) is not None


def test_a_flash_full_of_old_copies_still_takes_the_new_one_as_the_old_ones_go() -> None:
    listing = _dir_with(MINE)
    assert rollback_copy.listed_sizes(listing)[MINE[0]] == 4242
    assert rollback_copy.listed_sizes(listing)["vios-adventerprisek9-m"] == 147988420
    fs = rollback_copy.FileSystem("flash0:", free=1000)
    running = "x" * 3000  # needs 6000 bytes free
    with pytest.raises(DeviceError, match="1000 bytes free"):
        rollback_copy.check_space(fs, running)
    freed = sum(
        rollback_copy.listed_sizes(listing)[n] for n in rollback_copy.to_prune(MINE, keep=2)
    )
    rollback_copy.check_space(fs, running, freed=freed)  # two old copies go first: room enough
