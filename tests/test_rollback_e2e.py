"""``rollback`` and the timed confirm, over real SSH against simulated routers (no mocks).

Every test reads what the router holds afterwards. The timed confirm is IOS's Configuration
Rollback Confirmed Change (Cisco, IOS XE 17.x System Management Configuration Guide,
https://www.cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-rollback-confirmed-change.html):
``configure terminal revert timer MINUTES``, ``configure confirm``, and the archive it requires.
The simulator's timer runs on its router's clock, which these tests move forward: no test waits.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME, Lab
from push_runs import cli, entered_config_mode, exec_lines, on_a_terminal, push

from l2tpgen import load_fleet
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.manual_rollback import RollbackOptions, rollback_site
from l2tpgen.device.push import PushOptions, push_site
from l2tpgen.device.result import Status
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Faults
from l2tpgen.sim.flavor import IOS_XE

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    import pytest

SITE = "site-a"
ARCHIVE = "archive\n path flash:archived-config\n maximum 5\n"


def rollback(lab: Lab, *args: str) -> tuple[int, dict[str, Any]]:
    """``rollback SITE ARGS --yes --format json``: the exit code and the result."""
    result = cli(lab, "rollback", SITE, *args, "--yes", "--format", "json")
    return result.exit_code, json.loads(result.stdout)


def later(lab: Lab, seconds: float) -> None:
    """Move the router's clock ``seconds`` ahead of the real one (its revert timer counts on it)."""
    lab.device(SITE).router.clock = lambda: time.monotonic() + seconds


def archived_lab(new_lab: Callable[..., Lab]) -> Lab:
    """Routers whose config has the archive the timed confirm needs."""
    fleet = load_fleet(SITES)
    return new_lab(configs={SITE: render_base(fleet, SITE) + ARCHIVE})


def test_rollback_restores_the_config_before_the_last_push_and_saves_it(lab: Lab) -> None:
    before = lab.running(SITE)
    code, results = push(lab, SITE)
    assert (code, results[0]["status"]) == (0, "changed")
    assert lab.running(SITE) != before

    code, result = rollback(lab)

    assert (code, result["status"]) == (0, "changed"), result["message"]
    assert lab.running(SITE) == before
    assert lab.device(SITE).router.startup.body() == before  # saved: a reload keeps it
    assert any(
        line.startswith("configure replace flash:l2tpgen-site-a-") for line in exec_lines(lab, SITE)
    )


def test_rollback_with_no_save_restores_but_leaves_the_startup_config(lab: Lab) -> None:
    push(lab, SITE)
    saved = lab.device(SITE).router.startup.body()
    before_rollback_count = len(exec_lines(lab, SITE))

    code, result = rollback(lab, "--no-save")

    assert (code, result["status"]) == (0, "changed")
    assert "not saved" in result["message"]
    assert lab.device(SITE).router.startup.body() == saved
    assert "write memory" not in exec_lines(lab, SITE)[before_rollback_count:]


def test_rollback_list_shows_every_push_copy_newest_first_where_it_is_kept(lab: Lab) -> None:
    first_state = lab.running(SITE)
    push(lab, SITE)
    rollback(lab)  # back to the base config, so the next push changes it again
    push(lab, SITE)

    listed = cli(lab, "rollback", SITE, "--list", "--format", "json")
    copies = json.loads(listed.stdout)["copies"]
    text = cli(lab, "rollback", SITE, "--list").stdout

    assert listed.exit_code == 0
    assert len(copies) == 2  # two pushes, two copies
    names = [c["name"] for c in copies]
    assert names == sorted(names, reverse=True)  # newest first (the name carries the time)
    assert all(c["on_router"] and c["local"] for c in copies)
    assert text.index(names[0]) < text.index(names[1])
    assert "latest" in text.splitlines()[0]
    # both copies hold the state before a push: the base config
    router_files = lab.device(SITE).router.files
    assert all(router_files[n].body() == first_state for n in names)


def test_rollback_to_a_named_copy_goes_back_to_that_copy(lab: Lab) -> None:
    before = lab.running(SITE)
    push(lab, SITE)
    (first,) = list(lab.device(SITE).router.files)
    lab.device(SITE).router.load("interface Loopback77\n description by hand after the push\n")

    code, result = rollback(lab, "--to", f"flash:{first}")

    assert (code, result["status"]) == (0, "changed"), result["message"]
    assert lab.running(SITE) == before


def test_a_copy_no_longer_on_the_router_is_refused_naming_the_local_copy(lab: Lab) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)
    router = lab.device(SITE).router
    (name,) = list(router.files)
    router.files.pop(name)  # pruned or deleted on the router; the local copy stays

    code, result = rollback(lab)

    assert (code, result["status"]) == (1, "refused")
    assert "no longer on the router" in result["message"]
    assert name in result["message"]
    assert "does not upload" in result["message"]
    assert lab.running(SITE) == pushed
    assert not any(line.startswith("configure replace") for line in exec_lines(lab, SITE))


def test_rollback_on_a_terminal_shows_the_masked_diff_and_no_changes_nothing(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)
    on_a_terminal(monkeypatch)

    result = cli(lab, "rollback", SITE, answer="n\n")

    assert result.exit_code == 0
    assert "-pseudowire-class" in result.stdout  # the pushed class goes
    assert "<masked>" in result.stdout
    assert not re.search(
        r"(?m)^[-+ ].*(password|secret) 7 [0-9A-F]", result.stdout
    )  # type 7 hidden
    assert L2TP_SECRET not in result.stdout + result.stderr
    assert lab.running(SITE) == pushed


def test_a_timed_push_confirmed_in_time_stays_and_is_saved(new_lab: Callable[..., Lab]) -> None:
    lab = archived_lab(new_lab)
    saved_before = lab.device(SITE).router.startup.body()

    code, results = push(lab, SITE, "--confirm-within", "5")

    assert (code, results[0]["status"]) == (0, "changed")
    assert "unconfirmed: reverts at" in results[0]["message"]
    assert "configure terminal revert timer 5" in exec_lines(lab, SITE)
    assert lab.device(SITE).router.startup.body() == saved_before  # not saved yet
    pushed = lab.running(SITE)

    later(lab, 4 * 60)  # within the 5 minutes
    confirmed = cli(lab, "confirm", SITE)
    later(lab, 60 * 60)  # long after the timer would have run out
    cli(lab, "rollback", SITE, "--list")  # the router is asked something: the timer could fire

    assert confirmed.exit_code == 0, confirmed.stderr
    assert "configure confirm" in exec_lines(lab, SITE)
    assert lab.running(SITE) == pushed
    assert lab.device(SITE).router.startup.body() == pushed


def test_a_timed_push_not_confirmed_reverts_to_the_pre_push_config(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab)
    before = lab.running(SITE)
    code, _ = push(lab, SITE, "--confirm-within", "2")
    assert code == 0
    assert lab.running(SITE) != before

    later(lab, 2 * 60 + 1)
    confirmed = cli(lab, "confirm", SITE)

    assert lab.running(SITE) == before
    assert confirmed.exit_code == 1
    assert "nothing to confirm" in confirmed.stderr
    assert "configure confirm" not in exec_lines(lab, SITE)


def test_a_timed_push_without_the_archive_is_refused_before_any_change(lab: Lab) -> None:
    before = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "5")

    assert (code, results[0]["status"]) == (1, "refused")
    assert "archive" in results[0]["message"]
    assert lab.running(SITE) == before
    assert not entered_config_mode(lab, SITE)


def test_a_timed_push_to_a_linux_pe_is_refused_before_connecting(tmp_path: Path) -> None:
    fleet = load_fleet(SITES.parent / "examples" / "hub")
    linux = next(n for n, s in fleet.sites.items() if s.effective_platform == "linux")
    dialled: list[Target] = []

    def connector(target: Target, _login: Credentials) -> object:
        dialled.append(target)
        raise AssertionError

    result = push_site(
        fleet,
        linux,
        Target(linux, "127.0.0.1", 1, "linux", tmp_path / "known_hosts"),
        Credentials(USERNAME, PASSWORD),
        PushOptions(state_dir=tmp_path, confirm_within=5),
        connector=connector,
    )

    assert result.status is Status.REFUSED
    assert "reverts itself unless confirmed" in result.message
    assert not dialled


def test_a_timed_push_the_router_refuses_is_rolled_back_and_stays_so_when_the_timer_ends(
    new_lab: Callable[..., Lab],
) -> None:
    fleet = load_fleet(SITES)
    lab = new_lab(
        configs={SITE: render_base(fleet, SITE) + ARCHIVE},
        faults={SITE: Faults(refuse=r"^xconnect ")},
    )
    before = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "2")
    later(lab, 10 * 60)
    cli(lab, "rollback", SITE, "--list")  # the router is asked something: the timer could fire

    assert (code, results[0]["status"]) == (3, "rolled-back")
    assert lab.running(SITE) == before


def test_without_to_the_newest_copy_is_used_the_state_before_the_last_push(lab: Lab) -> None:
    push(lab, SITE)
    rollback(lab, "--no-save")
    lab.device(SITE).router.load("interface Loopback77\n description by hand between pushes\n")
    between = lab.running(SITE)  # what the second push found
    push(lab, SITE)

    code, result = rollback(lab)

    assert code == 0, result["message"]
    assert lab.running(SITE) == between


def test_someone_elses_change_after_the_diff_is_not_replaced_away(lab: Lab) -> None:
    push(lab, SITE)
    device = lab.device(SITE)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target(SITE, "127.0.0.1", device.port, device.router.flavor.device_type, known)
    typed = "interface Loopback55\n description another engineer, while the diff was read\n"

    def approve(_diff: str) -> bool:
        device.router.load(typed)
        return True

    options = RollbackOptions(lab.directory / "state", file_systems=("flash:",))
    result = rollback_site(target, Credentials(USERNAME, PASSWORD), SITE, options, approve)

    assert result.status is Status.ROLLBACK_FAILED
    assert "someone else changed the router" in result.message
    assert "Loopback55" in lab.running(SITE)
    assert not any(line.startswith("configure replace") for line in exec_lines(lab, SITE))


def test_a_copy_on_the_router_without_its_local_file_is_refused(lab: Lab) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)
    for local in (lab.directory / "state" / "rollback").iterdir():
        local.unlink()

    code, result = rollback(lab)

    assert (code, result["status"]) == (1, "refused")
    assert "not in the local state directory" in result["message"]
    assert lab.running(SITE) == pushed


def test_rollback_without_a_terminal_needs_yes(lab: Lab) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)

    result = cli(lab, "rollback", SITE)

    assert result.exit_code == 2  # a usage error
    assert "--yes" in result.stderr
    assert lab.running(SITE) == pushed


def test_rollback_on_an_ios_xe_router_finds_its_copies_on_bootflash(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(flavor=IOS_XE)
    before = lab.running(SITE)
    push(lab, SITE)

    code, result = rollback(lab)

    assert (code, result["status"]) == (0, "changed"), result["message"]
    assert result["rollback_file"].startswith("bootflash:l2tpgen-site-a-")
    assert lab.running(SITE) == before
