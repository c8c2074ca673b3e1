"""A kept port-mode xconnect re-created by a class change carries an outage note (issue 34 item 8).

Turning on `ip pmtu` / `ip dfbit set` for a kept port-mode pseudowire changes its
pseudowire-class; a class in use is never edited in place (device/class_versions.py), so push
builds a new version and moves the trunk's `xconnect` to it: `no xconnect` then `xconnect` on the
LAN trunk, which tears down the one session carrying every VLAN of the port, at both ends. Before,
the plan said only that the class moved. The routers are the reference case's single-trunk pair
(tests/reference/before-router-*.conf), imported without `--vlans` (kept).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from builders import REFERENCE_BEFORE, edit_file, import_reference
from conftest_sim import SimUp, cli_env, run_cli

from l2tpgen import load_fleet, render_site
from l2tpgen.device.outage import pair_outage
from l2tpgen.device.plan import plan_change

if TYPE_CHECKING:
    from pathlib import Path

A, B = REFERENCE_BEFORE
ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}  # the reference configs' own test secret
CLASS = "pseudowire_class: {name: ethernet, pmtu: false, df_bit: false}"
PMTU = "pseudowire_class: {name: ethernet, pmtu: true, df_bit: true}"


def _kept(tmp_path: Path, *, pmtu: bool) -> Path:
    sites = import_reference(tmp_path)
    if pmtu:
        for name in (A, B):
            edit_file(sites / f"{name}.yaml", CLASS, PMTU)
    return sites


def _plan(sites: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    fleet = load_fleet(sites)
    before = REFERENCE_BEFORE[A].read_text()
    plan = plan_change(fleet.site(A), before, render_site(fleet, A, reveal_secrets=True,
                                                          environ=ENV))  # fmt: skip
    return plan.send, plan.notes


def test_enabling_pmtu_on_a_kept_port_notes_the_trunk_outage_and_where_it_starts(
    tmp_path: Path,
) -> None:
    send, notes = _plan(_kept(tmp_path, pmtu=True))
    removed = send.index(" no xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet")
    (version,) = [line for line in send if line.startswith("pseudowire-class ethernet-")]
    typed = send.index(f" xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class {version[17:]}")
    assert send.index(version) < removed < typed  # the new class exists before the xconnect
    assert send[removed - 1] == "interface GigabitEthernet0/0"
    (note,) = [n for n in notes if "re-creates the port-mode xconnect" in n]
    assert "of GigabitEthernet0/0 (to 10.216.44.47, VC ID 125)" in note
    assert f"(line {removed + 1} of {len(send)})" in note
    assert f"(line {typed + 1} of {len(send)})" in note
    assert "the whole trunk is down at both ends" in note
    assert not pair_outage(notes)  # each end's own outage: not the half-protected pair's


def test_a_kept_port_left_as_it_is_has_no_outage_note(tmp_path: Path) -> None:
    send, notes = _plan(_kept(tmp_path, pmtu=False))
    assert send == ()
    assert notes == ()


def test_push_of_both_ends_shows_the_note_and_the_trunk_comes_back(tmp_path: Path) -> None:
    sites = _kept(tmp_path, pmtu=True)
    env = {**cli_env(tmp_path), **ENV}
    inventory = tmp_path / "inventory.json"
    configs = [f"--config={site}={file}" for site, file in REFERENCE_BEFORE.items()]
    with SimUp("--sites", str(sites), *configs, inventory=inventory, env=env):
        pushed = run_cli(
            "push", A, B, "--yes", "--sites", str(sites), "--inventory", str(inventory),
            "--format", "json", env=env,
        )  # fmt: skip
        verified = run_cli(
            "verify", "--all", "--sites", str(sites), "--inventory", str(inventory),
            "--format", "json", env=env,
        )  # fmt: skip
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    report = json.loads(pushed.stdout)
    results = report["results"]
    # push reads the pair back: the trunk up at both ends, one row for the port
    assert [(p["site"], p["peer"], p["port"], p["up_both"]) for p in report["pairs"]] == [
        (A, B, True, True)
    ]
    for result in results:
        assert result["status"] == "changed", result
        assert any("re-creates the port-mode xconnect" in n for n in result["notes"]), result
    assert verified.returncode == 0, verified.stdout + verified.stderr
    rows = json.loads(verified.stdout)["pseudowires"]
    assert [(r["site"], r["port"], r["state"]) for r in rows] == [(A, True, "UP"), (B, True, "UP")]
