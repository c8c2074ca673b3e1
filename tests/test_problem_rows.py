"""Rows of docs/problems.md no other test reached: each problem, as `l2tpgen validate` reports it
on site files a user wrote (issue 34).

V042 and V044 on the reference pair (`sites/`), V075 on the reference case's single-trunk routers
imported as they are (`lan.port_xconnect.action: keep`) and then given IPsec. Messages and fixes
are the table's (l2tpgen/model/problem_codes.yaml), their variable parts filled in by hand.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import pytest
from builders import import_reference
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
IPSEC = "protection: {mode: ipsec, transform: aes-gcm-128, ipsec_mode: transport}\n"


def _errors(sites: Path) -> list[str]:
    result = runner.invoke(app, ["validate", "--sites", str(sites)], env={"COLUMNS": "500"})
    assert result.exit_code == 1, result.output
    return [line for line in result.stderr.splitlines() if ": error: " in line]


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    """The reference pair with the same edit at both ends (so the two ends still agree)."""
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    for site in (sites / "site-a.yaml", sites / "site-b.yaml"):
        text = site.read_text()
        assert old in text
        site.write_text(text.replace(old, new))
    return sites


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "authentication: password,",
            "authentication: password, hash: sha,",
            "hash applies only to digest authentication, not password [V042]",
        ),
        (
            "signaling: dynamic,",
            "signaling: dynamic, cookie: 8,",
            "cookies are configured for static sessions only [V044]",
        ),
    ],
    ids=["V042", "V044"],
)
def test_a_class_setting_that_does_not_fit_its_kind_of_session_is_refused_at_its_key(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    sites = _edited(tmp_path, old, new)
    lines = _errors(sites)
    assert [line.split(":")[0] for line in lines] == [
        str(sites / "site-a.yaml"),
        str(sites / "site-b.yaml"),
    ]
    assert all(line.endswith(f": error: {said}") for line in lines)


def test_ipsec_on_a_kept_port_mode_xconnect_is_refused_as_it_would_cross_in_clear(
    tmp_path: Path,
) -> None:
    sites = import_reference(tmp_path)
    for site in sorted(sites.glob("*.yaml")):
        site.write_text(site.read_text() + IPSEC)
    (line,) = _errors(sites)  # the pair's problem, at its first end
    assert line.startswith(f"{sites}/before-router-a.yaml:")
    assert line.endswith(
        ": error: the path to before-router-b is to be protected with IPsec, which l2tpgen "
        "renders for per-VLAN pseudowires only: the kept port-mode xconnect would cross it in "
        "clear [V075]"
    )


@pytest.mark.parametrize(
    "command",
    [["render", "site-a"], ["push", "site-a", "--dry-run"], ["docs"], ["secrets"]],
    ids=lambda c: c[0],
)
def test_the_other_commands_that_load_the_site_files_show_the_problems_code_as_validate_does(
    command: list[str],
) -> None:
    # examples/broken: VLAN 2998 stretched to site-b, which does not declare it (V027)
    broken = str(ROOT / "examples" / "broken")
    env = {"L2TPGEN_USERNAME": "someone", "L2TPGEN_PASSWORD": "unused", "COLUMNS": "500"}
    result = runner.invoke(app, [*command, "--sites", broken], env=env)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{broken}/site-a.yaml:26:5: error: VLAN 2998 is stretched")
    assert result.stderr.splitlines()[0].endswith(" [V027]")
