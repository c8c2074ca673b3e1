"""rollback's note on a pair left with one end rolled back names only peers it can roll back.

examples/hub: the hub pairs with a branch (Cisco) and linux-edge (a Linux PE, which push and
rollback skip: it has no rollback copy). `rollback --all` takes branch and hub; suggesting
`l2tpgen rollback hub linux-edge` would send the user to a command that refuses (issue 36).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.cli.rollback import _warn_lone_ends
from l2tpgen.model import load_fleet

if TYPE_CHECKING:
    import pytest

HUB = Path(__file__).parent.parent / "examples" / "hub"


def test_rollback_all_suggests_no_linux_peer_it_skips(capsys: pytest.CaptureFixture[str]) -> None:
    _warn_lone_ends(load_fleet(HUB), ["branch", "hub"])  # what --all selects
    assert "linux-edge" not in capsys.readouterr().err


def test_rollback_of_one_end_still_names_its_cisco_peer(capsys: pytest.CaptureFixture[str]) -> None:
    _warn_lone_ends(load_fleet(HUB), ["hub"])
    noted = " ".join(capsys.readouterr().err.split())
    assert "hub's peer branch is not rolled back with it" in noted
    assert "linux-edge" not in noted
