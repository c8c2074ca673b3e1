"""The README's rehearsal: `l2tpgen sim up` in one process, push and verify from another."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from conftest import SITES
from conftest_sim import SimUp, cli_env, run_cli

if TYPE_CHECKING:
    from pathlib import Path


def test_sim_up_then_dry_run_push_and_verify_from_another_process(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    inventory = tmp_path / "inventory.json"
    with SimUp("--sites", str(SITES), inventory=inventory, env=env) as sim:
        common = ["--sites", str(SITES), "--inventory", str(inventory)]
        dry = run_cli("push", "site-a", "--dry-run", *common, env=env)
        assert dry.returncode == 0, dry.stderr
        assert "site-a: would-change" in dry.stdout
        for site in ("site-a", "site-b"):
            pushed = run_cli("push", site, "--yes", *common, env=env)
            assert pushed.returncode == 0, pushed.stdout + pushed.stderr
            assert f"{site}: changed" in pushed.stdout
        verified = run_cli("verify", "site-a", "site-b", "--format", "json", *common, env=env)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        rows = json.loads(verified.stdout)["pseudowires"]
        assert [row["state"] for row in rows] == ["UP"] * 8
    assert sim.returncode == 0, sim.err
    assert "simulated routers stopped" in sim.err
