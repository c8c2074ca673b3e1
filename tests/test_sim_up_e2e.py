"""The README's rehearsal: `l2tpgen sim up` in one process, push and verify from another."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING

from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME

if TYPE_CHECKING:
    from pathlib import Path


def _l2tpgen(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "l2tpgen", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_sim_up_then_dry_run_push_and_verify_from_another_process(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "L2TPGEN_USERNAME": USERNAME,
        "L2TPGEN_PASSWORD": PASSWORD,
        "L2TPGEN_L2TP_SECRET": L2TP_SECRET,
        "L2TPGEN_STATE_DIR": str(tmp_path / "state"),
    }
    inventory = tmp_path / "inventory.json"
    sim = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "l2tpgen",
            "sim",
            "up",
            "--sites",
            str(SITES),
            "--inventory-out",
            str(inventory),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not inventory.exists() and time.monotonic() < deadline and sim.poll() is None:
            time.sleep(0.1)
        assert inventory.exists(), "sim up did not write its inventory"
        common = ["--sites", str(SITES), "--inventory", str(inventory)]
        dry = _l2tpgen("push", "site-a", "--dry-run", *common, env=env)
        assert dry.returncode == 0, dry.stderr
        assert "site-a: would-change" in dry.stdout
        for site in ("site-a", "site-b"):
            pushed = _l2tpgen("push", site, "--yes", *common, env=env)
            assert pushed.returncode == 0, pushed.stdout + pushed.stderr
            assert f"{site}: changed" in pushed.stdout
        verified = _l2tpgen("verify", "site-a", "site-b", "--format", "json", *common, env=env)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        rows = json.loads(verified.stdout)["pseudowires"]
        assert [row["state"] for row in rows] == ["UP"] * 8
    finally:
        sim.send_signal(signal.SIGTERM)
        _, err = sim.communicate(timeout=30)
    assert sim.returncode == 0, err
    assert "simulated routers stopped" in err
