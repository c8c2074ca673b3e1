"""``rollback`` on a pair (or --all), as push takes them, over real SSH against simulated routers.

A pair with one end rolled back is down; rollback takes both ends, reads every router before
changing any (a router that would be refused keeps the other unchanged too), and reports each.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest_sim import PASSWORD, USERNAME
from push_runs import cli, entered_config_mode, exec_lines, on_a_terminal, push, unreachable

from l2tpgen.device.connection import connect
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.manual_rollback import RollbackOptions
from l2tpgen.device.manual_rollback import rollback_site as original
from l2tpgen.device.result import Status
from l2tpgen.device.rollback_fleet import rollback_fleet
from l2tpgen.errors import DeviceError
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from conftest_sim import Lab

PAIR = ("site-a", "site-b")


def rollback(lab: Lab, *args: str) -> tuple[int, list[dict[str, Any]]]:
    """``rollback ARGS --yes --format json``: the exit code and one result per router."""
    result = cli(lab, "rollback", *args, "--yes", "--format", "json")
    return result.exit_code, json.loads(result.stdout)["results"]


def test_rollback_of_a_pair_takes_both_ends_back_and_saves_each(lab: Lab) -> None:
    before = {name: lab.running(name) for name in PAIR}
    code, results = push(lab, *PAIR)
    assert (code, [r["status"] for r in results]) == (0, ["changed", "changed"])

    code, results = rollback(lab, *PAIR)

    assert code == 0
    assert [(r["site"], r["status"]) for r in results] == [(n, "changed") for n in PAIR]
    assert all("rolled back to flash:l2tpgen-" in r["message"] for r in results)
    for name in PAIR:
        assert lab.running(name) == before[name]
        assert lab.device(name).router.startup.body() == before[name]


def test_rollback_all_takes_every_site_of_the_fleet(lab: Lab) -> None:
    before = {name: lab.running(name) for name in PAIR}
    push(lab, *PAIR)

    code, results = rollback(lab, "--all")

    assert (code, sorted(r["site"] for r in results)) == (0, list(PAIR))
    assert {name: lab.running(name) for name in PAIR} == before


def test_one_end_that_would_be_refused_keeps_the_other_end_unchanged(lab: Lab) -> None:
    code, _ = push(lab, "site-a")  # site-b was never pushed: it has no rollback copy
    assert code == 0
    pushed = lab.running("site-a")

    code, results = rollback(lab, *PAIR)

    assert code == 1
    by_site = {r["site"]: r for r in results}
    assert by_site["site-b"]["status"] == "refused"
    assert "site-b has no rollback copy" in by_site["site-b"]["message"]
    assert by_site["site-a"]["status"] == "refused"
    assert "site-b would be refused" in by_site["site-a"]["message"]
    assert lab.running("site-a") == pushed  # nothing changed on the end that could go


def test_on_a_terminal_both_diffs_are_shown_and_no_changes_neither(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    on_a_terminal(monkeypatch)

    result = cli(lab, "rollback", *PAIR, answer="n\n")

    assert result.exit_code == 0
    assert "site-a (running)" in result.stdout
    assert "site-b (running)" in result.stdout
    assert "Roll site-a, site-b back to these configs?" in result.stderr
    assert {name: lab.running(name) for name in PAIR} == pushed


def test_rolling_back_one_end_says_its_peer_stays(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    push(lab, *PAIR)
    on_a_terminal(monkeypatch)

    result = cli(lab, "rollback", "site-a", answer="n\n")

    assert "site-a's peer site-b is not rolled back with it" in result.stderr
    assert "`l2tpgen rollback site-a site-b`" in result.stderr


def test_to_names_one_sites_copy_and_is_refused_with_several(lab: Lab) -> None:
    result = cli(lab, "rollback", *PAIR, "--to", "flash:x.cfg", "--yes")
    assert result.exit_code == 2
    assert "a copy's name belongs to one site" in result.stderr


def targets_and_options(lab: Lab) -> tuple[dict[str, Target], dict[str, RollbackOptions]]:
    """What ``rollback site-a site-b`` hands the library: the lab's routers, the state directory."""
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    targets = {
        name: Target(name, "127.0.0.1", lab.device(name).port, "cisco_ios", known) for name in PAIR
    }
    state = Path(os.environ["L2TPGEN_STATE_DIR"])  # where push kept its copies
    options = {name: RollbackOptions(state, file_systems=("flash:",)) for name in PAIR}
    return targets, options


def no_forward_copies_left(lab: Lab) -> bool:
    """Neither router nor the state directory keeps a copy made for the way forward."""
    on_routers = [f for n in PAIR for f in lab.device(n).router.files if "l2tpfwd-" in f]
    local = Path(os.environ["L2TPGEN_STATE_DIR"]) / "forward"
    return not on_routers and not (local.is_dir() and any(local.iterdir()))


def test_a_pair_with_one_end_changed_after_approval_leaves_both_as_they_were(lab: Lab) -> None:
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    saved = {name: lab.device(name).router.startup.body() for name in PAIR}
    targets, options = targets_and_options(lab)
    typed = "interface Loopback55\n description another engineer, while the diffs were read\n"

    def approve(diffs: Mapping[str, str]) -> bool:
        assert sorted(diffs) == list(PAIR)
        lab.device("site-b").router.load(typed)
        return True

    results = rollback_fleet(targets, Credentials(USERNAME, PASSWORD), options, approve)

    assert [r.status for r in results] == [Status.ROLLED_BACK, Status.REFUSED]
    assert "the router changed since its diff was shown" in results[1].message
    assert "then put back as it was, because site-b could not be rolled back" in results[0].message
    assert lab.running("site-a") == pushed["site-a"]  # rolled back, then forward again
    assert "Loopback55" in lab.running("site-b")  # the engineer's change stays
    assert {name: lab.device(name).router.startup.body() for name in PAIR} == saved
    assert no_forward_copies_left(lab)


def test_when_the_second_ends_replace_fails_the_first_is_put_back_and_the_exit_is_3(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(faults={"site-b": Faults(refuse=r"^configure replace flash:l2tpgen-")})
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    saved = {name: lab.device(name).router.startup.body() for name in PAIR}

    code, results = rollback(lab, *PAIR)

    by_site = {r["site"]: r for r in results}
    assert code == 3
    assert by_site["site-a"]["status"] == "rolled-back"
    assert "put back as it was, because site-b could not be" in by_site["site-a"]["message"]
    assert by_site["site-b"]["status"] == "rolled-back"
    assert "did not restore" in by_site["site-b"]["message"]
    assert {name: lab.running(name) for name in PAIR} == pushed
    assert {name: lab.device(name).router.startup.body() for name in PAIR} == saved
    assert no_forward_copies_left(lab)


def test_a_router_unreachable_at_its_turn_puts_the_first_back(lab: Lab) -> None:
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    targets, options = targets_and_options(lab)
    calls: list[str] = []

    def connector(target: Target, login: Credentials) -> Any:  # noqa: ANN401 - netmiko
        calls.append(target.site)
        if target.site == "site-b" and "site-a" in calls[calls.index("site-b") + 1 :]:
            raise DeviceError("connection refused (the router went away after the preflight)")
        return connect(target, login)

    results = rollback_fleet(
        targets, Credentials(USERNAME, PASSWORD), options, lambda _d: True, connector=connector
    )

    assert [r.status for r in results] == [Status.ROLLED_BACK, Status.REFUSED]
    assert "the router went away" in results[1].message
    assert {name: lab.running(name) for name in PAIR} == pushed


def test_a_stop_between_routers_puts_the_first_back_and_leaves_the_second(lab: Lab) -> None:
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}
    targets, options = targets_and_options(lab)

    stopped: list[bool] = []

    def stop() -> bool:  # Ctrl-C arrives once site-a has been rolled back
        if lab.running("site-a") != pushed["site-a"]:
            stopped.append(True)
        return bool(stopped)

    results = rollback_fleet(
        targets, Credentials(USERNAME, PASSWORD), options, lambda _d: True, stop=stop
    )

    assert [r.status for r in results] == [Status.ROLLED_BACK, Status.STOPPED]
    assert "because the rollback was stopped" in results[0].message
    assert {name: lab.running(name) for name in PAIR} == pushed
    assert not any(t.startswith("configure replace") for t in exec_lines(lab, "site-b"))


@pytest.fixture
def keep_signal_handlers() -> Iterator[None]:
    """The CLI leaves SIGINT ignored after a stop (so that its exit code stands): not pytest."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in kept.items():
        signal.signal(sig, handler)


def test_ctrl_c_between_routers_exits_130_with_each_routers_state_printed(
    lab: Lab,
    monkeypatch: pytest.MonkeyPatch,
    keep_signal_handlers: None,  # noqa: ARG001 - restores pytest's handlers afterwards
) -> None:
    push(lab, *PAIR)
    pushed = {name: lab.running(name) for name in PAIR}

    def rollback_then_ctrl_c(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        result = original(*args, **kwargs)
        if result.site == "site-a" and result.status is Status.CHANGED:
            os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, between the two routers
        return result

    monkeypatch.setattr("l2tpgen.device.rollback_fleet.rollback_site", rollback_then_ctrl_c)

    result = cli(lab, "rollback", *PAIR, "--yes")

    assert result.exit_code == 130
    assert "SIGINT: stopping; the router being rolled back finishes" in result.stderr
    assert "SIGINT: the rollback was stopped" in result.stderr
    assert "put back as it was, because the rollback was stopped" in result.stdout
    assert "stopped first" in result.stdout + result.stderr
    assert {name: lab.running(name) for name in PAIR} == pushed


def test_an_unreachable_end_keeps_the_other_unchanged_in_rollback(lab: Lab) -> None:
    push(lab, *PAIR)
    pushed = lab.running("site-a")
    unreachable(lab, "site-b")

    code, results = rollback(lab, *PAIR)

    by_site = {r["site"]: r for r in results}
    assert code == 1
    assert by_site["site-b"]["status"] == "refused"
    assert "site-b would be refused" in by_site["site-a"]["message"]
    assert lab.running("site-a") == pushed
    assert not any(t.startswith("configure replace") for t in exec_lines(lab, "site-a"))


def test_an_unreachable_end_keeps_the_other_unchanged_in_push(lab: Lab) -> None:
    before = lab.running("site-a")
    unreachable(lab, "site-b")

    code, results = push(lab, *PAIR)

    by_site = {r["site"]: r for r in results}
    assert code == 1
    assert by_site["site-b"]["status"] in {"refused", "failed"}
    assert "site-b would be refused" in by_site["site-a"]["message"]
    assert lab.running("site-a") == before
    assert not entered_config_mode(lab, "site-a")


def test_list_of_a_pair_in_json_is_one_document_with_each_sites_copies(lab: Lab) -> None:
    push(lab, *PAIR)

    result = cli(lab, "rollback", *PAIR, "--list", "--format", "json")

    assert result.exit_code == 0
    listed = json.loads(result.stdout)["sites"]
    assert [s["site"] for s in listed] == list(PAIR)
    assert all(len(s["copies"]) == 1 and s["copies"][0]["on_router"] for s in listed)
