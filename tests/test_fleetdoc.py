"""The fleet page: every site and pseudowire on it, and a diagram that Mermaid itself draws."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model import load_fleet
from l2tpgen.render.fleetdoc import _label, fleet_markdown

if TYPE_CHECKING:
    from pathlib import Path

FLEETS = {"sites": SITES, "hub": ROOT / "examples" / "hub", "field": ROOT / "examples" / "field"}
MERMAID_DIR = os.environ.get("L2TPGEN_MERMAID_DIR")
CHECK = ROOT / "tests" / "mermaid_check.mjs"


def _page(fleet: str) -> str:
    return fleet_markdown(load_fleet(FLEETS[fleet]))


def _table(page: str, heading: str) -> list[list[str]]:
    section = page.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[1:]]


def test_reference_pair_page_lists_each_vlan_with_its_vc_id_and_ce_mtu() -> None:
    rows = _table(_page("sites"), "Pseudowires")
    # sites/: VLAN -> VC ID as the site files give them; CE MTU by hand: 1500 - IPv4 20 -
    # session ID 4 - Ethernet 14 - the dot1Q tag Cisco carries 4 = 1458.
    assert [(r[0], r[3], r[8].split()[0]) for r in rows] == [
        ("2996", "126", "1458"),
        ("2997", "127", "1458"),
        ("2998", "128", "1458"),
        ("2999", "125", "1458"),
    ]
    assert {r[2] for r in rows} == {"site-a - site-b"}
    assert {r[7] for r in rows} == {"none"}  # 10.x addresses at both ends: a trusted path


def test_hub_page_shows_static_sessions_to_linux_and_dynamic_ones_to_the_branch() -> None:
    rows = {r[0]: r for r in _table(_page("hub"), "Pseudowires")}
    assert len(rows) == 9
    assert rows["100"][2] == "branch - hub"
    assert rows["100"][5] == "dynamic (l2tpv3)"
    assert rows["200"][2] == "hub - linux-edge"
    assert rows["200"][5] == "static (manual)"
    assert rows["200"][6] == "none"
    # documentation addresses stand for public ones: IPsec by default (docs/security.md); the
    # CE MTU by hand: 1500 - ESP transport AES-GCM-128 34 (the lab's 1462 -> 1428) - 20 - 4 -
    # 14 - the dot1Q tag 4 = 1424
    assert {r[7] for r in rows.values()} == {"IPsec transport aes-gcm-128"}
    assert {r[8].split()[0] for r in rows.values()} == {"1424"}


def test_field_page_says_what_each_vlan_carries() -> None:
    rows = {r[0]: r[4] for r in _table(_page("field"), "Pseudowires")}
    assert rows == {
        "310": "cluster-heartbeat",
        "320": "live-migration",
        "330": "storage",
        "340": "general",
    }


@pytest.mark.parametrize("fleet", sorted(FLEETS))
def test_diagram_has_a_node_per_site_and_an_edge_per_pair(fleet: str) -> None:
    loaded = load_fleet(FLEETS[fleet])
    diagram = _page(fleet).split("```mermaid\n", 1)[1].split("```", 1)[0]
    nodes = re.findall(r'^  (s\d+)\["([^"]*)"\]$', diagram, re.MULTILINE)
    assert sorted(text.split("<br/>")[0] for _, text in nodes) == sorted(loaded.sites)
    edges = re.findall(r'^  (s\d+) ---\|"[^"]*"\| (s\d+)$', diagram, re.MULTILINE)
    pairs = {
        frozenset((name, vlan.peer)) for name, site in loaded.sites.items() for vlan in site.vlans
    }
    assert len(edges) == len(pairs)


def test_label_text_cannot_end_the_label_or_inject_html() -> None:
    assert _label('a "b" <i>', "c & d") == "a #quot;b#quot; #lt;i#gt;<br/>c #amp; d"


def test_docs_command_writes_the_page(tmp_path: Path) -> None:
    target = tmp_path / "fleet.md"
    result = CliRunner().invoke(app, ["docs", "--sites", str(SITES), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8") == _page("sites")


def test_the_page_holds_no_date_so_it_changes_only_when_the_fleet_does(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    first, again, changed = tmp_path / "1.md", tmp_path / "2.md", tmp_path / "3.md"
    for target in (first, again):
        assert runner_invoke(["docs", "--sites", str(sites), "-o", str(target)]) == 0
    page = first.read_text(encoding="utf-8")
    assert again.read_text(encoding="utf-8") == page
    assert not re.search(r"\b20\d\d\b|\d{1,2}:\d{2}:\d{2}|generated (on|at)", page, re.IGNORECASE)
    assert not re.search(r"\b(19|20)\d\d-\d\d-\d\d\b", page)
    today = dt.datetime.now(tz=dt.UTC).date()
    assert today.strftime("%B") not in page
    assert str(today.year) not in page
    for name in ("site-a.yaml", "site-b.yaml"):
        path = sites / name
        path.write_text(
            path.read_text().replace("name: management", "name: oob-management"), encoding="utf-8"
        )
    assert runner_invoke(["docs", "--sites", str(sites), "-o", str(changed)]) == 0
    assert "oob-management" in changed.read_text(encoding="utf-8")


def runner_invoke(args: list[str]) -> int:
    return CliRunner().invoke(app, args).exit_code


def _mermaid_available() -> None:
    if MERMAID_DIR and shutil.which("node"):
        return
    if os.environ.get("CI"):
        pytest.fail("CI must run the Mermaid check: .ci/run installs it (L2TPGEN_MERMAID_DIR)")
    pytest.skip("Mermaid not installed here (set L2TPGEN_MERMAID_DIR; .ci/run does)")


@pytest.mark.parametrize("fleet", sorted(FLEETS))
def test_mermaid_itself_parses_the_diagram(fleet: str, tmp_path: Path) -> None:
    _mermaid_available()
    page = tmp_path / "fleet.md"
    page.write_text(_page(fleet), encoding="utf-8")
    result = subprocess.run(
        ["node", str(CHECK), str(page)],  # noqa: S607 - node from PATH, as CI installs it
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok flowchart" in result.stdout


def test_mermaid_check_fails_on_a_broken_diagram(tmp_path: Path) -> None:
    _mermaid_available()
    page = tmp_path / "bad.md"
    page.write_text('```mermaid\nflowchart LR\n  s0["a "quoted" b"]\n```\n', encoding="utf-8")
    result = subprocess.run(
        ["node", str(CHECK), str(page)],  # noqa: S607
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout


def test_docs_command_says_why_it_cannot_write(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "dir" / "fleet.md"  # a missing directory is made; one under a file cannot
    result = CliRunner().invoke(app, ["docs", "--sites", str(SITES), "-o", str(target)])
    assert result.exit_code == 1
    assert "error:" in result.stderr
    assert str(target) in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
