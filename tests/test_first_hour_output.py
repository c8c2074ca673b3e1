"""A new user's first commands: output a script can parse and words that read right (issue 28)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
BROKEN = ROOT / "examples" / "broken"
HUB = ROOT / "examples" / "hub"


def test_validate_format_github_annotates_each_problem_at_its_file_line_and_column() -> None:
    result = runner.invoke(app, ["validate", "--sites", str(BROKEN), "--format", "github"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f"::error file={BROKEN}/site-a.yaml,line=26,col=5,title=l2tpgen validate V027::"
        "VLAN 2998 is stretched to site-b"
    )
    assert "%0Ahint: add `- {id: 2998" in lines[0]
    assert len(lines) == 1


def test_validate_format_github_prints_nothing_for_a_clean_fleet() -> None:
    result = runner.invoke(
        app,
        ["validate", "--sites", str(SITES), "--format", "github"],
        env={"L2TPGEN_L2TP_SECRET": "not-a-real-secret-0123"},
    )
    assert result.exit_code == 0
    assert result.stdout == ""
    unset = runner.invoke(
        app,
        ["validate", "--sites", str(SITES), "--format", "github"],
        env={"L2TPGEN_L2TP_SECRET": ""},
    )
    assert unset.stdout == (
        "::warning title=l2tpgen validate::environment variable L2TPGEN_L2TP_SECRET is not set "
        "(needed by site-a, site-b)\n"
    )


def test_validate_json_keeps_every_documented_key_when_the_fleet_has_errors() -> None:
    good = json.loads(
        runner.invoke(app, ["validate", "--sites", str(SITES), "--format", "json"]).stdout
    )
    result = runner.invoke(app, ["validate", "--sites", str(BROKEN), "--format", "json"])
    assert result.exit_code == 1
    bad = json.loads(result.stdout)
    assert set(bad) == set(good)
    assert bad["ok"] is False
    assert bad["sites"] == ["site-a", "site-b"]
    assert bad["pseudowires"] is None
    assert [(p["line"], p["column"]) for p in bad["problems"]] == [(26, 5)]
    assert bad["pairs"] == []


def test_validate_json_of_a_missing_directory_is_still_json() -> None:
    result = runner.invoke(app, ["validate", "--sites", "no-such-dir", "--format", "json"])
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert "does not exist" in report["error"]


def test_sites_given_a_site_file_says_it_takes_the_directory() -> None:
    result = runner.invoke(app, ["validate", "--sites", str(SITES / "site-a.yaml")])
    assert result.exit_code == 2
    flat = " ".join(result.stderr.split())
    assert f"--sites {SITES}/site-a.yaml is a site file, not a directory" in flat
    assert f"(--sites {SITES})" in flat


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    for name in ("site-a", "site-b"):
        text = (SITES / f"{name}.yaml").read_text()
        kept = [
            line
            for line in text.splitlines()
            if not any(f"id: {v}" in line for v in (2997, 2998, 2999))
        ]
        (tmp_path / f"{name}.yaml").write_text("\n".join(kept) + "\n")
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "ok: 2 sites, 1 pseudowire, no problems" in result.stdout
    assert "site-a <-> site-b: 1 pseudowire," in result.stdout


def test_render_names_a_cisco_platform_with_the_right_article() -> None:
    result = runner.invoke(app, ["render", "hub", "--sites", str(HUB), "--format", "set"])
    assert result.exit_code == 1
    assert "(hub is a Cisco IOS-XE site)" in " ".join(result.stderr.split())


def test_docs_output_into_a_new_directory_makes_it(tmp_path: Path) -> None:
    target = tmp_path / "new" / "dir" / "fleet.md"
    result = runner.invoke(app, ["docs", "--sites", str(SITES), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("# ")


def test_mtu_of_a_site_gives_each_pairs_real_budget_not_the_default() -> None:
    result = runner.invoke(app, ["mtu", "hub", "--sites", str(HUB), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["peer"]: row for row in json.loads(result.stdout)}
    # examples/hub: IPsec transport aes-gcm-128 to both peers, the tag carried: 1424, not 1458
    assert rows["linux-edge"]["vlans"] == [200, 201, 202]
    assert rows["linux-edge"]["max_inner_mtu"] == 1424
    assert rows["linux-edge"]["esp"]["mode"] == "transport"
    plain = runner.invoke(app, ["mtu", "site-a", "--sites", str(SITES), "--format", "json"])
    assert json.loads(plain.stdout)[0]["max_inner_mtu"] == 1458


def test_mtu_of_a_site_agrees_with_what_render_puts_on_a_linux_end() -> None:
    rendered = runner.invoke(app, ["render", "linux-edge", "--sites", str(HUB)]).stdout
    budget = json.loads(
        runner.invoke(app, ["mtu", "linux-edge", "--sites", str(HUB), "--format", "json"]).stdout
    )[0]["max_inner_mtu"]
    assert f"mtu {budget}" in rendered


def test_mtu_text_lists_vlans_as_ranges_and_never_cuts_a_site_name() -> None:
    result = runner.invoke(app, ["mtu", "site-a", "--sites", str(SITES)], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "site-a -> site-b: VLANs 2996-2999",
        "  WAN MTU 1500, cookie 0, sublayer no, dot1Q carried, no ESP",
        "  overhead 24 bytes: largest CE MTU 1458, TCP MSS 1418",
    ]


def test_lab_build_says_every_file_it_writes_beside_the_topology(tmp_path: Path) -> None:
    # examples/hub: a swanctl.conf per PE (bound) and linux-edge's frames checks (named).
    out = tmp_path / "lab.yml"
    hub = ROOT / "examples" / "hub"
    result = runner.invoke(app, ["lab", "build", "--sites", str(hub), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [
        "lab.yml",
        "pe-branch.swanctl.conf",
        "pe-hub.swanctl.conf",
        "pe-linux-edge.frames.yaml",
        "pe-linux-edge.swanctl.conf",
    ]
    stderr = " ".join(result.stderr.split())
    for name in written[1:]:
        assert f"wrote {tmp_path / name} (the topology names it)" in stderr


def test_import_echoes_a_vlan_list_as_written_not_as_one_range(tmp_path: Path) -> None:
    config = ROOT / "tests" / "lint" / "reference" / "before.conf"
    result = runner.invoke(app, ["import", str(config), "--vlans", "10,20", "-o", str(tmp_path)])
    flat = " ".join(result.output.split())
    assert "one subinterface and pseudowire per VLAN (2: 10, 20)" in flat
    assert "10-20" not in flat
    ranged = runner.invoke(
        app, ["import", str(config), "--vlans", "2996-2999", "-o", str(tmp_path / "b")]
    )
    assert "(4: 2996-2999)" in " ".join(ranged.output.split())
