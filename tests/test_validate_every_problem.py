"""One `validate` run reports every problem of the site files (issue 34, item 4).

A first fleet used to need several runs: the schema errors first, then the model errors once the
file loaded, then the errors between sites. Here a site file with a schema error still has its
other VLANs, its own rules and its pairs checked, and every kind of schema problem has its code.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from builders import EXAMPLES, hub_fleet
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.importer import import_configs

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
SINGLE_TRUNK = EXAMPLES.parent / "tests" / "importer" / "single-trunk"
LINE = re.compile(
    r"^(?P<where>\S+:\d+:\d+): (?P<level>error|warning): (?P<text>.*) \[(?P<code>V\d+)\]$"
)

# In branch.yaml of examples/hub: a schema error (a VLAN ID out of range), a model error (the
# gateway outside the WAN subnet) and a pair error (a VLAN hub.yaml does not declare), each on
# its own line (line numbers as the edited file has them).
ONE_OF_EACH = (
    ("branch", "gateway: 198.51.100.14", "gateway: 198.51.100.30"),  # line 8, column 12
    (
        "branch",
        "  - {id: 105, name: mgmt, peer: hub}\n",
        (
            "  - {id: 105, name: mgmt, peer: hub}\n"
            "  - {id: 5000, name: typo, peer: hub}\n"  # line 22: the ID at column 10
            "  - {id: 106, name: extra, peer: hub}\n"  # line 23: not declared in hub.yaml
        ),
    ),
)


def _validate(sites: Path, *options: str) -> tuple[int, list[dict[str, str]]]:
    """validate's exit code and its text lines as where / level / text / code."""
    result = runner.invoke(app, ["validate", "--sites", str(sites), *options])
    found = [m.groupdict() for line in result.stderr.splitlines() if (m := LINE.match(line))]
    # examples/hub's IOS-XE hub has two peers with 4-byte cookies: its V105 warning (pairs apart
    # at a hub, tests/test_hub_pairs.py) is in every run of this fleet and not what these judge.
    return result.exit_code, [p for p in found if p["code"] != "V105"]


def test_one_run_lists_a_files_schema_model_and_pair_errors_with_distinct_codes(
    tmp_path: Path,
) -> None:
    sites = hub_fleet(tmp_path, *ONE_OF_EACH)
    code, found = _validate(sites)
    assert code == 1
    branch = f"{sites}/branch.yaml"
    assert [(p["where"], p["code"]) for p in found] == [
        (f"{branch}:8:12", "V013"),  # model: gateway outside the subnet
        (f"{branch}:22:10", "V114"),  # schema: VLAN ID out of range
        (f"{branch}:23:5", "V027"),  # pair: VLAN 106 missing at hub (after the VLAN left out)
    ]
    assert "VLAN 106 is stretched to hub" in found[2]["text"]


def test_json_and_github_list_the_same_problems_as_the_text(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path, *ONE_OF_EACH)
    _, text = _validate(sites)
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1
    assert not report["ok"]
    from_json = [(f"{p['file']}:{p['line']}:{p['column']}", p["code"]) for p in report["problems"]]
    assert from_json == [(p["where"], p["code"]) for p in text]
    github = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "github"])
    annotations = re.findall(
        r"^::error file=(\S+),line=(\d+),col=(\d+),title=l2tpgen validate (V\d+)::",
        github.stdout,
        re.MULTILINE,
    )
    assert [(f"{f}:{line}:{col}", c) for f, line, col, c in annotations] == from_json
    assert github.exit_code == 1


def test_a_vlan_left_out_for_its_schema_error_does_not_make_its_peer_look_wrong(
    tmp_path: Path,
) -> None:
    # VLAN 103's name is refused: the VLAN is left out of the checks, and hub's VLAN 103, whose
    # other end it is, is not reported as stretched to nowhere.
    sites = hub_fleet(tmp_path, ("branch", "name: backup, peer", "name: back up, peer"))
    code, found = _validate(sites)
    assert code == 1
    assert [(p["where"], p["code"]) for p in found] == [(f"{sites}/branch.yaml:19:21", "V116")]


def test_a_misspelt_key_is_one_error_with_its_suggestion_and_the_site_is_still_checked(
    tmp_path: Path,
) -> None:
    # `hostnme` for the required `hostname`: pydantic reports an unknown key and a missing one.
    sites = hub_fleet(
        tmp_path,
        ("branch", "hostname: br-pe1", "hostnme: br-pe1"),
        ("branch", "gateway: 198.51.100.14", "gateway: 198.51.100.30"),
    )
    code, found = _validate(sites)
    assert code == 1
    assert [(p["where"], p["code"], p["text"]) for p in found] == [
        (f"{sites}/branch.yaml:3:1", "V111", "hostnme: unknown key; did you mean `hostname`?"),
        (
            f"{sites}/branch.yaml:8:12",
            "V013",
            "gateway 198.51.100.30 is outside the WAN subnet 198.51.100.8/29",
        ),
    ]


def test_a_misspelt_vlan_key_is_one_error_with_its_suggestion(tmp_path: Path) -> None:
    sites = hub_fleet(
        tmp_path, ("branch", "{id: 101, name: app, peer: hub}", "{id: 101, name: app, peeer: hub}")
    )
    code, found = _validate(sites)
    assert code == 1
    assert [(p["code"], p["text"]) for p in found] == [
        ("V111", "vlans[1].peeer: unknown key; did you mean `peer`?")
    ]


def test_a_site_that_fails_entirely_is_noted_and_the_other_pairs_are_still_checked(
    tmp_path: Path,
) -> None:
    sites = hub_fleet(
        tmp_path,
        ("linux-edge", "  gateway: 198.51.100.22\n", ""),  # required: linux-edge cannot load
        ("branch", "  - {id: 105, name: mgmt, peer: hub}\n", ""),  # hub's VLAN 105: no other end
    )
    code, found = _validate(sites)
    assert code == 1
    assert [(p["where"], p["level"], p["code"]) for p in found] == [
        (f"{sites}/hub.yaml:27:5", "error", "V027"),  # the pair branch-hub is checked
        (f"{sites}/linux-edge.yaml:1:1", "warning", "V118"),
        (f"{sites}/linux-edge.yaml:7:1", "error", "V110"),  # at `wan:`,
    ]
    assert found[1]["text"] == (
        "linux-edge was not checked against hub: the errors in its file stop it from loading"
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    report = json.loads(result.stdout)
    assert [p["code"] for p in report["problems"]] == ["V027", "V110"]
    assert [w["code"] for w in report["warnings"]] == ["V118"]


def test_an_unknown_lint_ignore_is_reported_in_the_same_run_as_a_schema_error(
    tmp_path: Path,
) -> None:
    sites = hub_fleet(
        tmp_path,
        ("branch", "name: backup, peer", "name: back up, peer"),
        ("branch", "peers: [hub]\n", "peers: [hub]\nlint: {ignore: [L9Z]}\n"),
    )
    code, found = _validate(sites)
    assert code == 1
    assert [p["code"] for p in found] == ["V076", "V116"]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("  gateway: 198.51.100.14\n", "", "V110"),  # a required key missing
        (
            "lan: {interface: GigabitEthernet0/0}",
            "lan: {interface: GigabitEthernet0/0, speeed: 100}",
            "V111",
        ),
        (
            "{name: dc, authentication: digest,",
            "{name: dc, password: x, authentication: digest,",
            "V112",
        ),
        ("interface: GigabitEthernet0/1", "interface: [GigabitEthernet0/1]", "V113"),  # wrong type
        ("{id: 101, name: app", "{id: 0, name: app", "V114"),  # out of range
        ("address: 198.51.100.9/29", "address: 198.51.100.300/29", "V115"),  # not an address
        ("hostname: br-pe1", "hostname: br pe1", "V116"),  # not the form of a name
        (
            "{id: 101, name: app, peer: hub}",
            "{id: 101, name: app, peer: hub, carries: mail}",
            "V117",
        ),
    ],
    ids=["missing", "unknown", "secret", "type", "range", "address", "form", "allowed"],
)
def test_each_kind_of_schema_problem_has_its_own_code(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    sites = hub_fleet(tmp_path, ("branch", old, new))
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    report = json.loads(result.stdout)
    assert [p["code"] for p in report["problems"]] == [expected]


def test_a_misspelt_key_whose_value_does_not_fit_its_near_key_leaves_the_site_checked(
    tmp_path: Path,
) -> None:
    # `holdqueue: 2048` is near `hold_queue`, which takes {in, out}: the key is left out instead,
    # and the rest of the site is still checked (the gateway outside its subnet).
    sites = hub_fleet(
        tmp_path,
        (
            "branch",
            "lan: {interface: GigabitEthernet0/0}",
            "lan: {interface: GigabitEthernet0/0, holdqueue: 2048}",
        ),
        ("branch", "gateway: 198.51.100.14", "gateway: 198.51.100.30"),
    )
    code, found = _validate(sites)
    assert code == 1
    assert [p["code"] for p in found] == ["V013", "V111"]


def test_a_migration_whose_only_vlan_has_a_schema_error_is_not_said_to_have_no_vlan(
    tmp_path: Path,
) -> None:
    # The reference pair's single trunk, migrated at both ends to VLAN 10; site A's VLAN 10 has
    # a VLAN ID out of range: left out, it must not make A "migrate with no VLAN" (V069).
    configs = [(str(p), p.read_text()) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    sites: dict[str, dict[str, Any]] = {s.name: dict(s.data) for s in import_configs(configs).sites}
    a, b = sorted(sites)
    for name, peer, vlan_id in ((a, b, 5000), (b, a, 10)):
        data = sites[name]
        data["lan"] = {
            **data["lan"],
            "port_xconnect": {**data["lan"]["port_xconnect"], "action": "migrate"},
        }
        data["vlans"] = [{"id": vlan_id, "name": "v10", "peer": peer}]
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path), "--format", "json"])
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["V114"]
