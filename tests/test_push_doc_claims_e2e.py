"""What docs/push.md promises about a run of several routers, over real SSH against simulated
routers (issue 34, the claims table: each test holds a sentence no other test held).

- "The flow of a change window": a pair pushed on a terminal shows each router's diff and
  commands, asks once, and a router that needs nothing says ``unchanged`` and is not asked about.
- "How a change is applied": the login's terminal set-up in one write, ``enable`` only at ``>``;
  the read (the revert timer and the lock with the config) in one write, then the rollback copy,
  ``configure terminal`` and ``do show running-config`` in one write.
- Credentials: a push names every missing or refused secret variable in one message.
- "A change that was not saved": an unsaved change outside what l2tpgen owns is no drift, and
  the next changing push saves it too.
- "Many routers at once": a router that cannot be reached does not stop ``diff`` or ``verify``
  of the others; a pair whose pseudowires stay down after both ends were pushed fails the run.
- "Going back later": a router a pair rollback cannot put back is left apart, exit 4, naming
  its forward copy, kept on the router and locally; a SIGTERM while a router is being rolled back
  lets that router finish, then puts it back as it was (exit 130).
- "Rehearse a rollback": ``sim up --fault`` without ``--fault-site`` makes every router misbehave.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from conftest_sim import SimUp, cli_env, run_cli
from netmiko import BaseConnection
from push_runs import (
    cli,
    config_lines,
    entered_config_mode,
    exec_lines,
    on_a_terminal,
    push,
    unreachable,
)

from l2tpgen import load_fleet
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from conftest_sim import Lab

PAIR = ("site-a", "site-b")
HUB = SITES.parent / "examples" / "hub"


def _recorded_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each write l2tpgen makes to a router's SSH channel, from now on, in order."""
    writes: list[str] = []
    real = BaseConnection.write_channel

    def recorded(self: BaseConnection, out_data: str) -> None:
        writes.append(out_data)
        real(self, out_data)

    monkeypatch.setattr(BaseConnection, "write_channel", recorded)
    return writes


def test_a_pair_pushed_on_a_terminal_shows_each_diff_asks_once_and_skips_routers_up_to_date(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    lab = new_lab()
    before = {name: lab.running(name) for name in PAIR}
    said_no = cli(lab, "push", *PAIR, answer="n\n")
    assert said_no.exit_code == 0, said_no.output
    shown = said_no.output
    question = shown.index("Apply the change to site-a, site-b?")
    for name in PAIR:  # each router's diff and commands, before the one question
        assert shown.index(f"--- {name} (running, the part l2tpgen owns)") < question
        assert shown.index(f"commands for {name}:") < question
    assert shown.count("Apply the change") == 1
    assert "nothing was changed" in shown
    for name in PAIR:
        assert not entered_config_mode(lab, name)
        assert lab.running(name) == before[name]

    assert cli(lab, "push", "site-a", "--yes").exit_code == 0
    lab.device("site-a").router.events.clear()
    only_b = cli(lab, "push", *PAIR, answer="n\n")  # site-a needs nothing now
    assert only_b.exit_code == 0, only_b.output
    assert "site-a: unchanged" in only_b.output
    assert "Apply the change to site-b?" in only_b.output
    assert "--- site-a (running" not in only_b.output
    assert not entered_config_mode(lab, "site-a")

    assert cli(lab, "push", "site-b", "--yes").exit_code == 0
    none = cli(lab, "push", *PAIR, answer="")  # nothing to answer with: must not ask
    assert none.exit_code == 0, none.output
    assert "Apply the change" not in none.output
    for name in PAIR:
        assert f"{name}: unchanged" in none.output


def test_a_privileged_login_types_its_terminal_set_up_in_one_write_and_no_enable(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = _recorded_writes(monkeypatch)
    result = cli(lab, "push", "site-a", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "enable" not in exec_lines(lab, "site-a")  # the login is at `#` already
    assert [w for w in writes if "terminal" in w] == ["terminal length 0\nterminal width 511\n"]
    assert "\n" not in writes  # no prompt probing with blank lines


def test_the_read_and_then_the_rollback_copy_with_configuration_mode_go_in_one_write_each(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = _recorded_writes(monkeypatch)
    result = cli(lab, "push", "site-a", "--yes")
    assert result.exit_code == 0, result.output
    reads = [w for w in writes if w.startswith("show running-config\n")]
    assert reads[0] == (  # the revert timer and the lock are read with the config, first
        "show running-config\nshow startup-config\ndir\n"
        "show archive config rollback timer\nshow configuration lock\n"
    )
    assert writes.index(reads[0]) < min(i for i, w in enumerate(writes) if "copy " in w)
    (copying,) = [w for w in writes if "copy running-config" in w]
    assert copying.startswith("copy running-config flash:l2tpgen-site-a-")
    # the empty line answers the copy's question for the file name, ahead
    assert copying.endswith("\n\nconfigure terminal\ndo show running-config\n")


def test_a_router_that_cannot_be_reached_does_not_stop_diff_or_verify_of_the_others(
    lab: Lab,
) -> None:
    unreachable(lab, "site-b")
    for command in ("diff", "verify"):
        result = cli(lab, command, *PAIR, "--format", "json")
        assert result.exit_code == 1, result.output
        document = json.loads(result.stdout)
        if command == "diff":
            by_site = {r["site"]: r["status"] for r in document["results"]}
            assert by_site == {"site-a": "would-change", "site-b": "refused"}
        else:
            assert {row["site"] for row in document["pseudowires"]} == {"site-a"}
        assert "error: site-b (127.0.0.1:" in result.stderr
        assert "error: site-a" not in result.stderr


def test_a_pair_whose_pseudowires_stay_down_after_both_pushes_fails_the_run(
    new_lab: Callable[..., Lab],
) -> None:
    # site-b's router answers on another WAN address than its site file says: push owns no WAN
    # address, so both ends take their change, and every pseudowire stays down (site-a's
    # xconnects name 10.216.44.47 as their peer).
    base = render_base(load_fleet(SITES), "site-b")
    assert " ip address 10.216.44.47 " in base
    moved = base.replace(" ip address 10.216.44.47 ", " ip address 10.216.44.46 ")
    lab = new_lab(configs={"site-b": moved})
    code, results = push(lab, *PAIR)
    assert [r["status"] for r in results] == ["changed", "changed"], results
    assert code == 1
    document = json.loads(cli(lab, "push", *PAIR, "--yes", "--format", "json").stdout)
    assert document["exit_code"] == 1
    assert document["pairs"]
    assert not any(pair["up_both"] for pair in document["pairs"])


def test_a_router_a_pair_rollback_cannot_put_back_is_left_apart_naming_its_forward_copy(
    new_lab: Callable[..., Lab],
) -> None:
    # site-b refuses its rollback's replace; site-a, rolled back first, then refuses the replace
    # that would put it back as it was: it is the one router left apart.
    lab = new_lab(
        faults={
            "site-a": Faults(refuse=r"^configure replace flash:l2tpfwd-"),
            "site-b": Faults(refuse=r"^configure replace flash:l2tpgen-"),
        }
    )
    push(lab, *PAIR)
    result = cli(lab, "rollback", *PAIR, "--yes", "--format", "json")
    assert result.exit_code == 4, result.output
    by_site = {r["site"]: r for r in json.loads(result.stdout)["results"]}
    assert by_site["site-a"]["status"] == "rollback-failed"
    message = by_site["site-a"]["message"]
    assert "could NOT be put back as it was" in message
    kept = [name for name in lab.device("site-a").router.files if name.startswith("l2tpfwd-")]
    assert len(kept) == 1
    assert f"flash:{kept[0]} on the router" in message
    local = Path(os.environ["L2TPGEN_STATE_DIR"]) / "forward" / kept[0]
    assert local.is_file()
    assert str(local) in message
    assert by_site["site-b"]["status"] != "rollback-failed"
    assert not [f for f in lab.device("site-b").router.files if f.startswith("l2tpfwd-")]
    assert config_lines(lab, "site-b")  # it was pushed (its rollback was refused, not skipped)


def test_a_fault_without_fault_site_makes_every_simulated_router_misbehave(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    inventory = tmp_path / "inventory.json"
    with SimUp("--sites", str(SITES), "--fault", "refuse-save", inventory=inventory, env=env):
        pushed = run_cli(
            *("push", *PAIR, "--sites", str(SITES), "--inventory", str(inventory)),
            *("--yes", "--format", "json"),
            env=env,
        )
    assert pushed.returncode == 1, pushed.stdout + pushed.stderr
    statuses = {r["site"]: r["status"] for r in json.loads(pushed.stdout)["results"]}
    assert statuses == dict.fromkeys(PAIR, "unsaved")


def test_a_push_names_every_missing_or_refused_secret_variable_in_one_message(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    lab = new_lab(sites=HUB)
    monkeypatch.delenv("L2TPGEN_IKE_PSK")
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", "bad?secret")
    result = cli(lab, "push", "hub", "--yes", "--format", "json", sites=HUB)
    assert result.exit_code == 1, result.output
    (pushed,) = json.loads(result.stdout)["results"]
    message = pushed["message"]
    assert "L2TPGEN_IKE_PSK is not set" in message
    assert "L2TPGEN_L2TP_SECRET holds `?` or a quote" in message
    assert "bad?secret" not in result.stdout + result.stderr
    assert not entered_config_mode(lab, "hub")


@pytest.fixture
def keep_signal_handlers() -> Iterator[None]:
    """The CLI leaves SIGINT ignored after a stop (so that its exit code stands): not pytest."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in kept.items():
        signal.signal(sig, handler)


@pytest.mark.usefixtures("keep_signal_handlers")
def test_sigterm_while_a_router_is_being_rolled_back_lets_it_finish_then_puts_it_back(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    from l2tpgen.device.manual_rollback import rollback_site as original  # noqa: PLC0415

    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    finished: list[str] = []

    def sigterm_during(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - rollback_site's
        applying = args[3].forward is not None  # the run itself, not the diffs' preflight
        if applying and not finished:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives as site-a's rollback begins
        result = original(*args, **kwargs)
        if applying:
            finished.append(f"{result.site}: {result.status.value}")
        return result

    monkeypatch.setattr("l2tpgen.device.rollback_fleet.rollback_site", sigterm_during)
    result = cli(lab, "rollback", *PAIR, "--yes")
    assert result.exit_code == 130, result.output
    assert finished == ["site-a: changed"]  # site-a's rollback went through; site-b never began
    assert "put back as it was, because the rollback was stopped" in result.stdout
    assert {name: lab.running(name) for name in PAIR} == pushed


def test_an_unsaved_change_outside_what_l2tpgen_owns_is_no_drift_and_a_changing_push_saves_it(
    lab: Lab,
) -> None:
    # docs/push.md, "A change that was not saved": push compares the part it owns; other unsaved
    # changes are not push's, and `write memory` saves them too, as after every push.
    router = lab.device("site-a").router
    assert push(lab, "site-a")[0] == 0
    assert router.load("banner motd ^C typed by a colleague, not saved ^C\n") == []
    assert "banner motd" not in router.startup.body()
    shown = cli(lab, "diff", "site-a", "--exit-code", "--format", "json")
    assert shown.exit_code == 0, shown.output
    (result,) = json.loads(shown.stdout)["results"]
    assert (result["status"], result["message"]) == ("unchanged", "no change needed")
    assert router.load("no interface GigabitEthernet0/0.2998\n") == []  # a change push makes
    code, (pushed,) = push(lab, "site-a")
    assert (code, pushed["status"]) == (0, "changed"), pushed
    assert "banner motd" in router.startup.body()
