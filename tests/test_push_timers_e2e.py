"""Push, rollback and confirm over time: the router's revert timer and another session's lock.

Over real SSH against simulated routers. What the router prints is IOS's:
``show archive config rollback timer`` with a change pending is Cisco's sample output (IOS
Configuration Fundamentals Command Reference: ``Time configured(or reconfigured): ...`` / ``Timer
type: absolute timer`` / ``Timer value: 2 min`` / ``User: console``), ``%No Rollback Confirmed
Change pending`` when none (napalm's IOS commit-confirm integration test); ``show configuration
lock`` is the output quoted by booches.nl (``Type : EXCLUSIVE`` / ``State : LOCKED``) and
darenmatthews.com (``Type : NO LOCK`` / ``State : FREE``). A failed timed push ends its timer
with ``configure confirm`` (Cisco, "Configuration Rollback Confirmed Change":
https://www.cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-rollback-confirmed-change.html).
The simulator's timer runs on its router's clock, which these tests move forward: no test waits.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME, Lab
from push_runs import cli, entered_config_mode, exec_lines, push

from l2tpgen import load_fleet
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.manual_rollback import RollbackOptions, rollback_site
from l2tpgen.device.push import PushOptions, push_site
from l2tpgen.device.result import PushResult, Status
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.sim.terminal import Terminal

SITE = "site-a"
ARCHIVE = "archive\n path flash:archived-config\n maximum 5\n"
SHOW_TIMER = "show archive config rollback timer"
NONE_PENDING = "%No Rollback Confirmed Change pending"


def later(lab: Lab, seconds: float) -> None:
    """Move the router's clock ``seconds`` ahead of the real one (its revert timer counts on it)."""
    lab.device(SITE).router.clock = lambda: time.monotonic() + seconds


def archived_lab(new_lab: Callable[..., Lab], extra: str = "", **kwargs: Any) -> Lab:  # noqa: ANN401
    """Routers whose config has the archive the timed confirm needs (and ``extra``)."""
    fleet = load_fleet(SITES)
    return new_lab(configs={SITE: render_base(fleet, SITE) + ARCHIVE + extra}, **kwargs)


def timer(lab: Lab) -> str:
    """What the router says of its revert timer (asking it lets an expired timer fire)."""
    return lab.device(SITE).router.handle(SHOW_TIMER)


def saved(lab: Lab) -> str:
    return lab.device(SITE).router.startup.body()


def rollback(lab: Lab, *args: str) -> tuple[int, dict[str, Any]]:
    result = cli(lab, "rollback", SITE, *args, "--yes", "--format", "json")
    return result.exit_code, json.loads(result.stdout)


def another_session(lab: Lab) -> Terminal:
    """A second engineer's session on the router (the config lock is per session)."""
    return lab.device(SITE).router.open_terminal()


def push_site_a(lab: Lab, state: Path, **options: Any) -> PushResult:  # noqa: ANN401
    device = lab.device(SITE)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target(SITE, "127.0.0.1", device.port, device.router.flavor.device_type, known)
    pushed = PushOptions(state_dir=state, environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET}, **options)
    return push_site(lab.fleet, SITE, target, Credentials(USERNAME, PASSWORD), pushed)


# -- a failed timed push leaves no timer armed ----------------------------------------------------


def test_a_refused_timed_push_then_a_push_stay_new_in_running_and_startup_after_the_old_timer(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab, faults={SITE: Faults(refuse=r"^xconnect ")})
    before = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "2")
    assert (code, results[0]["status"]) == (3, "rolled-back"), results[0]["message"]
    assert "revert timer was ended (`configure confirm`)" in results[0]["message"]
    assert lab.running(SITE) == before
    assert timer(lab) == NONE_PENDING

    lab.device(SITE).router.refuse = None  # the line is fixed; an ordinary push follows
    code, results = push(lab, SITE)
    assert (code, results[0]["status"]) == (0, "changed"), results[0]["message"]
    pushed = lab.running(SITE)

    later(lab, 10 * 60)  # long after the refused push's timer would have run out
    timer(lab)

    assert lab.running(SITE) == pushed != before
    assert saved(lab) == pushed


@pytest.mark.parametrize("lines", [5, 20, 34])
def test_a_timed_push_whose_connection_drops_ends_its_timer_after_the_rollback(
    new_lab: Callable[..., Lab], lines: int
) -> None:
    lab = archived_lab(new_lab, faults={SITE: Faults(drop_after_config_lines=lines)})
    before = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "2")

    assert (code, results[0]["status"]) == (3, "rolled-back"), results[0]["message"]
    assert lab.running(SITE) == before
    assert timer(lab) == NONE_PENDING
    assert "configure confirm" in exec_lines(lab, SITE)


def test_a_timed_push_stopped_before_its_first_line_ends_the_timer_it_started(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = archived_lab(new_lab)
    before = lab.running(SITE)
    stop: list[bool] = []

    def listen(_site: str, phase: str) -> None:
        if phase.startswith("sending "):
            stop.append(True)  # the stop comes once configuration mode is entered

    result = push_site_a(
        lab, tmp_path / "state", confirm_within=2, progress=listen, stop=lambda: bool(stop)
    )

    assert result.status is Status.STOPPED, result.message
    assert "revert timer was ended" in result.message
    assert lab.running(SITE) == before
    assert timer(lab) == NONE_PENDING


def test_a_timed_push_refused_for_a_change_after_its_read_ends_the_timer_it_started(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = archived_lab(new_lab)
    router = lab.device(SITE).router

    def colleague(_site: str, phase: str) -> None:
        if phase == "saving a rollback copy":  # after push's read, before its timer starts
            router.load("interface Loopback81\n description typed by a colleague\n")

    result = push_site_a(lab, tmp_path / "state", confirm_within=2, progress=colleague)

    assert result.status is Status.REFUSED, result.message
    assert "config changed after push read it" in result.message
    assert "revert timer push started was ended" in result.message
    assert timer(lab) == NONE_PENDING
    later(lab, 10 * 60)
    timer(lab)
    assert "Loopback81" in lab.running(SITE)  # the colleague's change is not reverted later


# -- inside a timed push's confirm window ---------------------------------------------------------


def test_a_push_inside_a_confirm_window_is_refused_with_the_routers_timer_and_changes_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab)
    other = another_session(lab)
    other.handle("configure terminal revert timer 5")
    other.handle("interface Loopback77")
    other.handle(" description a colleague's timed change")
    other.handle("end")
    during = lab.running(SITE)
    saved_before = saved(lab)

    code, results = push(lab, SITE)

    assert (code, results[0]["status"]) == (1, "refused")
    message = results[0]["message"]
    assert "waits for confirmation" in message
    assert "Timer value: 5 min" in message  # the router's own words
    assert "not this login's change (`User: console`)" in message  # confirm would refuse it
    assert f"l2tpgen confirm {SITE}" not in message
    assert lab.running(SITE) == during
    assert saved(lab) == saved_before  # not saved under the colleague's timer either
    assert not entered_config_mode_by_push(lab)


def entered_config_mode_by_push(lab: Lab) -> bool:
    """Whether a ``configure terminal`` came after the colleague's timed one."""
    lines = [t for k, t in lab.device(SITE).router.events if k == "exec"]
    return any(line.startswith("configure terminal") for line in lines[1:])


def test_a_second_timed_push_in_the_window_is_refused_quoting_the_pending_timer(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab)
    assert push(lab, SITE, "--confirm-within", "5")[0] == 0
    lab.device(SITE).router.load("interface Loopback78\n description changed by hand\n")
    during = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "5")

    assert (code, results[0]["status"]) == (1, "refused")
    assert "Timer value: 5 min" in results[0]["message"]
    assert f"Run `l2tpgen confirm {SITE}` to keep it" in results[0]["message"]  # our own change
    assert "check this login may configure" not in results[0]["message"]
    assert lab.running(SITE) == during
    assert exec_lines(lab, SITE).count("configure terminal revert timer 5") == 1


def test_a_timer_started_after_the_read_is_reported_in_the_routers_words(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = archived_lab(new_lab)
    before = lab.running(SITE)
    other = another_session(lab)

    def colleague(_site: str, phase: str) -> None:
        if phase == "saving a rollback copy":  # after push's read, before its copy's write
            other.handle("configure terminal revert timer 9")
            other.handle("end")

    result = push_site_a(lab, tmp_path / "state", confirm_within=2, progress=colleague)

    assert result.status is Status.REFUSED, result.message
    assert "% Rollback Confirmed Change already pending" in result.message
    assert "waits for confirmation already" in result.message
    assert "check this login may configure" not in result.message
    assert lab.running(SITE) == before
    assert "Timer value: 9 min" in timer(lab)  # the colleague's timer is theirs: left alone


def test_rollback_inside_a_confirm_window_ends_the_timer_so_the_rollback_stays(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab)
    before = lab.running(SITE)
    assert push(lab, SITE, "--confirm-within", "5")[0] == 0
    assert "Timer value: 5 min" in timer(lab)

    code, result = rollback(lab)

    assert (code, result["status"]) == (0, "changed"), result["message"]
    assert "`configure confirm` after the replace" in result["message"]
    assert timer(lab) == NONE_PENDING
    later(lab, 60 * 60)
    timer(lab)
    assert lab.running(SITE) == before
    assert saved(lab) == before


# -- another session's exclusive configuration lock ----------------------------------------------


def test_rollback_under_another_sessions_exclusive_lock_is_refused_and_changes_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab, "configuration mode exclusive auto\n")
    assert push(lab, SITE)[0] == 0
    other = another_session(lab)
    other.handle("configure terminal")  # auto mode: the lock is theirs
    other.handle("interface Loopback79")  # a half-typed change
    during = lab.running(SITE)

    code, result = rollback(lab)

    assert (code, result["status"]) == (1, "refused"), result["message"]
    assert "another session holds the router's configuration lock" in result["message"]
    assert "locked by User unknown" in result["message"]
    assert lab.running(SITE) == during
    assert not any(line.startswith("configure replace") for line in exec_lines(lab, SITE))


def test_a_lock_taken_after_rollbacks_read_refuses_its_replace_which_changes_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab, "configuration mode exclusive manual\n")
    assert push(lab, SITE)[0] == 0
    pushed = lab.running(SITE)
    other = another_session(lab)
    device = lab.device(SITE)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target(SITE, "127.0.0.1", device.port, device.router.flavor.device_type, known)

    def approve(_diff: str) -> bool:
        other.handle("configure terminal lock")  # taken after the read, before the replace
        return True

    state = Path(os.environ["L2TPGEN_STATE_DIR"])  # where the push above kept its copy
    options = RollbackOptions(state, file_systems=("flash:",))
    result = rollback_site(target, Credentials(USERNAME, PASSWORD), SITE, options, approve)

    assert (result.status, result.status.exit_code) == (Status.REFUSED, 1), result.message
    assert result.message.startswith("nothing was changed: another session holds")
    assert "Configuration mode locked exclusively by user" in result.message  # the router's text
    assert lab.running(SITE) == pushed


def test_confirm_under_another_sessions_lock_is_refused_and_saves_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab, "configuration mode exclusive auto\n")
    saved_before = saved(lab)
    assert push(lab, SITE, "--confirm-within", "5")[0] == 0
    other = another_session(lab)
    other.handle("configure terminal")
    other.handle("interface Loopback80")  # half-typed: `write memory` would save it

    confirmed = cli(lab, "confirm", SITE)

    assert confirmed.exit_code == 1
    assert "another session holds the router's configuration lock" in confirmed.stderr
    assert saved(lab) == saved_before
    assert "configure confirm" not in exec_lines(lab, SITE)


def test_a_lock_taken_after_pushs_read_refuses_it_in_the_routers_words(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = archived_lab(new_lab, "configuration mode exclusive auto\n")
    before = lab.running(SITE)
    other = another_session(lab)

    def colleague(_site: str, phase: str) -> None:
        if phase == "saving a rollback copy":
            other.handle("configure terminal")

    result = push_site_a(lab, tmp_path / "state", progress=colleague)

    assert (result.status, result.status.exit_code) == (Status.REFUSED, 1), result.message
    assert "Configuration mode locked exclusively by user 'unknown'" in result.message
    assert lab.running(SITE) == before


def test_a_timed_push_to_a_router_in_manual_exclusive_mode_is_refused_before_any_change(
    new_lab: Callable[..., Lab],
) -> None:
    lab = archived_lab(new_lab, "configuration mode exclusive manual\n")
    before = lab.running(SITE)

    code, results = push(lab, SITE, "--confirm-within", "5")

    assert (code, results[0]["status"]) == (1, "refused")
    assert "manual exclusive configuration mode" in results[0]["message"]
    assert lab.running(SITE) == before
    assert not entered_config_mode(lab, SITE)


# -- rollback --to: the name as given -------------------------------------------------------------


def test_rollback_to_a_name_with_a_newline_is_refused_with_the_newline_escaped(lab: Lab) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)

    code, result = rollback(lab, "--to", "flash:l2tpgen-x\nforged line")

    assert (code, result["status"]) == (1, "refused")
    assert "\n" not in result["message"]
    assert "\\n" in result["message"]
    assert lab.running(SITE) == pushed


def test_rollback_to_bootflash_on_a_flash_router_is_refused_naming_flash(lab: Lab) -> None:
    push(lab, SITE)
    pushed = lab.running(SITE)
    _, listed = rollback(lab, "--list")
    name = listed["copies"][0]["name"] if "copies" in listed else None
    assert name is not None, listed

    code, result = rollback(lab, "--to", f"bootflash:{name}")

    assert (code, result["status"]) == (1, "refused")
    assert "bootflash:" in result["message"]
    assert f"`flash:{name}`" in result["message"]
    assert lab.running(SITE) == pushed
    assert rollback(lab, "--to", f"flash:{name}")[0] == 0  # the same copy, rightly named
