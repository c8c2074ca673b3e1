"""One route from a fleet to a lab, and the file route agrees with it (issue 35).

Every lab built from a fleet (the lab commands, the hub-pairs and field-report engines, the
benches) goes through ``l2tpgen/lab/build.py``: ``lab_of_fleet`` for a lab in memory,
``fleet_topology`` for the file ``lab build`` writes, both from the lab's objects as
``topology.fleet_lab`` makes them from the model. No module of ``l2tpgen/`` or ``bench/`` but
``build.py`` calls ``fleet_lab``, none builds a topology dict (``build_topology``, kept for the
tests) and none reads one back (``parse_lab``): only ``inputs.load_lab`` parses, a topology
*file*. Read with ``ast``: a call by name or attribute, an import of the name.

And the two routes make the same lab: ``lab build --sites X -o FILE`` then ``lab run FILE``
reads the nodes, links, CEs, pairs and checks ``lab run X`` builds from the fleet (the file's
PEs name their frames checks' files, read back as the objects the fleet's lab builds from its
fleet).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from builders import import_reference
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.api import lab_of
from l2tpgen.cli import app
from l2tpgen.lab.build import LabDesign, fleet_topology, lab_of_file, lab_of_fleet
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.checks.frames import frames_checks, frames_specs
from l2tpgen.lab.fields import FRAMES_FILE, LabInputError
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.objects import INDEX, MAX_INDEX, ROLE, lab_problems
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.shaping import Shaping
from l2tpgen.lab.topology import topology_document

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from l2tpgen.lab.objects import Lab

runner = CliRunner()
NAMES = ("build_topology", "fleet_lab", "parse_lab")
# Who may use each: build.py (the one route), inputs.py (parse_lab of a file: ``load_lab``).
ALLOWED = {
    "build_topology": set(),
    "fleet_lab": {"l2tpgen/lab/build.py", "l2tpgen/lab/topology.py"},  # and build_topology
    "parse_lab": {"l2tpgen/lab/inputs.py"},
}
FLEETS = [SITES, *sorted(p for p in (ROOT / "examples").iterdir() if p.name != "broken")]


def users(files: Iterable[Path], root: Path) -> dict[str, set[str]]:
    """Each of ``NAMES`` -> the files (from ``root``) that call or import it."""
    found: dict[str, set[str]] = {name: set() for name in NAMES}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                names = [node.func.id]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                names = [node.func.attr]
            for name in set(names) & set(NAMES):
                found[name].add(path.relative_to(root).as_posix())
    return found


def _sources() -> list[Path]:
    return sorted([*(ROOT / "l2tpgen").rglob("*.py"), *(ROOT / "bench").glob("*.py")])


def test_only_lab_build_turns_a_fleet_into_a_lab() -> None:
    found = users(_sources(), ROOT)
    for name in NAMES:
        stray = found[name] - ALLOWED[name]
        assert not stray, f"{name} used outside the one route (lab/build.py): {sorted(stray)}"


def test_the_scan_finds_a_topology_built_and_read_back_anywhere(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "a.py").write_text(
        "from l2tpgen.lab import inputs, topology as t\n"
        "def lab(fleet):\n    return inputs.parse_lab(t.build_topology(fleet))\n"
    )
    (bench / "b.py").write_text("from l2tpgen.lab.topology import build_topology\n")
    (bench / "c.py").write_text("from l2tpgen.lab.build import lab_of_fleet\n")
    found = users(sorted(bench.glob("*.py")), tmp_path)
    assert found == {
        "build_topology": {"bench/a.py", "bench/b.py"},
        "fleet_lab": set(),
        "parse_lab": {"bench/a.py"},
    }


def _without_frames_labels(lab: Lab) -> Lab:
    nodes = tuple(
        replace(n, labels=tuple(kv for kv in n.labels if kv[0] != FRAMES_FILE)) for n in lab.nodes
    )
    return replace(lab, nodes=nodes, frames=())


def _assert_same_lab(from_file: Lab, from_fleet: Lab) -> None:
    assert from_file.fleet is None
    assert from_fleet.fleet is not None
    # The frames checks read from the files beside the topology are the fleet's, field by
    # field (keyed cookies masked on both sides), and each PE that has some names its file.
    assert from_fleet.frames == ()
    assert from_file.frames == frames_specs(from_fleet.fleet)
    named = {n.label(FRAMES_FILE) for n in from_file.nodes} - {None}
    assert named == {f"pe-{spec.site}.frames.yaml" for spec in from_file.frames}
    assert from_file.links == from_fleet.links
    assert from_file.ces == from_fleet.ces
    assert (from_file.name, from_file.wan, from_file.shaping) == (
        from_fleet.name,
        from_fleet.wan,
        from_fleet.shaping,
    )
    # The nodes, their commands, labels and bound files alike, but for the frames labels that
    # carry to a file what the fleet's lab takes from its fleet.
    assert from_fleet.nodes == _without_frames_labels(from_fleet).nodes
    assert _without_frames_labels(from_file) == from_fleet
    assert pairs(from_file) == pairs(from_fleet)
    file_plan, fleet_plan = plan_checks(from_file, "vm"), plan_checks(from_fleet, "vm")
    assert file_plan.checks == fleet_plan.checks
    # The same checks skipped (the frames check's reason names the labels on a file's side).
    assert [n for n, _ in file_plan.skipped] == [n for n, _ in fleet_plan.skipped]
    assert file_plan.extras == fleet_plan.extras


@pytest.mark.parametrize("sites", FLEETS, ids=lambda p: p.name)
def test_lab_build_then_lab_run_file_reads_the_lab_lab_run_sites_builds(
    sites: Path, tmp_path: Path
) -> None:
    topology = tmp_path / "lab.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    _assert_same_lab(lab_of(topology), lab_of(sites))


@pytest.mark.parametrize(
    ("flags", "design"),
    [
        (["--variant", "single-trunk"], LabDesign(variant="single-trunk")),
        (
            ["--wan-delay-ms", "10", "--workload", "2997=cluster-heartbeat"],
            LabDesign(wan=(10.0, None, None), workloads={2997: "cluster-heartbeat"}),
        ),
        (["--name", "other"], LabDesign("other")),
    ],
    ids=["single-trunk", "wan-and-workload", "name"],
)
def test_lab_build_options_make_the_lab_their_design_builds(
    flags: list[str], design: LabDesign, tmp_path: Path
) -> None:
    topology = tmp_path / "lab.clab.yml"
    args = ["lab", "build", "--sites", str(SITES), *flags, "-o", str(topology)]
    built = runner.invoke(app, args)
    assert built.exit_code == 0, built.output
    from_fleet = lab_of_fleet(load_fleet(SITES), str(SITES), design)
    _assert_same_lab(lab_of_file(topology), from_fleet)


def test_a_single_trunk_lab_file_carries_the_frames_checks_its_sites_lab_runs(
    tmp_path: Path,
) -> None:
    # The frames check builds its own PE on the VM, rendered per VLAN for the fleet as modelled,
    # whatever the lab's variant: a single-trunk lab of a VyOS-Cisco pair runs it, and so must
    # one from the file `lab build --variant single-trunk` writes.
    sites = SITES.parent / "examples" / "vyos"
    topology = tmp_path / "lab.clab.yml"
    args = ["lab", "build", "--sites", str(sites), "--variant", "single-trunk", "-o", str(topology)]
    built = runner.invoke(app, args)
    assert built.exit_code == 0, built.output
    design = LabDesign(variant="single-trunk")
    from_file, from_fleet = lab_of_file(topology), lab_of_fleet(load_fleet(sites), "", design)
    assert from_file.frames != ()
    _assert_same_lab(from_file, from_fleet)


def test_lab_run_sites_refuses_what_lab_run_file_refuses_with_the_same_problems(
    tmp_path: Path,
) -> None:
    # A fleet whose every pseudowire is a kept port-mode xconnect: no VLAN to check. `lab build`
    # writes its file; `lab run` refuses it, from the file as from the fleet, in the same words.
    sites = import_reference(tmp_path)
    topology = tmp_path / "kept.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    with pytest.raises(LabInputError) as from_file:
        lab_of(topology)
    with pytest.raises(LabInputError) as from_fleet:
        lab_of(sites)
    assert from_fleet.value.problems == from_file.value.problems
    (problem,) = from_fleet.value.problems
    assert problem.startswith("no VLAN is shared by two CE nodes: there is nothing to check")
    assert str(from_fleet.value).startswith(f"{sites}: 1 problem(s)")


def test_a_lab_from_the_fleet_is_refused_where_its_file_would_be() -> None:
    # lab_problems checks the objects as parse_lab checks the file they are written to: a CE
    # index past 98 (a hundredth site) is refused by both, in the same words.
    lab = lab_of_fleet(load_fleet(SITES), str(SITES))
    assert lab_problems(lab) == []
    last = lab.ces[-1]
    node = lab.node(last.node)
    labels = tuple((k, str(MAX_INDEX + 1) if k == INDEX else v) for k, v in node.labels)
    bad = replace(
        lab,
        nodes=tuple(replace(n, labels=labels) if n is node else n for n in lab.nodes),
        ces=(*lab.ces[:-1], replace(last, index=MAX_INDEX + 1)),
    )
    with pytest.raises(LabInputError) as from_file:
        parse_lab(topology_document(bad), "lab")
    assert lab_problems(bad) == list(from_file.value.problems)
    assert len(lab_problems(bad)) == 1


def test_the_lab_route_loads_no_linter_until_a_frames_check_is_made() -> None:
    # The frames check reads a Cisco end as lint rule L2T108 does; the linter (22 modules) is
    # loaded then, not with every lab built (lab/topology -> checks/frames -> lint.*).
    code = (
        "import sys, l2tpgen.lab.build, l2tpgen.lab.checks\n"
        "print(sorted(m for m in sys.modules if m.startswith('l2tpgen.lint')))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert found.stdout.strip() == "[]"
    (check,) = frames_checks(load_fleet(ROOT / "examples" / "hub"))
    assert check.cisco.mode == "vlan"  # the linter's reading, loaded when needed


def test_a_design_s_whole_shaping_wins_over_the_model_s_link_and_reaches_the_wan_labels() -> None:
    # The field reports' labs: unshaped, or the field's path, whatever the model's link says.
    field = ROOT / "examples" / "field"
    fleet = load_fleet(field)
    from_model = lab_of_fleet(fleet, str(field))
    assert from_model.shaping.delay_ms > 0  # the model states a link
    unshaped = lab_of_fleet(fleet, str(field), LabDesign(shaping=Shaping()))
    assert unshaped.shaping == Shaping()
    assert [k for k, _ in unshaped.node("wan").labels] == [ROLE]
    wide = Shaping(27.5, 1.0, 500)
    document, _ = fleet_topology(fleet, LabDesign(shaping=wide, wan=(1.0, None, None)))
    assert parse_lab(document).shaping == wide
