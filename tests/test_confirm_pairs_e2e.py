"""``confirm`` on a pair (or --all) after ``push --confirm-within``, and only this login's change.

Over real SSH against simulated routers. ``push A B --confirm-within N`` arms a revert timer on
each router; confirming one and not the other lets the other revert and splits the pair, so
``confirm`` takes the sites push takes and confirms every router of the run or none.

What the router prints is IOS's: ``show archive config rollback timer`` with a change pending is
Cisco's sample output (IOS Configuration Fundamentals Command Reference, ``show archive config
rollback timer``: ``Time configured(or reconfigured): ...`` / ``Timer type: absolute timer`` /
``Timer value: 2 min`` / ``User: console``; "User: Displays the username"). napalm's IOS driver
(napalm-automation/napalm, ``napalm/ios/ios.py``: ``confirm_commit`` compares
``_get_pending_commits()``'s ``user``, read with ``User: (?P<user>.*)``, with its own
``self.username`` and raises "Configuration session active but not owned by ..." otherwise)
confirms only its own login's change; so does ``confirm``. The simulator names the session's SSH
login as the ``User:`` (``console`` for a session without one). No test waits: the routers'
clocks are moved forward.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from conftest import SITES
from conftest_sim import PASSWORD, USERNAME, Lab
from push_runs import cli, exec_lines, push, unreachable

from l2tpgen import load_fleet
from l2tpgen.device.confirm_fleet import confirm_routers
from l2tpgen.device.connection import connect
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.result import Status
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

PAIR = ("site-a", "site-b")
ARCHIVE = "archive\n path flash:archived-config\n maximum 5\n"
SHOW_TIMER = "show archive config rollback timer"
NONE_PENDING = "%No Rollback Confirmed Change pending"


def archived_pair(new_lab: Callable[..., Lab], **kwargs: Any) -> Lab:  # noqa: ANN401
    """Both routers with the archive a timed push needs."""
    fleet = load_fleet(SITES)
    return new_lab(configs={n: render_base(fleet, n) + ARCHIVE for n in PAIR}, **kwargs)


def later(lab: Lab, name: str, seconds: float) -> None:
    """Move one router's clock ``seconds`` ahead (its revert timer counts on it), and ask it
    something so that a timer that ran out fires."""
    router = lab.device(name).router
    router.clock = lambda: time.monotonic() + seconds
    router.handle(SHOW_TIMER)


def timer(lab: Lab, name: str) -> str:
    return lab.device(name).router.handle(SHOW_TIMER)


def confirm(lab: Lab, *args: str) -> tuple[int, dict[str, dict[str, Any]], str]:
    """``confirm ARGS --format json``: the exit code, each router's result, and stderr."""
    result = cli(lab, "confirm", *args, "--format", "json")
    results = json.loads(result.stdout)["results"]
    return result.exit_code, {r["site"]: r for r in results}, result.stderr


def timed_pair_push(lab: Lab) -> dict[str, str]:
    """``push site-a site-b --confirm-within 2``; each router's running config afterwards."""
    code, results = push(lab, *PAIR, "--confirm-within", "2")
    assert code == 0, [r["message"] for r in results]
    assert all("unconfirmed: reverts at" in r["message"] for r in results)
    assert all("`l2tpgen confirm site-a site-b`" in r["message"] for r in results)
    return {name: lab.running(name) for name in PAIR}


def test_the_timer_names_the_login_that_armed_it(new_lab: Callable[..., Lab]) -> None:
    lab = archived_pair(new_lab)
    timed_pair_push(lab)

    assert f"User: {USERNAME}" in timer(lab, "site-a")


def test_a_pair_timed_push_confirmed_as_a_pair_keeps_the_new_config_on_both_ends(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab)
    before = {name: lab.running(name) for name in PAIR}
    pushed = timed_pair_push(lab)

    code, results, stderr = confirm(lab, *PAIR)

    assert code == 0, stderr
    assert [results[n]["status"] for n in PAIR] == ["changed", "changed"]
    for name in PAIR:
        later(lab, name, 60 * 60)  # long after both 2-minute timers would have run out
        assert timer(lab, name) == NONE_PENDING
        assert lab.running(name) == pushed[name] != before[name]
        assert lab.device(name).router.startup.body() == pushed[name]


def test_confirm_all_confirms_every_router_of_the_fleet(new_lab: Callable[..., Lab]) -> None:
    lab = archived_pair(new_lab)
    pushed = timed_pair_push(lab)

    code, results, _ = confirm(lab, "--all")

    assert (code, sorted(results)) == (0, list(PAIR))
    for name in PAIR:
        later(lab, name, 60 * 60)
        assert lab.running(name) == pushed[name]


def test_confirm_refuses_another_users_pending_change_quoting_its_user_and_sends_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab)
    router = lab.device("site-a").router
    colleague = router.open_terminal()
    colleague.user = "alice"
    colleague.handle("configure terminal revert timer 5")
    colleague.handle("interface Loopback90")
    colleague.handle(" description alice's timed change")
    colleague.handle("end")
    saved_before = router.startup.body()

    code, results, stderr = confirm(lab, "site-a")

    assert code == 1
    assert results["site-a"]["status"] == "refused"
    assert "`User: alice`" in stderr
    assert f"logs in as `{USERNAME}`" in stderr
    assert "configure confirm" not in exec_lines(lab, "site-a")
    assert router.startup.body() == saved_before
    assert "User: alice" in timer(lab, "site-a")  # still alice's, still pending


def test_a_pair_whose_other_end_already_reverted_is_confirmed_on_neither(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab)
    before = {name: lab.running(name) for name in PAIR}
    timed_pair_push(lab)
    later(lab, "site-b", 3 * 60)  # site-b's timer ran out: it went back
    assert lab.running("site-b") == before["site-b"]

    code, results, stderr = confirm(lab, *PAIR)

    assert code == 1
    assert results["site-b"]["status"] == "refused"
    assert "nothing to confirm" in results["site-b"]["message"]
    assert results["site-a"]["status"] == "refused"
    message = results["site-a"]["message"]
    assert "site-b cannot be confirmed now" in message
    assert "Timer value: 2 min" in message  # the state it is in, in the router's words
    assert "l2tpgen confirm site-a site-b" in message  # and what to do
    assert "site-b cannot be confirmed now" in stderr
    assert "configure confirm" not in exec_lines(lab, "site-a")
    later(lab, "site-a", 3 * 60)
    assert {name: lab.running(name) for name in PAIR} == before  # the pair stays whole


def test_an_unreachable_end_holds_the_other_unconfirmed(new_lab: Callable[..., Lab]) -> None:
    lab = archived_pair(new_lab)
    timed_pair_push(lab)
    unreachable(lab, "site-b")

    code, results, _ = confirm(lab, *PAIR)

    assert code == 1
    assert results["site-b"]["status"] == "refused"
    assert "site-b cannot be confirmed now" in results["site-a"]["message"]
    assert "configure confirm" not in exec_lines(lab, "site-a")
    assert "Timer value: 2 min" in timer(lab, "site-a")


def test_a_confirmation_refused_on_the_second_end_says_the_pair_is_split_and_how_to_mend_it(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab)
    pushed = timed_pair_push(lab)
    lab.device("site-b").router.refuse = re.compile(r"^configure confirm$")

    code, results, _ = confirm(lab, *PAIR)

    assert code == 1
    assert results["site-a"]["status"] == "changed"
    assert "the pair is split" in results["site-a"]["message"]
    assert results["site-b"]["status"] == "failed"
    message = results["site-b"]["message"]
    assert "NOT confirmed" in message
    assert "while site-a was confirmed" in message
    assert "l2tpgen push site-a site-b" in message
    assert "l2tpgen rollback site-a" in message
    assert lab.running("site-a") == pushed["site-a"]


def test_a_confirmation_refused_on_the_first_end_leaves_the_other_to_revert_with_it(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab, faults={"site-a": Faults(refuse=r"^configure confirm$")})
    before = {name: lab.running(name) for name in PAIR}
    timed_pair_push(lab)

    code, results, _ = confirm(lab, *PAIR)

    assert code == 1
    assert results["site-a"]["status"] == "failed"
    assert results["site-b"]["status"] == "refused"
    assert "left to revert with it" in results["site-b"]["message"]
    assert "configure confirm" not in exec_lines(lab, "site-b")
    for name in PAIR:
        later(lab, name, 3 * 60)
    assert {name: lab.running(name) for name in PAIR} == before


def test_a_timer_that_runs_out_between_the_read_and_the_confirm_is_not_reported_confirmed(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = archived_pair(new_lab)
    before = {name: lab.running(name) for name in PAIR}
    timed_pair_push(lab)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    targets = {n: Target(n, "127.0.0.1", lab.device(n).port, "cisco_ios", known) for n in PAIR}

    def connector(target: Target, login: Credentials) -> Any:  # noqa: ANN401 - netmiko
        if target.site == "site-b":  # site-a was read: its timer runs out now
            lab.device("site-a").router.clock = lambda: time.monotonic() + 60 * 60
        return connect(target, login)

    results = confirm_routers(
        targets,
        Credentials(USERNAME, PASSWORD),
        tmp_path / "state",
        dict.fromkeys(PAIR, "write memory"),
        connector=connector,
    )

    assert [r.status for r in results] == [Status.FAILED, Status.REFUSED], results
    assert "its timer ran out first" in results[0].message
    assert "left to revert with it" in results[1].message
    later(lab, "site-b", 60 * 60)
    assert {name: lab.running(name) for name in PAIR} == before


def test_rollback_leaves_another_users_pending_change_alone_and_names_its_user(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(new_lab)
    assert push(lab, "site-a")[0] == 0
    router = lab.device("site-a").router
    colleague = router.open_terminal()
    colleague.user = "alice"
    colleague.handle("configure terminal revert timer 5")
    colleague.handle("interface Loopback91")
    colleague.handle(" description alice's timed change")
    colleague.handle("end")
    during = lab.running("site-a")

    result = cli(lab, "rollback", "site-a", "--yes", "--format", "json")

    outcome = json.loads(result.stdout)  # one site: its result
    assert result.exit_code == 1
    assert outcome["status"] == "refused"
    assert "not this login's change (`User: alice`)" in outcome["message"]
    assert lab.running("site-a") == during
    sent = exec_lines(lab, "site-a")
    assert "configure confirm" not in sent  # their timer is not ended for them
    assert not any(line.startswith("configure replace") for line in sent)
    assert "User: alice" in timer(lab, "site-a")  # still theirs, still pending


def test_a_timed_pair_rolled_back_then_put_back_says_its_timer_is_not_armed_again(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_pair(
        new_lab, faults={"site-b": Faults(refuse=r"^configure replace flash:l2tpgen-")}
    )
    pushed = timed_pair_push(lab)

    result = cli(lab, "rollback", *PAIR, "--yes", "--format", "json")

    by_site = {r["site"]: r for r in json.loads(result.stdout)["results"]}
    assert result.exit_code == 3
    assert by_site["site-a"]["status"] == "rolled-back"
    assert (
        "its revert timer, ended by the rollback, is not armed again"
        in by_site["site-a"]["message"]
    )
    assert lab.running("site-a") == pushed["site-a"]
    assert timer(lab, "site-a") == NONE_PENDING  # as said: the change is kept from now on
