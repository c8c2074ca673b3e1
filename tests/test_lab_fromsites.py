"""`lab build` takes the WAN's shaping from the model's link and the workloads from what the VLANs
carry, unless the options say otherwise; (marked ``lab``) the field example runs behind its
shaped WAN in QEMU."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT, SITES
from conftest_lab import VALIDATOR, requires_vm
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engines.guest import GuestLab, guest_script
from l2tpgen.lab.fields import LabInputError
from l2tpgen.lab.fromsites import lab_shaping, link_shaping, model_shaping, model_workloads
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.shaping import Shaping
from l2tpgen.model.link import Link

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
FIELD = ROOT / "examples" / "field"


def _build(*args: str) -> Any:  # noqa: ANN401 - a YAML document
    result = runner.invoke(app, ["lab", "build", "--name", "field", *args])
    assert result.exit_code == 0, result.output
    return YAML(typ="safe").load(result.stdout)


def _labels(topology: Any, node: str) -> dict[str, str]:  # noqa: ANN401
    return dict(topology["topology"]["nodes"][node]["labels"])


def _three_sites(tmp_path: Path, second: str) -> Path:
    """site-a (the example's) with a third site; site-a to site-c states ``second``."""
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    a, b = sites / "site-a.yaml", sites / "site-b.yaml"
    a.write_text(
        a.read_text()
        .replace(
            "peers: [site-b]",
            "peers:\n  - {name: site-b, link: {bandwidth: 1Gbit, rtt_ms: 2}}\n"
            f"  - {{name: site-c, link: {second}}}",
        )
        .replace("vlans:\n", "vlans:\n  - {id: 3000, name: lab, peer: site-c}\n")
    )
    c = b.read_text().replace("name: site-b", "name: site-c").replace("lab-b-rtr1", "lab-c-rtr1")
    c = c.replace("10.216.44.47/27", "10.216.45.47/27").replace("10.216.44.33", "10.216.45.33")
    c = c[: c.index("vlans:")] + "vlans:\n  - {id: 3000, name: lab, peer: site-a}\n"
    (sites / "site-c.yaml").write_text(c)
    return sites


def test_a_link_becomes_half_its_rtt_each_way_its_loss_each_way_and_its_rate() -> None:
    link = Link.model_validate({"bandwidth": "10Gbit", "rtt_ms": 55, "loss": "1%"})
    assert link_shaping(link) == Shaping(delay_ms=27.5, loss_pct=1.0, rate_mbit=10_000)


def test_lab_build_shapes_the_wan_as_the_field_examples_link_says() -> None:
    topology = _build("--sites", str(FIELD))
    labels = _labels(topology, "wan")
    assert labels["l2tpgen.wan.delay-ms"] == "27.5"
    assert labels["l2tpgen.wan.loss-pct"] == "1"
    assert labels["l2tpgen.wan.rate-mbit"] == "10000"
    VALIDATOR.validate(topology)


def test_the_shaped_wan_reaches_the_guest_as_netem_and_tbf() -> None:
    lab = parse_lab(_build("--sites", str(FIELD)))
    assert lab.shaping == Shaping(27.5, 1, 10_000)
    script = guest_script([GuestLab(lab, plan_checks(lab, "vm").probes("usual"))])
    assert "netem delay 27.5ms loss 1%" in script
    assert "tbf rate 10000mbit" in script


def test_both_ces_carry_the_workloads_one_site_states() -> None:
    topology = _build("--sites", str(FIELD))
    for ce in ("ce-dc-a", "ce-dc-b"):
        assert _labels(topology, ce)["l2tpgen.workloads"] == (
            "310=cluster-heartbeat,320=live-migration,330=storage"
        )
    far = next(c for c in parse_lab(topology).ces if c.site == "dc-b")
    assert (far.workload(320), far.workload(340)) == ("live-migration", "general")


def test_each_option_wins_over_the_model_on_its_own() -> None:
    topology = _build("--sites", str(FIELD), "--wan-delay-ms", "5", "--workload", "330=general")
    labels = _labels(topology, "wan")
    assert (labels["l2tpgen.wan.delay-ms"], labels["l2tpgen.wan.loss-pct"]) == ("5", "1")
    assert labels["l2tpgen.wan.rate-mbit"] == "10000"
    assert _labels(topology, "ce-dc-a")["l2tpgen.workloads"] == (
        "310=cluster-heartbeat,320=live-migration,330=general"
    )
    clean = _labels(_build("--sites", str(FIELD), "--wan-loss-pct", "0"), "wan")
    assert "l2tpgen.wan.loss-pct" not in clean


def test_a_fleet_without_links_or_workloads_builds_the_lab_it_always_did() -> None:
    fleet = load_fleet(SITES)
    assert model_shaping(fleet) == Shaping()
    assert model_workloads(fleet) == {"site-a": {}, "site-b": {}}
    topology = _build("--sites", str(SITES))
    assert _labels(topology, "wan") == {"l2tpgen.role": "wan"}
    assert "l2tpgen.workloads" not in _labels(topology, "ce-site-a")


def test_pairs_that_state_the_same_link_shape_the_lab_with_it(tmp_path: Path) -> None:
    fleet = load_fleet(_three_sites(tmp_path, "{bandwidth: 1000Mbit, rtt_ms: 2.0}"))
    assert model_shaping(fleet) == Shaping(1, 0, 1000)


def test_pairs_that_state_different_links_need_the_options(tmp_path: Path) -> None:
    sites = _three_sites(tmp_path, "{bandwidth: 10Gbit, rtt_ms: 55}")
    fleet = load_fleet(sites)
    with pytest.raises(LabInputError) as caught:
        model_shaping(fleet)
    (problem,) = caught.value.problems
    assert "site-a-site-b: 1 Gb/s, 2 ms RTT, 0 % loss" in problem
    assert "site-a-site-c: 10 Gb/s, 55 ms RTT, 0 % loss" in problem
    assert "--wan-delay-ms, --wan-loss-pct and --wan-rate-mbit" in problem
    with pytest.raises(LabInputError):
        lab_shaping(fleet, delay_ms=1)
    assert lab_shaping(fleet, 1, 0, 100) == Shaping(1, 0, 100)
    result = runner.invoke(app, ["lab", "build", "--sites", str(sites)])
    assert result.exit_code == 1
    assert "2 different links" in result.stderr
    ok = ["--wan-delay-ms", "1", "--wan-loss-pct", "0", "--wan-rate-mbit", "100"]
    assert runner.invoke(app, ["lab", "build", "--sites", str(sites), *ok]).exit_code == 0


@pytest.mark.lab
@requires_vm
def test_the_field_fleet_forwards_every_vlan_behind_the_wan_its_model_states(
    tmp_path: Path,
) -> None:
    topology, report = tmp_path / "field.clab.yml", tmp_path / "report.json"
    built = runner.invoke(
        app, ["lab", "build", "--sites", str(FIELD), "--name", "field", "-o", str(topology)]
    )
    assert built.exit_code == 0, built.output
    assert "l2tpgen.wan.delay-ms: '27.5'" in topology.read_text()
    args = ["lab", "run", str(topology), "--engine", "vm", "--report", str(report)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    found = json.loads(report.read_text())
    assert found["ok"]
    assert {r["vlan"] for r in found["results"] if r["check"] == "reach"} == {310, 320, 330, 340}
