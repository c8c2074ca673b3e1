"""A port-mode xconnect kept or migrated, rehearsed against routers started from their configs.

The configs are the reference case's single-trunk routers (tests/reference/before-router-*.conf:
one xconnect on the LAN port carries every VLAN). Imported without `--vlans`, the sites keep it
(`lan.port_xconnect.action: keep`) and `push --dry-run` against routers started from those very
configs changes nothing; with `--vlans` they migrate (test_sim_scope_e2e.py has that half too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builders import REFERENCE_BEFORE, import_reference
from conftest_sim import SimUp, cli_env, dry_run_results

if TYPE_CHECKING:
    from pathlib import Path


def _dry_run(sites: Path, tmp_path: Path) -> list[dict[str, Any]]:
    # The reference configs' own test secret (type 0 in the file), so the classes agree too.
    env = {**cli_env(tmp_path), "L2TPGEN_L2TP_SECRET": "123456789"}
    inventory = tmp_path / "inventory.json"
    configs = [f"--config={site}={file}" for site, file in REFERENCE_BEFORE.items()]
    with SimUp("--sites", str(sites), *configs, inventory=inventory, env=env):
        return dry_run_results(sites, inventory, env, REFERENCE_BEFORE)


def test_a_kept_port_mode_xconnect_is_pushed_as_it_stands_no_migration(tmp_path: Path) -> None:
    sites = import_reference(tmp_path)
    assert (
        "port_xconnect: {peer: before-router-b, vc_id: 125, action: keep}"
        in (sites / "before-router-a.yaml").read_text()
    )
    results = _dry_run(sites, tmp_path)
    assert [(r["status"], r["migration"]) for r in results] == [("unchanged", False)] * 2, [
        r["commands"] for r in results
    ]
    for result in results:
        assert not any("xconnect" in c for c in result["commands"]), result["commands"]


def test_a_port_mode_xconnect_chosen_to_migrate_shows_the_migration(tmp_path: Path) -> None:
    sites = import_reference(tmp_path, "--vlans", "2996-2999", "--port-xconnect", "migrate")
    assert "action: migrate" in (sites / "before-router-a.yaml").read_text()
    results = _dry_run(sites, tmp_path)
    assert [(r["status"], r["migration"]) for r in results] == [("would-change", True)] * 2
    for result in results:
        assert any(c.startswith(" no xconnect ") for c in result["commands"])
        assert "interface GigabitEthernet0/0.2996" in result["commands"]
