"""`sim up -d`, `sim status`, `sim down`: simulated routers that outlive the command."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import sim_cli

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture
def state(tmp_path: Path) -> Iterator[Path]:
    directory = tmp_path / "state"
    yield directory
    sim_cli(directory, "sim", "down", cwd=tmp_path)  # never leave a simulator behind


def _banner(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        return sock.recv(64)


def test_detached_simulator_answers_ssh_until_sim_down(state: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    started = sim_cli(state, "sim", "up", "-d", "--sites", str(SITES), cwd=work)
    assert started.returncode == 0, started.stderr
    assert "started in the background" in started.stdout

    shown = sim_cli(state, "sim", "status", "--format", "json", cwd=work)
    assert shown.returncode == 0
    status = json.loads(shown.stdout)
    assert status["running"] is True
    assert sorted(status["routers"]) == ["site-a", "site-b"]
    for router in status["routers"].values():
        assert _banner(router["port"]).startswith(b"SSH-2.0-")
    assert status["inventory"] == str(state / "sim" / "default" / "inventory.json")
    assert list(work.iterdir()) == []  # nothing lands in the working tree

    again = sim_cli(state, "sim", "up", "-d", "--sites", str(SITES), cwd=work)
    assert again.returncode == 1
    assert f"already running (pid {status['pid']}" in again.stderr

    stopped = sim_cli(state, "sim", "down", cwd=work)
    assert stopped.returncode == 0
    assert f"stopped (pid {status['pid']})" in stopped.stderr
    with pytest.raises(ProcessLookupError):
        os.kill(status["pid"], 0)
    after = sim_cli(state, "sim", "status", cwd=work)
    assert after.returncode == 1
    assert "no simulator is running" in after.stderr


def test_status_says_when_the_recorded_simulator_died(state: Path, tmp_path: Path) -> None:
    assert sim_cli(state, "sim", "up", "-d", "--sites", str(SITES), cwd=tmp_path).returncode == 0
    shown = sim_cli(state, "sim", "status", "--format", "json", cwd=tmp_path)
    pid = json.loads(shown.stdout)["pid"]
    os.kill(pid, signal.SIGKILL)  # a crash: it cannot remove its status file
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    shown = sim_cli(state, "sim", "status", cwd=tmp_path)
    assert shown.returncode == 1
    assert f"the simulator (pid {pid}) is no longer running" in shown.stderr
    assert sim_cli(state, "sim", "down", cwd=tmp_path).returncode == 0
    assert "no simulator is running" in sim_cli(state, "sim", "status", cwd=tmp_path).stderr


def test_a_fleet_that_does_not_load_starts_nothing_in_the_background(
    state: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-sites"
    started = sim_cli(state, "sim", "up", "-d", "--sites", str(missing), cwd=tmp_path)
    assert started.returncode == 2  # a usage error: --sites names no directory
    assert "started in the background" not in started.stdout


def test_sim_down_with_nothing_running_is_not_an_error(state: Path, tmp_path: Path) -> None:
    stopped = sim_cli(state, "sim", "down", cwd=tmp_path)
    assert stopped.returncode == 0
    assert "no simulator is running" in stopped.stderr
