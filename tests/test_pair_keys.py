"""Two ends naming different master-key variables are compared, never shown (issue 33 item 7).

A fleet of three sites (examples/hub: a hub and two spokes, IPsec by default on its public
addresses) where the hub names ``L2TPGEN_IKE_PSK_K1`` and the branch spoke names
``L2TPGEN_IKE_PSK_K2``: each end derives its pair key from its own variable, so with different
values IKE fails. Before this, validate, ``secrets`` and push all exited 0.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from builders import cookie_fleet, edit_file, hub_fleet
from conftest_sim import Lab, cli_env, run_cli, start_lab
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model import load_fleet
from l2tpgen.model.keys import pair_psk
from l2tpgen.model.pair_keys import compare_pair_keys, fingerprint

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

K1, K2 = "L2TPGEN_IKE_PSK_K1", "L2TPGEN_IKE_PSK_K2"
ONE = "0123456789abcdef-one-master"
TWO = "0123456789abcdef-two-master"
L2TP = "l2tp-secret-1"
runner = CliRunner()


def _fleet(tmp_path: Path) -> Path:
    """The hub fleet: hub and linux-edge name K1, branch names K2."""
    return hub_fleet(
        tmp_path,
        ("hub", "peers:\n", f"protection: {{psk_env: {K1}}}\npeers:\n"),
        ("branch", "peers:", f"protection: {{psk_env: {K2}}}\npeers:"),
        ("linux-edge", "peers: [hub]\n", f"peers: [hub]\nprotection: {{psk_env: {K1}}}\n"),
    )  # fmt: skip


def _env(**values: str) -> dict[str, str]:
    env = {K1: "", K2: "", "L2TPGEN_IKE_PSK": "", "L2TPGEN_L2TP_SECRET": L2TP}
    env.update(values)
    return env


def _secrets_in(text: str) -> list[str]:
    """Any value, pair key or fingerprint of either master that ``text`` holds."""
    found = []
    for master in (ONE, TWO):
        key = pair_psk(master.encode(), ("branch", "hub"))
        shown = (master, key, key[:16], fingerprint(key.encode()).hex()[:8])
        found += [value for value in shown if value in text]
    return found


def test_validate_refuses_a_pair_whose_ends_variables_hold_different_values(
    tmp_path: Path,
) -> None:
    sites = _fleet(tmp_path)
    result = runner.invoke(app, ["validate", "--sites", str(sites)], env=_env(**{K1: ONE, K2: TWO}))
    assert result.exit_code == 1, result.output
    (line,) = [line for line in result.stderr.splitlines() if "[V100]" in line]
    assert line.startswith(f"{sites / 'branch.yaml'}:")
    assert f"branch names {K2} here and hub names {K1}" in line
    assert "IKE between them will fail" in line
    assert "linux-edge" not in line  # hub and linux-edge name the same variable
    assert _secrets_in(result.output) == []


def test_validate_json_and_github_name_the_problem(tmp_path: Path) -> None:
    sites = str(_fleet(tmp_path))
    env = _env(**{K1: ONE, K2: TWO})
    result = runner.invoke(app, ["validate", "--sites", sites, "--format", "json"], env=env)
    assert result.exit_code == 1
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["V100"]
    result = runner.invoke(app, ["validate", "--sites", sites, "--format", "github"], env=env)
    assert result.exit_code == 1
    assert "::error" in result.stdout
    assert "V100" in result.stdout
    assert _secrets_in(result.output) == []


def test_validate_passes_when_the_two_variables_hold_the_same_value(tmp_path: Path) -> None:
    sites = _fleet(tmp_path)
    env = _env(**{K1: ONE, K2: ONE})
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"], env=env)
    assert result.exit_code == 0, result.output
    (pair,) = json.loads(result.stdout)["pair_keys"]
    assert pair == {
        "pair": ["branch", "hub"],
        "purpose": "ike-master-key",
        "variables": {"branch": K2, "hub": K1},
        "outcome": "same",
        "unusable": [],
    }


def test_validate_says_the_comparison_could_not_be_made_when_a_variable_is_unset(
    tmp_path: Path,
) -> None:
    sites = _fleet(tmp_path)
    result = runner.invoke(app, ["validate", "--sites", str(sites)], env=_env(**{K1: ONE}))
    assert result.exit_code == 0, result.output
    assert (
        f"warning: branch names {K2} and hub names {K1} for the IKEv2 pre-shared key of their "
        f"pair; the comparison could not be made: {K2} is unset, empty or refused"
    ) in result.stderr.replace("\n", " ")


def test_secrets_shows_differ_and_exits_1_never_a_value(tmp_path: Path) -> None:
    sites = str(_fleet(tmp_path))
    env = _env(**{K1: ONE, K2: TWO})
    result = runner.invoke(app, ["secrets", "--sites", sites], env=env)
    assert result.exit_code == 1
    assert "DIFFER   branch <-> hub" in result.stdout
    assert "IKE between them will fail" in result.stdout
    assert "pair key(s) differ" in result.stderr
    assert _secrets_in(result.output) == []
    result = runner.invoke(app, ["secrets", "--sites", sites, "--format", "json"], env=env)
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["ok"] is False
    assert [(p["pair"], p["outcome"]) for p in summary["pair_keys"]] == [
        (["branch", "hub"], "differ")
    ]
    assert _secrets_in(result.output) == []


def test_secrets_shows_same_and_unknown(tmp_path: Path) -> None:
    sites = str(_fleet(tmp_path))
    same = runner.invoke(app, ["secrets", "--sites", sites], env=_env(**{K1: ONE, K2: ONE}))
    assert same.exit_code == 0, same.output
    assert "same     branch <-> hub" in same.stdout
    unknown = runner.invoke(app, ["secrets", "--sites", sites], env=_env(**{K1: ONE}))
    assert unknown.exit_code == 1  # K2 is missing
    assert "UNKNOWN  branch <-> hub" in unknown.stdout
    assert "the comparison could not be made" in unknown.stdout


def test_secrets_summary_says_ok_only_when_no_pair_differs(tmp_path: Path) -> None:
    """It said "ok: all 3 variables set" above the DIFFER row of a run that exits 1 (issue 34)."""
    sites = str(_fleet(tmp_path))
    differ = runner.invoke(app, ["secrets", "--sites", sites], env=_env(**{K1: ONE, K2: TWO}))
    assert differ.exit_code == 1
    assert "ok:" not in differ.stdout
    assert "all 3 variables set; 1 pair's keys DIFFER\n" in differ.stdout
    as_json = runner.invoke(
        app, ["secrets", "--sites", sites, "--format", "json"], env=_env(**{K1: ONE, K2: TWO})
    )
    assert json.loads(as_json.stdout)["ok"] is False
    same = runner.invoke(app, ["secrets", "--sites", sites], env=_env(**{K1: ONE, K2: ONE}))
    assert "ok: all 3 variables set\n" in same.stdout


def test_secrets_of_one_end_says_its_pair_was_not_compared_when_the_other_variable_is_unset(
    tmp_path: Path,
) -> None:
    """``secrets hub`` with branch's variable unset: hub's variables are all set (exit 0, as
    validate's warning), and the summary says the pair was not compared instead of a bare ok."""
    sites = str(_fleet(tmp_path))
    result = runner.invoke(app, ["secrets", "--sites", sites, "hub"], env=_env(**{K1: ONE}))
    assert result.exit_code == 0, result.output
    assert "ok: all 2 variables set; 1 pair's keys not compared (UNKNOWN)\n" in result.stdout
    as_json = runner.invoke(
        app, ["secrets", "--sites", sites, "hub", "--format", "json"], env=_env(**{K1: ONE})
    )
    summary = json.loads(as_json.stdout)
    assert summary["ok"] is True
    assert [p["outcome"] for p in summary["pair_keys"]] == ["unknown"]


def test_a_refused_value_makes_the_comparison_unknown_not_a_difference(tmp_path: Path) -> None:
    fleet = load_fleet(_fleet(tmp_path))
    (comparison,) = compare_pair_keys(fleet.sites, _env(**{K1: ONE, K2: "short"}))
    assert (comparison.outcome, comparison.unusable) == ("unknown", (K2,))


def test_keyed_cookie_variables_are_compared_too(tmp_path: Path) -> None:
    sites = cookie_fleet(tmp_path)
    edit_file(
        sites / "hub.yaml", "{mode: cookie}", "{mode: cookie, cookie_key_env: L2TPGEN_COOKIE_KEY_A}"
    )
    edit_file(
        sites / "linux-edge.yaml",
        "{mode: cookie}",
        "{mode: cookie, cookie_key_env: L2TPGEN_COOKIE_KEY_B}",
    )
    fleet = load_fleet(sites)
    env = {"L2TPGEN_COOKIE_KEY_A": ONE, "L2TPGEN_COOKIE_KEY_B": TWO}
    found = [(c.a, c.b, c.purpose, c.outcome) for c in compare_pair_keys(fleet.sites, env)]
    assert ("hub", "linux-edge", "cookie-key", "differ") in found
    env["L2TPGEN_COOKIE_KEY_B"] = ONE
    found = [(c.a, c.b, c.purpose, c.outcome) for c in compare_pair_keys(fleet.sites, env)]
    assert ("hub", "linux-edge", "cookie-key", "same") in found


@pytest.fixture
def hub_lab(tmp_path: Path, lab_env: None) -> Iterator[Lab]:  # noqa: ARG001 - its environment
    started = start_lab(tmp_path, sites=_fleet(tmp_path))
    yield started
    started.sim.close()


def test_push_refuses_before_connecting_when_the_pair_keys_differ(
    hub_lab: Lab, tmp_path: Path
) -> None:
    env = {**cli_env(tmp_path), K1: ONE, K2: TWO}
    sites = str(tmp_path / "hub")
    result = run_cli(
        "push", "hub", "branch", "--yes", "--sites", sites, "--inventory", str(hub_lab.inventory),
        "--format", "json", env=env,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    results = {r["site"]: r for r in json.loads(result.stdout)["results"]}
    assert results["branch"]["status"] == "refused"
    assert f"branch names {K2} and hub names {K1}" in results["branch"]["message"]
    assert results["hub"]["status"] == "refused"
    for name in ("hub", "branch"):  # never reached, so never in configuration mode
        assert hub_lab.device(name).auth_attempts == 0
        assert hub_lab.device(name).router.events == []
    assert _secrets_in(result.stdout + result.stderr) == []
