"""``rollback`` on a pair (or --all), as push takes them, over real SSH against simulated routers.

A pair with one end rolled back is down; rollback takes both ends, reads every router before
changing any (a router that would be refused keeps the other unchanged too), and reports each.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from conftest_sim import PASSWORD, USERNAME
from push_runs import cli, on_a_terminal, push

from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.manual_rollback import RollbackOptions
from l2tpgen.device.result import Status
from l2tpgen.device.rollback_fleet import rollback_fleet

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pytest
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


def test_a_router_changed_after_the_diffs_were_approved_is_not_rolled_back(lab: Lab) -> None:
    push(lab, *PAIR)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    targets = {
        name: Target(name, "127.0.0.1", lab.device(name).port, "cisco_ios", known) for name in PAIR
    }
    options = {
        name: RollbackOptions(lab.directory / "state", file_systems=("flash:",)) for name in PAIR
    }
    typed = "interface Loopback55\n description another engineer, while the diffs were read\n"

    def approve(diffs: Mapping[str, str]) -> bool:
        assert sorted(diffs) == list(PAIR)
        lab.device("site-b").router.load(typed)
        return True

    results = rollback_fleet(targets, Credentials(USERNAME, PASSWORD), options, approve)

    assert [r.status for r in results] == [Status.CHANGED, Status.REFUSED]
    assert "the router changed since its diff was shown" in results[1].message
    assert "Loopback55" in lab.running("site-b")


def test_list_of_a_pair_in_json_is_one_document_with_each_sites_copies(lab: Lab) -> None:
    push(lab, *PAIR)

    result = cli(lab, "rollback", *PAIR, "--list", "--format", "json")

    assert result.exit_code == 0
    listed = json.loads(result.stdout)["sites"]
    assert [s["site"] for s in listed] == list(PAIR)
    assert all(len(s["copies"]) == 1 and s["copies"][0]["on_router"] for s in listed)
