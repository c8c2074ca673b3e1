"""`sim up -d`, `sim status`, `sim down`: simulated routers that outlive the command."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING

import pytest
from conftest import SITES

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def _cli(state: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "L2TPGEN_STATE_DIR": str(state),
        "L2TPGEN_USERNAME": "admin",
        "L2TPGEN_PASSWORD": "lab-only",
        "COLUMNS": "200",
    }
    return subprocess.run(
        [sys.executable, "-m", "l2tpgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.fixture
def state(tmp_path: Path) -> Iterator[Path]:
    directory = tmp_path / "state"
    yield directory
    _cli(directory, tmp_path, "sim", "down")  # never leave a simulator behind


def _banner(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        return sock.recv(64)


def test_detached_simulator_answers_ssh_until_sim_down(state: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    started = _cli(state, work, "sim", "up", "-d", "--sites", str(SITES))
    assert started.returncode == 0, started.stderr
    assert "started in the background" in started.stdout

    shown = _cli(state, work, "sim", "status", "--format", "json")
    assert shown.returncode == 0
    status = json.loads(shown.stdout)
    assert status["running"] is True
    assert sorted(status["routers"]) == ["site-a", "site-b"]
    for router in status["routers"].values():
        assert _banner(router["port"]).startswith(b"SSH-2.0-")
    assert status["inventory"] == str(state / "sim" / "default" / "inventory.json")
    assert list(work.iterdir()) == []  # nothing lands in the working tree

    again = _cli(state, work, "sim", "up", "-d", "--sites", str(SITES))
    assert again.returncode == 1
    assert f"already running (pid {status['pid']}" in again.stderr

    stopped = _cli(state, work, "sim", "down")
    assert stopped.returncode == 0
    assert f"stopped (pid {status['pid']})" in stopped.stderr
    with pytest.raises(ProcessLookupError):
        os.kill(status["pid"], 0)
    after = _cli(state, work, "sim", "status")
    assert after.returncode == 1
    assert "no simulator is running" in after.stderr


def test_status_says_when_the_recorded_simulator_died(state: Path, tmp_path: Path) -> None:
    assert _cli(state, tmp_path, "sim", "up", "-d", "--sites", str(SITES)).returncode == 0
    pid = json.loads(_cli(state, tmp_path, "sim", "status", "--format", "json").stdout)["pid"]
    os.kill(pid, signal.SIGKILL)  # a crash: it cannot remove its status file
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    shown = _cli(state, tmp_path, "sim", "status")
    assert shown.returncode == 1
    assert f"the simulator (pid {pid}) is no longer running" in shown.stderr
    assert _cli(state, tmp_path, "sim", "down").returncode == 0
    assert "no simulator is running" in _cli(state, tmp_path, "sim", "status").stderr


def test_a_fleet_that_does_not_load_starts_nothing_in_the_background(
    state: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-sites"
    started = _cli(state, tmp_path, "sim", "up", "-d", "--sites", str(missing))
    assert started.returncode == 1
    assert "started in the background" not in started.stdout


def test_sim_down_with_nothing_running_is_not_an_error(state: Path, tmp_path: Path) -> None:
    stopped = _cli(state, tmp_path, "sim", "down")
    assert stopped.returncode == 0
    assert "no simulator is running" in stopped.stderr
