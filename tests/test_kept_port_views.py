"""A kept port-mode pseudowire is shown by validate, docs, mtu, hosts and the lab (issue 33 item 8).

The fleet is the reference case's single-trunk pair (tests/reference/before-router-*.conf),
imported without `--vlans`: each site keeps the `xconnect` of its LAN port
(`lan.port_xconnect: {peer, vc_id: 125, action: keep}`) and lists no VLAN. Before, `validate`
said "0 pseudowires", and `docs`, `mtu`, `hosts` and `lab build` showed nothing of the trunk.

Its budget is the tagged frame's: a port-mode xconnect tunnels every frame the port receives
(Cisco, "Layer 2 Tunnel Protocol Version 3", 12.0(29)S: "Any Ethernet frame received on an
interface is tunneled"), tag included, so 1500 - 20 (IP) - 4 (session) - 14 (Ethernet) - 4
(802.1Q) = 1458 on this 1500-byte WAN with no cookie: what labs/README measures for a trunk.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from builders import import_reference
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lab.engines.vm import LabReport
from l2tpgen.lab.probes import CheckResult

if TYPE_CHECKING:
    from pathlib import Path

A, B = "before-router-a", "before-router-b"
ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}
runner = CliRunner()


@pytest.fixture
def sites(tmp_path: Path) -> Path:
    return import_reference(tmp_path)


def test_validate_counts_the_kept_port_pseudowire(sites: Path) -> None:
    result = runner.invoke(app, ["validate", "--sites", str(sites)], env=ENV)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok: 2 sites, 1 pseudowire, no problems")
    summary = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"], env=ENV)
    assert json.loads(summary.stdout)["pseudowires"] == 1


def test_docs_draws_and_tables_the_kept_port(sites: Path) -> None:
    result = runner.invoke(app, ["docs", "--sites", str(sites)])
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("# Fleet: 2 sites, 1 pseudowire\n")
    assert (
        '---|"port mode (kept): every VLAN of GigabitEthernet0/0, VC 125<br/>MTU 1458, none"|'
        in page
    )
    assert "## Port-mode pseudowires (kept)" in page
    assert (
        f"| {A} - {B} | GigabitEthernet0/0 - GigabitEthernet0/0 | 125 | dynamic (l2tpv3) | none "
        "| none | 1458 (WAN 1500) |"
    ) in page


def test_docs_of_a_fleet_without_kept_ports_has_no_port_section() -> None:
    result = runner.invoke(app, ["docs", "--sites", str(ROOT / "sites")])
    assert "Port-mode" not in result.stdout
    assert "port mode" not in result.stdout


def test_mtu_of_the_site_gives_the_trunks_tagged_budget(sites: Path) -> None:
    result = runner.invoke(app, ["mtu", A, "--sites", str(sites), "--format", "json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert (row["peer"], row["port"], row["vlans"]) == (B, True, [])
    assert (row["dot1q"], row["max_inner_mtu"], row["tcp_mss"]) == (True, 1458, 1418)
    text = runner.invoke(app, ["mtu", A, "--sites", str(sites)]).stdout
    assert f"{A} -> {B}: the kept port-mode xconnect of GigabitEthernet0/0 (every VLAN)" in text
    assert "largest CE MTU 1458" in text


def test_hosts_advises_the_hosts_behind_the_kept_port(sites: Path) -> None:
    text = runner.invoke(app, ["hosts", A, "--sites", str(sites)])
    assert text.exit_code == 0, text.output
    assert "every VLAN of GigabitEthernet0/0 to before-router-b (the kept port-mode" in text.stdout
    assert "host MTU = 1458" in text.stdout
    document = json.loads(runner.invoke(app, ["hosts", A, "--sites", str(sites), "--format",
                                              "json"]).stdout)  # fmt: skip
    assert document["vlans"] == []
    assert (document["port"]["peer"], document["port"]["inner_mtu"]) == (B, 1458)
    sysctl = runner.invoke(app, ["hosts", A, "--sites", str(sites), "--format", "sysctl"]).stdout
    assert "every VLAN of GigabitEthernet0/0 (port-mode pseudowire)" in sysctl
    assert "net.ipv4.tcp_mtu_probing = 1" in sysctl


def test_lab_build_names_the_kept_port_and_says_it_is_not_run(sites: Path, tmp_path: Path) -> None:
    topology = tmp_path / "kept.clab.yml"
    result = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert result.exit_code == 0, result.output
    text = topology.read_text()
    assert f"l2tpgen.port_xconnect: {B}:125" in text
    assert f"l2tpgen.port_xconnect: {A}:125" in text
    assert f"note: {A} <-> {B} (VC ID 125" in result.stderr
    assert "the lab does not run a kept port-mode pseudowire" in result.stderr


def test_lab_run_of_kept_ports_alone_says_there_is_nothing_to_check_and_why(
    sites: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    topology = tmp_path / "kept.clab.yml"
    runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    monkeypatch.setattr("l2tpgen.lab.engines.vm.run_vm", lambda *_, **__: pytest.fail("ran"))
    result = runner.invoke(app, ["lab", "run", str(topology), "--report", str(tmp_path / "r")])
    assert result.exit_code == 1
    message = " ".join(result.stderr.split())
    assert "no VLAN is shared by two CE nodes: there is nothing to check" in message
    assert f"pe-{A}, pe-{B} keep a port-mode xconnect; the lab does not run" in message


def test_lab_run_reports_a_kept_port_beside_vlan_pairs_as_na_never_as_a_pass(
    sites: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reference pair per VLAN beside the kept trunk, on WAN subnets of their own.
    moved = {
        "site-a": (("10.197.251.215/28", "10.197.252.2/24"), ("10.197.251.209", "10.197.252.1")),
        "site-b": (("10.216.44.47/27", "10.216.45.2/24"), ("10.216.44.33", "10.216.45.1")),
    }
    for name, edits in moved.items():
        text = (ROOT / "sites" / f"{name}.yaml").read_text()
        for old, new in edits:
            assert old in text
            text = text.replace(old, new)
        (sites / f"{name}.yaml").write_text(text)
    topology = tmp_path / "mixed.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    reach = CheckResult("reach", 2996, "site-a->site-b", ok=True, detail="ping")
    monkeypatch.setattr(
        "l2tpgen.lab.engines.vm.run_vm",
        lambda *_, **__: LabReport("mixed", "vm", (reach,), (), 1.0),
    )
    report = tmp_path / "r.json"
    result = runner.invoke(
        app, ["lab", "run", str(topology), "--report", str(report)], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.output
    (row,) = [line for line in result.stdout.splitlines() if "port-mode" in line]
    assert "N/A" in row
    assert f"{A}<->{B}" in row
    document = json.loads(report.read_text())
    assert [r["check"] for r in document["results"]] == ["reach"]  # the N/A row is no check
    (not_run,) = document["not_run"]
    assert (not_run["check"], not_run["sites"]) == ("port-mode", f"{A}<->{B}")
    assert not_run["detail"].startswith("N/A: the lab does not run a kept port-mode pseudowire")
