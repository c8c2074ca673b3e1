"""Faults from the command line: `l2tpgen sim up --fault ... --fault-site SITE`, to rehearse a
rollback; bad values are usage errors before anything starts.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import PASSWORD, USERNAME, SimUp, cli_env, run_cli
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.sim import FaultError, Faults, parse_faults

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def test_fault_words_become_the_simulators_faults() -> None:
    words = ["refuse=^xconnect .* 127 ", "drop-after=6", "refuse-save", "refuse=^write"]
    faults = parse_faults(words, Faults(latency_ms=5))
    assert faults == Faults(
        latency_ms=5,
        drop_after_config_lines=6,
        refuse="(?:^xconnect .* 127 )|(?:^write)",
        refuse_save=True,
    )
    refusing = faults.refusing()
    assert refusing is not None
    assert refusing.search("xconnect 10.0.0.1 127 encapsulation l2tpv3 pw-class p")
    assert refusing.search("write memory")
    assert not refusing.search("xconnect 10.0.0.1 126 encapsulation l2tpv3 pw-class p")
    assert faults.words() == [f"refuse={faults.refuse}", "drop-after=6", "refuse-save"]


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("refuse=(", "refuse=(: not a regular expression (missing ), unterminated subpattern"),
        ("refuse=", "refuse= needs a regular expression (refuse=REGEX)"),
        ("drop-after=six", "drop-after=six: N is a whole number of lines, 1 or more"),
        ("drop-after=0", "drop-after=0: N is a whole number of lines, 1 or more"),
        ("drop-after=٣", "drop-after=٣: N is a whole number of lines, 1 or more"),
        ("drop-after", "unknown fault 'drop-after': one of refuse=REGEX, drop-after=N, refuse-"),
        ("refuse-save=yes", "unknown fault 'refuse-save=yes'"),
        ("slow", "unknown fault 'slow'"),
    ],
)
def test_a_bad_fault_is_refused_with_what_is_wrong(word: str, message: str) -> None:
    with pytest.raises(FaultError) as caught:
        parse_faults([word])
    assert str(caught.value).startswith(message)


def test_drop_after_given_twice_is_refused() -> None:
    with pytest.raises(FaultError, match="drop-after is given twice"):
        parse_faults(["drop-after=3", "drop-after=4"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fault", "refuse=("], "refuse=(: not a regular expression"),
        (["--fault", "drop-after=N"], "drop-after=N: N is a whole number"),
        (["--fault", "reboot"], "unknown fault 'reboot'"),
        (["--fault", "refuse-save", "--fault-site", "site-z"], "site-z is not a simulated router"),
        (["--fault-site", "site-a"], "give a --fault too"),
    ],
)
def test_sim_up_refuses_a_bad_fault_as_a_usage_error_before_starting(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", USERNAME)
    monkeypatch.setenv("L2TPGEN_PASSWORD", PASSWORD)
    inventory = tmp_path / "inventory.json"
    result = runner.invoke(
        app, ["sim", "up", "--sites", str(SITES), "--inventory-out", str(inventory), *args]
    )
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.stderr.split())  # rich wraps the usage box
    assert not inventory.exists()


def test_a_fault_given_to_sim_up_rolls_back_the_push_to_its_site_only(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    inventory = tmp_path / "inventory.json"
    faults = ("--fault", r"refuse=^xconnect 10\.216\.44\.47 127 ", "--fault-site", "site-a")
    with SimUp(
        "--sites", str(SITES), "--flavor", "ios", *faults, inventory=inventory, env=env
    ) as sim:
        common = ["--sites", str(SITES), "--inventory", str(inventory), "--yes"]
        refused = run_cli("push", "site-a", *common, "--format", "json", env=env)
        assert refused.returncode == 3, refused.stdout + refused.stderr
        (result,) = json.loads(refused.stdout)["results"]
        assert result["status"] == "rolled-back"
        assert result["errors"][0].startswith("xconnect 10.216.44.47 127 encapsulation l2tpv3")
        pushed = run_cli("push", "site-b", *common, env=env)
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        assert "site-b: changed" in pushed.stdout
    assert sim.returncode == 0, sim.err
    rows = {line.split()[1]: line for line in sim.out.splitlines() if line.startswith("│ site-")}
    assert "refuse=" in rows["site-a"]
    assert "refuse" not in rows["site-b"]
