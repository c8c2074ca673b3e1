"""The command line as a user meets it: exit codes, messages, formats, help."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from builders import without_vlan
from conftest import GOLDEN, SITES
from typer.testing import CliRunner

from l2tpgen import __version__
from l2tpgen.cli import app
from l2tpgen.ios.type7 import decode as type7_decode

runner = CliRunner()


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


@pytest.fixture
def sites_without_vlan_2998_at_b(tmp_path: Path) -> Path:
    return without_vlan(tmp_path, 2998, ("site-b",))


def test_version_prints_the_package_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"l2tpgen {__version__}"


def test_validate_accepts_the_example_sites() -> None:
    result = runner.invoke(app, ["validate", "--sites", str(SITES)])
    assert result.exit_code == 0, result.output
    assert "ok: 2 sites, 4 pseudowires" in result.stdout


def test_validate_names_both_files_and_the_vlan_line_when_a_peer_lacks_a_vlan(
    sites_without_vlan_2998_at_b: Path,
) -> None:
    sites = sites_without_vlan_2998_at_b
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    line = _line_of(sites / "site-a.yaml", "id: 2998")
    assert f"{sites / 'site-a.yaml'}:{line}:5: error: VLAN 2998 is stretched to site-b" in (
        result.stderr
    )
    assert str(sites / "site-b.yaml") in result.stderr
    assert "Traceback" not in result.output


def test_validate_json_lists_problems_for_scripts(sites_without_vlan_2998_at_b: Path) -> None:
    result = runner.invoke(
        app, ["validate", "--sites", str(sites_without_vlan_2998_at_b), "--format", "json"]
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    (problem,) = report["problems"]
    assert problem["file"].endswith("site-a.yaml")
    assert problem["path"] == ["vlans", 2]


def test_validate_json_on_success() -> None:
    env = {"L2TPGEN_L2TP_SECRET": "lab-secret"}  # set: no secret listed as missing
    result = runner.invoke(app, ["validate", "--sites", str(SITES), "--format", "json"], env=env)
    assert json.loads(result.stdout) == {
        "ok": True,
        "sites": ["site-a", "site-b"],
        "pseudowires": 4,
        "problems": [],
        "warnings": [],
        "underlay": [
            {
                "site": "site-a",
                "peer": "site-b",
                "address": "10.216.44.47",
                "how": "static",
                "detail": "by wan.routes 0.0.0.0/0 via 10.197.251.209",
            },
            {
                "site": "site-b",
                "peer": "site-a",
                "address": "10.197.251.215",
                "how": "static",
                "detail": "by wan.routes 0.0.0.0/0 via 10.216.44.33",
            },
        ],
        "pairs": [
            {
                "sites": ["site-a", "site-b"],
                "pseudowires": 4,
                "protection": "none",
                "stated": False,
                "trusted": True,
                "reason": "trusted path: no public address at either end",
                "transform": None,
                "ipsec_mode": None,
                "nat_t": None,
                "notes": [],
            }
        ],
        "secrets": [],
        "pair_keys": [],
    }


def test_validate_reports_a_missing_sites_directory(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path / "nope")])
    assert result.exit_code == 2  # a usage error: the option names no directory
    assert "does not exist; pass --sites DIR" in result.stderr


def test_render_prints_the_golden_config() -> None:
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (GOLDEN / "render" / "site-a.ios.conf").read_text()


def test_render_accepts_a_path_to_the_site_file() -> None:
    result = runner.invoke(app, ["render", str(SITES / "site-b.yaml")])
    assert result.exit_code == 0, result.output
    assert result.stdout == (GOLDEN / "render" / "site-b.ios.conf").read_text()


def test_render_writes_the_output_file(tmp_path: Path) -> None:
    target = tmp_path / "site-a.conf"
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES), "-o", str(target)])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert target.read_text() == (GOLDEN / "render" / "site-a.ios.conf").read_text()


def test_render_refuses_a_fleet_with_errors(sites_without_vlan_2998_at_b: Path) -> None:
    result = runner.invoke(app, ["render", "site-a", "--sites", str(sites_without_vlan_2998_at_b)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "VLAN 2998" in result.stderr


def test_render_suggests_a_near_site_name() -> None:
    result = runner.invoke(app, ["render", "site_a", "--sites", str(SITES)])
    assert result.exit_code == 1
    assert "no site named site_a (sites: site-a, site-b); did you mean site-a?" in result.stderr


def test_render_reveal_secrets_needs_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("L2TPGEN_L2TP_SECRET", raising=False)
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES), "--reveal-secrets"])
    assert result.exit_code == 1
    assert "L2TPGEN_L2TP_SECRET is not set" in result.stderr
    assert result.stdout == ""


def test_render_reveal_secrets_writes_type_7(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", "s3cr3t-Value")
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES), "--reveal-secrets"])
    assert result.exit_code == 0
    (line,) = [x for x in result.stdout.splitlines() if x.startswith(" password ")]
    assert type7_decode(line.removeprefix(" password 7 ")) == "s3cr3t-Value"
    assert "s3cr3t-Value" not in result.output


def test_a_file_render_writes_with_reveal_secrets_is_readable_by_its_owner_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", "s3cr3t-Value")
    revealed, masked = tmp_path / "revealed.cfg", tmp_path / "masked.cfg"
    args = ["render", "site-a", "--sites", str(SITES)]
    assert runner.invoke(app, [*args, "--reveal-secrets", "-o", str(revealed)]).exit_code == 0
    assert runner.invoke(app, [*args, "-o", str(masked)]).exit_code == 0
    assert " password 7 " in revealed.read_text()
    assert revealed.stat().st_mode & 0o777 == 0o600
    assert masked.stat().st_mode & 0o077 != 0  # a masked rendering is an ordinary file


@pytest.mark.parametrize(
    "secret", ["pässword", "\N{GRINNING FACE}-secret", "tab\there", "two words", "euro\u20ac"]
)
def test_render_refuses_a_secret_type_7_cannot_carry_and_never_shows_it(
    monkeypatch: pytest.MonkeyPatch, secret: str
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", secret)
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES), "--reveal-secrets"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "environment variable L2TPGEN_L2TP_SECRET holds a secret type 7 cannot carry" in (
        result.stderr
    )
    assert secret not in result.output
    assert "Traceback" not in result.output


def test_push_refuses_a_secret_type_7_cannot_carry_before_connecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", "admin")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "lab-password")
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", "\N{GRINNING FACE}")
    result = runner.invoke(
        app, ["push", "site-a", "--sites", str(SITES), "--yes", "--format", "json"]
    )
    assert result.exit_code == 1
    (report,) = json.loads(result.stdout)["results"]
    assert report["status"] == "refused"
    assert report["lines_sent"] == 0
    assert report["message"].startswith("environment variable L2TPGEN_L2TP_SECRET holds")
    assert "\N{GRINNING FACE}" not in result.output


def test_mtu_shows_the_budget_and_the_largest_ce_mtu() -> None:
    result = runner.invoke(app, ["mtu"])
    assert result.exit_code == 0
    # 1500 - 20 (IPv4) - 4 (session) - 14 (Ethernet) - 4 (the dot1Q tag a Cisco end carries)
    assert "1458" in result.stdout
    assert "encap size" in result.stdout


def test_mtu_json_for_scripts() -> None:
    result = runner.invoke(app, ["mtu", "--encap", "udp", "--dot1q", "--format", "json"])
    report = json.loads(result.stdout)
    assert report["max_inner_mtu"] == 1442
    assert report["sublayer"] is True


def test_mtu_all_prints_the_comparison_table() -> None:
    result = runner.invoke(app, ["mtu", "--all", "--format", "json"])
    rows = json.loads(result.stdout)
    assert [r["max_inner_mtu"] for r in rows] == [
        1462,
        1458,
        1458,
        1454,
        1454,
        1450,
        1450,
        1446,
        1446,
        1442,
    ]


def test_mtu_refuses_an_impossible_cookie_as_a_usage_error() -> None:
    result = runner.invoke(app, ["mtu", "--cookie", "3"])
    assert result.exit_code == 2


@pytest.mark.parametrize("command", [[], ["validate"], ["render"], ["mtu"]])
def test_every_command_has_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.stdout


HEAVY = ("netmiko", "asyncssh", "paramiko", "nornir", "hier_config", "ciscoconfparse")


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return set(result.stdout.split())


def test_importing_the_cli_imports_no_device_simulator_or_parser_library() -> None:
    loaded = _modules_after("import l2tpgen.cli")
    assert [m for m in HEAVY if m in loaded] == []


def test_version_imports_neither_the_model_nor_the_renderer() -> None:
    loaded = _modules_after(
        "import sys\nsys.argv = ['l2tpgen', '--version']\nfrom l2tpgen.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert "l2tpgen.cli" in loaded
    assert [m for m in ("pydantic", "jinja2", "yaml", "ruamel.yaml", *HEAVY) if m in loaded] == []


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    for command in ("validate", "render", "mtu", "lint", "rules", "rule", "push", "diff"):
        assert command in result.stdout
    for command in ("verify", "sim", "lab"):
        assert command in result.stdout


def test_the_cli_keeps_the_fleet_runners_default_and_a_style_for_every_push_status() -> None:
    from l2tpgen.cli.push_output import STATUS_STYLE  # noqa: PLC0415 - under test
    from l2tpgen.cli.routers import DEFAULT_WORKERS  # noqa: PLC0415
    from l2tpgen.device import Status  # noqa: PLC0415
    from l2tpgen.device.fleet import DEFAULT_WORKERS as RUNNER_DEFAULT  # noqa: PLC0415

    assert DEFAULT_WORKERS == RUNNER_DEFAULT
    assert set(STATUS_STYLE) == {status.value for status in Status}


def test_render_of_one_site_ignores_a_broken_site_elsewhere_but_validate_reports_it(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "sites"
    shutil.copytree(SITES, copy)
    (copy / "site-z.yaml").write_text("name: [site-z\n")
    result = runner.invoke(app, ["render", "site-a", "--sites", str(copy)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (GOLDEN / "render" / "site-a.ios.conf").read_text()
    result = runner.invoke(app, ["validate", "--sites", str(copy)])
    assert result.exit_code == 1
    assert f"{copy / 'site-z.yaml'}:2:1: error: not valid YAML" in result.stderr


def test_unknown_command_is_a_usage_error() -> None:
    assert runner.invoke(app, ["frobnicate"]).exit_code == 2


def test_installed_console_script_renders_from_another_directory(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "l2tpgen"
    assert script.exists(), "install the project into this environment (pip install .[test])"
    result = subprocess.run(
        [str(script), "render", "site-a", "--sites", str(SITES)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == (GOLDEN / "render" / "site-a.ios.conf").read_text()


@pytest.mark.parametrize(("minutes", "refused"), [(120, False), (121, True), (0, True)])
def test_confirm_within_takes_ios_revert_timer_range_1_to_120(
    minutes: int, refused: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The range of `configure terminal revert timer` (l2tpgen/cli/push.py's MAX_CONFIRM_MINUTES).
    # Without credentials, a push the option lets through stops before contacting anything.
    monkeypatch.delenv("L2TPGEN_USERNAME", raising=False)
    monkeypatch.delenv("L2TPGEN_PASSWORD", raising=False)
    result = runner.invoke(app, ["push", "--sites", str(SITES), "--confirm-within", str(minutes)])
    assert (result.exit_code == 2) is refused
    assert ("--confirm-within" in result.output) is refused
