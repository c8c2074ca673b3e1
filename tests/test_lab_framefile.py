"""`lab build` writes each PE's frames checks to a YAML file beside the topology (issue 35).

No label holds JSON: a Linux or VyOS PE with a Cisco peer names its file in ``l2tpgen.frames``
(``pe-SITE.frames.yaml``, a plain file name, as containerlab's ``startup-config``), and
``lab run FILE`` reads it back into the objects ``lab run SITES`` builds from the fleet
(``tests/test_lab_one_route.py`` compares them on every example fleet). Here: the file's form,
its keyed cookies masked, every problem of a frames file reported at once with the file and the
way out, and the topology of an older l2tpgen (each check a JSON label) refused.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import pytest
from builders import HUB, cookie_fleet
from conftest import ROOT, SITES
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.api import lab_build
from l2tpgen.cli import app
from l2tpgen.lab.build import lab_of_fleet
from l2tpgen.lab.checks.frames import Frames, frames_specs
from l2tpgen.lab.fields import FRAMES_FILE, LabInputError
from l2tpgen.lab.framefile import FIELDS, frames_text, parse_frames
from l2tpgen.lab.inputs import load_lab
from l2tpgen.model.protection import COOKIE_PLACEHOLDER

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
FLEETS = [SITES, *sorted(p for p in (ROOT / "examples").iterdir() if p.name != "broken")]
EDGE = "pe-linux-edge"
FILE = f"{EDGE}.frames.yaml"


def _built(tmp_path: Path, sites: Path = HUB) -> Path:
    topology = tmp_path / "lab.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    return topology


def _problems(topology: Path) -> tuple[str, ...]:
    with pytest.raises(LabInputError) as refused:
        load_lab(topology)
    assert str(refused.value).startswith(f"{topology}: {len(refused.value.problems)} problem(s)")
    return refused.value.problems


@pytest.mark.parametrize("sites", FLEETS, ids=lambda p: p.name)
@pytest.mark.parametrize("flavor", ["linux", "cisco_iol"])
def test_no_label_of_a_built_topology_holds_json(sites: Path, flavor: str) -> None:
    built = lab_build(load_fleet(sites), flavor=flavor)
    for name, node in built.topology["topology"]["nodes"].items():
        for key, value in node["labels"].items():
            try:
                parsed = json.loads(value)
            except ValueError:
                continue
            assert not isinstance(parsed, dict | list), f"{name} label {key} holds JSON"


def test_a_pe_with_a_cisco_peer_names_its_frames_file_and_the_file_holds_each_check(
    tmp_path: Path,
) -> None:
    topology = _built(tmp_path)
    nodes = YAML(typ="safe").load(topology.read_text())["topology"]["nodes"]
    assert nodes[EDGE]["labels"][FRAMES_FILE] == FILE
    assert [n for n, node in nodes.items() if FRAMES_FILE in node["labels"]] == [EDGE]
    text = (tmp_path / FILE).read_text()
    (check,) = YAML(typ="safe").load(text)["checks"]
    assert tuple(check) == FIELDS  # one mapping per check, its fields in order
    assert (check["site"], check["peer"], check["vlan"], check["cookie"]) == (
        "linux-edge",
        "hub",
        200,
        0,
    )
    assert check["cisco"] == {
        "interface": "GigabitEthernet0/0/0.200",
        "mode": "vlan",
        "vlan": 200,
        "interworking": False,
    }
    assert "  script: |\n" in text  # the probe as a block of lines, readable
    assert check["script"].splitlines()[1] == "netns add fr0pe"


def test_the_file_keeps_keyed_cookies_masked_and_the_run_fills_in_throwaway_values(
    tmp_path: Path,
) -> None:
    sites = cookie_fleet(tmp_path)
    topology = _built(tmp_path, sites)
    text = (tmp_path / FILE).read_text()
    assert COOKIE_PLACEHOLDER.search(text)  # a placeholder, never a value
    lab = load_lab(topology)
    (spec,) = lab.frames
    assert spec.cookie == 8
    assert spec == frames_specs(load_fleet(sites))[0]
    (check,) = Frames.plan(lab)
    assert not COOKIE_PLACEHOLDER.search(check.script)
    kept = [name for name in FIELDS if name != "script"]  # all but the cookies' values
    assert [getattr(check, n) for n in kept] == [getattr(spec, n) for n in kept]


def test_a_frames_file_gives_back_what_was_written_whatever_the_script_holds() -> None:
    (spec,) = frames_specs(load_fleet(HUB))
    odd = "echo 'a: b' # not a comment \n\tindented\t\n\n#first\n\"quoted\"\ntrailing   \n"
    for script in (spec.script, odd, "one line, no newline"):
        written = replace(spec, script=script)
        problems: list[str] = []
        assert parse_frames(frames_text([written]), FILE, "linux-edge", problems) == (written,)
        assert problems == []


def test_a_topology_of_an_older_l2tpgen_with_a_json_label_is_refused_naming_the_node(
    tmp_path: Path,
) -> None:
    topology = _built(tmp_path)
    old = json.dumps({"site": "linux-edge", "peer": "hub", "vlan": 200})
    text = topology.read_text().replace(f"{FRAMES_FILE}: {FILE}", f"l2tpgen.frames.hub: '{old}'")
    topology.write_text(text)
    (problem,) = _problems(topology)
    assert problem.startswith(
        f"node '{EDGE}': label l2tpgen.frames.hub holds a frames check as JSON"
    )
    assert "run `l2tpgen lab build` again" in problem
    result = runner.invoke(app, ["lab", "run", str(topology)])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert f"node '{EDGE}': label l2tpgen.frames.hub holds a frames check as JSON" in said
    assert "Traceback" not in result.output


CISCO = (
    "  cisco: {interface: GigabitEthernet0/0/0.200, mode: vlan, vlan: 200, interworking: false}\n"
)
AT = f"node '{EDGE}' label {FRAMES_FILE}: "  # the problems of the file as a whole
# What is done to the file, what `lab run FILE` says: the file and line, the field, its rule.
FILE_PROBLEMS: dict[str, tuple[object, str]] = {
    "missing": (None, f"{AT}{FILE} not found beside the topology; run `l2tpgen lab build` again"),
    "not-utf8": (
        b"\xff\xfe",
        (
            f"{AT}cannot read {FILE}: not UTF-8 text (byte 0xff at offset 0): it is text; check "
            "that the path names the right file"
        ),
    ),
    "not-yaml": ("checks: [\n", f"{FILE}:2: not valid YAML (expected the node content"),
    "no-checks": ("peer: hub\n", f"{FILE}: not a frames file (no `checks:` list); run `l2tpgen"),
    "field-dropped": (("  vlan: 200\n", ""), f"{FILE}:4: check 1 lacks the field(s) vlan"),
    "field-unknown": (
        ("  vlan: 200\n", "  vlan: 200\n  color: red\n"),
        f"{FILE}:4: check 1 has unknown field(s) color",
    ),
    "vlan-text": (
        ("  vlan: 200\n", "  vlan: '200'\n"),
        f"{FILE}:6: check 1: vlan must be a whole number from 1 to 4094, not '200'",
    ),
    "vlan-range": (
        ("  vlan: 200\n", "  vlan: 5000\n"),
        f"{FILE}:6: check 1: vlan must be a whole number from 1 to 4094, not 5000",
    ),
    "cookie": (
        ("cookie: 0", "cookie: 3"),
        f"{FILE}:7: check 1: cookie must be the cookie's bytes: 0, 4 or 8, not 3",
    ),
    "sublayer": (
        ("sublayer: false", "sublayer: 'no'"),
        f"{FILE}:8: check 1: sublayer must be true or false, not 'no'",
    ),
    "site": (
        ("site: linux-edge", "site: hub"),
        f"{FILE}:4: check 1: site must be the PE's own, 'linux-edge', not 'hub'",
    ),
    "peer": (("peer: hub", "peer: '-x'"), f"{FILE}:5: check 1: peer must be a site name"),
    "prefix": (
        ("prefix: fr0", "prefix: 'fr0; reboot'"),
        (
            f"{FILE}:9: check 1: prefix must be 1-12 lowercase letters or digits, a letter first, "
            "not 'fr0; reboot'"
        ),
    ),
    "script": (
        ("  script: |\n", "  script: ' '\n  old: |\n"),
        f"{FILE}:11: check 1: script must be the probe's commands (a block of text)",
    ),
    "cisco-form": (
        (CISCO, "  cisco: GigabitEthernet0/0/0.200\n"),
        f"{FILE}:10: check 1: cisco must be a mapping of interface, mode, vlan, interworking",
    ),
    "cisco-field": (
        (CISCO, CISCO.replace(", interworking: false", "")),
        f"{FILE}:10: check 1 lacks the field(s) interworking",
    ),
    "cisco-mode": (
        ("mode: vlan", "mode: qinq"),
        f"{FILE}:10: check 1: cisco.mode must be one of vlan, ethernet, ip or null, not 'qinq'",
    ),
    "cisco-vlan": (
        ("vlan: 200, inter", "vlan: 0, inter"),
        f"{FILE}:10: check 1: cisco.vlan must be a whole number from 1 to 4094 or null, not 0",
    ),
}


@pytest.mark.parametrize("case", FILE_PROBLEMS, ids=list(FILE_PROBLEMS))
def test_each_problem_of_a_frames_file_is_reported_with_the_file_and_what_to_do(
    case: str, tmp_path: Path
) -> None:
    topology = _built(tmp_path)
    side = tmp_path / FILE
    change, expected = FILE_PROBLEMS[case]
    if change is None:
        side.unlink()
    elif isinstance(change, bytes):
        side.write_bytes(change)
    elif isinstance(change, str):
        side.write_text(change)
    else:
        old, new = cast("tuple[str, str]", change)
        text = side.read_text()
        assert old in text
        side.write_text(text.replace(old, new, 1))
    problems = _problems(topology)
    # The script case leaves a field of the old name beside it: two problems, both said.
    assert len(problems) == 1 + (case == "script"), problems
    assert problems[-1].startswith(expected), problems
    assert all(p.startswith((AT, f"{FILE}:")) for p in problems), problems


def test_every_problem_of_the_frames_files_and_the_topology_is_reported_at_once(
    tmp_path: Path,
) -> None:
    topology = _built(tmp_path)
    side = tmp_path / FILE
    text = (
        side.read_text().replace("  vlan: 200\n", "  vlan: 0\n").replace("cookie: 0", "cookie: x")
    )
    side.write_text(text)
    (tmp_path / "pe-hub.swanctl.conf").unlink()
    problems = _problems(topology)
    assert len(problems) == 3, problems
    assert any("vlan must be" in p for p in problems)
    assert any("cookie must be" in p for p in problems)
    assert any("pe-hub.swanctl.conf not found beside the topology" in p for p in problems)


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("../pe-linux-edge.frames.yaml", "must be a file name beside the topology"),
        ("/etc/passwd", "must be a file name beside the topology"),
    ],
)
def test_a_frames_label_names_a_file_beside_the_topology_only(
    label: str, expected: str, tmp_path: Path
) -> None:
    topology = _built(tmp_path)
    topology.write_text(
        topology.read_text().replace(f"{FRAMES_FILE}: {FILE}", f"{FRAMES_FILE}: {label}")
    )
    (problem,) = _problems(topology)
    assert problem.startswith(f"node '{EDGE}' label {FRAMES_FILE}: ")
    assert expected in problem


def test_two_frames_checks_sharing_a_probe_prefix_are_refused(tmp_path: Path) -> None:
    topology = _built(tmp_path)
    side = tmp_path / FILE
    text = side.read_text()
    check = text.split("checks:\n", 1)[1]
    side.write_text(text + check.replace("peer: hub", "peer: branch"))
    (problem,) = _problems(topology)
    assert problem.startswith("two frames checks share the prefix 'fr0'")


def test_a_frames_label_on_a_node_that_is_not_a_pe_is_refused(tmp_path: Path) -> None:
    topology = _built(tmp_path)
    data = YAML(typ="safe").load(topology.read_text())
    data["topology"]["nodes"]["ce-linux-edge"]["labels"][FRAMES_FILE] = FILE
    yaml = YAML()
    yaml.width = 4096
    with topology.open("w") as stream:
        yaml.dump(data, stream)
    (problem,) = _problems(topology)
    assert problem == f"node 'ce-linux-edge' label {FRAMES_FILE}: only a pe node has frames checks"


def test_a_lab_from_the_sites_reads_no_frames_file() -> None:
    lab = lab_of_fleet(load_fleet(HUB), str(HUB))
    assert lab.frames == ()
    assert all(node.label(FRAMES_FILE) is None for node in lab.nodes)
