"""State directories: never chmod a shared one, never follow a planted link, never lie about it.

The state directory holds rollback copies with the routers' secrets (type 7, pair keys in
clear), locks, and the labs' records (which decide what ``lab status`` opens and deletes, as
root too). A shared sticky directory (``/tmp``, mode 1777) keeps its mode; ``rollback/``,
``locks/`` and ``lab/`` are never symbolic links that l2tpgen follows; a directory of another
user (chown is possible as root) or writable by others is refused for the labs.
"""

from __future__ import annotations

import json
import os
import stat
from typing import TYPE_CHECKING

import pytest
from builders import revealed_site
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.device.rollback_copy import keep_locally
from l2tpgen.device.state_dir import private_dir, router_lock
from l2tpgen.errors import DeviceError
from l2tpgen.model.keys import pair_psk

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
OTHER_UID = 54321


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_sticky_shared_state_directory_keeps_its_mode_and_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)

    with pytest.raises(DeviceError, match=r"shared directory \(mode 1777\)"):
        private_dir(shared)

    assert _mode(shared) == 0o1777


def test_a_push_with_the_state_directory_on_a_1777_directory_keeps_its_mode(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "tmp-like"
    shared.mkdir()
    shared.chmod(0o1777)

    with pytest.raises(DeviceError), router_lock(shared, "127.0.0.1", 22):
        pass

    assert _mode(shared) == 0o1777
    assert list(shared.iterdir()) == []


def test_a_symlinked_rollback_folder_is_refused_and_its_target_not_chmodded(
    tmp_path: Path,
) -> None:
    state, target = tmp_path / "state", tmp_path / "elsewhere"
    state.mkdir(mode=0o700)
    target.mkdir()
    target.chmod(0o755)
    (state / "rollback").symlink_to(target)

    with pytest.raises(DeviceError, match="symbolic link"):
        keep_locally(state / "rollback", "l2tpgen-x.cfg", "hostname r1\n")

    assert _mode(target) == 0o755
    assert list(target.iterdir()) == []


def test_a_symlinked_locks_folder_is_refused_and_its_target_not_chmodded(tmp_path: Path) -> None:
    state, target = tmp_path / "state", tmp_path / "elsewhere"
    state.mkdir(mode=0o700)
    target.mkdir()
    target.chmod(0o755)
    (state / "locks").symlink_to(target)

    with pytest.raises(DeviceError, match="symbolic link"), router_lock(state, "127.0.0.1", 22):
        pass

    assert _mode(target) == 0o755
    assert list(target.iterdir()) == []


def _lab_status(state: Path) -> tuple[int, str, str]:
    result = runner.invoke(
        app, ["lab", "status", "--format", "json"], env={"L2TPGEN_STATE_DIR": str(state)}
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.skipif(os.getuid() != 0, reason="chown to another user needs root")
def test_the_labs_state_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "theirs"
    state.mkdir(mode=0o700)
    os.chown(state, OTHER_UID, OTHER_UID)

    code, _, stderr = _lab_status(state)

    assert code == 1
    assert f"belongs to user id {OTHER_UID}" in stderr
    assert not (state / "lab").exists()


def test_a_world_writable_labs_state_directory_is_refused_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    state = tmp_path / "open"
    state.mkdir()
    state.chmod(0o777)

    code, _, stderr = _lab_status(state)

    assert code == 1
    assert "may be written by others (mode 0777)" in stderr
    assert _mode(state) == 0o777


def test_a_planted_symlink_makes_lab_status_refuse_and_touch_nothing_in_its_target(
    tmp_path: Path,
) -> None:
    state, target = tmp_path / "state", tmp_path / "target"
    (state / "lab").mkdir(parents=True, mode=0o700)
    state.chmod(0o700)
    target.mkdir()
    (state / "lab" / "planted").symlink_to(target)

    code, stdout, stderr = _lab_status(state)

    assert code == 1
    assert "symbolic link" in stderr
    assert "its state was removed" not in stdout + stderr
    assert list(target.iterdir()) == []  # no lock file created through the link
    assert (state / "lab" / "planted").is_symlink()


def test_a_stale_lab_says_removed_only_when_its_directory_is_gone(tmp_path: Path) -> None:
    state = tmp_path / "state"
    (state / "lab" / "half").mkdir(parents=True, mode=0o700)
    state.chmod(0o700)

    code, stdout, _ = _lab_status(state)

    assert code == 1
    assert json.loads(stdout)["labs"] == [{"name": "half", "state": "stale", "removed": True}]
    assert not (state / "lab" / "half").exists()


def test_a_planted_lock_link_inside_a_lab_creates_nothing_where_it_points(tmp_path: Path) -> None:
    state, target = tmp_path / "state", tmp_path / "target"
    half = state / "lab" / "half"
    half.mkdir(parents=True, mode=0o700)
    state.chmod(0o700)
    target.mkdir()
    (half / "starting.lock").symlink_to(target / "created-through-the-link")

    _lab_status(state)

    assert list(target.iterdir()) == []


def test_a_local_rollback_copy_holds_the_pair_key_in_clear_as_docs_push_says(
    tmp_path: Path,
) -> None:
    # What push sends a protected site is what `show running-config` then prints, and what the
    # next push's local copy keeps: the IKEv2 keyring's key has no type 7 form (docs/security.md).
    master = "m4ster-key-for-this-test-only"
    environ = {"L2TPGEN_IKE_PSK": master, "L2TPGEN_L2TP_SECRET": "l2tp-secret"}
    _, running = revealed_site(ROOT / "examples" / "protected", "site-a", environ)
    key = pair_psk(master.encode(), ("site-a", "site-b"))
    copy = keep_locally(tmp_path / "rollback", "l2tpgen-x.cfg", running)
    assert key in copy.read_text()
    assert "l2tp-secret" not in copy.read_text()  # the l2tp-class secret: type 7 only
    assert _mode(copy) == 0o600
    push_md = " ".join((ROOT / "docs" / "push.md").read_text().split())
    assert "each pair's IKEv2 pre-shared key in clear" in push_md
    assert "it holds the router's type 7 secrets" not in push_md
