"""Lab inputs are validated before anything runs: the topology, its labels, endpoints, node names,
and the output paths of ``lab build -o`` and ``lab run --report``."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT, SITES
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.engines import vm as engine
from l2tpgen.lab.fields import LabInputError
from l2tpgen.lab.inputs import load_lab, parse_lab
from l2tpgen.lab.shaping import Shaping
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
EXAMPLE = ROOT / "labs" / "example.clab.yml"


def _topology() -> dict[str, Any]:
    return build_topology(load_fleet(SITES), name="example")


def _problems(data: object) -> list[str]:
    with pytest.raises(LabInputError) as caught:
        parse_lab(data, "t.clab.yml")
    return list(caught.value.problems)


def test_the_committed_example_parses_into_five_nodes_four_links_two_ces() -> None:
    lab = load_lab(EXAMPLE)
    assert [n.name for n in lab.nodes] == [
        "wan",
        "pe-site-a",
        "ce-site-a",
        "pe-site-b",
        "ce-site-b",
    ]
    assert len(lab.links) == 4
    assert [(c.node, c.index, c.mtu, c.vlans) for c in lab.ces] == [
        ("ce-site-a", 0, 1458, (2996, 2997, 2998, 2999)),  # two Cisco ends: the tag carried
        ("ce-site-b", 1, 1458, (2996, 2997, 2998, 2999)),
    ]
    assert lab.wan == "wan"
    assert lab.shaping == Shaping()


def test_a_node_without_a_kind_takes_topology_defaults_kind() -> None:
    data = _topology()
    kinds = {name: node.pop("kind") for name, node in data["topology"]["nodes"].items()}
    assert len(set(kinds.values())) == 1  # one kind for every node: the defaults can carry it
    assert "has no kind" in " ".join(_problems(copy.deepcopy(data)))
    data["topology"]["defaults"] = {"kind": next(iter(kinds.values()))}
    lab = parse_lab(data, "t.clab.yml")
    assert {n.name: n.kind for n in lab.nodes} == kinds


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("just text", "not a containerlab topology"),
        ({"name": "x"}, "not a containerlab topology"),
        ({"name": "x", "topology": {"nodes": {}}}, "topology.nodes must be a non-empty mapping"),
    ],
    ids=["text", "no-topology", "no-nodes"],
)
def test_a_malformed_topology_is_refused(data: object, expected: str) -> None:
    assert any(expected in p for p in _problems(data))


def test_a_file_that_is_not_yaml_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.clab.yml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(LabInputError, match="not valid YAML"):
        load_lab(path)


def test_a_node_without_its_labels_is_refused() -> None:
    data = _topology()
    del data["topology"]["nodes"]["ce-site-b"]["labels"]["l2tpgen.mtu"]
    del data["topology"]["nodes"]["wan"]["labels"]
    problems = _problems(data)
    assert "node 'ce-site-b' (role ce) lacks the label(s) l2tpgen.mtu" in problems
    assert "node 'wan' has no l2tpgen.role label (wan, pe or ce)" in problems


@pytest.mark.parametrize(
    ("label", "value", "expected"),
    [
        ("l2tpgen.index", "one", "must be a whole number"),
        ("l2tpgen.index", "99", "between 0 and 98"),
        ("l2tpgen.vlans", "2996,5000", "between 1 and 4094"),
        ("l2tpgen.mtu", "-1", "must be a whole number"),
        ("l2tpgen.pe", "wan", "which is not a pe node"),
        ("l2tpgen.site", "a b", "not a valid name"),
        ("l2tpgen.workloads", "2996=backups", "is none of"),
        ("l2tpgen.workloads", "3000=storage", "not in l2tpgen.vlans"),
    ],
)
def test_a_ce_label_with_an_impossible_value_is_refused(
    label: str, value: str, expected: str
) -> None:
    data = _topology()
    data["topology"]["nodes"]["ce-site-a"]["labels"][label] = value
    assert any(expected in p for p in _problems(data)), _problems(data)


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("l2tpgen.wan.delay-ms", "soon"),
        ("l2tpgen.wan.loss-pct", "101"),
        ("l2tpgen.wan.rate-mbit", "0"),
    ],
)
def test_an_impossible_wan_shaping_label_is_refused(label: str, value: str) -> None:
    data = _topology()
    data["topology"]["nodes"]["wan"]["labels"][label] = value
    assert any(label in p for p in _problems(data))


def test_labels_at_the_edges_of_their_ranges_are_accepted() -> None:
    data = _topology()
    nodes = data["topology"]["nodes"]
    nodes["wan"]["labels"] |= {"l2tpgen.wan.delay-ms": "0", "l2tpgen.wan.loss-pct": "100"}
    nodes["ce-site-b"]["labels"] |= {"l2tpgen.index": "98", "l2tpgen.mtu": "65535"}
    nodes["ce-site-a"]["labels"] |= {"l2tpgen.index": "0", "l2tpgen.mtu": "68"}
    lab = parse_lab(data)
    assert lab.shaping == Shaping(0.0, 100.0, None)
    assert [(c.index, c.mtu) for c in lab.ces] == [(0, 68), (98, 65535)]


def test_wan_labels_become_the_labs_shaping() -> None:
    data = build_topology(load_fleet(SITES), shaping=Shaping(27.5, 1, 500))
    assert data["topology"]["nodes"]["wan"]["labels"] == {
        "l2tpgen.role": "wan",
        "l2tpgen.wan.delay-ms": "27.5",
        "l2tpgen.wan.loss-pct": "1",
        "l2tpgen.wan.rate-mbit": "500",
    }
    assert parse_lab(data).shaping == Shaping(27.5, 1.0, 500.0)


@pytest.mark.parametrize(
    ("endpoint", "expected"),
    [
        ("pe-site-a-eth1", "must be `node:interface`"),
        ("nosuch:eth1", "names no node"),
        ("pe-site-a:eth1;reboot", "not a usable interface name"),
        ("pe-site-a:lo", "not a usable interface name"),
        ("pe-site-a:eth2", "used by two links"),
    ],
    ids=["no-colon", "unknown-node", "shell-in-name", "loopback", "used-twice"],
)
def test_a_bad_endpoint_is_refused(endpoint: str, expected: str) -> None:
    data = _topology()
    data["topology"]["links"][0]["endpoints"][0] = endpoint
    assert any(expected in p for p in _problems(data)), _problems(data)


@pytest.mark.parametrize(
    "name", ["pe;reboot", "$(id)", "a b", "-n", "x" * 41, "node.dot"], ids=repr
)
def test_node_names_outside_the_pattern_never_reach_the_guest(name: str) -> None:
    data = _topology()
    nodes = data["topology"]["nodes"]
    nodes[name] = nodes.pop("wan")
    assert any("node names are 1-40 letters" in p for p in _problems(data))


def test_a_lab_name_outside_the_pattern_is_refused() -> None:
    data = _topology()
    data["name"] = "lab; rm -rf /"
    assert any(p.startswith("name:") for p in _problems(data))


def test_an_exec_command_must_be_one_line() -> None:
    data = _topology()
    data["topology"]["nodes"]["wan"]["exec"].append("true\nreboot")
    assert any("must be one line" in p for p in _problems(data))


def test_every_problem_is_reported_at_once() -> None:
    data = copy.deepcopy(_topology())
    data["topology"]["links"][0]["endpoints"][0] = "nocolon"
    data["topology"]["nodes"]["ce-site-a"]["labels"]["l2tpgen.mtu"] = "big"
    data["name"] = "bad name"
    assert len(_problems(data)) == 3


def test_lab_run_checks_the_topology_before_booting_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*_: object, **__: object) -> None:
        raise AssertionError("the lab ran")

    monkeypatch.setattr("l2tpgen.lab.engines.vm.run_vm", boom)
    data = _topology()
    data["topology"]["links"][0]["endpoints"][0] = "nocolon"
    path = tmp_path / "bad.clab.yml"
    YAML().dump(data, path)
    result = runner.invoke(app, ["lab", "run", str(path), "--report", str(tmp_path / "r.json")])
    assert result.exit_code == 1
    assert "must be `node:interface`" in result.output
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize(
    ("where", "code"),
    [("missing-dir/r.json", 1), (".", 2)],  # a directory for one file: a usage error (-o rule)
    ids=["directory-missing", "is-a-directory"],
)
def test_lab_run_checks_the_report_path_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, code: int
) -> None:
    monkeypatch.setattr("l2tpgen.lab.engines.vm.run_vm", lambda *_: pytest.fail("the lab ran"))
    result = runner.invoke(app, ["lab", "run", str(EXAMPLE), "--report", str(tmp_path / where)])
    assert result.exit_code == code
    assert "--report" in result.output


def test_lab_build_checks_the_output_path_before_building(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "x.clab.yml"
    result = runner.invoke(app, ["lab", "build", "--sites", str(SITES), "-o", str(target)])
    assert result.exit_code == 1
    assert "--output: directory" in result.output


def test_lab_run_wan_options_override_the_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Shaping] = []

    def fake(lab: Any, **_: object) -> engine.LabReport:  # noqa: ANN401 - a stand-in
        seen.append(lab.shaping)
        return engine.LabReport(lab.name, "vm", (), (), 0.0)

    monkeypatch.setattr("l2tpgen.lab.engines.vm.run_vm", fake)
    args = ["lab", "run", str(EXAMPLE), "--report", "/dev/null", "--wan-delay-ms", "27.5"]
    runner.invoke(app, [*args, "--wan-loss-pct", "1"])
    assert seen == [Shaping(27.5, 1.0, None)]


def test_lab_build_writes_workloads_as_ce_labels() -> None:
    args = ["lab", "build", "--sites", str(SITES), "--workload", "2997=cluster-heartbeat"]
    result = runner.invoke(app, [*args, "--workload", "2998=live-migration"])
    assert result.exit_code == 0, result.output
    lab = parse_lab(YAML(typ="safe").load(result.stdout))
    assert lab.ces[0].workload(2997) == "cluster-heartbeat"
    assert lab.ces[1].workload(2998) == "live-migration"
    assert lab.ces[0].workload(2996) == "general"


def test_lab_build_refuses_an_unknown_workload() -> None:
    args = ["lab", "build", "--sites", str(SITES), "--workload", "2997=backups"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "is none of" in result.output
