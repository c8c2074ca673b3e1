"""The library API gives what the command line prints: the CLI only formats its results.

Issue 35's check: ``python -c "import l2tpgen.api"`` runs validate, render, lint and plan on
examples/hub and gets the same results as the CLI (``validate --format json``, ``render``,
``lint --format json``, ``push --dry-run --format json`` against simulated routers on 127.0.0.1).
Each CLI run is its own process, as a user runs it, in a directory with no pyproject.toml (lint's
settings would otherwise come from this repository's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT
from conftest_sim import cli_env, dry_run_results, run_cli, start_lab
from ruamel.yaml import YAML

from l2tpgen import api
from l2tpgen.errors import FleetValidationError
from l2tpgen.lab.iol import partial_config_name
from l2tpgen.platforms.ios.render import render_base

if TYPE_CHECKING:
    from pathlib import Path

HUB = ROOT / "examples" / "hub"
BROKEN = ROOT / "examples" / "broken"
NO_SECRETS = {k: v for k, v in os.environ.items() if not k.startswith("L2TPGEN_")}


def test_importing_the_api_loads_neither_the_router_libraries_nor_the_linter_nor_the_lab() -> None:
    # Every public name touched: each loads its module (``l2tpgen.api`` imports them lazily).
    probe = (
        "import sys, l2tpgen.api as api\n"
        "bare = 'l2tpgen.model' in sys.modules\n"
        "names = [getattr(api, name) for name in api.__all__]\n"
        "print(bare, '\\n'.join(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    bare, *modules = result.stdout.split()
    assert bare == "False"  # `import l2tpgen.api` alone loads not even the model
    loaded = set(modules)
    heavy = ("netmiko", "nornir", "hier_config", "paramiko", "ciscoconfparse", "jinja2")
    ours: tuple[str, ...] = ("l2tpgen.lint", "l2tpgen.device", "l2tpgen.cli")
    ours = (
        *ours,
        "l2tpgen.platforms.render",
        "l2tpgen.lab.topology",
        "l2tpgen.lab.engines",
        "l2tpgen.render",
    )
    found = sorted(m for m in loaded if m.split(".")[0] in heavy or m.startswith(ours))
    assert found == []
    assert {"l2tpgen.api", "l2tpgen.model", "pydantic"} <= loaded


def test_a_notebook_completes_every_public_name_before_any_is_loaded() -> None:
    # dir() is what a REPL or a notebook completes from: the names a package imports on first
    # use (l2tpgen/lazy.py) are listed before any of their modules is loaded.
    probe = (
        "import sys, l2tpgen, l2tpgen.api as api\n"
        "print(sorted(set(api.__all__) - set(dir(api))), sorted(set(l2tpgen.__all__) - "
        "set(dir(l2tpgen))), 'l2tpgen.model' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["[]", "[]", "False"]


@pytest.mark.parametrize("sites", [HUB, BROKEN], ids=["hub", "broken"])
def test_validate_gives_the_document_validate_format_json_prints(
    sites: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in [k for k in os.environ if k.startswith("L2TPGEN_")]:
        monkeypatch.delenv(name)
    printed = run_cli("validate", "--sites", str(sites), "--format", "json", env=NO_SECRETS)
    found = api.validate(sites)
    assert json.loads(printed.stdout) == found.as_dict()
    assert printed.returncode == (0 if found.ok else 1)
    assert found.ok is (sites == HUB)
    missing = tmp_path / "none"
    printed = run_cli("validate", "--sites", str(missing), "--format", "json", env=NO_SECRETS)
    assert json.loads(printed.stdout) == api.validate(missing).as_dict()
    assert api.validate(missing).error


@pytest.mark.parametrize("fleet", ["unsafe-names", "vlan-peer-not-in-peers"])
def test_validate_text_lists_every_problem_in_the_order_the_api_found_them(fleet: str) -> None:
    sites = ROOT / "tests" / "fleets" / "broken" / fleet
    printed = run_cli("validate", "--sites", str(sites), env={**NO_SECRETS, "COLUMNS": "500"})
    found = api.validate(sites)
    with pytest.raises(FleetValidationError) as raised:
        api.load(sites)
    # what the loader found, and the notes of the checks run on what loaded (validate's own)
    assert all(problem in found.found for problem in raised.value.problems)
    errors = [p for p in found.found if p.level == "error"]
    assert len(errors) > 1
    wheres = [
        line.split(": error: ")[0] for line in printed.stderr.splitlines() if ": error: " in line
    ]
    assert wheres == [p.where for p in errors]


@pytest.mark.parametrize("site", ["hub", "branch", "linux-edge"])
def test_render_gives_the_text_render_prints(site: str) -> None:
    printed = run_cli("render", site, "--sites", str(HUB), env=NO_SECRETS)
    assert printed.returncode == 0, printed.stderr
    rendering = api.render(api.load(HUB), site)
    assert printed.stdout == rendering.text
    assert rendering.errors == ()


def test_lint_gives_the_findings_lint_format_json_prints(tmp_path: Path) -> None:
    for sites in (HUB, BROKEN):
        printed = run_cli(
            "lint", "--sites", str(sites), "--format", "json", env=NO_SECRETS, cwd=tmp_path
        )
        report = api.lint(sites)
        assert printed.stdout == report.as_json() + "\n"
    assert api.lint(BROKEN).findings  # a fleet that does not load: its problems as findings


@pytest.mark.usefixtures("lab_env")
def test_plan_gives_what_push_dry_run_format_json_says_against_simulated_routers(
    tmp_path: Path,
) -> None:
    lab = start_lab(tmp_path, sites=HUB)
    try:
        names = ["hub", "branch"]
        results = dry_run_results(HUB, lab.inventory, cli_env(tmp_path), names)
        fleet = api.load(HUB)
        for printed in results:
            name = printed["site"]
            planned = api.plan(fleet, name, lab.running(name), environ=cli_env(tmp_path))
            assert printed["status"] == planned.status == "would-change"
            assert printed["message"] == planned.message
            assert printed["diff"] == planned.diff
            assert printed["commands"] == list(planned.commands)
            assert printed["migration"] == planned.migration
            assert printed["notes"] == list(planned.notes)
        assert [r["site"] for r in results] == names
    finally:
        lab.sim.close()


def test_plan_of_a_router_that_holds_the_model_is_unchanged() -> None:
    fleet = api.load(HUB)
    rendered = api.render(fleet, "branch").text

    planned = api.plan(fleet, "branch", render_base(fleet, "branch") + rendered)
    assert (planned.status, planned.commands) == ("unchanged", ())


def test_lab_build_gives_the_topology_and_the_files_lab_build_writes_beside_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "hub.clab.yml"
    printed = run_cli("lab", "build", "--sites", str(HUB), "-o", str(out), env=NO_SECRETS)
    assert printed.returncode == 0, printed.stderr
    fleet = api.load(HUB)
    built = api.lab_build(fleet)
    ipsec = [f"pe-{name}.swanctl.conf" for name in ("branch", "hub", "linux-edge")]
    # every PE's pseudowires get IPsec in examples/hub; linux-edge has a Cisco peer: its frames
    frames = "pe-linux-edge.frames.yaml"
    assert sorted(built.files) == sorted([*ipsec, frames])
    for name, text in built.files.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text
    assert YAML(typ="safe").load(out) == built.topology
    iol = api.lab_build(fleet, flavor="cisco_iol")
    cisco = {partial_config_name(name) for name in ("branch", "hub")}
    assert set(iol.files) == cisco | {"pe-linux-edge.swanctl.conf", frames}
