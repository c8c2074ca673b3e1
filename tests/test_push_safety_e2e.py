"""What keeps a push safe, over real SSH against simulated routers (netmiko unmodified, no mocks).

The single-trunk migration in one run (and not one end alone), the question before a change, drift
in CI, pairs rolled back together, a stop mid-change, chunks, and one push per router. Every test
reads what the router holds afterwards.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from conftest_sim import PASSWORD, USERNAME, Lab, SimUp, cli_env
from push_runs import (
    cli,
    config_lines,
    entered_config_mode,
    exec_lines,
    on_a_terminal,
    push,
    section,
)

from l2tpgen.device.connection import connect
from l2tpgen.device.credentials import Credentials as Login
from l2tpgen.device.inventory import Target
from l2tpgen.device.push import PushOptions, push_site
from l2tpgen.device.session import CHUNK_LINES, running_config
from l2tpgen.device.state_dir import router_lock
from l2tpgen.ios.volatile import config_body
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.model.generate import write_fleet
from l2tpgen.secrets import mask_secrets
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from l2tpgen.device.result import PushResult

REFERENCE = SITES.parent / "tests" / "reference"
BEFORE_SECRET = "123456789"  # noqa: S105 - the reference case's published example
PAIR = ("site-a", "site-b")
VLANS = (2996, 2997, 2998, 2999)
# the LAN trunk after the migration: its single xconnect gone, the hold-queues set
MIGRATED_TRUNK = (
    "interface GigabitEthernet0/0\n no ip address\n duplex full\n speed auto\n no cdp enable\n"
    " hold-queue 2048 in\n hold-queue 2048 out\n"
)
# site-b's xconnect of VLAN 2997 (to site-a's WAN address, VC ID 127)
REFUSE_AT_B = r"^xconnect 10\.197\.251\.215 127 "


def _before_pair() -> dict[str, str]:
    return {
        name: (REFERENCE / f"before-router-{name[-1]}.conf").read_text(encoding="utf-8")
        for name in PAIR
    }


def _big_sites(directory: Path, vlans: int = 45) -> Path:
    """A pair (site-0, site-1) whose first push is over two chunks long."""
    write_fleet(directory, 2, vlans)
    return directory


def _target(lab: Lab, name: str) -> Target:
    device = lab.device(name)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    return Target(name, "127.0.0.1", device.port, device.router.flavor.device_type, known)


def _push_site(lab: Lab, name: str, state: Path, stop: Callable[[], bool]) -> PushResult:
    """push_site as the library's callers use it, with a stop request."""
    options = PushOptions(state_dir=state, stop=stop)
    return push_site(lab.fleet, name, _target(lab, name), Login(USERNAME, PASSWORD), options)


# -- 1, 2: the single-trunk migration -----------------------------------------------------------


def test_the_single_trunk_pair_migrates_in_one_push_and_every_pseudowire_is_up_at_both_ends(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", BEFORE_SECRET)
    lab = new_lab(configs=_before_pair())
    before = [ConfigText(f"{name}.conf", lab.running(name)) for name in PAIR]
    assert {f.code for f in lint_configs(before)} >= {"L2T001"}
    secrets = {name: section(lab.running(name), "l2tp-class class1") for name in PAIR}
    code, results = push(lab, *PAIR)
    assert code == 0, results
    assert [(r["site"], r["status"], r["migration"]) for r in results] == [
        ("site-a", "changed", True),
        ("site-b", "changed", True),
    ]
    after = [ConfigText(f"{name}.conf", lab.running(name)) for name in PAIR]
    findings = [f for f in lint_configs(after) if f.code in {"L2T001", "L2T008"}]
    assert findings == []
    for name in PAIR:
        running = lab.running(name)
        assert section(running, "interface GigabitEthernet0/0") == MIGRATED_TRUNK
        # the same secret under the router's own type 7 spelling: not typed again
        assert section(running, "l2tp-class class1") == secrets[name]
        assert lab.device(name).router.startup.body() == running
    verified = cli(lab, "verify", *PAIR, "--format", "json")
    assert verified.exit_code == 0, verified.output
    rows = json.loads(verified.stdout)["pseudowires"]
    assert sorted((r["site"], r["vlan"], r["state"]) for r in rows) == [
        (name, vlan, "UP") for name in PAIR for vlan in VLANS
    ]


def test_one_end_of_a_single_trunk_pair_is_refused_naming_its_peer_unless_one_end_is_given(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", BEFORE_SECRET)
    lab = new_lab(configs=_before_pair())
    before = lab.running("site-a")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused"), result
    assert "site-b" in result["message"]
    assert "--one-end" in result["message"]
    assert result["lines_sent"] == 0
    assert not entered_config_mode(lab, "site-a")
    assert not [line for line in exec_lines(lab, "site-a") if line.startswith("copy")]
    assert lab.device("site-a").router.files == {}  # not even a rollback copy
    assert lab.running("site-a") == before
    code, (result,) = push(lab, "site-a", "--one-end")
    assert (code, result["status"], result["migration"]) == (0, "changed", True), result
    running = lab.running("site-a")
    assert section(running, "interface GigabitEthernet0/0") == MIGRATED_TRUNK
    assert "interface GigabitEthernet0/0.2999\n" in running
    assert lab.device("site-b").router.events == []  # the other end is left alone


def test_the_migration_diff_shows_the_single_trunk_xconnect_going(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", BEFORE_SECRET)
    lab = new_lab(configs=_before_pair())
    shown = cli(lab, "diff", "site-a", "--format", "json")
    (result,) = json.loads(shown.stdout)["results"]
    assert (result["status"], result["migration"]) == ("would-change", True)
    assert (
        " no xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet"
        in (result["commands"])
    )
    going = "- xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet"
    assert going in result["diff"].splitlines()


# -- 3, 4: the question before a change, and drift ------------------------------------------------


def test_push_on_a_terminal_shows_the_diff_then_asks_and_no_changes_nothing(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    lab = new_lab()
    before = lab.running("site-a")
    said_no = cli(lab, "push", "site-a", answer="n\n")
    assert said_no.exit_code == 0, said_no.output
    shown = said_no.output
    assert "+interface GigabitEthernet0/0.2996" in shown
    assert "Apply the change to site-a?" in shown
    assert shown.index("+interface GigabitEthernet0/0.2996") < shown.index("Apply the change")
    assert "nothing was changed" in shown
    assert not entered_config_mode(lab, "site-a")
    assert lab.running("site-a") == before
    said_yes = cli(lab, "push", "site-a", answer="y\n")
    assert said_yes.exit_code == 0, said_yes.output
    assert "site-a: changed" in said_yes.output
    lab.device("site-a").router.events.clear()
    unchanged = cli(lab, "push", "site-a", answer="")  # nothing to answer with: must not ask
    assert unchanged.exit_code == 0, unchanged.output
    assert "Apply the change" not in unchanged.output
    assert "site-a: unchanged" in unchanged.output
    assert not entered_config_mode(lab, "site-a")


def test_diff_exit_code_is_1_while_a_router_drifts_from_the_model_and_plain_diff_always_0(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab()
    assert cli(lab, "diff", "site-a", "--exit-code").exit_code == 1
    assert cli(lab, "diff", "site-a").exit_code == 0
    assert not entered_config_mode(lab, "site-a")
    assert push(lab, "site-a")[0] == 0
    assert cli(lab, "diff", "site-a", "--exit-code").exit_code == 0
    assert cli(lab, "diff", "site-a").exit_code == 0
    lab.device("site-a").router.load("no interface GigabitEthernet0/0.2998")  # drift by hand
    assert cli(lab, "diff", "site-a", "--exit-code").exit_code == 1
    assert cli(lab, "diff", "site-a").exit_code == 0


# -- 5: pairs rolled back together --------------------------------------------------------------


@pytest.mark.parametrize("together", [True, False], ids=["rollback-pairs", "without-the-flag"])
def test_rollback_pairs_takes_the_changed_end_back_when_its_peer_was_rolled_back(
    new_lab: Callable[..., Lab], together: bool
) -> None:
    lab = new_lab(faults={"site-b": Faults(refuse=REFUSE_AT_B)})
    before = {name: lab.running(name) for name in PAIR}
    flag = ["--rollback-pairs"] if together else []
    code, results = push(lab, *PAIR, *flag)
    assert code == 3, results
    status = {r["site"]: r["status"] for r in results}
    assert status["site-b"] == "rolled-back"
    assert lab.running("site-b") == before["site-b"]
    if together:
        assert status["site-a"] == "rolled-back"
        assert "site-b rolled back, so this end was too (--rollback-pairs)" in str(
            results[0]["message"]
        )
        assert lab.running("site-a") == before["site-a"]
        replaced = [t for k, t in lab.device("site-a").router.events if k == "replace"]
        assert [f"flash:{name}" for name in replaced] == [results[0]["rollback_file"]]
    else:
        assert status["site-a"] == "changed"
        assert "interface GigabitEthernet0/0.2996\n" in lab.running("site-a")


def test_rollback_pairs_summary_shows_the_state_each_router_is_left_in(
    new_lab: Callable[..., Lab],
) -> None:
    # Issue 19: the pairs were read before the paired rollback (MISSING at site-b, DN at
    # site-a), while both ends are back to their pre-push configs without xconnects.
    lab = new_lab(faults={"site-b": Faults(refuse=REFUSE_AT_B)})
    result = cli(lab, "push", *PAIR, "--rollback-pairs", "--yes", "--format", "json")
    pairs = json.loads(result.stdout)["pairs"]
    assert sorted(p["vlan"] for p in pairs) == list(VLANS)
    assert {(p["here"], p["there"]) for p in pairs} == {("MISSING", "MISSING")}
    verified = cli(lab, "verify", *PAIR, "--format", "json")
    states = {
        (s["site"], s["vlan"], s["state"]) for s in json.loads(verified.stdout)["pseudowires"]
    }
    assert {state for _, _, state in states} == {"MISSING"}


def test_rollback_pairs_leaves_no_saved_change_behind_or_says_so(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(faults={"site-b": Faults(refuse=REFUSE_AT_B)})
    startup = lab.device("site-a").router.startup.body()
    code, results = push(lab, *PAIR, "--rollback-pairs")
    assert code == 3, results
    assert lab.device("site-a").router.startup.body() == startup
    assert str(results[0]["message"]).endswith(", and saved")


# -- 6: stopping ----------------------------------------------------------------------------------


def test_a_stop_after_the_first_chunk_rolls_back_to_the_exact_pre_push_config(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab(sites=_big_sites(tmp_path / "big"))
    before = lab.running("site-0")

    def after_first_chunk() -> bool:
        return len(config_lines(lab, "site-0")) >= CHUNK_LINES

    result = _push_site(lab, "site-0", tmp_path / "state", stop=after_first_chunk)
    assert (result.status.value, result.status.exit_code) == ("rolled-back", 3), result.message
    assert result.lines_sent == CHUNK_LINES
    assert len(result.commands) > 2 * CHUNK_LINES
    assert f"stopped after {CHUNK_LINES} of {len(result.commands)} lines" in result.message
    sent = [mask_secrets(line) for line in config_lines(lab, "site-0")]
    assert sent == [*(c.strip() for c in result.commands[:CHUNK_LINES]), "end"]
    assert lab.running("site-0") == before


def test_a_stop_before_connecting_changes_nothing_and_never_logs_in(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    result = _push_site(lab, "site-a", tmp_path / "state", stop=lambda: True)
    assert (result.status.value, result.status.exit_code) == ("stopped", 1)
    assert "stopped before connecting" in result.message
    assert lab.device("site-a").auth_attempts == 0
    assert lab.device("site-a").router.events == []


def _l2tpgen(*args: str, env: dict[str, str], **popen: Any) -> subprocess.Popen[str]:  # noqa: ANN401
    return subprocess.Popen([sys.executable, "-m", "l2tpgen", *args], env=env, text=True, **popen)


def _read_running(target: Target) -> str:
    connection = connect(target, Login(USERNAME, PASSWORD))
    try:
        return config_body(running_config(connection))
    finally:
        connection.disconnect()


def test_sigint_to_a_push_mid_change_rolls_its_router_back_and_exits_3(tmp_path: Path) -> None:
    sites = _big_sites(tmp_path / "big")
    inventory = tmp_path / "inventory.json"
    env = cli_env(tmp_path)
    latency = 0.3
    with SimUp(
        *("--sites", str(sites), "--latency-ms", str(int(latency * 1000))),
        inventory=inventory,
        env=env,
    ) as sim:
        entry = sim.inventory["sites"]["site-0"]
        target = Target(
            "site-0",
            "127.0.0.1",
            entry["port"],
            "cisco_ios",
            inventory.with_name(inventory.name + ".known_hosts"),
        )
        before = _read_running(target)
        pushing = _l2tpgen(
            *("push", "site-0", "--sites", str(sites), "--inventory", str(inventory)),
            *("--yes", "--format", "json"),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert pushing.stderr is not None
        progress = []
        for line in pushing.stderr:
            progress.append(line)
            if line.startswith("site-0: sending"):
                time.sleep(latency / 2)  # the first chunk is on its way
                pushing.send_signal(signal.SIGINT)
                break
        out, rest = pushing.communicate(timeout=120)
        assert out.strip(), f"no JSON (exit {pushing.returncode}): {rest[-2000:]}"
        (result,) = json.loads(out)["results"]
        assert "site-0: sending" in progress[-1], "".join(progress) + rest
        assert "SIGINT: stopping" in rest
        if result["status"] == "stopped":  # the signal came before the first line
            assert (pushing.returncode, result["lines_sent"]) == (1, 0)
        else:
            assert (pushing.returncode, result["status"]) == (3, "rolled-back"), result
            assert result["lines_sent"] % CHUNK_LINES == 0
            assert result["lines_sent"] < len(result["commands"])
        assert _read_running(target) == before


# -- 7: chunks ----------------------------------------------------------------------------------


def test_a_change_over_two_chunks_long_reaches_the_router_whole(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    sites = _big_sites(tmp_path / "big")
    lab = new_lab(sites=sites)
    code, (result,) = push(lab, "site-0", sites=sites)
    assert (code, result["status"]) == (0, "changed"), result
    commands = result["commands"]
    assert len(commands) > 2 * CHUNK_LINES
    assert result["lines_sent"] == len(commands)
    received = [mask_secrets(line) for line in config_lines(lab, "site-0")]
    assert received == [*(c.strip() for c in commands), "end"]
    assert exec_lines(lab, "site-0").count("configure terminal") == 1
    assert push(lab, "site-0", sites=sites)[1][0]["status"] == "unchanged"


def test_a_line_refused_in_the_second_chunk_stops_the_change_and_rolls_all_of_it_back(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    sites = _big_sites(tmp_path / "big")
    lab = new_lab(sites=sites)
    planned = cli(lab, "diff", "site-0", "--format", "json", sites=sites)
    commands = json.loads(planned.stdout)["results"][0]["commands"]
    at = next(i for i in range(CHUNK_LINES + 20, len(commands)) if "xconnect" in commands[i])
    assert CHUNK_LINES <= at < 2 * CHUNK_LINES < len(commands)
    lab.device("site-0").router.refuse = re.compile("^" + re.escape(commands[at].strip()) + "$")
    before = lab.running("site-0")
    code, (result,) = push(lab, "site-0", sites=sites)
    assert (code, result["status"]) == (3, "rolled-back"), result
    assert result["errors"][0].startswith(commands[at].strip() + ": % Invalid input")
    assert result["lines_sent"] == 2 * CHUNK_LINES
    # the chunk in flight is answered whole; the third is never sent
    assert len(config_lines(lab, "site-0")) == 2 * CHUNK_LINES + 1
    assert lab.running("site-0") == before
    assert lab.device("site-0").router.startup.body() == before


# -- 8: one push per router ---------------------------------------------------------------------


def test_a_second_push_to_a_locked_router_is_refused_naming_the_pid_and_sends_nothing(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    port = lab.device("site-a").port
    with router_lock(tmp_path / "state", "127.0.0.1", port):
        code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused"), result
    assert (
        f"another l2tpgen push to 127.0.0.1:{port} is running (pid {os.getpid()})"
        in (result["message"])
    )
    assert lab.device("site-a").auth_attempts == 0
    assert lab.device("site-a").router.events == []
    code, (result,) = push(lab, "site-a")  # the lock went with its holder
    assert (code, result["status"]) == (0, "changed"), result
