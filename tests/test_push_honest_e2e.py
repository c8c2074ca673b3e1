"""What push reports is true: refused secret lines stay masked, an unsaved change is not passed
off as saved, rollback copies are pruned, and the state directory is private. Over real SSH
against simulated routers (netmiko unmodified, no mocks).
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import TYPE_CHECKING

import pytest
from conftest_sim import L2TP_SECRET, Lab
from push_runs import cli, push

from l2tpgen.device import rollback_copy
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _spellings(secret: str) -> list[str]:
    """Every form of ``secret`` a router or l2tpgen writes: clear, and type 7 under each salt."""
    return [secret, *(type7_encode(secret, salt) for salt in range(16))]


# -- 1: a refused secret line ---------------------------------------------------------------------


def test_a_refused_secret_line_is_masked_in_text_table_json_and_logs(
    new_lab: Callable[..., Lab], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    # The router refuses the l2tp-class secret line (as IOS refuses a line it does not take).
    lab = new_lab(faults={"site-a": Faults(refuse=r"^password ")})
    before = lab.running("site-a")
    text = cli(lab, "push", "site-a", "--yes")
    as_json = cli(lab, "push", "site-a", "--yes", "--format", "json")
    assert (text.exit_code, as_json.exit_code) == (3, 3), text.output
    (result,) = json.loads(as_json.stdout)["results"]
    assert result["status"] == "rolled-back"
    # The refusal is reported (masked), in the message and in the errors.
    assert "the router refused `password 7 <masked>`" in result["message"]
    assert result["errors"][0].startswith("password 7 <masked>: % Invalid input")
    assert "refused: password 7 <masked>" in text.output
    everything = f"{text.output}\n{as_json.output}\n{caplog.text}"
    assert [s for s in _spellings(L2TP_SECRET) if s in everything] == []
    assert lab.running("site-a") == before


# -- 2: an unsaved change is not "unchanged" -----------------------------------------------------


def _diff(lab: Lab) -> tuple[int, dict[str, object]]:
    shown = cli(lab, "diff", "site-a", "--exit-code", "--format", "json")
    (result,) = json.loads(shown.stdout)["results"]
    return shown.exit_code, result


def test_a_change_left_unsaved_is_found_by_diff_and_saved_by_the_next_push(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(faults={"site-a": Faults(refuse_save=True)})
    router = lab.device("site-a").router
    startup = router.startup.body()
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "unsaved"), result
    assert router.startup.body() == startup != router.running.body()
    # The running config holds the model, the startup config does not: that is drift.
    code, shown = _diff(lab)
    assert (code, shown["status"]) == (1, "would-change"), shown
    assert "the startup config does not" in str(shown["message"])
    # Still refused: push says so again (exit 1), not "unchanged".
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "unsaved"), result
    assert "still NOT saved" in result["message"]
    router.save_fails = False  # NVRAM free again
    lab.device("site-a").router.events.clear()
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert result["message"].endswith("saved now")
    assert result["lines_sent"] == 0
    assert not [t for k, t in router.events if k == "config"]  # nothing was typed: only saved
    assert router.startup.body() == router.running.body()
    assert _diff(lab)[0] == 0
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"], result["message"]) == (0, "unchanged", "no change needed")


def test_with_no_save_a_live_unsaved_change_is_said_and_diff_still_fails(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab()
    assert push(lab, "site-a", "--no-save")[0] == 0
    code, (result,) = push(lab, "site-a", "--no-save")
    assert (code, result["status"]) == (0, "unchanged"), result
    assert "the startup config does not" in result["message"]
    assert result["message"].endswith("(--no-save)")
    assert _diff(lab)[0] == 1


# -- 10: rollback copies are pruned ---------------------------------------------------------------


def test_only_the_newest_rollback_copies_are_kept_and_nothing_else_is_deleted(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    router = lab.device("site-a").router
    local = tmp_path / "state" / "rollback"
    local.mkdir(parents=True)
    # Files l2tpgen did not make (or made for another site): never deleted.
    others = [
        "l2tpgen-notes.txt",
        "l2tpgen-site-a-backup.cfg",
        "l2tpgen-site-a-20260101T000000000000-zzzz.cfg",
        "l2tpgen-site-b-20200101T000000000000-abcd.cfg",
        "vios-adventerprisek9-m",
    ]
    for name in others:
        router.files[name] = router.running.copy()
        (local / name).write_text("not push's\n", encoding="utf-8")
    made = []
    for _ in range(5):  # five changing pushes: a subinterface removed by hand each time
        router.load("no interface GigabitEthernet0/0.2996")
        code, (result,) = push(lab, "site-a", "--keep-rollbacks", "3")
        assert (code, result["status"]) == (0, "changed"), result
        made.append(result["rollback_file"].partition(":")[2])
    ours = sorted(name for name in router.files if rollback_copy.is_copy_of(name, "site-a"))
    assert ours == made[-3:]
    assert sorted(n for n in router.files if n not in ours) == sorted(others)
    deletes = [t for k, t in router.events if k == "exec" and t.startswith("delete")]
    assert deletes == [f"delete /force flash:{name}" for name in made[:2]]
    assert sorted(p.name for p in local.iterdir()) == sorted([*made[-3:], *others])


# -- 12: a private state directory ----------------------------------------------------------------


def test_a_world_writable_state_directory_of_ours_is_made_private(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    state = tmp_path / "state"
    state.mkdir(mode=0o777)
    state.chmod(0o777)
    assert push(lab, "site-a")[0] == 0
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    for sub in ("locks", "rollback"):
        assert stat.S_IMODE((state / sub).stat().st_mode) == 0o700


@pytest.mark.skipif(os.getuid() != 0, reason="giving a directory to another user needs root")
def test_a_state_directory_of_another_user_is_refused_and_nothing_is_sent(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    state = tmp_path / "state"
    state.mkdir(mode=0o777)
    os.chown(state, 65534, 65534)
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused"), result
    assert re.search(r"state directory \S+ belongs to user id 65534, not to you", result["message"])
    assert lab.device("site-a").router.events == []
