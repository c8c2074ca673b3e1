"""push, diff and verify over real SSH against simulated routers (netmiko unmodified, no mocks)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from builders import both_ends, copy_example, without_vlan
from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, Lab, start_lab
from push_runs import push
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.device import fleet as fleet_module
from l2tpgen.device import push as push_module
from l2tpgen.device import steps as steps_module
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.lint import Finding, Severity
from l2tpgen.lint import sites as lint_module
from l2tpgen.platforms import render as render_module
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

runner = CliRunner()


def _config_lines(lab: Lab, name: str) -> list[str]:
    """The lines typed in configuration mode (push's reads there, `do show ...`, aside)."""
    events = lab.device(name).router.events
    return [text for kind, text in events if kind == "config" and not text.startswith("do show")]


def _entered_config_mode(lab: Lab, name: str) -> bool:
    events = lab.device(name).router.events
    return any(kind == "exec" and text.startswith("conf") for kind, text in events)


def test_fresh_router_gets_the_four_subinterfaces_and_a_second_push_changes_nothing(
    lab: Lab,
) -> None:
    code, (result,) = push(lab, "site-a")
    assert code == 0, result
    assert result["status"] == "changed"
    running = lab.running("site-a")
    for vlan, vc in ((2996, 126), (2997, 127), (2998, 128), (2999, 125)):
        assert f"interface GigabitEthernet0/0.{vlan}\n description l2tpgen: VLAN {vlan} " in running
        assert f"\n encapsulation dot1Q {vlan}\n" in running
        assert f" xconnect 10.216.44.47 {vc} encapsulation l2tpv3 pw-class ethernet\n" in running
    assert lab.device("site-a").router.startup.body() == running  # saved
    lab.device("site-a").router.events.clear()
    code, (again,) = push(lab, "site-a")
    assert (code, again["status"], again["lines_sent"]) == (0, "unchanged", 0)
    assert not _entered_config_mode(lab, "site-a")


def test_verify_shows_all_up_after_both_ends_and_a_vlan_removed_by_hand_down(lab: Lab) -> None:
    code, results = push(lab, "site-a", "site-b")
    assert code == 0, results
    verified = runner.invoke(
        app, ["verify", "site-a", "site-b", "--inventory", str(lab.inventory), "--format", "json"]
    )
    assert verified.exit_code == 0, verified.output
    rows = json.loads(verified.stdout)["pseudowires"]
    assert len(rows) == 8
    assert all(row["state"] == "UP" for row in rows)
    lab.device("site-b").router.load("no interface GigabitEthernet0/0.2998")
    verified = runner.invoke(
        app, ["verify", "site-a", "--inventory", str(lab.inventory), "--format", "json"]
    )
    assert verified.exit_code == 1
    states = {row["vlan"]: row["state"] for row in json.loads(verified.stdout)["pseudowires"]}
    assert states == {2996: "UP", 2997: "UP", 2998: "DN", 2999: "UP"}


def test_removing_a_vlan_from_the_model_removes_exactly_its_subinterface(
    lab: Lab, tmp_path: Path
) -> None:
    assert push(lab, "site-a")[0] == 0
    sites = without_vlan(tmp_path, 2998)
    lab.device("site-a").router.events.clear()
    code, (result,) = push(lab, "site-a", sites=sites)
    assert code == 0, result
    assert result["commands"] == ["no interface GigabitEthernet0/0.2998"]
    assert _config_lines(lab, "site-a") == ["no interface GigabitEthernet0/0.2998", "end"]
    assert "GigabitEthernet0/0.2998" not in lab.running("site-a")


def test_dry_run_shows_the_diff_and_never_enters_config_mode(lab: Lab) -> None:
    before = lab.running("site-a")
    result = runner.invoke(app, ["diff", "site-a", "--inventory", str(lab.inventory)])
    assert result.exit_code == 0, result.output
    assert "+interface GigabitEthernet0/0.2996" in result.stdout
    assert "xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet" in result.stdout
    assert "site-a: would-change" in result.stdout
    assert not _entered_config_mode(lab, "site-a")
    assert lab.running("site-a") == before


@pytest.mark.usefixtures("lab_env")
def test_a_refused_line_rolls_back_to_the_exact_previous_config(tmp_path: Path) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(refuse=r"^xconnect 10\.216\.44\.47 127 ")})
    try:
        before = lab.running("site-a")
        code, (result,) = push(lab, "site-a")
        assert code == 3
        assert result["status"] == "rolled-back"
        errors = result["errors"]
        assert isinstance(errors, list)
        assert "xconnect 10.216.44.47 127" in errors[0]
        assert lab.running("site-a") == before
        assert lab.device("site-a").router.startup.body() == before  # nothing saved
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_a_connection_dropped_mid_change_is_rolled_back_after_reconnecting(tmp_path: Path) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(drop_after_config_lines=6)})
    try:
        before = lab.running("site-a")
        code, (result,) = push(lab, "site-a")
        assert code == 3, result
        assert result["status"] == "rolled-back"
        assert "stopped answering mid-change" in str(result["message"])
        assert lab.running("site-a") == before
        replaced = [t for k, t in lab.device("site-a").router.events if k == "replace"]
        assert [f"flash:{name}" for name in replaced] == [result["rollback_file"]]
    finally:
        lab.sim.close()


def test_a_changed_host_key_is_refused_before_authentication(lab: Lab) -> None:
    lab.sim.servers.change_host_key("site-a")
    attempts = lab.device("site-a").auth_attempts
    code, (result,) = push(lab, "site-a")
    assert code == 1
    assert result["status"] == "refused"
    assert "host key CHANGED" in str(result["message"])
    assert "ssh-keygen -R" in str(result["message"])
    assert lab.device("site-a").auth_attempts == attempts


def test_an_unknown_host_key_is_refused_before_authentication(lab: Lab) -> None:
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    known.write_text("")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused")
    assert "unknown SSH host key" in str(result["message"])
    assert lab.device("site-a").auth_attempts == 0


def test_missing_credentials_fail_clearly_before_any_connection(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("L2TPGEN_PASSWORD")
    result = runner.invoke(app, ["push", "site-a", "--inventory", str(lab.inventory), "--yes"])
    assert result.exit_code == 1
    assert "set L2TPGEN_PASSWORD in the environment (nothing was contacted)" in result.stderr
    assert lab.device("site-a").auth_attempts == 0
    assert lab.device("site-a").router.events == []


def test_pushing_without_a_terminal_needs_yes(lab: Lab) -> None:
    result = runner.invoke(app, ["push", "site-a", "--inventory", str(lab.inventory)])
    assert result.exit_code == 2
    assert lab.device("site-a").router.events == []


def test_secrets_never_appear_in_any_output(lab: Lab, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    printed = []
    for args in (
        ["diff", "site-a"],
        ["push", "site-a", "--yes"],
        ["push", "site-b", "--yes", "--format", "json"],
        ["diff", "site-a", "--format", "json"],
        ["verify", "site-a"],
    ):
        result = runner.invoke(app, [*args, "--inventory", str(lab.inventory)])
        printed.append(result.output)
    everything = "\n".join(printed) + caplog.text
    forbidden = [L2TP_SECRET, PASSWORD, *(type7_encode(L2TP_SECRET, s) for s in range(16))]
    assert not [s for s in forbidden if s in everything]
    assert re.search(r"password 7 <masked>", everything)
    assert "site-a: changed" in everything


@pytest.mark.usefixtures("lab_env")
def test_a_rollback_that_fails_too_exits_4_and_says_what_to_do(tmp_path: Path) -> None:
    refuse = r"^xconnect 10\.216\.44\.47 127 |^configure replace"
    lab = start_lab(tmp_path, {"site-a": Faults(refuse=refuse)})
    try:
        code, (result,) = push(lab, "site-a")
        assert code == 4
        assert result["status"] == "rollback-failed"
        message = str(result["message"])
        assert "check the router by hand" in message
        assert f"{result['rollback_file']}" in message
        assert str(result["rollback_file"]).startswith("flash:l2tpgen-site-a-")
    finally:
        lab.sim.close()


def test_a_site_with_error_findings_is_not_pushed(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = Finding("rendered:site-a", 1, 1, "L2T006", "undefined-pw-class", Severity.ERROR, "x")
    monkeypatch.setattr(push_module, "lint_sites", lambda *_a, **_k: [bad])
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused")
    assert "error-level lint findings" in str(result["message"])
    assert lab.device("site-a").router.events == []


def test_ios_defaults_in_a_site_file_are_not_rendered_and_a_second_push_changes_nothing(
    tmp_path: Path,
    lab_env: None,  # noqa: ARG001 - needs the environment
) -> None:
    digest = both_ends(
        "{name: class1, authentication: password, secret_env: L2TPGEN_L2TP_SECRET}",
        "{name: class1, authentication: digest, hash: md5, hello: 60, "
        "secret_env: L2TPGEN_L2TP_SECRET}",
    )
    queues = both_ends("hold_queue: {in: 2048, out: 2048}", "hold_queue: {in: 75, out: 40}")
    sites = copy_example(SITES, tmp_path, *digest, *queues)
    lab = start_lab(tmp_path, sites=sites)
    try:
        code, (first,) = push(lab, "site-a", sites=sites)
        assert (code, first["status"]) == (0, "changed")
        # the simulator, as IOS, shows none of these defaults: had l2tpgen rendered them, every
        # push would find them missing and send them again
        running = lab.running("site-a")
        assert not re.search(r"hello 60|hash md5|hold-queue (75|40)", running)
        assert re.search(r" digest secret 7 \S+\n", running)
        code, (second,) = push(lab, "site-a", sites=sites)
        assert (code, second["status"], second["lines_sent"]) == (0, "unchanged", 0)
    finally:
        lab.sim.close()


def _counting(calls: list[str], real: Callable[..., Any], argument: int) -> Callable[..., Any]:
    """``real``, recording its ``argument``-th positional argument at each call."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - passes anything through
        calls.append(args[argument])
        return real(*args, **kwargs)

    return wrapper


def test_a_push_renders_its_site_once_and_reads_each_router_config_once(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[str] = []
    parsed: list[str] = []
    for module in (render_module, fleet_module, push_module, lint_module):
        monkeypatch.setattr(module, "render_site", _counting(rendered, module.render_site, 1))
    # push reads the running config once (`ios.parsed`) and hands that reading to the plan.
    for module, name in ((push_module, "parse"), (push_module, "parsed"), (steps_module, "parse")):
        monkeypatch.setattr(module, name, _counting(parsed, getattr(module, name), 0))
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert rendered.count("site-a") == 1  # one rendering: linted, filled in, planned, checked
    # The router's config is parsed once as read before the change and once as read after it
    # (the renderings are read once for the run: tests/test_push_parses_once.py).
    assert len(parsed) == 2
    assert "interface GigabitEthernet0/0.2996" not in parsed[0]
    assert "interface GigabitEthernet0/0.2996" in parsed[1]
